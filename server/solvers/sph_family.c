/* The SPH family's parameter rule, rest volume, neighbourhood and statistics, shared by sph.c and pbf.c. */
#include "solvers/sph_family.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/eos.h"
#include "core/kernels.h"
#include "core/build_progress.h"
#include "core/particle_stats.h"
#include "core/stability.h"

int fc_sph_family_check_params(const fc_params *p, char *err, size_t errlen)
{
    const double h = fc_params_smoothing_radius(p), ratio = h / p->particle_spacing;
    if (ratio < 1.2 || ratio > 4.0) {
        snprintf(err, errlen,
                 "parameter 'smoothing_radius' (%g m) must be 1.2 to 4 times 'particle_spacing' (%g m) "
                 "for a usable neighbourhood; 2x gives about 30 neighbours (leave it out and set "
                 "'smoothing_ratio' to follow the spacing)",
                 h, p->particle_spacing);
        return -1;
    }
    return 0;
}

double fc_sph_family_step_work(const fc_params *p, int dims)
{
    return pow(fc_params_smoothing_radius(p) / p->particle_spacing / 2.0, dims == 2 ? 2 : 3);
}

double fc_sph_family_length_scale(const fc_params *p)
{
    return fc_params_smoothing_radius(p);
}

/* Measured on the dam break (bench/RESULTS.md, "Budgets"): the lists take about 9 bytes per
 * neighbour (PBF about 460 bytes per particle at 34 neighbours), a boundary sample about 64, and
 * 16 more for its owner and its place in the owner's frame (boundary.h). */
enum { BYTES_PER_NEIGHBOUR = 9, BYTES_PER_BOUNDARY = 80 };
#define PI 3.14159265358979323846

/* Neighbours per particle within h at a smoothing ratio h / spacing (a full 3D neighbourhood). */
static double neighbours_at(const fc_params *p)
{
    const double ratio = fc_params_smoothing_radius(p) / p->particle_spacing;
    return 4.0 / 3.0 * PI * ratio * ratio * ratio;
}

fc_method_cost fc_sph_family_cost(const fc_cost_query *q)
{
    double boundary = fc_boundary_estimate(NULL, q->lo, q->hi, q->params, q->dims);
    for (size_t c = 0; c < q->solid_count; c++) boundary += fc_boundary_estimate(&q->solids[c], q->lo, q->hi, q->params, q->dims);
    const fc_method_cost c = {{(q->fluid + boundary) * q->step_work,
                               q->fluid * (FC_BYTES_PER_PARTICLE + BYTES_PER_NEIGHBOUR * neighbours_at(q->params)) +
                                   boundary * BYTES_PER_BOUNDARY},
                              boundary};
    return c;
}

double fc_neighbour_cap_bytes(const fc_world *w)
{
    const double fluid = (double)w->particles.count;
    double cap = w->budget ? w->budget_held.bytes
                           : FC_NEIGHBOUR_CAP_FACTOR * fluid * BYTES_PER_NEIGHBOUR * neighbours_at(&w->params);
    return fmax(cap, FC_NEIGHBOUR_CAP_FLOOR);
}

void fc_neighbour_overflow_message(double needed_bytes, double cap_bytes, char *out, size_t outlen)
{
#define PILED_UP "particles piled up (a time step too long for the spacing, or a source packing them onto the same points)"
    char need[24], cap[24]; /* "16000001 bytes", "16.02 MB" */
    if (needed_bytes > cap_bytes) {
        fc_format_bytes_apart(needed_bytes, cap_bytes, need, cap, sizeof need);
        snprintf(out, outlen, "the neighbour lists would need %s or more, more than the %s this world may use: " PILED_UP,
                 need, cap);
    } else { /* the extrapolation fell short of the cap it passed: the cap is the bound known */
        snprintf(out, outlen, "the neighbour lists would need more than the %s this world may use: " PILED_UP,
                 fc_format_bytes(cap_bytes, cap, sizeof cap));
    }
#undef PILED_UP
}

int fc_sph_solids_init(fc_world *w, fc_sph_solids *s)
{
    s->version = w->solids_version;
    const int failed = fc_boundary_build(&s->boundary, w); /* reports its phases */
    fc_build_progress_report(w->build_progress, FC_BUILD_SOLVER, 0.0);
    return failed;
}

int fc_sph_solids_update(fc_world *w, fc_sph_solids *s)
{
    if (s->version == w->solids_version) return 0;
    s->version = w->solids_version;
    return fc_boundary_update(&s->boundary, w) < 0 ? -1 : 1;
}

void fc_sph_solids_free(fc_sph_solids *s)
{
    fc_boundary_free(&s->boundary);
}

const fc_boundary *fc_sph_family_boundary(const fc_world *w)
{
    /* the family's solvers are those with its parameter rule; their states begin with fc_sph_solids */
    if (!w->solver || w->solver->check_params != fc_sph_family_check_params || !w->solver_state) return NULL;
    return &((const fc_sph_solids *)w->solver_state)->boundary;
}

#define MAX_MEAN_COMPRESSION 0.10 /* weakly compressible SPH aims at about 0.01 */
#define MAX_FLOW_MACH 0.2         /* of the bulk flow (RMS speed): density varies as Mach^2, so the
                                     1% of weak compressibility needs 0.1 (Monaghan 1992); at 0.2, 4% */

int fc_sph_family_check_stability(const fc_world *w, const fc_world_stats *s, fc_instability *r)
{
    const double c = w->solver->sound_speed ? w->solver->sound_speed(&w->params) : 0.0;
    const double compression = fc_world_stat(s, "mean_density_error");
    if (c > 0.0 && s->rms_speed > MAX_FLOW_MACH * c) {
        r->check = "mach";
        snprintf(r->message, sizeof r->message,
                 "the bulk flow moves at %.3g m/s (RMS), Mach %.2g against the model's speed of sound of %.3g m/s: "
                 "weakly compressible SPH needs Mach 0.1 or less to stay within 1%% of rest density",
                 s->rms_speed, s->rms_speed / c, c);
        return 1;
    }
    if (compression > MAX_MEAN_COMPRESSION) { /* NAN (no densities reported) never is */
        r->check = "compression";
        snprintf(r->message, sizeof r->message,
                 "the fluid is compressed by %.3g%% on average (at most %.3g%%); a liquid stays within about 1%%",
                 100.0 * compression, 100.0 * fc_world_stat(s, "max_density_error"));
        return 1;
    }
    return 0;
}

double fc_sph_rest_volume(const fc_world *w)
{
    const fc_params *p = &w->params;
    return fc_rest_volume(p->smoothing_radius, p->particle_spacing, p->initial_sum, w->dimensions);
}

void fc_sph_fluid_values(const fc_world *w, int which, float out[FC_MAX_FLUIDS])
{
    for (int f = 0; f < FC_MAX_FLUIDS; f++) {
        const fc_fluid *fluid = &w->fluids[f < w->fluid_count ? f : 0];
        out[f] = (float)(which == FC_SPH_REST_DENSITY ? fluid->rest_density : fluid->viscosity);
    }
}

void fc_sph_kernel_init(fc_sph_kernel *k, const fc_world *w, double volume)
{
    fc_sph_kernel_make(k, w->params.smoothing_radius, w->dimensions, volume, w->params.initial_sum);
}

const fc_record4 fc_sph_far_away = {1e15f, 1e15f, 1e15f, 0.0f};

void fc_sph_neighbourhood_init(fc_sph_neighbourhood *nh, const fc_world *w)
{
    fc_grid_init(&nh->grid, &w->grid_geom);
    fc_neighbours_init(&nh->lists[FC_SPH_FLUID]);
    fc_neighbours_init(&nh->lists[FC_SPH_SOLID]);
    nh->solid = NULL;
    nh->solid_capacity = 0;
    nh->shares = (fc_neighbour_shares){0};
}

int fc_sph_grow_arrays(void **const arrays[], size_t count, size_t capacity, size_t size)
{
    for (size_t a = 0; a < count; a++) {
        void *grown = realloc(*arrays[a], capacity * size);
        if (!grown) return -1;
        *arrays[a] = grown;
    }
    return 0;
}

int fc_sph_family_start(fc_world *w, fc_sph_solids *solids, fc_sph_neighbourhood *nh, double *rest_volume)
{
    fc_sph_neighbourhood_init(nh, w);
    *rest_volume = fc_sph_rest_volume(w);
    fc_world_derive_masses(w, *rest_volume);
    return fc_sph_solids_init(w, solids);
}

void fc_sph_neighbourhood_free(fc_sph_neighbourhood *nh)
{
    fc_grid_free(&nh->grid);
    fc_sph_release_lists(nh);
    fc_neighbour_shares_free(&nh->shares);
    free(nh->solid);
    nh->solid = NULL;
    nh->solid_capacity = 0;
    nh->shares = (fc_neighbour_shares){0};
}

int fc_sph_sort(fc_world *w, fc_sph_neighbourhood *nh, const float *x, const float *y, const float *z)
{
    fc_particles *p = &w->particles;
    if (fc_grid_sort(&nh->grid, x, y, z, p->count)) return -1;
    fc_particles_permute(p, nh->grid.order);
    return 0;
}

int fc_sph_find_neighbours(fc_world *w, fc_sph_neighbourhood *nh, fc_sph_solids *solids, const float *x, const float *y,
                           const float *z, float *fluid_d3, float *solid_d3)
{
    if (fc_sph_solids_update(w, solids) < 0) return -1;
    const fc_boundary *b = &solids->boundary;
    if (b->count + 1 > nh->solid_capacity) {
        fc_record4 *grown = realloc(nh->solid, (b->count + 1) * sizeof *grown);
        if (!grown) return -1;
        nh->solid = grown, nh->solid_capacity = b->count + 1;
    }
    const long nb = (long)b->count;
#pragma omp parallel for schedule(static)
    for (long j = 0; j < nb; j++) nh->solid[j] = (fc_record4){b->x[j], b->y[j], b->z[j], b->volume[j]};
    nh->solid[nb] = fc_sph_far_away;

    const size_t n = w->particles.count;
    if (fc_neighbour_shares_plan(&nh->shares, nh->lists, 2, n, 0)) return -1;
    const fc_neighbour_source sources[2] = {
        {.grid = &nh->grid, .x = x, .y = y, .z = z, .count = n, .poly6_sum = fluid_d3},
        {.grid = &b->grid, .x = b->x, .y = b->y, .z = b->z, .count = b->count, .weight = b->volume,
         .poly6_sum = solid_d3},
    };
    fc_neighbour_limits limits = {.max_bytes = (size_t)fc_neighbour_cap_bytes(w), .interrupt = w->interrupt};
    const int built = fc_neighbours_build(&nh->grid, x, y, z, n, (float)w->params.smoothing_radius, sources, nh->lists,
                                          2, &nh->shares, &limits);
    if (built == FC_NEIGHBOURS_OK) return 0;
    if (built == FC_NEIGHBOURS_INTERRUPTED) return FC_STEP_INTERRUPTED;
    if (built == FC_NEIGHBOURS_OVER_LIMIT)
        fc_neighbour_overflow_message(limits.needed_bytes, (double)limits.max_bytes, w->step_failure, sizeof w->step_failure);
    fc_sph_release_lists(nh); /* what the failed build grew goes back now */
    return FC_STEP_FAILED;
}

void fc_sph_release_lists(fc_sph_neighbourhood *nh)
{
    fc_neighbours_free(&nh->lists[FC_SPH_FLUID]);
    fc_neighbours_free(&nh->lists[FC_SPH_SOLID]);
}

double fc_sph_mean_neighbours(const fc_sph_neighbourhood *nh)
{
    const fc_neighbour_list *l = &nh->lists[FC_SPH_FLUID];
    return l->points ? (double)l->pairs / (double)l->points : 0.0;
}

void fc_sph_mass_ratios(const fc_world *w, float ratio[FC_MAX_FLUIDS])
{
    for (int f = 0; f < FC_MAX_FLUIDS; f++) ratio[f] = f < w->fluid_count ? w->fluid_mass[f] / w->fluid_mass[0] : 1.0f;
}

void fc_wcsph_eos_of(const fc_world *w, fc_wcsph_eos *eos)
{
    const fc_params *p = &w->params;
    eos->tait = p->equation_of_state == FC_EOS_TAIT;
    eos->clamp_negative = p->clamp_negative_pressure != 0;
    eos->stiffness = (float)p->stiffness;
    for (int f = 0; f < FC_MAX_FLUIDS; f++)
        eos->tait_coefficient[f] =
            (float)fc_eos_tait_coefficient(w->fluids[f < w->fluid_count ? f : 0].rest_density, p->speed_of_sound);
}

double fc_wcsph_sound_speed(const fc_params *p)
{
    return p->equation_of_state == FC_EOS_TAIT ? p->speed_of_sound : sqrt(p->stiffness);
}

void fc_viscosity_terms_of(const fc_world *w, int solver_has_it, fc_viscosity_terms *t)
{
    const int model = w->params.viscosity_model;
    t->on = model == FC_VISCOSITY_MUELLER2003 || (model == FC_VISCOSITY_SOLVER && solver_has_it);
    t->coeff = (float)(w->fluid_mass[0] * fc_viscosity_laplacian_coefficient(w->params.smoothing_radius, w->dimensions));
    fc_sph_fluid_values(w, FC_SPH_VISCOSITY, t->mu);
    t->mixed = 0;
    for (int f = 0; f < FC_MAX_FLUIDS; f++) {
        if (!t->on) t->mu[f] = 0.0f;
        t->mixed |= t->mu[f] != t->mu[0];
    }
}

void fc_viscosity_limit_dt(const fc_world *w, int solver_has_it, fc_step_limit *limit)
{
    fc_viscosity_terms t;
    fc_viscosity_terms_of(w, solver_has_it, &t);
    double nu = 0.0; /* the most diffusive fluid's kinematic viscosity mu / rho0 */
    for (int f = 0; f < w->fluid_count; f++) nu = fmax(nu, t.mu[f] / w->fluids[f].rest_density);
    fc_step_limit_lower(limit, fc_dt_viscous(w->params.smoothing_radius, nu), FC_DT_VISCOUS);
}

void fc_wcsph_limit_dt(const fc_world *w, double max_speed, double max_acceleration, fc_step_limit *limit)
{
    const fc_params *p = &w->params;
    const double h = p->smoothing_radius, c = fc_wcsph_sound_speed(p);
    fc_step_limit_lower(limit, p->cfl_number * h / (c + max_speed), c >= max_speed ? FC_DT_ACOUSTIC : FC_DT_VELOCITY);
    fc_viscosity_limit_dt(w, 1, limit);
    fc_step_limit_lower(limit, fc_dt_force(h, max_acceleration), FC_DT_FORCE);
    fc_heat_limit_dt(w, limit);
    fc_tension_limit_dt(w, limit);
    fc_air_limit_dt(w, limit);
}

void fc_heat_terms_of(const fc_world *w, fc_heat_terms *t)
{
    const fc_params *p = &w->params;
    const double h = p->smoothing_radius;
    const double moment = fc_lattice_spiky_moment(h, p->particle_spacing, p->initial_sum, w->dimensions);
    t->coeff = (float)(w->fluid_mass[0] * -fc_spiky_gradient_coefficient(h, w->dimensions) / moment);
    t->eta2 = (float)(0.01 * h * h);
    t->conduction = p->heat_conduction != 0;
    t->expands = 0;
    t->lowest = (float)(1.0 - FC_HEAT_EXPANSION_RANGE), t->highest = (float)(1.0 + FC_HEAT_EXPANSION_RANGE);
    for (int f = 0; f < FC_MAX_FLUIDS; f++) {
        const fc_fluid *fluid = &w->fluids[f < w->fluid_count ? f : 0];
        t->conductivity[f] = (float)(fluid->thermal_diffusivity * fluid->rest_density * fluid->specific_heat);
        t->inv_capacity[f] = (float)(1.0 / fluid->specific_heat);
        t->expansion[f] = (float)fluid->thermal_expansion;
        t->reference[f] = (float)fluid->temperature;
        t->contact[f] = (float)(pow(p->particle_spacing, w->dimensions - 1) /
                                ((double)w->fluid_mass[f < w->fluid_count ? f : 0] * fluid->specific_heat));
        t->expands |= t->expansion[f] > 0.0f;
    }
}

void fc_heat_limit_dt(const fc_world *w, fc_step_limit *limit)
{
    if (!w->params.heat_conduction) return;
    double alpha = 0.0, capacity = INFINITY, heat_transfer = 0.0;
    const double area = pow(w->params.particle_spacing, w->dimensions - 1); /* a particle's share of a wall */
    for (int f = 0; f < w->fluid_count; f++) {
        alpha = fmax(alpha, w->fluids[f].thermal_diffusivity);
        capacity = fmin(capacity, (double)w->fluid_mass[f] * w->fluids[f].specific_heat / area);
    }
    fc_step_limit_lower(limit, fc_dt_thermal(w->params.smoothing_radius, alpha), FC_DT_THERMAL);
    for (int side = 0; side < (w->dimensions == 2 ? 4 : 6); side++)
        if (w->walls[side].temperature > 0.0f) heat_transfer = fmax(heat_transfer, w->walls[side].heat_transfer);
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_COLLIDER, o)
    if (o->thermal.temperature > 0.0f) heat_transfer = fmax(heat_transfer, o->thermal.heat_transfer);
    fc_step_limit_lower(limit, fc_dt_contact(capacity, heat_transfer), FC_DT_CONTACT);
}

void fc_air_limit_dt(const fc_world *w, fc_step_limit *limit)
{
    if (!w->params.air) return;
    float g[3];
    fc_world_gravity(w, g);
    const double gravity = sqrt((double)g[0] * g[0] + (double)g[1] * g[1] + (double)g[2] * g[2]);
    /* b (rho - rho0) g / rho is below b |g| at any density, and adds to gravity's own pull */
    fc_step_limit_lower(limit, fc_dt_force(w->params.smoothing_radius, (1.0 + w->params.air_buoyancy) * gravity),
                        FC_DT_BUOYANCY);
}

void fc_tension_terms_of(const fc_world *w, fc_tension_terms *t)
{
    const fc_params *p = &w->params;
    const double h = p->smoothing_radius;
    t->h2 = (float)(h * h);
    t->lap_h2 = (float)(w->dimensions * h * h);
    t->lap_r2 = (float)(w->dimensions + 4.0);
    t->coeff = (float)(-6.0 * fc_poly6_coefficient(h, w->dimensions) * w->fluid_mass[0]);
    t->inv_m0 = (float)(1.0 / w->fluid_mass[0]);
    t->threshold2 = (float)(p->tension_threshold * p->tension_threshold / (h * h));
    t->max_curvature = (float)((w->dimensions - 1) / h);
    t->dimensions = w->dimensions;
    t->on = 0;
    /* the surface force sums to sigma^s only once divided by the share of the colour jump its particles
     * sample (a lattice sum: skipped with tension off) */
    const double share = p->tension != 0 ? fc_lattice_surface_share(h, p->particle_spacing, p->initial_sum, w->dimensions) : 1.0;
    for (int f = 0; f < FC_MAX_FLUIDS; f++) {
        const fc_fluid *fluid = &w->fluids[f < w->fluid_count ? f : 0];
        t->surface[f] = (float)(share > 0.0 ? fluid->surface_tension / share : fluid->surface_tension);
        t->interface[f] = (float)fluid->interface_tension;
        const int air = fluid->kind != 0; /* no tension of its own, and no colour: c^s = c^i = 0 */
        t->colour[f] = air ? 0.0f : fluid->polarity == 0 ? 0.5f : -0.5f;
        t->liquid[f] = air ? 0.0f : 1.0f;
        if (air) t->surface[f] = t->interface[f] = 0.0f;
        t->inv_rest[f] = (float)(1.0 / fluid->rest_density);
        if (f < w->fluid_count) t->on |= t->surface[f] > 0.0f || t->interface[f] > 0.0f;
    }
    t->on &= p->tension != 0;
}

void fc_sph_tension_of(const fc_tension_terms *tt, const fc_neighbour_list *fluid, const fc_record4 *at,
                       const fc_record4 *weights, float weight, const fc_record4 *normal_s, const fc_record4 *normal_i,
                       long i, int f, float a[3])
{
    const float *ns_i = (const float *)&normal_s[i];
    float sums[2] = {0.0f, 0.0f};
    if (ns_i[3] != 0.0f && tt->surface[f] > 0.0f)
        for (uint32_t k = fluid->start[i]; k < fluid->start[i + 1]; k++) {
            const uint32_t j = fluid->index[k];
            const float x_ij[3] = {at[i].x - at[j].x, at[i].y - at[j].y, at[i].z - at[j].z};
            const float r2 = x_ij[0] * x_ij[0] + x_ij[1] * x_ij[1] + x_ij[2] * x_ij[2];
            fc_tension_curvature_pair(tt, weights ? weights[j].w : weight, r2, x_ij, ns_i, (const float *)&normal_s[j], sums);
        }
    fc_tension_acceleration(tt, f, ns_i, fc_tension_curvature(tt, sums), (const float *)&normal_i[i], a);
}

void fc_tension_limit_dt(const fc_world *w, fc_step_limit *limit)
{
    if (!w->params.tension) return;
    double sigma = 0.0, density = INFINITY;
    for (int f = 0; f < w->fluid_count; f++) {
        sigma = fmax(sigma, fmax(w->fluids[f].surface_tension, w->fluids[f].interface_tension));
        density = fmin(density, w->fluids[f].rest_density);
    }
    if (w->fluid_count > 0)
        fc_step_limit_lower(limit, fc_dt_capillary(w->params.particle_spacing, density, sigma), FC_DT_CAPILLARY);
}

double fc_wcsph_gradient_correction(const fc_world *w)
{
    const fc_params *p = &w->params;
    const double h = p->smoothing_radius;
    return 1.0 / fc_lattice_spiky_moment(h, p->particle_spacing, p->initial_sum, w->dimensions) *
           (-fc_spiky_gradient_coefficient(h, w->dimensions) / fc_viscosity_laplacian_coefficient(h, w->dimensions));
}

void fc_wcsph_forces_of(const fc_world *w, double gradient_correction, fc_wcsph_forces *t)
{
    const fc_params *p = &w->params;
    const double laplacian = fc_viscosity_laplacian_coefficient(p->smoothing_radius, w->dimensions);
    t->fluid_coeff = (float)(w->fluid_mass[0] * laplacian);
    t->artificial = (float)(p->artificial_viscosity * fc_wcsph_sound_speed(p) * p->smoothing_radius);
    t->artificial_eps2 = (float)(0.01 * p->smoothing_radius * p->smoothing_radius);
    t->contact = (float)(FC_CONTACT_DISTANCE * p->particle_spacing);
    t->correction = (float)gradient_correction;
    float g[3];
    fc_world_gravity(w, g);
    t->gx = g[0], t->gy = g[1], t->gz = g[2];
    fc_viscosity_terms viscosity; /* WCSPH's own: Mueller 2003 unless viscosity_model is none */
    fc_viscosity_terms_of(w, 1, &viscosity);
    memcpy(t->mu, viscosity.mu, sizeof t->mu);
    t->mixed = viscosity.mixed;
    fc_sph_mass_ratios(w, t->ratio);
    for (int f = 0; f < FC_MAX_FLUIDS; f++)
        t->boundary_coeff[f] = (float)(w->fluids[f < w->fluid_count ? f : 0].rest_density * laplacian);
}

int fc_sph_family_stats(const fc_world *w, double mean_neighbours, fc_solver_stat *out, int max)
{
    const float *rho = w->particles.field[FC_DENSITY], *temperature = w->particles.field[FC_TEMPERATURE];
    const uint8_t *fluid = w->particles.u8[FC_FLUID];
    const long n = (long)w->particles.count;
    double capacity[FC_MAX_FLUIDS] = {0.0}; /* m_f c_f: the heat the particles hold is sum_i m_i c_i T_i */
    for (int f = 0; f < w->fluid_count; f++) capacity[f] = (double)w->fluid_mass[f] * w->fluids[f].specific_heat;
    double sum_err = 0.0, max_err = 0.0, sum_abs_err = 0.0, heat = 0.0;
    long air = 0;
#pragma omp parallel for schedule(static) reduction(max : max_err) reduction(+ : sum_err, sum_abs_err, heat, air)
    for (long i = 0; i < n; i++) {
        double abs_err;
        heat += capacity[fluid[i]] * temperature[i];
        air += w->fluids[fluid[i]].kind != 0;
        const double err = fc_density_error_sample(rho[i], w->fluids[fluid[i]].rest_density, &abs_err);
        sum_abs_err += abs_err;
        sum_err += err;
        if (err > max_err) max_err = err;
    }
    const int count = fc_sph_family_stats_of(sum_err, max_err, sum_abs_err, heat, (size_t)n,
                                             mean_neighbours, out, max);
    return count + fc_air_stats(w, (size_t)air, out + count, max - count);
}

int fc_air_stats(const fc_world *w, size_t air, fc_solver_stat *out, int max)
{
    if (!w->params.air) return 0;
    const fc_solver_stat stats[] = {
        {.name = "air_particles", .value = (double)air},
        {.name = "air_made", .value = (double)w->air_made_total},
        {.name = "air_removed", .value = (double)w->air_removed_total},
    };
    int count = 0;
    for (size_t i = 0; i < sizeof stats / sizeof stats[0] && count < max; i++) out[count++] = stats[i];
    return count;
}

int fc_sph_family_stats_of(double sum_err, double max_err, double sum_abs_err, double total_heat, size_t n,
                           double mean_neighbours, fc_solver_stat *out, int max)
{
    const fc_solver_stat stats[] = {
        {.name = "mean_density_error", .value = n ? sum_err / (double)n : 0.0},
        {.name = "max_density_error", .value = max_err},
        {.name = "mean_abs_density_error", .value = n ? sum_abs_err / (double)n : 0.0},
        {.name = "mean_neighbours", .value = mean_neighbours},
        {.name = "total_heat", .value = total_heat},
    };
    int count = 0;
    for (size_t i = 0; i < sizeof stats / sizeof stats[0] && count < max; i++) out[count++] = stats[i];
    return count;
}