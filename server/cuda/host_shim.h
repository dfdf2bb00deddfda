/* The CUDA host shim: what a .cu file of server/cuda/ needs from CUDA, for g++ on a machine without a
 * GPU (the cuda-host build, cmake -DFLUIDCAST_CUDA=HOST). Rules and scope in server/cuda/README.md. */
#ifndef FC_CUDA_HOST_SHIM_H
#define FC_CUDA_HOST_SHIM_H

#ifdef __CUDACC__
#error "host_shim.h is for the host build of the CUDA sources; nvcc includes cuda_runtime.h (cuda/runtime.h)"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <utility>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#else /* a build without OpenMP (ThreadSanitizer's): one thread, and a clock */
#include <time.h>
static inline int omp_get_max_threads(void) { return 1; }
static inline double omp_get_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif

/* ---- qualifiers: a kernel and a device function are plain functions on the host ---------------- */
#define __global__
#define __device__
#define __host__
#define __restrict__ __restrict

/* ---- the built-in indices: per host thread, set by the launch for every (block, thread) --------- */
struct dim3 {
    unsigned x, y, z;
};
inline thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

typedef struct fc_shim_stream *cudaStream_t;
typedef struct fc_shim_event *cudaEvent_t;

/* A launch: every (block, thread) of the grid runs the kernel once, as an OpenMP loop over the threads
 * (no order between them, as on a device; no shared memory, no __syncthreads, no warp intrinsics). */
template <class Body> static inline void fc_shim_launch(unsigned blocks, unsigned threads, Body body)
{
    const long total = (long)blocks * (long)threads;
#pragma omp parallel for schedule(static)
    for (long t = 0; t < total; t++) {
        gridDim = dim3{blocks, 1, 1};
        blockDim = dim3{threads, 1, 1};
        blockIdx = dim3{(unsigned)(t / threads), 0, 0};
        threadIdx = dim3{(unsigned)(t % threads), 0, 0};
        body();
    }
}

/* ---- atomics: the compiler's -------------------------------------------------------------------- */
static inline unsigned atomicAdd(unsigned *address, unsigned value)
{
    return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}

static inline int atomicAdd(int *address, int value) { return __atomic_fetch_add(address, value, __ATOMIC_RELAXED); }

static inline unsigned atomicMax(unsigned *address, unsigned value)
{
    unsigned old = __atomic_load_n(address, __ATOMIC_RELAXED);
    while (old < value && !__atomic_compare_exchange_n(address, &old, value, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return old;
}

static inline float atomicAdd(float *address, float value)
{
    float old, sum;
    __atomic_load(address, &old, __ATOMIC_RELAXED);
    do {
        sum = old + value;
    } while (!__atomic_compare_exchange(address, &old, &sum, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}

/* ---- the runtime API the sources call: memory is host memory, streams run in order at once ------- */
typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100,
} cudaError_t;

enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
};

static inline const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    }
    return "unknown error";
}

static inline const char *cudaGetErrorName(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInsufficientDriver: return "cudaErrorInsufficientDriver";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    }
    return "cudaErrorUnknown";
}

static inline cudaError_t cudaGetLastError(void) { return cudaSuccess; }

/* The shim is one "device": the host, its OpenMP threads standing for the GPU's. */
/* The fake device's memory: 16 GiB, or FC_SHIM_DEVICE_MEMORY_MB megabytes (tests of a device that is
 * too small for a scene). */
static inline size_t fc_shim_device_memory(void)
{
    const char *mb = getenv("FC_SHIM_DEVICE_MEMORY_MB");
    return mb && atol(mb) > 0 ? (size_t)atol(mb) << 20 : (size_t)1 << 34;
}

static inline cudaError_t cudaGetDeviceCount(int *count)
{
    *count = 1;
    return cudaSuccess;
}

static inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device)
{
    if (device != 0) return cudaErrorInvalidValue;
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "cuda-host shim (%d OpenMP threads)", omp_get_max_threads());
    prop->totalGlobalMem = fc_shim_device_memory();
    return cudaSuccess;
}

static inline cudaError_t cudaMalloc(void **p, size_t bytes)
{
    *p = malloc(bytes ? bytes : 1);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}

static inline cudaError_t cudaFree(void *p)
{
    free(p);
    return cudaSuccess;
}

static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind)
{
    if (bytes) memmove(dst, src, bytes);
    return cudaSuccess;
}

static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t = 0)
{
    return cudaMemcpy(dst, src, bytes, kind);
}

static inline cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t = 0)
{
    if (bytes) memset(p, value, bytes);
    return cudaSuccess;
}

static inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
/* The fake device's memory, all of it free (host memory is what runs out): cudaMemGetInfo. */
static inline cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    *free_bytes = *total_bytes = fc_shim_device_memory();
    return cudaSuccess;
}
/* A stream is a name only: work runs at once, in order. */
static inline cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    *s = NULL;
    return cudaSuccess;
}
static inline cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }

/* Events time host work with the wall clock (informational, as on a device). */
struct fc_shim_event {
    double ms;
};

static inline cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    *e = (cudaEvent_t)calloc(1, sizeof(fc_shim_event));
    return *e ? cudaSuccess : cudaErrorMemoryAllocation;
}

static inline cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    free(e);
    return cudaSuccess;
}

static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = 0)
{
    e->ms = omp_get_wtime() * 1e3;
    return cudaSuccess;
}

static inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }

static inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t from, cudaEvent_t to)
{
    *ms = (float)(to->ms - from->ms);
    return cudaSuccess;
}

/* ---- the device-wide algorithms the sources use, as CPU functions ------------------------------- */
namespace cub {
struct DeviceScan {
    /* out[k] = in[0] + ... + in[k - 1]; with tmp == nullptr only sets tmp_bytes, as CUB does */
    template <class T>
    static cudaError_t ExclusiveSum(void *tmp, size_t &tmp_bytes, const T *in, T *out, int n, cudaStream_t = 0)
    {
        if (!tmp) {
            tmp_bytes = 1;
            return cudaSuccess;
        }
        T sum = 0;
        for (int k = 0; k < n; k++) {
            const T v = in[k];
            out[k] = sum;
            sum += v;
        }
        return cudaSuccess;
    }
};

struct DeviceRadixSort {
    /* (keys, values) sorted by key into the outputs (keys here are unique: a stable sort is not
     * needed); with tmp == nullptr only sets tmp_bytes, as CUB does */
    template <class K, class V>
    static cudaError_t SortPairs(void *tmp, size_t &tmp_bytes, const K *keys_in, K *keys_out, const V *values_in,
                                 V *values_out, int n, int = 0, int = (int)(sizeof(K) * 8), cudaStream_t = 0)
    {
        if (!tmp) {
            tmp_bytes = 1;
            return cudaSuccess;
        }
        std::vector<std::pair<K, V>> pairs((size_t)n);
        for (int k = 0; k < n; k++) pairs[(size_t)k] = {keys_in[k], values_in[k]};
        std::sort(pairs.begin(), pairs.end());
        for (int k = 0; k < n; k++) keys_out[k] = pairs[(size_t)k].first, values_out[k] = pairs[(size_t)k].second;
        return cudaSuccess;
    }
};
} // namespace cub

#endif
