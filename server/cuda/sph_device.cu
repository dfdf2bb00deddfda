/* The SPH family's device data (sph_device.h): its grid, boundary particles, scratch columns and
 * neighbour counts beside a store's particles, the sort that reorders them, and its neighbour lists. */
#include "cuda/device_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

extern "C" void fc_cuda_family_destroy(fc_cuda_family *d)
{
    if (!d) return;
    if (d->store) cudaStreamSynchronize(d->store->stream);
    fc_cuda_grid_free(&d->grid);
    void *arrays[] = {d->d_bx, d->d_by, d->d_bz, d->d_bvolume, d->d_bcell_start, d->d_neighbours, d->d_counts};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) cudaFree(arrays[a]);
    for (int c = 0; c < FC_CUDA_SCRATCH; c++) cudaFree(d->d_f[c]);
    free(d);
}

extern "C" fc_cuda_family *fc_cuda_family_create(fc_device_store *store, const fc_grid_geom *geom, char *err,
                                                 size_t errlen)
{
    fc_cuda_family *d = (fc_cuda_family *)calloc(1, sizeof *d);
    if (!d) {
        fc_cuda_set_msg(err, errlen, "fc_cuda_family_create: out of host memory");
        return NULL;
    }
    d->store = store;
    d->geom = *geom;
    if (fc_cuda_grid_init(&d->grid, geom, err, errlen)) goto fail;
    FC_CU(cudaMalloc((void **)&d->d_bcell_start, sizeof(uint32_t) * ((size_t)geom->ncells + 1)));
    FC_CU(cudaMemsetAsync(d->d_bcell_start, 0, sizeof(uint32_t) * ((size_t)geom->ncells + 1), store->stream));
    FC_CU(cudaMalloc((void **)&d->d_counts, 4 * sizeof(unsigned)));
    return d;
fail:
    fc_cuda_family_destroy(d);
    return NULL;
}

int fc_cuda_reserve_scratch(fc_cuda_family *d, size_t n, char *err, size_t errlen)
{
    if (n <= d->scratch_capacity) return 0;
    const size_t cap = n + n / 4 + 64;
    for (int c = 0; c < FC_CUDA_SCRATCH; c++) cudaFree(d->d_f[c]), d->d_f[c] = NULL;
    d->d_list_at[0] = d->d_list_at[1] = d->d_list_at[2] = NULL;
    cudaFree(d->d_neighbours);
    d->d_neighbours = NULL;
    d->scratch_capacity = 0;
    for (int c = 0; c < FC_CUDA_SCRATCH; c++) FC_CU(cudaMalloc((void **)&d->d_f[c], cap * sizeof(float)));
    FC_CU(cudaMalloc((void **)&d->d_neighbours, cap * sizeof(uint32_t)));
    FC_CU(cudaMemsetAsync(d->d_neighbours, 0, cap * sizeof(uint32_t), d->store->stream));
    d->scratch_capacity = cap;
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_family_set_boundary(fc_cuda_family *d, size_t count, const float *x, const float *y,
                                          const float *z, const float *volume, const uint32_t *cell_start, char *err,
                                          size_t errlen)
{
    FC_CU(cudaStreamSynchronize(d->store->stream));
    if (count > d->boundary_capacity) {
        float **arrays[] = {&d->d_bx, &d->d_by, &d->d_bz, &d->d_bvolume};
        d->boundary_capacity = 0;
        for (size_t a = 0; a < 4; a++) {
            cudaFree(*arrays[a]);
            *arrays[a] = NULL;
        }
        for (size_t a = 0; a < 4; a++) FC_CU(cudaMalloc((void **)arrays[a], count * sizeof(float)));
        d->boundary_capacity = count;
    }
    if (count) {
        FC_CU(cudaMemcpy(d->d_bx, x, count * sizeof(float), cudaMemcpyHostToDevice));
        FC_CU(cudaMemcpy(d->d_by, y, count * sizeof(float), cudaMemcpyHostToDevice));
        FC_CU(cudaMemcpy(d->d_bz, z, count * sizeof(float), cudaMemcpyHostToDevice));
        FC_CU(cudaMemcpy(d->d_bvolume, volume, count * sizeof(float), cudaMemcpyHostToDevice));
        FC_CU(cudaMemcpy(d->d_bcell_start, cell_start, sizeof(uint32_t) * ((size_t)d->geom.ncells + 1),
                         cudaMemcpyHostToDevice));
    } else {
        FC_CU(cudaMemsetAsync(d->d_bcell_start, 0, sizeof(uint32_t) * ((size_t)d->geom.ncells + 1), d->store->stream));
    }
    d->boundary_count = count;
    return 0;
fail:
    d->boundary_count = 0;
    return -1;
}

fc_cuda_lists fc_cuda_lists_of(fc_cuda_family *d, const fc_sph_kernel &k, const float *lx, const float *ly,
                               const float *lz)
{
    fc_cuda_lists l;
    l.g = d->geom;
    l.key = d->grid.d_key, l.cell_start = d->grid.d_cell_start, l.bcell_start = d->d_bcell_start;
    l.lx = lx, l.ly = ly, l.lz = lz;
    l.bx = d->d_bx, l.by = d->d_by, l.bz = d->d_bz, l.bvolume = d->d_bvolume;
    l.h2 = k.h2;
    return l;
}

int fc_cuda_family_sort(fc_cuda_family *d, const float *x, const float *y, const float *z, char *err, size_t errlen)
{
    const size_t n = d->store->particles.count;
    if (fc_cuda_reserve_scratch(d, n, err, errlen)) return -1;
    if (fc_cuda_grid_build(&d->grid, x, y, z, n, d->store->stream, err, errlen)) return -1;
    return fc_cuda_particles_permute(&d->store->particles, d->grid.d_order, d->store->stream, err, errlen);
}

int fc_cuda_gather3(fc_cuda_family *d, const float *const src[3], float *const dst[3], char *err, size_t errlen)
{
    const size_t n = d->store->particles.count;
    FC_LAUNCH(fc_k_gather3, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, d->store->stream, n, d->grid.d_order, src[0], src[1], src[2],
              dst[0], dst[1], dst[2]);
    FC_CU(cudaGetLastError());
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_family_mean_neighbours(fc_cuda_family *d, double *out, char *err, size_t errlen)
{
    const size_t n = d->store->particles.count;
    unsigned total = 0;
    *out = 0.0;
    if (n == 0 || n > d->scratch_capacity) return 0;
    FC_CU(cudaMemsetAsync(d->store->d_word, 0, sizeof(unsigned), d->store->stream));
    FC_LAUNCH(fc_k_sum_counts, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, d->store->stream, n, d->d_neighbours, d->store->d_word);
    FC_CU(cudaGetLastError());
    FC_CU(cudaMemcpyAsync(&total, d->store->d_word, sizeof total, cudaMemcpyDeviceToHost, d->store->stream));
    FC_CU(cudaStreamSynchronize(d->store->stream));
    *out = (double)total / (double)n;
    return 0;
fail:
    return -1;
}


__global__ void fc_k_tension_normals(size_t n, fc_cuda_lists lists, fc_tension_terms t, const uint8_t *__restrict__ fluid,
                                     const float *__restrict__ x, const float *__restrict__ y, const float *__restrict__ z,
                                     const float *__restrict__ weights, float weight, fc_cuda_normals nm)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float gs[3] = {0.0f, 0.0f, 0.0f}, gi[3] = {0.0f, 0.0f, 0.0f}, li = 0.0f;
        const float ci = t.colour[fluid[i]];
        lists.fluid(i, [&](uint32_t j) {
            const float x_ij[3] = {x[i] - x[j], y[i] - y[j], z[i] - z[j]};
            const float r2 = x_ij[0] * x_ij[0] + x_ij[1] * x_ij[1] + x_ij[2] * x_ij[2];
            fc_tension_normal_pair(&t, weights ? weights[j] : weight, t.colour[fluid[j]] - ci, t.liquid[fluid[j]], r2, x_ij,
                                   gs, gi, &li);
        });
        lists.solid(i, [&](uint32_t b) {
            const float x_ib[3] = {x[i] - lists.bx[b], y[i] - lists.by[b], z[i] - lists.bz[b]};
            const float r2 = x_ib[0] * x_ib[0] + x_ib[1] * x_ib[1] + x_ib[2] * x_ib[2];
            fc_tension_boundary_pair(&t, lists.bvolume[b], ci, r2, x_ib, gs, gi, &li);
        });
        float normal[4], interface[4];
        fc_tension_normal(&t, gs, normal);
        fc_tension_interface(&t, gi, li, interface);
        for (int c = 0; c < 4; c++) nm.s[c][i] = normal[c], nm.i[c][i] = interface[c];
    }
}

int fc_cuda_tension_normals(fc_cuda_family *d, const fc_cuda_lists &lists, const fc_tension_terms &t, const float *x,
                            const float *y, const float *z, const float *weights, float weight, const fc_cuda_normals &nm,
                            char *err, size_t errlen)
{
    const size_t n = d->store->particles.count;
    FC_LAUNCH(fc_k_tension_normals, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, d->store->stream, n, lists, t,
              fc_cuda_fluid_column(d), x, y, z, weights, weight, nm);
    FC_CU(cudaGetLastError());
    return 0;
fail:
    return -1;
}
