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

/* Whether p is closer than clearance to the solid (inside it included; a plane's solid is the side
 * its normal points away from). Fluid blocks leave out the lattice points near any collider, at
 * the clearance particle_radius, where the collision response would push a particle away. */
int fc_shape_near(const fc_shape *s, const float p[3], float clearance);
/* Whether p is near none of the count colliders (fc_shape_near). */
int fc_point_clear_of(const fc_shape *colliders, size_t count, float clearance, const float p[3]);

/* The part [lo, hi] of the region [region_lo, region_hi] that the solid can occupy. */
void fc_shape_bounds(const fc_shape *s, const float region_lo[3], const float region_hi[3], float lo[3], float hi[3]);

/* How the container walls treat a particle that crossed them (at particle_radius from the wall). */
typedef enum {
    FC_WALLS_CLAMP, /* onto the wall plane: exactly inside (SPH, fc_collide_particles) */
    FC_WALLS_SOFT   /* back to within min(particle_margin, particle_radius) of the wall plane, by a
                     * monotonic map of the depth crossed, so that particles that crossed by
                     * different depths stay apart (position based solvers, see colliders.c) */
} fc_wall_mode;

/* The collision response of one particle against the world's colliders and container (seed 001
 * 3.2.2), set up once per pass from the parameters; shared by every solver. */
typedef struct fc_collision {
    const fc_shape *colliders;
    size_t collider_count;
    float radius, margin, erp, restitution, friction;
    float wall_lo[3], wall_hi[3]; /* the box the particle centres keep to: domain shrunk by radius */
    float wall_allowance;         /* FC_WALLS_SOFT: how far beyond wall_lo/hi a particle may end */
    fc_wall_mode walls;
    int move_positions;           /* 0: contacts change velocities only (positions already resolved) */
} fc_collision;

void fc_collision_init(fc_collision *c, const fc_world *w, fc_wall_mode walls, int move_positions);

/* One particle at x with velocity v (v NULL: positions only). With move_positions, pushes x out of
 * every collider by boundary_erp of the penetration beyond particle_margin and back inside the
 * container walls (clamped or soft); with v, at every contact (penetration > 0) reflects
 * boundary_restitution of the approaching normal velocity and removes boundary_friction of the
 * tangential velocity, in the collider's frame. */
void fc_collide_point(const fc_collision *c, float x[3], float v[3]);

/* Whether fc_collide_point can do anything at x: there are colliders, or x is beyond a wall. For
 * loops that would otherwise call it for every particle. */
static inline int fc_collision_possible(const fc_collision *c, const float x[3])
{
    return c->collider_count > 0 || x[0] < c->wall_lo[0] || x[0] > c->wall_hi[0] || x[1] < c->wall_lo[1] ||
           x[1] > c->wall_hi[1] || x[2] < c->wall_lo[2] || x[2] > c->wall_hi[2];
}

#endif
