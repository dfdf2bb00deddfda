/* A world's particles on the device: create, upload and download, boundary, colliders, sort, reductions. */
#include "cuda/world_cuda_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

void set_msg(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

} // namespace

/* The largest |v|^2, as the bits of a non-negative float (which order as unsigned integers). */
__global__ void fc_k_max_speed2(size_t n, const float *__restrict__ vx, const float *__restrict__ vy,
                                const float *__restrict__ vz, unsigned *__restrict__ out)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float s2 = vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i];
        unsigned bits;
        memcpy(&bits, &s2, sizeof bits);
        if (s2 == s2) atomicMax(out, bits); /* NaN is reported by the statistics, not here */
    }
}

/* A sum of per-particle counts into one word (the pairs of one sort stay far below 2^32). */
__global__ void fc_k_sum_counts(size_t n, const uint32_t *__restrict__ counts, unsigned *__restrict__ out)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        atomicAdd(out, counts[i]);
}

__global__ void fc_k_gather3(size_t n, const uint32_t *__restrict__ order, const float *__restrict__ x,
                             const float *__restrict__ y, const float *__restrict__ z, float *__restrict__ ox,
                             float *__restrict__ oy, float *__restrict__ oz)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint32_t o = order[i];
        ox[i] = x[o], oy[i] = y[o], oz[i] = z[o];
    }
}

extern "C" void fc_cuda_world_destroy(fc_cuda_world *s)
{
    if (!s) return;
    fc_cuda_grid_free(&s->grid);
    fc_cuda_particles_free(&s->particles);
    void *arrays[] = {s->d_bx, s->d_by, s->d_bz, s->d_bvolume, s->d_bcell_start, s->d_neighbours, s->d_colliders,
                      s->d_word};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) cudaFree(arrays[a]);
    for (int c = 0; c < FC_CUDA_SCRATCH; c++) cudaFree(s->d_f[c]);
    if (s->stream) cudaStreamDestroy(s->stream);
    free(s);
}

extern "C" fc_cuda_world *fc_cuda_world_create(const fc_grid_geom *geom, char *err, size_t errlen)
{
    fc_cuda_world *s = (fc_cuda_world *)calloc(1, sizeof *s);
    if (!s) {
        set_msg(err, errlen, "fc_cuda_world_create: out of host memory");
        return NULL;
    }
    s->geom = *geom;
    FC_CU(cudaStreamCreate(&s->stream));
    if (fc_cuda_grid_init(&s->grid, geom, err, errlen)) goto fail;
    FC_CU(cudaMalloc((void **)&s->d_bcell_start, sizeof(uint32_t) * ((size_t)geom->ncells + 1)));
    FC_CU(cudaMemsetAsync(s->d_bcell_start, 0, sizeof(uint32_t) * ((size_t)geom->ncells + 1), s->stream));
    FC_CU(cudaMalloc((void **)&s->d_word, sizeof(unsigned)));
    return s;
fail:
    fc_cuda_world_destroy(s);
    return NULL;
}

extern "C" size_t fc_cuda_world_count(const fc_cuda_world *s) { return s->particles.count; }

int fc_cuda_reserve_scratch(fc_cuda_world *s, size_t n, char *err, size_t errlen)
{
    if (n <= s->scratch_capacity) return 0;
    const size_t cap = n + n / 4 + 64;
    for (int c = 0; c < FC_CUDA_SCRATCH; c++) cudaFree(s->d_f[c]), s->d_f[c] = NULL;
    cudaFree(s->d_neighbours);
    s->d_neighbours = NULL;
    s->scratch_capacity = 0;
    for (int c = 0; c < FC_CUDA_SCRATCH; c++) FC_CU(cudaMalloc((void **)&s->d_f[c], cap * sizeof(float)));
    FC_CU(cudaMalloc((void **)&s->d_neighbours, cap * sizeof(uint32_t)));
    FC_CU(cudaMemsetAsync(s->d_neighbours, 0, cap * sizeof(uint32_t), s->stream));
    s->scratch_capacity = cap;
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_world_upload(fc_cuda_world *s, const fc_particles *p, size_t from, char *err, size_t errlen)
{
    if (cudaStreamSynchronize(s->stream) != cudaSuccess) {
        set_msg(err, errlen, "fc_cuda_world_upload: the device failed in an earlier step");
        return -1;
    }
    if (from == 0 || from != s->particles.count || p->count < from) {
        if (fc_cuda_particles_upload(&s->particles, p, err, errlen)) return -1;
    } else if (fc_cuda_particles_append(&s->particles, p, from, err, errlen)) {
        return -1;
    }
    return fc_cuda_reserve_scratch(s, p->count, err, errlen);
}

extern "C" int fc_cuda_world_download(const fc_cuda_world *s, fc_particles *p, char *err, size_t errlen)
{
    if (cudaStreamSynchronize(s->stream) != cudaSuccess) {
        set_msg(err, errlen, "fc_cuda_world_download: the device failed in an earlier step");
        return -1;
    }
    return fc_cuda_particles_download(&s->particles, p, err, errlen);
}

extern "C" int fc_cuda_world_set_boundary(fc_cuda_world *s, size_t count, const float *x, const float *y,
                                          const float *z, const float *volume, const uint32_t *cell_start, char *err,
                                          size_t errlen)
{
    FC_CU(cudaStreamSynchronize(s->stream));
    if (count > s->boundary_capacity) {
        float **arrays[] = {&s->d_bx, &s->d_by, &s->d_bz, &s->d_bvolume};
        s->boundary_capacity = 0;
        for (size_t a = 0; a < 4; a++) {
            cudaFree(*arrays[a]);
            *arrays[a] = NULL;
        }
        for (size_t a = 0; a < 4; a++) FC_CU(cudaMalloc((void **)arrays[a], count * sizeof(float)));
        s->boundary_capacity = count;
    }
    if (count) {
        FC_CU(cudaMemcpy(s->d_bx, x, count * sizeof(float), cudaMemcpyHostToDevice));
        FC_CU(cudaMemcpy(s->d_by, y, count * sizeof(float), cudaMemcpyHostToDevice));
        FC_CU(cudaMemcpy(s->d_bz, z, count * sizeof(float), cudaMemcpyHostToDevice));
        FC_CU(cudaMemcpy(s->d_bvolume, volume, count * sizeof(float), cudaMemcpyHostToDevice));
        FC_CU(cudaMemcpy(s->d_bcell_start, cell_start, sizeof(uint32_t) * ((size_t)s->geom.ncells + 1),
                         cudaMemcpyHostToDevice));
    } else {
        FC_CU(cudaMemsetAsync(s->d_bcell_start, 0, sizeof(uint32_t) * ((size_t)s->geom.ncells + 1), s->stream));
    }
    s->boundary_count = count;
    return 0;
fail:
    s->boundary_count = 0;
    return -1;
}

fc_cuda_lists fc_cuda_lists_of(fc_cuda_world *s, const fc_sph_kernel &k, const float *lx, const float *ly,
                               const float *lz)
{
    fc_cuda_lists l;
    l.g = s->geom;
    l.key = s->grid.d_key, l.cell_start = s->grid.d_cell_start, l.bcell_start = s->d_bcell_start;
    l.lx = lx, l.ly = ly, l.lz = lz;
    l.bx = s->d_bx, l.by = s->d_by, l.bz = s->d_bz, l.bvolume = s->d_bvolume;
    l.h2 = k.h2;
    return l;
}

int fc_cuda_world_sort(fc_cuda_world *s, const float *x, const float *y, const float *z, char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    if (fc_cuda_reserve_scratch(s, n, err, errlen)) return -1;
    if (fc_cuda_grid_build(&s->grid, x, y, z, n, s->stream, err, errlen)) return -1;
    return fc_cuda_particles_permute(&s->particles, s->grid.d_order, s->stream, err, errlen);
}

int fc_cuda_gather3(fc_cuda_world *s, const float *const src[3], float *const dst[3], char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    FC_LAUNCH(fc_k_gather3, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->stream, n, s->grid.d_order, src[0], src[1], src[2],
              dst[0], dst[1], dst[2]);
    FC_CU(cudaGetLastError());
    return 0;
fail:
    return -1;
}

int fc_cuda_device_collision(fc_cuda_world *s, const fc_cuda_setup *setup, fc_collision *c, char *err, size_t errlen)
{
    *c = setup->collision;
    if (c->collider_count > s->collider_capacity) {
        FC_CU(cudaStreamSynchronize(s->stream));
        cudaFree(s->d_colliders);
        s->d_colliders = NULL, s->collider_capacity = 0;
        FC_CU(cudaMalloc((void **)&s->d_colliders, c->collider_count * sizeof(fc_shape)));
        s->collider_capacity = c->collider_count;
    }
    /* synchronous: the host's colliders may change after this call returns */
    if (c->collider_count)
        FC_CU(cudaMemcpy(s->d_colliders, c->colliders, c->collider_count * sizeof(fc_shape), cudaMemcpyHostToDevice));
    c->colliders = s->d_colliders;
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_world_max_speed2(fc_cuda_world *s, float *out, char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    unsigned bits = 0;
    *out = 0.0f;
    if (n == 0) return 0;
    FC_CU(cudaMemsetAsync(s->d_word, 0, sizeof(unsigned), s->stream));
    FC_LAUNCH(fc_k_max_speed2, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->stream, n, fc_cuda_column(s, FC_VX),
              fc_cuda_column(s, FC_VY), fc_cuda_column(s, FC_VZ), s->d_word);
    FC_CU(cudaGetLastError());
    FC_CU(cudaMemcpyAsync(&bits, s->d_word, sizeof bits, cudaMemcpyDeviceToHost, s->stream));
    FC_CU(cudaStreamSynchronize(s->stream));
    memcpy(out, &bits, sizeof *out);
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_world_mean_neighbours(fc_cuda_world *s, double *out, char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    unsigned total = 0;
    *out = 0.0;
    if (n == 0 || n > s->scratch_capacity) return 0;
    FC_CU(cudaMemsetAsync(s->d_word, 0, sizeof(unsigned), s->stream));
    FC_LAUNCH(fc_k_sum_counts, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->stream, n, s->d_neighbours, s->d_word);
    FC_CU(cudaGetLastError());
    FC_CU(cudaMemcpyAsync(&total, s->d_word, sizeof total, cudaMemcpyDeviceToHost, s->stream));
    FC_CU(cudaStreamSynchronize(s->stream));
    *out = (double)total / (double)n;
    return 0;
fail:
    return -1;
}
