/* Counting-sort construction of the uniform grid: keys, prefix sum of cell counts, stable scatter. */
#include "core/grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fc_grid_geom_init(fc_grid_geom *g, const float lo[3], const float hi[3], float cell, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    if (!(cell > 0.0f) || !isfinite(cell)) {
        snprintf(err, errlen, "grid cell size must be positive, got %g", (double)cell);
        return -1;
    }
    double cells = 1.0;
    for (int a = 0; a < 3; a++) {
        if (!(hi[a] > lo[a]) || !isfinite(lo[a]) || !isfinite(hi[a])) {
            snprintf(err, errlen, "grid bounds are empty or not finite on axis %c", "xyz"[a]);
            return -1;
        }
        double d = ceil((double)(hi[a] - lo[a]) / cell);
        if (d < 1) d = 1;
        cells *= d;
        if (cells > FC_GRID_MAX_CELLS) {
            snprintf(err, errlen, "grid would need more than %u cells: the domain is too large for the smoothing radius",
                     FC_GRID_MAX_CELLS);
            return -1;
        }
        g->dim[a] = (int)d;
        g->lo[a] = lo[a];
    }
    g->cell = cell;
    g->inv_cell = 1.0f / cell;
    g->ncells = (uint32_t)cells;
    return 0;
}

void fc_grid_init(fc_grid *g, const fc_grid_geom *geom)
{
    memset(g, 0, sizeof *g);
    g->geom = *geom;
}

void fc_grid_free(fc_grid *g)
{
    free(g->cell_start);
    free(g->key);
    free(g->order);
    free(g->unsorted_key);
    memset(g, 0, sizeof *g);
}

static int ensure_capacity(fc_grid *g, size_t n)
{
    if (!g->cell_start) {
        g->cell_start = malloc(sizeof(uint32_t) * ((size_t)g->geom.ncells + 1));
        if (!g->cell_start) return -1;
    }
    if (n <= g->capacity) return 0;
    size_t cap = n + n / 2 + 64;
    uint32_t *a = realloc(g->key, sizeof(uint32_t) * cap);
    if (!a) return -1;
    g->key = a;
    a = realloc(g->order, sizeof(uint32_t) * cap);
    if (!a) return -1;
    g->order = a;
    a = realloc(g->unsorted_key, sizeof(uint32_t) * cap);
    if (!a) return -1;
    g->unsorted_key = a;
    g->capacity = cap;
    return 0;
}

int fc_grid_sort(fc_grid *g, const float *x, const float *y, const float *z, size_t n)
{
    if (n > UINT32_MAX - 1 || ensure_capacity(g, n)) return -1;
    const fc_grid_geom *geom = &g->geom;
    uint32_t *keys = g->unsorted_key;
    const long count = (long)n;

    /* 1-2. quantize and key */
#pragma omp parallel for schedule(static)
    for (long i = 0; i < count; i++) keys[i] = fc_grid_key(geom, x[i], y[i], z[i]);

    /* 3. count per cell, prefix sum into cell_start */
    uint32_t *start = g->cell_start;
    memset(start, 0, sizeof(uint32_t) * ((size_t)geom->ncells + 1));
    for (size_t i = 0; i < n; i++) start[keys[i] + 1]++;
    for (uint32_t k = 0; k < geom->ncells; k++) start[k + 1] += start[k];

    /* 4. stable scatter: order[slot] = original index; start[] is used as a cursor, then restored */
    for (size_t i = 0; i < n; i++) {
        uint32_t slot = start[keys[i]]++;
        g->order[slot] = (uint32_t)i;
        g->key[slot] = keys[i];
    }
    for (uint32_t k = geom->ncells; k > 0; k--) start[k] = start[k - 1];
    start[0] = 0;
    return 0;
}
