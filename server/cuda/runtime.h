/* What a CUDA source of server/cuda/ includes for the CUDA runtime and CUB: nvcc's own, or, in the
 * cuda-host build, the host shim (host_shim.h); the one way to launch a kernel, FC_LAUNCH, with its
 * block size and grid; and FC_CU, the one check of a runtime call. */
#ifndef FC_CUDA_RUNTIME_H
#define FC_CUDA_RUNTIME_H

#ifdef __CUDACC__
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>
/* kernel<<<blocks, threads, 0, stream>>>(args...) */
#define FC_LAUNCH(kernel, blocks, threads, stream, ...) kernel<<<(blocks), (threads), 0, (stream)>>>(__VA_ARGS__)
#else
#include "cuda/host_shim.h"
/* every (block, thread) of the grid runs kernel(args...) once, as an OpenMP loop (host_shim.h) */
#define FC_LAUNCH(kernel, blocks, threads, stream, ...)                 \
    do {                                                                 \
        (void)(stream); /* work runs at once, in order */                \
        fc_shim_launch((blocks), (threads), [&] { kernel(__VA_ARGS__); }); \
    } while (0)
#endif

#include <stddef.h>
#include <stdio.h>

/* Threads per block of every launch; grids stop at FC_CUDA_MAX_BLOCKS, beyond which the kernels'
 * grid-stride loops cover the rest. */
enum { FC_CUDA_BLOCK = 256 };
#define FC_CUDA_MAX_BLOCKS ((size_t)1 << 16)

static inline unsigned fc_cuda_blocks_for(size_t n)
{
    const size_t b = (n + FC_CUDA_BLOCK - 1) / FC_CUDA_BLOCK;
    return b == 0 ? 1u : b > FC_CUDA_MAX_BLOCKS ? (unsigned)FC_CUDA_MAX_BLOCKS : (unsigned)b;
}

/* Writes "what: reason (name)" to err and clears a non-sticky error, so that a later call does not
 * report it again. */
static inline void fc_cuda_set_error(char *err, size_t errlen, const char *what, cudaError_t e)
{
    if (err && errlen) snprintf(err, errlen, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
    (void)cudaGetLastError();
}

/* Checks a runtime call; on failure writes the call and the reason to `err` (with `errlen`, both in
 * scope) and jumps to `fail`. A function using it declares its variables before the first use (C++
 * forbids jumping over an initialisation). */
#define FC_CU(call)                                          \
    do {                                                     \
        cudaError_t fc_e_ = (call);                          \
        if (fc_e_ != cudaSuccess) {                          \
            fc_cuda_set_error(err, errlen, #call, fc_e_);    \
            goto fail;                                       \
        }                                                    \
    } while (0)

#endif
