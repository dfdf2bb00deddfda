/* Encoder of one particle frame stream: quantize, predict at constant velocity, Rice-code the residuals (PROTOCOL.md 4). */
#include "frame_encoder.h"

#include "rice.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Survivors of a delta frame come in runs: new[start..start+length) are ref[ref_start..). */
typedef struct {
    size_t start, ref_start, length;
} survivor_run;

struct fc_frame_encoder {
    fc_stream_config config;
    uint32_t max_q;
    double scale[3], attr_scale[FC_ATTR_COUNT];
    bool has_state;
    uint32_t sequence, checksum;
    double time;
    fc_particle_state state, next;
    /* scratch, sized by the largest frame so far */
    size_t scratch_capacity;
    uint32_t *values, *died, *born, *born_index;
    uint32_t *axis_values[3]; /* the channels of one section coded together */
    survivor_run *runs;
    fc_bytes rice_scratch;
};

static bool finite_range(float lo, float hi) { return isfinite(lo) && isfinite(hi) && hi > lo; }
/* Position bounds may also be flat, lo == hi: a 2D world's z (PROTOCOL.md 4.2). */
static bool finite_bounds(float lo, float hi) { return isfinite(lo) && isfinite(hi) && hi >= lo; }

fc_frame_encoder *fc_frame_encoder_new(const fc_stream_config *config, char *err, size_t errlen)
{
    const fc_stream_config *c = config;
    if (c->bits < FC_FRAME_MIN_BITS || c->bits > FC_FRAME_MAX_BITS) {
        snprintf(err, errlen, "bits: expected %d to %d, got %u", FC_FRAME_MIN_BITS, FC_FRAME_MAX_BITS, c->bits);
        return NULL;
    }
    if (c->tier != 1 && c->tier != 2 && c->tier != 4 && c->tier != 8) {
        snprintf(err, errlen, "tier: expected 1, 2, 4 or 8, got %u", c->tier);
        return NULL;
    }
    for (int a = 0; a < 3; a++)
        if (!finite_bounds(c->lo[a], c->hi[a])) {
            snprintf(err, errlen, "bounds: axis %d needs finite lo <= hi, got %g, %g", a, c->lo[a], c->hi[a]);
            return NULL;
        }
    if (!(c->hi[0] > c->lo[0]) && !(c->hi[1] > c->lo[1]) && !(c->hi[2] > c->lo[2])) {
        snprintf(err, errlen, "bounds: flat (lo == hi) on every axis; at most two may be");
        return NULL;
    }
    if (c->attributes >> FC_ATTR_COUNT) {
        snprintf(err, errlen, "attributes: unknown attribute bits 0x%x", c->attributes);
        return NULL;
    }
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        if ((c->attributes >> a & 1) && !finite_range(c->attr_lo[a], c->attr_hi[a])) {
            snprintf(err, errlen, "%s range: needs finite lo < hi, got %g, %g", fc_attribute_names[a], c->attr_lo[a],
                     c->attr_hi[a]);
            return NULL;
        }
    fc_frame_encoder *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    e->config = *c;
    if (!e->config.max_particles) e->config.max_particles = FC_FRAME_DEFAULT_MAX_PARTICLES;
    e->max_q = (1u << c->bits) - 1;
    for (int a = 0; a < 3; a++) /* a flat axis quantizes everything to 0 */
        e->scale[a] = fc_quantize_scale(c->lo[a], c->hi[a], e->max_q);
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        if (c->attributes >> a & 1) e->attr_scale[a] = fc_quantize_scale(c->attr_lo[a], c->attr_hi[a], 255);
    return e;
}

void fc_frame_encoder_free(fc_frame_encoder *e)
{
    if (!e) return;
    fc_particle_state_free(&e->state);
    fc_particle_state_free(&e->next);
    free(e->values), free(e->died), free(e->born), free(e->born_index), free(e->runs);
    for (int a = 0; a < 3; a++) free(e->axis_values[a]);
    fc_bytes_free(&e->rice_scratch);
    free(e);
}

void fc_frame_encoder_restart(fc_frame_encoder *e) { e->has_state = false; }

static int reserve_scratch(fc_frame_encoder *e, size_t n)
{
    if (n <= e->scratch_capacity && e->values) return 0;
    size_t capacity = n > e->scratch_capacity * 5 / 4 ? n : e->scratch_capacity * 5 / 4;
    if (capacity == 0) capacity = 1;
    void *p;
#define GROW(field)                                                   \
    if (!(p = realloc(e->field, capacity * sizeof *e->field))) return -1; \
    e->field = p;
    GROW(values) GROW(died) GROW(born) GROW(born_index) GROW(runs)
    for (int a = 0; a < 3; a++) { GROW(axis_values[a]) }
#undef GROW
    if (fc_bytes_reserve(&e->rice_scratch, 2 * fc_rice_bound(capacity))) return -1;
    e->scratch_capacity = capacity;
    return 0;
}

/* ---- frame layout ------------------------------------------------------------------------ */

/* Sections are written back to back after the header and a table of a known size. */
typedef struct {
    uint8_t *base;
    size_t at;
    unsigned sections;
} frame_writer;

static void write_header(uint8_t *h, const fc_frame_encoder *e, int kind, uint32_t sequence, uint32_t reference,
                         double time, const fc_particle_state *s, uint32_t ref_count, uint32_t born, uint32_t died,
                         uint32_t checksum, unsigned sections)
{
    memset(h, 0, FC_FRAME_HEADER_BYTES);
    memcpy(h + FC_HDR_MAGIC, FC_FRAME_MAGIC, 4);
    h[FC_HDR_VERSION] = FC_FRAME_VERSION;
    h[FC_HDR_KIND] = (uint8_t)kind;
    h[FC_HDR_BITS] = (uint8_t)e->config.bits;
    h[FC_HDR_TIER] = (uint8_t)e->config.tier;
    fc_put_u32(h + FC_HDR_WORLD, e->config.world);
    fc_put_u32(h + FC_HDR_EPOCH, e->config.epoch);
    fc_put_u32(h + FC_HDR_SEQUENCE, sequence);
    fc_put_u32(h + FC_HDR_REFERENCE, reference);
    fc_put_f64(h + FC_HDR_TIME, time);
    fc_put_u32(h + FC_HDR_COUNT, (uint32_t)s->count);
    fc_put_u32(h + FC_HDR_REF_COUNT, ref_count);
    fc_put_u32(h + FC_HDR_BORN, born);
    fc_put_u32(h + FC_HDR_DIED, died);
    for (int a = 0; a < 3; a++) {
        fc_put_f32(h + FC_HDR_LO + 4 * a, e->config.lo[a]);
        fc_put_f32(h + FC_HDR_HI + 4 * a, e->config.hi[a]);
    }
    fc_put_u32(h + FC_HDR_CHECKSUM, checksum);
    fc_put_u16(h + FC_HDR_SECTIONS, (uint16_t)sections);
}

static frame_writer writer_begin(fc_bytes *out, unsigned sections)
{
    return (frame_writer){out->data, FC_FRAME_HEADER_BYTES + FC_FRAME_SECTION_ENTRY_BYTES * sections, 0};
}

static void writer_channel(frame_writer *w, const uint32_t *values, size_t n)
{
    w->at += fc_rice_encode(values, n, w->base + w->at);
}

/* The three per-axis channels of a section, coded together (rice.h); a flat axis's channel holds
 * no values (its q and v are 0: PROTOCOL.md 4.2). */
static void writer_axes(frame_writer *w, fc_frame_encoder *e, size_t n)
{
    const uint32_t *const values[3] = {e->axis_values[0], e->axis_values[1], e->axis_values[2]};
    bool flat = false;
    for (int a = 0; a < 3; a++) flat |= !(e->config.hi[a] > e->config.lo[a]);
    if (!flat) {
        w->at += fc_rice_encode_channels(values, 3, n, w->base + w->at, e->rice_scratch.data);
        return;
    }
    for (int a = 0; a < 3; a++) w->at += fc_rice_encode(values[a], e->config.hi[a] > e->config.lo[a] ? n : 0, w->base + w->at);
}

/* Closes the section that began at byte `start`. */
static void writer_section(frame_writer *w, unsigned type, size_t start, float lo, float hi)
{
    uint8_t *entry = w->base + FC_FRAME_HEADER_BYTES + FC_FRAME_SECTION_ENTRY_BYTES * w->sections++;
    memset(entry, 0, FC_FRAME_SECTION_ENTRY_BYTES);
    entry[0] = (uint8_t)type;
    fc_put_u32(entry + 4, (uint32_t)(w->at - start));
    fc_put_f32(entry + 8, lo);
    fc_put_f32(entry + 12, hi);
}

static int attribute_count(uint32_t attributes) { return __builtin_popcount(attributes); }

/* Room for a frame of n particles with the given channels: values per channel listed. */
static int reserve_frame(fc_bytes *out, unsigned sections, size_t channel_values, unsigned channels)
{
    size_t bytes = FC_FRAME_HEADER_BYTES + FC_FRAME_SECTION_ENTRY_BYTES * sections + fc_rice_bound(channel_values) * channels;
    return fc_bytes_reserve(out, bytes);
}

/* ---- key frames -------------------------------------------------------------------------- */

static fc_codec_status write_key(fc_frame_encoder *e, const fc_particle_state *s, uint32_t sequence, double time,
                                 uint32_t checksum, fc_bytes *out)
{
    size_t n = s->count;
    unsigned sections = 3 + (unsigned)attribute_count(s->attributes);
    if (reserve_scratch(e, n) || reserve_frame(out, sections, n, sections + 4)) return FC_CODEC_NO_MEMORY;
    uint32_t *values = e->values;
    frame_writer w = writer_begin(out, sections);

    size_t start = w.at;
    for (size_t i = 0; i < n; i++) values[i] = i ? s->id[i] - s->id[i - 1] - 1 : s->id[0];
    writer_channel(&w, values, n);
    writer_section(&w, FC_SECTION_IDS, start, 0, 0);

    start = w.at;
    for (int a = 0; a < 3; a++) {
        const uint16_t *q = s->q[a];
        uint32_t *out_values = e->axis_values[a];
        for (size_t i = 0; i < n; i++) out_values[i] = fc_zigzag((int32_t)q[i] - (i ? (int32_t)q[i - 1] : 0));
    }
    writer_axes(&w, e, n);
    writer_section(&w, FC_SECTION_POSITIONS, start, 0, 0);

    start = w.at;
    for (int a = 0; a < 3; a++)
        for (size_t i = 0; i < n; i++) e->axis_values[a][i] = fc_zigzag(s->v[a][i]);
    writer_axes(&w, e, n);
    writer_section(&w, FC_SECTION_VELOCITIES, start, 0, 0);

    for (int a = 0; a < FC_ATTR_COUNT; a++) {
        if (!(s->attributes >> a & 1)) continue;
        start = w.at;
        for (size_t i = 0; i < n; i++) values[i] = s->attr[a][i];
        writer_channel(&w, values, n);
        writer_section(&w, FC_SECTION_ATTRIBUTE + (unsigned)a, start, s->attr_lo[a], s->attr_hi[a]);
    }
    write_header(out->data, e, FC_FRAME_KEY, sequence, sequence, time, s, 0, 0, 0, checksum, sections);
    out->size = w.at;
    return FC_CODEC_OK;
}

fc_codec_status fc_frame_encoder_key(fc_frame_encoder *e, fc_bytes *out)
{
    if (!e->has_state) return FC_CODEC_BAD_INPUT;
    return write_key(e, &e->state, e->sequence, e->time, e->checksum, out);
}

/* ---- delta frames ------------------------------------------------------------------------ */

/* Matches the new ids against the reference's: fills e->runs (returns their number), the
 * gap-coded died indices and born ids, and the new indices of the born particles. */
static size_t match_ids(fc_frame_encoder *e, const fc_particle_state *ref, const fc_particle_state *now,
                        size_t *died_count, size_t *born_count)
{
    size_t runs = 0, died = 0, born = 0;
    if (ref->count == now->count && memcmp(ref->id, now->id, now->count * sizeof *now->id) == 0) {
        if (now->count) e->runs[runs++] = (survivor_run){0, 0, now->count};
        *died_count = *born_count = 0;
        return runs;
    }
    size_t i = 0, j = 0;
    int64_t last_died = -1, last_born = -1;
    while (i < ref->count || j < now->count) {
        if (j == now->count || (i < ref->count && ref->id[i] < now->id[j])) {
            e->died[died++] = (uint32_t)((int64_t)i - last_died - 1);
            last_died = (int64_t)i++;
        } else if (i == ref->count || now->id[j] < ref->id[i]) {
            e->born[born] = (uint32_t)((int64_t)now->id[j] - last_born - 1);
            e->born_index[born++] = (uint32_t)j;
            last_born = now->id[j++];
        } else {
            survivor_run *last = runs ? &e->runs[runs - 1] : NULL;
            if (last && last->start + last->length == j && last->ref_start + last->length == i)
                last->length++;
            else
                e->runs[runs++] = (survivor_run){j, i, 1};
            i++, j++;
        }
    }
    *died_count = died;
    *born_count = born;
    return runs;
}

static fc_codec_status write_delta(fc_frame_encoder *e, uint32_t sequence, double time, uint32_t checksum,
                                   fc_bytes *out)
{
    fc_particle_state *ref = &e->state, *now = &e->next;
    size_t n = now->count, died, born;
    if (reserve_scratch(e, n > ref->count ? n : ref->count)) return FC_CODEC_NO_MEMORY;
    size_t runs = match_ids(e, ref, now, &died, &born);
    bool ids_changed = died + born > 0;
    unsigned sections = 1 + ids_changed + (unsigned)attribute_count(now->attributes);
    size_t most = n > ref->count ? n : ref->count;
    if (reserve_frame(out, sections, most, sections + 4)) return FC_CODEC_NO_MEMORY;
    uint32_t *values = e->values;
    frame_writer w = writer_begin(out, sections);
    size_t start;

    if (ids_changed) {
        start = w.at;
        writer_channel(&w, e->died, died);
        writer_channel(&w, e->born, born);
        writer_section(&w, FC_SECTION_IDS, start, 0, 0);
    }

    size_t survivors = n - born;
    start = w.at;
    for (int a = 0; a < 3; a++) {
        const uint16_t *q = now->q[a], *q_ref = ref->q[a];
        const int32_t *v_ref = ref->v[a];
        int32_t *v = now->v[a];
        uint32_t *axis_values = e->axis_values[a];
        size_t o = 0;
        for (size_t r = 0; r < runs; r++) {
            const survivor_run run = e->runs[r];
            uint32_t *out_values = axis_values + o;
            const uint16_t *qn = q + run.start, *qr = q_ref + run.ref_start;
            const int32_t *vr = v_ref + run.ref_start;
            int32_t *vn = v + run.start;
            for (size_t t = 0; t < run.length; t++) {
                int32_t moved = (int32_t)qn[t] - (int32_t)qr[t];
                out_values[t] = fc_zigzag(moved - vr[t]);
                vn[t] = moved;
            }
            o += run.length;
        }
        for (size_t b = 0; b < born; b++) {
            axis_values[survivors + b] = q[e->born_index[b]];
            v[e->born_index[b]] = 0;
        }
    }
    writer_axes(&w, e, n);
    writer_section(&w, FC_SECTION_POSITIONS, start, 0, 0);

    for (int a = 0; a < FC_ATTR_COUNT; a++) {
        if (!(now->attributes >> a & 1)) continue;
        const uint8_t *an = now->attr[a], *ar = ref->attr[a];
        size_t o = 0;
        for (size_t r = 0; r < runs; r++) {
            const survivor_run run = e->runs[r];
            for (size_t t = 0; t < run.length; t++)
                values[o + t] = fc_zigzag((int32_t)an[run.start + t] - (int32_t)ar[run.ref_start + t]);
            o += run.length;
        }
        for (size_t b = 0; b < born; b++) values[survivors + b] = an[e->born_index[b]];
        start = w.at;
        writer_channel(&w, values, n);
        writer_section(&w, FC_SECTION_ATTRIBUTE + (unsigned)a, start, now->attr_lo[a], now->attr_hi[a]);
    }
    write_header(out->data, e, FC_FRAME_DELTA, sequence, e->sequence, time, now, (uint32_t)ref->count, (uint32_t)born,
                 (uint32_t)died, checksum, sections);
    out->size = w.at;
    return FC_CODEC_OK;
}

/* The snapshot's positions quantized for this stream's bits and bounds, or NULL. */
static const fc_quantized_positions *quantized_for(const fc_frame_encoder *e, const fc_snapshot *s)
{
    for (unsigned k = 0; k < s->quantized_count && k < FC_SNAPSHOT_MAX_QUANTIZED; k++) {
        const fc_quantized_positions *q = &s->quantized[k];
        if (q->bits == e->config.bits && !memcmp(q->lo, e->config.lo, sizeof q->lo) &&
            !memcmp(q->hi, e->config.hi, sizeof q->hi) && q->q[0] && q->q[1] && q->q[2])
            return q;
    }
    return NULL;
}

/* Whether attribute a is in the snapshot quantized in this stream's range. */
static int attribute_quantized(const fc_frame_encoder *e, const fc_snapshot *s, int a)
{
    return s->attribute_q[a] && s->attribute_lo[a] == e->config.attr_lo[a] && s->attribute_hi[a] == e->config.attr_hi[a];
}

/* ---- push -------------------------------------------------------------------------------- */

static fc_codec_status check_snapshot(const fc_frame_encoder *e, const fc_snapshot *s, char *err, size_t errlen)
{
    if (s->count > e->config.max_particles) {
        snprintf(err, errlen, "count: %zu particles, above the stream's limit %u", s->count, e->config.max_particles);
        return FC_CODEC_BAD_INPUT;
    }
    if (s->count && !s->id) {
        snprintf(err, errlen, "snapshot: ids are required");
        return FC_CODEC_BAD_INPUT;
    }
    if (s->count && !quantized_for(e, s) && (!s->position[0] || !s->position[1] || !s->position[2])) {
        snprintf(err, errlen, "snapshot: no positions, and none quantized for %u bits in the stream's bounds",
                 e->config.bits);
        return FC_CODEC_BAD_INPUT;
    }
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        if ((e->config.attributes >> a & 1) && s->count && !s->attribute[a] && !attribute_quantized(e, s, a)) {
            snprintf(err, errlen, "snapshot: attribute %s is carried by the stream but missing", fc_attribute_names[a]);
            return FC_CODEC_BAD_INPUT;
        }
    for (size_t i = 1; i < s->count; i++)
        if (s->id[i] <= s->id[i - 1]) {
            snprintf(err, errlen, "id: not strictly increasing at index %zu (%u after %u)", i, s->id[i], s->id[i - 1]);
            return FC_CODEC_BAD_INPUT;
        }
    return FC_CODEC_OK;
}

/* Quantizes the snapshot into e->next. */
static void quantize_snapshot(fc_frame_encoder *e, const fc_snapshot *s)
{
    fc_particle_state *now = &e->next;
    size_t n = s->count;
    now->count = n;
    if (n) memcpy(now->id, s->id, n * sizeof *now->id); /* s->id may be NULL when n is 0 */
    const fc_quantized_positions *ready = quantized_for(e, s);
    for (int a = 0; a < 3; a++) {
        if (ready) {
            if (n) memcpy(now->q[a], ready->q[a], n * sizeof *now->q[a]);
            continue;
        }
        const float *x = s->position[a];
        uint16_t *q = now->q[a];
        float lo = e->config.lo[a];
        double scale = e->scale[a];
        uint32_t max_q = e->max_q;
        for (size_t i = 0; i < n; i++) q[i] = (uint16_t)fc_quantize(x[i], lo, scale, max_q);
    }
    now->attributes = e->config.attributes;
    for (int a = 0; a < FC_ATTR_COUNT; a++) {
        now->attr_lo[a] = e->config.attr_lo[a];
        now->attr_hi[a] = e->config.attr_hi[a];
        if (!(e->config.attributes >> a & 1)) continue;
        if (attribute_quantized(e, s, a)) {
            if (n) memcpy(now->attr[a], s->attribute_q[a], n);
            continue;
        }
        const float *x = s->attribute[a];
        uint8_t *q = now->attr[a];
        float lo = e->config.attr_lo[a];
        double scale = e->attr_scale[a];
        for (size_t i = 0; i < n; i++) q[i] = (uint8_t)fc_quantize(x[i], lo, scale, 255);
    }
}

fc_codec_status fc_frame_encoder_push(fc_frame_encoder *e, const fc_snapshot *s, fc_bytes *out, char *err,
                                      size_t errlen)
{
    fc_codec_status status = check_snapshot(e, s, err, errlen);
    if (status != FC_CODEC_OK) return status;
    if (fc_particle_state_reserve(&e->next, s->count)) return FC_CODEC_NO_MEMORY;
    quantize_snapshot(e, s);
    uint32_t checksum = fc_particle_state_checksum(&e->next);
    if (e->has_state) {
        status = write_delta(e, s->sequence, s->time, checksum, out);
    } else {
        for (int a = 0; a < 3; a++) memset(e->next.v[a], 0, s->count * sizeof *e->next.v[a]);
        status = write_key(e, &e->next, s->sequence, s->time, checksum, out);
    }
    if (status != FC_CODEC_OK) {
        snprintf(err, errlen, "out of memory");
        return status;
    }
    fc_particle_state_swap(&e->state, &e->next);
    e->has_state = true;
    e->sequence = s->sequence;
    e->time = s->time;
    e->checksum = checksum;
    return FC_CODEC_OK;
}
