/* Rice-coded integer channels (PROTOCOL.md 4.4): the encoder picks k per block, the decoder checks every bit it reads. */
#include "rice.h"

#include <stdbool.h>

size_t fc_rice_bound(size_t n)
{
    size_t blocks = (n + FC_RICE_BLOCK - 1) / FC_RICE_BLOCK;
    size_t bits = blocks * 5 + n * 48; /* every value escaped, at worst */
    return 4 + (bits + 31) / 32 * 4 + 8; /* + 8: the writer stores whole 64-bit words */
}

/* Unaligned little-endian 64-bit access (one instruction on the hosts we build for). */
static inline uint64_t load_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline void store_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, sizeof v);
}

/* ---- writing ----------------------------------------------------------------------------- */

/* A branch-free bit writer: every put stores the whole 64-bit accumulator and advances by the
 * completed bytes, so fewer than 8 bits are pending between calls. */
typedef struct {
    uint8_t *out;
    uint64_t acc;   /* pending bits, least significant first; bits above count are 0 */
    unsigned count; /* pending bit count, below 8 between calls */
} bit_writer;

static inline void put_bits(bit_writer *w, uint64_t code, unsigned length) /* length <= 56 */
{
    w->acc |= code << w->count;
    w->count += length;
    store_le64(w->out, w->acc);
    w->out += w->count >> 3;
    w->acc >>= w->count & ~7u;
    w->count &= 7;
}

/* The k that makes the block shortest: start from log2 of the mean and weigh it against its two
 * neighbours in one pass (the cost is convex in k for the distributions that occur; a wrong
 * guess costs bits only, never correctness). */
static unsigned best_k(const uint32_t *values, unsigned n)
{
    uint64_t sum = 0;
    for (unsigned i = 0; i < n; i++) sum += values[i];
    uint64_t mean = sum / n;
    unsigned guess = 1;
    while (guess < FC_RICE_MAX_K - 1 && (mean >> (guess + 1)) != 0) guess++;
    uint32_t cost[3] = {0, 0, 0}; /* k = guess - 1, guess, guess + 1 */
    for (unsigned i = 0; i < n; i++)
        for (unsigned c = 0; c < 3; c++) {
            uint32_t k = guess - 1 + c, m = values[i] >> k;
            cost[c] += m < FC_RICE_ESCAPE ? m + 1 + k : FC_RICE_ESCAPE + 32;
        }
    unsigned best = cost[0] <= cost[1] ? 0 : 1;
    if (cost[2] < cost[best]) best = 2;
    return guess - 1 + best;
}

/* Codes one block: first every value's code and length (independent, so they vectorize), then
 * the codes are appended two at a time where they fit in one write. */
static void encode_block(const uint32_t *values, unsigned count, bit_writer *writer)
{
    bit_writer local = *writer, *w = &local; /* a local copy: the byte stores cannot alias it */
    unsigned k = best_k(values, count);
    uint32_t mask = (1u << k) - 1;
    uint64_t code[FC_RICE_BLOCK];
    uint32_t length[FC_RICE_BLOCK];
    for (unsigned i = 0; i < count; i++) {
        uint32_t z = values[i], m = z >> k;
        bool escaped = m >= FC_RICE_ESCAPE;
        /* m zeros, a one, the k low bits; or 16 zeros, then z */
        code[i] = escaped ? (uint64_t)z << FC_RICE_ESCAPE : (uint64_t)((z & mask) << 1 | 1) << (m & 31);
        length[i] = escaped ? FC_RICE_ESCAPE + 32 : m + 1 + k;
    }
    put_bits(w, k, 5);
    unsigned i = 0;
    for (; i + 1 < count; i += 2) {
        if (length[i] + length[i + 1] <= 56) {
            put_bits(w, code[i] | code[i + 1] << length[i], length[i] + length[i + 1]);
        } else {
            put_bits(w, code[i], length[i]);
            put_bits(w, code[i + 1], length[i + 1]);
        }
    }
    if (i < count) put_bits(w, code[i], length[i]);
    *writer = local;
}

size_t fc_rice_encode_channels(const uint32_t *const *values, int channels, size_t n, uint8_t *out, uint8_t *scratch)
{
    (void)scratch; /* channels are written one after the other */
    size_t at = 0;
    for (int c = 0; c < channels; c++) {
        uint8_t *stream = out + at + 4;
        bit_writer w = {stream, 0, 0};
        for (size_t start = 0; start < n; start += FC_RICE_BLOCK)
            encode_block(values[c] + start, n - start < FC_RICE_BLOCK ? (unsigned)(n - start) : FC_RICE_BLOCK, &w);
        size_t bits = (size_t)(w.out - stream) * 8 + w.count;
        /* the pending bits and zeros up to 8 bytes on: the padding (at most 4 bytes) is zero */
        store_le64(w.out, w.acc);
        size_t length = (bits + 31) / 32 * 4;
        fc_put_u32(out + at, (uint32_t)length);
        at += 4 + length;
    }
    return at;
}

size_t fc_rice_encode(const uint32_t *values, size_t n, uint8_t *out)
{
    return fc_rice_encode_channels(&values, 1, n, out, NULL);
}

/* ---- reading ----------------------------------------------------------------------------- */

size_t fc_rice_padded_size(size_t avail, int channels) { return avail + (size_t)channels * FC_RICE_READ_PAD; }

/* A bit reader that keeps 56 to 63 bits in a register after each refill (F. Giesen's "variant
 * 4"): refilling does not wait for the bits being decoded. */
typedef struct {
    const uint8_t *start, *p;
    uint64_t buf;
    unsigned count;
} bit_reader;

static inline void refill(bit_reader *r)
{
    r->buf |= load_le64(r->p) << r->count;
    r->p += (63 - r->count) >> 3;
    r->count |= 56;
}

static inline void skip(bit_reader *r, unsigned length)
{
    r->buf >>= length;
    r->count -= length;
}

static inline size_t consumed_bits(const bit_reader *r) { return (size_t)(r->p - r->start) * 8 - r->count; }

static inline uint32_t read_value(bit_reader *r, unsigned k, uint32_t mask)
{
    refill(r);
    uint64_t window = r->buf;
    if (window & 0xFFFFu) {
        unsigned m = (unsigned)__builtin_ctzll(window);
        skip(r, m + 1 + k);
        return ((uint32_t)(window >> (m + 1)) & mask) | m << k;
    }
    skip(r, FC_RICE_ESCAPE + 32);
    return (uint32_t)(window >> FC_RICE_ESCAPE);
}

static inline __attribute__((always_inline)) int decode_interleaved(bit_reader *r, const size_t *total_bits,
                                                                    int channels, size_t n, uint32_t *const *values)
{
    for (size_t start = 0; start < n; start += FC_RICE_BLOCK) {
        size_t count = n - start < FC_RICE_BLOCK ? n - start : FC_RICE_BLOCK;
        unsigned k[FC_RICE_MAX_CHANNELS];
        uint32_t mask[FC_RICE_MAX_CHANNELS];
        for (int c = 0; c < channels; c++) {
            refill(&r[c]);
            k[c] = (unsigned)r[c].buf & 31;
            skip(&r[c], 5);
            if (k[c] > FC_RICE_MAX_K) return -1;
            mask[c] = (1u << k[c]) - 1;
        }
        for (size_t i = 0; i < count; i++)
            for (int c = 0; c < channels; c++) values[c][start + i] = read_value(&r[c], k[c], mask[c]);
        /* the padding covers one block's worst case past the end: check once per block */
        for (int c = 0; c < channels; c++)
            if (consumed_bits(&r[c]) > total_bits[c]) return -1;
    }
    return 0;
}

int fc_rice_decode_channels(const uint8_t *in, size_t avail, size_t n, int channels, uint32_t *const *values,
                            uint8_t *pad, size_t *used)
{
    bit_reader r[FC_RICE_MAX_CHANNELS];
    size_t total_bits[FC_RICE_MAX_CHANNELS], at = 0;
    uint8_t *stream = pad;
    for (int c = 0; c < channels; c++) {
        if (avail - at < 4) return -1;
        size_t length = fc_get_u32(in + at);
        if (length % 4 != 0 || length > avail - at - 4) return -1;
        if (n > length * 8) return -1; /* every value takes at least one bit */
        memcpy(stream, in + at + 4, length);
        memset(stream + length, 0, FC_RICE_READ_PAD);
        r[c] = (bit_reader){stream, stream, 0, 0};
        total_bits[c] = length * 8;
        stream += length + FC_RICE_READ_PAD;
        at += 4 + length;
    }
    int status = channels == 3 ? decode_interleaved(r, total_bits, 3, n, values)
                               : decode_interleaved(r, total_bits, 1, n, values);
    for (int c = 1; c < channels && channels != 3 && status == 0; c++)
        status = decode_interleaved(r + c, total_bits + c, 1, n, values + c);
    if (status) return status;
    *used = at;
    return 0;
}
