/* The float lanes of neighbour loops written once over vectors: records, gather, lane iterator. */
#ifndef FC_LANES_H
#define FC_LANES_H

#include <stdint.h>
#include <string.h>

#include "core/lane_math.h"
#include "core/neighbours.h"

/* A loop over a neighbour list reads each neighbour's fields from scattered indices. Compilers
 * vectorize such loops with one load and one insert per field and lane (x86 gathers are slower
 * still on AMD Zen), about 70% of the work of a PBF pass. A neighbour's fields are kept here in one
 * 16-byte record instead, and FC_LANES records are gathered with FC_LANES loads and a transpose.
 * The lane types and functions are core/lane_math.h's; the gather has x86 paths besides the
 * portable one. */

/* Four fields of one particle: a position and one more value (which, each user says). */
typedef struct fc_record4 {
    float x, y, z, w;
} fc_record4;

/* The FC_LANES indices list[e ..], those at or past `end` replaced by `pad` (a record whose terms
 * vanish), so that the last lanes of a list cost no separate loop. list must be readable up to
 * e + FC_LANES - 1 (neighbour lists keep FC_NEIGHBOUR_SLACK entries after their end). */
static inline void fc_lane_indices(const uint32_t *list, uint32_t e, uint32_t end, uint32_t pad,
                                   uint32_t idx[FC_LANES])
{
    /* lists and counts stay far below 2^31, so signed lanes compare them */
    fc_iv v;
    memcpy(&v, list + e, sizeof v);
    const fc_iv inside = fc_iv_lane_numbers() < fc_iv_splat((int32_t)(end - e));
    v = (fc_iv)fc_fv_select(inside, (fc_fv)v, (fc_fv)fc_iv_splat((int32_t)pad));
    memcpy(idx, &v, sizeof v);
}

/* x, y, z, w of the records idx[0 .. FC_LANES - 1] as four vectors. */
static inline void fc_gather_records(const fc_record4 *p, const uint32_t idx[FC_LANES], fc_fv *x, fc_fv *y,
                                     fc_fv *z, fc_fv *w)
{
#if defined(FC_LANES_AVX)
    /* rows k and k + 4 share a 256-bit register; then a 4 x 4 transpose in each 128-bit half */
    const __m256 r04 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(&p[idx[0]].x)),
                                            _mm_loadu_ps(&p[idx[4]].x), 1);
    const __m256 r15 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(&p[idx[1]].x)),
                                            _mm_loadu_ps(&p[idx[5]].x), 1);
    const __m256 r26 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(&p[idx[2]].x)),
                                            _mm_loadu_ps(&p[idx[6]].x), 1);
    const __m256 r37 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(&p[idx[3]].x)),
                                            _mm_loadu_ps(&p[idx[7]].x), 1);
    /* x0 x1 y0 y1 | x4 x5 y4 y5 and z0 z1 w0 w1 | z4 z5 w4 w5 */
    const __m256 xy01 = _mm256_unpacklo_ps(r04, r15), zw01 = _mm256_unpackhi_ps(r04, r15);
    const __m256 xy23 = _mm256_unpacklo_ps(r26, r37), zw23 = _mm256_unpackhi_ps(r26, r37);
    *x = (fc_fv)_mm256_shuffle_ps(xy01, xy23, _MM_SHUFFLE(1, 0, 1, 0));
    *y = (fc_fv)_mm256_shuffle_ps(xy01, xy23, _MM_SHUFFLE(3, 2, 3, 2));
    *z = (fc_fv)_mm256_shuffle_ps(zw01, zw23, _MM_SHUFFLE(1, 0, 1, 0));
    *w = (fc_fv)_mm256_shuffle_ps(zw01, zw23, _MM_SHUFFLE(3, 2, 3, 2));
#elif defined(FC_LANES_SSE)
    __m128 r0 = _mm_loadu_ps(&p[idx[0]].x), r1 = _mm_loadu_ps(&p[idx[1]].x), r2 = _mm_loadu_ps(&p[idx[2]].x),
           r3 = _mm_loadu_ps(&p[idx[3]].x);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    *x = (fc_fv)r0, *y = (fc_fv)r1, *z = (fc_fv)r2, *w = (fc_fv)r3;
#else
    fc_fv gx = fc_fv_splat(0.0f), gy = gx, gz = gx, gw = gx;
    for (int k = 0; k < FC_LANES; k++) {
        const fc_record4 *r = &p[idx[k]];
        gx[k] = r->x, gy[k] = r->y, gz[k] = r->z, gw[k] = r->w;
    }
    *x = gx, *y = gy, *z = gz, *w = gw;
#endif
}

/* ---- The lane iterator: every loop over a neighbour list goes through it ---------------------- */

/* The neighbours of one point i in a list, FC_LANES at a time:
 *
 *     for (fc_lanes nb = fc_lanes_of(list, i, records, xi, yi, zi); fc_lanes_next(&nb);) {
 *         ... nb.x .. nb.w: the neighbours' records; nb.dx, nb.dy, nb.dz = x_i - x_j; nb.r2 ...
 *     }
 *
 * The last chunk of a list is padded with the record list->pad (records[pad] must be a record far
 * away from every point, so that every kernel term of it is 0): no separate loop for the rest.
 * fc_lanes_gather reads another record array at the same neighbours. The struct stays in
 * registers: it is a local whose address never escapes the inlined calls. */
typedef struct fc_lanes {
    const uint32_t *index;
    uint32_t e, end, pad;
    const fc_record4 *records;
    fc_fv xi, yi, zi;
    uint32_t idx[FC_LANES];     /* the neighbours of this chunk (pad past the end) */
    fc_fv x, y, z, w;           /* their records */
    fc_fv dx, dy, dz, r2;       /* x_i - x_j and |x_i - x_j|^2 */
} fc_lanes;

static inline fc_lanes fc_lanes_of(const fc_neighbour_list *list, size_t i, const fc_record4 *records, float xi,
                                   float yi, float zi)
{
    fc_lanes nb;
    nb.index = list->index, nb.e = list->start[i], nb.end = list->start[i + 1], nb.pad = list->pad;
    nb.records = records;
    nb.xi = fc_fv_splat(xi), nb.yi = fc_fv_splat(yi), nb.zi = fc_fv_splat(zi);
    return nb;
}

/* Loads the next FC_LANES neighbours; 0 when the list is done. */
static inline int fc_lanes_next(fc_lanes *nb)
{
    if (nb->e >= nb->end) return 0;
    fc_lane_indices(nb->index, nb->e, nb->end, nb->pad, nb->idx);
    fc_gather_records(nb->records, nb->idx, &nb->x, &nb->y, &nb->z, &nb->w);
    nb->dx = nb->xi - nb->x, nb->dy = nb->yi - nb->y, nb->dz = nb->zi - nb->z;
    nb->r2 = nb->dx * nb->dx + nb->dy * nb->dy + nb->dz * nb->dz;
    nb->e += FC_LANES;
    return 1;
}

/* The records of another array (with its own far record at pad) at this chunk's neighbours. */
static inline void fc_lanes_gather(const fc_lanes *nb, const fc_record4 *records, fc_fv *x, fc_fv *y, fc_fv *z,
                                   fc_fv *w)
{
    fc_gather_records(records, nb->idx, x, y, z, w);
}

#endif
