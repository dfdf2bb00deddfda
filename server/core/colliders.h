/* Geometry of solid shapes: signed distance, inside tests and bounds. */
#ifndef FC_COLLIDERS_H
#define FC_COLLIDERS_H

#include <stddef.h>

#include "core/world.h"

/* Signed distance from p to the shape's surface (positive on the fluid side) and the unit
 * normal pointing to the fluid side. */
float fc_shape_distance(const fc_shape *s, const float p[3], float normal[3]);

/* Whether p lies inside (or on) a box or sphere. */
int fc_shape_contains(const fc_shape *s, const float p[3]);

/* The part [lo, hi] of the region [region_lo, region_hi] that the solid can occupy. */
void fc_shape_bounds(const fc_shape *s, const float region_lo[3], const float region_hi[3], float lo[3], float hi[3]);

#endif
