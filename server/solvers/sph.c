/* Weakly compressible SPH (Mueller et al. 2003 as in Bullet-Fluids, seed 001) on the CPU with OpenMP.
 *
 * One step (seed 001 section 5.1): sort particles into the grid and list every particle's
 * neighbours within h once (fluid and boundary, core/neighbours.h, shared with PBF through
 * sph_family.h); density (eq. 7 as fc_sph_density_ratio: the self weight initial_sum and the
 * Akinci boundary particles) and pressure (eq. 3 or Tait); pressure and viscosity accelerations
 * (eqs. 8-9) plus gravity; semi-implicit Euler; collision response. Both neighbour passes read the
 * lists eight neighbours at a time through the lane iterator of core/lanes.h, a neighbour's data in
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
#include <stdlib.h>
#include <string.h>

#include "core/eos.h"
#include "core/kernels.h"
#include "core/lanes.h"
#include "core/solver.h"
#include "solvers/sph_family.h"

typedef struct sph_state {
    fc_sph_neighbourhood nh;
    fc_record4 *pos;               /* (x, y, z, -) of the sorted particles; entry n far away */
    fc_record4 *pressed;           /* (x, y, z, p / rho) after the density pass; entry n far away */
    fc_record4 *vel;               /* (vx, vy, vz, 1 / rho) after the density pass; entry n far away */
    float *ax, *ay, *az;           /* acceleration, m/s^2 */
    size_t capacity;
    double rest_volume;            /* V0 = m / rho0 */
    double gradient_correction;    /* 1 / fc_lattice_spiky_moment: exact pressure gradients at rest (with the
                                      spiky-to-Laplacian constant ratio, 1 in 3D; sph_init) */
} sph_state;

/* Room for n particles and the far record. */
static int sph_reserve(sph_state *st, size_t n)
{
    if (n + 1 <= st->capacity) return 0;
    size_t cap = n + n / 2 + 1024;
    float **floats[] = {&st->ax, &st->ay, &st->az};
    for (size_t a = 0; a < sizeof floats / sizeof floats[0]; a++) {
        float *grown = realloc(*floats[a], cap * sizeof(float));
        if (!grown) return -1;
        *floats[a] = grown;
    }
    fc_record4 **records[] = {&st->pos, &st->pressed, &st->vel};
    for (size_t a = 0; a < sizeof records / sizeof records[0]; a++) {
        fc_record4 *grown = realloc(*records[a], cap * sizeof(fc_record4));
        if (!grown) return -1;
        *records[a] = grown;
    }
    st->capacity = cap;
    return 0;
}

static void sph_destroy(void *state)
{
    sph_state *st = state;
    if (!st) return;
    fc_sph_neighbourhood_free(&st->nh);
    free(st->pos), free(st->pressed), free(st->vel), free(st->ax), free(st->ay), free(st->az);
    free(st);
}

static int sph_init(fc_world *w, void **state, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sph_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    fc_sph_neighbourhood_init(&st->nh, w);
    const fc_params *p = &w->params;
    st->rest_volume = fc_sph_rest_volume(w);
    /* the mass that gives a particle with a full neighbourhood at rest spacing rest density */
    w->particle_mass = (float)(p->rest_density * st->rest_volume);
    /* the forces below share the viscosity Laplacian's constant K (45/(pi h^6) in 3D, which is also
     * the spiky gradient's -3 C): in 2D the spiky gradient's is 30/(pi h^5) against K = 40/(pi h^5),
     * so the pressure sums take their ratio (exactly 1 in 3D) with the lattice correction */
    const double h = p->smoothing_radius;
    st->gradient_correction = 1.0 / fc_lattice_spiky_moment(h, p->particle_spacing, p->initial_sum, w->dimensions) *
                              (-fc_spiky_gradient_coefficient(h, w->dimensions) /
                               fc_viscosity_laplacian_coefficient(h, w->dimensions));
    *state = st;
    return 0;
}

/* Speed of sound of the chosen equation of state: c for Tait, sqrt(k) for p = k (rho - rho0). */
static double sound_speed(const fc_params *p)
{
    return p->equation_of_state == FC_EOS_TAIT ? p->speed_of_sound : sqrt(p->stiffness);
}

static double sph_choose_dt(const fc_world *w, const void *state)
{
    (void)state;
    const fc_params *p = &w->params;
    if (p->cfl_number <= 0.0) return p->time_step;
    const fc_particles *pt = &w->particles;
    const float *vx = pt->field[FC_VX], *vy = pt->field[FC_VY], *vz = pt->field[FC_VZ];
    const long n = (long)pt->count;
    float max2 = 0.0f;
#pragma omp parallel for schedule(static) reduction(max : max2)
    for (long i = 0; i < n; i++) {
        float s2 = vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i];
        if (s2 > max2) max2 = s2;
    }
    return p->cfl_number * p->smoothing_radius / (sound_speed(p) + sqrt((double)max2));
}

/* Pressure from the chosen equation of state (core/eos.h), negative pressure clamped on request. */
static float pressure_from_density(const fc_params *p, float rho)
{
    const float rho0 = (float)p->rest_density;
    float pressure;
    if (p->equation_of_state == FC_EOS_LINEAR) {
        pressure = fc_eos_linear(rho, rho0, (float)p->stiffness);
    } else {
        const float B = (float)fc_eos_tait_coefficient(p->rest_density, p->speed_of_sound);
        pressure = fc_eos_tait(rho, rho0, B);
    }
    return (p->clamp_negative_pressure && pressure < 0.0f) ? 0.0f : pressure;
}

/* Density (fc_sph_density_ratio: eq. 7 with Akinci boundary particles) and pressure of every
 * particle from its lists, into FC_DENSITY and the records the force pass reads: pressed[i] =
 * (x_i, p_i / rho_i) and vel[i].w = 1 / rho_i. Reads pos, writes pressed and vel. */
static void compute_density_pressure(fc_world *w, sph_state *st, const fc_sph_kernel *k)
{
    const fc_params *prm = &w->params;
    fc_particles *p = &w->particles;
    const fc_neighbour_list *fluid = &st->nh.lists[FC_SPH_FLUID];
    const fc_record4 *pos = st->pos;
    float *rho = p->field[FC_DENSITY];
    const float rho0 = (float)prm->rest_density;
    const long n = (long)p->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        const fc_record4 at = pos[i];
        fc_f8 sum = fc_f8_splat(0.0f);
        for (fc_lanes8 nb = fc_lanes8_of(fluid, (size_t)i, pos, at.x, at.y, at.z); fc_lanes8_next(&nb);) {
            fc_f8 d3, g;
            fc_sph_kernel_terms(k, nb.r2, &d3, &g);
            sum += d3;
        }
        const float solid = fc_sph_solid_sum(k, &st->nh, (size_t)i, at.x, at.y, at.z);
        const float density = rho0 * fc_sph_density_ratio(k, fc_f8_sum(sum), solid);
        const float inv_density = 1.0f / density;
        rho[i] = density;
        st->pressed[i] = (fc_record4){at.x, at.y, at.z, pressure_from_density(prm, density) * inv_density};
        st->vel[i].w = inv_density;
    }
}

/* Accelerations: gravity, pressure (eq. 8 without its 1/2, see the top), viscosity (eq. 9) and the
 * boundary pressure of Akinci et al. 2012, from particle i's lists. With g_ij = (h - r)^2 / r (the
 * spiky gradient without its constant) and 45 m / (pi h^6) in front:
 *   pressure   sum_j (p_i + p_j) / (rho_i rho_j) g_ij (x_i - x_j)
 *   viscosity  mu sum_j (v_j - v_i) / (rho_i rho_j) (h - r)
 *   boundary   2 p_i / rho_i^2 sum_b V_b g_ib (x_i - x_b), times rho0 instead of m: a boundary
 *              particle acts as a fluid particle of mass rho0 V_b mirroring p_i and rho_i. */
static void compute_accelerations(fc_world *w, sph_state *st, const fc_sph_kernel *k)
{
    const fc_params *prm = &w->params;
    const fc_particles *p = &w->particles;
    const fc_neighbour_list *fluid = &st->nh.lists[FC_SPH_FLUID], *solid = &st->nh.lists[FC_SPH_SOLID];
    const fc_record4 *pressed = st->pressed, *vel = st->vel;
    const float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    const float mu = (float)prm->viscosity;
    /* 45 m / (pi h^6) in front of eqs. 8 and 9; spiky in k carries 45 / (pi h^6) with its sign */
    const float fluid_coeff = (float)(w->particle_mass * fc_viscosity_laplacian_coefficient(k->h_scalar, w->dimensions));
    const float boundary_coeff = (float)(prm->rest_density * fc_viscosity_laplacian_coefficient(k->h_scalar, w->dimensions));
    const float correction = (float)st->gradient_correction;
    const float gx = (float)prm->gravity_x, gy = (float)prm->gravity_y;
    const float gz = w->dimensions == 2 ? 0.0f : (float)prm->gravity_z; /* a 2D world stays in z = 0 */
    const fc_f8 zero = fc_f8_splat(0.0f);
    const long n = (long)p->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        const fc_record4 at = pressed[i];
        const float inv_rho_i = vel[i].w, p_i = at.w / inv_rho_i;
        const fc_f8 pi = fc_f8_splat(p_i), vxi = fc_f8_splat(vx[i]), vyi = fc_f8_splat(vy[i]), vzi = fc_f8_splat(vz[i]);
        fc_f8 px = zero, py = zero, pz = zero, ux = zero, uy = zero, uz = zero;
        for (fc_lanes8 nb = fc_lanes8_of(fluid, (size_t)i, pressed, at.x, at.y, at.z); fc_lanes8_next(&nb);) {
            fc_f8 vxj, vyj, vzj, inv_rho_j, inv_r;
            fc_lanes8_gather(&nb, vel, &vxj, &vyj, &vzj, &inv_rho_j);
            const fc_f8 q = fc_sph_distance_terms(k, nb.r2, &inv_r);
            const fc_f8 pair = (pi * inv_rho_j + nb.w) * q * q * inv_r; /* w: p_j / rho_j */
            px += pair * nb.dx, py += pair * nb.dy, pz += pair * nb.dz;
            const fc_f8 visc = inv_rho_j * q;
            ux += visc * (vxj - vxi), uy += visc * (vyj - vyi), uz += visc * (vzj - vzi);
        }
        float wall[3] = {0.0f, 0.0f, 0.0f};
        const float mirrored_pair = 2.0f * at.w * inv_rho_i; /* 2 p_i / rho_i^2 */
        if (mirrored_pair > 0.0f && solid->start[i] < solid->start[i + 1]) {
            fc_f8 sx = zero, sy = zero, sz = zero;
            for (fc_lanes8 nb = fc_lanes8_of(solid, (size_t)i, st->nh.solid, at.x, at.y, at.z); fc_lanes8_next(&nb);) {
                fc_f8 inv_r;
                const fc_f8 q = fc_sph_distance_terms(k, nb.r2, &inv_r);
                const fc_f8 pair = nb.w * q * q * inv_r; /* w: V_b */
                sx += pair * nb.dx, sy += pair * nb.dy, sz += pair * nb.dz;
            }
            wall[0] = mirrored_pair * fc_f8_sum(sx), wall[1] = mirrored_pair * fc_f8_sum(sy),
            wall[2] = mirrored_pair * fc_f8_sum(sz);
        }
        const float pressure_scale = correction * inv_rho_i, viscosity_scale = mu * inv_rho_i;
        st->ax[i] = gx + fluid_coeff * (pressure_scale * fc_f8_sum(px) + viscosity_scale * fc_f8_sum(ux)) +
                    correction * boundary_coeff * wall[0];
        st->ay[i] = gy + fluid_coeff * (pressure_scale * fc_f8_sum(py) + viscosity_scale * fc_f8_sum(uy)) +
                    correction * boundary_coeff * wall[1];
        st->az[i] = gz + fluid_coeff * (pressure_scale * fc_f8_sum(pz) + viscosity_scale * fc_f8_sum(uz)) +
                    correction * boundary_coeff * wall[2];
    }
}

/* Semi-implicit Euler: v += a dt, then x += v dt. */
static void integrate(fc_world *w, const sph_state *st, float dt)
{
    fc_particles *p = &w->particles;
    float *x = p->field[FC_PX], *y = p->field[FC_PY], *z = p->field[FC_PZ];
    float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    const long n = (long)p->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        vx[i] += st->ax[i] * dt, vy[i] += st->ay[i] * dt, vz[i] += st->az[i] * dt;
        x[i] += vx[i] * dt, y[i] += vy[i] * dt, z[i] += vz[i] * dt;
    }
}

/* Sorts the particles into the grid, lists their neighbours (once for the step) and computes
 * density and pressure at their positions. */
static int density_at_positions(fc_world *w, sph_state *st, const fc_sph_kernel *k)
{
    fc_particles *p = &w->particles;
    if (sph_reserve(st, p->count)) return -1;
    if (fc_sph_sort(w, &st->nh, p->field[FC_PX], p->field[FC_PY], p->field[FC_PZ])) return -1;
    const float *x = p->field[FC_PX], *y = p->field[FC_PY], *z = p->field[FC_PZ];
    const float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    const long n = (long)p->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        st->pos[i] = (fc_record4){x[i], y[i], z[i], 0.0f};
        st->vel[i] = (fc_record4){vx[i], vy[i], vz[i], 0.0f};
    }
    st->pos[n] = st->pressed[n] = st->vel[n] = fc_sph_far_away;
    if (fc_sph_find_neighbours(w, &st->nh, x, y, z)) return -1;
    compute_density_pressure(w, st, k);
    return 0;
}

static int sph_density(fc_world *w, void *state)
{
    sph_state *st = state;
    fc_sph_kernel k;
    fc_sph_kernel_init(&k, w, st->rest_volume);
    return density_at_positions(w, st, &k);
}

static int sph_step(fc_world *w, void *state, double dt)
{
    sph_state *st = state;
    fc_sph_kernel k;
    fc_sph_kernel_init(&k, w, st->rest_volume);
    if (density_at_positions(w, st, &k)) return -1;
    if (fc_world_interrupted(w)) return FC_STEP_INTERRUPTED;
    compute_accelerations(w, st, &k);
    if (fc_world_interrupted(w)) return FC_STEP_INTERRUPTED;
    integrate(w, st, (float)dt);
    fc_collide_particles(w);
    return FC_STEP_DONE;
}

static int sph_stats(const fc_world *w, const void *state, fc_solver_stat *out, int max)
{
    return fc_sph_family_stats(w, fc_sph_mean_neighbours(&((const sph_state *)state)->nh), out, max);
}

const fc_solver fc_solver_sph = {
    .name = "sph",
    .description = "weakly compressible SPH (Mueller 2003, Bullet-Fluids), Tait or linear equation of state",
    .param_bit = FC_SOLVER_SPH,
    .needs = FC_NEEDS_GRID | FC_NEEDS_BOUNDARY,
    .check_params = fc_sph_family_check_params,
    .init = sph_init,
    .choose_dt = sph_choose_dt,
    .sound_speed = sound_speed,
    .step = sph_step,
    .density = sph_density,
    .stats = sph_stats,
    .destroy = sph_destroy,
};
