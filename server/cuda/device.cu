/* The CUDA devices of this machine: count, names, and the reason when none is usable. */
#include "cuda/device.h"

#include "cuda/runtime.h"

#include <stdio.h>

extern "C" int fc_cuda_device_count(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return count > 0 ? count : 0;
}

extern "C" int fc_cuda_device_name(int index, char *out, size_t len)
{
    cudaDeviceProp prop;
    int count = fc_cuda_device_count();
    if (index < 0 || index >= count) {
        if (out && len) snprintf(out, len, "no CUDA device %d (%d present)", index, count);
        return -1;
    }
    cudaError_t e = cudaGetDeviceProperties(&prop, index);
    if (e != cudaSuccess) {
        if (out && len) snprintf(out, len, "cudaGetDeviceProperties: %s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
        (void)cudaGetLastError();
        return -1;
    }
    if (out && len) snprintf(out, len, "%s", prop.name);
    return 0;
}

extern "C" int fc_cuda_probe(char *name, size_t namelen, char *why, size_t whylen)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count < 1) {
        /* no libcuda at all, or one older than the runtime, reads as a driver problem */
        const int driver = e == cudaErrorInsufficientDriver;
        if (e == cudaSuccess)
            snprintf(why, whylen, "no CUDA device (the driver reports none)");
        else
            snprintf(why, whylen, "%s (%s: %s)", driver ? "no usable CUDA driver" : "no CUDA device", cudaGetErrorName(e),
                     cudaGetErrorString(e));
        (void)cudaGetLastError();
        return 0;
    }
    if (fc_cuda_device_name(0, name, namelen) != 0) {
        snprintf(why, whylen, "CUDA device 0 cannot be queried: %s", name);
        return 0;
    }
    return 1;
}
