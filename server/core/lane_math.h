/* The float lanes that the per-pair formulas are written on once: eight (a GCC vector) on the CPU,
 * one (a float) in the CUDA sources, where each thread is one lane. */
#ifndef FC_LANE_MATH_H
#define FC_LANE_MATH_H

#include <math.h>
#include <stdint.h>

#include "core/hd.h"

/* A formula over fc_f8 values (sph_terms.h) compiles twice from one text: in C it works on eight
 * neighbours at once, in a CUDA source (nvcc, or the cuda-host build, which defines FC_CUDA_SOURCE)
 * fc_f8 is a float and the same functions work on the one neighbour a thread has in hand. A
 * comparison gives a lane mask in C (all ones or zeros) and a bool in CUDA; fc_f8_select takes
 * either. */
#if defined(__CUDACC__) || defined(FC_CUDA_SOURCE)

typedef float fc_f8;
typedef int fc_i8;

static inline FC_HD fc_f8 fc_f8_splat(float v) { return v; }
static inline FC_HD fc_f8 fc_f8_select(fc_i8 mask, fc_f8 a, fc_f8 b) { return mask ? a : b; }
/* max(v, 0), 0 for NaN as in the vector form */
static inline FC_HD fc_f8 fc_f8_positive(fc_f8 v) { return v > 0.0f ? v : 0.0f; }
static inline FC_HD fc_f8 fc_f8_sqrt(fc_f8 v) { return sqrtf(v); }
static inline FC_HD fc_f8 fc_f8_rsqrt(fc_f8 v) { return 1.0f / sqrtf(v); }
static inline FC_HD float fc_f8_sum(fc_f8 v) { return v; }

#else

#if defined(__AVX__)
#include <immintrin.h>
#endif

/* The vector types are GCC/Clang vector extensions, so a loop written with them compiles for any
 * target; a few lane functions have an AVX path besides the portable one. Without AVX the
 * compilers warn (-Wpsabi) that 32-byte vectors pass between functions differently: these
 * functions are all inline, so files that include this header build with -Wno-psabi. */
typedef float fc_f8 __attribute__((vector_size(32)));
typedef int32_t fc_i8 __attribute__((vector_size(32)));

static inline fc_f8 fc_f8_splat(float v) { return (fc_f8){v, v, v, v, v, v, v, v}; }

/* mask ? a : b lane by lane, mask lanes all ones or all zeros (a vector comparison). */
static inline fc_f8 fc_f8_select(fc_i8 mask, fc_f8 a, fc_f8 b)
{
#if defined(__AVX__)
    return (fc_f8)_mm256_blendv_ps((__m256)b, (__m256)a, (__m256)mask);
#else
    return (fc_f8)(((fc_i8)a & mask) | ((fc_i8)b & ~mask));
#endif
}

/* max(v, 0) */
static inline fc_f8 fc_f8_positive(fc_f8 v)
{
#if defined(__AVX__)
    return (fc_f8)_mm256_max_ps((__m256)v, _mm256_setzero_ps());
#else
    return (fc_f8)((fc_i8)v & (v > fc_f8_splat(0.0f)));
#endif
}

static inline fc_f8 fc_f8_sqrt(fc_f8 v)
{
#if defined(__AVX__)
    return (fc_f8)_mm256_sqrt_ps((__m256)v);
#else
    fc_f8 r;
    for (int k = 0; k < 8; k++) r[k] = sqrtf(v[k]);
    return r;
#endif
}

/* 1 / sqrt(v) for v > 0. On x86 the 12-bit estimate refined by one Newton step (relative error
 * below 1e-6): a third of the latency of a square root and a division, which the neighbour loops
 * wait on. */
static inline fc_f8 fc_f8_rsqrt(fc_f8 v)
{
#if defined(__AVX__)
    const fc_f8 y = (fc_f8)_mm256_rsqrt_ps((__m256)v);
    return y * (fc_f8_splat(1.5f) - fc_f8_splat(0.5f) * v * y * y);
#else
    fc_f8 r;
    for (int k = 0; k < 8; k++) r[k] = 1.0f / sqrtf(v[k]);
    return r;
#endif
}

/* The sum of the lanes, always in the same order: ((0 + 4) + (2 + 6)) + ((1 + 5) + (3 + 7)). */
static inline float fc_f8_sum(fc_f8 v)
{
#if defined(__AVX__)
    __m128 s = _mm_add_ps(_mm256_castps256_ps128((__m256)v), _mm256_extractf128_ps((__m256)v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
#else
    return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7]));
#endif
}

/* The sums of the lanes of four vectors at once, out[k] of the k-th (fewer instructions than four
 * fc_f8_sum), each always in the same order: ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)). */
static inline void fc_f8_sum4(fc_f8 a, fc_f8 b, fc_f8 c, fc_f8 d, float out[4])
{
#if defined(__AVX__)
    const __m256 ab = _mm256_hadd_ps((__m256)a, (__m256)b), cd = _mm256_hadd_ps((__m256)c, (__m256)d);
    const __m256 abcd = _mm256_hadd_ps(ab, cd); /* the four half sums of lanes 0-3 | of lanes 4-7 */
    _mm_storeu_ps(out, _mm_add_ps(_mm256_castps256_ps128(abcd), _mm256_extractf128_ps(abcd, 1)));
#else
    const fc_f8 *v[4] = {&a, &b, &c, &d};
    for (int k = 0; k < 4; k++) {
        const fc_f8 x = *v[k];
        out[k] = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
    }
#endif
}

#endif

#endif
