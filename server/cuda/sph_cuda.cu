/* WCSPH on the device: density and pressure, accelerations, integration with collisions, one particle per thread. */
#include "cuda/sph_cuda.h"

#include "cuda/grid_cuda.h"
#include "cuda/particles_cuda.h"
#include "cuda/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fc_cuda_sph {
    cudaStream_t stream;
    fc_grid_geom geom;
    fc_cuda_grid grid;           /* the particles' grid, rebuilt every pass */
    fc_cuda_particles particles; /* every registry column and the ids */
    /* boundary particles, sorted by cell, and their cell_start */
    float *d_bx, *d_by, *d_bz, *d_bvolume;
    uint32_t *d_bcell_start;
    size_t boundary_count, boundary_capacity;
    /* per particle: r_i p_i / rho_i and r_i / rho_i (r_i = m_i / m_0), the acceleration, the
     * neighbours within h */
    float *d_rp_over_rho, *d_r_over_rho, *d_ax, *d_ay, *d_az;
    uint32_t *d_neighbours;
    size_t scratch_capacity;
    fc_shape *d_colliders;
    size_t collider_capacity;
    unsigned *d_max; /* one word for reductions */
};

namespace {

void set_msg(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

/* The columns of the registry as typed device arrays. */
float *column(fc_cuda_sph *s, int c) { return (float *)s->particles.d_column[c]; }
const uint8_t *fluid_column(fc_cuda_sph *s) { return (const uint8_t *)s->particles.d_column[FC_FLUID]; }

} // namespace

/* Calls visit(j) for every point j of the grid with cell_start in the nine bars around cell `key`
 * (core/grid.h's bars, the CPU's): the candidates of a neighbourhood. */
template <class Visit>
__device__ inline void fc_for_each_candidate(const fc_grid_geom &g, uint32_t key, const uint32_t *cell_start, Visit visit)
{
    fc_bar bars[9];
    const int nbars = fc_grid_bars(&g, key, bars);
    for (int b = 0; b < nbars; b++)
        for (uint32_t j = cell_start[bars[b].first], end = cell_start[bars[b].last + 1]; j < end; j++) visit(j);
}

/* Density (fc_sph_density_ratio over the fluid and boundary neighbours) and pressure
 * (fc_wcsph_pressure) of every particle: rho into FC_DENSITY, r p / rho and r / rho for the force
 * pass, and the neighbour count. */
__global__ void fc_k_sph_density(fc_grid_geom g, const uint32_t *__restrict__ key, const uint32_t *__restrict__ cell_start,
                                 const float *__restrict__ x, const float *__restrict__ y, const float *__restrict__ z,
                                 const uint8_t *__restrict__ fluid, size_t n, const uint32_t *__restrict__ bcell_start,
                                 const float *__restrict__ bx, const float *__restrict__ by, const float *__restrict__ bz,
                                 const float *__restrict__ bvolume, fc_sph_kernel k, fc_cuda_sph_setup setup,
                                 float *__restrict__ rho, float *__restrict__ rp_over_rho, float *__restrict__ r_over_rho,
                                 uint32_t *__restrict__ neighbours)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float xi = x[i], yi = y[i], zi = z[i];
        float fluid_d3 = 0.0f, solid_d3 = 0.0f;
        uint32_t count = 0;
        fc_for_each_candidate(g, key[i], cell_start, [&](uint32_t j) {
            const float dx = xi - x[j], dy = yi - y[j], dz = zi - z[j], r2 = dx * dx + dy * dy + dz * dz;
            if (j == i || !(r2 < k.h2)) return;
            float d3, grad;
            fc_sph_kernel_terms(&k, r2, &d3, &grad);
            fluid_d3 += d3;
            count++;
        });
        fc_for_each_candidate(g, key[i], bcell_start, [&](uint32_t b) {
            const float dx = xi - bx[b], dy = yi - by[b], dz = zi - bz[b], r2 = dx * dx + dy * dy + dz * dz;
            float d3, grad;
            fc_sph_kernel_terms(&k, r2, &d3, &grad);
            solid_d3 += bvolume[b] * d3;
        });
        const int f = fluid[i];
        const float rest = setup.rest_density[f], density = rest * fc_sph_density_ratio(&k, fluid_d3, solid_d3);
        const float r_over = setup.forces.ratio[f] / density;
        rho[i] = density;
        r_over_rho[i] = r_over;
        rp_over_rho[i] = fc_wcsph_pressure(&setup.eos, f, density, rest) * r_over;
        neighbours[i] = count;
    }
}

/* Every particle's acceleration (fc_wcsph_acceleration) from the pair terms of sph_terms.h, summed
 * over its fluid and boundary neighbours as solvers/sph.c sums them over its lists. */
__global__ void fc_k_sph_accelerations(fc_grid_geom g, const uint32_t *__restrict__ key,
                                       const uint32_t *__restrict__ cell_start, const float *__restrict__ x,
                                       const float *__restrict__ y, const float *__restrict__ z,
                                       const float *__restrict__ vx, const float *__restrict__ vy,
                                       const float *__restrict__ vz, const uint8_t *__restrict__ fluid, size_t n,
                                       const uint32_t *__restrict__ bcell_start, const float *__restrict__ bx,
                                       const float *__restrict__ by, const float *__restrict__ bz,
                                       const float *__restrict__ bvolume, fc_sph_kernel k, fc_cuda_sph_setup setup,
                                       const float *__restrict__ rp_over_rho, const float *__restrict__ r_over_rho,
                                       float *__restrict__ ax, float *__restrict__ ay, float *__restrict__ az)
{
    const fc_wcsph_forces *t = &setup.forces;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float xi = x[i], yi = y[i], zi = z[i], vxi = vx[i], vyi = vy[i], vzi = vz[i];
        const int f = fluid[i];
        const float r_over_rho_i = r_over_rho[i], p_i = rp_over_rho[i] / r_over_rho_i;
        float pressure[3] = {0.0f, 0.0f, 0.0f}, velocity[3] = {0.0f, 0.0f, 0.0f}, mixed[3] = {0.0f, 0.0f, 0.0f};
        float wall[3] = {0.0f, 0.0f, 0.0f};
        fc_for_each_candidate(g, key[i], cell_start, [&](uint32_t j) {
            const float dx = xi - x[j], dy = yi - y[j], dz = zi - z[j], r2 = dx * dx + dy * dy + dz * dz;
            if (j == i || !(r2 < k.h2)) return;
            float inv_r;
            const float q = fc_sph_distance_terms(&k, r2, &inv_r);
            const float pair = fc_wcsph_pressure_pair(p_i, r_over_rho[j], rp_over_rho[j], q, inv_r);
            pressure[0] += pair * dx, pressure[1] += pair * dy, pressure[2] += pair * dz;
            const float visc = fc_wcsph_viscosity_pair(r_over_rho[j], q);
            velocity[0] += visc * (vx[j] - vxi), velocity[1] += visc * (vy[j] - vyi), velocity[2] += visc * (vz[j] - vzi);
            if (t->mixed) { /* M_j = mu_j r_j / rho_j */
                const float m = t->mu[fluid[j]] * r_over_rho[j];
                mixed[0] += fc_wcsph_mixed_pair(q, m * vx[j], m, vxi);
                mixed[1] += fc_wcsph_mixed_pair(q, m * vy[j], m, vyi);
                mixed[2] += fc_wcsph_mixed_pair(q, m * vz[j], m, vzi);
            }
        });
        if (p_i > 0.0f)
            fc_for_each_candidate(g, key[i], bcell_start, [&](uint32_t b) {
                const float dx = xi - bx[b], dy = yi - by[b], dz = zi - bz[b], r2 = dx * dx + dy * dy + dz * dz;
                if (!(r2 < k.h2)) return;
                float inv_r;
                const float q = fc_sph_distance_terms(&k, r2, &inv_r);
                const float pair = fc_wcsph_boundary_pair(bvolume[b], q, inv_r);
                wall[0] += pair * dx, wall[1] += pair * dy, wall[2] += pair * dz;
            });
        float a[3];
        fc_wcsph_acceleration(t, f, r_over_rho_i, p_i, pressure, velocity, t->mixed ? mixed : NULL, wall, a);
        ax[i] = a[0], ay[i] = a[1], az[i] = a[2];
    }
}

/* Semi-implicit Euler (v += a dt, x += v dt) and the collision response (fc_collide_point), as
 * solvers/sph.c's integrate and fc_collide_particles. */
__global__ void fc_k_sph_integrate(size_t n, float dt, const float *__restrict__ ax, const float *__restrict__ ay,
                                   const float *__restrict__ az, float *__restrict__ x, float *__restrict__ y,
                                   float *__restrict__ z, float *__restrict__ vx, float *__restrict__ vy,
                                   float *__restrict__ vz, fc_collision c)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float v[3] = {vx[i] + ax[i] * dt, vy[i] + ay[i] * dt, vz[i] + az[i] * dt};
        float p[3] = {x[i] + v[0] * dt, y[i] + v[1] * dt, z[i] + v[2] * dt};
        fc_collide_point(&c, p, v);
        x[i] = p[0], y[i] = p[1], z[i] = p[2];
        vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
    }
}

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

/* A sum of per-particle counts into one word (the count of pairs stays far below 2^32 per pass). */
__global__ void fc_k_sum_counts(size_t n, const uint32_t *__restrict__ counts, unsigned *__restrict__ out)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        atomicAdd(out, counts[i]);
}

extern "C" void fc_cuda_sph_destroy(fc_cuda_sph *s)
{
    if (!s) return;
    fc_cuda_grid_free(&s->grid);
    fc_cuda_particles_free(&s->particles);
    void *arrays[] = {s->d_bx, s->d_by, s->d_bz, s->d_bvolume, s->d_bcell_start, s->d_rp_over_rho, s->d_r_over_rho,
                      s->d_ax, s->d_ay, s->d_az, s->d_neighbours, s->d_colliders, s->d_max};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) cudaFree(arrays[a]);
    if (s->stream) cudaStreamDestroy(s->stream);
    free(s);
}

extern "C" fc_cuda_sph *fc_cuda_sph_create(const fc_grid_geom *geom, char *err, size_t errlen)
{
    fc_cuda_sph *s = (fc_cuda_sph *)calloc(1, sizeof *s);
    if (!s) {
        set_msg(err, errlen, "fc_cuda_sph_create: out of host memory");
        return NULL;
    }
    s->geom = *geom;
    FC_CU(cudaStreamCreate(&s->stream));
    if (fc_cuda_grid_init(&s->grid, geom, err, errlen)) goto fail;
    FC_CU(cudaMalloc((void **)&s->d_bcell_start, sizeof(uint32_t) * ((size_t)geom->ncells + 1)));
    FC_CU(cudaMemsetAsync(s->d_bcell_start, 0, sizeof(uint32_t) * ((size_t)geom->ncells + 1), s->stream));
    FC_CU(cudaMalloc((void **)&s->d_max, sizeof(unsigned)));
    return s;
fail:
    fc_cuda_sph_destroy(s);
    return NULL;
}

extern "C" size_t fc_cuda_sph_count(const fc_cuda_sph *s) { return s->particles.count; }

/* Room for n particles in the scratch arrays (contents not kept). */
static int reserve_scratch(fc_cuda_sph *s, size_t n, char *err, size_t errlen)
{
    if (n <= s->scratch_capacity) return 0;
    const size_t cap = n + n / 4 + 64;
    float **floats[] = {&s->d_rp_over_rho, &s->d_r_over_rho, &s->d_ax, &s->d_ay, &s->d_az};
    for (size_t a = 0; a < sizeof floats / sizeof floats[0]; a++) {
        cudaFree(*floats[a]);
        *floats[a] = NULL;
    }
    cudaFree(s->d_neighbours);
    s->d_neighbours = NULL;
    s->scratch_capacity = 0;
    for (size_t a = 0; a < sizeof floats / sizeof floats[0]; a++)
        FC_CU(cudaMalloc((void **)floats[a], cap * sizeof(float)));
    FC_CU(cudaMalloc((void **)&s->d_neighbours, cap * sizeof(uint32_t)));
    FC_CU(cudaMemsetAsync(s->d_neighbours, 0, cap * sizeof(uint32_t), s->stream));
    s->scratch_capacity = cap;
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_sph_upload(fc_cuda_sph *s, const fc_particles *p, size_t from, char *err, size_t errlen)
{
    if (cudaStreamSynchronize(s->stream) != cudaSuccess) {
        set_msg(err, errlen, "fc_cuda_sph_upload: the device failed in an earlier step");
        return -1;
    }
    if (from == 0 || from != s->particles.count || p->count < from) {
        if (fc_cuda_particles_upload(&s->particles, p, err, errlen)) return -1;
    } else if (fc_cuda_particles_append(&s->particles, p, from, err, errlen)) {
        return -1;
    }
    return reserve_scratch(s, p->count, err, errlen);
}

extern "C" int fc_cuda_sph_download(const fc_cuda_sph *s, fc_particles *p, char *err, size_t errlen)
{
    if (cudaStreamSynchronize(s->stream) != cudaSuccess) {
        set_msg(err, errlen, "fc_cuda_sph_download: the device failed in an earlier step");
        return -1;
    }
    return fc_cuda_particles_download(&s->particles, p, err, errlen);
}

extern "C" int fc_cuda_sph_set_boundary(fc_cuda_sph *s, size_t count, const float *x, const float *y, const float *z,
                                        const float *volume, const uint32_t *cell_start, char *err, size_t errlen)
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

/* The kernel constants on the device's side of sph_terms.h (fc_f8 is a float here). */
static fc_sph_kernel kernel_of(const fc_cuda_sph_setup *setup)
{
    fc_sph_kernel k;
    fc_sph_kernel_make(&k, setup->h, setup->dimensions, setup->volume, setup->initial_sum);
    return k;
}

/* Sort into the grid (device grid build and reorder), then density and pressure. */
static int sort_and_density(fc_cuda_sph *s, const fc_cuda_sph_setup *setup, char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    if (n == 0) return 0;
    if (reserve_scratch(s, n, err, errlen)) return -1;
    if (fc_cuda_grid_build(&s->grid, column(s, FC_PX), column(s, FC_PY), column(s, FC_PZ), n, s->stream, err, errlen) ||
        fc_cuda_particles_permute(&s->particles, s->grid.d_order, s->stream, err, errlen))
        return -1;
    const fc_sph_kernel k = kernel_of(setup);
    FC_LAUNCH(fc_k_sph_density, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->stream, s->geom, s->grid.d_key,
              s->grid.d_cell_start, column(s, FC_PX), column(s, FC_PY), column(s, FC_PZ), fluid_column(s), n,
              s->d_bcell_start, s->d_bx, s->d_by, s->d_bz, s->d_bvolume, k, *setup, column(s, FC_DENSITY),
              s->d_rp_over_rho, s->d_r_over_rho, s->d_neighbours);
    FC_CU(cudaGetLastError());
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_sph_density(fc_cuda_sph *s, const fc_cuda_sph_setup *setup, char *err, size_t errlen)
{
    return sort_and_density(s, setup, err, errlen);
}

/* The setup's collision with its colliders copied to the device. */
static int device_collision(fc_cuda_sph *s, const fc_cuda_sph_setup *setup, fc_collision *c, char *err, size_t errlen)
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

extern "C" int fc_cuda_sph_step(fc_cuda_sph *s, const fc_cuda_sph_setup *setup, float dt, char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    const unsigned blocks = fc_cuda_blocks_for(n);
    const fc_sph_kernel k = kernel_of(setup);
    fc_collision c;
    if (n == 0) return 0;
    if (device_collision(s, setup, &c, err, errlen) || sort_and_density(s, setup, err, errlen)) return -1;
    FC_LAUNCH(fc_k_sph_accelerations, blocks, FC_CUDA_BLOCK, s->stream, s->geom, s->grid.d_key, s->grid.d_cell_start,
              column(s, FC_PX), column(s, FC_PY), column(s, FC_PZ), column(s, FC_VX), column(s, FC_VY),
              column(s, FC_VZ), fluid_column(s), n, s->d_bcell_start, s->d_bx, s->d_by, s->d_bz, s->d_bvolume, k,
              *setup, s->d_rp_over_rho, s->d_r_over_rho, s->d_ax, s->d_ay, s->d_az);
    FC_CU(cudaGetLastError());
    FC_LAUNCH(fc_k_sph_integrate, blocks, FC_CUDA_BLOCK, s->stream, n, dt, s->d_ax, s->d_ay, s->d_az, column(s, FC_PX),
              column(s, FC_PY), column(s, FC_PZ), column(s, FC_VX), column(s, FC_VY), column(s, FC_VZ), c);
    FC_CU(cudaGetLastError());
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_sph_max_speed2(fc_cuda_sph *s, float *out, char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    unsigned bits = 0;
    *out = 0.0f;
    if (n == 0) return 0;
    FC_CU(cudaMemsetAsync(s->d_max, 0, sizeof(unsigned), s->stream));
    FC_LAUNCH(fc_k_max_speed2, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->stream, n, column(s, FC_VX), column(s, FC_VY),
              column(s, FC_VZ), s->d_max);
    FC_CU(cudaGetLastError());
    FC_CU(cudaMemcpyAsync(&bits, s->d_max, sizeof bits, cudaMemcpyDeviceToHost, s->stream));
    FC_CU(cudaStreamSynchronize(s->stream));
    memcpy(out, &bits, sizeof *out);
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_sph_mean_neighbours(fc_cuda_sph *s, double *out, char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    unsigned total = 0;
    *out = 0.0;
    if (n == 0 || n > s->scratch_capacity) return 0;
    FC_CU(cudaMemsetAsync(s->d_max, 0, sizeof(unsigned), s->stream));
    FC_LAUNCH(fc_k_sum_counts, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->stream, n, s->d_neighbours, s->d_max);
    FC_CU(cudaGetLastError());
    FC_CU(cudaMemcpyAsync(&total, s->d_max, sizeof total, cudaMemcpyDeviceToHost, s->stream));
    FC_CU(cudaStreamSynchronize(s->stream));
    *out = (double)total / (double)n;
    return 0;
fail:
    return -1;
}
