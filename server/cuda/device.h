/* The CUDA devices of this machine, callable from C: how many, their names, and why none is usable. */
#ifndef FC_CUDA_DEVICE_H
#define FC_CUDA_DEVICE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable CUDA devices; 0 when there is no driver, no device, or any other error. */
int fc_cuda_device_count(void);

/* Copies the name of device `index` into out (always terminated when len > 0). Returns 0, or -1
 * (out then holds a short reason) when the device does not exist or cannot be queried. */
int fc_cuda_device_name(int index, char *out, size_t len);

/* 1 with device 0's name in name, or 0 with the reason in why: "no CUDA driver (...)", "no CUDA
 * device (...)", with the runtime's own words. */
int fc_cuda_probe(char *name, size_t namelen, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif

#endif
