/* One layer of an emitter's particles, placed by the host or on a device: plain data and the one point formula (FC_HD). */
#ifndef FC_EMISSION_H
#define FC_EMISSION_H

#include <stddef.h>
#include <stdint.h>

#include "core/hd.h"

/* The point (u, v) of an emitter's disc (in 2D: segment) with the basis t1, t2 and its centre moved
 * `advance` along the direction d: base = position + advance d, then base + u t1 + v t2. */
static inline FC_HD void fc_emitter_point(const float base[3], const float t1[3], const float t2[3], float u, float v,
                                          float out[3])
{
    for (int a = 0; a < 3; a++) out[a] = base[a] + u * t1[a] + v * t2[a];
}

/* A layer to append in a device store (fc_store_kind.emit): `count` particles with the
 * ids first_id, first_id + 1, ..., at fc_emitter_point of points[k], moving at velocity, every other
 * column as in `column` (each column's value as its bytes, the registry's element size: the
 * fc_world_particle record of the emitter's fluid). */
enum { FC_EMISSION_MAX_COLUMNS = 32 };
typedef struct fc_emission {
    size_t count;
    uint32_t first_id;
    const float (*points)[2]; /* host memory */
    float base[3], t1[3], t2[3], velocity[3];
    int dimensions;           /* 2: the particles stay in the plane z = 0 */
    int column_count;
    uint32_t column[FC_EMISSION_MAX_COLUMNS]; /* the value's bytes at the start of each word */
} fc_emission;

#endif
