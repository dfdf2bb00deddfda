/* CUDA build of the sorted uniform grid (the GPU counterpart of core/grid.h), callable from C.
 *
 * The device grid gives the same cell_start as fc_grid_sort for the same points and geometry
 * (same keys, same clamping); within one cell the order of particles may differ from the CPU's
 * stable order, because the scatter claims slots with atomics. Every function that can fail
 * returns 0 on success or -1 with a reason in err (never aborts); nothing is left allocated on a
 * failure path except what the caller's fc_cuda_grid already owned (release it with
 * fc_cuda_grid_free). The header needs no CUDA include: device pointers are plain pointers and a
 * stream is an opaque cudaStream_t passed as void * (NULL = the default stream). */
#ifndef FC_GRID_CUDA_H
#define FC_GRID_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "core/grid.h" /* plain C without its own guards: give it C linkage from C++ too */

#include "cuda/device.h" /* fc_cuda_device_count, fc_cuda_device_name */

/* A grid built on the device. All d_ arrays are device memory owned by the grid. */
typedef struct fc_cuda_grid {
    fc_grid_geom geom;
    uint32_t *d_cell_start;   /* ncells + 1: particles of cell k are [cell_start[k], cell_start[k+1]) */
    uint32_t *d_key;          /* per sorted particle: its cell key */
    uint32_t *d_order;        /* per sorted particle: its index before sorting */
    uint32_t *d_unsorted_key; /* per original particle: its cell key (scratch) */
    uint32_t *d_count;        /* ncells + 1: counts, then the scatter's per-cell cursors (scratch) */
    void *d_scan_tmp;         /* CUB scan scratch */
    size_t scan_tmp_bytes;
    size_t capacity;          /* particles the per-particle arrays can hold */
} fc_cuda_grid;

/* Prepares a device grid for `geom` (allocates the per-cell arrays on the current device). */
int fc_cuda_grid_init(fc_cuda_grid *g, const fc_grid_geom *geom, char *err, size_t errlen);

/* Releases the device memory; safe on a zeroed or already freed grid. */
void fc_cuda_grid_free(fc_cuda_grid *g);

/* Sorts n points (device arrays d_x, d_y, d_z) by cell: fills d_key, d_order and d_cell_start,
 * growing the per-particle arrays when needed. Work is queued on `stream`; the function returns
 * after queueing (call cudaStreamSynchronize, or use the results on the same stream). */
int fc_cuda_grid_build(fc_cuda_grid *g, const float *d_x, const float *d_y, const float *d_z, size_t n,
                       void *stream, char *err, size_t errlen);

/* Host convenience (tests, tools): copies x, y, z to the device, builds the grid for g and copies
 * back order (n entries) and cell_start (g->ncells + 1 entries). Synchronous. */
int fc_cuda_grid_sort_host(const fc_grid_geom *g, const float *x, const float *y, const float *z, size_t n,
                           uint32_t *order, uint32_t *cell_start, char *err, size_t errlen);

/* Keys of n points by fc_grid_key as compiled into this CUDA translation unit (nvcc's host pass of
 * the function the key kernel calls), for a test on machines without a GPU that the CUDA side
 * keys points as the CPU grid does. Needs no device. */
void fc_cuda_grid_keys_host(const fc_grid_geom *g, const float *x, const float *y, const float *z, size_t n,
                            uint32_t *key);

/* Informational timing: copies the points once, builds the grid `reps` times and stores the mean
 * device time of one fc_cuda_grid_build in *ms (CUDA events, transfers excluded). */
int fc_cuda_grid_time_build(const fc_grid_geom *g, const float *x, const float *y, const float *z, size_t n,
                            int reps, double *ms, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
