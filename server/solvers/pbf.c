/* Position Based Fluids (Macklin and Mueller 2013; seeds 000 and 002) on the CPU with OpenMP.
 *
 * One step is seed 000's Algorithm 1:
 *   1-4   v += dt g, predicted positions x* = x + dt v (kept inside the container);
 *   7     sort into the shared grid by x* and list every particle's neighbours within h once
 *         (fluid and boundary, core/neighbours.h), read by all the passes below;
 *   8-20  solver_iterations times: lambda_i (eqs. 1, 2, 11), then delta p_i (eqs. 12-14) and
 *         x* += delta p_i followed by the collision response (positions only, soft walls);
 *   24    v = (x* - x) / dt, the velocity response at contacts (friction, restitution), x = x*;
 *   27-28 vorticity confinement (eqs. 15-17) and XSPH viscosity (eq. 18), both computed from the
 *         velocity of line 24 in one pass (seed 000 lists them one after the other; XSPH from the
 *         velocity after confinement would differ by xsph_c dt |f_vort|, 2e-5 s times |f_vort|);
 *         with viscosity_model mueller2003, Mueller et al. 2003's viscosity with each fluid's mu
 *         joins that pass (sph_terms.h, as WCSPH's): XSPH smooths by a fraction per step, so at a
 *         long step it damps less per second, and a fluid's own viscosity keeps PBF calm there.
 * Density is also evaluated at the final positions, which is what FC_DENSITY and the statistics
 * report: the density error left after the iterations.
 *
 * Every loop gathers over particle i's own list and writes only particle i: no atomics, and the
 * result does not depend on the thread count. The neighbour loops run over FC_LANES neighbours at a
 * time (core/lanes.h); a neighbour's position and the one value a pass reads of it travel in one
 * 16-byte record (x, y, z and lambda, |omega| or a boundary volume).
 *
 * Units and departures from seed 000 (which writes Macklin and Mueller's unit-mass equations):
 * - Particles have mass m = rho0 V0, V0 the volume of a particle on the rest lattice
 *   (fc_sph_rest_volume, shared with sph.c), so a block at rest spacing starts at rest density. Eq. 1's
 *   sum_j W becomes rho_i = m sum_j W_ij, eq. 2's 1/rho0 becomes m/rho0 = V0, and eq. 12 reads
 *   delta p_i = V0 sum_j (lambda_i + lambda_j + s_corr) grad W_ij; lambda then has units m^2
 *   and the relaxation epsilon 1/m^2.
 * - Boundary: the Akinci boundary particles of the family (solvers/boundary.c) enter the density,
 *   rho_i += rho0 sum_b V_b W_ib, and with it grad_{p_i} C_i and delta p_i (the term
 *   lambda_i V_b grad W_ib; a wall has no constraint of its own). Without them a particle at a
 *   wall misses the part of its neighbourhood behind the wall, so the constraint pulls it onto
 *   the wall and the fluid piles up there until the collision clamp lets go (seed 002 section IV,
 *   Fig. 5). The collision response still keeps every particle inside.
 * - The constraint is bilateral, as eq. 1 is written: a free surface particle, short of
 *   neighbours, is pulled towards the fluid and s_corr (eq. 13) pushes back at short range. This
 *   acts as a surface tension that holds thin sheets back: the front of scenes/dam_break_pbf.json
 *   is at 1.00 m after 0.3 s, against 1.18 m with SPH. We measured the unilateral variant
 *   C_i = max(C_i, 0) of other implementations too (front at 1.12 m): with the paper's s_corr
 *   it expands the layers under a resting free surface (the second layer 27% underdense, the
 *   third 10%), and without s_corr the surface jitters (rms speed 0.10 m/s after 0.5 s against
 *   0.05 m/s).
 * - Eq. 14's s_corr is dimensionless in unit-mass form but is added to lambda (m^2 here). We
 *   write it as the lambda of a constraint violation k (W_ij / W(dq))^n at a particle of the
 *   rest lattice, s_corr = -k (W_ij / W(dq))^n / (D0 + epsilon) with D0 = sum_k |grad_k C|^2
 *   there, so that k keeps one meaning at any spacing.
 * - Eqs. 15 and 18 sum without a particle volume; we weight each neighbour by V0 (m_j / rho_j
 *   at rest density), so omega is the curl of v in 1/s (2 Omega for a rigid rotation Omega, up
 *   to the lattice moment of kernels.h) and xsph_c the dimensionless fraction of the velocity
 *   difference to the neighbourhood removed per step.
 * - Eq. 16 takes N = grad|omega| / |grad|omega||, which turns rounding noise into a unit vector
 *   where |omega| is uniform: we take N = 0 where |grad|omega|| h < 1e-4 |omega_i|.
 * - eta = grad|omega| is the gradient of the scalar field |omega| (seed 002 section V.A; the
 *   gradient of omega itself is parallel to omega and gives no force), estimated as
 *   sum_j V0 (|omega_j| - |omega_i|) grad_{p_i} W_ij. Seed 002 writes grad W(x_j - x_i), the
 *   opposite sign, which turns N away from the vortex and makes the "confinement" damp it.
 * - Several fluids: the constraint is the number density's (C_i = V0 sum_j W_ij - 1 whatever the
 *   fluid, Solenthaler and Pajarola 2008), and when the fluids differ in mass its corrections are
 *   weighted by inverse mass, as position constraints are in Macklin et al. 2014 (section 4): each
 *   particle k moves by w_k lambda_i grad_{p_k} C_i, w_k = m_0 / m_k, and lambda_i's denominator
 *   sums w_k |grad_{p_k} C_i|^2 (sph_terms.h, fc_pbf_lambda). Unweighted, every particle yields
 *   alike and a fluid ten times denser steps exactly as a lighter one: nothing sinks or floats.
 *   The relaxation and s_corr are scaled so that a fluid of one mass steps as before.
 *   Trapped air takes the first liquid's mass in the constraints; its artificial buoyancy lifts it
 *   (sph_terms.h, fc_pbf_constants_masses).
 * - The collision response after each iteration pushes particles back with the shared
 *   fc_collide_point, walls soft (colliders.c): a bare clamp lands particles that crossed a wall
 *   corner on one point, where grad W between them vanishes (seed 002 Fig. 4).
 */
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/colliders.h"
#include "core/kernels.h"
#include "core/lanes.h"
#include "core/neighbours.h"
#include "core/solver.h"
#include "solvers/pbf.h"
#include "solvers/sph_family.h"

typedef struct pbf_state {
    fc_sph_solids solids;             /* first: the family's (fc_sph_family_boundary) */
    fc_sph_neighbourhood nh;          /* grid, neighbour lists within h, boundary records (sph_family.h) */
    float *px, *py, *pz;              /* predicted positions as arrays (the grid and lists read arrays) */
    float *qx, *qy, *qz;              /* the same after sorting */
    fc_record4 *pos, *next;           /* x* of this iteration and the next (sorted), w: lambda_i,
                                       * then |omega_i| after the iterations; entry n is far away */
    fc_record4 *vel;                  /* velocities after Algorithm 1 line 24; entry n far away */
    fc_record4 *mvel;                 /* (M v, M), M = mu V0 / m_0, with Mueller's viscosity of mixed
                                         viscosities (sph_terms.h); entry n 0 */
    fc_record4 *inverse_mass;         /* (w_i, 0, 0, 0), w_i = m_0 / m_i, when the fluids differ in mass */
    fc_record4 *heat;                 /* (T, k, 0, 0), with heat conduction; entry n far away */
    float *heat_rate;                 /* dT/dt, K/s, with heat conduction */
    fc_record4 *colour;               /* (c^i, c^s, 0, 0), with tension; entry n far away */
    fc_record4 *normal_s, *normal_i;  /* the tension's normals (sph_terms.h), with tension */
    float *bx, *by, *bz;              /* sum_b V_b grad W_ib: the boundary part of grad_{p_i} C_i */
    float *wx, *wy, *wz;              /* vorticity omega_i (eq. 15) */
    float *ux, *uy, *uz;              /* velocity change of XSPH (eq. 18), and with viscosity_model
                                         mueller2003 dt times the viscous acceleration */
    size_t capacity;
    double rest_volume;               /* V0 = m / rho0 */
    double rest_denominator;          /* D0 = sum_k |grad_k C_i|^2 at a particle of the rest lattice */
    fc_air_state air;                 /* the trapped air's pass (solvers/air.c) */
} pbf_state;

typedef fc_pbf_constants pbf_constants; /* sph_terms.h */

/* Room for n particles and the far record. */
static int pbf_reserve(pbf_state *st, size_t n)
{
    if (n + 1 <= st->capacity) return 0;
    size_t cap = n + n / 2 + 1024;
    void **const floats[] = {(void **)&st->px, (void **)&st->py, (void **)&st->pz, (void **)&st->qx,
                             (void **)&st->qy, (void **)&st->qz, (void **)&st->bx, (void **)&st->by,
                             (void **)&st->bz, (void **)&st->wx, (void **)&st->wy, (void **)&st->wz,
                             (void **)&st->ux, (void **)&st->uy, (void **)&st->uz, (void **)&st->heat_rate};
    void **const records[] = {(void **)&st->pos,      (void **)&st->next,     (void **)&st->vel,
                              (void **)&st->heat,     (void **)&st->colour,   (void **)&st->normal_s,
                              (void **)&st->normal_i, (void **)&st->inverse_mass, (void **)&st->mvel};
    if (fc_sph_grow_arrays(floats, sizeof floats / sizeof floats[0], cap, sizeof(float)) ||
        fc_sph_grow_arrays(records, sizeof records / sizeof records[0], cap, sizeof(fc_record4)))
        return -1;
    st->capacity = cap;
    return 0;
}

static void pbf_destroy(void *state)
{
    pbf_state *st = state;
    if (!st) return;
    fc_sph_neighbourhood_free(&st->nh);
    fc_sph_solids_free(&st->solids);
    void *arrays[] = {st->px, st->py, st->pz, st->qx, st->qy, st->qz, st->bx, st->by, st->bz, st->wx, st->wy,
                      st->wz, st->ux, st->uy, st->uz, st->heat_rate, st->pos, st->next, st->vel, st->heat,
                      st->colour, st->normal_s, st->normal_i, st->inverse_mass, st->mvel};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) free(arrays[a]);
    fc_air_state_free(&st->air);
    free(st);
}

/* D0 = sum_j |grad_{p_j} C_i|^2 + |grad_{p_i} C_i|^2 at a particle of the cubic lattice of spacing s:
 * V0^2 sum_j |grad W(r_j)|^2 (the sum of the gradients, grad_{p_i} C_i, vanishes by symmetry). */
double fc_pbf_lattice_denominator(double h, double s, double volume, int dims)
{
    const int n = (int)ceil(h / s), nk = dims == 2 ? 0 : n; /* 2D: the square lattice */
    double sum = 0.0;
    for (int i = -n; i <= n; i++)
        for (int j = -n; j <= n; j++)
            for (int k = -nk; k <= nk; k++) {
                double g = fc_spiky_gradient(s * sqrt((double)(i * i + j * j + k * k)), h, dims);
                sum += g * g;
            }
    return volume * volume * sum;
}

double fc_pbf_relaxation(const fc_params *p, double rest_denominator)
{
    return p->relaxation_epsilon > 0.0 ? p->relaxation_epsilon : p->relaxation_ratio * rest_denominator;
}

static int pbf_init(fc_world *w, void **state, char *err, size_t errlen)
{
    pbf_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    if (fc_sph_family_start(w, &st->solids, &st->nh, &st->rest_volume)) {
        pbf_destroy(st);
        snprintf(err, errlen, "out of memory while sampling boundaries");
        return FC_BUILD_OUT_OF_MEMORY;
    }
    const fc_params *p = &w->params;
    st->rest_denominator = fc_pbf_lattice_denominator(p->smoothing_radius, p->particle_spacing, st->rest_volume, w->dimensions);
    *state = st;
    return 0;
}

static void constants_init(pbf_constants *k, const fc_world *w, const pbf_state *st)
{
    const fc_params *p = &w->params;
    fc_pbf_constants_make(k, p->smoothing_radius, w->dimensions, st->rest_volume, p->initial_sum, p->scorr_k,
                          p->scorr_dq, p->scorr_n, st->rest_denominator, fc_pbf_relaxation(p, st->rest_denominator),
                          p->vorticity_epsilon,
                          p->xsph_c);
    float ratio[FC_MAX_FLUIDS];
    int gas[FC_MAX_FLUIDS];
    fc_sph_mass_ratios(w, ratio);
    for (int f = 0; f < w->fluid_count; f++) gas[f] = w->fluids[f].kind != 0;
    fc_pbf_constants_masses(k, ratio, gas, w->fluid_count);
}

/* ---- Algorithm 1, lines 1-7 ---------------------------------------------------------------- */

/* v += dt g; x* = x + dt v, kept inside the container and out of colliders (seed 002 line 4). */
static void predict_positions(fc_world *w, pbf_state *st, float dt)
{
    fc_particles *p = &w->particles;
    const float *x = p->field[FC_PX], *y = p->field[FC_PY], *z = p->field[FC_PZ];
    float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    float g[3];
    fc_world_gravity(w, g);
    fc_collision c;
    fc_collision_init(&c, w, FC_WALLS_SOFT, 1);
    const long n = (long)p->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        const float at[3] = {x[i], y[i], z[i]};
        float v[3] = {vx[i], vy[i], vz[i]}, predicted[3];
        fc_pbf_predict(g, dt, at, v, predicted);
        vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
        if (fc_collision_possible(&c, predicted)) fc_collide_point(&c, predicted, NULL);
        st->px[i] = predicted[0], st->py[i] = predicted[1], st->pz[i] = predicted[2];
    }
}

/* Algorithm 1 lines 1-7: predict, sort by x*, the sorted x* as arrays and as records (w = 0), the
 * far records, the neighbour lists. */
static int predict_and_find_neighbours(fc_world *w, pbf_state *st, float dt)
{
    predict_positions(w, st, dt);
    if (fc_sph_sort(w, &st->nh, st->px, st->py, st->pz)) return -1;
    const uint32_t *order = st->nh.grid.order;
    const long n = (long)w->particles.count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        const uint32_t o = order[i];
        st->qx[i] = st->px[o], st->qy[i] = st->py[o], st->qz[i] = st->pz[o];
        st->pos[i] = (fc_record4){st->qx[i], st->qy[i], st->qz[i], 0.0f};
    }
    st->pos[n] = st->next[n] = st->vel[n] = fc_sph_far_away;
    return fc_sph_find_neighbours(w, &st->nh, &st->solids, st->qx, st->qy, st->qz, NULL, NULL);
}

/* The inverse masses of the sorted particles as records, for the weighted constraint (sph_terms.h,
 * fc_pbf_lambda); the far record's w is 1. */
static void fill_inverse_masses(const fc_world *w, pbf_state *st, const pbf_constants *k)
{
    const uint8_t *of = w->particles.u8[FC_FLUID];
    const long n = (long)w->particles.count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) st->inverse_mass[i] = (fc_record4){k->inverse_mass[of[i]], 0.0f, 0.0f, 0.0f};
    st->inverse_mass[n] = (fc_record4){1.0f, 0.0f, 0.0f, 0.0f};
}

/* ---- Algorithm 1, lines 8-20: the density constraint ------------------------------------- */

/* lambda_i of eq. 11 at the positions x* (Algorithm 1 line 11), into pos[i].w, with
 *   rho_i / rho0 = poly6 (V0 (initial_sum h^6 + sum_j d3_ij) + sum_b V_b d3_ib)   (eq. 1, mass m)
 *   C_i = rho_i / rho0 - 1                                                         (eq. 1)
 *   grad_{p_i} C_i = V0 sum_j grad W_ij + sum_b V_b grad W_ib,
 *   grad_{p_j} C_i = -V0 grad W_ij                                                 (eq. 2)
 *   lambda_i = -C_i / (sum_k w_k |grad_{p_k} C_i|^2 + w_i epsilon)                 (eq. 11)
 * and the boundary part of grad_{p_i} C_i, which delta p_i needs again; w_k = m_0 / m_k, all 1 for
 * one mass (sph_terms.h, fc_pbf_lambda: several masses). Reads only the positions of pos, writes
 * only the w of pos. `weighted` is a constant of each call: one mass gathers no weights. */
static inline void lambda_of(const fc_world *w, pbf_state *st, const pbf_constants *k, const fc_heat_terms *ht, long i,
                             const int weighted)
{
    const fc_neighbour_list *fluid = &st->nh.lists[FC_SPH_FLUID], *solid = &st->nh.lists[FC_SPH_SOLID];
    const fc_sph_kernel *kernel = &k->kernel;
    const float *temperature = w->particles.field[FC_TEMPERATURE];
    const uint8_t *of = w->particles.u8[FC_FLUID];
    fc_record4 *pos = st->pos;
    const fc_record4 at = pos[i];
    const fc_fv zero = fc_fv_splat(0.0f);
    fc_fv fluid_d3 = zero, gx = zero, gy = zero, gz = zero, neighbour_gradients2 = zero;
    for (fc_lanes nb = fc_lanes_of(fluid, (size_t)i, pos, at.x, at.y, at.z); fc_lanes_next(&nb);) {
        fc_fv d3, g;
        fc_sph_kernel_terms(kernel, nb.r2, &d3, &g);
        fluid_d3 += d3;
        gx += g * nb.dx, gy += g * nb.dy, gz += g * nb.dz;
        fc_fv gradient2 = g * g * nb.r2; /* |grad W_ij|^2 */
        if (weighted) {
            fc_fv w_j, unused_y, unused_z, unused_w;
            fc_lanes_gather(&nb, st->inverse_mass, &w_j, &unused_y, &unused_z, &unused_w);
            gradient2 *= w_j;
        }
        neighbour_gradients2 += gradient2;
    }
    fc_fv solid_d3 = zero, sx = zero, sy = zero, sz = zero;
    for (fc_lanes nb = fc_lanes_of(solid, (size_t)i, st->nh.solid, at.x, at.y, at.z); fc_lanes_next(&nb);) {
        fc_fv d3, g;
        fc_sph_kernel_terms(kernel, nb.r2, &d3, &g);
        solid_d3 += nb.w * d3; /* w: V_b */
        sx += nb.w * g * nb.dx, sy += nb.w * g * nb.dy, sz += nb.w * g * nb.dz;
    }
    float walls[4] = {0.0f, 0.0f, 0.0f, 0.0f}, sums[4];
    if (solid->start[i + 1] > solid->start[i]) fc_fv_sum4(sx, sy, sz, solid_d3, walls);
    fc_fv_sum4(gx, gy, gz, fluid_d3, sums);
    float boundary_gradient[3];
    const float expansion = ht->expands ? fc_heat_expansion(ht, of[i], temperature[i]) : 1.0f;
    pos[i].w = fc_pbf_lambda(k, sums[3], sums, fc_fv_sum(neighbour_gradients2), walls[3], walls, expansion,
                             weighted ? k->inverse_mass[of[i]] : 1.0f, k->gas[of[i]], boundary_gradient);
    st->bx[i] = boundary_gradient[0], st->by[i] = boundary_gradient[1], st->bz[i] = boundary_gradient[2];
}

static void compute_lambda(const fc_world *w, pbf_state *st, const pbf_constants *k, const fc_heat_terms *ht)
{
    const fc_neighbour_shares *shares = &st->nh.shares;
    if (k->weighted) {
        fc_shares_open(shares);
#pragma omp parallel
        for (size_t lo, hi; fc_shares_take(shares, FC_SHARE_CHUNK, &lo, &hi);)
            for (long i = (long)lo; i < (long)hi; i++) lambda_of(w, st, k, ht, i, 1);
    } else {
        fc_shares_open(shares);
#pragma omp parallel
        for (size_t lo, hi; fc_shares_take(shares, FC_SHARE_CHUNK, &lo, &hi);)
            for (long i = (long)lo; i < (long)hi; i++) lambda_of(w, st, k, ht, i, 0);
    }
}

/* sum_j (lambda_i + lambda_j + s_corr) g_ij (x_i - x_j) over particle i's fluid neighbours, with
 *   s_corr = -k (W_ij / W(dq))^n / (D0 + epsilon)                                  (eq. 14)
 * divided by the pair's mean inverse mass when `weighted` (fc_pbf_correction_weight). */
static inline void correction_sum(const pbf_state *st, const pbf_constants *k, long i, int exponent, const int weighted,
                                  float sum[4])
{
    const fc_record4 *pos = st->pos, at = pos[i];
    const fc_fv lambda_i = fc_fv_splat(at.w), zero = fc_fv_splat(0.0f);
    const fc_fv w_i = fc_fv_splat(weighted ? st->inverse_mass[i].x : 1.0f);
    fc_fv sx = zero, sy = zero, sz = zero, inv_w_ij = fc_fv_splat(1.0f);
    for (fc_lanes nb = fc_lanes_of(&st->nh.lists[FC_SPH_FLUID], (size_t)i, pos, at.x, at.y, at.z); fc_lanes_next(&nb);) {
        fc_fv d3, g;
        fc_sph_kernel_terms(&k->kernel, nb.r2, &d3, &g);
        if (weighted) {
            fc_fv w_j, unused_y, unused_z, unused_w;
            fc_lanes_gather(&nb, st->inverse_mass, &w_j, &unused_y, &unused_z, &unused_w);
            inv_w_ij = fc_pbf_pair_mass(w_i, w_j);
        }
        const fc_fv weight = fc_pbf_correction_weight(k, lambda_i, nb.w, d3, g, exponent, inv_w_ij); /* w: lambda_j */
        sx += weight * nb.dx, sy += weight * nb.dy, sz += weight * nb.dz;
    }
    fc_fv_sum4(sx, sy, sz, zero, sum);
}

/* delta p_i (eqs. 12-14; Algorithm 1 line 16) with the boundary term, then x* + delta p_i pushed
 * out of solids (line 17), into the next positions (line 18):
 *   delta p_i = V0 sum_j (lambda_i + lambda_j + s_corr) grad W_ij
 *               + lambda_i sum_b V_b grad W_ib                                     (eqs. 12-13)
 * Jacobi: every particle reads the positions and lambdas of the same iteration. */
static void apply_corrections(const fc_world *w, pbf_state *st, const pbf_constants *k)
{
    const int exponent = k->scorr_n, weighted = k->weighted;
    fc_collision c;
    fc_collision_init(&c, w, FC_WALLS_SOFT, 1);
    const fc_neighbour_shares *shares = &st->nh.shares;
    fc_shares_open(shares);
#pragma omp parallel
    for (size_t lo, hi; fc_shares_take(shares, FC_SHARE_CHUNK, &lo, &hi);)
        for (long i = (long)lo; i < (long)hi; i++) {
            float sum[4];
            /* the paper's n = 4 has a copy of the sum of its own, where x^4 is two multiplications; one
             * mass gathers no weights */
            if (weighted) correction_sum(st, k, i, exponent, 1, sum);
            else if (exponent == 4) correction_sum(st, k, i, 4, 0, sum);
            else correction_sum(st, k, i, exponent, 0, sum);
            /* grad W_ij = -g (x_i - x_j); st->b holds sum_b V_b grad W_ib */
            const fc_record4 p = st->pos[i];
            const float x[3] = {p.x, p.y, p.z}, boundary_gradient[3] = {st->bx[i], st->by[i], st->bz[i]};
            float next[3];
            fc_pbf_corrected(k, x, p.w, weighted ? st->inverse_mass[i].x : 1.0f, sum, boundary_gradient, next);
            if (fc_collision_possible(&c, next)) fc_collide_point(&c, next, NULL);
            st->next[i] = (fc_record4){next[0], next[1], next[2], 0.0f};
        }
    fc_record4 *t = st->pos;
    st->pos = st->next, st->next = t;
}

/* ---- Algorithm 1, lines 21-28 -------------------------------------------------------------- */

/* v = (x* - x) / dt (line 24), the velocity response at contacts, x = x*; the velocities also as
 * records for the passes below, and with heat conduction (T, k) too. */
static void update_velocities(fc_world *w, pbf_state *st, float dt, const fc_heat_terms *ht)
{
    const float *temperature = w->particles.field[FC_TEMPERATURE];
    const uint8_t *of = w->particles.u8[FC_FLUID];
    fc_particles *p = &w->particles;
    float *x = p->field[FC_PX], *y = p->field[FC_PY], *z = p->field[FC_PZ];
    float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    const float inv_dt = 1.0f / dt;
    fc_collision c;
    fc_collision_init(&c, w, FC_WALLS_SOFT, 0);
    const long n = (long)p->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        float position[3] = {st->pos[i].x, st->pos[i].y, st->pos[i].z};
        const float before[3] = {x[i], y[i], z[i]};
        float v[3];
        fc_pbf_velocity(position, before, inv_dt, v);
        if (fc_collision_possible(&c, position)) fc_collide_point(&c, position, v);
        x[i] = position[0], y[i] = position[1], z[i] = position[2];
        vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
        st->vel[i] = (fc_record4){v[0], v[1], v[2], 0.0f};
        if (ht->conduction) st->heat[i] = (fc_record4){temperature[i], ht->conductivity[of[i]], 0.0f, 0.0f};
    }
    st->heat[n] = fc_sph_far_away;
}

/* At the positions pos and velocities vel: density (reported in FC_DENSITY), vorticity
 *   omega_i = V0 sum_j (v_j - v_i) x grad_{p_j} W_ij                               (eq. 15)
 * (|omega_i| into pos[i].w) and the XSPH velocity change
 *   c V0 sum_j (v_j - v_i) W_ij                                                    (eq. 18)
 * plus, with Mueller's viscosity on (viscosity NULL: off), dt times its acceleration (sph_terms.h,
 * PBF's weights: r_j / rho_j = V0 / m_0 and 1 / rho_i = V0 / m_i),
 * and with heat (conduction on; NULL: off) dT/dt (fc_heat_pair with PBF's weights, fc_heat_rate)
 * and with tension (on; NULL: off) the normals of its colour fields (fc_tension_normal_pair with
 * PBF's weights V0) in the same pass. */
static void compute_vorticity_density_xsph(fc_world *w, pbf_state *st, const pbf_constants *k, const fc_heat_terms *heat,
                                           const fc_tension_terms *tension, const fc_viscosity_terms *viscosity, float dt)
{
    const int conduction = heat && heat->conduction, tense = tension && tension->on;
    const int viscous = viscosity && viscosity->on, mixed = viscous && viscosity->mixed;
    const float volume_over_m0 = (float)(st->rest_volume / w->fluid_mass[0]); /* PBF's r_j / rho_j */
    float volume_over_mass[FC_MAX_FLUIDS];                                     /* 1 / rho_i = V0 / m_i */
    for (int f = 0; f < FC_MAX_FLUIDS; f++)
        volume_over_mass[f] = (float)(st->rest_volume / w->fluid_mass[f < w->fluid_count ? f : 0]);
    fc_particles *p = &w->particles;
    const fc_neighbour_list *fluid = &st->nh.lists[FC_SPH_FLUID];
    const fc_sph_kernel *kernel = &k->kernel;
    fc_record4 *pos = st->pos;
    const fc_record4 *vel = st->vel;
    float *rho = p->field[FC_DENSITY];
    const uint8_t *of = p->u8[FC_FLUID];
    float rest[FC_MAX_FLUIDS]; /* the density of a particle is its fluid's rest density times the ratio (sph.c) */
    fc_sph_fluid_values(w, FC_SPH_REST_DENSITY, rest);
    const long n = (long)p->count;
    if (tense) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            st->colour[i] = (fc_record4){tension->colour[of[i]], tension->liquid[of[i]], 0.0f, 0.0f};
        st->colour[n] = fc_sph_far_away;
    }
    if (mixed) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) {
            const float m = fc_viscosity_weight(viscosity->mu[of[i]], volume_over_m0);
            st->mvel[i] = (fc_record4){m * vel[i].x, m * vel[i].y, m * vel[i].z, m};
        }
        st->mvel[n] = (fc_record4){0.0f, 0.0f, 0.0f, 0.0f};
    }
    const fc_neighbour_shares *shares = &st->nh.shares;
    fc_shares_open(shares);
#pragma omp parallel
    for (size_t lo, hi; fc_shares_take(shares, FC_SHARE_CHUNK, &lo, &hi);)
        for (long i = (long)lo; i < (long)hi; i++) {
            const fc_record4 at = pos[i];
            const fc_fv vxi = fc_fv_splat(vel[i].x), vyi = fc_fv_splat(vel[i].y), vzi = fc_fv_splat(vel[i].z);
            const fc_fv zero = fc_fv_splat(0.0f);
            fc_fv fluid_d3 = zero, o[3] = {zero, zero, zero}, u[3] = {zero, zero, zero}, conducted = zero;
            fc_fv gs[3] = {zero, zero, zero}, gi[3] = {zero, zero, zero}, li = zero;
            fc_fv visc[3] = {zero, zero, zero}, mixed_sum[3] = {zero, zero, zero};
            const fc_fv ci = fc_fv_splat(tense ? st->colour[i].x : 0.0f);
            const fc_fv ti = fc_fv_splat(conduction ? st->heat[i].x : 0.0f);
            const fc_fv ki = fc_fv_splat(conduction ? st->heat[i].y : 0.0f);
            for (fc_lanes nb = fc_lanes_of(fluid, (size_t)i, pos, at.x, at.y, at.z); fc_lanes_next(&nb);) {
                fc_fv vxj, vyj, vzj, unused, d3, g;
                fc_lanes_gather(&nb, vel, &vxj, &vyj, &vzj, &unused);
                fc_sph_kernel_terms(kernel, nb.r2, &d3, &g);
                const fc_fv dv[3] = {vxj - vxi, vyj - vyi, vzj - vzi}, d[3] = {nb.dx, nb.dy, nb.dz};
                fluid_d3 += d3;
                fc_pbf_vorticity_xsph_pair(g, d3, dv, d, o, u);
                if (viscous) {
                    fc_fv inv_r;
                    const fc_fv q = fc_sph_distance_terms(kernel, nb.r2, &inv_r);
                    const fc_fv pair = fc_viscosity_pair(fc_fv_splat(volume_over_m0), q);
                    for (int a = 0; a < 3; a++) visc[a] += pair * dv[a];
                    if (mixed) { /* (M v_j, M) */
                        fc_fv mv[3], m;
                        fc_lanes_gather(&nb, st->mvel, &mv[0], &mv[1], &mv[2], &m);
                        const fc_fv v_i[3] = {vxi, vyi, vzi};
                        for (int a = 0; a < 3; a++) mixed_sum[a] += fc_viscosity_mixed_pair(q, mv[a], m, v_i[a]);
                    }
                }
                if (conduction) { /* (T_j, k_j) */
                    fc_fv tj, kj, unused_z, unused_w, inv_r;
                    fc_lanes_gather(&nb, st->heat, &tj, &kj, &unused_z, &unused_w);
                    const fc_fv q = fc_sph_distance_terms(kernel, nb.r2, &inv_r);
                    conducted += fc_heat_pair(heat, ti, ki, fc_fv_splat(volume_over_m0), tj, kj, q, nb.r2, inv_r);
                }
                if (tense) { /* (c^i_j, c^s_j) */
                    fc_fv cj, csj, unused_z, unused_w;
                    fc_lanes_gather(&nb, st->colour, &cj, &csj, &unused_z, &unused_w);
                    fc_tension_normal_pair(tension, fc_fv_splat(volume_over_m0), cj - ci, csj, nb.r2, d, gs, gi, &li);
                }
            }
            const float solid = fc_sph_solid_sum(kernel, &st->nh, (size_t)i, at.x, at.y, at.z);
            float omega_sum[4], u_sum[4], omega[3], du[3];
            fc_fv_sum4(o[0], o[1], o[2], fluid_d3, omega_sum);
            fc_fv_sum4(u[0], u[1], u[2], zero, u_sum);
            rho[i] = rest[of[i]] * fc_sph_density_ratio(kernel, omega_sum[3], solid);
            pos[i].w = fc_pbf_vorticity_xsph(k, omega_sum, u_sum, omega, du);
            st->wx[i] = omega[0], st->wy[i] = omega[1], st->wz[i] = omega[2];
            if (viscous) {
                float visc_sum[4], mixed_sums[4];
                fc_fv_sum4(visc[0], visc[1], visc[2], zero, visc_sum);
                fc_fv_sum4(mixed_sum[0], mixed_sum[1], mixed_sum[2], zero, mixed_sums);
                const int f = of[i];
                for (int a = 0; a < 3; a++)
                    du[a] += dt * viscosity->coeff * fc_viscous_term(viscosity->mu[f], volume_over_mass[f], visc_sum[a],
                                                                     mixed ? &mixed_sums[a] : NULL);
            }
            st->ux[i] = du[0], st->uy[i] = du[1], st->uz[i] = du[2];
            if (conduction)
                st->heat_rate[i] = fc_heat_rate(heat, of[i], volume_over_mass[of[i]], fc_fv_sum(conducted));
            if (tense) {
                fc_sph_tension_boundary(tension, &st->nh, (size_t)i, at.x, at.y, at.z, ci, gs, gi, &li);
                fc_sph_tension_normals(tension, gs, gi, li, &st->normal_s[i], &st->normal_i[i]);
            }
        }
}

/* Vorticity confinement on particle i (eqs. 16-17), |omega_j| in pos[j].w:
 *   eta = grad |omega| = V0 sum_j (|omega_j| - |omega_i|) grad_{p_i} W_ij,
 *   N = eta / |eta| (0 where |eta| is rounding noise, see the top), f = epsilon (N x omega_i). */
static inline void confinement(const fc_world *w, const pbf_state *st, const pbf_constants *k, long i, float f[3])
{
    (void)w;
    const fc_sph_kernel *kernel = &k->kernel;
    const fc_record4 *pos = st->pos, at = pos[i];
    const fc_fv wi = fc_fv_splat(at.w), zero = fc_fv_splat(0.0f);
    fc_fv ex = zero, ey = zero, ez = zero;
    for (fc_lanes nb = fc_lanes_of(&st->nh.lists[FC_SPH_FLUID], (size_t)i, pos, at.x, at.y, at.z); fc_lanes_next(&nb);) {
        fc_fv d3, g;
        fc_sph_kernel_terms(kernel, nb.r2, &d3, &g);
        const fc_fv weight = fc_pbf_confinement_weight(nb.w, wi, g);
        ex += weight * nb.dx, ey += weight * nb.dy, ez += weight * nb.dz;
    }
    float e[4];
    fc_fv_sum4(ex, ey, ez, zero, e);
    const float omega[3] = {st->wx[i], st->wy[i], st->wz[i]};
    fc_pbf_confinement(k, e, omega, at.w, f);
}

/* v += dt f_vort + the XSPH change (Algorithm 1 lines 27-28), and with tension dt times its
 * acceleration (fc_sph_tension_of: PBF's weights V0, its densities the fluids' rest densities), which
 * the next step's prediction carries; with heat conduction, T += dT/dt dt and the heat of the hot
 * and cold solids near the particle (fc_contact_heat), as WCSPH's integrate. */
static void apply_confinement_and_viscosity(fc_world *w, const pbf_state *st, const pbf_constants *k,
                                            const fc_heat_terms *ht, const fc_tension_terms *tt, float dt)
{
    const float volume_over_m0 = (float)(st->rest_volume / w->fluid_mass[0]);
    fc_particles *p = &w->particles;
    float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ], *temperature = p->field[FC_TEMPERATURE];
    const float *x = p->field[FC_PX], *y = p->field[FC_PY], *z = p->field[FC_PZ];
    const uint8_t *of = p->u8[FC_FLUID];
    const int confine = k->vorticity > 0.0f;
    fc_collision c;
    fc_collision_init(&c, w, FC_WALLS_SOFT, 0);
    const fc_neighbour_shares *shares = &st->nh.shares;
    fc_shares_open(shares);
#pragma omp parallel
    for (size_t lo, hi; fc_shares_take(shares, FC_SHARE_CHUNK, &lo, &hi);)
        for (long i = (long)lo; i < (long)hi; i++) {
            float f[3] = {0.0f, 0.0f, 0.0f};
            if (confine) confinement(w, st, k, i, f);
            if (tt->on)
                fc_sph_tension_of(tt, &st->nh.lists[FC_SPH_FLUID], st->pos, NULL, volume_over_m0, st->normal_s,
                                  st->normal_i, i, of[i], f);
            vx[i] += dt * f[0] + st->ux[i], vy[i] += dt * f[1] + st->uy[i], vz[i] += dt * f[2] + st->uz[i];
            if (ht->conduction) {
                const float at[3] = {x[i], y[i], z[i]};
                temperature[i] =
                    fc_contact_heat(&c, at, ht->contact[of[i]], dt, temperature[i] + st->heat_rate[i] * dt);
            }
        }
}

static int pbf_step(fc_world *w, void *state, double dt)
{
    pbf_state *st = state;
    if (pbf_reserve(st, w->particles.count)) return -1;
    pbf_constants k;
    fc_heat_terms ht;
    fc_tension_terms tt;
    fc_viscosity_terms viscosity; /* Mueller's, with viscosity_model mueller2003 */
    constants_init(&k, w, st);
    fc_heat_terms_of(w, &ht);
    fc_viscosity_terms_of(w, 0, &viscosity);
    fc_tension_terms_of(w, &tt);
    const int found = predict_and_find_neighbours(w, st, (float)dt);
    if (found) return found; /* failed or interrupted */
    if (k.weighted) fill_inverse_masses(w, st, &k);
    for (int iteration = 0; iteration < w->params.solver_iterations; iteration++) {
        if (fc_world_interrupted(w)) return FC_STEP_INTERRUPTED; /* x* lives in st, not yet in w */
        compute_lambda(w, st, &k, &ht);
        apply_corrections(w, st, &k);
    }
    update_velocities(w, st, (float)dt, &ht);
    compute_vorticity_density_xsph(w, st, &k, &ht, &tt, &viscosity, (float)dt);
    apply_confinement_and_viscosity(w, st, &k, &ht, &tt, (float)dt);
    if (fc_sph_air_step(w, &st->air, &st->nh, dt)) return -1;
    return FC_STEP_DONE;
}

/* At the particles' positions, without moving them: sorted, neighbours found, density (FC_DENSITY),
 * vorticity and the XSPH sums computed as after a step. */
static int at_positions(fc_world *w, pbf_state *st, pbf_constants *k)
{
    fc_particles *p = &w->particles;
    if (pbf_reserve(st, p->count) || fc_sph_sort(w, &st->nh, p->field[FC_PX], p->field[FC_PY], p->field[FC_PZ]))
        return -1;
    const float *x = p->field[FC_PX], *y = p->field[FC_PY], *z = p->field[FC_PZ];
    const float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    const long n = (long)p->count;
    for (long i = 0; i < n; i++) {
        st->pos[i] = (fc_record4){x[i], y[i], z[i], 0.0f};
        st->vel[i] = (fc_record4){vx[i], vy[i], vz[i], 0.0f};
    }
    st->pos[n] = st->vel[n] = fc_sph_far_away;
    if (fc_sph_find_neighbours(w, &st->nh, &st->solids, x, y, z, NULL, NULL)) return -1;
    constants_init(k, w, st);
    compute_vorticity_density_xsph(w, st, k, NULL, NULL, NULL, 0.0f);
    return 0;
}

static int pbf_density(fc_world *w, void *state)
{
    pbf_constants k;
    return at_positions(w, state, &k);
}

int fc_pbf_vorticity_acceleration(fc_world *w, float *ax, float *ay, float *az)
{
    if (w->solver != &fc_solver_pbf || !w->solver_state) return -1;
    pbf_state *st = w->solver_state;
    pbf_constants k;
    if (at_positions(w, st, &k)) return -1;
    const long n = (long)w->particles.count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        float f[3];
        confinement(w, st, &k, i, f);
        ax[i] = f[0], ay[i] = f[1], az[i] = f[2];
    }
    return 0;
}

/* The velocity condition: the fastest particle crosses at most cfl_number h in a step (the
 * density constraints hold any stiffness, so no acoustic condition), and the viscous one with
 * Mueller's viscosity on. */
void fc_pbf_limit_dt(const fc_world *w, double max_speed, fc_step_limit *limit)
{
    const fc_params *p = &w->params;
    fc_step_limit_lower(limit, fc_dt_velocity(p->cfl_number, p->smoothing_radius, max_speed), FC_DT_VELOCITY);
    fc_viscosity_limit_dt(w, 0, limit);
    fc_heat_limit_dt(w, limit);
    fc_tension_limit_dt(w, limit);
    fc_air_limit_dt(w, limit);
}

static void pbf_limit_dt(const fc_world *w, const void *state, fc_step_limit *limit)
{
    (void)state;
    fc_pbf_limit_dt(w, fc_particles_max_speed(&w->particles), limit);
}

double fc_pbf_step_work(const fc_params *p, int dims)
{
    return fc_sph_family_step_work(p, dims) * (1.0 + p->solver_iterations) / 5.0;
}

static void pbf_release(fc_world *w, void *state)
{
    (void)w;
    fc_sph_release_lists(&((pbf_state *)state)->nh);
}

static int pbf_stats(const fc_world *w, const void *state, fc_solver_stat *out, int max)
{
    return fc_sph_family_stats(w, fc_sph_mean_neighbours(&((const pbf_state *)state)->nh), out, max);
}

const fc_solver fc_solver_pbf = {
    .name = "pbf",
    .description = "position based fluids (Macklin and Mueller 2013): iterated density constraints, "
                   "tensile correction, vorticity confinement, XSPH viscosity",
    .param_bit = FC_SOLVER_PBF,
    FC_SPH_FAMILY_METHOD,
    .on_host = {.init = pbf_init, .limit_dt = pbf_limit_dt, .step = pbf_step, .density = pbf_density,
                .stats = pbf_stats, .release = pbf_release, .destroy = pbf_destroy},
    .on_device = FC_PBF_ON_DEVICE,
    .default_time_step = 2e-3, /* Macklin and Mueller 2013 step at 1/60 s with 2-4 iterations */
    .step_work = fc_pbf_step_work,
};
