/* Solid shapes (boxes, spheres, planes, the container): distance, sampling, collision response. */
#include "core/colliders.h"

#include <math.h>

#include "core/kernels.h"
#include "core/solver.h"

int fc_shape_contains(const fc_shape *s, const float p[3]) { return fc_shape_inside(s, p); }

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
