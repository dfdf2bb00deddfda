/* What a CUDA source of server/cuda/ includes for the CUDA runtime and CUB: nvcc's own, or, in the
 * cuda-host build, the host shim (host_shim.h); and the one way to launch a kernel, FC_LAUNCH. */
#ifndef FC_CUDA_RUNTIME_H
#define FC_CUDA_RUNTIME_H

#ifdef __CUDACC__
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

#endif
