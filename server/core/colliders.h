/* Geometry of solid shapes: signed distance, inside tests and surface sampling. */
#ifndef FC_COLLIDERS_H
#define FC_COLLIDERS_H

#include <stddef.h>

#include "core/world.h"

/* Signed distance from p to the shape's surface (positive on the fluid side) and the unit
 * normal pointing to the fluid side. */
float fc_shape_distance(const fc_shape *s, const float p[3], float normal[3]);

/* Whether p lies inside (or on) a box or sphere. */
int fc_shape_contains(const fc_shape *s, const float p[3]);

/* Calls emit(x, y, z, ctx) for points spread over the part of the shape's surface that lies
 * within [lo, hi], about `spacing` apart. */
typedef void (*fc_point_sink)(float x, float y, float z, void *ctx);
void fc_shape_sample_surface(const fc_shape *s, float spacing, const float lo[3], const float hi[3],
                             fc_point_sink emit, void *ctx);

#endif
