/* Structure-of-arrays particle storage: allocation, append, compaction and reordering. */
#include "core/particles.h"

#include <stdlib.h>
#include <string.h>

void fc_particles_init(fc_particles *p) { memset(p, 0, sizeof *p); }

void fc_particles_free(fc_particles *p)
{
    free(p->id);
    for (int f = 0; f < FC_FIELD_COUNT; f++) free(p->field[f]);
    free(p->scratch);
    free(p->scratch_id);
    memset(p, 0, sizeof *p);
}

static int grow(void **ptr, size_t elem, size_t n)
{
    void *q = realloc(*ptr, elem * n);
    if (!q) return -1;
    *ptr = q;
    return 0;
}

int fc_particles_reserve(fc_particles *p, size_t capacity)
{
    if (capacity <= p->capacity) return 0;
    size_t n = p->capacity ? p->capacity : 1024;
    while (n < capacity) n *= 2;
    if (grow((void **)&p->id, sizeof(uint32_t), n) || grow((void **)&p->scratch_id, sizeof(uint32_t), n) ||
        grow((void **)&p->scratch, sizeof(float), n))
        return -1;
    for (int f = 0; f < FC_FIELD_COUNT; f++)
        if (grow((void **)&p->field[f], sizeof(float), n)) return -1;
    p->capacity = n;
    return 0;
}

long fc_particles_add(fc_particles *p, float x, float y, float z, float vx, float vy, float vz)
{
    if (fc_particles_reserve(p, p->count + 1)) return -1;
    size_t i = p->count++;
    p->id[i] = p->next_id++;
    for (int f = 0; f < FC_FIELD_COUNT; f++) p->field[f][i] = 0.0f;
    p->field[FC_PX][i] = x;
    p->field[FC_PY][i] = y;
    p->field[FC_PZ][i] = z;
    p->field[FC_VX][i] = vx;
    p->field[FC_VY][i] = vy;
    p->field[FC_VZ][i] = vz;
    return (long)i;
}

int fc_particles_copy(fc_particles *dst, const fc_particles *src)
{
    if (fc_particles_reserve(dst, src->count)) return -1;
    dst->count = src->count;
    if (!src->count) return 0; /* an empty world's arrays may be NULL (memcpy must not see them) */
    memcpy(dst->id, src->id, src->count * sizeof *dst->id);
    for (int f = 0; f < FC_FIELD_COUNT; f++) memcpy(dst->field[f], src->field[f], src->count * sizeof(float));
    return 0;
}

size_t fc_particles_compact(fc_particles *p, const uint8_t *keep)
{
    size_t out = 0;
    for (size_t i = 0; i < p->count; i++) {
        if (!keep[i]) continue;
        if (out != i) {
            p->id[out] = p->id[i];
            for (int f = 0; f < FC_FIELD_COUNT; f++) p->field[f][out] = p->field[f][i];
        }
        out++;
    }
    size_t removed = p->count - out;
    p->count = out;
    return removed;
}

void fc_particles_permute(fc_particles *p, const uint32_t *order)
{
    const long n = (long)p->count;
    for (int f = 0; f < FC_FIELD_COUNT; f++) {
        float *src = p->field[f], *dst = p->scratch;
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) dst[i] = src[order[i]];
        p->field[f] = dst;
        p->scratch = src;
    }
    uint32_t *dst = p->scratch_id;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) dst[i] = p->id[order[i]];
    p->scratch_id = p->id;
    p->id = dst;
}
