/* Neighbour lists (CSR) found once per step from the shared grid, reused by every pass of the step. */
#ifndef FC_NEIGHBOURS_H
#define FC_NEIGHBOURS_H

#include <stddef.h>
#include <stdint.h>

#include "core/grid.h"

/* The points j within a radius of each point i: index[start[i]] .. index[start[i + 1] - 1], in the
 * order of the grid's bars (ascending cell, then sorted index), so the same input gives the same
 * lists whatever the thread count. Seed 001 section 4.4.2: a search done once and read by several
 * passes beats searching the 27 cells in every pass. */
/* Entries after the last list that may be read (they are 0), so that a loop may read whole
 * vectors of indices past the end of a list and mask the extra lanes. */
enum { FC_NEIGHBOUR_SLACK = 8 };

typedef struct fc_neighbour_list {
    uint32_t *start;            /* points + 1 entries */
    uint32_t *index;            /* pairs + FC_NEIGHBOUR_SLACK entries */
    size_t points, pairs;       /* of the last build */
    uint32_t pad;               /* the number of points of the source: the index of its far record,
                                 * which lane loops read past the end of a list (core/lanes.h) */
    size_t start_capacity, index_capacity;
    struct fc_neighbour_chunk *chunks; /* one per thread: the lists of its block of points */
    int chunk_count;
} fc_neighbour_list;

void fc_neighbours_init(fc_neighbour_list *l);
void fc_neighbours_free(fc_neighbour_list *l);

/* A set of points sorted into a grid of the same geometry, to find neighbours in. */
typedef struct fc_neighbour_source {
    const fc_grid *grid;
    const float *x, *y, *z;
    size_t count;               /* points in the source */
} fc_neighbour_source;

/* Lists, for every point i < n of the sorted set `grid` at (x, y, z) and for every source s,
 * the points j of source s with |x_i - x_j| < radius into lists[s]; a source whose grid is `grid`
 * itself leaves i out of its own list. One pass over the grid serves all the sources. radius must
 * not exceed the cell width. Returns 0, or -1 when out of memory. */
int fc_neighbours_build(const fc_grid *grid, const float *x, const float *y, const float *z, size_t n, float radius,
                        const fc_neighbour_source *sources, fc_neighbour_list *lists, int source_count);

#endif
