/* Host-device qualifiers for math written once for the CPU (C) and the GPU (CUDA). */
#ifndef FC_HD_H
#define FC_HD_H

#include <math.h>

/* FC_HD marks a function nvcc compiles for both host and device; in C it is empty, so the CPU
 * build sees plain static inline functions. */
#ifdef __CUDACC__
#define FC_HD __host__ __device__
#else
#define FC_HD
#endif

/* a - b and a * b, each rounded to nearest and never fused with a neighbouring operation (on the
 * device the _rn intrinsics forbid FMA contraction; in C the file must not contract either: GCC
 * fuses a * b + c where the target has FMA unless -ffp-contract=off), so a result depending on them
 * is bit-identical on the CPU and the GPU. */
static inline FC_HD float fc_sub_rn(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}

static inline FC_HD float fc_add_rn(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

static inline FC_HD float fc_mul_rn(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

/* |(x, y, z)| rounded step by step (a streamed speed: the same bits from the CPU's snapshot and the
 * GPU's; C files using it build with -ffp-contract=off, CMakeLists.txt). */
static inline FC_HD float fc_norm3_rn(float x, float y, float z)
{
    return sqrtf(fc_add_rn(fc_add_rn(fc_mul_rn(x, x), fc_mul_rn(y, y)), fc_mul_rn(z, z)));
}

#endif
