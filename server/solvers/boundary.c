/* Boundary particles: the solids' skin sampled on the fluid's lattice, sorted, with Akinci volumes. */
#include "solvers/boundary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/colliders.h"
#include "core/kernels.h"
#include "core/build_progress.h"
#include "solvers/sph_family.h" /* the family's rest volume bounds the samples' volumes */

#define PI 3.14159265358979323846

/* The boundary is the layer of solid, one smoothing radius deep, behind every surface the fluid
 * can touch, sampled on the lattice the scenes fill fluid on (domain min + s/2 + i s; in 2D the
 * plane z = 0 of it, where the volumes below are areas). Where the
 * fluid rests half a spacing from a wall, the samples then sit exactly where the missing fluid
 * neighbours would, at edges and corners too, so a resting particle near a wall sees the same
 * neighbourhood as one inside the fluid.
 *
 * Volumes follow Akinci et al. 2012, V_b = 1 / sum_k W(x_b - x_k) over boundary samples k, which
 * shares volume where samples crowd (overlapping colliders); bounded by V0, the volume of a
 * particle at rest spacing, because samples at the skin's surface lack the neighbours on the
 * fluid side and would otherwise count double. */

typedef struct point_list {
    float *x, *y, *z;
    uint32_t *owner;
    uint32_t current_owner; /* the owner of the points pushed next */
    size_t count, capacity;
    int failed;
} point_list;

static void push_point(point_list *l, const float p[3])
{
    if (l->failed) return;
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? 2 * l->capacity : 4096;
        float **arrays[3] = {&l->x, &l->y, &l->z};
        for (int a = 0; a < 3; a++) {
            float *grown = realloc(*arrays[a], cap * sizeof(float));
            if (!grown) {
                l->failed = 1;
                return;
            }
            *arrays[a] = grown;
        }
        uint32_t *owners = realloc(l->owner, cap * sizeof *owners);
        if (!owners) {
            l->failed = 1;
            return;
        }
        l->owner = owners;
        l->capacity = cap;
    }
    l->x[l->count] = p[0], l->y[l->count] = p[1], l->z[l->count] = p[2];
    l->owner[l->count] = l->current_owner;
    l->count++;
}

/* Signed distance to the container's walls, positive inside the domain (in 2D to its four sides). */
static float container_distance(const fc_world *w, const float p[3])
{
    float d = INFINITY;
    for (int a = 0; a < (w->dimensions == 2 ? 2 : 3); a++) {
        float in = fminf(p[a] - w->domain_lo[a], w->domain_hi[a] - p[a]);
        if (in < d) d = in;
    }
    return d;
}

/* Lattice points in [lo, hi] whose signed distance to the solid (shape, or the container when
 * shape is NULL) lies in [-depth, 0): inside the solid, within depth of its surface. In 2D the
 * lattice is the square one of the plane z = 0 (one layer, k = 0 at z = 0). Reports its layers to
 * w->build_progress as the part [from, to] of the boundary phase. */
static void sample_solid_skin(const fc_world *w, const fc_shape *shape, const float lo[3], const float hi[3],
                              float depth, point_list *out, double from, double to)
{
    const float s = (float)w->params.particle_spacing;
    long first[3], last[3];
    for (int a = 0; a < 3; a++) {
        float origin = w->domain_lo[a] + 0.5f * s;
        first[a] = (long)ceilf((lo[a] - origin) / s);
        last[a] = (long)floorf((hi[a] - origin) / s);
    }
    const int flat = w->dimensions == 2;
    if (flat) first[2] = last[2] = 0;
    for (long k = first[2]; k <= last[2]; k++) {
        if (w->build_progress)
            fc_build_progress_report(w->build_progress, FC_BUILD_BOUNDARY,
                              from + (to - from) * (double)(k - first[2]) / (double)(last[2] - first[2] + 1));
        for (long j = first[1]; j <= last[1]; j++)
            for (long i = first[0]; i <= last[0]; i++) {
                float p[3] = {w->domain_lo[0] + (0.5f + (float)i) * s, w->domain_lo[1] + (0.5f + (float)j) * s,
                              flat ? 0.0f : w->domain_lo[2] + (0.5f + (float)k) * s}, normal[3];
                float d = shape ? fc_shape_distance(shape, p, normal) : container_distance(w, p);
                if (d < 0.0f && d >= -depth) push_point(out, p);
            }
    }
}

void fc_boundary_free(fc_boundary *b)
{
    free(b->x), free(b->y), free(b->z), free(b->volume);
    free(b->owner), free(b->lx), free(b->ly), free(b->lz), free(b->owners);
    fc_grid_free(&b->grid);
    memset(b, 0, sizeof *b);
}

enum { VOLUME_REPORTS = 16 }; /* progress reports while the boundary samples' volumes are weighed */

/* Sample i's volume 1 / sum_j W(x_i - x_j) over the samples within h (Akinci et al. 2012), with
 * poly6 = W's constant and h2 = h^2; the sum includes the sample itself, so it is positive. */
static double sample_volume(const fc_boundary *b, long i, double h2, double poly6)
{
    fc_bar bars[9];
    int nbars = fc_grid_bars(&b->grid.geom, b->grid.key[i], bars);
    double sum = 0.0;
    FC_FOR_EACH_CANDIDATE(&b->grid, bars, nbars, j)
    {
        double dx = b->x[i] - b->x[j], dy = b->y[i] - b->y[j], dz = b->z[i] - b->z[j];
        double r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < h2) sum += (h2 - r2) * (h2 - r2) * (h2 - r2);
    }
    return 1.0 / (poly6 * sum);
}

static float *gather(const float *src, const uint32_t *order, size_t n)
{
    float *dst = malloc((n ? n : 1) * sizeof(float));
    if (dst)
        for (size_t i = 0; i < n; i++) dst[i] = src[order[i]];
    return dst;
}

static uint32_t *gather_owners(const uint32_t *src, const uint32_t *order, size_t n)
{
    uint32_t *dst = malloc((n ? n : 1) * sizeof *dst);
    if (dst)
        for (size_t i = 0; i < n; i++) dst[i] = src[order[i]];
    return dst;
}

/* A point x of the solid posed as `pose` in that solid's frame, and back: local = R^T (x - c),
 * x = c + R local (R = I for a shape that is not rotated; the container's frame is the world's). */
static void to_local(const fc_shape *pose, const float x[3], float local[3])
{
    float rel[3] = {x[0] - pose->center[0], x[1] - pose->center[1], x[2] - pose->center[2]};
    for (int a = 0; a < 3; a++) local[a] = pose->rotated ? fc_dot3(rel, pose->axes[a]) : rel[a];
}

static void to_world(const fc_shape *pose, const float local[3], float x[3])
{
    for (int a = 0; a < 3; a++)
        x[a] = pose->center[a] + (pose->rotated ? local[0] * pose->axes[0][a] + local[1] * pose->axes[1][a] +
                                                      local[2] * pose->axes[2][a]
                                                : local[a]);
}

/* Each sample's place in its owner's frame (the container's samples keep their world place). */
static void place_locally(fc_boundary *b)
{
    const long n = (long)b->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        const float x[3] = {b->x[i], b->y[i], b->z[i]};
        float local[3] = {x[0], x[1], x[2]};
        if (b->owner[i] != 0) to_local(&b->owners[b->owner[i]].pose, x, local);
        b->lx[i] = local[0], b->ly[i] = local[1], b->lz[i] = local[2];
    }
}

/* The samples' volumes (Akinci et al. 2012, at most V0), of every sample or only those marked. */
static void weigh_volumes(fc_boundary *b, const fc_world *w, const uint8_t *marked)
{
    const float h = (float)w->params.smoothing_radius; /* as the samples were laid out */
    const double h2 = (double)h * h, poly6 = fc_poly6_coefficient(h, w->dimensions);
    const double rest_volume = fc_sph_rest_volume(w);
    const long n = (long)b->count, chunk = n / VOLUME_REPORTS + 1;
    for (long first = 0; first < n; first += chunk) { /* reports between chunks, never inside the parallel loop */
        fc_build_progress_report(w->build_progress, FC_BUILD_VOLUMES, (double)first / (double)n);
        const long end = first + chunk < n ? first + chunk : n;
#pragma omp parallel for schedule(static)
        for (long i = first; i < end; i++)
            if (!marked || marked[i]) b->volume[i] = (float)fmin(sample_volume(b, i, h2, poly6), rest_volume);
    }
}

int fc_boundary_build(fc_boundary *b, const fc_world *w)
{
    fc_boundary_free(b);
    const float h = (float)w->params.smoothing_radius;
    float lo[3], hi[3], shape_lo[3], shape_hi[3];
    for (int a = 0; a < 3; a++) lo[a] = w->domain_lo[a] - h, hi[a] = w->domain_hi[a] + h;

    const size_t colliders = fc_objects_count(&w->objects, FC_OBJECT_COLLIDER);
    point_list pts = {0};
    b->owners = calloc(colliders + 1, sizeof *b->owners);
    if (!b->owners) return -1;
    b->owner_count = 1; /* [0]: the container */
    const double parts = (double)colliders + 4.0; /* the container as 4 */
    sample_solid_skin(w, NULL, lo, hi, h, &pts, 0.0, 4.0 / parts);
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_COLLIDER, o) {
        const double done = 3.0 + (double)b->owner_count;
        b->owners[b->owner_count] = (fc_boundary_owner){.id = o->id, .pose = o->shape};
        pts.current_owner = (uint32_t)b->owner_count++;
        fc_shape_bounds(&o->shape, lo, hi, shape_lo, shape_hi);
        sample_solid_skin(w, &o->shape, shape_lo, shape_hi, h, &pts, done / parts, (done + 1.0) / parts);
    }

    fc_build_progress_report(w->build_progress, FC_BUILD_VOLUMES, 0.0);
    int rc = -1;
    fc_grid_init(&b->grid, &w->grid_geom);
    if (pts.failed || fc_grid_sort(&b->grid, pts.x, pts.y, pts.z, pts.count)) goto done;
    b->count = pts.count;
    b->x = gather(pts.x, b->grid.order, b->count);
    b->y = gather(pts.y, b->grid.order, b->count);
    b->z = gather(pts.z, b->grid.order, b->count);
    b->owner = gather_owners(pts.owner, b->grid.order, b->count);
    b->volume = malloc((b->count ? b->count : 1) * sizeof(float));
    b->lx = malloc((b->count ? b->count : 1) * sizeof(float));
    b->ly = malloc((b->count ? b->count : 1) * sizeof(float));
    b->lz = malloc((b->count ? b->count : 1) * sizeof(float));
    if (!b->x || !b->y || !b->z || !b->owner || !b->volume || !b->lx || !b->ly || !b->lz) goto done;
    place_locally(b);
    weigh_volumes(b, w, NULL);
    rc = 0;
done:
    free(pts.x), free(pts.y), free(pts.z), free(pts.owner);
    if (rc) fc_boundary_free(b);
    return rc;
}

/* Whether two poses are of the same solid (kind and size), and whether it moved or turned. */
static int same_solid(const fc_shape *a, const fc_shape *b)
{
    return a->kind == b->kind && a->radius == b->radius && !memcmp(a->half, b->half, sizeof a->half) &&
           !memcmp(a->normal, b->normal, sizeof a->normal) && a->offset == b->offset;
}

static int same_pose(const fc_shape *a, const fc_shape *b)
{
    return !memcmp(a->center, b->center, sizeof a->center) && a->rotated == b->rotated &&
           (!a->rotated || !memcmp(a->axes, b->axes, sizeof a->axes));
}

/* lo/hi grown to hold x. */
static void grow_bounds(float lo[3], float hi[3], const float x[3])
{
    for (int a = 0; a < 3; a++) lo[a] = fminf(lo[a], x[a]), hi[a] = fmaxf(hi[a], x[a]);
}

/* Moves the samples of the owners marked in `moved` to their owners' poses in w; their bounds
 * before and after, into lo/hi (per owner). */
static void carry_samples(fc_boundary *b, const uint8_t *moved, float (*lo)[3], float (*hi)[3])
{
    for (size_t i = 0; i < b->count; i++) {
        const uint32_t k = b->owner[i];
        if (!moved[k]) continue;
        float x[3] = {b->x[i], b->y[i], b->z[i]};
        grow_bounds(lo[k], hi[k], x);
        const float local[3] = {b->lx[i], b->ly[i], b->lz[i]};
        to_world(&b->owners[k].pose, local, x);
        grow_bounds(lo[k], hi[k], x);
        b->x[i] = x[0], b->y[i] = x[1], b->z[i] = x[2];
    }
}

/* The arrays in the grid's new order (fc_grid_sort of the moved positions). 0 or -1. */
static int reorder(fc_boundary *b)
{
    float **columns[7] = {&b->x, &b->y, &b->z, &b->volume, &b->lx, &b->ly, &b->lz};
    for (int c = 0; c < 7; c++) {
        float *sorted = gather(*columns[c], b->grid.order, b->count);
        if (!sorted) return -1;
        free(*columns[c]);
        *columns[c] = sorted;
    }
    uint32_t *owners = gather_owners(b->owner, b->grid.order, b->count);
    if (!owners) return -1;
    free(b->owner);
    b->owner = owners;
    return 0;
}

int fc_boundary_update(fc_boundary *b, const fc_world *w)
{
    const size_t colliders = fc_objects_count(&w->objects, FC_OBJECT_COLLIDER);
    int same = b->owners && b->owner_count == colliders + 1;
    size_t k = 1;
    for (const fc_object *o = fc_objects_next(&w->objects, FC_OBJECT_COLLIDER, NULL); same && o;
         o = fc_objects_next(&w->objects, FC_OBJECT_COLLIDER, o), k++)
        same = b->owners[k].id == o->id && same_solid(&b->owners[k].pose, &o->shape);
    if (!same) return fc_boundary_build(b, w) ? -1 : 1;

    uint8_t *moved = calloc(b->owner_count, 1), *marked = NULL;
    float(*lo)[3] = malloc(b->owner_count * sizeof *lo), (*hi)[3] = malloc(b->owner_count * sizeof *hi);
    int rc = -1, any = 0;
    if (!moved || !lo || !hi) goto done;
    k = 1;
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_COLLIDER, o) {
        moved[k] = !same_pose(&b->owners[k].pose, &o->shape);
        any |= moved[k];
        b->owners[k].pose = o->shape;
        for (int a = 0; a < 3; a++) lo[k][a] = INFINITY, hi[k][a] = -INFINITY;
        k++;
    }
    if (!any) {
        rc = 0;
        goto done;
    }
    carry_samples(b, moved, lo, hi);
    marked = malloc(b->count ? b->count : 1);
    if (!marked || fc_grid_sort(&b->grid, b->x, b->y, b->z, b->count) || reorder(b)) goto done;
    /* a volume changes where a moved sample was or is now within h */
    const float h = (float)w->params.smoothing_radius;
    const long n = (long)b->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        const float x[3] = {b->x[i], b->y[i], b->z[i]};
        int near = moved[b->owner[i]];
        for (size_t o = 1; o < b->owner_count && !near; o++)
            near = moved[o] && x[0] >= lo[o][0] - h && x[0] <= hi[o][0] + h && x[1] >= lo[o][1] - h &&
                   x[1] <= hi[o][1] + h && x[2] >= lo[o][2] - h && x[2] <= hi[o][2] + h;
        marked[i] = (uint8_t)near;
    }
    weigh_volumes(b, w, marked);
    rc = 0;
done:
    free(moved), free(marked), free(lo), free(hi);
    if (rc) fc_boundary_free(b);
    return rc;
}

/* The box's volume grown by `grow` on every side; in 2D (dims 2) the rectangle's area in x and y. */
static double box_volume(const float lo[3], const float hi[3], double grow, int dims)
{
    double v = 1.0;
    for (int a = 0; a < (dims == 2 ? 2 : 3); a++) v *= fmax(0.0, (double)hi[a] - lo[a] + 2.0 * grow);
    return v;
}

/* Solid skin one smoothing radius deep behind a shape's surface (fc_boundary_build samples it); in 2D
 * its area in the plane. */
static double skin_volume(const fc_shape *shape, const float domain_lo[3], const float domain_hi[3], double h, int dims)
{
    switch (shape->kind) {
    case FC_SHAPE_SPHERE: {
        double r = shape->radius, in = fmax(0.0, r - h);
        return dims == 2 ? PI * (r * r - in * in) : 4.0 / 3.0 * PI * (r * r * r - pow(in, 3));
    }
    case FC_SHAPE_BOX: {
        float lo[3], hi[3];
        for (int a = 0; a < 3; a++) lo[a] = shape->center[a] - shape->half[a], hi[a] = shape->center[a] + shape->half[a];
        return box_volume(lo, hi, 0.0, dims) - box_volume(lo, hi, -h, dims);
    }
    case FC_SHAPE_PLANE: { /* at most the largest cross-section of the domain, h deep */
        double e[3], largest = 0.0;
        if (dims == 2) { /* a line across the rectangle: at most its diagonal, h deep */
            for (int a = 0; a < 2; a++) e[a] = (double)domain_hi[a] - domain_lo[a] + 2.0 * h;
            return sqrt(e[0] * e[0] + e[1] * e[1]) * h;
        }
        for (int a = 0; a < 3; a++) e[a] = (double)domain_hi[a] - domain_lo[a] + 2.0 * h;
        for (int a = 0; a < 3; a++) largest = fmax(largest, e[(a + 1) % 3] * e[(a + 2) % 3]);
        return sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) / fmax(fmax(e[0], e[1]), e[2]) * largest * h;
    }
    case FC_SHAPE_DISC: /* no solid */
        break;
    }
    return 0.0;
}

double fc_boundary_estimate(const fc_shape *shape, const float lo[3], const float hi[3], const fc_params *p, int dims)
{
    const double s = p->particle_spacing, h = fc_params_smoothing_radius(p);
    /* the container's skin: the domain grown by h on every side, less the domain */
    double volume = shape ? skin_volume(shape, lo, hi, h, dims) : box_volume(lo, hi, h, dims) - box_volume(lo, hi, 0.0, dims);
    return volume / (dims == 2 ? s * s : s * s * s);
}
