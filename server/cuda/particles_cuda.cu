/* The particles on the device: registry columns as device arrays; upload, download, reorder. */
#include "cuda/particles_cuda.h"

#include "cuda/runtime.h"

#include <stdio.h>
#include <string.h>

namespace {

/* Bytes of one element of each column, from the registry itself (no call into the host library). */
const size_t kColumnSize[FC_COLUMN_COUNT] = {
#define FC_FIELD_VEC(id, name, prefix, type, ...) sizeof(FC_CTYPE_##type), sizeof(FC_CTYPE_##type), sizeof(FC_CTYPE_##type),
#define FC_FIELD(id, name, type, ...) sizeof(FC_CTYPE_##type),
#include "core/particle_fields.def"
#undef FC_FIELD_VEC
#undef FC_FIELD
};

} // namespace

/* out[i] = in[order[i]] for elements of `size` bytes (1 or 4). */
__global__ void fc_k_gather(const void *__restrict__ in, void *__restrict__ out, const uint32_t *__restrict__ order,
                            size_t n, size_t size)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        if (size == 1) ((uint8_t *)out)[i] = ((const uint8_t *)in)[order[i]];
        else ((uint32_t *)out)[i] = ((const uint32_t *)in)[order[i]];
    }
}

/* out[kept[i]] = in[i] for the kept particles, elements of `size` bytes (1 or 4). */
__global__ void fc_k_compact(const void *__restrict__ in, void *__restrict__ out, const uint32_t *__restrict__ keep,
                             const uint32_t *__restrict__ kept, size_t n, size_t size)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        if (!keep[i]) continue;
        if (size == 1) ((uint8_t *)out)[kept[i]] = ((const uint8_t *)in)[i];
        else ((uint32_t *)out)[kept[i]] = ((const uint32_t *)in)[i];
    }
}

extern "C" size_t fc_cuda_particles_bytes_of(int column) { return kColumnSize[column]; }

extern "C" size_t fc_cuda_particles_bytes(void)
{
    size_t bytes = sizeof(uint32_t);
    for (int c = 0; c < FC_COLUMN_COUNT; c++) bytes += kColumnSize[c];
    return bytes;
}

extern "C" void fc_cuda_particles_free(fc_cuda_particles *d)
{
    if (!d) return;
    cudaFree(d->d_id);
    cudaFree(d->d_id_scratch);
    for (int c = 0; c < FC_COLUMN_COUNT; c++) cudaFree(d->d_column[c]), cudaFree(d->d_scratch[c]);
    memset(d, 0, sizeof *d);
}

/* Room for n particles (contents are not kept). */
static int reserve(fc_cuda_particles *d, size_t n, char *err, size_t errlen)
{
    if (n <= d->capacity) return 0;
    const size_t cap = n + n / 4 + 64;
    fc_cuda_particles_free(d);
    FC_CU(cudaMalloc((void **)&d->d_id, cap * sizeof(uint32_t)));
    FC_CU(cudaMalloc((void **)&d->d_id_scratch, cap * sizeof(uint32_t)));
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        FC_CU(cudaMalloc(&d->d_column[c], cap * kColumnSize[c]));
        FC_CU(cudaMalloc(&d->d_scratch[c], cap * kColumnSize[c]));
    }
    d->capacity = cap;
    return 0;
fail:
    fc_cuda_particles_free(d);
    return -1;
}

/* The host array of column c (either type). */
static void *host_column(const fc_particles *h, int c)
{
    return kColumnSize[c] == 1 ? (void *)h->u8[c] : (void *)h->field[c];
}

extern "C" int fc_cuda_particles_upload(fc_cuda_particles *d, const fc_particles *h, char *err, size_t errlen)
{
    if (reserve(d, h->count, err, errlen)) return -1;
    d->count = h->count;
    if (h->count) {
        FC_CU(cudaMemcpy(d->d_id, h->id, h->count * sizeof(uint32_t), cudaMemcpyHostToDevice));
        for (int c = 0; c < FC_COLUMN_COUNT; c++)
            FC_CU(cudaMemcpy(d->d_column[c], host_column(h, c), h->count * kColumnSize[c], cudaMemcpyHostToDevice));
    }
    return 0;
fail:
    d->count = 0;
    return -1;
}

extern "C" int fc_cuda_particles_grow(fc_cuda_particles *d, size_t n, char *err, size_t errlen)
{
    fc_cuda_particles grown;
    memset(&grown, 0, sizeof grown);
    if (n <= d->capacity) return 0;
    if (reserve(&grown, n, err, errlen)) return -1;
    FC_CU(cudaMemcpy(grown.d_id, d->d_id, d->count * sizeof(uint32_t), cudaMemcpyDeviceToDevice));
    for (int c = 0; c < FC_COLUMN_COUNT; c++)
        FC_CU(cudaMemcpy(grown.d_column[c], d->d_column[c], d->count * kColumnSize[c], cudaMemcpyDeviceToDevice));
    grown.count = d->count;
    fc_cuda_particles_free(d);
    *d = grown;
    return 0;
fail:
    fc_cuda_particles_free(&grown);
    return -1;
}

extern "C" int fc_cuda_particles_append(fc_cuda_particles *d, const fc_particles *h, size_t from, char *err,
                                        size_t errlen)
{
    const size_t n = h->count, added = n > from ? n - from : 0;
    if (from != d->count || from > n) {
        if (err && errlen) snprintf(err, errlen, "fc_cuda_particles_append: the device holds %zu particles, not %zu",
                                    d->count, from);
        return -1;
    }
    if (fc_cuda_particles_grow(d, n, err, errlen)) return -1;
    if (added) {
        FC_CU(cudaMemcpy(d->d_id + from, h->id + from, added * sizeof(uint32_t), cudaMemcpyHostToDevice));
        for (int c = 0; c < FC_COLUMN_COUNT; c++)
            FC_CU(cudaMemcpy((char *)d->d_column[c] + from * kColumnSize[c],
                             (const char *)host_column(h, c) + from * kColumnSize[c], added * kColumnSize[c],
                             cudaMemcpyHostToDevice));
    }
    d->count = n;
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_particles_download(const fc_cuda_particles *d, fc_particles *h, const unsigned char *columns,
                                          char *err, size_t errlen)
{
    if (h->capacity < d->count) {
        if (err && errlen) snprintf(err, errlen, "fc_cuda_particles_download: the host holds room for %zu particles, "
                                                "the device has %zu", h->capacity, d->count);
        return -1;
    }
    if (d->count) {
        FC_CU(cudaMemcpy(h->id, d->d_id, d->count * sizeof(uint32_t), cudaMemcpyDeviceToHost));
        for (int c = 0; c < FC_COLUMN_COUNT; c++)
            if (!columns || columns[c])
                FC_CU(cudaMemcpy(host_column(h, c), d->d_column[c], d->count * kColumnSize[c], cudaMemcpyDeviceToHost));
    }
    h->count = d->count;
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_particles_permute(fc_cuda_particles *d, const uint32_t *d_order, void *stream, char *err,
                                         size_t errlen)
{
    cudaStream_t s = (cudaStream_t)stream;
    const size_t n = d->count;
    const unsigned blocks = fc_cuda_blocks_for(n);
    if (n == 0) return 0;
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        FC_LAUNCH(fc_k_gather, blocks, FC_CUDA_BLOCK, s, d->d_column[c], d->d_scratch[c], d_order, n, kColumnSize[c]);
        FC_CU(cudaGetLastError());
        void *t = d->d_column[c];
        d->d_column[c] = d->d_scratch[c], d->d_scratch[c] = t;
    }
    FC_LAUNCH(fc_k_gather, blocks, FC_CUDA_BLOCK, s, d->d_id, d->d_id_scratch, d_order, n, sizeof(uint32_t));
    FC_CU(cudaGetLastError());
    {
        uint32_t *t = d->d_id;
        d->d_id = d->d_id_scratch, d->d_id_scratch = t;
    }
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_particles_compact(fc_cuda_particles *d, const uint32_t *d_keep, const uint32_t *d_kept,
                                         size_t kept, void *stream, char *err, size_t errlen)
{
    cudaStream_t s = (cudaStream_t)stream;
    const size_t n = d->count;
    const unsigned blocks = fc_cuda_blocks_for(n);
    if (n == 0) return 0;
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        FC_LAUNCH(fc_k_compact, blocks, FC_CUDA_BLOCK, s, d->d_column[c], d->d_scratch[c], d_keep, d_kept, n,
                  kColumnSize[c]);
        FC_CU(cudaGetLastError());
        void *t = d->d_column[c];
        d->d_column[c] = d->d_scratch[c], d->d_scratch[c] = t;
    }
    FC_LAUNCH(fc_k_compact, blocks, FC_CUDA_BLOCK, s, d->d_id, d->d_id_scratch, d_keep, d_kept, n, sizeof(uint32_t));
    FC_CU(cudaGetLastError());
    {
        uint32_t *t = d->d_id;
        d->d_id = d->d_id_scratch, d->d_id_scratch = t;
    }
    d->count = kept;
    return 0;
fail:
    return -1;
}
