/* Solid shapes (boxes, spheres, planes, the container): distance, sampling, collision response. */
#include "core/colliders.h"

#include <math.h>

#include "core/kernels.h"
#include "core/solver.h"

static float dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

float fc_shape_distance(const fc_shape *s, const float p[3], float n[3])
{
    switch (s->kind) {
    case FC_SHAPE_SPHERE: {
        float d[3] = {p[0] - s->center[0], p[1] - s->center[1], p[2] - s->center[2]};
        float len = sqrtf(dot3(d, d));
        if (len > 0.0f) {
            for (int a = 0; a < 3; a++) n[a] = d[a] / len;
        } else {
            n[0] = 0.0f, n[1] = 1.0f, n[2] = 0.0f;
        }
        return len - s->radius;
    }
    case FC_SHAPE_PLANE:
        for (int a = 0; a < 3; a++) n[a] = s->normal[a];
        return dot3(s->normal, p) - s->offset;
    case FC_SHAPE_BOX: {
        float q[3], outside2 = 0.0f, inside = -INFINITY;
        int inside_axis = 0;
        for (int a = 0; a < 3; a++) {
            float rel = p[a] - s->center[a];
            q[a] = fabsf(rel) - s->half[a];
            if (q[a] > inside) inside = q[a], inside_axis = a;
            n[a] = q[a] > 0.0f ? copysignf(q[a], rel) : 0.0f;
            if (q[a] > 0.0f) outside2 += q[a] * q[a];
        }
        if (outside2 > 0.0f) {
            float len = sqrtf(outside2);
            for (int a = 0; a < 3; a++) n[a] /= len;
            return len;
        }
        for (int a = 0; a < 3; a++) n[a] = 0.0f;
        n[inside_axis] = p[inside_axis] >= s->center[inside_axis] ? 1.0f : -1.0f;
        return inside;
    }
    }
    return INFINITY;
}

int fc_shape_contains(const fc_shape *s, const float p[3])
{
    float n[3];
    return s->kind != FC_SHAPE_PLANE && fc_shape_distance(s, p, n) <= 0.0f;
}

int fc_shape_near(const fc_shape *s, const float p[3], float clearance)
{
    float n[3];
    return fc_shape_distance(s, p, n) < clearance;
}

int fc_point_clear_of(const fc_shape *colliders, size_t count, float clearance, const float p[3])
{
    for (size_t c = 0; c < count; c++)
        if (fc_shape_near(&colliders[c], p, clearance)) return 0;
    return 1;
}

void fc_shape_bounds(const fc_shape *s, const float region_lo[3], const float region_hi[3], float lo[3], float hi[3])
{
    for (int a = 0; a < 3; a++) {
        float extent = s->kind == FC_SHAPE_BOX ? s->half[a] : s->radius;
        lo[a] = region_lo[a], hi[a] = region_hi[a];
        if (s->kind != FC_SHAPE_PLANE) {
            if (s->center[a] - extent > lo[a]) lo[a] = s->center[a] - extent;
            if (s->center[a] + extent < hi[a]) hi[a] = s->center[a] + extent;
        }
    }
}

/* Velocity response at a contact with unit normal n against a solid moving at `solid` (seed 001
 * 3.2.2, in the solid's frame): of the particle's velocity relative to the solid, reflect
 * `restitution` of an approaching normal part and remove `friction` of the tangential part. A
 * solid at rest gives exactly the response without the frame change. */
static void contact_response(float v[3], const float solid[3], const float n[3], float restitution, float friction)
{
    float rel[3] = {v[0] - solid[0], v[1] - solid[1], v[2] - solid[2]};
    float vn = dot3(rel, n);
    float normal_after = vn < 0.0f ? -restitution * vn : vn;
    for (int a = 0; a < 3; a++) {
        float tangential = rel[a] - vn * n[a];
        v[a] = solid[a] + (normal_after * n[a] + (1.0f - friction) * tangential);
    }
}

void fc_collision_init(fc_collision *c, const fc_world *w, fc_wall_mode walls, int move_positions)
{
    const fc_params *prm = &w->params;
    c->colliders = w->colliders;
    c->collider_count = w->collider_count;
    c->radius = (float)prm->particle_radius;
    c->margin = (float)prm->particle_margin;
    c->erp = (float)prm->boundary_erp;
    c->restitution = (float)prm->boundary_restitution;
    c->friction = (float)prm->boundary_friction;
    for (int a = 0; a < 3; a++) {
        c->wall_lo[a] = w->domain_lo[a] + c->radius;
        c->wall_hi[a] = w->domain_hi[a] - c->radius;
        if (c->wall_lo[a] > c->wall_hi[a])
            c->wall_lo[a] = c->wall_hi[a] = 0.5f * (w->domain_lo[a] + w->domain_hi[a]);
    }
    /* never beyond the domain itself, whatever the margin */
    c->wall_allowance = c->margin < c->radius ? c->margin : c->radius;
    c->walls = walls;
    c->move_positions = move_positions;
}

/* Where a particle that crossed the wall plane by `depth` > 0 ends, as a depth beyond the plane.
 * Clamp: 0, on the plane; two particles that crossed near each other then land on the same
 * coordinate, and at an edge or corner on the same point, where the kernel gradient between them
 * vanishes and they never separate (seed 002 section IV, Fig. 4). Soft: a * d / (d + a) with a
 * the allowance, strictly increasing in d and below a, so particles that crossed by different
 * depths stay apart and in the same order, and a shallow crossing (d << a) stays nearly as it is. */
static float depth_after_wall(const fc_collision *c, float depth)
{
    if (c->walls == FC_WALLS_CLAMP || c->wall_allowance <= 0.0f) return 0.0f;
    return c->wall_allowance * depth / (depth + c->wall_allowance);
}

void fc_collide_point(const fc_collision *c, float x[3], float v[3])
{
    static const float container_at_rest[3] = {0.0f, 0.0f, 0.0f};
    float normal[3];
    for (size_t k = 0; k < c->collider_count; k++) {
        float penetration = c->radius - fc_shape_distance(&c->colliders[k], x, normal);
        if (penetration <= 0.0f) continue;
        if (c->move_positions && penetration > c->margin)
            for (int a = 0; a < 3; a++) x[a] += c->erp * (penetration - c->margin) * normal[a];
        if (v) contact_response(v, c->colliders[k].velocity, normal, c->restitution, c->friction);
    }
    for (int a = 0; a < 3; a++) {
        float wall_normal[3] = {0, 0, 0};
        if (x[a] < c->wall_lo[a]) {
            if (c->move_positions) x[a] = c->wall_lo[a] - depth_after_wall(c, c->wall_lo[a] - x[a]);
            wall_normal[a] = 1.0f;
        } else if (x[a] > c->wall_hi[a]) {
            if (c->move_positions) x[a] = c->wall_hi[a] + depth_after_wall(c, x[a] - c->wall_hi[a]);
            wall_normal[a] = -1.0f;
        } else {
            continue;
        }
        if (v) contact_response(v, container_at_rest, wall_normal, c->restitution, c->friction);
    }
}

void fc_collide_particles(fc_world *w)
{
    fc_particles *p = &w->particles;
    float *px = p->field[FC_PX], *py = p->field[FC_PY], *pz = p->field[FC_PZ];
    float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    fc_collision c;
    fc_collision_init(&c, w, FC_WALLS_CLAMP, 1);
    const long n = (long)p->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        float x[3] = {px[i], py[i], pz[i]}, v[3] = {vx[i], vy[i], vz[i]};
        fc_collide_point(&c, x, v);
        px[i] = x[0], py[i] = x[1], pz[i] = x[2];
        vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
    }
}
