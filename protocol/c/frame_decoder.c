/* Decoder of one particle frame stream: header and section checks, Rice channels, prediction, checksum (PROTOCOL.md 4.7). */
#include "frame_decoder.h"

#include "rice.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Survivors of a delta frame come in runs: new[start..start+length) are ref[ref_start..). */
typedef struct {
    size_t start, ref_start, length;
} survivor_run;

struct fc_frame_decoder {
    uint32_t max_particles;
    bool ready;
    fc_frame_header header; /* of the frame held */
    fc_particle_state state, next;
    /* scratch, grown as frames need */
    size_t scratch_capacity, pad_capacity;
    uint32_t *values, *died_index, *born_id, *born_index;
    uint32_t *axis_values[3]; /* the channels of one section decoded together */
    survivor_run *runs;
    uint8_t *pad;
};

static fc_codec_status fail(char *err, size_t errlen, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(err, errlen, format, args);
    va_end(args);
    return FC_CODEC_CORRUPT;
}

/* ---- header ------------------------------------------------------------------------------ */

static const char *section_name(unsigned type)
{
    switch (type) {
    case FC_SECTION_IDS: return "ids";
    case FC_SECTION_POSITIONS: return "positions";
    case FC_SECTION_VELOCITIES: return "velocities";
    default:
        if (type >= FC_SECTION_ATTRIBUTE && type < FC_SECTION_ATTRIBUTE + FC_ATTR_COUNT)
            return fc_attribute_names[type - FC_SECTION_ATTRIBUTE];
        return "unknown";
    }
}

fc_codec_status fc_frame_parse_header(const uint8_t *m, size_t length, uint32_t max_particles, fc_frame_header *h,
                                      char *err, size_t errlen)
{
    if (!max_particles) max_particles = FC_FRAME_DEFAULT_MAX_PARTICLES;
    if (length < FC_FRAME_HEADER_BYTES) return fail(err, errlen, "length: %zu bytes, shorter than the header", length);
    if (memcmp(m + FC_HDR_MAGIC, FC_FRAME_MAGIC, 4) != 0) return fail(err, errlen, "magic: not FCPF");
    if (m[FC_HDR_VERSION] != FC_FRAME_VERSION)
        return fail(err, errlen, "version: %u, expected %d", m[FC_HDR_VERSION], FC_FRAME_VERSION);
    *h = (fc_frame_header){0};
    h->kind = m[FC_HDR_KIND];
    h->bits = m[FC_HDR_BITS];
    h->tier = m[FC_HDR_TIER];
    if (h->kind != FC_FRAME_KEY && h->kind != FC_FRAME_DELTA) return fail(err, errlen, "kind: %d", h->kind);
    if (h->bits < FC_FRAME_MIN_BITS || h->bits > FC_FRAME_MAX_BITS) return fail(err, errlen, "bits: %u", h->bits);
    if (h->tier != 1 && h->tier != 2 && h->tier != 4 && h->tier != 8) return fail(err, errlen, "tier: %u", h->tier);
    h->world = fc_get_u32(m + FC_HDR_WORLD);
    h->epoch = fc_get_u32(m + FC_HDR_EPOCH);
    h->sequence = fc_get_u32(m + FC_HDR_SEQUENCE);
    h->reference = fc_get_u32(m + FC_HDR_REFERENCE);
    h->time = fc_get_f64(m + FC_HDR_TIME);
    h->count = fc_get_u32(m + FC_HDR_COUNT);
    h->ref_count = fc_get_u32(m + FC_HDR_REF_COUNT);
    h->born = fc_get_u32(m + FC_HDR_BORN);
    h->died = fc_get_u32(m + FC_HDR_DIED);
    h->checksum = fc_get_u32(m + FC_HDR_CHECKSUM);
    h->sections = fc_get_u16(m + FC_HDR_SECTIONS);
    for (int a = 0; a < 3; a++) {
        h->lo[a] = fc_get_f32(m + FC_HDR_LO + 4 * a);
        h->hi[a] = fc_get_f32(m + FC_HDR_HI + 4 * a);
        if (!isfinite(h->lo[a]) || !isfinite(h->hi[a]) || !(h->hi[a] >= h->lo[a]))
            return fail(err, errlen, "bounds: axis %d is not a finite range lo <= hi", a);
    }
    if (!(h->hi[0] > h->lo[0]) && !(h->hi[1] > h->lo[1]) && !(h->hi[2] > h->lo[2]))
        return fail(err, errlen, "bounds: flat (lo == hi) on every axis");
    if (fc_get_u16(m + FC_HDR_FLAGS) != 0) return fail(err, errlen, "flags: not 0");
    if (!isfinite(h->time)) return fail(err, errlen, "time: not finite");
    if (h->count > max_particles) return fail(err, errlen, "count: %u, above the limit %u", h->count, max_particles);
    if (h->kind == FC_FRAME_KEY) {
        if (h->reference != h->sequence || h->ref_count || h->born || h->died)
            return fail(err, errlen, "key frame: reference must equal sequence and ref_count, born, died be 0");
    } else {
        if (h->ref_count > max_particles) return fail(err, errlen, "ref_count: %u, above the limit", h->ref_count);
        if (h->died > h->ref_count || h->born > h->count || (uint64_t)h->ref_count - h->died + h->born != h->count)
            return fail(err, errlen, "counts: count %u != ref_count %u - died %u + born %u", h->count, h->ref_count,
                        h->died, h->born);
    }
    if (h->sections < 1 || h->sections > FC_FRAME_MAX_SECTIONS)
        return fail(err, errlen, "sections: %u, expected 1 to %d", h->sections, FC_FRAME_MAX_SECTIONS);
    size_t table_end = FC_FRAME_HEADER_BYTES + (size_t)FC_FRAME_SECTION_ENTRY_BYTES * h->sections;
    if (table_end > length) return fail(err, errlen, "section table: runs past the end of the message");

    size_t at = table_end;
    unsigned last_type = 0;
    for (unsigned s = 0; s < h->sections; s++) {
        const uint8_t *e = m + FC_FRAME_HEADER_BYTES + FC_FRAME_SECTION_ENTRY_BYTES * s;
        fc_frame_section *section = &h->section[s];
        section->type = e[0];
        section->length = fc_get_u32(e + 4);
        section->lo = fc_get_f32(e + 8);
        section->hi = fc_get_f32(e + 12);
        section->offset = at;
        const char *name = section_name(section->type);
        if (e[1] || fc_get_u16(e + 2)) return fail(err, errlen, "section %u (%s): reserved bytes not 0", s, name);
        if (section->type <= last_type)
            return fail(err, errlen, "section %u (%s): type %u duplicated or out of order", s, name, section->type);
        last_type = section->type;
        bool attribute = section->type >= FC_SECTION_ATTRIBUTE && section->type < FC_SECTION_ATTRIBUTE + FC_ATTR_COUNT;
        if (!attribute && (section->type < FC_SECTION_IDS || section->type > FC_SECTION_VELOCITIES))
            return fail(err, errlen, "section %u: unknown type %u", s, section->type);
        if (attribute ? !(isfinite(section->lo) && isfinite(section->hi) && section->hi > section->lo)
                      : (section->lo != 0 || section->hi != 0))
            return fail(err, errlen, "section %u (%s): bad range", s, name);
        if (section->length % 4) return fail(err, errlen, "section %u (%s): length not a multiple of 4", s, name);
        if (section->length > length - at) return fail(err, errlen, "section %u (%s): runs past the end", s, name);
        at += section->length;
    }
    if (at != length) return fail(err, errlen, "length: %zu bytes, the section table says %zu", length, at);
    return FC_CODEC_OK;
}

/* ---- decoder ----------------------------------------------------------------------------- */

fc_frame_decoder *fc_frame_decoder_new(uint32_t max_particles)
{
    fc_frame_decoder *d = calloc(1, sizeof *d);
    if (d) d->max_particles = max_particles ? max_particles : FC_FRAME_DEFAULT_MAX_PARTICLES;
    return d;
}

void fc_frame_decoder_free(fc_frame_decoder *d)
{
    if (!d) return;
    fc_particle_state_free(&d->state);
    fc_particle_state_free(&d->next);
    free(d->values), free(d->died_index), free(d->born_id), free(d->born_index), free(d->runs), free(d->pad);
    for (int a = 0; a < 3; a++) free(d->axis_values[a]);
    free(d);
}

bool fc_frame_decoder_ready(const fc_frame_decoder *d) { return d->ready; }
const fc_frame_header *fc_frame_decoder_header(const fc_frame_decoder *d) { return &d->header; }
const fc_particle_state *fc_frame_decoder_particles(const fc_frame_decoder *d) { return &d->state; }
void fc_frame_decoder_reset(fc_frame_decoder *d) { d->ready = false; }

static int reserve_scratch(fc_frame_decoder *d, size_t n, size_t message_length)
{
    if (n > d->scratch_capacity || !d->values) {
        size_t capacity = n ? n : 1;
        void *p;
#define GROW(field)                                                       \
        if (!(p = realloc(d->field, capacity * sizeof *d->field))) return -1; \
        d->field = p;
        GROW(values) GROW(died_index) GROW(born_id) GROW(born_index) GROW(runs)
        for (int a = 0; a < 3; a++) { GROW(axis_values[a]) }
#undef GROW
        d->scratch_capacity = capacity;
    }
    size_t pad = fc_rice_padded_size(message_length, 3);
    if (pad > d->pad_capacity || !d->pad) {
        void *p = realloc(d->pad, pad);
        if (!p) return -1;
        d->pad = p;
        d->pad_capacity = pad;
    }
    return 0;
}

/* Reads the channel that starts at *at (inside a section ending at end) into out[0..n). */
static fc_codec_status read_channel(fc_frame_decoder *d, const uint8_t *m, size_t *at, size_t end, size_t n,
                                    uint32_t *out, const char *what, char *err, size_t errlen)
{
    size_t used;
    if (fc_rice_decode_channels(m + *at, end - *at, n, 1, &out, d->pad, &used))
        return fail(err, errlen, "%s: malformed channel of %zu values", what, n);
    *at += used;
    return FC_CODEC_OK;
}

/* Reads the three per-axis channels that start at *at into d->axis_values. A flat axis (lo == hi)
 * has a channel of no values: its values are all 0 (PROTOCOL.md 4.2). */
static fc_codec_status read_axes(fc_frame_decoder *d, const fc_frame_header *h, const uint8_t *m, size_t *at,
                                 size_t end, size_t n, const char *what, char *err, size_t errlen)
{
    size_t used;
    bool flat = false;
    for (int a = 0; a < 3; a++) flat |= !(h->hi[a] > h->lo[a]);
    if (!flat) {
        if (fc_rice_decode_channels(m + *at, end - *at, n, 3, d->axis_values, d->pad, &used))
            return fail(err, errlen, "%s: malformed channels of %zu values", what, n);
        *at += used;
        return FC_CODEC_OK;
    }
    for (int a = 0; a < 3; a++) {
        bool axis_flat = !(h->hi[a] > h->lo[a]);
        if (axis_flat && (end - *at < 4 || fc_get_u32(m + *at) != 0))
            return fail(err, errlen, "%s: the channel of flat axis %d is not empty", what, a);
        fc_codec_status status = read_channel(d, m, at, end, axis_flat ? 0 : n, d->axis_values[a], what, err, errlen);
        if (status) return status;
        if (axis_flat && n) memset(d->axis_values[a], 0, n * sizeof *d->axis_values[a]);
    }
    return FC_CODEC_OK;
}

static const fc_frame_section *find_section(const fc_frame_header *h, unsigned type)
{
    for (unsigned s = 0; s < h->sections; s++)
        if (h->section[s].type == type) return &h->section[s];
    return NULL;
}

/* A delta frame applies only to the frame held (PROTOCOL.md 4.7). */
static bool applies(const fc_frame_decoder *d, const fc_frame_header *h)
{
    const fc_frame_header *held = &d->header;
    if (!d->ready || h->world != held->world || h->epoch != held->epoch || h->bits != held->bits ||
        h->tier != held->tier || h->reference != held->sequence || h->ref_count != held->count)
        return false;
    if (memcmp(h->lo, held->lo, sizeof h->lo) || memcmp(h->hi, held->hi, sizeof h->hi)) return false;
    for (unsigned s = 0; s < h->sections; s++) {
        const fc_frame_section *section = &h->section[s];
        if (section->type < FC_SECTION_ATTRIBUTE) continue;
        unsigned a = section->type - FC_SECTION_ATTRIBUTE;
        if (!(d->state.attributes >> a & 1) || d->state.attr_lo[a] != section->lo || d->state.attr_hi[a] != section->hi)
            return false;
    }
    return true;
}

/* Gap-coded strictly increasing values (v_0, then differences minus one); -1 past `limit`. */
static int ungap(uint32_t *values, size_t n, uint64_t limit)
{
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        x = i ? x + values[i] + 1 : values[0];
        if (x > limit) return -1;
        values[i] = (uint32_t)x;
    }
    return 0;
}

/* Delta frame ids: the survivors of the reference merged with the born ids, as survivor runs
 * (returned count) and the new indices of the born. Without an ids section all survive. */
static fc_codec_status merge_ids(fc_frame_decoder *d, const fc_frame_header *h, size_t *run_count, char *err,
                                 size_t errlen)
{
    const fc_particle_state *ref = &d->state;
    fc_particle_state *now = &d->next;
    size_t runs = 0, i = 0, j = 0, b = 0, k = 0;
    while (true) {
        while (k < h->died && d->died_index[k] == i) k++, i++;
        bool has_ref = i < ref->count, has_born = b < h->born;
        if (!has_ref && !has_born) break;
        if (has_ref && has_born && ref->id[i] == d->born_id[b])
            return fail(err, errlen, "ids: born id %u is a surviving particle", d->born_id[b]);
        if (has_born && (!has_ref || d->born_id[b] < ref->id[i])) {
            now->id[j] = d->born_id[b];
            d->born_index[b++] = (uint32_t)j++;
        } else {
            survivor_run *last = runs ? &d->runs[runs - 1] : NULL;
            if (last && last->start + last->length == j && last->ref_start + last->length == i)
                last->length++;
            else
                d->runs[runs++] = (survivor_run){j, i, 1};
            now->id[j++] = ref->id[i++];
        }
    }
    /* the header guarantees count = ref_count - died + born, and died indices are < ref_count */
    *run_count = runs;
    return FC_CODEC_OK;
}

/* Positions of one axis in a delta frame: survivors predicted at constant velocity, then the born. */
static bool predict_axis(fc_frame_decoder *d, const survivor_run *runs, size_t run_count, size_t born, int axis,
                         int64_t max_q)
{
    const fc_particle_state *ref = &d->state;
    fc_particle_state *now = &d->next;
    const uint32_t *values = d->axis_values[axis];
    bool bad = false;
    size_t o = 0;
    for (size_t r = 0; r < run_count; r++) {
        const uint16_t *qr = ref->q[axis] + runs[r].ref_start;
        const int32_t *vr = ref->v[axis] + runs[r].ref_start;
        uint16_t *qn = now->q[axis] + runs[r].start;
        int32_t *vn = now->v[axis] + runs[r].start;
        const uint32_t *z = values + o;
        for (size_t t = 0; t < runs[r].length; t++) {
            int64_t q = (int64_t)qr[t] + vr[t] + fc_unzigzag(z[t]);
            bad |= q < 0 || q > max_q;
            qn[t] = (uint16_t)q;
            vn[t] = (int32_t)(q - qr[t]);
        }
        o += runs[r].length;
    }
    for (size_t b = 0; b < born; b++) {
        uint32_t q = values[o + b], j = d->born_index[b];
        bad |= q > max_q;
        now->q[axis][j] = (uint16_t)q;
        now->v[axis][j] = 0;
    }
    return !bad;
}

static bool attribute_delta(fc_frame_decoder *d, const survivor_run *runs, size_t run_count, size_t born, int a)
{
    const uint8_t *ar = d->state.attr[a];
    uint8_t *an = d->next.attr[a];
    const uint32_t *values = d->values;
    bool bad = false;
    size_t o = 0;
    for (size_t r = 0; r < run_count; r++) {
        for (size_t t = 0; t < runs[r].length; t++) {
            int64_t x = (int64_t)ar[runs[r].ref_start + t] + fc_unzigzag(values[o + t]);
            bad |= x < 0 || x > 255;
            an[runs[r].start + t] = (uint8_t)x;
        }
        o += runs[r].length;
    }
    for (size_t b = 0; b < born; b++) {
        bad |= values[o + b] > 255;
        an[d->born_index[b]] = (uint8_t)values[o + b];
    }
    return !bad;
}

/* Decodes the sections of a key frame into d->next. */
static fc_codec_status decode_key(fc_frame_decoder *d, const fc_frame_header *h, const uint8_t *m, char *err,
                                  size_t errlen)
{
    fc_particle_state *now = &d->next;
    size_t n = h->count;
    int64_t max_q = ((int64_t)1 << h->bits) - 1;
    fc_codec_status status;
    const fc_frame_section *s = find_section(h, FC_SECTION_IDS);
    size_t at = s->offset, end = s->offset + s->length;
    if ((status = read_channel(d, m, &at, end, n, d->values, "ids", err, errlen))) return status;
    if (ungap(d->values, n, UINT32_MAX)) return fail(err, errlen, "ids: an id past 2^32 - 1");
    memcpy(now->id, d->values, n * sizeof *now->id);
    if (at != end) return fail(err, errlen, "ids: trailing bytes");

    s = find_section(h, FC_SECTION_POSITIONS);
    at = s->offset, end = s->offset + s->length;
    if ((status = read_axes(d, h, m, &at, end, n, "positions", err, errlen))) return status;
    for (int a = 0; a < 3; a++) {
        int64_t q = 0;
        bool bad = false;
        for (size_t i = 0; i < n; i++) {
            q += fc_unzigzag(d->axis_values[a][i]);
            bad |= q < 0 || q > max_q;
            now->q[a][i] = (uint16_t)q;
        }
        if (bad) return fail(err, errlen, "positions: a coordinate outside 0 to %lld", (long long)max_q);
    }
    if (at != end) return fail(err, errlen, "positions: trailing bytes");

    s = find_section(h, FC_SECTION_VELOCITIES);
    at = s->offset, end = s->offset + s->length;
    if ((status = read_axes(d, h, m, &at, end, n, "velocities", err, errlen))) return status;
    for (int a = 0; a < 3; a++) {
        bool bad = false;
        for (size_t i = 0; i < n; i++) {
            int32_t v = fc_unzigzag(d->axis_values[a][i]);
            bad |= v < -max_q || v > max_q;
            now->v[a][i] = v;
        }
        if (bad) return fail(err, errlen, "velocities: a value outside +-%lld", (long long)max_q);
    }
    if (at != end) return fail(err, errlen, "velocities: trailing bytes");

    for (unsigned k = 0; k < h->sections; k++) {
        s = &h->section[k];
        if (s->type < FC_SECTION_ATTRIBUTE) continue;
        int a = (int)(s->type - FC_SECTION_ATTRIBUTE);
        at = s->offset, end = s->offset + s->length;
        if ((status = read_channel(d, m, &at, end, n, d->values, fc_attribute_names[a], err, errlen))) return status;
        if (at != end) return fail(err, errlen, "%s: trailing bytes", fc_attribute_names[a]);
        bool bad = false;
        for (size_t i = 0; i < n; i++) {
            bad |= d->values[i] > 255;
            now->attr[a][i] = (uint8_t)d->values[i];
        }
        if (bad) return fail(err, errlen, "%s: a value above 255", fc_attribute_names[a]);
    }
    return FC_CODEC_OK;
}

/* Decodes the sections of a delta frame into d->next, against d->state. */
static fc_codec_status decode_delta(fc_frame_decoder *d, const fc_frame_header *h, const uint8_t *m, char *err,
                                    size_t errlen)
{
    fc_codec_status status;
    size_t runs = 0, at, end;
    const fc_frame_section *s = find_section(h, FC_SECTION_IDS);
    if (s) {
        at = s->offset, end = s->offset + s->length;
        if ((status = read_channel(d, m, &at, end, h->died, d->died_index, "ids (died)", err, errlen))) return status;
        if (ungap(d->died_index, h->died, (uint64_t)h->ref_count - 1))
            return fail(err, errlen, "ids: a died index past ref_count %u", h->ref_count);
        if ((status = read_channel(d, m, &at, end, h->born, d->born_id, "ids (born)", err, errlen))) return status;
        if (ungap(d->born_id, h->born, UINT32_MAX)) return fail(err, errlen, "ids: a born id past 2^32 - 1");
        if (at != end) return fail(err, errlen, "ids: trailing bytes");
        if ((status = merge_ids(d, h, &runs, err, errlen))) return status;
    } else {
        memcpy(d->next.id, d->state.id, h->count * sizeof *d->next.id);
        if (h->count) d->runs[runs++] = (survivor_run){0, 0, h->count};
    }

    int64_t max_q = ((int64_t)1 << h->bits) - 1;
    s = find_section(h, FC_SECTION_POSITIONS);
    at = s->offset, end = s->offset + s->length;
    if ((status = read_axes(d, h, m, &at, end, h->count, "positions", err, errlen))) return status;
    for (int a = 0; a < 3; a++) {
        if (!predict_axis(d, d->runs, runs, h->born, a, max_q))
            return fail(err, errlen, "positions: a coordinate outside 0 to %lld", (long long)max_q);
    }
    if (at != end) return fail(err, errlen, "positions: trailing bytes");

    for (unsigned k = 0; k < h->sections; k++) {
        s = &h->section[k];
        if (s->type < FC_SECTION_ATTRIBUTE) continue;
        int a = (int)(s->type - FC_SECTION_ATTRIBUTE);
        at = s->offset, end = s->offset + s->length;
        if ((status = read_channel(d, m, &at, end, h->count, d->values, fc_attribute_names[a], err, errlen)))
            return status;
        if (at != end) return fail(err, errlen, "%s: trailing bytes", fc_attribute_names[a]);
        if (!attribute_delta(d, d->runs, runs, h->born, a))
            return fail(err, errlen, "%s: a value outside 0 to 255", fc_attribute_names[a]);
    }
    return FC_CODEC_OK;
}

/* Which sections a frame of this kind must, may and must not have (PROTOCOL.md 4.6). */
static fc_codec_status check_sections(const fc_frame_header *h, char *err, size_t errlen)
{
    bool ids = find_section(h, FC_SECTION_IDS), positions = find_section(h, FC_SECTION_POSITIONS),
         velocities = find_section(h, FC_SECTION_VELOCITIES);
    if (!positions) return fail(err, errlen, "sections: no positions section");
    if (h->kind == FC_FRAME_KEY && (!ids || !velocities))
        return fail(err, errlen, "sections: a key frame needs ids and velocities");
    if (h->kind == FC_FRAME_DELTA && velocities) return fail(err, errlen, "sections: velocities in a delta frame");
    if (h->kind == FC_FRAME_DELTA && ids != (h->born + h->died > 0))
        return fail(err, errlen, "sections: a delta frame has ids exactly when particles were born or died");
    /* every value takes at least one bit (on an axis that is not flat, and the header checks found
     * one): a count that lies cannot make us allocate more */
    if ((uint64_t)h->count > (uint64_t)find_section(h, FC_SECTION_POSITIONS)->length * 8)
        return fail(err, errlen, "count: %u particles cannot fit the positions section", h->count);
    return FC_CODEC_OK;
}

fc_codec_status fc_frame_decode(fc_frame_decoder *d, const uint8_t *m, size_t length, char *err, size_t errlen)
{
    fc_frame_header h;
    fc_codec_status status = fc_frame_parse_header(m, length, d->max_particles, &h, err, errlen);
    if (status) return status;
    if ((status = check_sections(&h, err, errlen))) return status;
    if (h.kind == FC_FRAME_DELTA && !applies(d, &h)) {
        snprintf(err, errlen, "delta frame %u of world %u does not apply to the frame held: waiting for a key frame",
                 h.sequence, h.world);
        return FC_CODEC_NEED_KEY;
    }
    size_t most = h.count > h.ref_count ? h.count : h.ref_count;
    if (reserve_scratch(d, most, length) || fc_particle_state_reserve(&d->next, h.count)) return FC_CODEC_NO_MEMORY;
    d->next.count = h.count;
    status = h.kind == FC_FRAME_KEY ? decode_key(d, &h, m, err, errlen) : decode_delta(d, &h, m, err, errlen);
    if (status) return status;

    fc_particle_state *now = &d->next;
    now->attributes = 0;
    for (unsigned k = 0; k < h.sections; k++) {
        const fc_frame_section *s = &h.section[k];
        if (s->type < FC_SECTION_ATTRIBUTE) continue;
        unsigned a = s->type - FC_SECTION_ATTRIBUTE;
        now->attributes |= 1u << a;
        now->attr_lo[a] = s->lo;
        now->attr_hi[a] = s->hi;
    }
    uint32_t checksum = fc_particle_state_checksum(now);
    if (checksum != h.checksum)
        return fail(err, errlen, "checksum: decoded 0x%08x, frame says 0x%08x", checksum, h.checksum);
    fc_particle_state_swap(&d->state, &d->next);
    d->header = h;
    d->ready = true;
    return FC_CODEC_OK;
}
