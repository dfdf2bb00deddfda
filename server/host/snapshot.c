/* Snapshots of a world for the frame encoders: particles sorted by id, attributes derived. */
#include "host/snapshot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* No temperature field exists yet (heat diffusion is a later solver): every particle is at this. */
#define FC_DEFAULT_TEMPERATURE 293.15f

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
    switch (a) {
    case FC_ATTR_SPEED: *lo = 0.0f, *hi = 5.0f; break;
    case FC_ATTR_DENSITY: *lo = 0.8f * (float)w->params.rest_density, *hi = 1.2f * (float)w->params.rest_density; break;
    case FC_ATTR_TEMPERATURE: *lo = 273.15f, *hi = 373.15f; break;
    default: *lo = 0.0f, *hi = 255.0f; break;
    }
}

static float attribute_of(const fc_particles *p, fc_attribute a, uint32_t i)
{
    float *const *f = p->field;
    switch (a) {
    case FC_ATTR_SPEED: return sqrtf(f[FC_VX][i] * f[FC_VX][i] + f[FC_VY][i] * f[FC_VY][i] + f[FC_VZ][i] * f[FC_VZ][i]);
    case FC_ATTR_DENSITY: return f[FC_DENSITY][i];
    case FC_ATTR_TEMPERATURE: return FC_DEFAULT_TEMPERATURE;
    default: return 0.0f; /* fluid index: one fluid until the multi-fluid solver */
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
        for (size_t i = 0; i < n; i++) s->attribute[a][i] = attribute_of(p, (fc_attribute)a, s->order[i]);
        out->attribute[a] = s->attribute[a];
    }
    out->sequence = sequence;
    out->time = w->time;
    out->count = n;
    out->id = s->id;
    for (int a = 0; a < 3; a++) out->position[a] = s->position[a];
    return 0;
}
