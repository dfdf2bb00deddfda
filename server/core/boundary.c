/* Boundary particles: surface sampling, grid sort, and volumes V_b = 1 / sum_k W_poly6(x_b - x_k). */
#include "core/boundary.h"

#include <stdlib.h>
#include <string.h>

#include "core/colliders.h"
#include "core/kernels.h"

typedef struct point_list {
    float *x, *y, *z;
    size_t count, capacity;
    int failed;
} point_list;

static void push_point(float x, float y, float z, void *ctx)
{
    point_list *l = ctx;
    if (l->failed) return;
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? 2 * l->capacity : 4096;
        float *nx = realloc(l->x, cap * sizeof(float)), *ny = nx ? realloc(l->y, cap * sizeof(float)) : NULL;
        if (nx) l->x = nx;
        if (ny) l->y = ny;
        float *nz = ny ? realloc(l->z, cap * sizeof(float)) : NULL;
        if (!nz) {
            l->failed = 1;
            return;
        }
        l->z = nz;
        l->capacity = cap;
    }
    l->x[l->count] = x, l->y[l->count] = y, l->z[l->count] = z;
    l->count++;
}

void fc_boundary_free(fc_boundary *b)
{
    free(b->x), free(b->y), free(b->z), free(b->volume);
    fc_grid_free(&b->grid);
    memset(b, 0, sizeof *b);
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
    const float spacing = (float)w->params.particle_spacing, h = (float)w->params.smoothing_radius;
    float lo[3], hi[3];
    for (int a = 0; a < 3; a++) lo[a] = w->domain_lo[a] - h, hi[a] = w->domain_hi[a] + h;

    point_list pts = {0};
    fc_shape container = {.kind = FC_SHAPE_BOX};
    for (int a = 0; a < 3; a++) {
        container.center[a] = 0.5f * (w->domain_lo[a] + w->domain_hi[a]);
        container.half[a] = 0.5f * (w->domain_hi[a] - w->domain_lo[a]);
    }
    fc_shape_sample_surface(&container, spacing, lo, hi, push_point, &pts);
    for (size_t c = 0; c < w->collider_count; c++)
        fc_shape_sample_surface(&w->colliders[c], spacing, lo, hi, push_point, &pts);

    int rc = -1;
    fc_grid_init(&b->grid, &w->grid_geom);
    if (pts.failed || fc_grid_sort(&b->grid, pts.x, pts.y, pts.z, pts.count)) goto done;
    b->count = pts.count;
    b->x = gather(pts.x, b->grid.order, b->count);
    b->y = gather(pts.y, b->grid.order, b->count);
    b->z = gather(pts.z, b->grid.order, b->count);
    b->volume = malloc((b->count ? b->count : 1) * sizeof(float));
    if (!b->x || !b->y || !b->z || !b->volume) goto done;

    const double h2 = (double)h * h, poly6 = fc_poly6_coefficient(h);
    const long n = (long)b->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        fc_bar bars[9];
        int nbars = fc_grid_bars(&b->grid.geom, b->grid.key[i], bars);
        double sum = 0.0;
        FC_FOR_EACH_CANDIDATE(&b->grid, bars, nbars, j)
        {
            double dx = b->x[i] - b->x[j], dy = b->y[i] - b->y[j], dz = b->z[i] - b->z[j];
            double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 < h2) sum += (h2 - r2) * (h2 - r2) * (h2 - r2);
        }
        b->volume[i] = (float)(1.0 / (poly6 * sum)); /* sum includes the sample itself, so > 0 */
    }
    rc = 0;
done:
    free(pts.x), free(pts.y), free(pts.z);
    if (rc) fc_boundary_free(b);
    return rc;
}
