/* Solid shapes (boxes, spheres, planes, the container): distance, sampling, collision response. */
#include "core/colliders.h"

#include <math.h>

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

static int within(const float p[3], const float lo[3], const float hi[3])
{
    for (int a = 0; a < 3; a++)
        if (p[a] < lo[a] || p[a] > hi[a]) return 0;
    return 1;
}

/* Lattice points on the rectangle origin + u*e1 + v*e2, u in [0, len1], v in [0, len2]. */
static void sample_rectangle(const float origin[3], const float e1[3], float len1, const float e2[3], float len2,
                             float spacing, const float lo[3], const float hi[3], fc_point_sink emit, void *ctx)
{
    int n1 = (int)ceilf(len1 / spacing), n2 = (int)ceilf(len2 / spacing);
    if (n1 < 1) n1 = 1;
    if (n2 < 1) n2 = 1;
    for (int i = 0; i <= n1; i++)
        for (int j = 0; j <= n2; j++) {
            float u = len1 * (float)i / (float)n1, v = len2 * (float)j / (float)n2, p[3];
            for (int a = 0; a < 3; a++) p[a] = origin[a] + u * e1[a] + v * e2[a];
            if (within(p, lo, hi)) emit(p[0], p[1], p[2], ctx);
        }
}

static void sample_box(const fc_shape *s, float spacing, const float lo[3], const float hi[3], fc_point_sink emit,
                       void *ctx)
{
    /* Each face once; shared edges are sampled twice, which the volume weighting evens out. */
    for (int axis = 0; axis < 3; axis++) {
        int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
        for (int side = -1; side <= 1; side += 2) {
            float origin[3], e1[3] = {0, 0, 0}, e2[3] = {0, 0, 0};
            origin[axis] = s->center[axis] + (float)side * s->half[axis];
            origin[a1] = s->center[a1] - s->half[a1];
            origin[a2] = s->center[a2] - s->half[a2];
            e1[a1] = 1.0f;
            e2[a2] = 1.0f;
            sample_rectangle(origin, e1, 2.0f * s->half[a1], e2, 2.0f * s->half[a2], spacing, lo, hi, emit, ctx);
        }
    }
}

static void sample_sphere(const fc_shape *s, float spacing, const float lo[3], const float hi[3], fc_point_sink emit,
                          void *ctx)
{
    /* Fibonacci sphere: n points of equal area 4 pi r^2 / n each. */
    double area = 4.0 * M_PI * (double)s->radius * s->radius;
    long n = (long)ceil(area / ((double)spacing * spacing));
    if (n < 1) n = 1;
    const double golden = M_PI * (3.0 - sqrt(5.0));
    for (long i = 0; i < n; i++) {
        double y = 1.0 - 2.0 * ((double)i + 0.5) / (double)n, r = sqrt(1.0 - y * y), phi = golden * (double)i;
        float p[3] = {s->center[0] + s->radius * (float)(r * cos(phi)), s->center[1] + s->radius * (float)y,
                      s->center[2] + s->radius * (float)(r * sin(phi))};
        if (within(p, lo, hi)) emit(p[0], p[1], p[2], ctx);
    }
}

static void sample_plane(const fc_shape *s, float spacing, const float lo[3], const float hi[3], fc_point_sink emit,
                         void *ctx)
{
    /* Two tangents, then a square around the projection of the region's centre, as large as
     * the region's diagonal; points outside the region are dropped by sample_rectangle. */
    const float *n = s->normal;
    float helper[3] = {fabsf(n[0]) < 0.9f ? 1.0f : 0.0f, fabsf(n[0]) < 0.9f ? 0.0f : 1.0f, 0.0f};
    float t1[3] = {n[1] * helper[2] - n[2] * helper[1], n[2] * helper[0] - n[0] * helper[2],
                   n[0] * helper[1] - n[1] * helper[0]};
    float len = sqrtf(dot3(t1, t1));
    for (int a = 0; a < 3; a++) t1[a] /= len;
    float t2[3] = {n[1] * t1[2] - n[2] * t1[1], n[2] * t1[0] - n[0] * t1[2], n[0] * t1[1] - n[1] * t1[0]};
    float mid[3], diag2 = 0.0f;
    for (int a = 0; a < 3; a++) {
        mid[a] = 0.5f * (lo[a] + hi[a]);
        diag2 += (hi[a] - lo[a]) * (hi[a] - lo[a]);
    }
    float diag = sqrtf(diag2), dist = dot3(n, mid) - s->offset, origin[3];
    for (int a = 0; a < 3; a++) origin[a] = mid[a] - dist * n[a] - 0.5f * diag * (t1[a] + t2[a]);
    sample_rectangle(origin, t1, diag, t2, diag, spacing, lo, hi, emit, ctx);
}

void fc_shape_sample_surface(const fc_shape *s, float spacing, const float lo[3], const float hi[3],
                             fc_point_sink emit, void *ctx)
{
    switch (s->kind) {
    case FC_SHAPE_BOX: sample_box(s, spacing, lo, hi, emit, ctx); break;
    case FC_SHAPE_SPHERE: sample_sphere(s, spacing, lo, hi, emit, ctx); break;
    case FC_SHAPE_PLANE: sample_plane(s, spacing, lo, hi, emit, ctx); break;
    }
}

/* Velocity response at a contact with unit normal n (seed 001 3.2.2): reflect `restitution` of an
 * approaching normal velocity and remove `friction` of the tangential velocity. */
static void contact_response(float v[3], const float n[3], float restitution, float friction)
{
    float vn = dot3(v, n);
    float normal_after = vn < 0.0f ? -restitution * vn : vn;
    for (int a = 0; a < 3; a++) {
        float tangential = v[a] - vn * n[a];
        v[a] = normal_after * n[a] + (1.0f - friction) * tangential;
    }
}

void fc_collide_particles(fc_world *w)
{
    const fc_params *prm = &w->params;
    fc_particles *p = &w->particles;
    float *px = p->field[FC_PX], *py = p->field[FC_PY], *pz = p->field[FC_PZ];
    float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    const float radius = (float)prm->particle_radius, margin = (float)prm->particle_margin;
    const float erp = (float)prm->boundary_erp, restitution = (float)prm->boundary_restitution,
                friction = (float)prm->boundary_friction;
    float wall_lo[3], wall_hi[3];
    for (int a = 0; a < 3; a++) {
        wall_lo[a] = w->domain_lo[a] + radius;
        wall_hi[a] = w->domain_hi[a] - radius;
        if (wall_lo[a] > wall_hi[a]) wall_lo[a] = wall_hi[a] = 0.5f * (w->domain_lo[a] + w->domain_hi[a]);
    }
    const long n = (long)p->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        float x[3] = {px[i], py[i], pz[i]}, v[3] = {vx[i], vy[i], vz[i]}, normal[3];
        for (size_t c = 0; c < w->collider_count; c++) {
            float penetration = radius - fc_shape_distance(&w->colliders[c], x, normal);
            if (penetration <= 0.0f) continue;
            if (penetration > margin)
                for (int a = 0; a < 3; a++) x[a] += erp * (penetration - margin) * normal[a];
            contact_response(v, normal, restitution, friction);
        }
        for (int a = 0; a < 3; a++) {
            float wall_normal[3] = {0, 0, 0};
            if (x[a] < wall_lo[a]) x[a] = wall_lo[a], wall_normal[a] = 1.0f;
            else if (x[a] > wall_hi[a]) x[a] = wall_hi[a], wall_normal[a] = -1.0f;
            else continue;
            contact_response(v, wall_normal, restitution, friction);
        }
        px[i] = x[0], py[i] = x[1], pz[i] = x[2];
        vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
    }
}
