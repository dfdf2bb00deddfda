/* Frame decoder against hostile input: truncations, lies in every field, random bytes and mutations; errors only, the held frame kept. */
#include "check.h"
#include "frame_decoder.h"
#include "frame_encoder.h"
#include "particle_stream.h"
#include "rice.h"

#include <string.h>

typedef struct {
    fc_bytes key, delta, delta2; /* a key frame, then two deltas with births and deaths */
} valid_stream;

static void make_stream(valid_stream *v)
{
    char err[256];
    const float lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    particle_stream s;
    stream_init(&s, 5, 300, lo, hi);
    s.death_rate = 0.05, s.birth_rate = 20;
    fc_stream_config c = stream_config(&s, 14, 1, (1u << FC_ATTR_SPEED) | (1u << FC_ATTR_FLUID));
    fc_frame_encoder *e = fc_frame_encoder_new(&c, err, sizeof err);
    fc_bytes *out[3] = {&v->key, &v->delta, &v->delta2};
    for (int f = 0; f < 3; f++) {
        fc_snapshot snap = stream_snapshot(&s);
        fc_frame_encoder_push(e, &snap, out[f], err, sizeof err);
        stream_advance(&s);
    }
    fc_frame_encoder_free(e);
    stream_free(&s);
}

/* A decoder that holds the key frame. */
static fc_frame_decoder *primed(const valid_stream *v)
{
    char err[256];
    fc_frame_decoder *d = fc_frame_decoder_new(0);
    fc_codec_status st = fc_frame_decode(d, v->key.data, v->key.size, err, sizeof err);
    CHECK(st == FC_CODEC_OK, "the valid key frame decodes: %s", err);
    return d;
}

/* Decodes a modified copy of a frame on a primed decoder; checks the status and that the held
 * frame did not change. */
static void expect(const valid_stream *v, const uint8_t *bytes, size_t size, fc_codec_status want, const char *what)
{
    char err[256] = "";
    fc_frame_decoder *d = primed(v);
    uint32_t held = fc_frame_decoder_header(d)->sequence;
    uint32_t checksum = fc_particle_state_checksum(fc_frame_decoder_particles(d));
    uint8_t *copy = malloc(size ? size : 1); /* exact size: ASan sees any read past the end */
    memcpy(copy, bytes, size);
    fc_codec_status st = fc_frame_decode(d, copy, size, err, sizeof err);
    CHECK(st == want, "%s: got %s (%s), expected %s", what, fc_codec_status_name(st), err, fc_codec_status_name(want));
    CHECK(fc_frame_decoder_header(d)->sequence == held &&
              fc_particle_state_checksum(fc_frame_decoder_particles(d)) == checksum,
          "%s: the held frame is unchanged", what);
    /* and the stream goes on: the real next delta still decodes */
    st = fc_frame_decode(d, v->delta.data, v->delta.size, err, sizeof err);
    CHECK(st == FC_CODEC_OK, "%s: the next valid delta still decodes: %s", what, err);
    free(copy);
    fc_frame_decoder_free(d);
}

/* A copy of `frame` with one byte (or a u32) replaced. */
static void expect_patched(const valid_stream *v, const fc_bytes *frame, size_t offset, uint32_t value, int width,
                           fc_codec_status want, const char *what)
{
    uint8_t *copy = malloc(frame->size);
    memcpy(copy, frame->data, frame->size);
    if (width == 1) copy[offset] = (uint8_t)value;
    else if (width == 2) fc_put_u16(copy + offset, (uint16_t)value);
    else fc_put_u32(copy + offset, value);
    expect(v, copy, frame->size, want, what);
    free(copy);
}

static void truncations(const valid_stream *v)
{
    int wrong = 0;
    const fc_bytes *frames[2] = {&v->key, &v->delta};
    for (int k = 0; k < 2; k++)
        for (size_t len = 0; len < frames[k]->size; len++) {
            char err[256];
            fc_frame_decoder *d = primed(v);
            uint8_t *copy = malloc(len ? len : 1);
            memcpy(copy, frames[k]->data, len);
            wrong += fc_frame_decode(d, copy, len, err, sizeof err) != FC_CODEC_CORRUPT;
            free(copy);
            fc_frame_decoder_free(d);
        }
    CHECK(wrong == 0, "every truncation of the key and delta frames is corrupt (%d were not)", wrong);
}

static void header_lies(const valid_stream *v)
{
    const fc_bytes *key = &v->key, *delta = &v->delta;
    expect_patched(v, delta, FC_HDR_MAGIC, 'X', 1, FC_CODEC_CORRUPT, "wrong magic");
    expect_patched(v, delta, FC_HDR_VERSION, 2, 1, FC_CODEC_CORRUPT, "version 2");
    expect_patched(v, delta, FC_HDR_KIND, 2, 1, FC_CODEC_CORRUPT, "kind 2");
    expect_patched(v, delta, FC_HDR_BITS, 9, 1, FC_CODEC_CORRUPT, "bits 9");
    expect_patched(v, delta, FC_HDR_BITS, 17, 1, FC_CODEC_CORRUPT, "bits 17");
    expect_patched(v, delta, FC_HDR_TIER, 3, 1, FC_CODEC_CORRUPT, "tier 3");
    expect_patched(v, delta, FC_HDR_FLAGS, 1, 2, FC_CODEC_CORRUPT, "flags not 0");
    expect_patched(v, delta, FC_HDR_SECTIONS, 0, 2, FC_CODEC_CORRUPT, "no sections");
    expect_patched(v, delta, FC_HDR_SECTIONS, 17, 2, FC_CODEC_CORRUPT, "17 sections");
    expect_patched(v, delta, FC_HDR_SECTIONS, 2, 2, FC_CODEC_CORRUPT, "fewer sections than the body");
    uint32_t count = fc_get_u32(delta->data + FC_HDR_COUNT);
    expect_patched(v, delta, FC_HDR_COUNT, count + 1, 4, FC_CODEC_CORRUPT, "count one more than ref - died + born");
    expect_patched(v, delta, FC_HDR_COUNT, 0xFFFFFFFFu, 4, FC_CODEC_CORRUPT, "count 2^32 - 1");
    expect_patched(v, key, FC_HDR_COUNT, 1u << 24 | 1, 4, FC_CODEC_CORRUPT, "key count above the limit");
    expect_patched(v, key, FC_HDR_COUNT, 5000, 4, FC_CODEC_CORRUPT, "key count larger than its channels hold");
    expect_patched(v, delta, FC_HDR_BORN, fc_get_u32(delta->data + FC_HDR_BORN) + 1, 4, FC_CODEC_CORRUPT, "born lies");
    expect_patched(v, delta, FC_HDR_CHECKSUM, fc_get_u32(delta->data + FC_HDR_CHECKSUM) ^ 1, 4, FC_CODEC_CORRUPT,
                   "checksum off by one bit");
    expect_patched(v, delta, FC_HDR_LO, 0x7FC00000u, 4, FC_CODEC_CORRUPT, "NaN bound");
    /* hi below lo; hi = lo is a flat axis (a 2D world's z), valid, but a key frame whose z channels
     * carry values for an axis its header says is flat is corrupt, and so are bounds flat everywhere */
    expect_patched(v, delta, FC_HDR_HI, 0xBF800000u, 4, FC_CODEC_CORRUPT, "hi < lo");
    expect_patched(v, key, FC_HDR_HI + 8, fc_get_u32(key->data + FC_HDR_LO + 8), 4, FC_CODEC_CORRUPT,
                   "a flat axis with values in its channels");
    {
        fc_bytes flat = {0};
        fc_bytes_reserve(&flat, key->size);
        memcpy(flat.data, key->data, key->size);
        flat.size = key->size;
        for (int a = 0; a < 3; a++) fc_put_u32(flat.data + FC_HDR_HI + 4 * a, fc_get_u32(key->data + FC_HDR_LO + 4 * a));
        expect(v, flat.data, flat.size, FC_CODEC_CORRUPT, "bounds flat on every axis");
        fc_bytes_free(&flat);
    }
    expect_patched(v, key, FC_HDR_REFERENCE, 99, 4, FC_CODEC_CORRUPT, "key frame whose reference is not itself");
    /* the section table */
    size_t entry = FC_FRAME_HEADER_BYTES;
    expect_patched(v, delta, entry + 1, 1, 1, FC_CODEC_CORRUPT, "section reserved byte");
    expect_patched(v, delta, entry + 4, fc_get_u32(delta->data + entry + 4) + 2, 4, FC_CODEC_CORRUPT,
                   "section length not a multiple of 4");
    expect_patched(v, delta, entry + 4, 0x7FFFFFF0u, 4, FC_CODEC_CORRUPT, "section length past the end");
    expect_patched(v, delta, entry, 5, 1, FC_CODEC_CORRUPT, "unknown section type");
    expect_patched(v, delta, entry + FC_FRAME_SECTION_ENTRY_BYTES, FC_SECTION_IDS, 1, FC_CODEC_CORRUPT,
                   "duplicate section type");
    expect_patched(v, key, entry + 2 * FC_FRAME_SECTION_ENTRY_BYTES, FC_SECTION_ATTRIBUTE + 2, 1, FC_CODEC_CORRUPT,
                   "key frame without velocities");
    /* a delta that does not follow the frame held: need_key, not corrupt */
    expect_patched(v, delta, FC_HDR_REFERENCE, fc_get_u32(delta->data + FC_HDR_REFERENCE) + 1, 4, FC_CODEC_NEED_KEY,
                   "delta for another reference");
    expect_patched(v, delta, FC_HDR_EPOCH, 12345, 4, FC_CODEC_NEED_KEY, "delta of another epoch");
    expect_patched(v, delta, FC_HDR_WORLD, 12345, 4, FC_CODEC_NEED_KEY, "delta of another world");
    expect(v, v->delta2.data, v->delta2.size, FC_CODEC_NEED_KEY, "a delta after a lost one");
    fc_frame_decoder *fresh = fc_frame_decoder_new(0);
    char err[256];
    CHECK(fc_frame_decode(fresh, delta->data, delta->size, err, sizeof err) == FC_CODEC_NEED_KEY,
          "a delta on a fresh decoder needs a key frame");
    fc_frame_decoder_free(fresh);
}

/* Channels directly: escapes, the k limits, running out of bits. */
static void rice_channels(void)
{
    uint32_t values[130], back[256]; /* room for the 200 values asked for below */
    for (int i = 0; i < 130; i++) values[i] = i % 3 == 0 ? 0xFFFFFFFFu - (uint32_t)i : (uint32_t)i;
    uint8_t *out = malloc(fc_rice_bound(130)), *pad = malloc(fc_rice_padded_size(fc_rice_bound(130), 1));
    size_t size = fc_rice_encode(values, 130, out), used = 0;
    uint32_t *dest = back;
    CHECK(fc_rice_decode_channels(out, size, 130, 1, &dest, pad, &used) == 0 && used == size &&
              memcmp(values, back, sizeof values) == 0,
          "escaped 32-bit values round-trip");
    CHECK(fc_rice_decode_channels(out, size, 200, 1, &dest, pad, &used) != 0, "a channel that runs out of bits fails");
    uint8_t bad_k[12] = {8, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0, 0}; /* k = 17 */
    CHECK(fc_rice_decode_channels(bad_k, sizeof bad_k, 3, 1, &dest, pad, &used) != 0, "k = 17 is rejected");
    uint8_t odd_length[8] = {3, 0, 0, 0, 0, 0, 0, 0};
    CHECK(fc_rice_decode_channels(odd_length, sizeof odd_length, 1, 1, &dest, pad, &used) != 0,
          "a length that is not a multiple of 4 is rejected");
    free(out), free(pad);
}

static uint64_t rng = 88172645463325252ull;
static uint32_t next_random(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}

/* Random bytes (some with a valid-looking header) and random mutations of valid frames: any
 * status, but no crash and no access outside the message (ASan builds check that). */
static void random_input(const valid_stream *v)
{
    char err[256];
    int decoded = 0, rejected = 0;
    fc_frame_decoder *d = primed(v);
    for (int round = 0; round < 30000; round++) {
        const fc_bytes *base = round % 3 == 0 ? &v->key : &v->delta;
        size_t size = base->size;
        uint8_t *copy = malloc(size + 64);
        if (round % 10 == 0) { /* random bytes behind a plausible header */
            size = next_random() % 600;
            for (size_t i = 0; i < size; i++) copy[i] = (uint8_t)next_random();
            if (size >= 8) memcpy(copy, base->data, 8);
        } else {
            memcpy(copy, base->data, size);
            int mutations = 1 + (int)(next_random() % 4);
            for (int m = 0; m < mutations; m++) {
                size_t at = next_random() % size;
                switch (next_random() % 4) {
                case 0: copy[at] ^= (uint8_t)(1u << (next_random() % 8)); break;
                case 1: copy[at] = (uint8_t)next_random(); break;
                case 2: size = at; break; /* truncate */
                default: fc_put_u32(copy + (at & ~3u) % (size >= 4 ? size - 3 : 1), next_random()); break;
                }
                if (size == 0) break;
            }
        }
        uint8_t *exact = malloc(size ? size : 1);
        memcpy(exact, copy, size);
        fc_codec_status st = fc_frame_decode(d, exact, size, err, sizeof err);
        if (st == FC_CODEC_OK) {
            decoded++;
            fc_frame_decoder_free(d);
            d = primed(v);
        } else {
            rejected++;
        }
        free(exact), free(copy);
    }
    fc_frame_decoder_free(d);
    CHECK(rejected > 25000, "random input is rejected (%d rejected, %d decoded)", rejected, decoded);
}

int main(void)
{
    valid_stream v = {0};
    make_stream(&v);
    truncations(&v);
    header_lies(&v);
    rice_channels();
    random_input(&v);
    fc_bytes_free(&v.key), fc_bytes_free(&v.delta), fc_bytes_free(&v.delta2);
    return check_summary("test_codec_hostile");
}
