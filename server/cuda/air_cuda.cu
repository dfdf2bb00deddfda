/* Trapped air on the device after a step (sph_device.h; solvers/air.c is the CPU's twin, the rules
 * are sph_terms.h's fc_air_*): one thread per particle sums grad c^p and grad c^s over its
 * neighbours at the positions now, marks the air carried under (`submerged`) and gives it its
 * artificial buoyancy, flags the air that goes and marks where new air is made; the new air is
 * appended on the device (fc_device_store_spawn), never through the host. */
#include "cuda/device_internal.h"

/* The family's scratch columns the air uses after a step (the step's are no longer read then). */
enum { AIR_MARK = FC_CUDA_SCRATCH - 4, AIR_OX, AIR_OY, AIR_OZ };

__global__ void fc_k_air_mark(size_t n, fc_cuda_lists lists, fc_air_terms t, float dt, const uint8_t *__restrict__ fluid,
                              const float *__restrict__ x, const float *__restrict__ y, const float *__restrict__ z,
                              const float *__restrict__ density, float *__restrict__ vx, float *__restrict__ vy,
                              float *__restrict__ vz, uint8_t *__restrict__ flags, uint8_t *__restrict__ submerged,
                              uint32_t *__restrict__ mark,
                              float *__restrict__ ox, float *__restrict__ oy, float *__restrict__ oz,
                              unsigned *__restrict__ counts)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += (size_t)gridDim.x * blockDim.x) {
        if (i == n) { /* the scan's last entry */
            mark[n] = 0;
            continue;
        }
        const int f = fluid[i];
        float gp[3] = {0.0f, 0.0f, 0.0f}, gs[3] = {0.0f, 0.0f, 0.0f}, spawn[3] = {0.0f, 0.0f, 0.0f};
        float mass[2] = {0.0f, 0.0f};
        lists.fluid(i, [&](uint32_t j) {
            const float x_ij[3] = {x[i] - x[j], y[i] - y[j], z[i] - z[j]};
            const float r2 = x_ij[0] * x_ij[0] + x_ij[1] * x_ij[1] + x_ij[2] * x_ij[2];
            const float w_j = density[j] > 0.0f ? t.ratio[fluid[j]] / density[j] : 0.0f;
            fc_air_pair(&t, w_j, t.liquid[fluid[j]], t.ratio[fluid[j]], r2, x_ij, gp, gs, mass);
        });
        int near_solid = 0;
        lists.solid(i, [&](uint32_t) { near_solid = 1; });
        unsigned char sub = submerged[i];
        int decision = fc_air_decide(&t, f, density[i], near_solid, gp, gs, spawn, &sub);
        submerged[i] = sub;
        if (decision == FC_AIR_SPAWN) {
            const float point[3] = {x[i] + spawn[0], y[i] + spawn[1], z[i] + spawn[2]};
            const float own[3] = {-spawn[0], -spawn[1], -spawn[2]};
            float cp = 0.0f;
            int taken = 0;
            fc_air_point_taken(&t, own, density[i] > 0.0f ? t.ratio[f] / density[i] : 0.0f, &cp);
            lists.fluid(i, [&](uint32_t j) {
                const float dx[3] = {x[j] - point[0], y[j] - point[1], z[j] - point[2]};
                const float w_j = density[j] > 0.0f ? t.ratio[fluid[j]] / density[j] : 0.0f;
                taken |= fc_air_point_taken(&t, dx, w_j, &cp);
            });
            if (taken || !fc_air_point_outside(&t, cp)) decision = FC_AIR_STAY;
        }
        mark[i] = decision == FC_AIR_SPAWN;
        ox[i] = spawn[0], oy[i] = spawn[1], oz[i] = spawn[2];
        flags[i] = decision == FC_AIR_REMOVE ? FC_FLAG_REMOVE : 0;
        if (t.liquid[f] == 0.0f) {
            float v[3] = {vx[i], vy[i], vz[i]};
            fc_air_buoyancy(&t, f, sub, fc_air_mass_density(&t, f, density[i], mass), dt, v);
            vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
            atomicAdd(&counts[0], 1u);
            if (decision == FC_AIR_REMOVE) atomicAdd(&counts[1], 1u);
        }
        if (decision == FC_AIR_SPAWN) atomicAdd(&counts[2], 1u);
    }
}

extern "C" int fc_cuda_air_mark(fc_cuda_family *d, const fc_cuda_setup *setup, const fc_air_terms *t, float dt,
                                uint32_t counts[3], char *err, size_t errlen)
{
    const fc_sph_kernel k = fc_cuda_kernel_of(setup); /* made on this side: fc_fv is a float here */
    fc_device_store *s = d->store;
    const size_t n = s->particles.count;
    unsigned sums[3] = {0, 0, 0};
    counts[0] = counts[1] = counts[2] = 0;
    if (n == 0) return 0;
    if (fc_cuda_reserve_scratch(d, n, err, errlen)) return -1;
    {
        const float *x = fc_cuda_column(d, FC_PX), *y = fc_cuda_column(d, FC_PY), *z = fc_cuda_column(d, FC_PZ);
        /* membership as the step's lists (the CPU's), the terms at the positions now */
        const fc_cuda_lists lists = d->d_list_at[0] ? fc_cuda_lists_of(d, k, d->d_list_at[0], d->d_list_at[1], d->d_list_at[2])
                                                    : fc_cuda_lists_of(d, k, x, y, z);
        FC_CU(cudaMemsetAsync(d->d_counts, 0, 3 * sizeof(unsigned), s->stream));
        FC_LAUNCH(fc_k_air_mark, fc_cuda_blocks_for(n + 1), FC_CUDA_BLOCK, s->stream, n, lists, *t, dt,
                  fc_cuda_fluid_column(d), x, y, z, fc_cuda_column(d, FC_DENSITY), fc_cuda_column(d, FC_VX),
                  fc_cuda_column(d, FC_VY), fc_cuda_column(d, FC_VZ), (uint8_t *)s->particles.d_column[FC_FLAGS],
                  (uint8_t *)s->particles.d_column[FC_SUBMERGED],
                  (uint32_t *)d->d_f[AIR_MARK], d->d_f[AIR_OX], d->d_f[AIR_OY], d->d_f[AIR_OZ], d->d_counts);
        FC_CU(cudaGetLastError());
        FC_CU(cudaMemcpyAsync(sums, d->d_counts, sizeof sums, cudaMemcpyDeviceToHost, s->stream));
        FC_CU(cudaStreamSynchronize(s->stream));
    }
    counts[0] = sums[0], counts[1] = sums[1], counts[2] = sums[2];
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_air_spawn(fc_cuda_family *d, size_t limit, const fc_emission *tpl, size_t *spawned, char *err,
                                 size_t errlen)
{
    unsigned char inherit[FC_COLUMN_COUNT] = {0};
    inherit[FC_TEMPERATURE] = 1;
    const float *const offset[3] = {d->d_f[AIR_OX], d->d_f[AIR_OY], d->d_f[AIR_OZ]};
    return fc_device_store_spawn(d->store, (const uint32_t *)d->d_f[AIR_MARK], offset, limit, tpl, inherit, spawned, err,
                                 errlen);
}
