/* Neighbour lists: the threads list blocks of points in one grid pass, then the blocks are joined. */
#include "core/neighbours.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_max_threads(void) { return 1; }
static inline int omp_get_num_threads(void) { return 1; }
static inline int omp_get_thread_num(void) { return 0; }
#endif

/* The lists of one block of points, before joining. */
typedef struct fc_neighbour_chunk {
    uint32_t *index;
    size_t count, capacity, base;
} fc_neighbour_chunk;

/* What the blocks of one build share (fc_neighbour_limits): the bytes its lists hold, counted
 * against the limit as they grow, and the first failure, after which every block stops. */
typedef struct build_guard {
    size_t max_bytes;            /* 0: no limit */
    size_t held;                 /* bytes of every list's capacities (atomic) */
    int failure;                 /* 0, or the first FC_NEIGHBOURS_* failure (atomic) */
    const atomic_int *interrupt;
    size_t points_listed, entries_listed; /* of the blocks that stopped (atomic): the extrapolation */
} build_guard;

/* Records a failure; the first one stands. */
static void guard_fail(build_guard *g, int failure)
{
    int none = 0;
    __atomic_compare_exchange_n(&g->failure, &none, failure, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* 1 when the build must stop: a block failed, or the interrupt was set (recorded as a failure). */
static int guard_stopped(build_guard *g)
{
    if (g->interrupt && atomic_load_explicit(g->interrupt, memory_order_relaxed)) guard_fail(g, FC_NEIGHBOURS_INTERRUPTED);
    return __atomic_load_n(&g->failure, __ATOMIC_RELAXED) != 0;
}

/* Counts `bytes` more against the limit: 0, or -1 (nothing counted) when they would pass it. */
static int guard_take(build_guard *g, size_t bytes)
{
    size_t now = __atomic_add_fetch(&g->held, bytes, __ATOMIC_RELAXED);
    if (!g->max_bytes || now <= g->max_bytes) return 0;
    __atomic_sub_fetch(&g->held, bytes, __ATOMIC_RELAXED);
    return -1;
}

static void guard_give(build_guard *g, size_t bytes) { __atomic_sub_fetch(&g->held, bytes, __ATOMIC_RELAXED); }

void fc_neighbours_init(fc_neighbour_list *l) { memset(l, 0, sizeof *l); }

void fc_neighbours_free(fc_neighbour_list *l)
{
    for (int t = 0; t < l->chunk_count; t++) free(l->chunks[t].index);
    free(l->chunks);
    free(l->start);
    free(l->index);
    memset(l, 0, sizeof *l);
}

/* The cost of points [0, i) of the last build: FC_NEIGHBOUR_POINT_COST a point plus their entries. */
static size_t cost_before(const fc_neighbour_list *lists, int list_count, size_t i)
{
    size_t cost = (size_t)FC_NEIGHBOUR_POINT_COST * i;
    for (int l = 0; l < list_count; l++) cost += lists[l].start[i];
    return cost;
}

int fc_neighbour_shares_plan(fc_neighbour_shares *shares, const fc_neighbour_list *lists, int list_count, size_t n,
                             int parts)
{
    if (parts <= 0) parts = omp_get_max_threads();
    if (n >= UINT32_MAX) return -1;
    if (parts > shares->capacity) {
        size_t *bound = realloc(shares->bound, (size_t)(parts + 1) * sizeof *bound);
        if (!bound) return -1;
        shares->bound = bound;
        fc_share_range *range = aligned_alloc(_Alignof(fc_share_range), (size_t)parts * sizeof *range);
        if (!range) return -1;
        free(shares->range);
        shares->range = range, shares->capacity = parts;
    }
    const size_t before = list_count > 0 ? lists[0].points : 0; /* the points of the last build */
    for (int l = 0; l < list_count; l++)
        if (lists[l].points != before || !lists[l].start) list_count = 0; /* not one build: equal counts */
    const size_t total = before && list_count ? cost_before(lists, list_count, before) : 0;
    shares->bound[0] = 0;
    for (int s = 1; s < parts; s++) {
        size_t cut = n * (size_t)s / (size_t)parts;
        if (total) { /* the first point of the last build at which share s's part of the cost is reached */
            const size_t target = (size_t)((double)total * s / parts);
            size_t lo = 0, hi = before;
            while (lo < hi) {
                const size_t mid = lo + (hi - lo) / 2;
                if (cost_before(lists, list_count, mid) < target) lo = mid + 1;
                else hi = mid;
            }
            cut = (size_t)((double)lo * (double)n / (double)before + 0.5); /* the same place among n points */
        }
        shares->bound[s] = cut < shares->bound[s - 1] ? shares->bound[s - 1] : cut > n ? n : cut;
    }
    shares->bound[parts] = n;
    shares->count = parts;
    return 0;
}

void fc_neighbour_shares_free(fc_neighbour_shares *shares)
{
    free(shares->bound);
    free(shares->range);
    free(shares->piece);
    memset(shares, 0, sizeof *shares);
}

void fc_shares_open(const fc_neighbour_shares *shares)
{
    for (int s = 0; s < shares->count; s++)
        atomic_store_explicit(&shares->range[s].ends,
                              (uint64_t)shares->bound[s + 1] << 32 | (uint64_t)shares->bound[s], memory_order_relaxed);
}

int fc_shares_take(const fc_neighbour_shares *shares, size_t chunk, size_t *lo, size_t *hi)
{
    const int count = shares->count, thread = omp_get_thread_num();
    for (int k = 0; k < count; k++) {
        const int s = (thread + k) % count, own = k == 0 && thread < count;
        _Atomic uint64_t *ends = &shares->range[s].ends;
        uint64_t now = atomic_load_explicit(ends, memory_order_relaxed);
        for (;;) { /* the owner takes from the front, a helper from the back */
            const uint32_t front = (uint32_t)now, back = (uint32_t)(now >> 32);
            if (front >= back) break;
            const uint32_t size = back - front < chunk ? back - front : (uint32_t)chunk;
            const uint64_t left = own ? (uint64_t)back << 32 | (front + size) : (uint64_t)(back - size) << 32 | front;
            if (atomic_compare_exchange_weak_explicit(ends, &now, left, memory_order_relaxed, memory_order_relaxed)) {
                *lo = own ? front : back - size;
                *hi = *lo + size;
                return 1;
            }
        }
    }
    return 0;
}

size_t fc_neighbours_bytes(const fc_neighbour_list *l)
{
    size_t entries = l->start_capacity + l->index_capacity;
    for (int t = 0; t < l->chunk_count; t++) entries += l->chunks[t].capacity;
    return entries * sizeof(uint32_t);
}

/* Grows an array of uint32_t from *capacity to hold `needed` (half again more, when the limit
 * leaves room for it): FC_NEIGHBOURS_OK, _OVER_LIMIT or _NO_MEMORY (the array unchanged). */
static int grow_entries(uint32_t **array, size_t *capacity, size_t needed, size_t spare, build_guard *g)
{
    if (needed <= *capacity) return FC_NEIGHBOURS_OK;
    size_t want = needed + needed / 2 + spare;
    if (guard_take(g, (want - *capacity) * sizeof **array)) {
        want = needed;
        if (guard_take(g, (want - *capacity) * sizeof **array)) return FC_NEIGHBOURS_OVER_LIMIT;
    }
    uint32_t *grown = realloc(*array, want * sizeof *grown);
    if (!grown) {
        guard_give(g, (want - *capacity) * sizeof **array);
        return FC_NEIGHBOURS_NO_MEMORY;
    }
    *array = grown, *capacity = want;
    return FC_NEIGHBOURS_OK;
}

enum { CANDIDATE_BLOCK = 64, APPEND_SLACK = 8 /* an append may write this far past its count */ };

/* Writes to out the candidates j in [begin, end) closer than sqrt(radius2) to (xi, yi, zi), except
 * `self`; returns how many. out must have room for end - begin + APPEND_SLACK. Distances are
 * computed in blocks (a loop that vectorizes), then the close ones are appended without branches.
 * With sum, adds to *sum the terms w_j (radius2 - r^2)^3 of the appended candidates (w_j = weight[j],
 * 1 without weights; fc_neighbours_build). */
static size_t append_close_portable(uint32_t *restrict out, const float *restrict ox, const float *restrict oy,
                                    const float *restrict oz, const float *restrict weight, uint32_t begin,
                                    uint32_t end, float xi, float yi, float zi, float radius2, uint32_t self,
                                    float *sum)
{
    size_t count = 0;
    for (uint32_t first = begin; first < end; first += CANDIDATE_BLOCK) {
        const uint32_t len = end - first < CANDIDATE_BLOCK ? end - first : CANDIDATE_BLOCK;
        float d2[CANDIDATE_BLOCK];
        for (uint32_t k = 0; k < len; k++) {
            float dx = xi - ox[first + k], dy = yi - oy[first + k], dz = zi - oz[first + k];
            d2[k] = dx * dx + dy * dy + dz * dz;
        }
        for (uint32_t k = 0; k < len; k++) {
            const int close = (d2[k] < radius2) & (first + k != self);
            out[count] = first + k;
            count += close;
            if (sum && close) {
                const float d = radius2 - d2[k];
                *sum += (weight ? weight[first + k] : 1.0f) * (d * d * d);
            }
        }
    }
    return count;
}

#if defined(__AVX2__)
#include <immintrin.h>

/* LEFT_PACK[m]: the positions of the set bits of the 8-bit mask m, one per byte from the lowest. */
static const uint64_t LEFT_PACK[256] = {
    0x0000000000000000u, 0x0000000000000000u, 0x0000000000000001u, 0x0000000000000100u,
    0x0000000000000002u, 0x0000000000000200u, 0x0000000000000201u, 0x0000000000020100u,
    0x0000000000000003u, 0x0000000000000300u, 0x0000000000000301u, 0x0000000000030100u,
    0x0000000000000302u, 0x0000000000030200u, 0x0000000000030201u, 0x0000000003020100u,
    0x0000000000000004u, 0x0000000000000400u, 0x0000000000000401u, 0x0000000000040100u,
    0x0000000000000402u, 0x0000000000040200u, 0x0000000000040201u, 0x0000000004020100u,
    0x0000000000000403u, 0x0000000000040300u, 0x0000000000040301u, 0x0000000004030100u,
    0x0000000000040302u, 0x0000000004030200u, 0x0000000004030201u, 0x0000000403020100u,
    0x0000000000000005u, 0x0000000000000500u, 0x0000000000000501u, 0x0000000000050100u,
    0x0000000000000502u, 0x0000000000050200u, 0x0000000000050201u, 0x0000000005020100u,
    0x0000000000000503u, 0x0000000000050300u, 0x0000000000050301u, 0x0000000005030100u,
    0x0000000000050302u, 0x0000000005030200u, 0x0000000005030201u, 0x0000000503020100u,
    0x0000000000000504u, 0x0000000000050400u, 0x0000000000050401u, 0x0000000005040100u,
    0x0000000000050402u, 0x0000000005040200u, 0x0000000005040201u, 0x0000000504020100u,
    0x0000000000050403u, 0x0000000005040300u, 0x0000000005040301u, 0x0000000504030100u,
    0x0000000005040302u, 0x0000000504030200u, 0x0000000504030201u, 0x0000050403020100u,
    0x0000000000000006u, 0x0000000000000600u, 0x0000000000000601u, 0x0000000000060100u,
    0x0000000000000602u, 0x0000000000060200u, 0x0000000000060201u, 0x0000000006020100u,
    0x0000000000000603u, 0x0000000000060300u, 0x0000000000060301u, 0x0000000006030100u,
    0x0000000000060302u, 0x0000000006030200u, 0x0000000006030201u, 0x0000000603020100u,
    0x0000000000000604u, 0x0000000000060400u, 0x0000000000060401u, 0x0000000006040100u,
    0x0000000000060402u, 0x0000000006040200u, 0x0000000006040201u, 0x0000000604020100u,
    0x0000000000060403u, 0x0000000006040300u, 0x0000000006040301u, 0x0000000604030100u,
    0x0000000006040302u, 0x0000000604030200u, 0x0000000604030201u, 0x0000060403020100u,
    0x0000000000000605u, 0x0000000000060500u, 0x0000000000060501u, 0x0000000006050100u,
    0x0000000000060502u, 0x0000000006050200u, 0x0000000006050201u, 0x0000000605020100u,
    0x0000000000060503u, 0x0000000006050300u, 0x0000000006050301u, 0x0000000605030100u,
    0x0000000006050302u, 0x0000000605030200u, 0x0000000605030201u, 0x0000060503020100u,
    0x0000000000060504u, 0x0000000006050400u, 0x0000000006050401u, 0x0000000605040100u,
    0x0000000006050402u, 0x0000000605040200u, 0x0000000605040201u, 0x0000060504020100u,
    0x0000000006050403u, 0x0000000605040300u, 0x0000000605040301u, 0x0000060504030100u,
    0x0000000605040302u, 0x0000060504030200u, 0x0000060504030201u, 0x0006050403020100u,
    0x0000000000000007u, 0x0000000000000700u, 0x0000000000000701u, 0x0000000000070100u,
    0x0000000000000702u, 0x0000000000070200u, 0x0000000000070201u, 0x0000000007020100u,
    0x0000000000000703u, 0x0000000000070300u, 0x0000000000070301u, 0x0000000007030100u,
    0x0000000000070302u, 0x0000000007030200u, 0x0000000007030201u, 0x0000000703020100u,
    0x0000000000000704u, 0x0000000000070400u, 0x0000000000070401u, 0x0000000007040100u,
    0x0000000000070402u, 0x0000000007040200u, 0x0000000007040201u, 0x0000000704020100u,
    0x0000000000070403u, 0x0000000007040300u, 0x0000000007040301u, 0x0000000704030100u,
    0x0000000007040302u, 0x0000000704030200u, 0x0000000704030201u, 0x0000070403020100u,
    0x0000000000000705u, 0x0000000000070500u, 0x0000000000070501u, 0x0000000007050100u,
    0x0000000000070502u, 0x0000000007050200u, 0x0000000007050201u, 0x0000000705020100u,
    0x0000000000070503u, 0x0000000007050300u, 0x0000000007050301u, 0x0000000705030100u,
    0x0000000007050302u, 0x0000000705030200u, 0x0000000705030201u, 0x0000070503020100u,
    0x0000000000070504u, 0x0000000007050400u, 0x0000000007050401u, 0x0000000705040100u,
    0x0000000007050402u, 0x0000000705040200u, 0x0000000705040201u, 0x0000070504020100u,
    0x0000000007050403u, 0x0000000705040300u, 0x0000000705040301u, 0x0000070504030100u,
    0x0000000705040302u, 0x0000070504030200u, 0x0000070504030201u, 0x0007050403020100u,
    0x0000000000000706u, 0x0000000000070600u, 0x0000000000070601u, 0x0000000007060100u,
    0x0000000000070602u, 0x0000000007060200u, 0x0000000007060201u, 0x0000000706020100u,
    0x0000000000070603u, 0x0000000007060300u, 0x0000000007060301u, 0x0000000706030100u,
    0x0000000007060302u, 0x0000000706030200u, 0x0000000706030201u, 0x0000070603020100u,
    0x0000000000070604u, 0x0000000007060400u, 0x0000000007060401u, 0x0000000706040100u,
    0x0000000007060402u, 0x0000000706040200u, 0x0000000706040201u, 0x0000070604020100u,
    0x0000000007060403u, 0x0000000706040300u, 0x0000000706040301u, 0x0000070604030100u,
    0x0000000706040302u, 0x0000070604030200u, 0x0000070604030201u, 0x0007060403020100u,
    0x0000000000070605u, 0x0000000007060500u, 0x0000000007060501u, 0x0000000706050100u,
    0x0000000007060502u, 0x0000000706050200u, 0x0000000706050201u, 0x0000070605020100u,
    0x0000000007060503u, 0x0000000706050300u, 0x0000000706050301u, 0x0000070605030100u,
    0x0000000706050302u, 0x0000070605030200u, 0x0000070605030201u, 0x0007060503020100u,
    0x0000000007060504u, 0x0000000706050400u, 0x0000000706050401u, 0x0000070605040100u,
    0x0000000706050402u, 0x0000070605040200u, 0x0000070605040201u, 0x0007060504020100u,
    0x0000000706050403u, 0x0000070605040300u, 0x0000070605040301u, 0x0007060504030100u,
    0x0000070605040302u, 0x0007060504030200u, 0x0007060504030201u, 0x0706050403020100u,
};

/* Stores at out the indices at + k of the set bits k of mask, packed (writes 8); returns how many. */
static inline size_t pack8(uint32_t *out, unsigned mask, uint32_t at)
{
    const __m256i lanes = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)LEFT_PACK[mask]));
    _mm256_storeu_si256((__m256i *)out, _mm256_add_epi32(lanes, _mm256_set1_epi32((int)at)));
    return (size_t)__builtin_popcount(mask);
}

/* The same for a group of points g = 0 .. count - 1 that share a cell (so the candidates), with AVX2,
 * eight candidates at a time: each vector of candidates is loaded once and compared with every
 * point of the group, the close ones' indices stored packed to the front of the point's slot
 * out[g] (got[g] so far; a slot has room for the candidates and APPEND_SLACK). The last < 8
 * candidates of a range are the top lanes of the 8 ending at `end` (already seen lanes masked
 * off), so a range costs whole vectors only. Loops run per group, not per point: one point
 * alone branches about its ranges' lengths once per bar and reloaded the candidates, and mispredicted
 * branches and repeated loads cost more than the comparisons. self: the index of point g = 0 in
 * this source, or UINT32_MAX (point g is self + g). With sums, sums[g] gathers point g's terms
 * w_j (radius2 - r^2)^3 lane by lane (the lanes added up by the caller). */
static inline void append_close_group(uint32_t *const out[], size_t got[], int count, const float *restrict ox,
                                      const float *restrict oy, const float *restrict oz,
                                      const float *restrict weight, uint32_t begin, uint32_t end, const float *xi,
                                      const float *yi, const float *zi, float radius2, uint32_t self, float (*sums)[8])
{
    if (end < 8) { /* too few points before end for a whole vector */
        for (int g = 0; g < count; g++) {
            float sum = 0.0f;
            got[g] += append_close_portable(out[g] + got[g], ox, oy, oz, weight, begin, end, xi[g], yi[g], zi[g],
                                            radius2, self == UINT32_MAX ? self : self + (uint32_t)g,
                                            sums ? &sum : NULL);
            if (sums) sums[g][0] += sum;
        }
        return;
    }
    const __m256 limit = _mm256_set1_ps(radius2), zero = _mm256_setzero_ps();
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (uint32_t first = begin; first < end;) {
        uint32_t at;
        unsigned valid;
        if (end - first >= 8) at = first, valid = 0xffu, first += 8;
        else at = end - 8, valid = (0xffu << (first - at)) & 0xffu, first = end;
        const __m256 cx = _mm256_loadu_ps(ox + at), cy = _mm256_loadu_ps(oy + at), cz = _mm256_loadu_ps(oz + at);
        /* for the sums: the weights of the new lanes, 0 on the lanes seen before */
        const __m256 fresh = _mm256_castsi256_ps(_mm256_cmpgt_epi32(lane, _mm256_set1_epi32(7 - __builtin_popcount(valid))));
        const __m256 cw = _mm256_and_ps(weight ? _mm256_loadu_ps(weight + at) : _mm256_set1_ps(1.0f), fresh);
        for (int g = 0; g < count; g++) {
            const __m256 dx = _mm256_sub_ps(_mm256_broadcast_ss(xi + g), cx);
            const __m256 dy = _mm256_sub_ps(_mm256_broadcast_ss(yi + g), cy);
            const __m256 dz = _mm256_sub_ps(_mm256_broadcast_ss(zi + g), cz);
            const __m256 d2 =
                _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz));
            unsigned mask = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(d2, limit, _CMP_LT_OQ)) & valid;
            const uint32_t me = self + (uint32_t)g - at; /* wraps far beyond 8 when self is UINT32_MAX */
            __m256 d = _mm256_max_ps(_mm256_sub_ps(limit, d2), zero); /* radius2 - r^2 of the close lanes */
            if (me < 8u) {
                mask &= ~(1u << me);
                d = _mm256_andnot_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(lane, _mm256_set1_epi32((int)me))), d);
            }
            got[g] += pack8(out[g] + got[g], mask, at);
            if (sums) {
                const __m256 term = _mm256_mul_ps(cw, _mm256_mul_ps(_mm256_mul_ps(d, d), d));
                _mm256_storeu_ps(sums[g], _mm256_add_ps(_mm256_loadu_ps(sums[g]), term));
            }
        }
    }
}
#else
/* The portable group append: each point on its own. */
static inline void append_close_group(uint32_t *const out[], size_t got[], int count, const float *restrict ox,
                                      const float *restrict oy, const float *restrict oz,
                                      const float *restrict weight, uint32_t begin, uint32_t end, const float *xi,
                                      const float *yi, const float *zi, float radius2, uint32_t self, float (*sums)[8])
{
    for (int g = 0; g < count; g++)
        got[g] += append_close_portable(out[g] + got[g], ox, oy, oz, weight, begin, end, xi[g], yi[g], zi[g],
                                        radius2, self == UINT32_MAX ? self : self + (uint32_t)g,
                                        sums ? &sums[g][0] : NULL);
}
#endif

enum { MAX_SOURCES = 4 };

/* The non-empty candidate ranges of one cell's nine bars in one source, and their total. */
typedef struct cell_ranges {
    uint32_t begin[9], end[9];
    int count;
    size_t candidates;
} cell_ranges;

static void find_ranges(const fc_bar bars[9], int nbars, const uint32_t *cell_start, cell_ranges *r)
{
    r->count = 0;
    r->candidates = 0;
    for (int b = 0; b < nbars; b++) {
        const uint32_t begin = cell_start[bars[b].first], end = cell_start[bars[b].last + 1];
        if (begin == end) continue;
        r->begin[r->count] = begin, r->end[r->count] = end, r->count++;
        r->candidates += end - begin;
    }
}

enum { GROUP = 16 }; /* points of one cell listed together */

/* The sum of a point's eight lane sums, always in the same order. */
static inline float lane_total(const float v[8])
{
    return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7]));
}

/* Moves count indices from src down to dst < src, eight at a time: each eight are read before they
 * are written, so the overlap is harmless; up to 7 entries past count are copied too (a slot has
 * APPEND_SLACK of room, and what lies past dst + count is the space being closed up). A list is
 * about 30 entries: a library call per list costs more than the copy. */
static inline void move_down(uint32_t *dst, const uint32_t *src, size_t count)
{
    for (size_t k = 0; k < count; k += 8) {
        uint32_t eight[8];
        memcpy(eight, src + k, sizeof eight);
        memcpy(dst + k, eight, sizeof eight);
    }
}

/* Lists the neighbours of points [lo, hi) in every source into the block's chunk of each list;
 * start[i] is relative to the chunk. Consecutive sorted points mostly share a cell, so the bars and
 * their candidate ranges are found once per cell, and up to GROUP points of a cell are compared
 * with the candidates together: each point gets a slot of the chunk big enough for every
 * candidate, and the slots are closed up after the group. The counts live in locals until the
 * end: the blocks' chunks are neighbours in memory, and a cache line that two cores write for
 * every point costs more than the search. */
static void list_block(size_t lo, size_t hi, const fc_grid *grid, const float *x, const float *y, const float *z,
                       float radius2, const fc_neighbour_source *sources, fc_neighbour_list *lists,
                       int source_count, int block, build_guard *guard)
{
    fc_neighbour_chunk *chunks[MAX_SOURCES];
    size_t count[MAX_SOURCES];
    cell_ranges ranges[MAX_SOURCES];
    for (int s = 0; s < source_count; s++) {
        chunks[s] = &lists[s].chunks[block];
        count[s] = 0;
    }
    uint32_t cell = UINT32_MAX;
    size_t i = lo, attempted = 0;
    for (size_t group_end; i < hi; i = group_end) {
        const uint32_t key = grid->key[i];
        for (group_end = i + 1; group_end < hi && group_end - i < GROUP && grid->key[group_end] == key;) group_end++;
        const int members = (int)(group_end - i);
        if (key != cell) {
            if (guard_stopped(guard)) goto stopped;
            fc_bar bars[9];
            cell = key;
            const int nbars = fc_grid_bars(&grid->geom, cell, bars);
            for (int s = 0; s < source_count; s++) find_ranges(bars, nbars, sources[s].grid->cell_start, &ranges[s]);
        }
        for (int s = 0; s < source_count; s++) {
            fc_neighbour_chunk *c = chunks[s];
            const fc_neighbour_source *src = &sources[s];
            const cell_ranges *r = &ranges[s];
            const size_t slot = r->candidates + APPEND_SLACK, needed = count[s] + (size_t)members * slot;
            const int grown = count[s] + (size_t)members * r->candidates > UINT32_MAX
                                  ? FC_NEIGHBOURS_NO_MEMORY
                                  : grow_entries(&c->index, &c->capacity, needed, 4096, guard);
            if (grown != FC_NEIGHBOURS_OK) {
                guard_fail(guard, grown);
                attempted = (size_t)members * r->candidates;
                goto stopped;
            }
            uint32_t *out[GROUP];
            size_t got[GROUP];
            float sums[GROUP][8];
            for (int g = 0; g < members; g++) out[g] = c->index + count[s] + (size_t)g * slot, got[g] = 0;
            memset(sums, 0, (size_t)members * sizeof sums[0]); /* the rows this group uses */
            const uint32_t self = src->grid == grid ? (uint32_t)i : UINT32_MAX;
            float(*const summing)[8] = src->poly6_sum ? sums : NULL;
            for (int k = 0; k < r->count; k++)
                append_close_group(out, got, members, src->x, src->y, src->z, src->weight, r->begin[k], r->end[k],
                                   x + i, y + i, z + i, radius2, self, summing);
            for (int g = 0; g < members; g++) { /* close up the slots, in order (each moves down) */
                lists[s].start[i + (size_t)g] = (uint32_t)count[s];
                if (g) move_down(c->index + count[s], out[g], got[g]);
                count[s] += got[g];
                if (summing) src->poly6_sum[i + (size_t)g] = lane_total(sums[g]);
            }
        }
    }
    for (int s = 0; s < source_count; s++) chunks[s]->count = count[s];
    return;
stopped: /* what this block listed, for the extrapolation of fc_neighbour_limits.needed_bytes */
    for (int s = 0; s < source_count; s++) attempted += count[s];
    __atomic_add_fetch(&guard->points_listed, i - lo + 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&guard->entries_listed, attempted, __ATOMIC_RELAXED);
}

static int list_reserve(fc_neighbour_list *l, size_t n, int blocks, build_guard *g)
{
    const int grown = grow_entries(&l->start, &l->start_capacity, n + 1, 1024, g);
    if (grown != FC_NEIGHBOURS_OK) return grown;
    if (blocks > l->chunk_count) {
        fc_neighbour_chunk *grown = realloc(l->chunks, (size_t)blocks * sizeof *grown);
        if (!grown) return FC_NEIGHBOURS_NO_MEMORY;
        memset(grown + l->chunk_count, 0, (size_t)(blocks - l->chunk_count) * sizeof *grown);
        l->chunks = grown, l->chunk_count = blocks;
    }
    return 0;
}

/* After every piece was listed: the chunks' offsets in the joined list (the pieces in point order),
 * and room for it. */
static int plan_join(fc_neighbour_list *l, const fc_share_piece *piece, int pieces, build_guard *g)
{
    size_t total = 0;
    for (int k = 0; k < pieces; k++) {
        fc_neighbour_chunk *c = &l->chunks[piece[k].chunk];
        c->base = total;
        total += c->count;
    }
    if (guard_stopped(g)) return g->failure;
    if (total > UINT32_MAX) return FC_NEIGHBOURS_NO_MEMORY;
    const int grown = grow_entries(&l->index, &l->index_capacity, total + FC_NEIGHBOUR_SLACK, 4096, g);
    if (grown != FC_NEIGHBOURS_OK) return grown;
    memset(l->index + total, 0, FC_NEIGHBOUR_SLACK * sizeof *l->index); /* read past the end by lane loops */
    l->pairs = total;
    return 0;
}

/* Room for the pieces of a build taken `grain` points at a time: a share of m points gives at most
 * ceil(m / grain) + 1 (the owner's and a helper's last pieces may split one grain). */
static int reserve_pieces(fc_neighbour_shares *shares, size_t grain)
{
    size_t most = 0;
    for (int s = 0; s < shares->count; s++) most += (shares->bound[s + 1] - shares->bound[s] + grain - 1) / grain + 1;
    if (most > (size_t)INT32_MAX) return -1;
    if ((int)most > shares->piece_capacity) {
        fc_share_piece *grown = realloc(shares->piece, most * sizeof *grown);
        if (!grown) return -1;
        shares->piece = grown, shares->piece_capacity = (int)most;
    }
    return 0;
}

/* Sorts the pieces by their first point (a few dozen: insertion). */
static void sort_pieces(fc_share_piece *piece, int pieces)
{
    for (int k = 1; k < pieces; k++) {
        const fc_share_piece p = piece[k];
        int j = k;
        for (; j > 0 && piece[j - 1].lo > p.lo; j--) piece[j] = piece[j - 1];
        piece[j] = p;
    }
}

enum { PIECES_PER_SHARE = 8, MIN_PIECE = 64 };

int fc_neighbours_build(const fc_grid *grid, const float *x, const float *y, const float *z, size_t n, float radius,
                        const fc_neighbour_source *sources, fc_neighbour_list *lists, int source_count,
                        fc_neighbour_shares *shares, fc_neighbour_limits *limits)
{
    if (source_count < 1 || source_count > MAX_SOURCES || shares->count < 1 || shares->bound[shares->count] != n)
        return FC_NEIGHBOURS_NO_MEMORY;
    for (int s = 0; s < source_count; s++) lists[s].points = 0; /* unusable until this build succeeds */
    build_guard guard = {.max_bytes = limits ? limits->max_bytes : 0, .interrupt = limits ? limits->interrupt : NULL};
    for (int s = 0; s < source_count; s++) guard.held += fc_neighbours_bytes(&lists[s]);
    /* Pieces of a few per share (fc_shares_take), each listed into a chunk of its own and joined in
     * point order, so the lists do not depend on who listed what. */
    size_t grain = (n + (size_t)shares->count * PIECES_PER_SHARE - 1) / ((size_t)shares->count * PIECES_PER_SHARE);
    if (grain < MIN_PIECE) grain = MIN_PIECE;
    if (reserve_pieces(shares, grain)) return FC_NEIGHBOURS_NO_MEMORY;
    int failed = FC_NEIGHBOURS_OK;
    for (int s = 0; s < source_count && !failed; s++)
        failed = list_reserve(&lists[s], n, shares->piece_capacity, &guard);
    if (failed) return failed;
    const float radius2 = radius * radius;
    fc_share_piece *piece = shares->piece;
    int taken = 0;
    fc_shares_open(shares);
#pragma omp parallel
    {
        const int me = omp_get_thread_num();
        for (size_t lo, hi; fc_shares_take(shares, grain, &lo, &hi);) {
            int k;
#pragma omp atomic capture
            k = taken++;
            piece[k] = (fc_share_piece){(uint32_t)lo, (uint32_t)hi, me, k};
            list_block(lo, hi, grid, x, y, z, radius2, sources, lists, source_count, k, &guard);
        }
#pragma omp barrier
#pragma omp single
        {
            shares->pieces = taken;
            sort_pieces(piece, taken);
            for (int s = 0; s < source_count && !failed; s++) failed = plan_join(&lists[s], piece, taken, &guard);
        }
        if (!failed)
            for (int k = 0; k < taken; k++) { /* each thread joins the pieces it listed */
                if (piece[k].thread != me) continue;
                for (int s = 0; s < source_count; s++) {
                    const fc_neighbour_chunk *c = &lists[s].chunks[piece[k].chunk];
                    if (c->count) memcpy(lists[s].index + c->base, c->index, c->count * sizeof *lists[s].index);
                    for (size_t i = piece[k].lo; i < piece[k].hi; i++) lists[s].start[i] += (uint32_t)c->base;
                }
            }
    }
    if (failed) {
        if (limits && failed == FC_NEIGHBOURS_OVER_LIMIT && guard.points_listed)
            limits->needed_bytes = (double)guard.entries_listed / (double)guard.points_listed * (double)n *
                                   (double)(2 * sizeof(uint32_t)); /* a chunk's entry and the joined list's */
        return failed;
    }
    for (int s = 0; s < source_count; s++) {
        lists[s].start[n] = (uint32_t)lists[s].pairs;
        lists[s].points = n;
        lists[s].pad = (uint32_t)sources[s].count;
    }
    return 0;
}
