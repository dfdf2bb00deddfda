/* Snapshots of a world for the frame encoders: particles sorted by id, attributes derived. */
#include "host/snapshot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void fc_snapshot_buffer_free(fc_snapshot_buffer *s)
{
    free(s->id);
    free(s->order);
    free(s->sort_id);
    free(s->sort_order);
    for (int a = 0; a < 3; a++) free(s->position[a]);
    for (int a = 0; a < FC_ATTR_COUNT; a++) free(s->attribute[a]);
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
            out[i] = sqrtf(x[k] * x[k] + y[k] * y[k] + z[k] * z[k]);
        }
    } else if (f->type == FC_FIELD_U8) {
        const uint8_t *v = p->u8[f->column];
        for (size_t i = 0; i < n; i++) out[i] = (float)v[order[i]];
    } else {
        const float *v = p->field[f->column];
        for (size_t i = 0; i < n; i++) out[i] = v[order[i]];
    }
}

int fc_snapshot_take(fc_snapshot_buffer *s, fc_world *w, uint32_t attributes, uint32_t sequence,
                     fc_snapshot *out)
{
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
    memset(out, 0, sizeof *out);
    for (int a = 0; a < FC_ATTR_COUNT; a++) {
        if (!(attributes & (1u << a))) continue;
        attribute_values(p, (fc_attribute)a, s->order, n, s->attribute[a]);
        out->attribute[a] = s->attribute[a];
    }
    out->sequence = sequence;
    out->time = w->time;
    out->count = n;
    out->id = s->id;
    for (int a = 0; a < 3; a++) out->position[a] = s->position[a];
    return 0;
}
