/* Weakly compressible SPH stepped on a CUDA device (cuda/sph_cuda.h): sph.c's GPU twin, with the same
 * parameters, formulas (sph_terms.h) and statistics, and the backend seam that keeps the host's copy.
 *
 * The particles live on the device between steps. The host arrays are brought up to date only when
 * something reads them (fc_world_sync_to_host: snapshots, exports, statistics, sinks), and what the
 * host changes goes to the device through host_changed: emitted particles are appended, a compaction
 * or a checkpoint uploads them all, and a resampled boundary is uploaded before the next step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/colliders.h"
#include "core/solver.h"
#include "cuda/sph_cuda.h"
#include "solvers/sph_family.h"

typedef struct sph_gpu_state {
    fc_cuda_sph *device;
    double rest_volume;         /* V0 (fc_sph_rest_volume) */
    double gradient_correction; /* fc_wcsph_gradient_correction */
    int host_behind;            /* the device stepped since the host arrays were last brought up to date */
    int boundary_behind;        /* the world resampled its boundary: upload it before the next step */
    int failed;                 /* a device call failed: every step fails from now on */
} sph_gpu_state;

static void report(const fc_world *w, const char *what, const char *why)
{
    fprintf(stderr, "fluidcast: world '%s' on the GPU: %s: %s\n", w->name, what, why);
}

static int upload_boundary(const fc_world *w, sph_gpu_state *st)
{
    char err[512];
    const fc_boundary *b = &w->boundary;
    if (fc_cuda_sph_set_boundary(st->device, b->count, b->x, b->y, b->z, b->volume, b->grid.cell_start, err,
                                 sizeof err)) {
        report(w, "boundary upload", err);
        return -1;
    }
    st->boundary_behind = 0;
    return 0;
}

static void sph_gpu_destroy(void *state)
{
    sph_gpu_state *st = state;
    if (!st) return;
    fc_cuda_sph_destroy(st->device);
    free(st);
}

static int sph_gpu_init(fc_world *w, void **state, char *err, size_t errlen)
{
    sph_gpu_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    if (errlen) err[0] = '\0';
    st->rest_volume = fc_sph_rest_volume(w);
    fc_world_derive_masses(w, st->rest_volume);
    st->gradient_correction = fc_wcsph_gradient_correction(w);
    st->device = fc_cuda_sph_create(&w->grid_geom, err, errlen);
    if (!st->device || fc_cuda_sph_upload(st->device, &w->particles, 0, err, errlen) || upload_boundary(w, st)) {
        if (st->device && !err[0]) snprintf(err, errlen, "the boundary particles could not be put on the device");
        sph_gpu_destroy(st);
        return -1;
    }
    *state = st;
    return 0;
}

/* What the device's passes read of the world now (parameters are live, as on the CPU). */
static void setup_of(const fc_world *w, const sph_gpu_state *st, fc_cuda_sph_setup *s)
{
    const fc_params *p = &w->params;
    s->h = p->smoothing_radius;
    s->volume = st->rest_volume;
    s->initial_sum = p->initial_sum;
    s->dimensions = w->dimensions;
    fc_sph_fluid_values(w, FC_SPH_REST_DENSITY, s->rest_density);
    fc_wcsph_eos_of(w, &s->eos);
    fc_wcsph_forces_of(w, st->gradient_correction, &s->forces);
    fc_collision_init(&s->collision, w, FC_WALLS_CLAMP, 1); /* as fc_collide_particles */
}

static double sph_gpu_choose_dt(const fc_world *w, const void *state)
{
    const sph_gpu_state *st = state; /* the reduction's scratch word is the device's own, not the state */
    if (w->params.cfl_number <= 0.0 || st->failed) return w->params.time_step;
    float max2 = 0.0f;
    char err[512];
    if (fc_cuda_sph_max_speed2((fc_cuda_sph *)st->device, &max2, err, sizeof err)) {
        report(w, "max speed", err);
        return w->params.time_step;
    }
    return fc_wcsph_cfl_step(&w->params, sqrt((double)max2));
}

/* Sorts the particles on the device and computes their density and pressure (step: and moves them). */
static int run_on_device(fc_world *w, sph_gpu_state *st, const double *dt)
{
    char err[512];
    fc_cuda_sph_setup setup;
    if (st->failed || (st->boundary_behind && upload_boundary(w, st))) return -1;
    setup_of(w, st, &setup);
    const int failed = dt ? fc_cuda_sph_step(st->device, &setup, (float)*dt, err, sizeof err)
                          : fc_cuda_sph_density(st->device, &setup, err, sizeof err);
    st->host_behind = 1;
    if (failed) {
        report(w, dt ? "step" : "density", err);
        st->failed = 1;
        return -1;
    }
    return 0;
}

static int sph_gpu_step(fc_world *w, void *state, double dt)
{
    return run_on_device(w, state, &dt) ? FC_STEP_FAILED : FC_STEP_DONE;
}

static int sph_gpu_density(fc_world *w, void *state) { return run_on_device(w, state, NULL); }

/* Every field comes back at once: the device's reorder moved them all. */
static void sph_gpu_sync_to_host(fc_world *w, void *state, unsigned fields)
{
    sph_gpu_state *st = state;
    char err[512];
    if (!fields || !st->host_behind || st->failed) return;
    if (fc_cuda_sph_download(st->device, &w->particles, err, sizeof err)) {
        report(w, "download", err);
        st->failed = 1;
        return;
    }
    st->host_behind = 0;
}

static void sph_gpu_host_changed(fc_world *w, void *state, unsigned what)
{
    sph_gpu_state *st = state;
    char err[512];
    if (what & FC_CHANGED_COLLIDERS) st->boundary_behind = 1; /* the world resamples it before the step */
    if (st->failed || !(what & (FC_CHANGED_ADDED | FC_CHANGED_REMOVED | FC_CHANGED_REPLACED))) return;
    /* appended only: the device keeps its particles (the host's copies of them may be behind) */
    const size_t from = (what & (FC_CHANGED_REMOVED | FC_CHANGED_REPLACED)) ? 0 : fc_cuda_sph_count(st->device);
    if (fc_cuda_sph_upload(st->device, &w->particles, from, err, sizeof err)) {
        report(w, "upload", err);
        st->failed = 1;
    }
}

static int sph_gpu_stats(const fc_world *w, const void *state, fc_solver_stat *out, int max)
{
    const sph_gpu_state *st = state;
    double mean = 0.0;
    char err[512];
    if (!st->failed && fc_cuda_sph_mean_neighbours((fc_cuda_sph *)st->device, &mean, err, sizeof err)) report(w, "statistics", err);
    return fc_sph_family_stats(w, mean, out, max);
}

const fc_solver fc_solver_sph_gpu = {
    .name = "sph",
    .description = "weakly compressible SPH (Mueller 2003, Bullet-Fluids) on a CUDA device",
    .param_bit = FC_SOLVER_SPH,
    .needs = FC_NEEDS_GRID | FC_NEEDS_BOUNDARY,
    .check_params = fc_sph_family_check_params,
    .init = sph_gpu_init,
    .choose_dt = sph_gpu_choose_dt,
    .sound_speed = fc_wcsph_sound_speed,
    .step = sph_gpu_step,
    .density = sph_gpu_density,
    .stats = sph_gpu_stats,
    .sync_to_host = sph_gpu_sync_to_host,
    .host_changed = sph_gpu_host_changed,
    .destroy = sph_gpu_destroy,
};
