/* Position Based Fluids on the device (Macklin and Mueller 2013, Algorithm 1, as solvers/pbf.c steps it), one particle per thread. */
#include "cuda/device_internal.h"

/* The scratch columns PBF uses: predicted positions in the particles' order (P), the same sorted
 * (Q: the positions the lists were found at), x* of this iteration (X) and the next (N), lambda,
 * the boundary part of grad C (B), vorticity (W, |W|) and the XSPH change (U). */
enum { PX, PY, PZ, QX, QY, QZ, XX, XY, XZ, NX, NY, NZ, LAMBDA, BX, BY, BZ, WX, WY, WZ, WN, UX, UY, UZ, HEAT_RATE,
       NORMAL_S, NORMAL_I = NORMAL_S + 4 };

/* Algorithm 1 lines 1-4: v += dt g, x* = x + dt v kept inside the container and out of colliders. */
__global__ void fc_k_pbf_predict(size_t n, float dt, fc_cuda_setup setup, fc_collision c, const float *__restrict__ x,
                                 const float *__restrict__ y, const float *__restrict__ z, float *__restrict__ vx,
                                 float *__restrict__ vy, float *__restrict__ vz, float *__restrict__ px,
                                 float *__restrict__ py, float *__restrict__ pz)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float at[3] = {x[i], y[i], z[i]};
        float v[3] = {vx[i], vy[i], vz[i]}, predicted[3];
        fc_pbf_predict(setup.gravity, dt, at, v, predicted);
        vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
        if (fc_collision_possible(&c, predicted)) fc_collide_point(&c, predicted, NULL);
        px[i] = predicted[0], py[i] = predicted[1], pz[i] = predicted[2];
    }
}

/* lambda_i (fc_pbf_lambda, at the particle's expansion, with the inverse masses w when the fluids
 * differ in mass) at the positions X, and the boundary part of grad C_i. */
__global__ void fc_k_pbf_lambda(size_t n, fc_cuda_lists lists, fc_pbf_constants c, fc_heat_terms ht,
                                const uint8_t *__restrict__ fluid, const float *__restrict__ temperature,
                                const float *__restrict__ x, const float *__restrict__ y, const float *__restrict__ z,
                                float *__restrict__ lambda, float *__restrict__ bx, float *__restrict__ by,
                                float *__restrict__ bz)
{
    const fc_sph_kernel *k = &c.kernel;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float xi = x[i], yi = y[i], zi = z[i];
        float fluid_d3 = 0.0f, grad[3] = {0.0f, 0.0f, 0.0f}, gradients2 = 0.0f, solid_d3 = 0.0f;
        float walls[3] = {0.0f, 0.0f, 0.0f};
        lists.fluid(i, [&](uint32_t j) {
            const float dx = xi - x[j], dy = yi - y[j], dz = zi - z[j], r2 = dx * dx + dy * dy + dz * dz;
            float d3, g;
            fc_sph_kernel_terms(k, r2, &d3, &g);
            fluid_d3 += d3;
            grad[0] += g * dx, grad[1] += g * dy, grad[2] += g * dz;
            gradients2 += c.inverse_mass[fluid[j]] * g * g * r2; /* w_j |grad W_ij|^2 */
        });
        lists.solid(i, [&](uint32_t b) {
            const float dx = xi - lists.bx[b], dy = yi - lists.by[b], dz = zi - lists.bz[b];
            const float volume = lists.bvolume[b];
            float d3, g;
            fc_sph_kernel_terms(k, dx * dx + dy * dy + dz * dz, &d3, &g);
            solid_d3 += volume * d3;
            walls[0] += volume * g * dx, walls[1] += volume * g * dy, walls[2] += volume * g * dz;
        });
        float boundary_gradient[3];
        const float expansion = ht.expands ? fc_heat_expansion(&ht, fluid[i], temperature[i]) : 1.0f;
        lambda[i] = fc_pbf_lambda(&c, fluid_d3, grad, gradients2, solid_d3, walls, expansion, c.inverse_mass[fluid[i]],
                                  c.gas[fluid[i]], boundary_gradient);
        bx[i] = boundary_gradient[0], by[i] = boundary_gradient[1], bz[i] = boundary_gradient[2];
    }
}

/* X + delta p_i (fc_pbf_corrected), pushed out of solids, into N (Jacobi: all read X and lambda). */
__global__ void fc_k_pbf_correct(size_t n, fc_cuda_lists lists, fc_pbf_constants c, fc_collision col,
                                 const uint8_t *__restrict__ fluid, const float *__restrict__ x,
                                 const float *__restrict__ y, const float *__restrict__ z,
                                 const float *__restrict__ lambda, const float *__restrict__ bx,
                                 const float *__restrict__ by, const float *__restrict__ bz, float *__restrict__ nx,
                                 float *__restrict__ ny, float *__restrict__ nz)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float xi = x[i], yi = y[i], zi = z[i], lambda_i = lambda[i], w_i = c.inverse_mass[fluid[i]];
        float sum[3] = {0.0f, 0.0f, 0.0f};
        lists.fluid(i, [&](uint32_t j) {
            const float dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
            float d3, g;
            fc_sph_kernel_terms(&c.kernel, dx * dx + dy * dy + dz * dz, &d3, &g);
            const float weight = fc_pbf_correction_weight(&c, lambda_i, lambda[j], d3, g, c.scorr_n,
                                                          fc_pbf_pair_mass(w_i, c.inverse_mass[fluid[j]]));
            sum[0] += weight * dx, sum[1] += weight * dy, sum[2] += weight * dz;
        });
        const float at[3] = {xi, yi, zi}, boundary_gradient[3] = {bx[i], by[i], bz[i]};
        float next[3];
        fc_pbf_corrected(&c, at, lambda_i, w_i, sum, boundary_gradient, next);
        if (fc_collision_possible(&col, next)) fc_collide_point(&col, next, NULL);
        nx[i] = next[0], ny[i] = next[1], nz[i] = next[2];
    }
}

/* Line 24: v = (x* - x) / dt, the velocity response at contacts, x = x*. */
__global__ void fc_k_pbf_velocity(size_t n, float inv_dt, fc_collision col, const float *__restrict__ px,
                                  const float *__restrict__ py, const float *__restrict__ pz, float *__restrict__ x,
                                  float *__restrict__ y, float *__restrict__ z, float *__restrict__ vx,
                                  float *__restrict__ vy, float *__restrict__ vz)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float position[3] = {px[i], py[i], pz[i]}, v[3];
        const float before[3] = {x[i], y[i], z[i]};
        fc_pbf_velocity(position, before, inv_dt, v);
        if (fc_collision_possible(&col, position)) fc_collide_point(&col, position, v);
        x[i] = position[0], y[i] = position[1], z[i] = position[2];
        vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
    }
}

/* Density (FC_DENSITY), vorticity (eq. 15) and the XSPH change (eq. 18) at the positions x and
 * velocities v, the neighbour count, with Mueller's viscosity on (viscosity_model mueller2003) dt
 * times its acceleration added to the change, and with heat conduction (heat_rate not NULL) dT/dt
 * as pbf.c sums it (fc_heat_pair with PBF's weights, fc_heat_rate). */
__global__ void fc_k_pbf_vorticity(size_t n, fc_cuda_lists lists, fc_pbf_constants c, fc_cuda_setup setup,
                                   fc_viscosity_terms visc, float dt,
                                   const uint8_t *__restrict__ fluid, const float *__restrict__ temperature,
                                   float volume_over_m0, float *__restrict__ heat_rate, const float *__restrict__ x,
                                   const float *__restrict__ y, const float *__restrict__ z, const float *__restrict__ vx,
                                   const float *__restrict__ vy, const float *__restrict__ vz, float *__restrict__ rho,
                                   float *__restrict__ wx, float *__restrict__ wy, float *__restrict__ wz,
                                   float *__restrict__ wn, float *__restrict__ ux, float *__restrict__ uy,
                                   float *__restrict__ uz, uint32_t *__restrict__ neighbours)
{
    const fc_sph_kernel *k = &c.kernel;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float xi = x[i], yi = y[i], zi = z[i], vxi = vx[i], vyi = vy[i], vzi = vz[i];
        float fluid_d3 = 0.0f, solid_d3 = 0.0f, o[3] = {0.0f, 0.0f, 0.0f}, u[3] = {0.0f, 0.0f, 0.0f}, conducted = 0.0f;
        float viscous[3] = {0.0f, 0.0f, 0.0f}, mixed[3] = {0.0f, 0.0f, 0.0f};
        const fc_heat_terms *ht = &setup.heat;
        const float ti = heat_rate ? temperature[i] : 0.0f, ki = ht->conductivity[fluid[i]];
        uint32_t count = 0;
        lists.fluid(i, [&](uint32_t j) {
            const float d[3] = {xi - x[j], yi - y[j], zi - z[j]};
            const float dv[3] = {vx[j] - vxi, vy[j] - vyi, vz[j] - vzi}, r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            float d3, g;
            fc_sph_kernel_terms(k, r2, &d3, &g);
            fluid_d3 += d3;
            fc_pbf_vorticity_xsph_pair(g, d3, dv, d, o, u);
            if (visc.on) {
                float inv_r;
                const float q = fc_sph_distance_terms(k, r2, &inv_r), pair = fc_viscosity_pair(volume_over_m0, q);
                const float v_i[3] = {vxi, vyi, vzi}, v_j[3] = {vx[j], vy[j], vz[j]};
                const float m = fc_viscosity_weight(visc.mu[fluid[j]], volume_over_m0); /* M_j */
                for (int a = 0; a < 3; a++) {
                    viscous[a] += pair * dv[a];
                    if (visc.mixed) mixed[a] += fc_viscosity_mixed_pair(q, m * v_j[a], m, v_i[a]);
                }
            }
            if (heat_rate) {
                float inv_r;
                const float q = fc_sph_distance_terms(k, r2, &inv_r);
                conducted += fc_heat_pair(ht, ti, ki, volume_over_m0, temperature[j], ht->conductivity[fluid[j]], q, r2, inv_r);
            }
            count++;
        });
        lists.solid(i, [&](uint32_t b) {
            const float dx = xi - lists.bx[b], dy = yi - lists.by[b], dz = zi - lists.bz[b];
            float d3, g;
            fc_sph_kernel_terms(k, dx * dx + dy * dy + dz * dz, &d3, &g);
            solid_d3 += lists.bvolume[b] * d3;
        });
        float omega[3], du[3];
        rho[i] = setup.rest_density[fluid[i]] * fc_sph_density_ratio(k, fluid_d3, solid_d3);
        wn[i] = fc_pbf_vorticity_xsph(&c, o, u, omega, du);
        if (visc.on) {
            const int f = fluid[i];
            for (int a = 0; a < 3; a++)
                du[a] += dt * visc.coeff *
                         fc_viscous_term(visc.mu[f], setup.volume_over_mass[f], viscous[a], visc.mixed ? &mixed[a] : NULL);
        }
        wx[i] = omega[0], wy[i] = omega[1], wz[i] = omega[2];
        ux[i] = du[0], uy[i] = du[1], uz[i] = du[2];
        neighbours[i] = count;
        if (heat_rate) heat_rate[i] = fc_heat_rate(ht, fluid[i], setup.volume_over_mass[fluid[i]], conducted);
    }
}

/* Lines 27-28: v += dt f_vort (fc_pbf_confinement) + the XSPH change, and with tension dt times
 * its acceleration (fc_cuda_tension_of with PBF's weights); with heat conduction (heat_rate not
 * NULL) T += dT/dt dt and the solids' heat (fc_contact_heat), as pbf.c. */
__global__ void fc_k_pbf_confine(size_t n, fc_cuda_lists lists, fc_pbf_constants c, float dt, fc_collision col,
                                 fc_heat_terms ht, fc_cuda_setup setup, fc_cuda_normals normals,
                                 const uint8_t *__restrict__ fluid,
                                 const float *__restrict__ heat_rate, float *__restrict__ temperature,
                                 const float *__restrict__ x, const float *__restrict__ y, const float *__restrict__ z,
                                 const float *__restrict__ wx, const float *__restrict__ wy,
                                 const float *__restrict__ wz, const float *__restrict__ wn,
                                 const float *__restrict__ ux, const float *__restrict__ uy,
                                 const float *__restrict__ uz, float *__restrict__ vx, float *__restrict__ vy,
                                 float *__restrict__ vz)
{
    const int confine = c.vorticity > 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float f[3] = {0.0f, 0.0f, 0.0f};
        if (confine) {
            const float xi = x[i], yi = y[i], zi = z[i], wi = wn[i];
            float e[3] = {0.0f, 0.0f, 0.0f};
            lists.fluid(i, [&](uint32_t j) {
                const float dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
                float d3, g;
                fc_sph_kernel_terms(&c.kernel, dx * dx + dy * dy + dz * dz, &d3, &g);
                const float weight = fc_pbf_confinement_weight(wn[j], wi, g);
                e[0] += weight * dx, e[1] += weight * dy, e[2] += weight * dz;
            });
            const float omega[3] = {wx[i], wy[i], wz[i]};
            fc_pbf_confinement(&c, e, omega, wi, f);
        }
        if (setup.tension.on)
            fc_cuda_tension_of(lists, setup.tension, x, y, z, NULL, setup.volume_over_m0, normals, i, fluid[i], f);
        vx[i] += dt * f[0] + ux[i], vy[i] += dt * f[1] + uy[i], vz[i] += dt * f[2] + uz[i];
        if (heat_rate) {
            const float at[3] = {x[i], y[i], z[i]};
            temperature[i] = fc_contact_heat(&col, at, ht.contact[fluid[i]], dt, temperature[i] + heat_rate[i] * dt);
        }
    }
}

static fc_pbf_constants constants_of(const fc_cuda_pbf_setup *s)
{
    fc_pbf_constants c;
    const fc_cuda_setup *m = &s->common;
    fc_pbf_constants_make(&c, m->h, m->dimensions, m->volume, m->initial_sum, s->scorr_k, s->scorr_dq, s->scorr_n,
                          s->rest_denominator, s->epsilon, s->vorticity, s->xsph);
    fc_pbf_constants_masses(&c, s->mass_ratio, s->gas, s->fluids);
    return c;
}

/* Density, vorticity and XSPH at the sorted positions x (the lists' too) and the velocities, and
 * in a step's pass (dt > 0) the viscosity and with conduction dT/dt. */
static int vorticity_pass(fc_cuda_family *s, const fc_cuda_pbf_setup *setup, const fc_pbf_constants &c,
                          const fc_cuda_lists &lists, int conduction, float dt, char *err, size_t errlen)
{
    fc_viscosity_terms visc = setup->viscosity;
    visc.on &= dt > 0.0f;
    const size_t n = s->store->particles.count;
    float *const *f = s->d_f;
    FC_LAUNCH(fc_k_pbf_vorticity, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->store->stream, n, lists, c, setup->common,
              visc, dt, fc_cuda_fluid_column(s), fc_cuda_column(s, FC_TEMPERATURE), setup->common.volume_over_m0,
              conduction ? f[HEAT_RATE] : NULL, fc_cuda_column(s, FC_PX), fc_cuda_column(s, FC_PY), fc_cuda_column(s, FC_PZ),
              fc_cuda_column(s, FC_VX), fc_cuda_column(s, FC_VY), fc_cuda_column(s, FC_VZ),
              fc_cuda_column(s, FC_DENSITY), f[WX], f[WY], f[WZ], f[WN], f[UX], f[UY], f[UZ], s->d_neighbours);
    FC_CU(cudaGetLastError());
    return 0;
fail:
    return -1;
}

extern "C" int fc_cuda_pbf_density(fc_cuda_family *s, const fc_cuda_pbf_setup *setup, char *err, size_t errlen)
{
    if (s->store->particles.count == 0) return 0;
    const fc_pbf_constants c = constants_of(setup);
    if (fc_cuda_family_sort(s, fc_cuda_column(s, FC_PX), fc_cuda_column(s, FC_PY), fc_cuda_column(s, FC_PZ), err, errlen))
        return -1;
    const fc_cuda_lists lists = fc_cuda_lists_of(s, c.kernel, fc_cuda_column(s, FC_PX), fc_cuda_column(s, FC_PY),
                                                 fc_cuda_column(s, FC_PZ));
    return vorticity_pass(s, setup, c, lists, 0, 0.0f, err, errlen);
}

extern "C" int fc_cuda_pbf_step(fc_cuda_family *s, const fc_cuda_pbf_setup *setup, float dt, char *err, size_t errlen)
{
    const size_t n = s->store->particles.count;
    const unsigned blocks = fc_cuda_blocks_for(n);
    const fc_pbf_constants c = constants_of(setup);
    fc_collision col;
    if (n == 0) return 0;
    if (fc_cuda_reserve_scratch(s, n, err, errlen) || fc_cuda_device_collision(s->store, &setup->common.collision, &col, err, errlen))
        return -1;
    col.walls = FC_WALLS_SOFT, col.move_positions = 1;
    float **f = s->d_f;
    FC_LAUNCH(fc_k_pbf_predict, blocks, FC_CUDA_BLOCK, s->store->stream, n, dt, setup->common, col, fc_cuda_column(s, FC_PX),
              fc_cuda_column(s, FC_PY), fc_cuda_column(s, FC_PZ), fc_cuda_column(s, FC_VX), fc_cuda_column(s, FC_VY),
              fc_cuda_column(s, FC_VZ), f[PX], f[PY], f[PZ]);
    FC_CU(cudaGetLastError());
    if (fc_cuda_family_sort(s, f[PX], f[PY], f[PZ], err, errlen)) return -1;
    {
        const float *const predicted[3] = {f[PX], f[PY], f[PZ]};
        float *const sorted[3] = {f[QX], f[QY], f[QZ]}, *const x[3] = {f[XX], f[XY], f[XZ]};
        if (fc_cuda_gather3(s, predicted, sorted, err, errlen) || fc_cuda_gather3(s, predicted, x, err, errlen))
            return -1;
    }
    {
        const fc_cuda_lists lists = fc_cuda_lists_of(s, c.kernel, f[QX], f[QY], f[QZ]);
        int xs = XX, ns = NX; /* x* of this iteration, and the next */
        for (int iteration = 0; iteration < setup->iterations; iteration++) {
            FC_LAUNCH(fc_k_pbf_lambda, blocks, FC_CUDA_BLOCK, s->store->stream, n, lists, c, setup->common.heat,
                      fc_cuda_fluid_column(s), fc_cuda_column(s, FC_TEMPERATURE), f[xs], f[xs + 1], f[xs + 2],
                      f[LAMBDA], f[BX], f[BY], f[BZ]);
            FC_CU(cudaGetLastError());
            FC_LAUNCH(fc_k_pbf_correct, blocks, FC_CUDA_BLOCK, s->store->stream, n, lists, c, col,
                      fc_cuda_fluid_column(s), f[xs], f[xs + 1], f[xs + 2], f[LAMBDA], f[BX], f[BY], f[BZ], f[ns],
                      f[ns + 1], f[ns + 2]);
            FC_CU(cudaGetLastError());
            const int t = xs;
            xs = ns, ns = t;
        }
        col.move_positions = 0; /* contacts change velocities only: positions are resolved */
        FC_LAUNCH(fc_k_pbf_velocity, blocks, FC_CUDA_BLOCK, s->store->stream, n, 1.0f / dt, col, f[xs], f[xs + 1], f[xs + 2],
                  fc_cuda_column(s, FC_PX), fc_cuda_column(s, FC_PY), fc_cuda_column(s, FC_PZ),
                  fc_cuda_column(s, FC_VX), fc_cuda_column(s, FC_VY), fc_cuda_column(s, FC_VZ));
        FC_CU(cudaGetLastError());
        /* the passes after line 24 read the final positions, with the lists of this step */
        const fc_cuda_lists final_lists = fc_cuda_lists_of(s, c.kernel, f[QX], f[QY], f[QZ]);
        s->d_list_at[0] = f[QX], s->d_list_at[1] = f[QY], s->d_list_at[2] = f[QZ]; /* for the trapped air's pass */
        const int conduction = setup->common.heat.conduction;
        if (vorticity_pass(s, setup, c, final_lists, conduction, dt, err, errlen)) return -1;
        fc_cuda_normals normals; /* the tension's, at the positions the vorticity pass read (pbf.c) */
        for (int k = 0; k < 4; k++) normals.s[k] = f[NORMAL_S + k], normals.i[k] = f[NORMAL_I + k];
        if (setup->common.tension.on &&
            fc_cuda_tension_normals(s, final_lists, setup->common.tension, fc_cuda_column(s, FC_PX), fc_cuda_column(s, FC_PY),
                                    fc_cuda_column(s, FC_PZ), NULL, setup->common.volume_over_m0, normals, err, errlen))
            return -1;
        FC_LAUNCH(fc_k_pbf_confine, blocks, FC_CUDA_BLOCK, s->store->stream, n, final_lists, c, dt, col,
                  setup->common.heat, setup->common, normals, fc_cuda_fluid_column(s), conduction ? f[HEAT_RATE] : NULL,
                  fc_cuda_column(s, FC_TEMPERATURE), fc_cuda_column(s, FC_PX),
                  fc_cuda_column(s, FC_PY), fc_cuda_column(s, FC_PZ), f[WX], f[WY], f[WZ], f[WN], f[UX], f[UY], f[UZ],
                  fc_cuda_column(s, FC_VX), fc_cuda_column(s, FC_VY), fc_cuda_column(s, FC_VZ));
        FC_CU(cudaGetLastError());
    }
    /* a step ends on the device before the call returns: step times are device times, and a
     * failed kernel fails its own step */
    FC_CU(cudaStreamSynchronize(s->store->stream));
    return 0;
fail:
    return -1;
}
