/* The collision response of one particle against solid shapes and the container (seed 001 section
 * 3.2.2), written once for C and CUDA (FC_HD): the signed distance to a shape and the response. */
#ifndef FC_COLLIDE_H
#define FC_COLLIDE_H

#include <math.h>
#include <stddef.h>

#include "core/hd.h"
#include "core/objects.h"
#include "core/shape.h"

/* How the container walls treat a particle that crossed them (at particle_radius from the wall). */
typedef enum {
    FC_WALLS_CLAMP, /* onto the wall plane: exactly inside; lands particles on one point (seed 002),
                     * so no solver uses it */
    FC_WALLS_SOFT   /* back to within min(particle_margin, particle_radius) of the wall plane, by a
                     * monotonic map of the depth crossed, so that particles that crossed by
                     * different depths stay apart (every solver, fc_collide_particles) */
} fc_wall_mode;

/* The collision response of one particle against the world's colliders and container (seed 001
 * 3.2.2), set up once per pass from the parameters; shared by every solver. */
typedef struct fc_collision {
    const fc_object *colliders; /* the solids: the first collider_count rows of the world's object table */
    size_t collider_count;
    float radius, margin, erp, restitution, friction;
    float wall_lo[3], wall_hi[3]; /* the box the particle centres keep to: domain shrunk by radius */
    float wall_allowance;         /* FC_WALLS_SOFT: how far beyond wall_lo/hi a particle may end */
    fc_wall_mode walls;
    int move_positions;           /* 0: contacts change velocities only (positions already resolved) */
    fc_thermal_contact wall_heat[6]; /* the container walls' (fc_world.walls) */
    float heat_depth;             /* how deep into the fluid a solid's heat reaches: one particle spacing */
    int heat_contacts;            /* some wall or collider has a heat_transfer */
} fc_collision;

static inline FC_HD float fc_dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Poses shape s with the unit quaternion q = (w, x, y, z) (normalised here): its axes in world
 * coordinates are the columns of q's rotation matrix. The identity leaves it axis-aligned. */
static inline FC_HD void fc_shape_set_orientation(fc_shape *s, const float q[4])
{
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    float w = len > 0.0f ? q[0] / len : 1.0f, x = len > 0.0f ? q[1] / len : 0.0f, y = len > 0.0f ? q[2] / len : 0.0f,
          z = len > 0.0f ? q[3] / len : 0.0f;
    s->orientation[0] = w, s->orientation[1] = x, s->orientation[2] = y, s->orientation[3] = z;
    s->rotated = !(x == 0.0f && y == 0.0f && z == 0.0f);
    float r[3][3] = {{1.0f - 2.0f * (y * y + z * z), 2.0f * (x * y - w * z), 2.0f * (x * z + w * y)},
                     {2.0f * (x * y + w * z), 1.0f - 2.0f * (x * x + z * z), 2.0f * (y * z - w * x)},
                     {2.0f * (x * z - w * y), 2.0f * (y * z + w * x), 1.0f - 2.0f * (x * x + y * y)}};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) s->axes[a][b] = r[b][a];
}

/* Signed distance from p to the shape's surface (positive on the fluid side) and the unit
 * normal pointing to the fluid side. A rotated box measures in its own axes (Quilez's box
 * distance) and turns the normal back. A disc is no solid: infinitely far. */
static inline FC_HD float fc_shape_distance(const fc_shape *s, const float p[3], float n[3])
{
    switch (s->kind) {
    case FC_SHAPE_SPHERE: {
        float d[3] = {p[0] - s->center[0], p[1] - s->center[1], p[2] - s->center[2]};
        float len = sqrtf(fc_dot3(d, d));
        if (len > 0.0f) {
            for (int a = 0; a < 3; a++) n[a] = d[a] / len;
        } else {
            n[0] = 0.0f, n[1] = 1.0f, n[2] = 0.0f;
        }
        return len - s->radius;
    }
    case FC_SHAPE_PLANE:
        for (int a = 0; a < 3; a++) n[a] = s->normal[a];
        return fc_dot3(s->normal, p) - s->offset;
    case FC_SHAPE_BOX: {
        float rel[3] = {p[0] - s->center[0], p[1] - s->center[1], p[2] - s->center[2]}, local[3], q[3];
        for (int a = 0; a < 3; a++) local[a] = s->rotated ? fc_dot3(rel, s->axes[a]) : rel[a];
        float outside2 = 0.0f, inside = -INFINITY, d;
        int inside_axis = 0;
        for (int a = 0; a < 3; a++) {
            q[a] = fabsf(local[a]) - s->half[a];
            if (q[a] > inside) inside = q[a], inside_axis = a;
            n[a] = q[a] > 0.0f ? copysignf(q[a], local[a]) : 0.0f;
            if (q[a] > 0.0f) outside2 += q[a] * q[a];
        }
        if (outside2 > 0.0f) {
            float len = sqrtf(outside2);
            for (int a = 0; a < 3; a++) n[a] /= len;
            d = len;
        } else {
            for (int a = 0; a < 3; a++) n[a] = 0.0f;
            n[inside_axis] = local[inside_axis] >= 0.0f ? 1.0f : -1.0f;
            d = inside;
        }
        if (s->rotated) {
            float world[3];
            for (int a = 0; a < 3; a++) world[a] = n[0] * s->axes[0][a] + n[1] * s->axes[1][a] + n[2] * s->axes[2][a];
            for (int a = 0; a < 3; a++) n[a] = world[a];
        }
        return d;
    }
    case FC_SHAPE_DISC:
        break;
    }
    n[0] = 0.0f, n[1] = 1.0f, n[2] = 0.0f;
    return INFINITY;
}

/* The velocity of the shape's surface at x: its linear velocity and, when it turns, omega x (x -
 * centre). */
static inline FC_HD void fc_shape_surface_velocity(const fc_shape *s, const float x[3], float v[3])
{
    const float *w = s->angular_velocity;
    for (int a = 0; a < 3; a++) v[a] = s->velocity[a];
    if (w[0] == 0.0f && w[1] == 0.0f && w[2] == 0.0f) return;
    float r[3] = {x[0] - s->center[0], x[1] - s->center[1], x[2] - s->center[2]};
    v[0] += w[1] * r[2] - w[2] * r[1];
    v[1] += w[2] * r[0] - w[0] * r[2];
    v[2] += w[0] * r[1] - w[1] * r[0];
}

/* Whether p lies inside (or on) a box or sphere (a sink takes such particles). */
static inline FC_HD int fc_shape_inside(const fc_shape *s, const float p[3])
{
    float n[3];
    return s->kind != FC_SHAPE_PLANE && fc_shape_distance(s, p, n) <= 0.0f;
}

/* Velocity response at a contact with unit normal n against a solid moving at `solid` (seed 001
 * 3.2.2, in the solid's frame): of the particle's velocity relative to the solid, reflect
 * `restitution` of an approaching normal part and remove `friction` of the tangential part. A
 * solid at rest gives exactly the response without the frame change. */
static inline FC_HD void fc_contact_response(float v[3], const float solid[3], const float n[3], float restitution, float friction)
{
    float rel[3] = {v[0] - solid[0], v[1] - solid[1], v[2] - solid[2]};
    float vn = fc_dot3(rel, n);
    float normal_after = vn < 0.0f ? -restitution * vn : vn;
    for (int a = 0; a < 3; a++) {
        float tangential = rel[a] - vn * n[a];
        v[a] = solid[a] + (normal_after * n[a] + (1.0f - friction) * tangential);
    }
}

/* Where a particle that crossed the wall plane by `depth` > 0 ends, as a depth beyond the plane.
 * Clamp: 0, on the plane; two particles that crossed near each other then land on the same
 * coordinate, and at an edge or corner on the same point, where the kernel gradient between them
 * vanishes and they never separate (seed 002 section IV, Fig. 4). Soft: a * d / (d + a) with a
 * the allowance, strictly increasing in d and below a, so particles that crossed by different
 * depths stay apart and in the same order, and a shallow crossing (d << a) stays nearly as it is. */
static inline FC_HD float fc_wall_depth_after(const fc_collision *c, float depth)
{
    if (c->walls == FC_WALLS_CLAMP || c->wall_allowance <= 0.0f) return 0.0f;
    return c->wall_allowance * depth / (depth + c->wall_allowance);
}

/* One particle at x with velocity v (v NULL: positions only). With move_positions, pushes x out of
 * every collider by boundary_erp of the penetration beyond particle_margin and back inside the
 * container walls (clamped or soft); with v, at every contact (penetration > 0) reflects
 * boundary_restitution of the approaching normal velocity and removes boundary_friction of the
 * tangential velocity, in the collider's frame. */
static inline FC_HD void fc_collide_point(const fc_collision *c, float x[3], float v[3])
{
    const float container_at_rest[3] = {0.0f, 0.0f, 0.0f};
    float normal[3], surface[3];
    for (size_t k = 0; k < c->collider_count; k++) {
        const fc_shape *solid = &c->colliders[k].shape;
        float penetration = c->radius - fc_shape_distance(solid, x, normal);
        if (penetration <= 0.0f) continue;
        if (c->move_positions && penetration > c->margin)
            for (int a = 0; a < 3; a++) x[a] += c->erp * (penetration - c->margin) * normal[a];
        if (!v) continue;
        fc_shape_surface_velocity(solid, x, surface);
        fc_contact_response(v, surface, normal, c->restitution, c->friction);
    }
    for (int a = 0; a < 3; a++) {
        float wall_normal[3] = {0, 0, 0};
        if (x[a] < c->wall_lo[a]) {
            if (c->move_positions) x[a] = c->wall_lo[a] - fc_wall_depth_after(c, c->wall_lo[a] - x[a]);
            wall_normal[a] = 1.0f;
        } else if (x[a] > c->wall_hi[a]) {
            if (c->move_positions) x[a] = c->wall_hi[a] + fc_wall_depth_after(c, x[a] - c->wall_hi[a]);
            wall_normal[a] = -1.0f;
        } else {
            continue;
        }
        if (v) fc_contact_response(v, container_at_rest, wall_normal, c->restitution, c->friction);
    }
}

/* The share of a solid's surface heat flux that a particle at distance d from it takes: 1 within
 * one spacing (the first layer of particles, which at rest sits half a spacing off), falling to 0
 * at one and a half. */
static inline FC_HD float fc_contact_heat_weight(float d, float depth)
{
    const float w = (1.5f * depth - d) / (0.5f * depth);
    return w < 0.0f ? 0.0f : (w > 1.0f ? 1.0f : w);
}

/* One contact's Newton cooling over dt for a particle that stands for the surface area `area` and
 * holds the heat capacity m c (area_over_capacity = area / (m c)): the exact solution of
 * m c dT/dt = heat_transfer weight area (T_solid - T), which never overshoots T_solid. */
static inline FC_HD float fc_contact_relax(const fc_thermal_contact *contact, float weight, float area_over_capacity,
                                           float dt, float temperature)
{
    if (weight <= 0.0f || contact->heat_transfer <= 0.0f) return temperature;
    const float decay = expf(-contact->heat_transfer * weight * area_over_capacity * dt);
    return contact->temperature + (temperature - contact->temperature) * decay;
}

/* The temperature of a particle at x after dt of contact with the hot or cold solids near it (the
 * colliders and container walls with a heat_transfer), each by Newton's law of cooling through the
 * area spacing^(dims - 1) the particle covers (area_over_capacity = that area / (m c)). */
static inline FC_HD float fc_contact_heat(const fc_collision *c, const float x[3], float area_over_capacity, float dt,
                                          float temperature)
{
    if (!c->heat_contacts) return temperature;
    float normal[3];
    for (size_t k = 0; k < c->collider_count; k++) {
        const fc_object *o = &c->colliders[k];
        if (o->thermal.heat_transfer <= 0.0f) continue;
        const float d = fc_shape_distance(&o->shape, x, normal);
        temperature = fc_contact_relax(&o->thermal, fc_contact_heat_weight(d, c->heat_depth), area_over_capacity, dt,
                                       temperature);
    }
    for (int a = 0; a < 3; a++) { /* the walls' planes lie radius beyond wall_lo and wall_hi */
        if (c->wall_lo[a] == c->wall_hi[a]) continue; /* 2D: no walls across z */
        const float below = x[a] - (c->wall_lo[a] - c->radius), above = (c->wall_hi[a] + c->radius) - x[a];
        temperature = fc_contact_relax(&c->wall_heat[2 * a], fc_contact_heat_weight(below, c->heat_depth),
                                       area_over_capacity, dt, temperature);
        temperature = fc_contact_relax(&c->wall_heat[2 * a + 1], fc_contact_heat_weight(above, c->heat_depth),
                                       area_over_capacity, dt, temperature);
    }
    return temperature;
}

/* Whether fc_collide_point can do anything at x: there are colliders, or x is beyond a wall. For
 * loops that would otherwise call it for every particle. */
static inline FC_HD int fc_collision_possible(const fc_collision *c, const float x[3])
{
    return c->collider_count > 0 || x[0] < c->wall_lo[0] || x[0] > c->wall_hi[0] || x[1] < c->wall_lo[1] ||
           x[1] > c->wall_hi[1] || x[2] < c->wall_lo[2] || x[2] > c->wall_hi[2];
}

#endif
