/* The world thread: commands between steps, stepping on the wall clock or as fast as allowed,
 * snapshots encoded once into the streams, state messages for the subscribers. */
#define _POSIX_C_SOURCE 200809L
#include "host/world_host.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/budget.h"
#include "core/params_json.h"
#include "core/build_progress.h"
#include "core/scene.h"
#include "core/scene_list.h"
#include "core/solver.h"
#include "host/world_build.h"
#include "host/world_json.h"

#define STATE_INTERVAL_S 1.0     /* a running world sends its state at least this often */
#define STATE_BURST_WINDOW_S 1.0   /* FC_STATE_BURST states within this window at most */
#define REALTIME_MAX_LAG_S 0.1   /* a world that fell behind the wall clock does not race to catch up */
#define PICKS_PER_S 20           /* a pick scans every particle: a world answers this many a second */
#define FRAME_MAX_STEPS_PER_SUBSTEP 50 /* a `step` frame ends after this many steps per substep at most */
#define PROGRESS_AFTER_S 0.3     /* a build that takes longer tells its clients how far it got ... */
#define PROGRESS_PER_S 4.0       /* ... at most this often */

double fc_host_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- the queue and the lock ---------------------------------------------------------------- */

/* Requests after which the step in progress is wasted work: it may end between its phases. */
static int discards_the_step(fc_message_type type)
{
    return type == FC_MSG_RESET || type == FC_MSG_LOAD_SCENE || type == FC_MSG_REWIND;
}

int fc_world_host_post(fc_world_host *h, fc_command *cmd)
{
    pthread_mutex_lock(&h->lock);
    int full = h->queue_count == sizeof h->queue / sizeof h->queue[0];
    if (!full) h->queue[(h->queue_head + h->queue_count++) % (sizeof h->queue / sizeof h->queue[0])] = cmd;
    if (!full && discards_the_step(cmd->type)) atomic_store(&h->interrupt, 1);
    pthread_cond_signal(&h->wake);
    pthread_mutex_unlock(&h->lock);
    return full ? -1 : 0;
}

void fc_world_host_wake(fc_world_host *h)
{
    pthread_mutex_lock(&h->lock);
    pthread_cond_signal(&h->wake);
    pthread_mutex_unlock(&h->lock);
}

void fc_world_host_set_camera_broadcast(fc_world_host *h, int broadcasting)
{
    if (atomic_exchange(&h->camera_broadcast, broadcasting != 0) == (broadcasting != 0)) return;
    pthread_mutex_lock(&h->lock); /* wait_for_work reads state_wanted under the lock: no lost wake-up */
    atomic_store(&h->state_wanted, 1);
    pthread_cond_signal(&h->wake);
    pthread_mutex_unlock(&h->lock);
}

void fc_world_host_info(fc_world_host *h, fc_world_info *info)
{
    pthread_mutex_lock(&h->lock);
    *info = h->info;
    pthread_mutex_unlock(&h->lock);
}

fc_blob *fc_world_host_notice(fc_world_host *h, fc_notice kind)
{
    pthread_mutex_lock(&h->lock);
    fc_blob *b = fc_blob_ref(h->notice[kind]);
    pthread_mutex_unlock(&h->lock);
    return b;
}

/* Makes o the newest notice of its kind (takes it) and wakes the network thread. */
static void publish_notice(fc_world_host *h, fc_notice kind, cJSON *o)
{
    fc_blob *b = fc_reply_json(o);
    cJSON_Delete(o);
    if (!b) return; /* out of memory: the previous one stays */
    pthread_mutex_lock(&h->lock);
    fc_blob_assign(&h->notice[kind], b);
    pthread_mutex_unlock(&h->lock);
    fc_blob_unref(b);
    atomic_fetch_add(&h->notice_version[kind], 1);
    fc_mailbox_wake(h->mailbox);
}

/* Takes the next queued command, or NULL; sets *stop when the thread must end. The interrupt is
 * cleared first: a request queued after this sets it again. */
static fc_command *next_command(fc_world_host *h, int *stop)
{
    pthread_mutex_lock(&h->lock);
    fc_command *cmd = NULL;
    *stop = h->stop;
    if (!*stop) atomic_store(&h->interrupt, 0);
    if (!*stop && h->queue_count) {
        cmd = h->queue[h->queue_head];
        h->queue_head = (h->queue_head + 1) % (sizeof h->queue / sizeof h->queue[0]);
        h->queue_count--;
    }
    pthread_mutex_unlock(&h->lock);
    return cmd;
}

/* 1 when some client subscribes to the world. */
static int watched(fc_world_host *h)
{
    int any = 0;
    pthread_mutex_lock(&h->streams.lock);
    for (int b = 0; b < FC_STREAM_BITS_CHOICES; b++)
        for (int t = 0; t < FC_STREAM_TIERS; t++) any |= h->streams.stream[b][t].demand.subscribers > 0;
    pthread_mutex_unlock(&h->streams.lock);
    return any;
}

/* Sleeps until woken (a command, a key request, stop) or for at most seconds (< 0: no limit). */
static void wait_for_work(fc_world_host *h, double seconds)
{
    pthread_mutex_lock(&h->lock);
    /* A waiting world checks its subscribers under the lock too: a subscriber that came after the
     * loop's check wakes it (fc_world_host_wake after the demands changed), never a lost wake-up. */
    if (!h->stop && !h->queue_count && !fc_streams_key_wanted(&h->streams) && !atomic_load(&h->state_wanted) &&
        !(h->waiting && watched(h))) {
        if (seconds < 0) {
            pthread_cond_wait(&h->wake, &h->lock);
        } else {
            double until = fc_host_now() + seconds, whole = floor(until);
            struct timespec t = {(time_t)whole, (long)((until - whole) * 1e9)};
            pthread_cond_timedwait(&h->wake, &h->lock, &t);
        }
    }
    pthread_mutex_unlock(&h->lock);
}

/* ---- publishing ---------------------------------------------------------------------------- */

static void update_info(fc_world_host *h)
{
    pthread_mutex_lock(&h->lock);
    fc_world_info *i = &h->info;
    snprintf(i->solver, sizeof i->solver, "%s", h->world.solver->name);
    i->paused = h->paused;
    i->waiting = h->waiting;
    i->realtime = h->spec.realtime;
    i->time = h->world.time;
    i->step = h->world.step_count;
    i->particles = h->world.particles.count;
    i->sequence = h->sequence;
    i->epoch = h->epoch;
    pthread_mutex_unlock(&h->lock);
}

void fc_world_info_add_summary(cJSON *o, const fc_world_info *info)
{
    cJSON_AddStringToObject(o, "name", info->name);
    cJSON_AddStringToObject(o, "scene", info->scene);
    cJSON_AddStringToObject(o, "solver", info->solver);
    cJSON_AddStringToObject(o, "backend", info->backend);
    cJSON_AddStringToObject(o, "device", info->device);
    cJSON_AddBoolToObject(o, "paused", info->paused);
    cJSON_AddBoolToObject(o, "waiting", info->waiting);
    cJSON_AddBoolToObject(o, "realtime", info->realtime);
    cJSON_AddNumberToObject(o, "particles", (double)info->particles);
}

void fc_world_info_add_dt(cJSON *o, const fc_world_info *info)
{
    if (info->dt > 0.0) cJSON_AddNumberToObject(o, "dt", info->dt);
    else cJSON_AddNullToObject(o, "dt");
    if (info->dt_bound[0]) cJSON_AddStringToObject(o, "dt_bound", info->dt_bound);
    else cJSON_AddNullToObject(o, "dt_bound");
}

/* Builds the state message (PROTOCOL.md 2.3) from the world and the info. */
static void publish_state(fc_world_host *h)
{
    update_info(h);
    fc_world_info info;
    fc_world_host_info(h, &info);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "state");
    cJSON_AddNullToObject(o, "id");
    cJSON_AddNumberToObject(o, "world", h->id);
    fc_world_info_add_summary(o, &info);
    cJSON_AddNumberToObject(o, "time", info.time);
    cJSON_AddNumberToObject(o, "step", (double)info.step);
    cJSON_AddNumberToObject(o, "step_ms", info.step_ms);
    cJSON_AddNumberToObject(o, "steps_per_s", info.steps_per_s);
    fc_world_info_add_dt(o, &info);
    cJSON_AddNumberToObject(o, "sequence", info.sequence);
    cJSON_AddNumberToObject(o, "epoch", info.epoch);
    cJSON_AddItemToObject(o, "loop", h->spec.loop > 0.0 ? cJSON_CreateNumber(h->spec.loop) : cJSON_CreateNull());
    fc_json_add_world_content(o, &h->world);
    cJSON_AddItemToObject(o, "unstable", h->history.unstable ? fc_history_unstable_json(&h->history) : cJSON_CreateNull());
    cJSON_AddBoolToObject(o, "camera_broadcast", atomic_load(&h->camera_broadcast));
    publish_notice(h, FC_NOTICE_STATE, o);
    h->last_state = fc_host_now();
    h->recent_states[h->recent_state_next++ % FC_STATE_BURST] = h->last_state;
    h->next_state = h->last_state + STATE_INTERVAL_S;
    h->state_due = 0;
}

/* When the next state may go out: at once, unless FC_STATE_BURST went out within the window (a
 * flood of requests), then when the oldest of them leaves it. States stay few and small. */
static double state_allowed_at(const fc_world_host *h)
{
    return h->recent_states[h->recent_state_next % FC_STATE_BURST] + STATE_BURST_WINDOW_S;
}

/* The world changed: its state goes out now, or as soon as the burst allows. */
static void request_state(fc_world_host *h)
{
    if (fc_host_now() >= state_allowed_at(h)) publish_state(h);
    else h->state_due = 1;
}

/* Seconds until a deferred state is due (< 0: none is). */
static double state_due_in(const fc_world_host *h, double now)
{
    return h->state_due ? fmax(0.0, state_allowed_at(h) - now) : -1.0;
}

/* Takes a snapshot and encodes it into every stream that is due; nothing when no one watches. */
static void publish_frame(fc_world_host *h)
{
    uint32_t attributes = fc_streams_attributes_wanted(&h->streams);
    if (!watched(h)) return;
    fc_snapshot snap;
    if (fc_snapshot_take(&h->snapshot, &h->world, attributes, fc_streams_bits_wanted(&h->streams), h->sequence + 1,
                         &snap)) {
        fprintf(stderr, "fluidcast: world %u: out of memory for a snapshot\n", (unsigned)h->id);
        return;
    }
    h->sequence++;
    fc_stream_source src;
    memset(&src, 0, sizeof src);
    src.world = h->id;
    src.epoch = h->epoch;
    memcpy(src.lo, h->world.domain_lo, sizeof src.lo);
    memcpy(src.hi, h->world.domain_hi, sizeof src.hi);
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        fc_snapshot_attribute_range(&h->world, (fc_attribute)a, &src.attr_lo[a], &src.attr_hi[a]);
    fc_publish_result r;
    char err[256];
    if (fc_streams_publish(&h->streams, &snap, &src, &r, err, sizeof err))
        fprintf(stderr, "fluidcast: world %u: %s\n", (unsigned)h->id, err);
    update_info(h);
    pthread_mutex_lock(&h->lock);
    h->info.frames_encoded += r.frames;
    if (r.frames) h->info.bytes_per_frame = (double)r.bytes / r.frames;
    pthread_mutex_unlock(&h->lock);
    atomic_fetch_add(&h->published, 1);
    fc_mailbox_wake(h->mailbox);
}

/* ---- stepping ------------------------------------------------------------------------------ */

static void use_thread_share(fc_world_host *h)
{
    int threads = atomic_load(&h->threads);
    if (threads < 1 || threads == h->omp_threads) return;
    h->omp_threads = threads;
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
}

static void restart_clocks(fc_world_host *h)
{
    double now = fc_host_now();
    h->anchor_wall = now;
    h->anchor_sim = h->world.time;
    h->rate_start = now;
    h->rate_steps = 0;
    h->rate_time = h->world.time;
}

/* Withdraws a notice: subscribers that have not had it will not get it. */
static void withdraw_notice(fc_world_host *h, fc_notice kind)
{
    pthread_mutex_lock(&h->lock);
    fc_blob_assign(&h->notice[kind], NULL);
    pthread_mutex_unlock(&h->lock);
    atomic_fetch_add(&h->notice_version[kind], 1);
}

/* The world blew up, or its solver failed (history.why): it pauses, every subscriber gets the
 * unstable event (PROTOCOL.md 2.3) and a state that carries it, and rewind can take it back. */
static void become_unstable(fc_world_host *h)
{
    h->paused = 1;
    fc_world_release_memory(&h->world); /* a runaway's neighbour lists are not kept while it waits */
    h->paused_by_fault = 1;
    restart_clocks(h);
    fprintf(stderr, "fluidcast: world %u is unstable at t = %.4g s (%s): %s; paused\n", (unsigned)h->id,
            h->world.time, h->history.why.check, h->history.why.message);
    cJSON *o = fc_history_unstable_json(&h->history);
    cJSON_AddStringToObject(o, "type", "unstable");
    cJSON_AddNullToObject(o, "id");
    cJSON_AddNumberToObject(o, "world", h->id);
    cJSON_AddNumberToObject(o, "step", (double)h->world.step_count);
    publish_notice(h, FC_NOTICE_UNSTABLE, o);
    fc_mailbox_post(h->mailbox, FC_POST_WORLD_FAULT, 0, NULL, h); /* counted in /metrics */
    publish_state(h);
}

/* The world is stable again (rewound, rebuilt, resumed): the event is withdrawn. */
static void clear_unstable(fc_world_host *h)
{
    h->history.unstable = 0;
    h->history.watch.strikes = 0;
    withdraw_notice(h, FC_NOTICE_UNSTABLE);
}

/* Tests stand a long step in with FLUIDCAST_TEST_STEP_DELAY="SCENE:SECONDS": every step of a world
 * built from that scene also sleeps that long, and cannot be interrupted. */
static double test_step_delay(const char *scene)
{
    const char *spec = getenv("FLUIDCAST_TEST_STEP_DELAY"), *colon = spec ? strchr(spec, ':') : NULL;
    if (!colon || (size_t)(colon - spec) != strlen(scene) || strncmp(spec, scene, strlen(scene)) != 0) return 0.0;
    return atof(colon + 1);
}

/* One solver step with its timing. 0 done; 1 interrupted (a queued reset, load or rewind discards
 * it); -1 when the solver failed: the world pauses itself. */
static int step_once(fc_world_host *h)
{
    use_thread_share(h);
    double t0 = fc_host_now();
    if (h->test_step_delay_s > 0.0) {
        struct timespec delay = {(time_t)h->test_step_delay_s, (long)(fmod(h->test_step_delay_s, 1.0) * 1e9)};
        nanosleep(&delay, NULL);
    }
    int status = fc_world_step(&h->world);
    double t1 = fc_host_now();
    if (status == FC_STEP_INTERRUPTED) return 1; /* a stop or a rebuild waits; nothing moved */
    int failed = status != FC_STEP_DONE;
    h->rate_steps++;
    pthread_mutex_lock(&h->lock);
    h->info.step_ms = 1e3 * (t1 - t0);
    h->info.dt = h->world.last_dt;
    snprintf(h->info.dt_bound, sizeof h->info.dt_bound, "%s", fc_dt_bound_name(h->world.last_dt_bound));
    if (t1 - h->rate_start >= 1.0) {
        h->info.steps_per_s = (double)h->rate_steps / (t1 - h->rate_start);
        h->info.realtime_factor = (h->world.time - h->rate_time) / (t1 - h->rate_start);
        h->rate_start = t1;
        h->rate_steps = 0;
        h->rate_time = h->world.time;
    }
    pthread_mutex_unlock(&h->lock);
    if (failed) fc_history_solver_failed(&h->history, &h->world);
    fc_world_stats stats; /* the blow-up check's, for the stats message: no pass of its own */
    memset(&stats, 0, sizeof stats);
    stats.particles = SIZE_MAX; /* stays so when nothing was checked */
    int unstable = failed || fc_history_after_step(&h->history, &h->world, &stats);
    if (stats.particles != SIZE_MAX) {
        pthread_mutex_lock(&h->lock);
        h->info.max_speed = stats.max_speed;
        const double density_error = fc_world_stat(&stats, "mean_abs_density_error"); /* NAN: not reported */
        h->info.density_error = stats.particles && !isnan(density_error) ? density_error : -1.0;
        h->info.solver_stat_count = stats.solver_stat_count;
        memcpy(h->info.solver_stat, stats.solver_stat, sizeof stats.solver_stat);
        pthread_mutex_unlock(&h->lock);
    }
    if (unstable) {
        become_unstable(h);
        return -1;
    }
    return 0;
}

/* Advances whole frames, publishing after each; stops early on shutdown, on a failure and when a
 * queued reset, load or rewind interrupts a step (it discards them). A frame is substeps *
 * time_step of simulated time whatever the adaptive step is: the world steps until it is reached
 * (at most FRAME_MAX_STEPS_PER_SUBSTEP steps a substep, so a frame goes out even when the step
 * has shrunk far below time_step). */
static int step_frames(fc_world_host *h, int frames)
{
    for (int f = 0; f < frames; f++) {
        const fc_params *p = &h->world.params;
        const double end = h->world.time + p->substeps * p->time_step * (1.0 - 1e-9); /* summed dt may fall short */
        const long max_steps = (long)p->substeps * FRAME_MAX_STEPS_PER_SUBSTEP;
        for (long s = 0; s < max_steps && h->world.time < end; s++) {
            pthread_mutex_lock(&h->lock);
            int stop = h->stop;
            pthread_mutex_unlock(&h->lock);
            if (stop || step_once(h)) return -1; /* failed, or interrupted: the queued request goes first */
        }
        publish_frame(h);
    }
    return 0;
}

/* ---- loading scenes ------------------------------------------------------------------------ */

/* Swaps in a freshly built world: a new epoch, clocks restarted, paused state kept. */
static void adopt_world(fc_world_host *h, fc_world *fresh)
{
    fc_world_free(&h->world);
    h->world = *fresh;
    h->world.interrupt = &h->interrupt;
    h->epoch++;
    restart_clocks(h);
    fc_history_restart(&h->history, &h->world);
    withdraw_notice(h, FC_NOTICE_UNSTABLE);
}

/* The values of the named parameters as the world stores them. */
static cJSON *stored_values(const fc_world *w, const fc_param_values *values)
{
    static const fc_param_values none = {0};
    return fc_param_values_json(&w->params, w->fluids, w->fluid_count, values ? values : &none);
}

/* ---- build progress ------------------------------------------------------------------------ */

/* A build under way: who asked for it, and the throttle of its progress events. */
typedef struct build_watch {
    fc_world_host *host;
    uint64_t client;
    double started, last_sent;
    double test_delay_s;         /* tests only: each report point of this build also sleeps this long */
    fc_build_progress progress;
} build_watch;

static void report_build(void *ctx, const char *message, double done, double total)
{
    build_watch *b = ctx;
    if (b->test_delay_s > 0.0) {
        struct timespec delay = {(time_t)b->test_delay_s, (long)(fmod(b->test_delay_s, 1.0) * 1e9)};
        nanosleep(&delay, NULL);
    }
    double now = fc_host_now();
    if (now - b->started < PROGRESS_AFTER_S || now - b->last_sent < 1.0 / PROGRESS_PER_S) return;
    b->last_sent = now;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "progress");
    cJSON_AddNullToObject(o, "id");
    cJSON_AddNumberToObject(o, "world", b->host->id);
    cJSON_AddStringToObject(o, "task", "build");
    cJSON_AddNumberToObject(o, "done", floor(done * 1000.0 + 0.5) / 1000.0);
    cJSON_AddNumberToObject(o, "total", total);
    cJSON_AddStringToObject(o, "message", message);
    fc_blob *text = fc_reply_json(o);
    cJSON_Delete(o);
    if (text) fc_mailbox_post(b->host->mailbox, FC_POST_PROGRESS, b->client, text, b->host);
}

/* Tests stand a long build in with FLUIDCAST_TEST_BUILD_DELAY="SCENE:SECONDS": every report point
 * of a build of that scene (each fluid block, each layer of boundary samples, ...) also sleeps. */
static double test_build_delay(const char *scene)
{
    const char *spec = getenv("FLUIDCAST_TEST_BUILD_DELAY"), *colon = spec ? strchr(spec, ':') : NULL;
    if (!colon || (size_t)(colon - spec) != strlen(scene) || strncmp(spec, scene, strlen(scene)) != 0) return 0.0;
    return atof(colon + 1);
}

/* Starts watching a build of scene that client asked for (0: the command line). */
static const fc_build_progress *watch_build(build_watch *b, fc_world_host *h, uint64_t client, const char *scene)
{
    memset(b, 0, sizeof *b);
    b->host = h;
    b->client = client;
    b->started = fc_host_now();
    b->last_sent = -1e9;
    b->test_delay_s = test_build_delay(scene);
    b->progress.report = report_build;
    b->progress.ctx = b;
    return &b->progress;
}

/* ---- commands ------------------------------------------------------------------------------ */

/* The world's backend and device into its summary (the choice its build came to). */
static void show_backend(fc_world_host *h, const fc_backend_choice *c)
{
    pthread_mutex_lock(&h->lock);
    snprintf(h->info.backend, sizeof h->info.backend, "%s",
             fc_backend_name(h->world.backend == FC_BACKEND_CUDA ? FC_BACKEND_CUDA : FC_BACKEND_CPU));
    snprintf(h->info.device, sizeof h->info.device, "%s", c->device[0] ? c->device : "CPU");
    pthread_mutex_unlock(&h->lock);
}

/* reset: the world's scene (file or uploaded document) again, with the scene's solver; load_scene:
 * a shipped scene or an uploaded document, with its solver unless the request names one. */
static int apply_load(fc_world_host *h, const fc_command *cmd, cJSON *applied, fc_message_error *err)
{
    const int reset = cmd->type == FC_MSG_RESET;
    const char *document = reset ? h->scene_document : cmd->u.load.document;
    char path[4096];
    snprintf(path, sizeof path, "%s", h->spec.scene_path);
    if (!reset && !document && fc_scene_find_shipped(cmd->u.load.scene, path, sizeof path)) {
        char near[300];
        fc_message_error_set(err, FC_ERR_UNKNOWN_SCENE, "scene", "no shipped scene is named '%s'%s", cmd->u.load.scene,
                             fc_scene_did_you_mean(cmd->u.load.scene, near, sizeof near));
        return -1;
    }
    char *kept = !reset && document ? strdup(document) : NULL;
    if (!reset && document && !kept) {
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL, "out of memory");
        return -1;
    }
    /* reset rebuilds with the solver the world was loaded with (the scene's, or the one its
     * load_scene or --solver named), undoing a set_solver since as the scene's values undo a set */
    const char *solver = reset ? h->spec.solver : cmd->u.load.solver; /* "": the scene's */
    fc_world fresh;
    build_watch watch;
    const fc_build_progress *progress = watch_build(&watch, h, cmd->client, reset ? h->spec.scene : cmd->u.load.scene);
    fc_backend_choice backend = h->spec.backend;
    if (fc_world_build(document ? NULL : path, document, &cmd->u.load.values, solver, &backend, h->spec.budget,
                       &h->world.budget_held, progress, &fresh, err)) {
        free(kept);
        return -1;
    }
    adopt_world(h, &fresh);
    show_backend(h, &backend);
    if (h->paused_by_fault) h->paused = h->paused_by_fault = 0; /* a world a blow-up paused plays its new build */
    if (!reset) { /* an uploaded scene is named by its "name" ("uploaded" without one) */
        const char *scene = document ? h->world.name : cmd->u.load.scene;
        snprintf(h->spec.scene_path, sizeof h->spec.scene_path, "%s", document ? "" : path);
        snprintf(h->spec.scene, sizeof h->spec.scene, "%s", scene);
        snprintf(h->spec.solver, sizeof h->spec.solver, "%s", cmd->u.load.solver);
        free(h->scene_document);
        h->scene_document = kept;
        pthread_mutex_lock(&h->lock);
        snprintf(h->info.scene, sizeof h->info.scene, "%s", scene);
        pthread_mutex_unlock(&h->lock);
    }
    cJSON_AddStringToObject(applied, "scene", h->spec.scene);
    cJSON_AddStringToObject(applied, "solver", h->world.solver->name);
    cJSON_AddItemToObject(applied, "values", stored_values(&h->world, &cmd->u.load.values));
    cJSON_AddNumberToObject(applied, "particles", (double)h->world.particles.count);
    return 0;
}

static int apply_set_solver(fc_world_host *h, const fc_command *cmd, cJSON *applied, fc_message_error *err)
{
    char why[300];
    const fc_solver *next = fc_solver_lookup(cmd->u.set_solver.solver, why, sizeof why);
    if (!next) {
        fc_message_error_set(err, FC_ERR_UNKNOWN_SOLVER, "solver", "%s", why);
        return -1;
    }
    fc_world *w = &h->world;
    const double step_before = w->params.time_step;
    if (next != w->solver) {
        char msg[600];
        if (fc_reserve_step_work(w, &w->params, next, "solver", err)) return -1;
        if (fc_world_switch_solver(w, next->name, msg, sizeof msg)) {
            fc_message_error_set(err, FC_ERR_BAD_VALUE, "solver", "%s", msg);
            return -1;
        }
        h->epoch++;
    }
    cJSON_AddStringToObject(applied, "solver", next->name);
    if (w->params.time_step != step_before) {
        char note[200];
        snprintf(note, sizeof note, "time_step %g s became %g s, the step %s is made for", step_before,
                 w->params.time_step, next->name);
        cJSON_AddNumberToObject(applied, "time_step", w->params.time_step);
        cJSON_AddStringToObject(applied, "note", note);
    }
    return 0;
}

/* Back to a checkpoint (history.h chooses which); a new epoch, the paused state kept. */
static int apply_rewind(fc_world_host *h, const fc_command *cmd, cJSON *applied, fc_message_error *err)
{
    double back;
    if (fc_history_rewind(&h->history, &h->world, cmd->u.rewind.seconds, &back, err)) return -1;
    clear_unstable(h);
    h->epoch++;
    restart_clocks(h);
    cJSON_AddNumberToObject(applied, "time", h->world.time);
    cJSON_AddNumberToObject(applied, "step", (double)h->world.step_count);
    cJSON_AddNumberToObject(applied, "back", back);
    cJSON_AddNumberToObject(applied, "particles", (double)h->world.particles.count);
    return 0;
}

/* The nearest particle (command.c), at most PICKS_PER_S a second: watchers may pick too. */
static int apply_pick(fc_world_host *h, const fc_command *cmd, cJSON *applied, fc_message_error *err)
{
    double now = fc_host_now();
    if (now - h->pick_window_start >= 1.0) h->pick_window_start = now, h->picks_in_window = 0;
    if (h->picks_in_window >= PICKS_PER_S) {
        fc_message_error_set(err, FC_ERR_OVER_BUDGET, NULL,
                             "world %u answers at most %d picks a second (each scans every particle); try again",
                             (unsigned)h->id, PICKS_PER_S);
        return -1;
    }
    h->picks_in_window++;
    return fc_command_apply_to_world(&h->world, cmd, applied, err);
}

static int apply_command(fc_world_host *h, const fc_command *cmd, cJSON *applied, fc_message_error *err)
{
    switch (cmd->type) {
    case FC_MSG_SET:
    case FC_MSG_EMITTER_ADD:
    case FC_MSG_EMITTER_UPDATE:
    case FC_MSG_EMITTER_REMOVE:
    case FC_MSG_COLLIDER_MOVE:
    case FC_MSG_COLLIDER_ADD:
    case FC_MSG_COLLIDER_REMOVE: return fc_command_apply_to_world(&h->world, cmd, applied, err);
    case FC_MSG_PICK: return apply_pick(h, cmd, applied, err);
    case FC_MSG_REWIND: return apply_rewind(h, cmd, applied, err);
    case FC_MSG_PAUSE:
    case FC_MSG_RESUME:
        h->waiting = 0; /* a controller decides now: a subscriber will not resume a world it paused */
        if (cmd->type == FC_MSG_RESUME && h->history.unstable) clear_unstable(h); /* checked again as it runs */
        h->paused = cmd->type == FC_MSG_PAUSE;
        h->paused_by_fault = 0;
        restart_clocks(h);
        cJSON_AddBoolToObject(applied, "paused", h->paused);
        return 0;
    case FC_MSG_STEP:
        h->paused = 1;
        h->paused_by_fault = 0;
        h->waiting = 0;
        step_frames(h, cmd->u.step.frames);
        restart_clocks(h);
        cJSON_AddNumberToObject(applied, "frames", cmd->u.step.frames);
        cJSON_AddNumberToObject(applied, "time", h->world.time);
        cJSON_AddNumberToObject(applied, "step", (double)h->world.step_count);
        return 0;
    case FC_MSG_RESET:
    case FC_MSG_LOAD_SCENE: return apply_load(h, cmd, applied, err);
    case FC_MSG_SET_SOLVER: return apply_set_solver(h, cmd, applied, err);
    default:
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL, "%s is not a world command", fc_message_type_name(cmd->type));
        return -1;
    }
}

/* Applies a command and posts its ack or error to the client; a change sends a fresh state. */
static void run_command(fc_world_host *h, fc_command *cmd)
{
    fc_message_error err;
    memset(&err, 0, sizeof err);
    snprintf(err.id, sizeof err.id, "%s", cmd->id);
    snprintf(err.request, sizeof err.request, "%s", fc_message_type_name(cmd->type));
    cJSON *applied = cJSON_CreateObject();
    uint32_t epoch = h->epoch;
    int failed = apply_command(h, cmd, applied, &err);
    const int changed = !failed && cmd->type != FC_MSG_PICK; /* a pick only reads the world */
    fc_blob *ack = failed ? NULL : fc_reply_ack(cmd->id, err.request, applied, (long long)h->sequence + 1);
    cJSON_Delete(applied);
    if (changed) request_state(h); /* the network thread sends the newest again after the ack (deliver) */
    if (failed) fc_mailbox_post_error(h->mailbox, FC_POST_TEXT, cmd->client, &err, h);
    else fc_mailbox_post(h->mailbox, FC_POST_TEXT, cmd->client, ack, h);
    /* a new epoch, or a pause: subscribers see the world as it now is, paused or not */
    if (changed && (h->epoch != epoch || cmd->type == FC_MSG_PAUSE)) publish_frame(h);
    else if (changed) h->publish_after_step = 1; /* the effect goes out after the next step, not at the next 1/fps */
    fc_command_free(cmd);
}

/* ---- the thread ---------------------------------------------------------------------------- */

static int load_initial_world(fc_world_host *h)
{
    fc_message_error err;
    memset(&err, 0, sizeof err);
    snprintf(err.id, sizeof err.id, "%s", h->create_id);
    snprintf(err.request, sizeof err.request, "create_world");
    fc_cost none = {0.0, 0.0};
    build_watch watch;
    const fc_build_progress *progress = watch_build(&watch, h, h->create_client, h->spec.scene);
    fc_backend_choice backend = h->spec.backend; /* the server's or the request's; the world's may be the CPU */
    const char *document = h->scene_document; /* an uploaded scene, else the file */
    if (fc_world_build(document ? NULL : h->spec.scene_path, document, &h->spec.values, h->spec.solver, &backend,
                       h->spec.budget, &none, progress, &h->world, &err)) {
        fc_mailbox_post_error(h->mailbox, FC_POST_WORLD_FAILED, h->create_client, &err, h);
        return -1;
    }
    if (document) snprintf(h->spec.scene, sizeof h->spec.scene, "%s", h->world.name); /* its "name" */
    h->world_ready = 1;
    h->world.interrupt = &h->interrupt;
    fc_history_restart(&h->history, &h->world);
    h->test_step_delay_s = test_step_delay(h->spec.scene);
    pthread_mutex_lock(&h->lock);
    snprintf(h->info.name, sizeof h->info.name, "%s", h->spec.name[0] ? h->spec.name : h->world.name);
    snprintf(h->info.scene, sizeof h->info.scene, "%s", h->spec.scene);
    pthread_mutex_unlock(&h->lock);
    show_backend(h, &backend);
    h->paused = h->waiting = h->spec.wait_for_subscriber;
    restart_clocks(h);
    publish_state(h);
    fc_blob *ack = NULL;
    if (h->create_client) {
        fc_world_info info;
        fc_world_host_info(h, &info);
        cJSON *applied = cJSON_CreateObject();
        cJSON_AddNumberToObject(applied, "world", h->id);
        cJSON_AddStringToObject(applied, "name", info.name);
        cJSON_AddStringToObject(applied, "scene", info.scene);
        cJSON_AddStringToObject(applied, "solver", info.solver);
        cJSON_AddStringToObject(applied, "backend", info.backend);
        cJSON_AddStringToObject(applied, "device", info.device);
        cJSON_AddBoolToObject(applied, "realtime", info.realtime);
        ack = fc_reply_ack(h->create_id, "create_world", applied, 1);
        cJSON_Delete(applied);
    }
    fc_mailbox_post(h->mailbox, FC_POST_WORLD_READY, h->create_client, ack, h);
    return 0;
}

/* Seconds the world must wait before its next step to stay behind the wall clock (realtime). */
static double realtime_wait(fc_world_host *h, double now)
{
    if (!h->spec.realtime) return 0.0;
    double wall_target = h->anchor_sim + (now - h->anchor_wall);
    if (wall_target - h->world.time > REALTIME_MAX_LAG_S) { /* fell behind: do not race */
        h->anchor_wall = now;
        h->anchor_sim = h->world.time;
        return 0.0;
    }
    return h->world.time - wall_target;
}

/* The first subscriber came: a waiting world plays from t = 0 (its state goes out before its first
 * frame; requests.c keeps the waiting state from that subscriber). */
static void end_wait(fc_world_host *h)
{
    h->waiting = 0;
    h->paused = 0;
    restart_clocks(h);
    publish_state(h);
}

/* --loop: the world is rebuilt from its scene (and the serve command's --set values) as `reset`
 * does, its subscribers get the new epoch's state and key frame. A rebuild that fails ends the loop. */
static void loop_reset(fc_world_host *h)
{
    fc_command cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.type = FC_MSG_RESET;
    cmd.u.load.values = h->spec.values;
    fc_message_error err;
    memset(&err, 0, sizeof err);
    cJSON *applied = cJSON_CreateObject();
    if (apply_load(h, &cmd, applied, &err)) {
        fprintf(stderr, "fluidcast: world %u: --loop: the rebuild failed (%s); the loop ends\n", (unsigned)h->id,
                err.message);
        h->spec.loop = 0.0;
    }
    cJSON_Delete(applied);
    request_state(h);
    publish_frame(h);
}

static void run_world(fc_world_host *h)
{
    if (load_initial_world(h)) return;
    const double interval = 1.0 / h->spec.fps;
    h->next_publish = fc_host_now();
    for (;;) {
        int stop;
        for (fc_command *cmd; (cmd = next_command(h, &stop));) run_command(h, cmd);
        if (stop) break;
        if (h->waiting && watched(h)) end_wait(h);
        if (atomic_exchange(&h->state_wanted, 0)) request_state(h);
        double now = fc_host_now();
        if (fc_streams_key_wanted(&h->streams)) publish_frame(h);
        double state_wait = state_due_in(h, now);
        if (state_wait == 0.0) publish_state(h), state_wait = -1.0;
        if (h->paused) {
            wait_for_work(h, state_wait);
            continue;
        }
        double wait = realtime_wait(h, now);
        if (wait > 0.0) {
            wait_for_work(h, state_wait > 0.0 ? fmin(wait, state_wait) : wait);
            continue;
        }
        if (step_once(h)) continue;
        if (h->spec.loop > 0.0 && h->world.time >= h->spec.loop * (1.0 - 1e-9)) { /* summed dt may fall short */
            loop_reset(h);
            continue;
        }
        now = fc_host_now();
        /* a request's effect goes out early, but never more than twice the frame rate */
        int early = h->publish_after_step && now - h->last_publish >= 0.5 * interval;
        if (now >= h->next_publish || early) {
            publish_frame(h);
            h->publish_after_step = 0;
            h->last_publish = now;
            h->next_publish = fmax(h->next_publish + interval, now);
        }
        if (now >= h->next_state) publish_state(h);
    }
}

static void *world_thread(void *arg)
{
    fc_world_host *h = arg;
    run_world(h);
    pthread_mutex_lock(&h->lock);
    h->budget_given = 1;
    const int counted = h->closing_counted;
    pthread_mutex_unlock(&h->lock);
    if (h->world_ready) { /* its memory and its budget are free once the thread ends, not when it is reaped */
        fc_world_free(&h->world);
        h->world_ready = 0;
    }
    if (counted) fc_budget_closing(h->spec.budget, -1);
    atomic_store(&h->finished, 1);
    fc_mailbox_wake(h->mailbox); /* the network thread reaps a closed world */
    return NULL;
}

fc_world_host *fc_world_host_start(uint32_t id, const fc_world_spec *spec, int threads, fc_mailbox *mailbox,
                                   uint64_t client, const char *request_id)
{
    fc_world_host *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->id = id;
    h->mailbox = mailbox;
    h->spec = *spec;
    h->spec.document = NULL;
    if (spec->document && !(h->scene_document = strdup(spec->document))) {
        free(h);
        return NULL;
    }
    if (!(h->spec.fps > 0)) h->spec.fps = 30.0;
    h->create_client = client;
    snprintf(h->create_id, sizeof h->create_id, "%s", request_id && request_id[0] ? request_id : "null");
    atomic_init(&h->threads, threads);
    atomic_init(&h->published, 0);
    for (int k = 0; k < FC_NOTICE_COUNT; k++) atomic_init(&h->notice_version[k], 0);
    atomic_init(&h->interrupt, 0);
    atomic_init(&h->finished, 0);
    atomic_init(&h->camera_broadcast, 0);
    atomic_init(&h->state_wanted, 0);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    int failed = fc_streams_init(&h->streams) || pthread_mutex_init(&h->lock, NULL) ||
                 pthread_cond_init(&h->wake, &attr);
    pthread_condattr_destroy(&attr);
    h->info.realtime = spec->realtime;
    h->info.density_error = -1.0; /* none until the first step */
    if (failed || pthread_create(&h->thread, NULL, world_thread, h)) {
        fc_world_host_free(h);
        return NULL;
    }
    h->thread_started = 1;
    return h;
}

void fc_world_host_request_stop(fc_world_host *h)
{
    if (!h || !h->thread_started) return;
    pthread_mutex_lock(&h->lock);
    if (!h->stop && !h->budget_given && h->spec.budget) { /* a build waiting for room waits for this world too */
        h->closing_counted = 1;
        fc_budget_closing(h->spec.budget, 1);
    }
    h->stop = 1;
    atomic_store(&h->interrupt, 1);
    pthread_cond_signal(&h->wake);
    pthread_mutex_unlock(&h->lock);
}

int fc_world_host_finished(fc_world_host *h)
{
    return !h->thread_started || atomic_load(&h->finished);
}

void fc_world_host_stop(fc_world_host *h)
{
    if (!h) return;
    fc_world_host_request_stop(h);
    fc_world_host_free(h);
}

void fc_world_host_free(fc_world_host *h)
{
    if (!h) return;
    if (h->thread_started) pthread_join(h->thread, NULL);
    while (h->queue_count) {
        fc_command_free(h->queue[h->queue_head]);
        h->queue_head = (h->queue_head + 1) % (sizeof h->queue / sizeof h->queue[0]);
        h->queue_count--;
    }
    if (h->world_ready) fc_world_free(&h->world);
    free(h->scene_document);
    fc_history_free(&h->history);
    fc_snapshot_buffer_free(&h->snapshot);
    for (int k = 0; k < FC_NOTICE_COUNT; k++) fc_blob_unref(h->notice[k]);
    fc_blob_unref(h->net.camera);
    fc_blob_unref(h->net.camera_pending);
    fc_streams_free(&h->streams);
    pthread_cond_destroy(&h->wake);
    pthread_mutex_destroy(&h->lock);
    free(h);
}
