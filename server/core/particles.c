/* Structure-of-arrays particle storage, driven by the fields registry (particle_fields.def):
 * allocation, append, copy, compaction and reordering of every column. */
#include "core/particles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const fc_field_desc fc_fields[FC_FIELD_COUNT] = {
#define FC_FIELD_VEC(id, name, prefix, type, unit, def, writer, stream, range, lo, hi, desc) \
    {name, prefix, 3, FC_##id, FC_FIELD_##type, unit, def, writer, stream, range, lo, hi, desc, offsetof(fc_particle, id)},
#define FC_FIELD(id, name, type, unit, def, writer, stream, range, lo, hi, desc) \
    {name, name, 1, FC_##id, FC_FIELD_##type, unit, def, writer, stream, range, lo, hi, desc, offsetof(fc_particle, id)},
#include "core/particle_fields.def"
#undef FC_FIELD_VEC
#undef FC_FIELD
};

/* The field of each column. */
static const unsigned char column_field[FC_COLUMN_COUNT] = {
#define FC_FIELD_VEC(id, ...) FC_FIELD_ID_##id, FC_FIELD_ID_##id, FC_FIELD_ID_##id,
#define FC_FIELD(id, ...) FC_FIELD_ID_##id,
#include "core/particle_fields.def"
#undef FC_FIELD_VEC
#undef FC_FIELD
};

const fc_field_desc *fc_field_find(const char *name)
{
    for (int f = 0; f < FC_FIELD_COUNT; f++)
        if (strcmp(fc_fields[f].name, name) == 0) return &fc_fields[f];
    return NULL;
}

const fc_field_desc *fc_field_streamed_as(const char *attribute)
{
    for (int f = 0; f < FC_FIELD_COUNT; f++)
        if (fc_fields[f].stream && strcmp(fc_fields[f].stream, attribute) == 0) return &fc_fields[f];
    return NULL;
}

const fc_field_desc *fc_column_field(int column) { return &fc_fields[column_field[column]]; }

size_t fc_column_size(int column) { return fc_fields[column_field[column]].type == FC_FIELD_U8 ? 1 : sizeof(float); }

size_t fc_particles_bytes_per_particle(void)
{
    size_t bytes = 2 * sizeof(uint32_t) + sizeof(float) + 1; /* id, its scratch, the two scratches */
    for (int c = 0; c < FC_COLUMN_COUNT; c++) bytes += fc_column_size(c);
    return bytes;
}

void fc_particles_init(fc_particles *p) { memset(p, 0, sizeof *p); }

void fc_particles_free(fc_particles *p)
{
    free(p->id);
    for (int c = 0; c < FC_COLUMN_COUNT; c++) free(fc_particles_column(p, c));
    free(p->scratch);
    free(p->scratch_u8);
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
        grow((void **)&p->scratch, sizeof(float), n) || grow((void **)&p->scratch_u8, 1, n))
        return -1;
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        int failed = fc_column_size(c) == 1 ? grow((void **)&p->u8[c], 1, n) : grow((void **)&p->field[c], sizeof(float), n);
        if (failed) return -1;
    }
    p->capacity = n;
    return 0;
}

void fc_particle_defaults(fc_particle *rec)
{
    memset(rec, 0, sizeof *rec);
    for (int f = 0; f < FC_FIELD_COUNT; f++) {
        const fc_field_desc *d = &fc_fields[f];
        for (int k = 0; k < d->components; k++) {
            char *at = (char *)rec + d->offset;
            if (d->type == FC_FIELD_U8) ((uint8_t *)at)[k] = (uint8_t)d->def;
            else ((float *)at)[k] = (float)d->def;
        }
    }
}

/* Column c's component of the record. */
static void *record_slot(const fc_particle *rec, int c)
{
    const fc_field_desc *d = fc_column_field(c);
    return (char *)rec + d->offset + (size_t)(c - d->column) * fc_column_size(c);
}

void fc_particle_column_bytes(const fc_particle *rec, int c, void *out)
{
    memcpy(out, record_slot(rec, c), fc_column_size(c));
}

long fc_particles_add(fc_particles *p, const fc_particle *rec)
{
    if (fc_particles_reserve(p, p->count + 1)) return -1;
    size_t i = p->count++;
    p->id[i] = p->next_id++;
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        size_t size = fc_column_size(c);
        memcpy((char *)fc_particles_column(p, c) + i * size, record_slot(rec, c), size);
    }
    return (long)i;
}

void fc_particles_get(const fc_particles *p, size_t i, fc_particle *rec)
{
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        size_t size = fc_column_size(c);
        memcpy(record_slot(rec, c), (const char *)fc_particles_column(p, c) + i * size, size);
    }
}

int fc_particles_copy(fc_particles *dst, const fc_particles *src)
{
    if (fc_particles_reserve(dst, src->count)) return -1;
    dst->count = src->count;
    if (!src->count) return 0; /* an empty world's arrays may be NULL (memcpy must not see them) */
    memcpy(dst->id, src->id, src->count * sizeof *dst->id);
    for (int c = 0; c < FC_COLUMN_COUNT; c++)
        memcpy(fc_particles_column(dst, c), fc_particles_column(src, c), src->count * fc_column_size(c));
    return 0;
}

size_t fc_particles_compact(fc_particles *p, const uint8_t *keep)
{
    size_t out = 0;
    for (size_t i = 0; i < p->count; i++) {
        if (!keep[i]) continue;
        if (out != i) {
            p->id[out] = p->id[i];
            for (int c = 0; c < FC_COLUMN_COUNT; c++) {
                if (p->u8[c]) p->u8[c][out] = p->u8[c][i];
                else p->field[c][out] = p->field[c][i];
            }
        }
        out++;
    }
    size_t removed = p->count - out;
    p->count = out;
    return removed;
}

/* Each column is copied into the spare array of its size, and its old array becomes the spare of
 * the next column of that size: where every copy goes is known before any is made, so one parallel
 * region copies every column, the float, byte and id columns side by side, with a barrier after
 * each round (a copy writes into the array the round before read from). */
void fc_particles_permute(fc_particles *p, const uint32_t *order)
{
    const long n = (long)p->count;
    float *float_src[FC_COLUMN_COUNT], *float_dst[FC_COLUMN_COUNT];
    uint8_t *byte_src[FC_COLUMN_COUNT], *byte_dst[FC_COLUMN_COUNT];
    int floats = 0, bytes = 0;
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        if (fc_column_size(c) == 1) {
            byte_src[bytes] = p->u8[c], byte_dst[bytes] = p->scratch_u8;
            p->u8[c] = p->scratch_u8, p->scratch_u8 = byte_src[bytes++];
        } else {
            float_src[floats] = p->field[c], float_dst[floats] = p->scratch;
            p->field[c] = p->scratch, p->scratch = float_src[floats++];
        }
    }
    uint32_t *id_src = p->id, *id_dst = p->scratch_id;
    p->id = id_dst, p->scratch_id = id_src;
    const int rounds = floats > bytes ? floats : bytes;
#pragma omp parallel
    for (int r = 0; r < rounds; r++) {
        if (r < floats) {
            const float *src = float_src[r];
            float *dst = float_dst[r];
#pragma omp for schedule(static) nowait
            for (long i = 0; i < n; i++) dst[i] = src[order[i]];
        }
        if (r < bytes) {
            const uint8_t *src = byte_src[r];
            uint8_t *dst = byte_dst[r];
#pragma omp for schedule(static) nowait
            for (long i = 0; i < n; i++) dst[i] = src[order[i]];
        }
        if (r == 0) {
#pragma omp for schedule(static) nowait
            for (long i = 0; i < n; i++) id_dst[i] = id_src[order[i]];
        }
#pragma omp barrier
    }
}

double fc_particles_max_speed(const fc_particles *p)
{
    const float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    const long n = (long)p->count;
    float max2 = 0.0f;
#pragma omp parallel for schedule(static) reduction(max : max2)
    for (long i = 0; i < n; i++) {
        const float s2 = vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i];
        if (s2 > max2) max2 = s2; /* NaN compares false */
    }
    return sqrt((double)max2);
}
