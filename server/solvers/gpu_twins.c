/* The solvers' GPU twins: WCSPH and PBF stepped on a CUDA device (cuda/world_cuda.h), with sph.c's and
 * pbf.c's names, parameters, formulas (sph_terms.h) and statistics, and the backend seam that keeps
 * the host's copy.
 *
 * The particles live on the device between steps. The host arrays are brought up to date only when
 * something reads them (fc_world_sync_to_host: snapshots, exports, statistics, sinks), and what the
 * host changes goes to the device through host_changed: emitted particles are appended, a compaction
 * or a checkpoint uploads them all; the family's solids, resampled when the colliders changed, are
 * uploaded before the next step. The
 * two twins share all of this and differ in their step, density and CFL step only. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/colliders.h"
#include "core/solver.h"
#include "cuda/world_cuda.h"
#include "solvers/pbf.h"
#include "solvers/sph_family.h"

typedef struct gpu_state {
    fc_sph_solids solids;       /* first: the family's (fc_sph_family_boundary), sampled on the host */
    fc_cuda_world *device;
    double rest_volume;         /* V0 (fc_sph_rest_volume) */
    double gradient_correction; /* WCSPH: fc_wcsph_gradient_correction */
    double rest_denominator;    /* PBF: D0 (fc_pbf_lattice_denominator) */
    int host_behind;            /* the device stepped since the host arrays were last brought up to date */
    int failed;                 /* a device call failed: every step fails from now on */
    uint64_t id_stamp;          /* the set of particles (their ids) now: a new stamp at every change */
    fc_cuda_stats sums;         /* the device's statistics of motion_stats, for the stats call after it */
    int sums_ready;
    double max_acceleration;    /* WCSPH: the largest |a| of the last step (the force condition) */
} gpu_state;

/* Stamps of particle sets, unique in the process (fc_frame_request.id_stamp). */
static atomic_uint_fast64_t last_stamp;
static uint64_t new_stamp(void) { return (uint64_t)atomic_fetch_add(&last_stamp, 1) + 1; }

static void report(const fc_world *w, const char *what, const char *why)
{
    fprintf(stderr, "fluidcast: world '%s' on the GPU: %s: %s\n", w->name, what, why);
}

static int upload_boundary(const fc_world *w, gpu_state *st)
{
    char err[512];
    const fc_boundary *b = &st->solids.boundary;
    if (fc_cuda_world_set_boundary(st->device, b->count, b->x, b->y, b->z, b->volume, b->grid.cell_start, err,
                                   sizeof err)) {
        report(w, "boundary upload", err);
        return -1;
    }
    return 0;
}

/* The solids resampled and uploaded when the colliders changed since the last step. */
static int keep_boundary(fc_world *w, gpu_state *st)
{
    const int resampled = fc_sph_solids_update(w, &st->solids);
    return resampled < 0 || (resampled > 0 && upload_boundary(w, st)) ? -1 : 0;
}

static void gpu_destroy(void *state)
{
    gpu_state *st = state;
    if (!st) return;
    fc_cuda_world_destroy(st->device);
    fc_sph_solids_free(&st->solids);
    free(st);
}

static int gpu_init(fc_world *w, void **state, char *err, size_t errlen)
{
    gpu_state *st = calloc(1, sizeof *st);
    if (!st) return -1;
    if (errlen) err[0] = '\0';
    const fc_params *p = &w->params;
    st->rest_volume = fc_sph_rest_volume(w);
    fc_world_derive_masses(w, st->rest_volume);
    if (fc_sph_solids_init(w, &st->solids)) {
        gpu_destroy(st);
        snprintf(err, errlen, "out of memory while sampling boundaries");
        return FC_BUILD_OUT_OF_MEMORY;
    }
    st->gradient_correction = fc_wcsph_gradient_correction(w);
    st->rest_denominator =
        fc_pbf_lattice_denominator(p->smoothing_radius, p->particle_spacing, st->rest_volume, w->dimensions);
    st->device = fc_cuda_world_create(&w->grid_geom, err, errlen);
    if (!st->device || fc_cuda_world_upload(st->device, &w->particles, 0, err, errlen) || upload_boundary(w, st)) {
        if (st->device && !err[0]) snprintf(err, errlen, "the boundary particles could not be put on the device");
        gpu_destroy(st);
        return -1;
    }
    st->id_stamp = new_stamp();
    *state = st;
    return 0;
}

/* What every device pass reads of the world now (parameters are live, as on the CPU). */
static void common_setup(const fc_world *w, const gpu_state *st, fc_wall_mode walls, fc_cuda_setup *s)
{
    const fc_params *p = &w->params;
    s->h = p->smoothing_radius;
    s->volume = st->rest_volume;
    s->initial_sum = p->initial_sum;
    s->dimensions = w->dimensions;
    fc_sph_fluid_values(w, FC_SPH_REST_DENSITY, s->rest_density);
    fc_world_gravity(w, s->gravity);
    fc_collision_init(&s->collision, w, walls, 1);
}

/* Runs one device call (a step of dt, or with dt NULL the density at the present positions). */
static int run_on_device(fc_world *w, gpu_state *st, const double *dt)
{
    char err[512] = "";
    if (st->failed || keep_boundary(w, st)) return -1;
    const fc_params *p = &w->params;
    int failed;
    if (w->solver == &fc_solver_pbf_gpu) {
        fc_cuda_pbf_setup s = {.scorr_k = p->scorr_k, .scorr_dq = p->scorr_dq, .rest_denominator = st->rest_denominator,
                               .epsilon = fc_pbf_relaxation(p, st->rest_denominator), .vorticity = p->vorticity_epsilon, .xsph = p->xsph_c,
                               .scorr_n = p->scorr_n, .iterations = p->solver_iterations};
        common_setup(w, st, FC_WALLS_SOFT, &s.common); /* pbf.c's soft walls */
        failed = dt ? fc_cuda_pbf_step(st->device, &s, (float)*dt, err, sizeof err)
                    : fc_cuda_pbf_density(st->device, &s, err, sizeof err);
    } else {
        fc_cuda_sph_setup s;
        common_setup(w, st, FC_WALLS_CLAMP, &s.common); /* as fc_collide_particles */
        fc_wcsph_eos_of(w, &s.eos);
        fc_wcsph_forces_of(w, st->gradient_correction, &s.forces);
        failed = dt ? fc_cuda_sph_step(st->device, &s, (float)*dt, err, sizeof err)
                    : fc_cuda_sph_density(st->device, &s, err, sizeof err);
        float max_a2 = 0.0f;
        if (!failed && dt) failed = fc_cuda_sph_max_acceleration2(st->device, &max_a2, err, sizeof err);
        st->max_acceleration = sqrt((double)max_a2);
    }
    st->host_behind = 1;
    if (failed) {
        report(w, dt ? "step" : "density", err);
        st->failed = 1;
        return -1;
    }
    return 0;
}

static int gpu_step(fc_world *w, void *state, double dt)
{
    return run_on_device(w, state, &dt) ? FC_STEP_FAILED : FC_STEP_DONE;
}

static int gpu_density(fc_world *w, void *state) { return run_on_device(w, state, NULL); }

/* The largest speed on the device; 0 when it cannot be read (then the step is time_step). */
static double device_max_speed(const fc_world *w, const gpu_state *st)
{
    float max2 = 0.0f;
    char err[512];
    if (st->failed) return 0.0;
    if (fc_cuda_world_max_speed2(st->device, &max2, err, sizeof err)) report(w, "max speed", err);
    return sqrt((double)max2);
}

/* WCSPH's stability conditions (fc_wcsph_limit_dt) from the device's largest speed and the largest
 * acceleration of its last step. */
static void sph_gpu_limit_dt(const fc_world *w, const void *state, fc_step_limit *limit)
{
    const gpu_state *st = state;
    fc_wcsph_limit_dt(w, device_max_speed(w, st), st->max_acceleration, limit);
}

/* PBF's velocity condition, as pbf.c's. */
static void pbf_gpu_limit_dt(const fc_world *w, const void *state, fc_step_limit *limit)
{
    fc_pbf_limit_dt(w, device_max_speed(w, state), limit);
}

/* Every field comes back at once: the device's reorder moved them all. */
static void gpu_sync_to_host(fc_world *w, void *state, unsigned fields)
{
    gpu_state *st = state;
    char err[512];
    if (!fields || !st->host_behind || st->failed) return;
    if (fc_cuda_world_download(st->device, &w->particles, err, sizeof err)) {
        report(w, "download", err);
        st->failed = 1;
        return;
    }
    st->host_behind = 0;
}

/* The frame's snapshot quantized on the device: only ids and quantized values cross to the host. */
static int gpu_frame_snapshot(fc_world *w, void *state, fc_frame_request *req)
{
    gpu_state *st = state;
    char err[512];
    if (st->failed || req->count != fc_cuda_world_count(st->device)) return -1;
    if (fc_cuda_world_frame(st->device, req, req->id_stamp != st->id_stamp, err, sizeof err)) {
        report(w, "frame", err);
        return -1;
    }
    req->id_stamp = st->id_stamp;
    return 0;
}

/* An emitter's layer appended on the device: only the layer's points cross. */
static int gpu_emit(fc_world *w, void *state, const fc_emission *e)
{
    gpu_state *st = state;
    char err[512];
    if (st->failed) return -1;
    if (fc_cuda_world_emit(st->device, e, err, sizeof err)) {
        report(w, "emission", err);
        st->failed = 1;
        return -1;
    }
    st->host_behind = 1, st->id_stamp = new_stamp();
    return 0;
}

/* Sinks on the device: the particles inside go, the rest are compacted there. */
static long gpu_remove_inside(fc_world *w, void *state, const fc_shape *shapes, size_t count)
{
    gpu_state *st = state;
    char err[512];
    size_t removed = 0;
    if (st->failed) return -1;
    if (fc_cuda_world_remove_inside(st->device, shapes, count, &removed, err, sizeof err)) {
        report(w, "sinks", err);
        st->failed = 1;
        return -1;
    }
    if (removed) st->host_behind = 1, st->id_stamp = new_stamp();
    return (long)removed;
}

static void gpu_host_changed(fc_world *w, void *state, unsigned what)
{
    gpu_state *st = state;
    char err[512];
    if (st->failed || !(what & (FC_CHANGED_ADDED | FC_CHANGED_REMOVED | FC_CHANGED_REPLACED))) return;
    /* appended only: the device keeps its particles (the host's copies of them may be behind) */
    const int appended = !(what & (FC_CHANGED_REMOVED | FC_CHANGED_REPLACED));
    if (appended && fc_cuda_world_count(st->device) == w->particles.count) return; /* emitted there (gpu_emit) */
    const size_t from = appended ? fc_cuda_world_count(st->device) : 0;
    st->id_stamp = new_stamp();
    if (fc_cuda_world_upload(st->device, &w->particles, from, err, sizeof err)) {
        report(w, "upload", err);
        st->failed = 1;
    }
}

/* Motion and density statistics added up on the device: the blow-up check after every step moves
 * a few hundred bytes, not the particles. */
static int gpu_motion_stats(fc_world *w, void *state, fc_world_stats *out)
{
    gpu_state *st = state;
    char err[512];
    double rest[FC_SPH_MAX_FLUIDS];
    if (st->failed) return -1;
    for (int f = 0; f < FC_SPH_MAX_FLUIDS; f++) rest[f] = w->fluids[f < w->fluid_count ? f : 0].rest_density;
    if (fc_cuda_world_stats(st->device, rest, &st->sums, err, sizeof err)) {
        report(w, "statistics", err);
        return -1;
    }
    const size_t n = fc_cuda_world_count(st->device);
    out->particles = n;
    out->max_speed = sqrt(st->sums.max_speed2);
    out->rms_speed = n ? sqrt(st->sums.sum_speed2 / (double)n) : 0.0;
    out->has_nan = st->sums.has_nan;
    st->sums_ready = 1;
    return 0;
}

static int gpu_stats(const fc_world *w, const void *state, fc_solver_stat *out, int max)
{
    gpu_state *st = (gpu_state *)state; /* the sums are the device world's, handed on once */
    double mean = 0.0;
    char err[512];
    if (!st->failed && fc_cuda_world_mean_neighbours(st->device, &mean, err, sizeof err)) report(w, "statistics", err);
    if (!st->sums_ready) return fc_sph_family_stats(w, mean, out, max); /* the host's arrays are in sync */
    st->sums_ready = 0;
    return fc_sph_family_stats_of(st->sums.sum_err, st->sums.max_err, st->sums.sum_abs_err,
                                  fc_cuda_world_count(st->device), mean, out, max);
}

const fc_solver fc_solver_sph_gpu = {
    .name = "sph",
    .description = "weakly compressible SPH (Mueller 2003, Bullet-Fluids) on a CUDA device",
    .param_bit = FC_SOLVER_SPH,
    FC_SPH_FAMILY_METHOD,
    .init = gpu_init,
    .default_time_step = 5e-4,
    .limit_dt = sph_gpu_limit_dt,
    .step_work = fc_sph_family_step_work,
    .sound_speed = fc_wcsph_sound_speed,
    .step = gpu_step,
    .density = gpu_density,
    .stats = gpu_stats,
    .motion_stats = gpu_motion_stats,
    .sync_to_host = gpu_sync_to_host,
    .frame_snapshot = gpu_frame_snapshot,
    .remove_inside = gpu_remove_inside,
    .emit = gpu_emit,
    .host_changed = gpu_host_changed,
    .destroy = gpu_destroy,
};

const fc_solver fc_solver_pbf_gpu = {
    .name = "pbf",
    .description = "position based fluids (Macklin and Mueller 2013) on a CUDA device",
    .param_bit = FC_SOLVER_PBF,
    FC_SPH_FAMILY_METHOD,
    .init = gpu_init,
    .default_time_step = 2e-3,
    .limit_dt = pbf_gpu_limit_dt,
    .step_work = fc_pbf_step_work,
    .step = gpu_step,
    .density = gpu_density,
    .stats = gpu_stats,
    .motion_stats = gpu_motion_stats,
    .sync_to_host = gpu_sync_to_host,
    .frame_snapshot = gpu_frame_snapshot,
    .remove_inside = gpu_remove_inside,
    .emit = gpu_emit,
    .host_changed = gpu_host_changed,
    .destroy = gpu_destroy,
};
