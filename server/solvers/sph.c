/* Weakly compressible SPH (Mueller et al. 2003 as in Bullet-Fluids, seed 001) on the CPU with OpenMP.
 *
 * One step (seed 001 section 5.1): sort particles into the grid; density (eq. 7, with the
 * self weight initial_sum and Akinci boundary particles) and pressure (eq. 3 or Tait); pressure
 * and viscosity accelerations (eqs. 8-9) plus gravity; semi-implicit Euler; collision response.
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
#include "core/solver.h"
#include "solvers/sph_family.h"

typedef struct sph_state {
    fc_grid grid;
    float *pressure, *inv_density;      /* per particle, this step */
    float *ax, *ay, *az;                 /* acceleration, m/s^2 */
    size_t capacity;
    double mean_neighbours;
    double gradient_correction; /* 1 / fc_lattice_spiky_moment: exact pressure gradients at rest */
} sph_state;

static int sph_reserve(sph_state *st, size_t n)
{
    if (n <= st->capacity) return 0;
    size_t cap = n + n / 2 + 1024;
    float **arrays[] = {&st->pressure, &st->inv_density, &st->ax, &st->ay, &st->az};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) {
        float *grown = realloc(*arrays[a], cap * sizeof(float));
        if (!grown) return -1;
        *arrays[a] = grown;
    }
    st->capacity = cap;
    return 0;
}

static void sph_destroy(void *state)
{
    sph_state *st = state;
    if (!st) return;
    fc_grid_free(&st->grid);
    free(st->pressure), free(st->inv_density), free(st->ax), free(st->ay), free(st->az);
    free(st);
}

static int sph_init(fc_world *w, void **state, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    sph_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    fc_grid_init(&st->grid, &w->grid_geom);
    const fc_params *p = &w->params;
    /* the mass that gives a particle with a full neighbourhood at rest spacing rest density */
    w->particle_mass = (float)(p->rest_density * fc_rest_volume(p->smoothing_radius, p->particle_spacing, p->initial_sum, w->dimensions));
    /* the forces share the viscosity Laplacian's constant K (45/(pi h^6) in 3D, which is also the
     * spiky gradient's -3 C): in 2D the spiky gradient's is 30/(pi h^5) against K = 40/(pi h^5), so
     * the pressure sums take the ratio (exactly 1 in 3D) with the lattice correction */
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

/* sum over j in [begin, end) of weight_j (h^2 - r_ij^2)^3 (weight NULL: 1), counting r < h. */
static inline float poly6_sum(const float *restrict x, const float *restrict y, const float *restrict z,
                              const float *restrict weight, uint32_t begin, uint32_t end, float xi, float yi,
                              float zi, float h2, int *count)
{
    float sum = 0.0f;
    int inside = 0;
    for (uint32_t j = begin; j < end; j++) {
        float dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
        float d = h2 - (dx * dx + dy * dy + dz * dz);
        d = d > 0.0f ? d : 0.0f;
        inside += d > 0.0f;
        sum += (weight ? weight[j] : 1.0f) * d * d * d;
    }
    *count += inside;
    return sum;
}

static void compute_density_pressure(fc_world *w, sph_state *st)
{
    const fc_params *prm = &w->params;
    fc_particles *p = &w->particles;
    const fc_boundary *b = &w->boundary;
    const float *x = p->field[FC_PX], *y = p->field[FC_PY], *z = p->field[FC_PZ];
    float *rho = p->field[FC_DENSITY];
    const float h = (float)prm->smoothing_radius, h2 = h * h, h6 = h2 * h2 * h2;
    const float mass_poly6 = (float)(w->particle_mass * fc_poly6_coefficient(h, w->dimensions));
    const float rho0_poly6 = (float)(prm->rest_density * fc_poly6_coefficient(h, w->dimensions));
    const float self_excess = (1.0f - (float)prm->initial_sum) * h6; /* poly6_sum counts self fully */
    const long n = (long)p->count;
    long neighbours = 0;
#pragma omp parallel for schedule(static) reduction(+ : neighbours)
    for (long i = 0; i < n; i++) {
        fc_bar bars[9];
        const int nbars = fc_grid_bars(&st->grid.geom, st->grid.key[i], bars);
        float fluid = 0.0f, solid = 0.0f;
        int count = 0, boundary_count = 0;
        for (int k = 0; k < nbars; k++) {
            fluid += poly6_sum(x, y, z, NULL, st->grid.cell_start[bars[k].first],
                               st->grid.cell_start[bars[k].last + 1], x[i], y[i], z[i], h2, &count);
            solid += poly6_sum(b->x, b->y, b->z, b->volume, b->grid.cell_start[bars[k].first],
                               b->grid.cell_start[bars[k].last + 1], x[i], y[i], z[i], h2, &boundary_count);
        }
        /* rho_i = m W-sum over fluid (eq. 7) + rho0 sum_b V_b W (Akinci et al. 2012) */
        float density = mass_poly6 * (fluid - self_excess) + rho0_poly6 * solid;
        rho[i] = density;
        st->inv_density[i] = 1.0f / density;
        st->pressure[i] = pressure_from_density(prm, density);
        neighbours += count - 1;
    }
    st->mean_neighbours = n ? (double)neighbours / (double)n : 0.0;
}

typedef struct accel { float x, y, z; } accel;

/* Pressure (eq. 8 without its 1/2, see the top) and viscosity (eq. 9) accelerations on particle i
 * from fluid particles j in [begin, end), without the constant 45 m / (pi h^6):
 *   sum_j (p_i + p_j) / (rho_i rho_j) (r_ij / |r_ij|) (h - r)^2  and
 *   mu sum_j (v_j - v_i) / (rho_i rho_j) (h - r). */
static inline void fluid_forces(const fc_particles *p, const sph_state *st, long i, uint32_t begin, uint32_t end,
                                float h, float mu, accel *pressure_sum, accel *viscosity_sum)
{
    const float *restrict x = p->field[FC_PX], *restrict y = p->field[FC_PY], *restrict z = p->field[FC_PZ];
    const float *restrict vx = p->field[FC_VX], *restrict vy = p->field[FC_VY], *restrict vz = p->field[FC_VZ];
    const float *restrict pres = st->pressure, *restrict inv_rho = st->inv_density;
    const float xi = x[i], yi = y[i], zi = z[i], pi = pres[i], h2 = h * h;
    const float vxi = vx[i], vyi = vy[i], vzi = vz[i];
    float px = 0, py = 0, pz = 0, ux = 0, uy = 0, uz = 0;
    for (uint32_t j = begin; j < end; j++) {
        float dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
        float r2 = dx * dx + dy * dy + dz * dz;
        int near = r2 < h2 && r2 > 1e-12f * h2; /* excludes i itself and coincident points */
        float r = sqrtf(r2);
        float q = near ? h - r : 0.0f;
        float inv_r = near ? 1.0f / r : 0.0f;
        float pair = (pi + pres[j]) * inv_rho[j] * q * q * inv_r;
        px += pair * dx, py += pair * dy, pz += pair * dz;
        float visc = inv_rho[j] * q;
        ux += visc * (vx[j] - vxi), uy += visc * (vy[j] - vyi), uz += visc * (vz[j] - vzi);
    }
    const float inv_rho_i = inv_rho[i];
    pressure_sum->x += px * inv_rho_i, pressure_sum->y += py * inv_rho_i, pressure_sum->z += pz * inv_rho_i;
    viscosity_sum->x += mu * ux * inv_rho_i, viscosity_sum->y += mu * uy * inv_rho_i,
        viscosity_sum->z += mu * uz * inv_rho_i;
}

/* Boundary pressure of Akinci et al. 2012 in the same form: a boundary particle acts as a fluid
 * particle of mass rho0 V_b mirroring p_i and rho_i, so the term is 2 V_b p_i / rho_i^2
 * (r / |r|) (h - r)^2 (the 2 is applied by the caller), times rho0 45/(pi h^6) outside. */
static inline void boundary_forces(const fc_boundary *b, float xi, float yi, float zi, float pi_over_rho2,
                                   uint32_t begin, uint32_t end, float h, accel *sum)
{
    const float *restrict x = b->x, *restrict y = b->y, *restrict z = b->z, *restrict vol = b->volume;
    const float h2 = h * h;
    float sx = 0, sy = 0, sz = 0;
    for (uint32_t j = begin; j < end; j++) {
        float dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
        float r2 = dx * dx + dy * dy + dz * dz;
        int near = r2 < h2 && r2 > 1e-12f * h2;
        float r = sqrtf(r2);
        float q = near ? h - r : 0.0f;
        float inv_r = near ? 1.0f / r : 0.0f;
        float pair = vol[j] * q * q * inv_r;
        sx += pair * dx, sy += pair * dy, sz += pair * dz;
    }
    sum->x += sx * pi_over_rho2, sum->y += sy * pi_over_rho2, sum->z += sz * pi_over_rho2;
}

static void compute_accelerations(fc_world *w, sph_state *st)
{
    const fc_params *prm = &w->params;
    const fc_particles *p = &w->particles;
    const fc_boundary *b = &w->boundary;
    const float h = (float)prm->smoothing_radius, mu = (float)prm->viscosity;
    /* 45 m / (pi h^6) in front of eqs. 8 and 9 */
    const float fluid_coeff = (float)(w->particle_mass * fc_viscosity_laplacian_coefficient(h, w->dimensions));
    const float boundary_coeff = (float)(prm->rest_density * fc_viscosity_laplacian_coefficient(h, w->dimensions));
    const float correction = (float)st->gradient_correction;
    const float gx = (float)prm->gravity_x, gy = (float)prm->gravity_y, gz = w->dimensions == 2 ? 0.0f : (float)prm->gravity_z; /* a 2D world stays in z = 0 */
    const long n = (long)p->count;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        fc_bar bars[9];
        const int nbars = fc_grid_bars(&st->grid.geom, st->grid.key[i], bars);
        accel pressure = {0, 0, 0}, viscosity = {0, 0, 0}, wall = {0, 0, 0};
        const float mirrored_pair = 2.0f * st->pressure[i] * st->inv_density[i] * st->inv_density[i];
        for (int k = 0; k < nbars; k++) {
            fluid_forces(p, st, i, st->grid.cell_start[bars[k].first], st->grid.cell_start[bars[k].last + 1], h, mu,
                         &pressure, &viscosity);
            if (mirrored_pair > 0.0f)
                boundary_forces(b, p->field[FC_PX][i], p->field[FC_PY][i], p->field[FC_PZ][i], mirrored_pair,
                                b->grid.cell_start[bars[k].first], b->grid.cell_start[bars[k].last + 1], h, &wall);
        }
        st->ax[i] = gx + fluid_coeff * (correction * pressure.x + viscosity.x) + correction * boundary_coeff * wall.x;
        st->ay[i] = gy + fluid_coeff * (correction * pressure.y + viscosity.y) + correction * boundary_coeff * wall.y;
        st->az[i] = gz + fluid_coeff * (correction * pressure.z + viscosity.z) + correction * boundary_coeff * wall.z;
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

/* Sorts the particles into the grid and computes density and pressure at their positions. */
static int sph_density(fc_world *w, void *state)
{
    sph_state *st = state;
    fc_particles *p = &w->particles;
    if (sph_reserve(st, p->count)) return -1;
    if (fc_grid_sort(&st->grid, p->field[FC_PX], p->field[FC_PY], p->field[FC_PZ], p->count)) return -1;
    fc_particles_permute(p, st->grid.order);
    compute_density_pressure(w, st);
    return 0;
}

static int sph_step(fc_world *w, void *state, double dt)
{
    sph_state *st = state;
    if (sph_density(w, st)) return -1;
    if (fc_world_interrupted(w)) return FC_STEP_INTERRUPTED;
    compute_accelerations(w, st);
    if (fc_world_interrupted(w)) return FC_STEP_INTERRUPTED;
    integrate(w, st, (float)dt);
    fc_collide_particles(w);
    return FC_STEP_DONE;
}

static int sph_stats(const fc_world *w, const void *state, fc_solver_stat *out, int max)
{
    return fc_sph_family_stats(w, ((const sph_state *)state)->mean_neighbours, out, max);
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
