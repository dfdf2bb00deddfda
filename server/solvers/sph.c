/* Weakly compressible SPH (Mueller et al. 2003 as in Bullet-Fluids, seed 001) on the CPU with OpenMP.
 *
 * One step (seed 001 section 5.1): sort particles into the grid and list every particle's
 * neighbours within h once (fluid and boundary, core/neighbours.h, shared with PBF through
 * sph_family.h); density (eq. 7 as fc_sph_density_ratio: the self weight initial_sum and the
 * Akinci boundary particles; its two poly6 sums are added up by the neighbour search itself, from
 * the distances it computes anyway, so density costs no pass over the lists) and pressure (eq. 3
 * or Tait); pressure and viscosity accelerations
 * (eqs. 8-9) plus gravity; semi-implicit Euler; collision response. The force pass reads the
 * lists FC_LANES neighbours at a time through the lane iterator of core/lanes.h, a neighbour's data in
 * two 16-byte records: (x, y, z, p / rho) and (v, 1 / rho).
 *
 * Erratum to eq. 8: its pair term (p_i + p_j) / (2 rho_i rho_j) estimates only half of grad p
 * inside the fluid, because sum_j V_j grad W_ij = 0 there while sum_j V_j p_j grad W_ij = grad p.
 * A settled column then carries twice the hydrostatic pressure (tests/test_physics.c measured
 * 2.2 rho0 g d with it). We use the symmetric form without the 1/2,
 *   a_i = -sum_j m (p_i + p_j) / (rho_i rho_j) grad W_spiky(r_ij),
 * which conserves momentum as eq. 8 does and gives grad p / rho; it is divided by the kernel
 * gradient's moment on the rest lattice (kernels.h, 0.947 at h = 2 spacings) just as the mass is
 * calibrated on that lattice, so that hydrostatic pressure comes out right.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/colliders.h"
#include "core/eos.h"
#include "core/kernels.h"
#include "core/lanes.h"
#include "core/solver.h"
#include "solvers/sph_family.h"

typedef struct sph_state {
    fc_sph_solids solids;          /* first: the family's (fc_sph_family_boundary) */
    fc_sph_neighbourhood nh;
    fc_record4 *pressed;           /* (x, y, z, r p / rho) of the sorted particles; entry n far away */
    fc_record4 *vel;               /* (vx, vy, vz, r / rho) of the sorted particles; entry n far away */
    fc_record4 *mvel;              /* (M vx, M vy, M vz, M), M = mu (m / m_0) / rho, for mixed viscosities; entry n 0 */
    fc_record4 *scalars;           /* (T, k, c^i, c^s) of the sorted particles, with heat conduction or tension:
                                      temperature and conductivity, the tension's colours; entry n 0 */
    fc_record4 *dens;              /* (rho, r, 0, 0), r = m / m_0, with artificial viscosity; entry n far away */
    fc_record4 *normal_s, *normal_i; /* (n^, |grad c^s|) (fc_tension_normal) and (grad c^i, lap c^i)
                                        (fc_tension_interface), with tension */
    float *ax, *ay, *az;           /* acceleration, m/s^2 */
    float *sx, *sy, *sz;           /* the contact's shift (fc_contact_pair), m, with tension */
    float *heat_rate;              /* dT/dt, K/s, with heat conduction */
    float *fluid_d3, *solid_d3;    /* the sums of fc_sph_density_ratio, found with the neighbours */
    double max_acceleration;       /* the largest |a| of the last step, for the force condition */
    size_t capacity;
    double rest_volume;            /* V0 = m / rho0 */
    double gradient_correction;    /* 1 / fc_lattice_spiky_moment: exact pressure gradients at rest (with the
                                      spiky-to-Laplacian constant ratio, 1 in 3D; sph_init) */
    fc_air_state air;              /* the trapped air's pass (solvers/air.c) */
} sph_state;

/* Room for n particles and the far record. */
static int sph_reserve(sph_state *st, size_t n)
{
    if (n + 1 <= st->capacity) return 0;
    size_t cap = n + n / 2 + 1024;
    void **const floats[] = {(void **)&st->ax,       (void **)&st->ay,       (void **)&st->az,
                             (void **)&st->fluid_d3, (void **)&st->solid_d3, (void **)&st->heat_rate,
                             (void **)&st->sx,       (void **)&st->sy,       (void **)&st->sz};
    void **const records[] = {(void **)&st->pressed, (void **)&st->vel, (void **)&st->mvel, (void **)&st->scalars,
                              (void **)&st->dens, (void **)&st->normal_s, (void **)&st->normal_i};
    if (fc_sph_grow_arrays(floats, sizeof floats / sizeof floats[0], cap, sizeof(float)) ||
        fc_sph_grow_arrays(records, sizeof records / sizeof records[0], cap, sizeof(fc_record4)))
        return -1;
    st->capacity = cap;
    return 0;
}

static void sph_destroy(void *state)
{
    sph_state *st = state;
    if (!st) return;
    fc_sph_neighbourhood_free(&st->nh);
    fc_sph_solids_free(&st->solids);
    free(st->pressed), free(st->vel), free(st->mvel), free(st->scalars), free(st->dens), free(st->normal_s);
    free(st->normal_i), free(st->ax), free(st->ay), free(st->az), free(st->sx), free(st->sy), free(st->sz);
    free(st->fluid_d3), free(st->solid_d3), free(st->heat_rate);
    fc_air_state_free(&st->air);
    free(st);
}

static int sph_init(fc_world *w, void **state, char *err, size_t errlen)
{
    sph_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    if (fc_sph_family_start(w, &st->solids, &st->nh, &st->rest_volume)) {
        sph_destroy(st);
        snprintf(err, errlen, "out of memory while sampling boundaries");
        return FC_BUILD_OUT_OF_MEMORY;
    }
    st->gradient_correction = fc_wcsph_gradient_correction(w);
    *state = st;
    return 0;
}

/* WCSPH's stability conditions (fc_wcsph_limit_dt) with the largest speed now and the largest
 * acceleration of the step before. */
static void sph_limit_dt(const fc_world *w, const void *state, fc_step_limit *limit)
{
    const sph_state *st = state;
    fc_wcsph_limit_dt(w, fc_particles_max_speed(&w->particles), st->max_acceleration, limit);
}

/* Density (fc_sph_density_ratio: eq. 7 with Akinci boundary particles, its sums found with the
 * neighbours) and pressure of every particle, into FC_DENSITY and the records the force pass reads: pressed[i] =
 * (x_i, r_i p_i / rho_i) and vel[i].w = r_i / rho_i, r_i = m_i / m_0 the particle's mass over
 * fluid 0's (the force pass has m_0 in front). Several fluids: each particle's density is its own
 * fluid's rest density times the ratio, rho_i = m_i sum_j W_ij, the number-density form of
 * Solenthaler and Pajarola 2008 (no spurious density jump where fluids of different rest densities
 * meet), and its pressure its fluid's equation of state about its rest density at its temperature
 * (fc_heat_rest_density: a warm particle with the same mass asks for more room, so it rises). With
 * heat conduction or tension, scalars[i] = (T_i, k_i, c^i_i, c^s_i), with fluids of several
 * viscosities mvel[i] = (M v_i, M) (fc_viscosity_weight), and with artificial viscosity dens[i] =
 * (rho_i, r_i), for the force pass. */
static void compute_density_pressure(fc_world *w, sph_state *st, const fc_sph_kernel *k, const fc_heat_terms *ht,
                                     const fc_tension_terms *tt, const fc_wcsph_forces *t)
{
    fc_particles *p = &w->particles;
    const float *x = p->field[FC_PX], *y = p->field[FC_PY], *z = p->field[FC_PZ];
    const float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    float *rho = p->field[FC_DENSITY];
    const float *temperature = p->field[FC_TEMPERATURE];
    const uint8_t *of = p->u8[FC_FLUID];
    float rest[FC_MAX_FLUIDS], ratio[FC_MAX_FLUIDS];
    fc_wcsph_eos eos;
    fc_sph_fluid_values(w, FC_SPH_REST_DENSITY, rest);
    fc_wcsph_eos_of(w, &eos);
    fc_sph_mass_ratios(w, ratio);
    const int artificial = w->params.artificial_viscosity > 0.0, scalars = ht->conduction || tt->on;
    const long n = (long)p->count;
    const fc_neighbour_shares *shares = &st->nh.shares;
    fc_shares_open(shares);
#pragma omp parallel
    for (size_t lo, hi; fc_shares_take(shares, FC_SHARE_CHUNK, &lo, &hi);)
        for (long i = (long)lo; i < (long)hi; i++) {
            const int f = of[i];
            const float density = rest[f] * fc_sph_density_ratio(k, st->fluid_d3[i], st->solid_d3[i]);
            const float rest_now = ht->expands ? fc_heat_rest_density(ht, f, rest[f], temperature[i]) : rest[f];
            float r_over_rho, rp_over_rho;
            fc_wcsph_particle_terms(&eos, f, density, rest_now, ratio[f], &r_over_rho, &rp_over_rho);
            rho[i] = density;
            st->pressed[i] = (fc_record4){x[i], y[i], z[i], rp_over_rho};
            st->vel[i] = (fc_record4){vx[i], vy[i], vz[i], r_over_rho};
            if (scalars)
                st->scalars[i] = (fc_record4){temperature[i], ht->conductivity[f], tt->colour[f], tt->liquid[f]};
            if (t->mixed) {
                const float m = fc_viscosity_weight(t->mu[f], r_over_rho);
                st->mvel[i] = (fc_record4){m * vx[i], m * vy[i], m * vz[i], m};
            }
            if (artificial) st->dens[i] = (fc_record4){density, ratio[f], 0.0f, 0.0f};
        }
    st->pressed[n] = st->vel[n] = st->dens[n] = fc_sph_far_away;
    st->scalars[n] = st->mvel[n] = (fc_record4){0.0f, 0.0f, 0.0f, 0.0f}; /* no conductivity, no colour */
}

/* Particle i's acceleration (fc_wcsph_acceleration) from the sums of the pair terms of sph_terms.h
 * over its lists: pressure (eq. 8 without its 1/2, see the top), viscosity (eq. 9) and the boundary
 * pressure of Akinci et al. 2012. A pair of fluids of different viscosities uses the mean,
 * mu_ij = (mu_i + mu_j) / 2, which keeps the viscous forces of a pair equal and opposite (Morris,
 * Fox and Zhu 1997 average the pair's coefficients the same way); mixed = 0 is the case of one
 * viscosity, mu_ij = mu_i, and the compiler drops the second sum. TERM_ARTIFICIAL adds Monaghan's
 * artificial viscosity (fc_wcsph_artificial_pair). With TERM_HEAT (conduction on), its dT/dt from
 * the same pass (fc_heat_pair, fc_heat_rate): heat joins the force pass, no pass of its own. With
 * TERM_TENSION, the tension's colour sums join it too (fc_tension_normal_pair, with this step's
 * volumes V_j = m_j / rho_j): i's normals go to normal_s and normal_i, and the tension itself, which
 * needs the neighbours' normals, is added after every particle's (advance_particles). The contact
 * (fc_contact_pair) sums the shift that keeps i off its neighbours' points into shift.
 * The terms' per-particle scalars (T, k, c^i, c^s) come in one record, so heat and tension gather
 * once together. */
enum { TERM_MIXED = 1, TERM_HEAT = 2, TERM_ARTIFICIAL = 4, TERM_TENSION = 8 };
/* always inlined: with sixteen variants gcc otherwise makes one function that tests every flag per
 * neighbour, and plain WCSPH pays for the terms it leaves out */
static inline __attribute__((always_inline)) void acceleration_of(const fc_world *w, sph_state *st,
                                                                  const fc_sph_kernel *k, const fc_wcsph_forces *t,
                                                                  const fc_heat_terms *ht, const fc_tension_terms *tt,
                                                                  long i, const unsigned terms, float a[3],
                                                                  float shift[3])
{
    const int mixed = terms & TERM_MIXED, heat = terms & TERM_HEAT, artificial = terms & TERM_ARTIFICIAL,
              tension = terms & TERM_TENSION;
    const fc_particles *p = &w->particles;
    const fc_neighbour_list *fluid = &st->nh.lists[FC_SPH_FLUID], *solid = &st->nh.lists[FC_SPH_SOLID];
    const fc_record4 *pressed = st->pressed, *vel = st->vel;
    const fc_fv zero = fc_fv_splat(0.0f);
    const int f = p->u8[FC_FLUID][i];
    const fc_record4 at = pressed[i];
    const float r_over_rho_i = vel[i].w, p_i = at.w / r_over_rho_i;
    const fc_fv pi = fc_fv_splat(p_i), vxi = fc_fv_splat(vel[i].x), vyi = fc_fv_splat(vel[i].y), vzi = fc_fv_splat(vel[i].z);
    fc_fv px = zero, py = zero, pz = zero, ux = zero, uy = zero, uz = zero, mx = zero, my = zero, mz = zero;
    fc_fv conducted = zero, avx = zero, avy = zero, avz = zero, cx = zero, cy = zero, cz = zero;
    const fc_fv rho_i = fc_fv_splat(artificial ? st->dens[i].x : 0.0f);
    const fc_record4 scalars_i = heat || tension ? st->scalars[i] : fc_sph_far_away;
    const fc_fv ti = fc_fv_splat(scalars_i.x), ki = fc_fv_splat(scalars_i.y), ci = fc_fv_splat(scalars_i.z);
    fc_fv gs[3] = {zero, zero, zero}, gi[3] = {zero, zero, zero}, li = zero;
    for (fc_lanes nb = fc_lanes_of(fluid, (size_t)i, pressed, at.x, at.y, at.z); fc_lanes_next(&nb);) {
        fc_fv vxj, vyj, vzj, r_over_rho_j, inv_r;
        fc_lanes_gather(&nb, vel, &vxj, &vyj, &vzj, &r_over_rho_j);
        const fc_fv q = fc_sph_distance_terms(k, nb.r2, &inv_r);
        const fc_fv pair = fc_wcsph_pressure_pair(pi, r_over_rho_j, nb.w, q, inv_r); /* w: r_j p_j / rho_j */
        px += pair * nb.dx, py += pair * nb.dy, pz += pair * nb.dz;
        const fc_fv visc = fc_viscosity_pair(r_over_rho_j, q);
        ux += visc * (vxj - vxi), uy += visc * (vyj - vyi), uz += visc * (vzj - vzi);
        const fc_fv apart = fc_contact_pair(t, nb.r2, inv_r);
        cx += apart * nb.dx, cy += apart * nb.dy, cz += apart * nb.dz;
        if (mixed) { /* (M v_j, M) with M = mu_j r_j / rho_j */
            fc_fv mvx, mvy, mvz, m;
            fc_lanes_gather(&nb, st->mvel, &mvx, &mvy, &mvz, &m);
            mx += fc_viscosity_mixed_pair(q, mvx, m, vxi), my += fc_viscosity_mixed_pair(q, mvy, m, vyi);
            mz += fc_viscosity_mixed_pair(q, mvz, m, vzi);
        }
        if (heat || tension) { /* (T_j, k_j, c^i_j, c^s_j) */
            fc_fv tj, kj, cj, csj;
            fc_lanes_gather(&nb, st->scalars, &tj, &kj, &cj, &csj);
            if (heat) conducted += fc_heat_pair(ht, ti, ki, r_over_rho_j, tj, kj, q, nb.r2, inv_r);
            if (tension) {
                const fc_fv x_ij[3] = {nb.dx, nb.dy, nb.dz};
                fc_tension_normal_pair(tt, r_over_rho_j, cj - ci, csj, nb.r2, x_ij, gs, gi, &li);
            }
        }
        if (artificial) { /* (rho_j, r_j) */
            fc_fv rho_j, r_j, unused_z, unused_w;
            fc_lanes_gather(&nb, st->dens, &rho_j, &r_j, &unused_z, &unused_w);
            const fc_fv v_dot_x = (vxi - vxj) * nb.dx + (vyi - vyj) * nb.dy + (vzi - vzj) * nb.dz;
            const fc_fv damp = fc_wcsph_artificial_pair(t, v_dot_x, nb.r2, rho_i, rho_j, r_j, q, inv_r);
            avx += damp * nb.dx, avy += damp * nb.dy, avz += damp * nb.dz;
        }
    }
    float wall[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (p_i > 0.0f && solid->start[i] < solid->start[i + 1]) {
        fc_fv sx = zero, sy = zero, sz = zero;
        for (fc_lanes nb = fc_lanes_of(solid, (size_t)i, st->nh.solid, at.x, at.y, at.z); fc_lanes_next(&nb);) {
            fc_fv inv_r;
            const fc_fv q = fc_sph_distance_terms(k, nb.r2, &inv_r);
            const fc_fv pair = fc_wcsph_boundary_pair(nb.w, q, inv_r); /* w: V_b */
            sx += pair * nb.dx, sy += pair * nb.dy, sz += pair * nb.dz;
        }
        fc_fv_sum4(sx, sy, sz, zero, wall);
    }
    float pressure[4], velocity[4], mixed_sums[4], artificial_sums[4], contact[4];
    fc_fv_sum4(px, py, pz, zero, pressure);
    fc_fv_sum4(cx, cy, cz, zero, contact);
    shift[0] = contact[0], shift[1] = contact[1], shift[2] = contact[2];
    fc_fv_sum4(ux, uy, uz, zero, velocity);
    if (mixed) fc_fv_sum4(mx, my, mz, zero, mixed_sums);
    if (artificial) fc_fv_sum4(avx, avy, avz, zero, artificial_sums);
    fc_wcsph_acceleration(t, f, r_over_rho_i, p_i, pressure, velocity, mixed ? mixed_sums : NULL,
                          artificial ? artificial_sums : NULL, wall, a);
    if (tension) {
        fc_sph_tension_boundary(tt, &st->nh, (size_t)i, at.x, at.y, at.z, ci, gs, gi, &li);
        fc_sph_tension_normals(tt, gs, gi, li, &st->normal_s[i], &st->normal_i[i]);
    }
    if (heat) st->heat_rate[i] = fc_heat_rate(ht, f, r_over_rho_i / t->ratio[f], fc_fv_sum(conducted));
}

/* Semi-implicit Euler for particle i: v += a dt, then x += v dt, then the contact's shift (positions
 * only, fc_contact_pair); keeps the largest |a|^2 in *max_a2.
 * With heat conduction, forward Euler T += dT/dt dt (stable under the thermal condition of the
 * adaptive step), then the heat of the hot and cold solids near the particle (fc_contact_heat).
 * Then the collision response (fc_collide_point, as fc_collide_particles gives it). The force pass
 * reads the particles through its records (pressed, vel, ...), never the fields written here, so a
 * particle moves as soon as its acceleration is known. */
static inline __attribute__((always_inline)) void integrate_particle(fc_particles *p, const sph_state *st,
                                                                     const fc_collision *c, const fc_heat_terms *ht,
                                                                     float dt, long i, const float a[3],
                                                                     const float shift[3], float *max_a2)
{
    const float a2 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    if (a2 > *max_a2) *max_a2 = a2; /* NaN compares false */
    float *x = p->field[FC_PX], *y = p->field[FC_PY], *z = p->field[FC_PZ];
    float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    float v[3] = {vx[i], vy[i], vz[i]}, at[3] = {x[i], y[i], z[i]};
    fc_wcsph_integrate(a, dt, v, at);
    for (int k = 0; k < 3; k++) at[k] += shift[k];
    if (ht->conduction) {
        float *temperature = p->field[FC_TEMPERATURE];
        temperature[i] = fc_contact_heat(c, at, ht->contact[p->u8[FC_FLUID][i]], dt,
                                         temperature[i] + st->heat_rate[i] * dt);
    }
    fc_collide_point(c, at, v);
    vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
    x[i] = at[0], y[i] = at[1], z[i] = at[2];
}

/* Every particle's acceleration (acceleration_of), then its motion (integrate_particle), in one
 * parallel region: the pair viscosity's second sum only when the world's fluids differ in viscosity,
 * the artificial viscosity only when it is on, the conduction sum only with heat conduction on and
 * the colour sums only with tension on. Without tension a particle moves right after its sums; with
 * tension its acceleration waits in ax until every normal is known. */
static void advance_particles(fc_world *w, sph_state *st, const fc_sph_kernel *k, const fc_wcsph_forces *t,
                              const fc_heat_terms *ht, const fc_tension_terms *tt, float dt)
{
    fc_particles *p = &w->particles;
    const unsigned terms = (t->mixed ? TERM_MIXED : 0u) | (ht->conduction ? TERM_HEAT : 0u) |
                           (t->artificial > 0.0f ? TERM_ARTIFICIAL : 0u) | (tt->on ? TERM_TENSION : 0u);
    const fc_neighbour_list *fluid = &st->nh.lists[FC_SPH_FLUID];
    const uint8_t *of = p->u8[FC_FLUID];
    const fc_neighbour_shares *shares = &st->nh.shares;
    fc_collision c;
    fc_collision_init(&c, w, FC_WALLS_SOFT, 1); /* a clamp lands particles on one point (collide.h) */
    float max_a2 = 0.0f;
    fc_shares_open(shares);
#pragma omp parallel reduction(max : max_a2)
    {
        for (size_t lo, hi; fc_shares_take(shares, FC_SHARE_CHUNK, &lo, &hi);)
            for (long i = (long)lo; i < (long)hi; i++) {
                float a[3], shift[3];
                switch (terms) { /* constant flags: the compiler drops the sums a variant leaves out */
#define TERMS_CASE(v) \
    case v: acceleration_of(w, st, k, t, ht, tt, i, v, a, shift); break;
                    TERMS_CASE(0) TERMS_CASE(1) TERMS_CASE(2) TERMS_CASE(3) TERMS_CASE(4) TERMS_CASE(5)
                    TERMS_CASE(6) TERMS_CASE(7) TERMS_CASE(8) TERMS_CASE(9) TERMS_CASE(10) TERMS_CASE(11)
                    TERMS_CASE(12) TERMS_CASE(13) TERMS_CASE(14) TERMS_CASE(15)
#undef TERMS_CASE
                default: a[0] = a[1] = a[2] = shift[0] = shift[1] = shift[2] = 0.0f;
                }
                if (tt->on) {
                    st->ax[i] = a[0], st->ay[i] = a[1], st->az[i] = a[2];
                    st->sx[i] = shift[0], st->sy[i] = shift[1], st->sz[i] = shift[2];
                } else {
                    integrate_particle(p, st, &c, ht, dt, i, a, shift, &max_a2);
                }
            }
        if (tt->on) { /* every normal is known now: the tension (its curvature loops over surface particles only) */
#pragma omp barrier
#pragma omp single
            fc_shares_open(shares);
            for (size_t lo, hi; fc_shares_take(shares, FC_SHARE_CHUNK, &lo, &hi);)
                for (long i = (long)lo; i < (long)hi; i++) {
                    float a[3] = {st->ax[i], st->ay[i], st->az[i]};
                    const float shift[3] = {st->sx[i], st->sy[i], st->sz[i]};
                    fc_sph_tension_of(tt, fluid, st->pressed, st->vel, 0.0f, st->normal_s, st->normal_i, i, of[i], a);
                    integrate_particle(p, st, &c, ht, dt, i, a, shift, &max_a2);
                }
        }
    }
    st->max_acceleration = sqrt((double)max_a2);
}

/* What one step's passes read: the kernel, the force constants and the terms' coefficients. */
typedef struct step_terms {
    fc_sph_kernel kernel;
    fc_wcsph_forces forces;
    fc_heat_terms heat;
    fc_tension_terms tension;
} step_terms;

static void step_terms_of(const fc_world *w, const sph_state *st, step_terms *terms)
{
    fc_sph_kernel_init(&terms->kernel, w, st->rest_volume);
    fc_wcsph_forces_of(w, st->gradient_correction, &terms->forces);
    fc_heat_terms_of(w, &terms->heat);
    fc_tension_terms_of(w, &terms->tension);
}

/* Sorts the particles into the grid, lists their neighbours (once for the step) and computes
 * density and pressure at their positions. */
static int density_at_positions(fc_world *w, sph_state *st, const step_terms *terms)
{
    fc_particles *p = &w->particles;
    if (sph_reserve(st, p->count)) return -1;
    if (fc_sph_sort(w, &st->nh, p->field[FC_PX], p->field[FC_PY], p->field[FC_PZ])) return -1;
    const int found = fc_sph_find_neighbours(w, &st->nh, &st->solids, p->field[FC_PX], p->field[FC_PY], p->field[FC_PZ],
                                             st->fluid_d3, st->solid_d3);
    if (found) return found; /* failed or interrupted */
    compute_density_pressure(w, st, &terms->kernel, &terms->heat, &terms->tension, &terms->forces);
    return 0;
}

static int sph_density(fc_world *w, void *state)
{
    sph_state *st = state;
    step_terms terms;
    step_terms_of(w, st, &terms);
    return density_at_positions(w, st, &terms);
}

/* Two passes over the lists: the listing, which sums density, and the force pass, which every
 * term joins (the tension's curvature then loops over the surface particles' lists). */
static int sph_step(fc_world *w, void *state, double dt)
{
    sph_state *st = state;
    step_terms terms;
    step_terms_of(w, st, &terms);
    const int found = density_at_positions(w, st, &terms);
    if (found) return found;
    if (fc_world_interrupted(w)) return FC_STEP_INTERRUPTED;
    advance_particles(w, st, &terms.kernel, &terms.forces, &terms.heat, &terms.tension, (float)dt);
    if (fc_sph_air_step(w, &st->air, &st->nh, dt)) return -1;
    return FC_STEP_DONE;
}

static void sph_release(fc_world *w, void *state)
{
    (void)w;
    fc_sph_release_lists(&((sph_state *)state)->nh);
}

static int sph_stats(const fc_world *w, const void *state, fc_solver_stat *out, int max)
{
    return fc_sph_family_stats(w, fc_sph_mean_neighbours(&((const sph_state *)state)->nh), out, max);
}

const fc_solver fc_solver_sph = {
    .name = "sph",
    .description = "weakly compressible SPH (Mueller 2003, Bullet-Fluids), Tait or linear equation of state",
    .param_bit = FC_SOLVER_SPH,
    FC_SPH_FAMILY_METHOD,
    .on_host = {.init = sph_init, .limit_dt = sph_limit_dt, .step = sph_step, .density = sph_density,
                .stats = sph_stats, .release = sph_release, .destroy = sph_destroy},
    .on_device = FC_WCSPH_ON_DEVICE,
    .default_time_step = 5e-4,
    .step_work = fc_sph_family_step_work,
    .sound_speed = fc_wcsph_sound_speed,
    .object_loads = fc_wcsph_object_loads,
};
