/* CUDA grid build: per-particle cell keys with atomic cell counts, CUB exclusive scan, atomic scatter. */
#include "cuda/grid_cuda.h"

#include "cuda/runtime.h"

#include <stdio.h>
#include <string.h>

namespace {

void set_msg(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

} // namespace

/* 1-2. key every particle (with the CPU grid's fc_grid_key) and count the particles per cell. */
__global__ void fc_k_keys(fc_grid_geom g, const float *__restrict__ x, const float *__restrict__ y,
                          const float *__restrict__ z, size_t n, uint32_t *__restrict__ key,
                          uint32_t *__restrict__ count)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint32_t k = fc_grid_key(&g, x[i], y[i], z[i]); /* core/grid.h, the CPU's own */
        key[i] = k;
        atomicAdd(&count[k], 1u);
    }
}

/* 4. scatter: each particle claims the next slot of its cell (cursor starts as cell_start). */
__global__ void fc_k_scatter(const uint32_t *__restrict__ unsorted_key, size_t n, uint32_t *__restrict__ cursor,
                             uint32_t *__restrict__ order, uint32_t *__restrict__ key)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint32_t k = unsorted_key[i];
        uint32_t slot = atomicAdd(&cursor[k], 1u);
        order[slot] = (uint32_t)i;
        key[slot] = k;
    }
}

extern "C" void fc_cuda_grid_keys_host(const fc_grid_geom *g, const float *x, const float *y, const float *z,
                                       size_t n, uint32_t *key)
{
    for (size_t i = 0; i < n; i++) key[i] = fc_grid_key(g, x[i], y[i], z[i]);
}

extern "C" void fc_cuda_grid_free(fc_cuda_grid *g)
{
    if (!g) return;
    cudaFree(g->d_cell_start);
    cudaFree(g->d_key);
    cudaFree(g->d_order);
    cudaFree(g->d_unsorted_key);
    cudaFree(g->d_count);
    cudaFree(g->d_scan_tmp);
    memset(g, 0, sizeof *g);
}

extern "C" int fc_cuda_grid_init(fc_cuda_grid *g, const fc_grid_geom *geom, char *err, size_t errlen)
{
    size_t cells1 = 0;
    if (!g || !geom) {
        set_msg(err, errlen, "fc_cuda_grid_init: null argument");
        return -1;
    }
    memset(g, 0, sizeof *g);
    if (geom->dim[0] < 1 || geom->dim[1] < 1 || geom->dim[2] < 1 || geom->ncells == 0 ||
        geom->ncells > FC_GRID_MAX_CELLS ||
        (size_t)geom->dim[0] * (size_t)geom->dim[1] * (size_t)geom->dim[2] != (size_t)geom->ncells) {
        set_msg(err, errlen, "fc_cuda_grid_init: invalid grid geometry");
        return -1;
    }
    g->geom = *geom;
    cells1 = (size_t)geom->ncells + 1;
    FC_CU(cudaMalloc((void **)&g->d_cell_start, sizeof(uint32_t) * cells1));
    FC_CU(cudaMalloc((void **)&g->d_count, sizeof(uint32_t) * cells1));
    FC_CU(cub::DeviceScan::ExclusiveSum(nullptr, g->scan_tmp_bytes, g->d_count, g->d_cell_start, (int)cells1));
    if (g->scan_tmp_bytes == 0) g->scan_tmp_bytes = 1;
    FC_CU(cudaMalloc(&g->d_scan_tmp, g->scan_tmp_bytes));
    return 0;
fail:
    fc_cuda_grid_free(g);
    return -1;
}

/* Makes room for n particles (contents are not kept); on failure the grid holds no particle arrays. */
static int ensure_capacity(fc_cuda_grid *g, size_t n, char *err, size_t errlen)
{
    size_t cap = 0;
    if (n <= g->capacity) return 0;
    cap = n + n / 2 + 64;
    cudaFree(g->d_key);
    cudaFree(g->d_order);
    cudaFree(g->d_unsorted_key);
    g->d_key = g->d_order = g->d_unsorted_key = NULL;
    g->capacity = 0;
    FC_CU(cudaMalloc((void **)&g->d_key, sizeof(uint32_t) * cap));
    FC_CU(cudaMalloc((void **)&g->d_order, sizeof(uint32_t) * cap));
    FC_CU(cudaMalloc((void **)&g->d_unsorted_key, sizeof(uint32_t) * cap));
    g->capacity = cap;
    return 0;
fail:
    cudaFree(g->d_key);
    cudaFree(g->d_order);
    cudaFree(g->d_unsorted_key);
    g->d_key = g->d_order = g->d_unsorted_key = NULL;
    return -1;
}

extern "C" int fc_cuda_grid_build(fc_cuda_grid *g, const float *d_x, const float *d_y, const float *d_z, size_t n,
                                  void *stream, char *err, size_t errlen)
{
    cudaStream_t s = (cudaStream_t)stream;
    size_t cells1 = 0;
    unsigned blocks = 0;
    if (!g || !g->d_cell_start || !g->d_count || !g->d_scan_tmp) {
        set_msg(err, errlen, "fc_cuda_grid_build: grid not initialised");
        return -1;
    }
    if (n > UINT32_MAX - 1) {
        set_msg(err, errlen, "fc_cuda_grid_build: too many particles for 32-bit indices");
        return -1;
    }
    if (n && (!d_x || !d_y || !d_z)) {
        set_msg(err, errlen, "fc_cuda_grid_build: null position array");
        return -1;
    }
    cells1 = (size_t)g->geom.ncells + 1;
    if (n == 0) { /* every cell empty; no kernel (a zero-block launch is an error) */
        FC_CU(cudaMemsetAsync(g->d_cell_start, 0, sizeof(uint32_t) * cells1, s));
        return 0;
    }
    if (ensure_capacity(g, n, err, errlen)) return -1;
    blocks = fc_cuda_blocks_for(n);

    /* 1-3. keys and counts; count[ncells] stays 0 so the exclusive scan ends with cell_start[ncells] = n */
    FC_CU(cudaMemsetAsync(g->d_count, 0, sizeof(uint32_t) * cells1, s));
    FC_LAUNCH(fc_k_keys, blocks, FC_CUDA_BLOCK, s, g->geom, d_x, d_y, d_z, n, g->d_unsorted_key, g->d_count);
    FC_CU(cudaGetLastError());
    FC_CU(cub::DeviceScan::ExclusiveSum(g->d_scan_tmp, g->scan_tmp_bytes, g->d_count, g->d_cell_start, (int)cells1, s));

    /* 4. scatter with the counts array reused as per-cell cursors */
    FC_CU(cudaMemcpyAsync(g->d_count, g->d_cell_start, sizeof(uint32_t) * g->geom.ncells, cudaMemcpyDeviceToDevice, s));
    FC_LAUNCH(fc_k_scatter, blocks, FC_CUDA_BLOCK, s, g->d_unsorted_key, n, g->d_count, g->d_order, g->d_key);
    FC_CU(cudaGetLastError());
    return 0;
fail:
    return -1;
}

/* Device copies of a host point cloud. */
struct dev_points {
    float *x, *y, *z;
};

static int upload_points(dev_points *p, const float *x, const float *y, const float *z, size_t n, char *err,
                         size_t errlen)
{
    size_t bytes = sizeof(float) * n;
    p->x = p->y = p->z = NULL;
    if (n == 0) return 0;
    FC_CU(cudaMalloc((void **)&p->x, bytes));
    FC_CU(cudaMalloc((void **)&p->y, bytes));
    FC_CU(cudaMalloc((void **)&p->z, bytes));
    FC_CU(cudaMemcpy(p->x, x, bytes, cudaMemcpyHostToDevice));
    FC_CU(cudaMemcpy(p->y, y, bytes, cudaMemcpyHostToDevice));
    FC_CU(cudaMemcpy(p->z, z, bytes, cudaMemcpyHostToDevice));
    return 0;
fail:
    cudaFree(p->x);
    cudaFree(p->y);
    cudaFree(p->z);
    p->x = p->y = p->z = NULL;
    return -1;
}

static void free_points(dev_points *p)
{
    cudaFree(p->x);
    cudaFree(p->y);
    cudaFree(p->z);
    p->x = p->y = p->z = NULL;
}

static int check_host_args(const fc_grid_geom *g, const float *x, const float *y, const float *z, size_t n,
                           char *err, size_t errlen)
{
    if (!g || (n && (!x || !y || !z))) {
        set_msg(err, errlen, "fc_cuda_grid: null argument");
        return -1;
    }
    if (n > UINT32_MAX - 1) {
        set_msg(err, errlen, "fc_cuda_grid: too many particles for 32-bit indices");
        return -1;
    }
    return 0;
}

extern "C" int fc_cuda_grid_sort_host(const fc_grid_geom *g, const float *x, const float *y, const float *z, size_t n,
                                      uint32_t *order, uint32_t *cell_start, char *err, size_t errlen)
{
    fc_cuda_grid cg;
    dev_points p = {NULL, NULL, NULL};
    int rc = -1;
    memset(&cg, 0, sizeof cg);
    if (check_host_args(g, x, y, z, n, err, errlen)) return -1;
    if (!cell_start || (n && !order)) {
        set_msg(err, errlen, "fc_cuda_grid_sort_host: null output array");
        return -1;
    }
    if (fc_cuda_grid_init(&cg, g, err, errlen)) goto fail;
    if (upload_points(&p, x, y, z, n, err, errlen)) goto fail;
    if (fc_cuda_grid_build(&cg, p.x, p.y, p.z, n, NULL, err, errlen)) goto fail;
    FC_CU(cudaStreamSynchronize(0)); /* reports faults of the kernels themselves */
    if (n) FC_CU(cudaMemcpy(order, cg.d_order, sizeof(uint32_t) * n, cudaMemcpyDeviceToHost));
    FC_CU(cudaMemcpy(cell_start, cg.d_cell_start, sizeof(uint32_t) * ((size_t)g->ncells + 1), cudaMemcpyDeviceToHost));
    rc = 0;
fail:
    free_points(&p);
    fc_cuda_grid_free(&cg);
    return rc;
}

extern "C" int fc_cuda_grid_time_build(const fc_grid_geom *g, const float *x, const float *y, const float *z, size_t n,
                                       int reps, double *ms, char *err, size_t errlen)
{
    fc_cuda_grid cg;
    dev_points p = {NULL, NULL, NULL};
    cudaEvent_t t0 = NULL, t1 = NULL;
    float total = 0.0f;
    int rc = -1;
    memset(&cg, 0, sizeof cg);
    if (check_host_args(g, x, y, z, n, err, errlen)) return -1;
    if (!ms || reps < 1) {
        set_msg(err, errlen, "fc_cuda_grid_time_build: need ms and reps >= 1");
        return -1;
    }
    if (fc_cuda_grid_init(&cg, g, err, errlen)) goto fail;
    if (upload_points(&p, x, y, z, n, err, errlen)) goto fail;
    FC_CU(cudaEventCreate(&t0));
    FC_CU(cudaEventCreate(&t1));
    if (fc_cuda_grid_build(&cg, p.x, p.y, p.z, n, NULL, err, errlen)) goto fail; /* warm-up, allocations */
    FC_CU(cudaEventRecord(t0, 0));
    for (int r = 0; r < reps; r++)
        if (fc_cuda_grid_build(&cg, p.x, p.y, p.z, n, NULL, err, errlen)) goto fail;
    FC_CU(cudaEventRecord(t1, 0));
    FC_CU(cudaEventSynchronize(t1));
    FC_CU(cudaEventElapsedTime(&total, t0, t1));
    *ms = (double)total / reps;
    rc = 0;
fail:
    if (t0) cudaEventDestroy(t0);
    if (t1) cudaEventDestroy(t1);
    free_points(&p);
    fc_cuda_grid_free(&cg);
    return rc;
}
