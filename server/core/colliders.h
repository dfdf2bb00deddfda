/* Solid shapes on the host: inside tests, clearance and bounds, and the collision set-up of a world (the
 * distance and the response themselves are core/collide.h, shared with CUDA). */
#ifndef FC_COLLIDERS_H
#define FC_COLLIDERS_H

#include <stddef.h>

#include "core/collide.h"
#include "core/world.h"

/* Whether p lies inside (or on) a box or sphere. */
int fc_shape_contains(const fc_shape *s, const float p[3]);

/* Whether p is closer than clearance to the solid (inside it included; a plane's solid is the side
 * its normal points away from). Fluid blocks leave out the lattice points near any collider, at
 * the clearance particle_radius, where the collision response would push a particle away. */
int fc_shape_near(const fc_shape *s, const float p[3], float clearance);
/* Whether p is near none of the count shapes (fc_shape_near), and none of the table's colliders. */
int fc_shapes_clear_of(const fc_shape *shapes, size_t count, float clearance, const float p[3]);
int fc_point_clear_of(const fc_objects *objects, float clearance, const float p[3]);

/* Half the extent of the shape along each world axis (a box's rotated, its bounding box's; a
 * sphere's radius). */
void fc_shape_extent(const fc_shape *s, float extent[3]);

/* Orientation as Euler angles in degrees, about x, then y, then z (three.js's 'XYZ' order), which
 * scenes and messages use: to a quaternion (w, x, y, z), and a shape's back. */
void fc_quaternion_from_degrees(const float degrees[3], float q[4]);
void fc_shape_rotation_degrees(const fc_shape *s, float degrees[3]);

/* The part [lo, hi] of the region [region_lo, region_hi] that the solid can occupy. */
void fc_shape_bounds(const fc_shape *s, const float region_lo[3], const float region_hi[3], float lo[3], float hi[3]);

/* The collision set-up of a pass over w's particles: its colliders, parameters and container walls. */
void fc_collision_init(fc_collision *c, const fc_world *w, fc_wall_mode walls, int move_positions);

#endif
