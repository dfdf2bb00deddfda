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
    struct fc_neighbour_chunk *chunks; /* one per piece of the build: the lists of its points */
    int chunk_count;
} fc_neighbour_list;

void fc_neighbours_init(fc_neighbour_list *l);
void fc_neighbours_free(fc_neighbour_list *l);

/* The points of a step cut into one contiguous share per thread: share s is the points
 * [bound[s], bound[s + 1]). Every pass of a step hands out its points with fc_shares_take: thread s
 * takes chunks from the front of share s, and when its share is done, helps with the others,
 * taking chunks from their backs. While the threads keep pace, each works on the same points in
 * every pass (the neighbour build, densities, forces, motion), so those points' data stay in its
 * core's cache; handing out chunks to whichever thread came free moved most of a step's data
 * between cores. When one core runs slower (a virtual machine's cores are not always equal), the
 * other takes over the end of its share. The shares are cut by the cost of the last build's lists
 * (fc_neighbour_shares_plan), so that the threads seldom need to help. */
typedef struct fc_share_range {
    _Alignas(64) _Atomic uint64_t ends; /* the untaken points [front, back): front in the low 32 bits */
} fc_share_range;

/* A piece of points one thread listed in the last build (fc_neighbours_build). */
typedef struct fc_share_piece {
    uint32_t lo, hi;
    int thread, chunk;          /* who listed it, into which chunk of each list */
} fc_share_piece;

typedef struct fc_neighbour_shares {
    size_t *bound;              /* count + 1 entries: bound[0] = 0, bound[count] = the points */
    fc_share_range *range;      /* count of them: what fc_shares_take has left of each share */
    int count, capacity;
    fc_share_piece *piece;      /* the last build's pieces, in point order */
    int pieces, piece_capacity;
} fc_neighbour_shares;

/* Cuts n points (at most 2^32 - 1) into `parts` shares (parts <= 0: one per OpenMP thread) of
 * about equal cost: a point costs FC_NEIGHBOUR_POINT_COST entries plus its entries in the lists of
 * the last build (list_count lists of one build, or none: then equal counts). The points may have
 * been re-sorted or added to since, so the cut is an estimate; any cut gives the same results. 0,
 * or -1 out of memory or too many points (the shares unchanged). */
enum { FC_NEIGHBOUR_POINT_COST = 8 };
int fc_neighbour_shares_plan(fc_neighbour_shares *shares, const fc_neighbour_list *lists, int list_count, size_t n,
                             int parts);
void fc_neighbour_shares_free(fc_neighbour_shares *shares);

/* Before a pass (outside its parallel region, or in a `single`): every share's points untaken. */
void fc_shares_open(const fc_neighbour_shares *shares);

/* In a pass's parallel region: the next chunk of at most `chunk` points for the calling thread into
 * [*lo, *hi), from the front of its own share, else from the back of another's; 0 when every point
 * of the pass is taken. The usual loop:
 *   fc_shares_open(shares);
 *   #pragma omp parallel
 *   for (size_t lo, hi; fc_shares_take(shares, FC_SHARE_CHUNK, &lo, &hi);)
 *       for (size_t i = lo; i < hi; i++) ...
 * Each point is taken exactly once, so a pass whose points' results are their own gives the same
 * results whoever took what. */
enum { FC_SHARE_CHUNK = 128 };
int fc_shares_take(const fc_neighbour_shares *shares, size_t chunk, size_t *lo, size_t *hi);

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
 * itself leaves i out of its own list. One pass over the grid serves all the sources; the threads
 * take pieces of `shares` (cut for these n points, fc_shares_take) and the pieces are joined in
 * point order, so the lists do not depend on who listed what. radius must not exceed the cell
 * width. limits may be NULL (none). Returns FC_NEIGHBOURS_OK or one of the failures above; after a
 * failure the lists are unusable (0 points) until the next build (their memory is kept:
 * fc_neighbours_free gives it back). */
int fc_neighbours_build(const fc_grid *grid, const float *x, const float *y, const float *z, size_t n, float radius,
                        const fc_neighbour_source *sources, fc_neighbour_list *lists, int source_count,
                        fc_neighbour_shares *shares, fc_neighbour_limits *limits);

/* The bytes the list holds now (its capacities). */
size_t fc_neighbours_bytes(const fc_neighbour_list *l);

#endif
