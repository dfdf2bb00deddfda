/* The sorted uniform neighbour grid (seed 001 section 4.1), shared by every particle solver and the CUDA grid.
 *
 * Cells are h wide over the world's bounds; positions outside are clamped to the border cells,
 * which keeps neighbour search exact (clamping never separates two points closer than h by more
 * than one cell) and never indexes outside the arrays, even for NaN. Cell keys run x fastest,
 * so the three cells (x-1..x+1, y, z) are one contiguous "3-cell bar" of sorted particles and a
 * neighbourhood is nine bars. Unlike Bullet's sparse grid with a binary search, our domains are
 * bounded, so the grid is dense and a cell is found by its key directly. */
#ifndef FC_GRID_H
#define FC_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "core/hd.h"

typedef struct fc_grid_geom {
    float lo[3];        /* corner of cell (0,0,0), m */
    float cell;         /* cell width = smoothing radius h, m */
    float inv_cell;
    int dim[3];
    uint32_t ncells;
} fc_grid_geom;

typedef struct fc_grid {
    fc_grid_geom geom;
    uint32_t *cell_start;   /* ncells + 1 entries: particles of cell k are [cell_start[k], cell_start[k+1]) */
    uint32_t *key;          /* per sorted particle: its cell key */
    uint32_t *order;        /* per sorted particle: its index before sorting */
    uint32_t *unsorted_key; /* scratch */
    size_t capacity;
} fc_grid;

/* A key range [first, last] of one 3-cell bar. */
typedef struct fc_bar { uint32_t first, last; } fc_bar;

/* Geometry covering [lo, hi] with cells of width `cell`; fails (with a reason) if the grid
 * would have more than FC_GRID_MAX_CELLS cells. */
#define FC_GRID_MAX_CELLS (1u << 28)
int fc_grid_geom_init(fc_grid_geom *g, const float lo[3], const float hi[3], float cell, char *err, size_t errlen);

void fc_grid_init(fc_grid *g, const fc_grid_geom *geom);
void fc_grid_free(fc_grid *g);

/* Sorts n points by cell with a counting sort: fills key, order and cell_start. The caller then
 * reorders its own arrays with `order` (fc_particles_permute). Returns 0, or -1 out of memory. */
int fc_grid_sort(fc_grid *g, const float *x, const float *y, const float *z, size_t n);

/* Cell coordinate of v on `axis`, clamped to [0, dim - 1] (NaN: 0). Shared with the CUDA grid
 * (FC_HD), rounded the same way there, so a point gets the same cell on the device as on the CPU,
 * on a cell border too. */
static inline FC_HD int fc_grid_coord(const fc_grid_geom *g, float v, int axis)
{
    float f = fc_mul_rn(fc_sub_rn(v, g->lo[axis]), g->inv_cell);
    if (!(f >= 0.0f)) return 0; /* also NaN */
    int d = g->dim[axis];
    return f < (float)d ? (int)f : d - 1;
}

/* Key of the cell holding (x, y, z): x fastest. */
static inline FC_HD uint32_t fc_grid_key(const fc_grid_geom *g, float x, float y, float z)
{
    uint32_t cx = (uint32_t)fc_grid_coord(g, x, 0), cy = (uint32_t)fc_grid_coord(g, y, 1),
             cz = (uint32_t)fc_grid_coord(g, z, 2);
    return (cz * (uint32_t)g->dim[1] + cy) * (uint32_t)g->dim[0] + cx;
}

/* The up to nine bars around the cell `key`; returns how many. */
static inline FC_HD int fc_grid_bars(const fc_grid_geom *g, uint32_t key, fc_bar bars[9])
{
    const int nx = g->dim[0], ny = g->dim[1], nz = g->dim[2];
    const int cx = (int)(key % (uint32_t)nx), cy = (int)((key / (uint32_t)nx) % (uint32_t)ny),
              cz = (int)(key / ((uint32_t)nx * (uint32_t)ny));
    const int x0 = cx > 0 ? cx - 1 : 0, x1 = cx + 1 < nx ? cx + 1 : nx - 1;
    int n = 0;
    for (int z = cz - 1; z <= cz + 1; z++) {
        if (z < 0 || z >= nz) continue;
        for (int y = cy - 1; y <= cy + 1; y++) {
            if (y < 0 || y >= ny) continue;
            uint32_t row = ((uint32_t)z * (uint32_t)ny + (uint32_t)y) * (uint32_t)nx;
            bars[n].first = row + (uint32_t)x0;
            bars[n].last = row + (uint32_t)x1;
            n++;
        }
    }
    return n;
}

/* Loops `j` over every point of grid `grid` in the nine bars `bars` (count `nbars`). */
#define FC_FOR_EACH_CANDIDATE(grid, bars, nbars, j)                                              \
    for (int fc_b_ = 0; fc_b_ < (nbars); fc_b_++)                                               \
        for (uint32_t j = (grid)->cell_start[(bars)[fc_b_].first],                              \
                      fc_end_##j = (grid)->cell_start[(bars)[fc_b_].last + 1];                  \
             j < fc_end_##j; j++)

#endif
