/* The store and method seams (core/store.h, core/solver.h) with a method outside the SPH family:
 * ballistic particles, which need neither grid nor boundary, so the world builds neither, the
 * budget counts their particles alone and the stability watch measures steps against their own
 * length scale. It steps on the host arrays, and in a store that keeps a private copy of the
 * particles as a device would: the host sees that copy only after fc_world_sync_to_host, and the
 * store sees every change the host makes (emitters, sinks, a checkpoint put back, a rebuilt world,
 * commands). With a CUDA device (or the host shim, CI's cuda-host build) it also steps in the CUDA
 * store, on the device primitive fc_device_store_fall, and lands where the host arrays' run does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/checkpoint.h"
#include "core/solver.h"
#include "core/stability.h"
#include "core/store.h"
#include "host/command.h"
#include "solvers/sph_family.h"
#ifdef FLUIDCAST_HAVE_CUDA
#include "core/colliders.h"
#include "cuda/device.h"
#include "cuda/store.h"
#include "cuda/device_store.h"
#endif

/* ---- the mirror store: positions and velocities of every particle, in the host's order ---- */

typedef struct mirror_state {
    size_t count;
    float *field[6]; /* x, y, z, vx, vy, vz */
    unsigned changes; /* FC_CHANGED_* seen since the test last cleared it */
    int uploads;
} mirror_state;

static const int MIRRORED[6] = {FC_PX, FC_PY, FC_PZ, FC_VX, FC_VY, FC_VZ};

/* Takes the host's particles from index `from` on into the private copy. */
static int upload(const fc_world *w, mirror_state *st, size_t from)
{
    const size_t n = w->particles.count;
    for (int f = 0; f < 6; f++) {
        float *grown = realloc(st->field[f], (n ? n : 1) * sizeof(float));
        if (!grown) return -1;
        st->field[f] = grown;
        if (n > from) memcpy(grown + from, w->particles.field[MIRRORED[f]] + from, (n - from) * sizeof(float));
    }
    st->count = n;
    st->uploads++;
    return 0;
}

static void mirror_destroy(void *state)
{
    mirror_state *st = state;
    for (int f = 0; f < 6; f++) free(st->field[f]);
    free(st);
}

static int mirror_create(fc_world *w, void **state, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    mirror_state *st = calloc(1, sizeof *st);
    if (!st || upload(w, st, 0)) {
        free(st);
        return -1;
    }
    *state = st;
    return 0;
}

static void mirror_sync_to_host(fc_world *w, void *state, unsigned fields)
{
    const mirror_state *st = state;
    for (int f = 0; f < 6; f++)
        if (fields & (f < 3 ? FC_SYNC_POSITION : FC_SYNC_VELOCITY))
            memcpy(w->particles.field[MIRRORED[f]], st->field[f], st->count * sizeof(float));
}

static void mirror_host_changed(fc_world *w, void *state, unsigned what)
{
    mirror_state *st = state;
    st->changes |= what;
    /* appended ones only (the host's copies of the others may be stale); all after a removal or a
     * checkpoint (the host was synced before it compacted); out of memory: step's count check fails */
    if (what & (FC_CHANGED_REMOVED | FC_CHANGED_REPLACED)) upload(w, st, 0);
    else if (what & FC_CHANGED_ADDED) upload(w, st, st->count);
}

static const fc_store_kind mirror_store = {
    .name = "mirror",
    .create = mirror_create,
    .destroy = mirror_destroy,
    .sync_to_host = mirror_sync_to_host,
    .host_changed = mirror_host_changed,
};

/* ---- the ballistic method: v += g dt, x += v dt, then the shared collision response ---- */

#define BALLISTIC_LENGTH 0.05 /* m: its length scale, what a particle may cross in a step */

static double ballistic_length(const fc_params *p)
{
    (void)p;
    return BALLISTIC_LENGTH;
}

/* One semi-implicit Euler step of the arrays x (3 of them) and v (3) of n particles. */
static void fall(const fc_world *w, float *const x[3], float *const v[3], size_t n, float dt)
{
    float g[3];
    fc_world_gravity(w, g);
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            v[a][i] += g[a] * dt;
            x[a][i] += v[a][i] * dt;
        }
}

static int ballistic_init(fc_world *w, void **state, char *err, size_t errlen)
{
    (void)w, (void)err, (void)errlen;
    *state = calloc(1, 1); /* nothing to keep; a state marks it started */
    return *state ? 0 : -1;
}

static void ballistic_destroy(void *state) { free(state); }

static int ballistic_step_on_host(fc_world *w, void *state, double dt)
{
    (void)state;
    fc_particles *p = &w->particles;
    float *const x[3] = {p->field[FC_PX], p->field[FC_PY], p->field[FC_PZ]};
    float *const v[3] = {p->field[FC_VX], p->field[FC_VY], p->field[FC_VZ]};
    fall(w, x, v, p->count, (float)dt);
    fc_collide_particles(w);
    return FC_STEP_DONE;
}

/* In the CUDA store: the device's free flight with the shared collision response. */
static int ballistic_step_on_cuda(fc_world *w, double dt)
{
#ifdef FLUIDCAST_HAVE_CUDA
    char err[512] = "";
    float g[3];
    fc_collision c;
    fc_world_gravity(w, g);
    fc_collision_init(&c, w, FC_WALLS_SOFT, 1); /* as fc_collide_particles */
    fc_device_store *device = fc_cuda_store_device(w);
    if (!device) return FC_STEP_FAILED;
    const int failed = fc_device_store_fall(device, g, (float)dt, &c, err, sizeof err);
    fc_cuda_store_stepped(w, failed, "ballistic step", err);
    return failed ? FC_STEP_FAILED : FC_STEP_DONE;
#else
    (void)w, (void)dt;
    return FC_STEP_FAILED;
#endif
}

/* In the store it runs in: the CUDA store's device, or the mirror store's copy only (no
 * collisions there; fails when the copy lost count). */
static int ballistic_step_in_store(fc_world *w, void *state, double dt)
{
    (void)state;
    if (w->store != &mirror_store) return ballistic_step_on_cuda(w, dt);
    mirror_state *st = w->store_state;
    if (st->count != w->particles.count) return FC_STEP_FAILED;
    fall(w, st->field, st->field + 3, st->count, (float)dt);
    return FC_STEP_DONE;
}

static int ballistic_stats(const fc_world *w, const void *state, fc_solver_stat *out, int max)
{
    (void)state;
    if (max < 1) return 0;
    const mirror_state *st = w->store == &mirror_store ? w->store_state : NULL;
    out[0] = (fc_solver_stat){.name = "private_particles", .value = st ? (double)st->count : -1.0};
    return 1;
}

static const fc_method_steps ballistic_in_store = {
    .init = ballistic_init, .step = ballistic_step_in_store, .stats = ballistic_stats, .destroy = ballistic_destroy};

static const fc_solver ballistic_solver = {
    .name = "ballistic",
    .description = "test: particles falling under gravity, no forces between them",
    .needs = 0,
    .on_host = {.init = ballistic_init, .step = ballistic_step_on_host, .stats = ballistic_stats,
                .destroy = ballistic_destroy},
    .on_device = &ballistic_in_store,
    .length_scale = ballistic_length,
    .length_name = "ballistic cell",
};

static mirror_state *mirror(fc_world *w) { return w->store_state; }

/* The FC_CHANGED_* bits the solver saw since the last call. */
static unsigned take_changes(fc_world *w)
{
    unsigned seen = mirror(w)->changes;
    mirror(w)->changes = 0;
    return seen;
}

/* 1 when the host's positions equal the private copy's. */
static int host_matches_copy(fc_world *w)
{
    const mirror_state *st = mirror(w);
    if (st->count != w->particles.count) return 0;
    for (int f = 0; f < 3; f++)
        if (st->count && memcmp(st->field[f], w->particles.field[MIRRORED[f]], st->count * sizeof(float)) != 0)
            return 0;
    return 1;
}

/* A message applied to the world as the server would; 0 when it was applied. */
static int apply_text(fc_world *w, const char *text)
{
    fc_message_error err = {0};
    cJSON *msg = NULL, *applied = cJSON_CreateObject();
    fc_command cmd;
    int rc = fc_message_parse(text, strlen(text), &err, &msg) || fc_command_from_message(msg, 7, &cmd, &err) ||
             fc_command_apply_to_world(w, &cmd, applied, &err);
    CHECK(rc == 0, "%s applies: %s", text, err.message);
    cJSON_Delete(msg);
    cJSON_Delete(applied);
    return rc;
}

/* A 1 m tank with a block of 1000 particles moving sideways, h 10 spacings (no SPH rule here). */
static int start_world(fc_world *w)
{
    char err[256] = "";
    fc_world_init(w);
    w->solver = &ballistic_solver;
    w->store = &mirror_store; /* chosen before the start: kept (the backend's otherwise) */
    w->params.particle_spacing = 0.02;
    w->params.smoothing_radius = 0.2;
    const float lo[3] = {0.1f, 0.1f, 0.1f}, hi[3] = {0.3f, 0.3f, 0.3f}, v[3] = {1.0f, 0.0f, 0.0f};
    int ok = fc_world_fill_box(w, lo, hi, v, 0) > 0 && fc_world_start(w, err, sizeof err) == 0;
    CHECK(ok && w->store_state && fc_world_steps(w) == &ballistic_in_store,
          "a world of the ballistic method starts in the mirror store with its steps there: %s", err);
    return ok ? 0 : -1;
}

static void test_needs_nothing_built(fc_world *w)
{
    CHECK(fc_sph_family_boundary(w) == NULL, "no boundary particles for a solver outside the SPH family");
    fc_cost alone = fc_world_cost(w, (double)w->particles.count);
    CHECK(alone.particles == (double)w->particles.count && alone.bytes == FC_BYTES_PER_PARTICLE * (double)w->particles.count,
          "the budget counts its particles alone (%g particles' worth, %g bytes)", alone.particles, alone.bytes);
    CHECK(w->grid_geom.ncells == 0, "no grid geometry for a solver that needs none");
}

static void test_sync(fc_world *w)
{
    const float x0 = w->particles.field[FC_PX][0], vy0 = w->particles.field[FC_VY][0];
    CHECK(fc_world_step(w) == FC_STEP_DONE, "a step");
    CHECK(w->particles.field[FC_PX][0] == x0 && w->particles.field[FC_VY][0] == vy0,
          "before a sync the host still has the old particles");
    CHECK(mirror(w)->field[0][0] != x0, "the private copy moved");
    fc_world_sync_to_host(w, FC_SYNC_POSITION);
    CHECK(host_matches_copy(w), "after syncing positions the host has the copy's");
    CHECK(w->particles.field[FC_VY][0] == vy0, "velocities were not asked for and stay");

    CHECK(fc_world_step(w) == FC_STEP_DONE, "another step");
    fc_world_stats s;
    fc_world_stats_compute(w, &s);
    double vx = mirror(w)->field[3][0], vy = mirror(w)->field[4][0], vz = mirror(w)->field[5][0];
    CHECK(fabs(s.max_speed - sqrt(vx * vx + vy * vy + vz * vz)) < 1e-5, "stats see the copy's speed: %g",
          s.max_speed);
    CHECK(host_matches_copy(w), "statistics synced the host first");
    CHECK(s.solver_stat_count == 1 && strcmp(s.solver_stat[0].solver, "ballistic") == 0 &&
              fc_world_stat(&s, "private_particles") == (double)w->particles.count,
          "the solver's statistic carries its name");
    CHECK(isnan(fc_world_stat(&s, "mean_density_error")), "no density error from a solver that has none");

    fc_world_step(w);
    fc_checkpoint c = {0};
    CHECK(fc_checkpoint_take(&c, w) == 0, "a checkpoint");
    CHECK(memcmp(c.particles.field[FC_PX], mirror(w)->field[0], w->particles.count * sizeof(float)) == 0,
          "the checkpoint holds the copy's positions");
    fc_world_step(w);
    take_changes(w);
    CHECK(fc_checkpoint_restore(&c, w) == 0, "the checkpoint goes back");
    CHECK((take_changes(w) & FC_CHANGED_REPLACED) && host_matches_copy(w), "the solver took the checkpoint's particles");
    fc_checkpoint_free(&c);
}

static void test_emit_and_sink(fc_world *w)
{
    const fc_object e = fc_emitter_row((float[]){0.7f, 0.5f, 0.5f}, (float[]){0, -1, 0}, 0.05f, 1.0f, 20000.0f, 0);
    const int emitter = fc_world_add_object(w, &e);
    take_changes(w);
    const size_t before = w->particles.count;
    const float x0 = mirror(w)->field[0][0], vx0 = mirror(w)->field[3][0]; /* gravity is along y */
    for (int i = 0; i < 5; i++) CHECK(fc_world_step(w) == FC_STEP_DONE, "an emitting step");
    CHECK(fabsf(mirror(w)->field[0][0] - (x0 + 5.0f * (float)w->params.time_step * vx0)) < 1e-5f,
          "emitting kept the copy's own particles (the host's were stale)");
    CHECK(w->particles.count > before && (take_changes(w) & FC_CHANGED_ADDED), "emitted particles are told: %zu",
          w->particles.count);
    CHECK(mirror(w)->count == w->particles.count, "the copy has them");
    fc_world_remove_object(w, emitter);

    const fc_object sink = fc_sink_row(&(fc_shape){.kind = FC_SHAPE_BOX, .center = {0.7f, 0.5f, 0.5f}, .half = {0.1f, 0.2f, 0.1f}});
    const int sink_id = fc_world_add_object(w, &sink);
    const size_t full = w->particles.count;
    CHECK(fc_world_step(w) == FC_STEP_DONE, "a step with a sink");
    CHECK(w->particles.count < full && (take_changes(w) & FC_CHANGED_REMOVED) && host_matches_copy(w),
          "the sink's removal is told: %zu of %zu left", w->particles.count, full);
    fc_world_remove_object(w, sink_id);
}

static void test_commands(fc_world *w)
{
    take_changes(w);
    CHECK(apply_text(w, "{\"type\": \"set\", \"world\": 1, \"values\": {\"gravity_y\": -1}}") == 0 &&
              (take_changes(w) & FC_CHANGED_PARAMS),
          "set is told");
    const size_t before = w->particles.count;
    fc_world_step(w);
    const mirror_state *st = mirror(w);
    float x[3] = {st->field[0][0], st->field[1][0], st->field[2][0]}; /* where particle 0 is now */
    char text[256];
    snprintf(text, sizeof text,
             "{\"type\": \"collider_add\", \"world\": 1, \"collider\": {\"shape\": \"sphere\", \"position\": "
             "[%.6f, %.6f, %.6f], \"radius\": 0.05}}", x[0], x[1], x[2]);
    CHECK(apply_text(w, text) == 0, "a sphere where the fluid is");
    unsigned seen = take_changes(w);
    CHECK((seen & FC_CHANGED_COLLIDERS) && (seen & FC_CHANGED_REMOVED) && w->particles.count < before &&
              host_matches_copy(w),
          "the collider and the fluid it cut away are told (%zu of %zu left)", w->particles.count, before);
    snprintf(text, sizeof text,
             "{\"type\": \"collider_move\", \"world\": 1, \"collider\": %d, \"position\": [0.8, 0.8, 0.8]}",
             w->objects.rows[w->objects.count - 1].id);
    CHECK(apply_text(w, text) == 0 && (take_changes(w) & FC_CHANGED_COLLIDERS), "a collider's move is told");
}

static void test_rebuild(fc_world *w)
{
    char err[256] = "";
    fc_world_step(w);
    const size_t before = w->particles.count;
    const float lo[3] = {0.5f, 0.5f, 0.5f}, hi[3] = {0.6f, 0.6f, 0.6f}, v[3] = {0, 0, 0};
    fc_world_fill_box(w, lo, hi, v, 0);
    const size_t added = w->particles.count - before;
    CHECK(added && (take_changes(w) & FC_CHANGED_ADDED) && mirror(w)->count == w->particles.count &&
              memcmp(mirror(w)->field[1] + before, w->particles.field[FC_PY] + before, added * sizeof(float)) == 0,
          "a fill into a running world is told, and the copy has the new particles");
    const float x0 = mirror(w)->field[0][0];
    CHECK(fc_world_start(w, err, sizeof err) == 0 && mirror(w)->count == w->particles.count && host_matches_copy(w),
          "a restarted world's solver starts from the host's particles: %s", err);
    CHECK(mirror(w)->field[0][0] == x0, "which the old solver synced before it went");
}

/* A ballistic world on the host arrays: a block [lo, hi] at rest, a 0.5 ms step; 0 when it started. */
static int start_on_host(fc_world *w, const float lo[3], const float hi[3])
{
    char err[256] = "";
    const float v[3] = {0.0f, 0.0f, 0.0f};
    fc_world_init(w);
    w->solver = &ballistic_solver;
    w->params.particle_spacing = 0.02;
    w->params.time_step = 5e-4;
    const int ok = fc_world_fill_box(w, lo, hi, v, 0) > 0 && fc_world_start(w, err, sizeof err) == 0;
    CHECK(ok, "a ballistic world on the host arrays starts: %s", err);
    if (!ok) fc_world_free(w);
    return ok ? 0 : -1;
}

/* On the host arrays (no store): a block dropped from rest falls as semi-implicit Euler says,
 * y_n = y0 - g dt^2 n (n + 1) / 2, within dt g t of the exact y0 - g t^2 / 2, and comes to rest on
 * the floor at particle_radius (within the soft walls' allowance); the budget counts its particles alone. */
static void test_on_host_arrays(void)
{
    fc_world w;
    const float lo[3] = {0.4f, 0.6f, 0.4f}, hi[3] = {0.5f, 0.7f, 0.5f};
    if (start_on_host(&w, lo, hi)) return;
    CHECK(!w.store && !w.store_state && fc_world_steps(&w) == &ballistic_solver.on_host,
          "without a store it steps on the host arrays");
    const double g = -w.params.gravity_y, dt = w.params.time_step, y0 = w.particles.field[FC_PY][0];
    const int n = 200;
    for (int i = 0; i < n; i++) fc_world_step(&w);
    const double t = n * dt, y = w.particles.field[FC_PY][0];
    const double euler = y0 - g * dt * dt * n * (n + 1) / 2.0, exact = y0 - 0.5 * g * t * t;
    CHECK(fabs(y - euler) < 1e-5 && fabs(y - exact) <= g * t * dt,
          "after %g s it is at %.6f m: Euler's %.6f, within g t dt of the exact %.6f", t, y, euler, exact);
    for (int i = 0; i < 2000; i++) fc_world_step(&w);
    float lowest = INFINITY, highest = -INFINITY;
    for (size_t i = 0; i < w.particles.count; i++) {
        lowest = fminf(lowest, w.particles.field[FC_PY][i]);
        highest = fmaxf(highest, w.particles.field[FC_PY][i]);
    }
    const double radius = fc_params_particle_radius(&w.params);
    const double allowance = fmin(fc_params_particle_margin(&w.params), radius); /* the soft walls' (collide.h) */
    CHECK(lowest >= radius - allowance && highest <= radius && highest - lowest < 1e-6,
          "after 1.1 s every particle rests on the floor at particle_radius, within the walls' allowance %g m "
          "below (%g to %g m)", allowance, lowest, highest);
    fc_cost alone = fc_world_cost(&w, (double)w.particles.count);
    CHECK(alone.particles == (double)w.particles.count && fc_sph_family_boundary(&w) == NULL,
          "budgeted as its particles alone, without boundary particles (%g)", alone.particles);
    fc_world_free(&w);
}

/* The same block on the CUDA store (a device, or the host shim): it starts there with the method's
 * device steps, and after 0.6 s of falling and landing every particle is where the host arrays'
 * run put it (the same formula and collision code, float rounding apart); budgeted alone. */
static void test_on_cuda_store(void)
{
#ifdef FLUIDCAST_HAVE_CUDA
    if (fc_cuda_device_count() <= 0) {
        printf("the CUDA store: skipped (no CUDA device)\n");
        return;
    }
    fc_world host, device;
    const float lo[3] = {0.4f, 0.6f, 0.4f}, hi[3] = {0.5f, 0.7f, 0.5f};
    if (start_on_host(&host, lo, hi)) return;
    char err[256] = "";
    const float v[3] = {0.5f, 0.0f, -0.3f};
    fc_world_init(&device);
    device.solver = &ballistic_solver;
    device.backend = FC_BACKEND_CUDA;
    device.params.particle_spacing = 0.02;
    device.params.time_step = 5e-4;
    const int ok = fc_world_fill_box(&device, lo, hi, v, 0) > 0 && fc_world_start(&device, err, sizeof err) == 0;
    CHECK(ok && device.store == &fc_store_cuda && fc_world_steps(&device) == &ballistic_in_store,
          "a ballistic world starts in the CUDA store with the method's device steps: %s", err);
    for (size_t i = 0; ok && i < host.particles.count; i++) /* the same sideways push on the host */
        host.particles.field[FC_VX][i] = v[0], host.particles.field[FC_VZ][i] = v[2];
    int failed = !ok;
    for (int i = 0; i < 1200 && !failed; i++) failed = fc_world_step(&host) != FC_STEP_DONE || fc_world_step(&device) != FC_STEP_DONE;
    CHECK(!failed, "1200 steps on both (0.6 s: the block lands at about 0.35 s)");
    fc_world_sync_to_host(&device, FC_SYNC_ALL);
    double worst = 0.0;
    int same_ids = device.particles.count == host.particles.count;
    for (size_t i = 0; same_ids && i < host.particles.count; i++) {
        same_ids &= device.particles.id[i] == host.particles.id[i];
        for (int a = 0; a < 3; a++)
            worst = fmax(worst, fabs(device.particles.field[FC_PX + a][i] - host.particles.field[FC_PX + a][i]));
    }
    printf("ballistic on the CUDA store: %zu particles, worst position difference from the host arrays' run %.2e m\n",
           device.particles.count, worst);
    CHECK(same_ids && worst < 1e-4, "the device's run lands where the host's does (worst %g m)", worst);
    fc_cost alone = fc_world_cost(&device, (double)device.particles.count);
    CHECK(alone.particles == (double)device.particles.count, "budgeted as its particles alone (%g)", alone.particles);
    fc_world_free(&device);
    fc_world_free(&host);
#endif
}

/* The stability watch measures a step against the method's length scale (0.05 m), not the spacing
 * (0.02 m) or a smoothing radius: 60 m/s crosses 0.6 of it per 0.5 ms step, 120 m/s 1.2. */
static void test_watched_with_its_length_scale(void)
{
    fc_world w;
    const float lo[3] = {0.4f, 0.4f, 0.4f}, hi[3] = {0.6f, 0.6f, 0.6f};
    if (start_on_host(&w, lo, hi)) return;
    fc_world_step(&w);
    const double speeds[2] = {60.0, 120.0};
    for (int k = 0; k < 2; k++) {
        w.particles.field[FC_VX][0] = (float)speeds[k];
        fc_world_stats s;
        fc_world_stats_compute(&w, &s);
        fc_instability r;
        const int unstable = fc_world_check_stability(&w, &s, &r);
        if (k == 0) CHECK(!unstable, "60 m/s, 1.5 spacings but 0.6 of its length per step, is no blow-up: %s", r.message);
        else
            CHECK(unstable && strcmp(r.check, "speed") == 0 && strstr(r.message, "ballistic cell"),
                  "120 m/s crosses 1.2 ballistic cells per step: %s", unstable ? r.message : "(stable)");
    }
    fc_world_free(&w);
}

int main(void)
{
    test_on_host_arrays();
    test_on_cuda_store();
    test_watched_with_its_length_scale();
    fc_world w;
    if (start_world(&w) == 0) {
        test_needs_nothing_built(&w);
        test_sync(&w);
        test_emit_and_sink(&w);
        test_commands(&w);
        test_rebuild(&w);
    }
    fc_world_free(&w);
    return check_summary("test_solver_seam");
}
