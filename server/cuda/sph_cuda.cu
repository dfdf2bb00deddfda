/* WCSPH on the device: density and pressure, accelerations, integration with collisions, one particle per thread. */
#include "cuda/device_internal.h"

/* The scratch columns WCSPH uses. */
enum { RP_OVER_RHO, R_OVER_RHO, AX, AY, AZ, HEAT_RATE, NORMAL_S, NORMAL_I = NORMAL_S + 4, LIST_X = NORMAL_I + 4, LIST_Y,
       LIST_Z, SHIFT_X, SHIFT_Y, SHIFT_Z };

/* Density (fc_sph_density_ratio over the fluid and boundary neighbours) and pressure
 * (fc_wcsph_pressure about the rest density at the particle's temperature, fc_heat_rest_density) of
 * every particle: rho into FC_DENSITY, r p / rho and r / rho for the force pass, and the neighbour
 * count. */
__global__ void fc_k_sph_density(size_t n, fc_cuda_lists lists, const uint8_t *__restrict__ fluid,
                                 const float *__restrict__ temperature, fc_sph_kernel k, fc_cuda_sph_setup setup,
                                 float *__restrict__ rho, float *__restrict__ rp_over_rho,
                                 float *__restrict__ r_over_rho, uint32_t *__restrict__ neighbours)
{
    const float *x = lists.lx, *y = lists.ly, *z = lists.lz;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float xi = x[i], yi = y[i], zi = z[i];
        float fluid_d3 = 0.0f, solid_d3 = 0.0f;
        uint32_t count = 0;
        lists.fluid(i, [&](uint32_t j) {
            const float dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
            float d3, grad;
            fc_sph_kernel_terms(&k, dx * dx + dy * dy + dz * dz, &d3, &grad);
            fluid_d3 += d3;
            count++;
        });
        lists.solid(i, [&](uint32_t b) {
            const float dx = xi - lists.bx[b], dy = yi - lists.by[b], dz = zi - lists.bz[b];
            float d3, grad;
            fc_sph_kernel_terms(&k, dx * dx + dy * dy + dz * dz, &d3, &grad);
            solid_d3 += lists.bvolume[b] * d3;
        });
        const int f = fluid[i];
        const float rest = setup.common.rest_density[f], density = rest * fc_sph_density_ratio(&k, fluid_d3, solid_d3);
        const fc_heat_terms *ht = &setup.common.heat;
        const float rest_now = ht->expands ? fc_heat_rest_density(ht, f, rest, temperature[i]) : rest;
        rho[i] = density;
        fc_wcsph_particle_terms(&setup.eos, f, density, rest_now, setup.forces.ratio[f], &r_over_rho[i], &rp_over_rho[i]);
        neighbours[i] = count;
    }
}

/* Every particle's acceleration (fc_wcsph_acceleration) from the pair terms of sph_terms.h, summed
 * over its fluid and boundary neighbours as solvers/sph.c sums them over its lists (the artificial
 * viscosity with rho_j from FC_DENSITY), and with heat conduction its dT/dt (fc_heat_pair,
 * fc_heat_rate) in the same pass; with tension its force (fc_cuda_tension_of) from the normals; the
 * contact's shift (fc_contact_pair) into sx, sy, sz. */
__global__ void fc_k_sph_accelerations(size_t n, fc_cuda_lists lists, const float *__restrict__ vx,
                                       const float *__restrict__ vy, const float *__restrict__ vz,
                                       const float *__restrict__ rho,
                                       const uint8_t *__restrict__ fluid, const float *__restrict__ temperature,
                                       fc_sph_kernel k, fc_cuda_sph_setup setup,
                                       const float *__restrict__ rp_over_rho, const float *__restrict__ r_over_rho,
                                       float *__restrict__ ax, float *__restrict__ ay, float *__restrict__ az,
                                       float *__restrict__ heat_rate, fc_cuda_normals normals,
                                       float *__restrict__ sx, float *__restrict__ sy, float *__restrict__ sz)
{
    const fc_wcsph_forces *t = &setup.forces;
    const fc_heat_terms *ht = &setup.common.heat;
    const float *x = lists.lx, *y = lists.ly, *z = lists.lz;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float xi = x[i], yi = y[i], zi = z[i], vxi = vx[i], vyi = vy[i], vzi = vz[i];
        const int f = fluid[i];
        const float r_over_rho_i = r_over_rho[i], p_i = rp_over_rho[i] / r_over_rho_i;
        float pressure[3] = {0.0f, 0.0f, 0.0f}, velocity[3] = {0.0f, 0.0f, 0.0f}, mixed[3] = {0.0f, 0.0f, 0.0f};
        float wall[3] = {0.0f, 0.0f, 0.0f}, conducted = 0.0f, artificial[3] = {0.0f, 0.0f, 0.0f};
        float shift[3] = {0.0f, 0.0f, 0.0f};
        const int damps = t->artificial > 0.0f;
        const float rho_i = damps ? rho[i] : 0.0f;
        const float ti = ht->conduction ? temperature[i] : 0.0f, ki = ht->conductivity[f];
        lists.fluid(i, [&](uint32_t j) {
            const float dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
            float inv_r;
            const float q = fc_sph_distance_terms(&k, dx * dx + dy * dy + dz * dz, &inv_r);
            const float pair = fc_wcsph_pressure_pair(p_i, r_over_rho[j], rp_over_rho[j], q, inv_r);
            pressure[0] += pair * dx, pressure[1] += pair * dy, pressure[2] += pair * dz;
            const float visc = fc_viscosity_pair(r_over_rho[j], q);
            velocity[0] += visc * (vx[j] - vxi), velocity[1] += visc * (vy[j] - vyi), velocity[2] += visc * (vz[j] - vzi);
            const float apart = fc_contact_pair(t, dx * dx + dy * dy + dz * dz, inv_r);
            shift[0] += apart * dx, shift[1] += apart * dy, shift[2] += apart * dz;
            if (t->mixed) { /* M_j = mu_j r_j / rho_j */
                const float m = fc_viscosity_weight(t->mu[fluid[j]], r_over_rho[j]);
                mixed[0] += fc_viscosity_mixed_pair(q, m * vx[j], m, vxi);
                mixed[1] += fc_viscosity_mixed_pair(q, m * vy[j], m, vyi);
                mixed[2] += fc_viscosity_mixed_pair(q, m * vz[j], m, vzi);
            }
            if (damps) {
                const float v_dot_x = (vxi - vx[j]) * dx + (vyi - vy[j]) * dy + (vzi - vz[j]) * dz;
                const float damp = fc_wcsph_artificial_pair(t, v_dot_x, dx * dx + dy * dy + dz * dz, rho_i, rho[j],
                                                            t->ratio[fluid[j]], q, inv_r);
                artificial[0] += damp * dx, artificial[1] += damp * dy, artificial[2] += damp * dz;
            }
            if (ht->conduction)
                conducted += fc_heat_pair(ht, ti, ki, r_over_rho[j], temperature[j], ht->conductivity[fluid[j]], q,
                                          dx * dx + dy * dy + dz * dz, inv_r);
        });
        if (p_i > 0.0f)
            lists.solid(i, [&](uint32_t b) {
                const float dx = xi - lists.bx[b], dy = yi - lists.by[b], dz = zi - lists.bz[b];
                float inv_r;
                const float q = fc_sph_distance_terms(&k, dx * dx + dy * dy + dz * dz, &inv_r);
                const float pair = fc_wcsph_boundary_pair(lists.bvolume[b], q, inv_r);
                wall[0] += pair * dx, wall[1] += pair * dy, wall[2] += pair * dz;
            });
        float a[3];
        fc_wcsph_acceleration(t, f, r_over_rho_i, p_i, pressure, velocity, t->mixed ? mixed : NULL,
                              damps ? artificial : NULL, wall, a);
        if (setup.common.tension.on)
            fc_cuda_tension_of(lists, setup.common.tension, x, y, z, r_over_rho, 0.0f, normals, i, f, a);
        ax[i] = a[0], ay[i] = a[1], az[i] = a[2];
        sx[i] = shift[0], sy[i] = shift[1], sz[i] = shift[2];
        if (ht->conduction) heat_rate[i] = fc_heat_rate(ht, f, r_over_rho_i / t->ratio[f], conducted);
    }
}

/* Semi-implicit Euler (v += a dt, x += v dt) and the contact's shift, forward Euler of the temperature with conduction
 * (heat_rate NULL without), and the collision response (fc_collide_point), as solvers/sph.c's
 * integrate and fc_collide_particles. */
__global__ void fc_k_sph_integrate(size_t n, float dt, const float *__restrict__ ax, const float *__restrict__ ay,
                                   const float *__restrict__ az, const float *__restrict__ sx,
                                   const float *__restrict__ sy, const float *__restrict__ sz,
                                   const float *__restrict__ heat_rate,
                                   const uint8_t *__restrict__ fluid, fc_heat_terms ht,
                                   float *__restrict__ x, float *__restrict__ y, float *__restrict__ z,
                                   float *__restrict__ vx, float *__restrict__ vy, float *__restrict__ vz,
                                   float *__restrict__ temperature, fc_collision c)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float a[3] = {ax[i], ay[i], az[i]};
        float v[3] = {vx[i], vy[i], vz[i]}, p[3] = {x[i], y[i], z[i]};
        fc_wcsph_integrate(a, dt, v, p);
        p[0] += sx[i], p[1] += sy[i], p[2] += sz[i];
        const float moved[3] = {p[0], p[1], p[2]};
        fc_collide_point(&c, p, v);
        x[i] = p[0], y[i] = p[1], z[i] = p[2];
        vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
        if (heat_rate) /* as solvers/sph.c: at the position before the collision response */
            temperature[i] = fc_contact_heat(&c, moved, ht.contact[fluid[i]], dt, temperature[i] + heat_rate[i] * dt);
    }
}

/* Sort into the grid by the positions, then density and pressure. */
static int sort_and_density(fc_cuda_family *s, const fc_cuda_sph_setup *setup, const fc_sph_kernel &k, char *err,
                            size_t errlen)
{
    const size_t n = s->store->particles.count;
    if (fc_cuda_family_sort(s, fc_cuda_column(s, FC_PX), fc_cuda_column(s, FC_PY), fc_cuda_column(s, FC_PZ), err, errlen))
        return -1;
    const fc_cuda_lists lists = fc_cuda_lists_of(s, k, fc_cuda_column(s, FC_PX), fc_cuda_column(s, FC_PY),
                                                 fc_cuda_column(s, FC_PZ));
    FC_LAUNCH(fc_k_sph_density, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->store->stream, n, lists, fc_cuda_fluid_column(s),
              fc_cuda_column(s, FC_TEMPERATURE), k, *setup, fc_cuda_column(s, FC_DENSITY), s->d_f[RP_OVER_RHO], s->d_f[R_OVER_RHO], s->d_neighbours);
    FC_CU(cudaGetLastError());
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_sph_density(fc_cuda_family *s, const fc_cuda_sph_setup *setup, char *err, size_t errlen)
{
    if (s->store->particles.count == 0) return 0;
    return sort_and_density(s, setup, fc_cuda_kernel_of(&setup->common), err, errlen);
}

extern "C" int fc_cuda_sph_step(fc_cuda_family *s, const fc_cuda_sph_setup *setup, float dt, char *err, size_t errlen)
{
    const size_t n = s->store->particles.count;
    const unsigned blocks = fc_cuda_blocks_for(n);
    const fc_sph_kernel k = fc_cuda_kernel_of(&setup->common);
    fc_collision c;
    if (n == 0) return 0;
    if (fc_cuda_device_collision(s->store, &setup->common.collision, &c, err, errlen) || sort_and_density(s, setup, k, err, errlen))
        return -1;
    {
        const fc_cuda_lists lists = fc_cuda_lists_of(s, k, fc_cuda_column(s, FC_PX), fc_cuda_column(s, FC_PY),
                                                     fc_cuda_column(s, FC_PZ));
        fc_cuda_normals normals;
        for (int c = 0; c < 4; c++) normals.s[c] = s->d_f[NORMAL_S + c], normals.i[c] = s->d_f[NORMAL_I + c];
        if (setup->common.tension.on &&
            fc_cuda_tension_normals(s, lists, setup->common.tension, fc_cuda_column(s, FC_PX), fc_cuda_column(s, FC_PY),
                                    fc_cuda_column(s, FC_PZ), s->d_f[R_OVER_RHO], 0.0f, normals, err, errlen))
            return -1;
        FC_LAUNCH(fc_k_sph_accelerations, blocks, FC_CUDA_BLOCK, s->store->stream, n, lists, fc_cuda_column(s, FC_VX),
                  fc_cuda_column(s, FC_VY), fc_cuda_column(s, FC_VZ), fc_cuda_column(s, FC_DENSITY),
                  fc_cuda_fluid_column(s), fc_cuda_column(s, FC_TEMPERATURE), k, *setup, s->d_f[RP_OVER_RHO], s->d_f[R_OVER_RHO], s->d_f[AX],
                  s->d_f[AY], s->d_f[AZ], s->d_f[HEAT_RATE], normals, s->d_f[SHIFT_X], s->d_f[SHIFT_Y],
                  s->d_f[SHIFT_Z]);
    }
    FC_CU(cudaGetLastError());
    s->d_list_at[0] = s->d_list_at[1] = s->d_list_at[2] = NULL;
    if (setup->common.air) { /* the trapped air's pass after the step reads the lists as the CPU's: at these */
        for (int a = 0; a < 3; a++) {
            FC_CU(cudaMemcpyAsync(s->d_f[LIST_X + a], fc_cuda_column(s, FC_PX + a), n * sizeof(float),
                                  cudaMemcpyDeviceToDevice, s->store->stream));
            s->d_list_at[a] = s->d_f[LIST_X + a];
        }
    }
    FC_LAUNCH(fc_k_sph_integrate, blocks, FC_CUDA_BLOCK, s->store->stream, n, dt, s->d_f[AX], s->d_f[AY], s->d_f[AZ],
              s->d_f[SHIFT_X], s->d_f[SHIFT_Y], s->d_f[SHIFT_Z],
              setup->common.heat.conduction ? s->d_f[HEAT_RATE] : NULL, fc_cuda_fluid_column(s), setup->common.heat,
              fc_cuda_column(s, FC_PX),
              fc_cuda_column(s, FC_PY), fc_cuda_column(s, FC_PZ), fc_cuda_column(s, FC_VX), fc_cuda_column(s, FC_VY),
              fc_cuda_column(s, FC_VZ), fc_cuda_column(s, FC_TEMPERATURE), c);
    FC_CU(cudaGetLastError());
    /* a step ends on the device before the call returns: step times are device times, and a
     * failed kernel fails its own step */
    FC_CU(cudaStreamSynchronize(s->store->stream));
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_sph_max_acceleration2(fc_cuda_family *s, float *out, char *err, size_t errlen)
{
    *out = 0.0f;
    if (s->scratch_capacity < s->store->particles.count) return 0; /* no step yet */
    return fc_cuda_max_norm2(s->store, s->d_f[AX], s->d_f[AY], s->d_f[AZ], out, err, errlen);
}
