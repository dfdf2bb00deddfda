/* The float lanes that the per-pair formulas are written on once: FC_LANES of them (a GCC vector)
 * on the CPU, one (a float) in the CUDA sources, where each thread is one lane. */
#ifndef FC_LANE_MATH_H
#define FC_LANE_MATH_H

#include <math.h>
#include <stdint.h>

#include "core/hd.h"

/* A formula over fc_fv values (sph_terms.h) compiles twice from one text: in C it works on
 * FC_LANES neighbours at once, in a CUDA source (nvcc, or the cuda-host build, which defines
 * FC_CUDA_SOURCE) fc_fv is a float and the same functions work on the one neighbour a thread has in
 * hand. A comparison gives a lane mask in C (all ones or zeros) and a bool in CUDA; fc_fv_select
 * takes either. */
#if defined(__CUDACC__) || defined(FC_CUDA_SOURCE)

typedef float fc_fv;
typedef int fc_iv;

static inline FC_HD fc_fv fc_fv_splat(float v) { return v; }
static inline FC_HD fc_fv fc_fv_select(fc_iv mask, fc_fv a, fc_fv b) { return mask ? a : b; }
/* max(v, 0), 0 for NaN as in the vector form */
static inline FC_HD fc_fv fc_fv_positive(fc_fv v) { return v > 0.0f ? v : 0.0f; }
static inline FC_HD fc_fv fc_fv_sqrt(fc_fv v) { return sqrtf(v); }
static inline FC_HD fc_fv fc_fv_rsqrt(fc_fv v) { return 1.0f / sqrtf(v); }
static inline FC_HD float fc_fv_sum(fc_fv v) { return v; }

#else

/* The lane count follows the vector width the target executes at full rate: eight with AVX, four
 * on AMD's Zen 1 (which executes a 256-bit operation as two 128-bit halves, so that eight lanes
 * cost as much as two fours and only add padding to the last vector of a short neighbour list) and
 * on targets without AVX. The build may set it (FLUIDCAST_LANES in CMakeLists.txt). */
#ifndef FC_LANES
#if defined(__AVX__) && !defined(__znver1__)
#define FC_LANES 8
#else
#define FC_LANES 4
#endif
#endif
#if FC_LANES != 4 && FC_LANES != 8
#error "FC_LANES must be 4 or 8"
#endif

#if FC_LANES == 8 && defined(__AVX__)
#define FC_LANES_AVX 1 /* the 256-bit paths below */
#elif FC_LANES == 4 && defined(__SSE4_1__)
#define FC_LANES_SSE 1 /* the 128-bit paths below (SSE4.1 for the blend, SSE3 for the sums) */
#endif
#if defined(FC_LANES_AVX) || defined(FC_LANES_SSE)
#include <immintrin.h>
#endif

/* The vector types are GCC/Clang vector extensions, so a loop written with them compiles for any
 * target; a few lane functions have an x86 path besides the portable one. Without AVX the
 * compilers warn (-Wpsabi) that 32-byte vectors pass between functions differently: these
 * functions are all inline, so files that include this header build with -Wno-psabi. */
typedef float fc_fv __attribute__((vector_size(4 * FC_LANES)));
typedef int32_t fc_iv __attribute__((vector_size(4 * FC_LANES)));

static inline fc_fv fc_fv_splat(float v)
{
#if FC_LANES == 8
    return (fc_fv){v, v, v, v, v, v, v, v};
#else
    return (fc_fv){v, v, v, v};
#endif
}

static inline fc_iv fc_iv_splat(int32_t v)
{
#if FC_LANES == 8
    return (fc_iv){v, v, v, v, v, v, v, v};
#else
    return (fc_iv){v, v, v, v};
#endif
}

/* 0, 1, .. FC_LANES - 1 */
static inline fc_iv fc_iv_lane_numbers(void)
{
#if FC_LANES == 8
    return (fc_iv){0, 1, 2, 3, 4, 5, 6, 7};
#else
    return (fc_iv){0, 1, 2, 3};
#endif
}

/* mask ? a : b lane by lane, mask lanes all ones or all zeros (a vector comparison). */
static inline fc_fv fc_fv_select(fc_iv mask, fc_fv a, fc_fv b)
{
#if defined(FC_LANES_AVX)
    return (fc_fv)_mm256_blendv_ps((__m256)b, (__m256)a, (__m256)mask);
#elif defined(FC_LANES_SSE)
    return (fc_fv)_mm_blendv_ps((__m128)b, (__m128)a, (__m128)mask);
#else
    return (fc_fv)(((fc_iv)a & mask) | ((fc_iv)b & ~mask));
#endif
}

/* max(v, 0) */
static inline fc_fv fc_fv_positive(fc_fv v)
{
#if defined(FC_LANES_AVX)
    return (fc_fv)_mm256_max_ps((__m256)v, _mm256_setzero_ps());
#elif defined(FC_LANES_SSE)
    return (fc_fv)_mm_max_ps((__m128)v, _mm_setzero_ps());
#else
    return (fc_fv)((fc_iv)v & (v > fc_fv_splat(0.0f)));
#endif
}

static inline fc_fv fc_fv_sqrt(fc_fv v)
{
#if defined(FC_LANES_AVX)
    return (fc_fv)_mm256_sqrt_ps((__m256)v);
#elif defined(FC_LANES_SSE)
    return (fc_fv)_mm_sqrt_ps((__m128)v);
#else
    fc_fv r;
    for (int k = 0; k < FC_LANES; k++) r[k] = sqrtf(v[k]);
    return r;
#endif
}

/* 1 / sqrt(v) for v > 0. On x86 the 12-bit estimate refined by one Newton step (relative error
 * below 1e-6): a third of the latency of a square root and a division, which the neighbour loops
 * wait on. */
static inline fc_fv fc_fv_rsqrt(fc_fv v)
{
#if defined(FC_LANES_AVX) || defined(FC_LANES_SSE)
#if defined(FC_LANES_AVX)
    const fc_fv y = (fc_fv)_mm256_rsqrt_ps((__m256)v);
#else
    const fc_fv y = (fc_fv)_mm_rsqrt_ps((__m128)v);
#endif
    return y * (fc_fv_splat(1.5f) - fc_fv_splat(0.5f) * v * y * y);
#else
    fc_fv r;
    for (int k = 0; k < FC_LANES; k++) r[k] = 1.0f / sqrtf(v[k]);
    return r;
#endif
}

/* The sum of the lanes, always in the same order: ((0 + 4) + (2 + 6)) + ((1 + 5) + (3 + 7)) of
 * eight, (0 + 2) + (1 + 3) of four. */
static inline float fc_fv_sum(fc_fv v)
{
#if defined(FC_LANES_AVX) || defined(FC_LANES_SSE)
#if defined(FC_LANES_AVX)
    __m128 s = _mm_add_ps(_mm256_castps256_ps128((__m256)v), _mm256_extractf128_ps((__m256)v, 1));
#else
    __m128 s = (__m128)v;
#endif
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
#elif FC_LANES == 8
    return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7]));
#else
    return (v[0] + v[2]) + (v[1] + v[3]);
#endif
}

/* The sums of the lanes of four vectors at once, out[k] of the k-th (fewer instructions than four
 * fc_fv_sum), each always in the same order: ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)) of eight,
 * (0 + 1) + (2 + 3) of four. */
static inline void fc_fv_sum4(fc_fv a, fc_fv b, fc_fv c, fc_fv d, float out[4])
{
#if defined(FC_LANES_AVX)
    const __m256 ab = _mm256_hadd_ps((__m256)a, (__m256)b), cd = _mm256_hadd_ps((__m256)c, (__m256)d);
    const __m256 abcd = _mm256_hadd_ps(ab, cd); /* the four half sums of lanes 0-3 | of lanes 4-7 */
    _mm_storeu_ps(out, _mm_add_ps(_mm256_castps256_ps128(abcd), _mm256_extractf128_ps(abcd, 1)));
#elif defined(FC_LANES_SSE)
    _mm_storeu_ps(out, _mm_hadd_ps(_mm_hadd_ps((__m128)a, (__m128)b), _mm_hadd_ps((__m128)c, (__m128)d)));
#else
    const fc_fv *v[4] = {&a, &b, &c, &d};
    for (int k = 0; k < 4; k++) {
        const fc_fv x = *v[k];
#if FC_LANES == 8
        out[k] = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
#else
        out[k] = (x[0] + x[1]) + (x[2] + x[3]);
#endif
    }
#endif
}

#endif

#endif
