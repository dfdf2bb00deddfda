/* Snapshots of a world for the frame encoders: particles sorted by id, attributes derived. */
#include "host/snapshot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store.h"

void fc_snapshot_buffer_free(fc_snapshot_buffer *s)
{
    free(s->id);
    free(s->order);
    free(s->sort_id);
    free(s->sort_order);
    for (int a = 0; a < 3; a++) free(s->position[a]);
    for (int a = 0; a < FC_ATTR_COUNT; a++) free(s->attribute[a]), free(s->attribute_q[a]);
    free(s->q_id);
    for (int k = 0; k < FC_SNAPSHOT_MAX_QUANTIZED; k++)
        for (int a = 0; a < 3; a++) free(s->q[k][a]);
    memset(s, 0, sizeof *s);
}

static int grow(void **array, size_t bytes)
{
    void *p = realloc(*array, bytes ? bytes : 1);
    if (!p) return -1;
    *array = p;
    return 0;
}

static int reserve(fc_snapshot_buffer *s, size_t n)
{
    if (n <= s->capacity) return 0;
    size_t cap = n + n / 4 + 64;
    int failed = grow((void **)&s->id, cap * sizeof(uint32_t)) || grow((void **)&s->order, cap * sizeof(uint32_t)) ||
                 grow((void **)&s->sort_id, cap * sizeof(uint32_t)) ||
                 grow((void **)&s->sort_order, cap * sizeof(uint32_t));
    for (int a = 0; a < 3 && !failed; a++) failed = grow((void **)&s->position[a], cap * sizeof(float));
    for (int a = 0; a < FC_ATTR_COUNT && !failed; a++) failed = grow((void **)&s->attribute[a], cap * sizeof(float));
    if (failed) return -1;
    s->capacity = cap;
    return 0;
}

/* Room for n particles in the quantized arrays. */
static int reserve_quantized(fc_snapshot_buffer *s, size_t n)
{
    if (n <= s->q_capacity) return 0;
    size_t cap = n + n / 4 + 64;
    int failed = grow((void **)&s->q_id, cap * sizeof(uint32_t));
    for (int k = 0; k < FC_SNAPSHOT_MAX_QUANTIZED && !failed; k++)
        for (int a = 0; a < 3 && !failed; a++) failed = grow((void **)&s->q[k][a], cap * sizeof(uint16_t));
    for (int a = 0; a < FC_ATTR_COUNT && !failed; a++) failed = grow((void **)&s->attribute_q[a], cap);
    if (failed) return -1;
    s->q_capacity = cap;
    return 0;
}

/* Sorts (id, order) pairs by id: least-significant-digit radix sort, 8 bits a pass, skipping
 * the passes in which every id has the same digit (the high bytes of small ids). */
static void sort_by_id(fc_snapshot_buffer *s, size_t n)
{
    uint32_t *id = s->id, *order = s->order, *id2 = s->sort_id, *order2 = s->sort_order;
    for (int shift = 0; shift < 32; shift += 8) {
        size_t count[256] = {0};
        for (size_t i = 0; i < n; i++) count[(id[i] >> shift) & 255]++;
        if (n && count[(id[0] >> shift) & 255] == n) continue;
        size_t start = 0;
        for (int d = 0; d < 256; d++) {
            size_t c = count[d];
            count[d] = start;
            start += c;
        }
        for (size_t i = 0; i < n; i++) {
            size_t to = count[(id[i] >> shift) & 255]++;
            id2[to] = id[i];
            order2[to] = order[i];
        }
        uint32_t *t = id; id = id2; id2 = t;
        t = order; order = order2; order2 = t;
    }
    s->id = id, s->order = order, s->sort_id = id2, s->sort_order = order2;
}

void fc_snapshot_attribute_range(const fc_world *w, fc_attribute a, float *lo, float *hi)
{
    const fc_field_desc *f = fc_field_streamed_as(fc_attribute_names[a]);
    *lo = 0.0f, *hi = 255.0f;
    if (!f) return;
    *lo = (float)f->lo, *hi = (float)f->hi;
    if (f->range == FC_RANGE_REST_DENSITY) {
        double least = w->fluids[0].rest_density, most = least;
        for (int i = 1; i < w->fluid_count; i++) {
            least = fmin(least, w->fluids[i].rest_density);
            most = fmax(most, w->fluids[i].rest_density);
        }
        *lo = (float)(f->lo * least), *hi = (float)(f->hi * most);
    } else if (f->range == FC_RANGE_TEMPERATURE) {
        fc_world_temperature_span(w, lo, hi);
    }
}

/* The values of the field that attribute `a` streams (a vector: its magnitude), in id order. */
static void attribute_values(const fc_particles *p, fc_attribute a, const uint32_t *order, size_t n, float *out)
{
    const fc_field_desc *f = fc_field_streamed_as(fc_attribute_names[a]);
    if (!f) {
        memset(out, 0, n * sizeof *out);
        return;
    }
    if (f->components == 3) {
        const float *x = p->field[f->column], *y = p->field[f->column + 1], *z = p->field[f->column + 2];
        for (size_t i = 0; i < n; i++) {
            uint32_t k = order[i];
            out[i] = fc_norm3_rn(x[k], y[k], z[k]); /* as a GPU's frame_snapshot computes it */
        }
    } else if (f->type == FC_FIELD_U8) {
        const uint8_t *v = p->u8[f->column];
        for (size_t i = 0; i < n; i++) out[i] = (float)v[order[i]];
    } else {
        const float *v = p->field[f->column];
        for (size_t i = 0; i < n; i++) out[i] = v[order[i]];
    }
}

/* The snapshot quantized in the store (fc_store_kind.frame_snapshot): 1 when taken, 0 when the
 * host arrays are the store or it cannot (the float path then), -1 out of memory. */
static int take_quantized(fc_snapshot_buffer *s, fc_world *w, uint32_t attributes, uint32_t bits, fc_snapshot *out)
{
    if (!w->store || !w->store->frame_snapshot || !w->store_state || !bits) return 0;
    fc_frame_request req;
    memset(&req, 0, sizeof req);
    req.count = w->particles.count;
    memcpy(req.lo, w->domain_lo, sizeof req.lo);
    memcpy(req.hi, w->domain_hi, sizeof req.hi);
    for (unsigned b = FC_FRAME_MIN_BITS; b <= FC_FRAME_MAX_BITS; b++)
        if (bits & (1u << b)) {
            if (req.position_sets == FC_FRAME_MAX_POSITION_SETS) return 0;
            req.bits[req.position_sets++] = b;
        }
    int field_of[FC_ATTR_COUNT];
    for (int a = 0; a < FC_ATTR_COUNT; a++) {
        field_of[a] = -1;
        if (!(attributes & (1u << a))) continue;
        const fc_field_desc *f = fc_field_streamed_as(fc_attribute_names[a]);
        if (!f || req.field_count == FC_FRAME_MAX_FIELDS) return 0;
        fc_frame_field *ff = &req.fields[req.field_count];
        ff->column = f->column, ff->components = f->components, ff->is_u8 = f->type == FC_FIELD_U8;
        fc_snapshot_attribute_range(w, (fc_attribute)a, &ff->lo, &ff->hi);
        field_of[a] = req.field_count++;
    }
    if (reserve_quantized(s, req.count)) return -1;
    req.id = s->q_id;
    req.id_stamp = s->q_id_stamp;
    for (int k = 0; k < req.position_sets; k++)
        for (int a = 0; a < 3; a++) req.q[k][a] = s->q[k][a];
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        if (field_of[a] >= 0) req.fields[field_of[a]].q = s->attribute_q[a];
    if (w->store->frame_snapshot(w, w->store_state, &req)) {
        s->q_id_stamp = 0; /* what q_id holds is unknown now */
        return 0;
    }
    s->q_id_stamp = req.id_stamp;
    s->bytes_copied = req.bytes_copied;
    out->count = req.count;
    out->id = s->q_id;
    out->quantized_count = (unsigned)req.position_sets;
    for (int k = 0; k < req.position_sets; k++) {
        fc_quantized_positions *q = &out->quantized[k];
        q->bits = req.bits[k];
        memcpy(q->lo, req.lo, sizeof q->lo), memcpy(q->hi, req.hi, sizeof q->hi);
        for (int a = 0; a < 3; a++) q->q[a] = s->q[k][a];
    }
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        if (field_of[a] >= 0) {
            out->attribute_q[a] = s->attribute_q[a];
            out->attribute_lo[a] = req.fields[field_of[a]].lo, out->attribute_hi[a] = req.fields[field_of[a]].hi;
        }
    return 1;
}

int fc_snapshot_take(fc_snapshot_buffer *s, fc_world *w, uint32_t attributes, uint32_t bits, uint32_t sequence,
                     fc_snapshot *out)
{
    memset(out, 0, sizeof *out);
    out->sequence = sequence;
    out->time = w->time;
    const int quantized = take_quantized(s, w, attributes, bits, out);
    if (quantized) return quantized < 0 ? -1 : 0;
    fc_world_sync_to_host(w, FC_SYNC_ALL);
    const fc_particles *p = &w->particles;
    size_t n = p->count;
    if (reserve(s, n)) return -1;
    if (n) memcpy(s->id, p->id, n * sizeof *s->id); /* an empty world's arrays may be NULL */
    for (size_t i = 0; i < n; i++) s->order[i] = (uint32_t)i;
    sort_by_id(s, n);
    for (size_t i = 0; i < n; i++) {
        uint32_t from = s->order[i];
        s->position[0][i] = p->field[FC_PX][from];
        s->position[1][i] = p->field[FC_PY][from];
        s->position[2][i] = p->field[FC_PZ][from];
    }
    for (int a = 0; a < FC_ATTR_COUNT; a++) {
        if (!(attributes & (1u << a))) continue;
        attribute_values(p, (fc_attribute)a, s->order, n, s->attribute[a]);
        out->attribute[a] = s->attribute[a];
    }
    out->count = n;
    out->id = s->id;
    for (int a = 0; a < 3; a++) out->position[a] = s->position[a];
    return 0;
}
