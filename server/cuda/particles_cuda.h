/* The particles on the device: every column of the fields registry as a device array, with the
 * id; upload, download and the reorder after a grid sort. Callable from C. */
#ifndef FC_PARTICLES_CUDA_H
#define FC_PARTICLES_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "core/particles.h" /* plain C: C linkage from C++ too */

typedef struct fc_cuda_particles {
    size_t count, capacity;
    uint32_t *d_id;
    void *d_column[FC_COLUMN_COUNT];  /* float * or uint8_t *, as the registry declares the column */
    void *d_scratch[FC_COLUMN_COUNT]; /* the reorder's targets, swapped with d_column */
    uint32_t *d_id_scratch;
} fc_cuda_particles;

/* Bytes of one particle on the device: every column and the id; of one element of a column. */
size_t fc_cuda_particles_bytes(void);
size_t fc_cuda_particles_bytes_of(int column);

/* Room for n particles, the device's particles kept (copied into larger arrays when needed). */
int fc_cuda_particles_grow(fc_cuda_particles *d, size_t n, char *err, size_t errlen);

/* Releases the device memory; safe on a zeroed or already freed store. */
void fc_cuda_particles_free(fc_cuda_particles *d);

/* Makes the device hold the host's particles: count, ids and every column (the backend seam's
 * host_changed). 0, or -1 with a reason in err (the store then holds no particles). */
int fc_cuda_particles_upload(fc_cuda_particles *d, const fc_particles *h, char *err, size_t errlen);

/* Appends the host's particles [from, h->count) to the device's, which must hold `from` of them (the
 * seam's host_changed after emitting): those on the device are kept, not copied again. 0, or -1
 * with a reason in err (the store then unchanged, or empty when a copy failed). */
int fc_cuda_particles_append(fc_cuda_particles *d, const fc_particles *h, size_t from, char *err, size_t errlen);

/* Copies the device's particles into the host's arrays (the store's sync_to_host): the ids and the
 * columns c with columns[c] != 0 (NULL: every column); h must hold room for d->count particles;
 * h->count becomes d->count. 0, or -1 with a reason in err. */
int fc_cuda_particles_download(const fc_cuda_particles *d, fc_particles *h, const unsigned char *columns, char *err,
                               size_t errlen);

/* Reorders every column and the ids on the device so that new index i holds old index
 * d_order[i] (d_order: a device array of d->count entries, such as fc_cuda_grid's d_order),
 * as fc_particles_permute does on the host. Queued on `stream` (NULL: the default stream). */
int fc_cuda_particles_permute(fc_cuda_particles *d, const uint32_t *d_order, void *stream, char *err, size_t errlen);

/* Keeps the particles i with keep[i] != 0, in order: kept[i] is their exclusive prefix sum (the new
 * index of a kept particle; kept[count] the number kept), both device arrays of count + 1. Every
 * column and the ids move, as fc_particles_compact does on the host. Queued on `stream`. */
int fc_cuda_particles_compact(fc_cuda_particles *d, const uint32_t *d_keep, const uint32_t *d_kept, size_t kept,
                              void *stream, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
