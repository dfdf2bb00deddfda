/* Decoder of one particle frame stream (PROTOCOL.md 4.7): checks every byte, keeps its state on any fault. */
#ifndef FC_FRAME_DECODER_H
#define FC_FRAME_DECODER_H

#include "frame_state.h"

/* One entry of a frame's section table, with where its body lies in the message. */
typedef struct {
    unsigned type;
    size_t offset, length;
    float lo, hi;
} fc_frame_section;

/* A frame's header and section table, as checked by fc_frame_parse_header. */
typedef struct {
    int kind;
    unsigned bits, tier, sections;
    uint32_t world, epoch, sequence, reference, count, ref_count, born, died, checksum;
    double time;
    float lo[3], hi[3];
    fc_frame_section section[FC_FRAME_MAX_SECTIONS];
} fc_frame_header;

/* Checks the layout of a frame (header fields, section table, lengths, counts against
 * max_particles) without decoding its channels. FC_CODEC_OK or FC_CODEC_CORRUPT. */
fc_codec_status fc_frame_parse_header(const uint8_t *message, size_t length, uint32_t max_particles,
                                      fc_frame_header *header, char *err, size_t errlen);

typedef struct fc_frame_decoder fc_frame_decoder;

/* max_particles 0: FC_FRAME_DEFAULT_MAX_PARTICLES. NULL when out of memory. */
fc_frame_decoder *fc_frame_decoder_new(uint32_t max_particles);
void fc_frame_decoder_free(fc_frame_decoder *d);

/* Decodes one frame of the stream. FC_CODEC_OK: the decoder holds the new frame.
 * FC_CODEC_NEED_KEY: a delta frame that does not apply to the held frame; FC_CODEC_CORRUPT:
 * a malformed frame; FC_CODEC_NO_MEMORY. On any error the held frame is unchanged. */
fc_codec_status fc_frame_decode(fc_frame_decoder *d, const uint8_t *message, size_t length, char *err, size_t errlen);

/* The frame held (after a successful decode): header, and particles in id order. */
bool fc_frame_decoder_ready(const fc_frame_decoder *d);
const fc_frame_header *fc_frame_decoder_header(const fc_frame_decoder *d);
const fc_particle_state *fc_frame_decoder_particles(const fc_frame_decoder *d);

/* Forgets the held frame: only a key frame decodes next. */
void fc_frame_decoder_reset(fc_frame_decoder *d);

#endif
