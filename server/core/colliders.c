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

int fc_shapes_clear_of(const fc_shape *shapes, size_t count, float clearance, const float p[3])
{
    for (size_t c = 0; c < count; c++)
        if (fc_shape_near(&shapes[c], p, clearance)) return 0;
    return 1;
}

int fc_point_clear_of(const fc_objects *objects, float clearance, const float p[3])
{
    FC_FOR_EACH_OBJECT(objects, FC_OBJECT_COLLIDER, o)
        if (fc_shape_near(&o->shape, p, clearance)) return 0;
    return 1;
}

void fc_shape_extent(const fc_shape *s, float extent[3])
{
    for (int a = 0; a < 3; a++) {
        extent[a] = s->kind == FC_SHAPE_BOX ? s->half[a] : s->radius;
        if (s->kind == FC_SHAPE_BOX && s->rotated) /* the rotated box's bounding box */
            extent[a] = fabsf(s->axes[0][a]) * s->half[0] + fabsf(s->axes[1][a]) * s->half[1] +
                        fabsf(s->axes[2][a]) * s->half[2];
    }
}

/* Converts Euler angles in degrees, applied about x, then y, then z (three.js's order 'XYZ': the
 * rotation R = Rx Ry Rz), to the unit quaternion (w, x, y, z). */
void fc_quaternion_from_degrees(const float degrees[3], float q[4])
{
    double c[3], s[3];
    for (int a = 0; a < 3; a++) {
        double half = degrees[a] * (3.14159265358979323846 / 360.0);
        c[a] = cos(half), s[a] = sin(half);
    }
    q[0] = (float)(c[0] * c[1] * c[2] - s[0] * s[1] * s[2]);
    q[1] = (float)(s[0] * c[1] * c[2] + c[0] * s[1] * s[2]);
    q[2] = (float)(c[0] * s[1] * c[2] - s[0] * c[1] * s[2]);
    q[3] = (float)(c[0] * c[1] * s[2] + s[0] * s[1] * c[2]);
}

void fc_shape_rotation_degrees(const fc_shape *s, float degrees[3])
{
    if (!s->rotated) {
        degrees[0] = degrees[1] = degrees[2] = 0.0f;
        return;
    }
    /* R's entries: R[i][j] = axes[j][i] */
    const double to_degrees = 180.0 / 3.14159265358979323846, r02 = s->axes[2][0];
    const double y = asin(fmax(-1.0, fmin(1.0, r02)));
    double x, z;
    if (fabs(r02) < 0.9999999) {
        x = atan2(-s->axes[2][1], s->axes[2][2]);
        z = atan2(-s->axes[1][0], s->axes[0][0]);
    } else {
        x = atan2(s->axes[1][2], s->axes[1][1]);
        z = 0.0;
    }
    degrees[0] = (float)(x * to_degrees), degrees[1] = (float)(y * to_degrees), degrees[2] = (float)(z * to_degrees);
}

void fc_shape_bounds(const fc_shape *s, const float region_lo[3], const float region_hi[3], float lo[3], float hi[3])
{
    float extents[3];
    fc_shape_extent(s, extents);
    for (int a = 0; a < 3; a++) {
        float extent = extents[a];
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
    c->colliders = w->objects.rows; /* they lead the table (fc_objects_add) */
    c->collider_count = fc_objects_count(&w->objects, FC_OBJECT_COLLIDER);
    c->radius = (float)fc_params_particle_radius(prm);
    c->margin = (float)fc_params_particle_margin(prm);
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
    c->heat_depth = (float)prm->particle_spacing;
    c->heat_contacts = 0;
    for (int side = 0; side < 6; side++) {
        c->wall_heat[side] = w->walls[side];
        c->heat_contacts |= w->walls[side].heat_transfer > 0.0f;
    }
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_COLLIDER, row) c->heat_contacts |= row->thermal.heat_transfer > 0.0f;
}

void fc_collide_particles(fc_world *w)
{
    fc_particles *p = &w->particles;
    float *px = p->field[FC_PX], *py = p->field[FC_PY], *pz = p->field[FC_PZ];
    float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    fc_collision c;
    fc_collision_init(&c, w, FC_WALLS_SOFT, 1);
    const long n = (long)p->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        float x[3] = {px[i], py[i], pz[i]}, v[3] = {vx[i], vy[i], vz[i]};
        fc_collide_point(&c, x, v);
        px[i] = x[0], py[i] = x[1], pz[i] = x[2];
        vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
    }
}
