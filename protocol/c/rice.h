/* Rice-coded integer channels (PROTOCOL.md 4.4): blocks of 64 values, a 5-bit k per block. */
#ifndef FC_RICE_H
#define FC_RICE_H

#include "frame_format.h"

enum {
    FC_RICE_BLOCK = 64,
    FC_RICE_MAX_K = 16,
    FC_RICE_ESCAPE = 16, /* quotients from here on are escaped: 16 zero bits, then 32 raw bits */
    /* Zero bytes a decoder keeps after a channel's bytes so that one block's reads never need a
     * bounds check: 64 escaped values (48 bits each), a k, the reader's lag and its 8-byte load. */
    FC_RICE_READ_PAD = 64 * 6 + 1 + 16 + 8,
};

enum { FC_RICE_MAX_CHANNELS = 3 };

/* Bytes that one channel of n values may take, length prefix included. */
size_t fc_rice_bound(size_t n);

/* Writes `channels` (1 to 3) consecutive channels of n values each (u32 length, then the bit
 * stream), coding them interleaved for speed. out has room for channels * fc_rice_bound(n)
 * bytes, scratch for (channels - 1) * fc_rice_bound(n). Returns the bytes written. */
size_t fc_rice_encode_channels(const uint32_t *const *values, int channels, size_t n, uint8_t *out, uint8_t *scratch);
size_t fc_rice_encode(const uint32_t *values, size_t n, uint8_t *out);

/* Reads `channels` consecutive channels of n values each from in[0..avail): checks each length
 * prefix, copies the streams into pad (fc_rice_padded_size(avail, channels) bytes) and decodes
 * into values[c]; *used is set to the bytes consumed. Returns 0, or -1 if a channel is malformed. */
size_t fc_rice_padded_size(size_t avail, int channels);
int fc_rice_decode_channels(const uint8_t *in, size_t avail, size_t n, int channels, uint32_t *const *values,
                            uint8_t *pad, size_t *used);

#endif
