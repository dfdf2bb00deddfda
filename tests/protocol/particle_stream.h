/* Test support: a seeded stream of particle snapshots with motion, births, deaths and strays, for the codec tests. */
#ifndef FC_TEST_PARTICLE_STREAM_H
#define FC_TEST_PARTICLE_STREAM_H

#include "frame_encoder.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
    uint64_t rng;
    size_t count, capacity;
    uint32_t next_id;
    uint32_t *id;
    float *pos[3], *vel[3], *attr[FC_ATTR_COUNT];
    float lo[3], hi[3];
    double death_rate, birth_rate; /* per particle per frame, and new particles per frame */
    uint32_t sequence;
} particle_stream;

static inline double stream_random(particle_stream *s) /* uniform in [0, 1) */
{
    s->rng ^= s->rng << 13, s->rng ^= s->rng >> 7, s->rng ^= s->rng << 17;
    return (double)(s->rng >> 11) / 9007199254740992.0;
}

static inline void stream_reserve(particle_stream *s, size_t n)
{
    if (n <= s->capacity) return;
    s->capacity = n * 2;
    s->id = realloc(s->id, s->capacity * sizeof *s->id);
    for (int a = 0; a < 3; a++) {
        s->pos[a] = realloc(s->pos[a], s->capacity * sizeof(float));
        s->vel[a] = realloc(s->vel[a], s->capacity * sizeof(float));
    }
    for (int a = 0; a < FC_ATTR_COUNT; a++) s->attr[a] = realloc(s->attr[a], s->capacity * sizeof(float));
}

static inline void stream_add(particle_stream *s)
{
    stream_reserve(s, s->count + 1);
    size_t i = s->count++;
    s->id[i] = s->next_id;
    s->next_id += 1 + (uint32_t)(stream_random(s) * 3); /* ids with gaps */
    for (int a = 0; a < 3; a++) {
        double extent = s->hi[a] - s->lo[a];
        s->pos[a][i] = (float)(s->lo[a] + extent * stream_random(s));
        s->vel[a][i] = (float)(extent * 0.02 * (stream_random(s) - 0.5));
    }
    s->attr[FC_ATTR_SPEED][i] = (float)(5 * stream_random(s));
    s->attr[FC_ATTR_DENSITY][i] = (float)(900 + 200 * stream_random(s));
    s->attr[FC_ATTR_TEMPERATURE][i] = (float)(280 + 80 * stream_random(s));
    s->attr[FC_ATTR_FLUID][i] = (float)(int)(4 * stream_random(s));
}

static inline void stream_init(particle_stream *s, uint64_t seed, size_t count, const float lo[3], const float hi[3])
{
    *s = (particle_stream){.rng = seed * 2654435761u + 1, .next_id = 1};
    for (int a = 0; a < 3; a++) s->lo[a] = lo[a], s->hi[a] = hi[a];
    for (size_t i = 0; i < count; i++) stream_add(s);
}

/* One frame later: particles move (with jitter), some die, some are born (with higher ids). */
static inline void stream_advance(particle_stream *s)
{
    size_t kept = 0;
    for (size_t i = 0; i < s->count; i++) {
        if (stream_random(s) < s->death_rate) continue;
        s->id[kept] = s->id[i];
        for (int a = 0; a < 3; a++) {
            double extent = s->hi[a] - s->lo[a];
            s->vel[a][kept] = s->vel[a][i] + (float)(extent * 0.002 * (stream_random(s) - 0.5));
            s->pos[a][kept] = s->pos[a][i] + s->vel[a][i];
        }
        for (int a = 0; a < FC_ATTR_COUNT; a++) s->attr[a][kept] = s->attr[a][i];
        s->attr[FC_ATTR_SPEED][kept] += (float)(0.1 * (stream_random(s) - 0.5));
        kept++;
    }
    s->count = kept;
    double births = s->birth_rate * (0.5 + stream_random(s));
    for (int b = 0; b < (int)births; b++) stream_add(s);
    s->sequence++;
}

static inline fc_snapshot stream_snapshot(const particle_stream *s)
{
    fc_snapshot snap = {.sequence = s->sequence, .time = s->sequence / 30.0, .count = s->count, .id = s->id};
    for (int a = 0; a < 3; a++) snap.position[a] = s->pos[a];
    for (int a = 0; a < FC_ATTR_COUNT; a++) snap.attribute[a] = s->attr[a];
    return snap;
}

static inline void stream_free(particle_stream *s)
{
    free(s->id);
    for (int a = 0; a < 3; a++) free(s->pos[a]), free(s->vel[a]);
    for (int a = 0; a < FC_ATTR_COUNT; a++) free(s->attr[a]);
}

/* A stream configuration for the stream's bounds with all attributes at their usual ranges. */
static inline fc_stream_config stream_config(const particle_stream *s, unsigned bits, unsigned tier, uint32_t attributes)
{
    fc_stream_config c = {.world = 7, .epoch = 3, .bits = bits, .tier = tier, .attributes = attributes};
    for (int a = 0; a < 3; a++) c.lo[a] = s->lo[a], c.hi[a] = s->hi[a];
    const float lo[FC_ATTR_COUNT] = {0, 800, 273.15f, 0}, hi[FC_ATTR_COUNT] = {5, 1200, 373.15f, 255};
    for (int a = 0; a < FC_ATTR_COUNT; a++) c.attr_lo[a] = lo[a], c.attr_hi[a] = hi[a];
    return c;
}

#endif
