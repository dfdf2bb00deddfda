/* libFuzzer target: a sequence of particle frames, each as a u32 little-endian length and its bytes, fed to one decoder. */
#include "frame_decoder.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fc_frame_decoder *decoder;
    if (!decoder) decoder = fc_frame_decoder_new(1u << 20);
    fc_frame_decoder_reset(decoder);
    char err[256];
    while (size >= 4) {
        size_t length = fc_get_u32(data);
        data += 4, size -= 4;
        if (length > size) length = size;
        /* an exact copy, so that the sanitizer sees any read past the frame */
        uint8_t *frame = malloc(length ? length : 1);
        memcpy(frame, data, length);
        fc_codec_status status = fc_frame_decode(decoder, frame, length, err, sizeof err);
        if (status == FC_CODEC_OK) {
            /* what a client then reads: every particle of the frame held */
            const fc_particle_state *p = fc_frame_decoder_particles(decoder);
            volatile uint32_t sum = 0;
            for (size_t i = 0; i < p->count; i++) sum += p->id[i] + p->q[0][i] + p->q[1][i] + p->q[2][i];
        }
        free(frame);
        data += length, size -= length;
    }
    return 0;
}
