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
        l->capacity = cap;
    }
    l->x[l->count] = p[0], l->y[l->count] = p[1], l->z[l->count] = p[2];
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

int fc_boundary_build(fc_boundary *b, const fc_world *w)
{
    fc_boundary_free(b);
    const float h = (float)w->params.smoothing_radius;
    float lo[3], hi[3], shape_lo[3], shape_hi[3];
    for (int a = 0; a < 3; a++) lo[a] = w->domain_lo[a] - h, hi[a] = w->domain_hi[a] + h;

    point_list pts = {0};
    const double parts = (double)w->collider_count + 4.0; /* the container as 4 colliders */
    sample_solid_skin(w, NULL, lo, hi, h, &pts, 0.0, 4.0 / parts);
    for (size_t c = 0; c < w->collider_count; c++) {
        fc_shape_bounds(&w->colliders[c], lo, hi, shape_lo, shape_hi);
        sample_solid_skin(w, &w->colliders[c], shape_lo, shape_hi, h, &pts, (4.0 + (double)c) / parts,
                          (5.0 + (double)c) / parts);
    }

    fc_build_progress_report(w->build_progress, FC_BUILD_VOLUMES, 0.0);
    int rc = -1;
    fc_grid_init(&b->grid, &w->grid_geom);
    if (pts.failed || fc_grid_sort(&b->grid, pts.x, pts.y, pts.z, pts.count)) goto done;
    b->count = pts.count;
    b->x = gather(pts.x, b->grid.order, b->count);
    b->y = gather(pts.y, b->grid.order, b->count);
    b->z = gather(pts.z, b->grid.order, b->count);
    b->volume = malloc((b->count ? b->count : 1) * sizeof(float));
    if (!b->x || !b->y || !b->z || !b->volume) goto done;

    const double h2 = (double)h * h, poly6 = fc_poly6_coefficient(h, w->dimensions);
    const double rest_volume = fc_sph_rest_volume(w);
    const long n = (long)b->count, chunk = n / VOLUME_REPORTS + 1;
    for (long first = 0; first < n; first += chunk) { /* reports between chunks, never inside the parallel loop */
        fc_build_progress_report(w->build_progress, FC_BUILD_VOLUMES, (double)first / (double)n);
        const long end = first + chunk < n ? first + chunk : n;
#pragma omp parallel for schedule(static)
        for (long i = first; i < end; i++) b->volume[i] = (float)fmin(sample_volume(b, i, h2, poly6), rest_volume);
    }
    rc = 0;
done:
    free(pts.x), free(pts.y), free(pts.z);
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
