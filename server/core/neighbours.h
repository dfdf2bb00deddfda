/* Neighbour lists (CSR) found once per step from the shared grid, reused by every pass of the step. */
#ifndef FC_NEIGHBOURS_H
#define FC_NEIGHBOURS_H

#include <stdatomic.h>
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

/* The points of a step cut into one contiguous share per thread: share s is the points
 * [bound[s], bound[s + 1]). Thread s lists its share's neighbours (fc_neighbours_build) and the
 * passes of the step give it the same share again (schedule(static, 1) over the shares), so a
 * point's data stay in the cache of the core that works on it. Handing out chunks as threads come
 * free balances the work better but moves most of the step's data from core to core, which costs
 * more on small worlds. The shares are balanced instead by the cost of the last build's lists. */
typedef struct fc_neighbour_shares {
    size_t *bound;              /* count + 1 entries: bound[0] = 0, bound[count] = the points */
    int count, capacity;
} fc_neighbour_shares;

/* Cuts n points into `parts` shares (parts <= 0: one per OpenMP thread) of about equal cost: a
 * point costs FC_NEIGHBOUR_POINT_COST entries plus its entries in the lists of the last build
 * (list_count lists of one build, or none: then equal counts). The points may have been re-sorted
 * or added to since, so the cut is an estimate; any cut gives the same results. 0, or -1 out of
 * memory (the shares unchanged). */
enum { FC_NEIGHBOUR_POINT_COST = 8 };
int fc_neighbour_shares_plan(fc_neighbour_shares *shares, const fc_neighbour_list *lists, int list_count, size_t n,
                             int parts);
void fc_neighbour_shares_free(fc_neighbour_shares *shares);

/* A set of points sorted into a grid of the same geometry, to find neighbours in. */
typedef struct fc_neighbour_source {
    const fc_grid *grid;
    const float *x, *y, *z;
    size_t count;               /* points in the source */
    const float *weight;        /* w_j of the sum below, or NULL: 1 */
    float *poly6_sum;           /* NULL, or per point i its sum_j w_j (radius^2 - r_ij^2)^3 over its list
                                 * in this source: the poly6 factors of a density (Mueller et al. 2003
                                 * eq. 3), found with the distances, without a pass over the lists */
} fc_neighbour_source;

/* What a build may spend: the lists grow with pairs, not points, and particles piled up onto a
 * few points would take every pair of them (N^2). */
typedef struct fc_neighbour_limits {
    size_t max_bytes;               /* the memory of every list of the build (chunks, joined lists and
                                     * starts) at most; 0: no limit */
    const atomic_int *interrupt;    /* when set, the build stops between cells (NULL: never) */
    double needed_bytes;            /* out, after FC_NEIGHBOURS_OVER_LIMIT: what the whole build would
                                     * have taken, extrapolated from the points listed (a lower bound) */
} fc_neighbour_limits;

enum {
    FC_NEIGHBOURS_OK = 0,
    FC_NEIGHBOURS_NO_MEMORY = -1,   /* an allocation failed (or a list passed 2^32 entries) */
    FC_NEIGHBOURS_OVER_LIMIT = -2,  /* the lists would pass limits->max_bytes */
    FC_NEIGHBOURS_INTERRUPTED = -3, /* limits->interrupt was set */
};

/* Lists, for every point i < n of the sorted set `grid` at (x, y, z) and for every source s,
 * the points j of source s with |x_i - x_j| < radius into lists[s]; a source whose grid is `grid`
 * itself leaves i out of its own list. One pass over the grid serves all the sources; thread s
 * lists share s of `shares` (cut for these n points). radius must not exceed the cell width. limits
 * may be NULL (none). Returns FC_NEIGHBOURS_OK or one of the failures above; after a failure the
 * lists are unusable (0 points) until the next build (their memory is kept: fc_neighbours_free
 * gives it back). */
int fc_neighbours_build(const fc_grid *grid, const float *x, const float *y, const float *z, size_t n, float radius,
                        const fc_neighbour_source *sources, fc_neighbour_list *lists, int source_count,
                        const fc_neighbour_shares *shares, fc_neighbour_limits *limits);

/* The bytes the list holds now (its capacities). */
size_t fc_neighbours_bytes(const fc_neighbour_list *l);

#endif
