/* Frame codec round trip: every particle back exactly once, within half a quantization step, through births, deaths, late joins and lost frames. */
#include "check.h"
#include "frame_decoder.h"
#include "frame_encoder.h"
#include "particle_stream.h"

#include <string.h>

static float clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

/* Compares a decoded frame with the snapshot it was encoded from; returns the failures. */
static int compare(const fc_frame_decoder *d, const particle_stream *s, const fc_stream_config *c, const char *what)
{
    const fc_particle_state *p = fc_frame_decoder_particles(d);
    const fc_frame_header *h = fc_frame_decoder_header(d);
    int failures = 0;
    if (p->count != s->count || h->sequence != s->sequence) {
        fprintf(stderr, "%s: count %zu vs %zu, sequence %u vs %u\n", what, p->count, s->count, h->sequence,
                s->sequence);
        return 1;
    }
    double max_q = (double)((1u << c->bits) - 1);
    for (size_t i = 0; i < s->count && failures < 5; i++) {
        if (p->id[i] != s->id[i]) {
            fprintf(stderr, "%s: particle %zu id %u, expected %u\n", what, i, p->id[i], s->id[i]);
            failures++;
            continue;
        }
        for (int a = 0; a < 3; a++) {
            double step = ((double)c->hi[a] - c->lo[a]) / max_q;
            double x = clampf(s->pos[a][i], c->lo[a], c->hi[a]);
            double decoded = c->lo[a] + p->q[a][i] * step;
            if (fabs(decoded - x) > 0.5 * step * (1 + 1e-9)) {
                fprintf(stderr, "%s: id %u axis %d: %.9g decoded as %.9g (step %.3g)\n", what, s->id[i], a, x,
                        decoded, step);
                failures++;
            }
        }
        for (int a = 0; a < FC_ATTR_COUNT; a++) {
            if (!(c->attributes >> a & 1)) continue;
            double step = ((double)c->attr_hi[a] - c->attr_lo[a]) / 255;
            double x = clampf(s->attr[a][i], c->attr_lo[a], c->attr_hi[a]);
            double decoded = c->attr_lo[a] + p->attr[a][i] * step;
            if (fabs(decoded - x) > 0.5 * step * (1 + 1e-9)) {
                fprintf(stderr, "%s: id %u %s: %.9g decoded as %.9g\n", what, s->id[i], fc_attribute_names[a], x,
                        decoded);
                failures++;
            }
        }
    }
    return failures;
}

static bool same_particles(const fc_particle_state *a, const fc_particle_state *b)
{
    if (a->count != b->count || memcmp(a->id, b->id, a->count * 4)) return false;
    for (int k = 0; k < 3; k++)
        if (memcmp(a->q[k], b->q[k], a->count * 2) || memcmp(a->v[k], b->v[k], a->count * 4)) return false;
    return true;
}

/* Byte lengths of the three channels of a frame's section `type` (a flat axis's is 0). */
static void axis_channel_lengths(const fc_bytes *frame, unsigned type, uint32_t lengths[3])
{
    fc_frame_header h;
    char err[128];
    lengths[0] = lengths[1] = lengths[2] = UINT32_MAX;
    if (fc_frame_parse_header(frame->data, frame->size, 0, &h, err, sizeof err)) return;
    for (unsigned k = 0; k < h.sections; k++) {
        if (h.section[k].type != type) continue;
        size_t at = h.section[k].offset;
        for (int a = 0; a < 3; a++) lengths[a] = fc_get_u32(frame->data + at), at += 4 + lengths[a];
    }
}

/* flat: an axis whose bounds are flat (lo == hi, as a 2D world's z), or -1. */
static void run_stream(unsigned bits, unsigned tier, uint32_t attributes, size_t count, double death, double birth,
                       int flat)
{
    char what[96], err[256];
    float lo[3] = {-1, 0, 0.5f}, hi[3] = {1, 2, 1};
    if (flat >= 0) hi[flat] = lo[flat];
    particle_stream s;
    stream_init(&s, bits * 100 + tier, count, lo, hi);
    s.death_rate = death, s.birth_rate = birth;
    fc_stream_config c = stream_config(&s, bits, tier, attributes);
    fc_frame_encoder *e = fc_frame_encoder_new(&c, err, sizeof err);
    fc_frame_decoder *main_decoder = fc_frame_decoder_new(0), *late = fc_frame_decoder_new(0);
    fc_bytes frame = {0}, key = {0};
    bool late_joined = false;
    int mismatches = 0, decode_errors = 0, late_mismatches = 0;
    for (int f = 0; f < 40; f++) {
        fc_snapshot snap = stream_snapshot(&s);
        fc_codec_status st = fc_frame_encoder_push(e, &snap, &frame, err, sizeof err);
        CHECK(st == FC_CODEC_OK, "push frame %d: %s", f, err);
        CHECK(frame.data[FC_HDR_KIND] == (f == 0 ? FC_FRAME_KEY : FC_FRAME_DELTA), "frame %d kind", f);
        snprintf(what, sizeof what, "bits %u tier %u flat %d frame %d", bits, tier, flat, f);
        if (flat >= 0 && (f == 0 || f == 1)) { /* a flat axis costs its channel's 4-byte length, nothing more */
            uint32_t positions[3], velocities[3];
            axis_channel_lengths(&frame, FC_SECTION_POSITIONS, positions);
            axis_channel_lengths(&frame, FC_SECTION_VELOCITIES, velocities);
            CHECK(positions[flat] == 0 && positions[(flat + 1) % 3] > 0, "%s: flat axis channel of %u bytes", what,
                  positions[flat]);
            CHECK(f == 1 || velocities[flat] == 0, "%s: flat axis velocity channel of %u bytes", what, velocities[flat]);
        }

        if (f == 25) {
            /* this frame is lost on the way to the main decoder: the next delta must not apply */
            if (late_joined) /* the late joiner did get frame 25 */
                CHECK(fc_frame_decode(late, frame.data, frame.size, err, sizeof err) == FC_CODEC_OK, "late: %s", err);
            stream_advance(&s);
            snap = stream_snapshot(&s);
            CHECK(fc_frame_encoder_push(e, &snap, &frame, err, sizeof err) == FC_CODEC_OK, "push: %s", err);
            uint32_t held = fc_frame_decoder_header(main_decoder)->sequence;
            st = fc_frame_decode(main_decoder, frame.data, frame.size, err, sizeof err);
            CHECK(st == FC_CODEC_NEED_KEY, "%s: a delta after a lost frame gives need_key, got %s", what,
                  fc_codec_status_name(st));
            CHECK(fc_frame_decoder_header(main_decoder)->sequence == held, "%s: the held frame is unchanged", what);
            CHECK(fc_frame_encoder_key(e, &key) == FC_CODEC_OK, "key after loss");
            st = fc_frame_decode(main_decoder, key.data, key.size, err, sizeof err);
            CHECK(st == FC_CODEC_OK, "%s: resync with a key frame: %s", what, err);
        } else {
            st = fc_frame_decode(main_decoder, frame.data, frame.size, err, sizeof err);
            decode_errors += st != FC_CODEC_OK;
            if (st != FC_CODEC_OK) fprintf(stderr, "%s: %s\n", what, err);
        }
        mismatches += compare(main_decoder, &s, &c, what);

        if (f == 15) { /* a client joins late: it gets a key frame of the stream state */
            CHECK(fc_frame_encoder_key(e, &key) == FC_CODEC_OK, "key for a late joiner");
            CHECK(key.data[FC_HDR_KIND] == FC_FRAME_KEY, "late key kind");
            st = fc_frame_decode(late, key.data, key.size, err, sizeof err);
            CHECK(st == FC_CODEC_OK, "late joiner key: %s", err);
            late_joined = true;
        } else if (late_joined) {
            st = fc_frame_decode(late, frame.data, frame.size, err, sizeof err);
            CHECK(st == FC_CODEC_OK, "%s: late joiner delta: %s", what, err);
        }
        if (late_joined && f != 25)
            late_mismatches += !same_particles(fc_frame_decoder_particles(late), fc_frame_decoder_particles(main_decoder));
        stream_advance(&s);
    }
    CHECK(decode_errors == 0, "bits %u tier %u flat %d: %d frames failed to decode", bits, tier, flat, decode_errors);
    CHECK(mismatches == 0, "bits %u tier %u: %d particles off by more than half a step", bits, tier, mismatches);
    CHECK(late_mismatches == 0, "bits %u tier %u: the late joiner differs in %d frames", bits, tier, late_mismatches);
    fc_bytes_free(&frame), fc_bytes_free(&key);
    fc_frame_decoder_free(main_decoder), fc_frame_decoder_free(late);
    fc_frame_encoder_free(e);
    stream_free(&s);
}

/* A world that starts empty, fills, and empties again. */
static void empty_and_back(void)
{
    char err[256];
    const float lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    particle_stream s;
    stream_init(&s, 99, 0, lo, hi);
    fc_stream_config c = stream_config(&s, 14, 1, 1u << FC_ATTR_FLUID);
    fc_frame_encoder *e = fc_frame_encoder_new(&c, err, sizeof err);
    fc_frame_decoder *d = fc_frame_decoder_new(0);
    fc_bytes frame = {0};
    int failures = 0;
    for (int f = 0; f < 12; f++) {
        if (f < 6) s.birth_rate = 70 * f, s.death_rate = 0;
        else s.birth_rate = 0, s.death_rate = f == 11 ? 1.0 : 0.5;
        fc_snapshot snap = stream_snapshot(&s);
        failures += fc_frame_encoder_push(e, &snap, &frame, err, sizeof err) != FC_CODEC_OK;
        failures += fc_frame_decode(d, frame.data, frame.size, err, sizeof err) != FC_CODEC_OK;
        failures += compare(d, &s, &c, "empty and back");
        stream_advance(&s);
    }
    CHECK(failures == 0, "a stream through zero particles: %d failures (%s)", failures, err);
    fc_bytes_free(&frame);
    fc_frame_decoder_free(d);
    fc_frame_encoder_free(e);
    stream_free(&s);
}

static void rejected_input(void)
{
    char err[256] = "";
    fc_stream_config c = {.bits = 9, .tier = 1, .lo = {0, 0, 0}, .hi = {1, 1, 1}};
    CHECK(!fc_frame_encoder_new(&c, err, sizeof err) && strstr(err, "bits"), "bits 9 rejected: %s", err);
    c.bits = 12, c.tier = 3;
    CHECK(!fc_frame_encoder_new(&c, err, sizeof err) && strstr(err, "tier"), "tier 3 rejected: %s", err);
    c.tier = 1, c.hi[1] = -0.5f;
    CHECK(!fc_frame_encoder_new(&c, err, sizeof err) && strstr(err, "bounds"), "empty bounds rejected: %s", err);
    c.hi[1] = NAN;
    CHECK(!fc_frame_encoder_new(&c, err, sizeof err) && strstr(err, "bounds"), "NaN bounds rejected: %s", err);
    c.hi[0] = c.hi[1] = c.hi[2] = 0;
    CHECK(!fc_frame_encoder_new(&c, err, sizeof err) && strstr(err, "every axis"), "bounds flat everywhere rejected: %s",
          err);
    c.hi[0] = c.hi[2] = 1, c.hi[1] = 0;
    fc_frame_encoder *flat = fc_frame_encoder_new(&c, err, sizeof err);
    CHECK(flat != NULL, "bounds flat on one axis accepted: %s", err);
    fc_frame_encoder_free(flat);
    c.hi[1] = 1;
    fc_frame_encoder *e = fc_frame_encoder_new(&c, err, sizeof err);
    uint32_t ids[3] = {1, 5, 5};
    float x[3] = {0.1f, 0.2f, NAN};
    fc_snapshot snap = {.count = 3, .id = ids, .position = {x, x, x}};
    fc_bytes out = {0};
    CHECK(fc_frame_encoder_push(e, &snap, &out, err, sizeof err) == FC_CODEC_BAD_INPUT && strstr(err, "id"),
          "repeated id rejected: %s", err);
    CHECK(fc_frame_encoder_key(e, &out) == FC_CODEC_BAD_INPUT, "no key frame before the first snapshot");
    ids[2] = 9;
    CHECK(fc_frame_encoder_push(e, &snap, &out, err, sizeof err) == FC_CODEC_OK, "push: %s", err);
    fc_frame_decoder *d = fc_frame_decoder_new(0);
    CHECK(fc_frame_decode(d, out.data, out.size, err, sizeof err) == FC_CODEC_OK, "decode: %s", err);
    CHECK(fc_frame_decoder_particles(d)->q[0][2] == 0, "NaN is quantized to 0");
    fc_bytes_free(&out);
    fc_frame_decoder_free(d);
    fc_frame_encoder_free(e);
}

int main(void)
{
    const uint32_t all = (1u << FC_ATTR_COUNT) - 1;
    run_stream(16, 1, all, 3000, 0.01, 30, -1);
    run_stream(12, 2, (1u << FC_ATTR_SPEED) | (1u << FC_ATTR_FLUID), 2000, 0.02, 40, -1);
    run_stream(10, 4, 0, 500, 0.0, 0, -1);
    run_stream(13, 8, 1u << FC_ATTR_DENSITY, 130, 0.1, 13, -1);
    /* a 2D world's flat z, with births and deaths and without (the decoder's two delta paths) */
    run_stream(16, 1, all, 3000, 0.01, 30, 2);
    run_stream(12, 2, 0, 700, 0.0, 0, 2);
    run_stream(14, 1, 0, 300, 0.02, 5, 0);
    empty_and_back();
    rejected_input();
    return check_summary("test_codec_roundtrip");
}
