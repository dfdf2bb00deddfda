/* The SPH family's steps in a CUDA store (core/store.h, cuda/store.h): WCSPH and PBF stepped on the
 * device with sph.c's and pbf.c's formulas (sph_terms.h), stability conditions and statistics.
 * The family's solids are sampled on the host (fc_sph_solids) and uploaded when they change. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/colliders.h"
#include "core/solver.h"
#include "cuda/sph_device.h"
#include "cuda/store.h"
#include "solvers/pbf.h"
#include "solvers/sph_family.h"

typedef struct device_state {
    fc_sph_solids solids;       /* first: the family's (fc_sph_family_boundary) */
    fc_cuda_family *device;     /* the family's device data beside the store's particles */
    double rest_volume;         /* V0 (fc_sph_rest_volume) */
    double gradient_correction; /* WCSPH: fc_wcsph_gradient_correction */
    double rest_denominator;    /* PBF: D0 (fc_pbf_lattice_denominator) */
    double max_acceleration;    /* WCSPH: the largest |a| of the last step (the force condition) */
    size_t air;                 /* air particles after the last step's air pass (with air on) */
} device_state;

static int upload_boundary(const fc_world *w, device_state *st)
{
    char err[512];
    const fc_boundary *b = &st->solids.boundary;
    if (!st->device) return -1;
    if (fc_cuda_family_set_boundary(st->device, b->count, b->x, b->y, b->z, b->volume, b->grid.cell_start, err, sizeof err)) {
        fc_cuda_store_report(w, "boundary upload", err);
        return -1;
    }
    return 0;
}

/* The solids resampled and uploaded when the colliders changed since the last step. */
static int keep_boundary(fc_world *w, device_state *st)
{
    const int resampled = fc_sph_solids_update(w, &st->solids);
    return resampled < 0 || (resampled > 0 && upload_boundary(w, st)) ? -1 : 0;
}

static void device_destroy(void *state)
{
    device_state *st = state;
    if (!st) return;
    fc_cuda_family_destroy(st->device);
    fc_sph_solids_free(&st->solids);
    free(st);
}

static int device_init(fc_world *w, void **state, char *err, size_t errlen)
{
    device_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    if (errlen) err[0] = '\0';
    const fc_params *p = &w->params;
    st->rest_volume = fc_sph_rest_volume(w);
    fc_world_derive_masses(w, st->rest_volume);
    if (fc_sph_solids_init(w, &st->solids)) {
        device_destroy(st);
        snprintf(err, errlen, "out of memory while sampling boundaries");
        return FC_BUILD_OUT_OF_MEMORY;
    }
    st->gradient_correction = fc_wcsph_gradient_correction(w);
    st->rest_denominator =
        fc_pbf_lattice_denominator(p->smoothing_radius, p->particle_spacing, st->rest_volume, w->dimensions);
    fc_device_store *store = fc_cuda_store_device(w);
    char why[256] = "the world has no device store";
    st->device = store ? fc_cuda_family_create(store, &w->grid_geom, why, sizeof why) : NULL;
    if (!st->device) {
        snprintf(err, errlen, "the SPH family's data could not be put on the device: %s", why);
        device_destroy(st);
        return -1;
    }
    if (upload_boundary(w, st)) {
        snprintf(err, errlen, "the boundary particles could not be put on the device");
        device_destroy(st);
        return -1;
    }
    *state = st;
    return 0;
}

/* What every device pass reads of the world now (parameters are live, as on the CPU). */
static void common_setup(const fc_world *w, const device_state *st, fc_wall_mode walls, fc_cuda_setup *s)
{
    const fc_params *p = &w->params;
    s->h = p->smoothing_radius;
    s->volume = st->rest_volume;
    s->initial_sum = p->initial_sum;
    s->dimensions = w->dimensions;
    fc_sph_fluid_values(w, FC_SPH_REST_DENSITY, s->rest_density);
    fc_world_gravity(w, s->gravity);
    fc_collision_init(&s->collision, w, walls, 1);
    fc_heat_terms_of(w, &s->heat);
    fc_tension_terms_of(w, &s->tension);
    fc_air_terms air;
    fc_air_terms_of(w, &air);
    s->air = air.on;
    s->volume_over_m0 = (float)(st->rest_volume / w->fluid_mass[0]);
    for (int f = 0; f < FC_MAX_FLUIDS; f++)
        s->volume_over_mass[f] = (float)(st->rest_volume / w->fluid_mass[f < w->fluid_count ? f : 0]);
}

/* One WCSPH device call: a step of dt, or with dt NULL the density at the present positions. */
static int wcsph_on_device(fc_world *w, device_state *st, const double *dt)
{
    char err[512] = "";
    fc_cuda_family *device = st->device;
    if (!fc_cuda_store_device(w) || keep_boundary(w, st)) return -1;
    fc_cuda_sph_setup s;
    common_setup(w, st, FC_WALLS_SOFT, &s.common); /* as solvers/sph.c */
    fc_wcsph_eos_of(w, &s.eos);
    fc_wcsph_forces_of(w, st->gradient_correction, &s.forces);
    int failed = dt ? fc_cuda_sph_step(device, &s, (float)*dt, err, sizeof err)
                    : fc_cuda_sph_density(device, &s, err, sizeof err);
    float max_a2 = 0.0f;
    if (!failed && dt) failed = fc_cuda_sph_max_acceleration2(device, &max_a2, err, sizeof err);
    st->max_acceleration = sqrt((double)max_a2);
    fc_cuda_store_stepped(w, failed, dt ? "step" : "density", err);
    return failed ? -1 : 0;
}

/* One PBF device call, as wcsph_on_device. */
static int pbf_on_device(fc_world *w, device_state *st, const double *dt)
{
    char err[512] = "";
    fc_cuda_family *device = st->device;
    if (!fc_cuda_store_device(w) || keep_boundary(w, st)) return -1;
    const fc_params *p = &w->params;
    fc_cuda_pbf_setup s = {.scorr_k = p->scorr_k, .scorr_dq = p->scorr_dq, .rest_denominator = st->rest_denominator,
                           .epsilon = fc_pbf_relaxation(p, st->rest_denominator), .vorticity = p->vorticity_epsilon,
                           .xsph = p->xsph_c, .scorr_n = p->scorr_n, .iterations = p->solver_iterations};
    common_setup(w, st, FC_WALLS_SOFT, &s.common); /* pbf.c's soft walls */
    fc_sph_mass_ratios(w, s.mass_ratio);
    for (int f = 0; f < w->fluid_count; f++) s.gas[f] = w->fluids[f].kind != 0;
    s.fluids = w->fluid_count;
    fc_viscosity_terms_of(w, 0, &s.viscosity);
    int failed = dt ? fc_cuda_pbf_step(device, &s, (float)*dt, err, sizeof err)
                    : fc_cuda_pbf_density(device, &s, err, sizeof err);
    fc_cuda_store_stepped(w, failed, dt ? "step" : "density", err);
    return failed ? -1 : 0;
}

/* Trapped air after a step, on the device (solvers/air.c's rules and caps): air's buoyancy, the new
 * air appended there within max_air_particles, max_particles and the budget, then the air flagged
 * to go removed through the store (fc_world_remove_flagged). */
static int air_on_device(fc_world *w, device_state *st, double dt)
{
    fc_air_terms t;
    fc_air_terms_of(w, &t);
    if (!t.on) return 0;
    char err[512] = "";
    fc_particles *p = &w->particles;
    fc_cuda_setup s;
    common_setup(w, st, FC_WALLS_SOFT, &s);
    uint32_t counts[3];
    if (fc_cuda_air_mark(st->device, &s, &t, (float)dt, counts, err, sizeof err)) {
        fc_cuda_store_stepped(w, 1, "air", err);
        return -1;
    }
    const long n = (long)p->count, air = counts[0], removed = counts[1];
    const long room = fc_air_room(w, n, air, removed, (long)counts[2]);
    size_t spawned = 0;
    if (room > 0 && !fc_particles_reserve(p, (size_t)(n + room))) { /* room for the sync that brings them back */
        fc_particle rec;
        const float zero[3] = {0.0f, 0.0f, 0.0f};
        fc_world_particle(w, t.air_fluid, zero, zero, &rec);
        fc_emission tpl = {.first_id = p->next_id, .column_count = FC_COLUMN_COUNT, .dimensions = w->dimensions};
        for (int c = 0; c < FC_COLUMN_COUNT; c++) fc_particle_column_bytes(&rec, c, &tpl.column[c]);
        if (fc_cuda_air_spawn(st->device, (size_t)room, &tpl, &spawned, err, sizeof err)) {
            fc_cuda_store_stepped(w, 1, "air", err);
            return -1;
        }
        p->count += spawned;
        p->next_id += (uint32_t)spawned;
    }
    fc_cuda_store_stepped(w, 0, "air", err);
    if (fc_air_remove(w, removed)) return -1;
    w->air_made_total += (uint64_t)spawned;
    st->air = (size_t)(air - removed) + spawned;
    return 0;
}

static int wcsph_step(fc_world *w, void *state, double dt)
{
    return wcsph_on_device(w, state, &dt) || air_on_device(w, state, dt) ? FC_STEP_FAILED : FC_STEP_DONE;
}

static int wcsph_density(fc_world *w, void *state) { return wcsph_on_device(w, state, NULL); }

static int pbf_step(fc_world *w, void *state, double dt)
{
    return pbf_on_device(w, state, &dt) || air_on_device(w, state, dt) ? FC_STEP_FAILED : FC_STEP_DONE;
}

static int pbf_density(fc_world *w, void *state) { return pbf_on_device(w, state, NULL); }

/* The largest speed on the device; 0 when it cannot be read (then the step is time_step). */
static double device_max_speed(const fc_world *w)
{
    float max2 = 0.0f;
    char err[512];
    fc_device_store *device = fc_cuda_store_device(w);
    if (!device) return 0.0;
    if (fc_device_store_max_speed2(device, &max2, err, sizeof err)) fc_cuda_store_report(w, "max speed", err);
    return sqrt((double)max2);
}

/* WCSPH's stability conditions (fc_wcsph_limit_dt) from the device's largest speed and the largest
 * acceleration of its last step. */
static void wcsph_limit_dt(const fc_world *w, const void *state, fc_step_limit *limit)
{
    const device_state *st = state;
    fc_wcsph_limit_dt(w, device_max_speed(w), st->max_acceleration, limit);
}

/* PBF's velocity condition, as pbf.c's. */
static void pbf_limit_dt(const fc_world *w, const void *state, fc_step_limit *limit)
{
    (void)state;
    fc_pbf_limit_dt(w, device_max_speed(w), limit);
}

/* The family's statistics: from the store's sums of the motion statistics just computed, else from
 * the host arrays (in sync when the store has none). */
static int device_stats(const fc_world *w, const void *state, fc_solver_stat *out, int max)
{
    const device_state *st = state;
    double mean = 0.0;
    char err[512];
    if (fc_cuda_store_device(w) && fc_cuda_family_mean_neighbours(st->device, &mean, err, sizeof err)) fc_cuda_store_report(w, "statistics", err);
    fc_cuda_stats sums;
    if (!fc_cuda_store_take_sums(w, &sums)) return fc_sph_family_stats(w, mean, out, max);
    const int count = fc_sph_family_stats_of(sums.sum_err, sums.max_err, sums.sum_abs_err, sums.sum_heat,
                                             w->particles.count, mean, out, max);
    return count + fc_air_stats(w, st->air, out + count, max - count);
}

/* The family's steps share their state, statistics and solids; each has its own step and conditions. */
#define FAMILY_DEVICE_STEPS .init = device_init, .stats = device_stats, .destroy = device_destroy

const fc_method_steps fc_wcsph_on_device = {
    FAMILY_DEVICE_STEPS, .limit_dt = wcsph_limit_dt, .step = wcsph_step, .density = wcsph_density};

const fc_method_steps fc_pbf_on_device = {FAMILY_DEVICE_STEPS, .limit_dt = pbf_limit_dt, .step = pbf_step, .density = pbf_density};
