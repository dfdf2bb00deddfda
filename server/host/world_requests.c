/* A world's requests applied on its thread: loading and resetting (with build progress), solver
 * switches, rewinds, picks and the commands of command_apply.c, each answered with an ack or an error. */
#define _POSIX_C_SOURCE 200809L
#include "host/world_host_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/budget.h"
#include "core/build_progress.h"
#include "core/params_json.h"
#include "core/scene.h"
#include "core/scene_list.h"
#include "core/solver.h"
#include "host/world_build.h"
#include "host/world_json.h"

#define PICKS_PER_S 20       /* a pick scans every particle: a world answers this many a second */
#define PROGRESS_AFTER_S 0.3 /* a build that takes longer tells its clients how far it got ... */
#define PROGRESS_PER_S 4.0   /* ... at most this often */

/* A build under way: who asked for it, and the throttle of its progress events. */
typedef struct build_watch {
    fc_world_host *host;
    uint64_t client;
    double started, last_sent;
    double test_delay_s;         /* tests only: each report point of this build also sleeps this long */
    fc_build_progress progress;
} build_watch;

/* Swaps in a freshly built world: a new epoch, clocks restarted, paused state kept. */
static void adopt_world(fc_world_host *h, fc_world *fresh)
{
    fc_world_free(&h->world);
    h->world = *fresh;
    h->world.interrupt = &h->interrupt;
    h->epoch++;
    fc_host_restart_clocks(h);
    fc_history_restart(&h->history, &h->world);
    fc_host_withdraw_notice(h, FC_NOTICE_UNSTABLE);
}

/* The values of the named parameters as the world stores them. */
static cJSON *stored_values(const fc_world *w, const fc_param_values *values)
{
    static const fc_param_values none = {0};
    return fc_param_values_json(&w->params, w->fluids, w->fluid_count, values ? values : &none);
}

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

/* Starts watching a build of scene that client asked for (0: the command line). */
static const fc_build_progress *watch_build(build_watch *b, fc_world_host *h, uint64_t client, const char *scene)
{
    memset(b, 0, sizeof *b);
    b->host = h;
    b->client = client;
    b->started = fc_host_now();
    b->last_sent = -1e9;
    b->test_delay_s = fc_host_test_delay("FLUIDCAST_TEST_BUILD_DELAY", scene);
    b->progress.report = report_build;
    b->progress.ctx = b;
    return &b->progress;
}

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
int fc_host_apply_load(fc_world_host *h, const fc_command *cmd, cJSON *applied, fc_message_error *err)
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
        /* a world not named by create_world is called after its scene: the loaded one now */
        if (!h->spec.name[0]) snprintf(h->info.name, sizeof h->info.name, "%s", h->world.name);
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

/* Back to a checkpoint (history.h chooses which, and what it keeps: the ack says); a new epoch, the
 * paused state kept. */
static int apply_rewind(fc_world_host *h, const fc_command *cmd, cJSON *applied, fc_message_error *err)
{
    double back;
    if (fc_history_rewind(&h->history, &h->world, cmd->u.rewind.seconds, &back, applied, err)) return -1;
    fc_host_clear_unstable(h);
    h->epoch++;
    fc_host_restart_clocks(h);
    cJSON_AddNumberToObject(applied, "time", h->world.time);
    cJSON_AddNumberToObject(applied, "step", (double)h->world.step_count);
    cJSON_AddNumberToObject(applied, "back", back);
    cJSON_AddNumberToObject(applied, "particles", (double)h->world.particles.count);
    return 0;
}

/* The nearest particle (command_apply.c), at most PICKS_PER_S a second: watchers may pick too. */
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

/* step: the world pauses and advances; the ack says how many frames it took and why it ended early. */
static int apply_step(fc_world_host *h, const fc_command *cmd, cJSON *applied)
{
    h->paused = 1;
    h->paused_by_fault = 0;
    h->waiting = 0;
    const fc_step_run run = fc_host_step_frames(h, cmd->u.step.frames);
    fc_host_restart_clocks(h);
    cJSON_AddNumberToObject(applied, "frames", run.frames);
    cJSON_AddNumberToObject(applied, "time", h->world.time);
    cJSON_AddNumberToObject(applied, "step", (double)h->world.step_count);
    if (run.stopped) cJSON_AddStringToObject(applied, "stopped", run.stopped);
    else cJSON_AddNullToObject(applied, "stopped");
    return 0;
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
    case FC_MSG_COLLIDER_UPDATE:
    case FC_MSG_COLLIDER_REMOVE:
    case FC_MSG_WALLS_UPDATE: {
        const int rc = fc_command_apply_to_world(&h->world, cmd, applied, err);
        if (rc == 0 && cmd->type != FC_MSG_SET && cmd->type != FC_MSG_COLLIDER_MOVE)
            fc_history_objects_changed(&h->history); /* a rewind keeps them (a set's parameters are kept anyway) */
        return rc;
    }
    case FC_MSG_PICK: return apply_pick(h, cmd, applied, err);
    case FC_MSG_REWIND: return apply_rewind(h, cmd, applied, err);
    case FC_MSG_PAUSE:
    case FC_MSG_RESUME:
        h->waiting = 0; /* a controller decides now: a subscriber will not resume a world it paused */
        if (cmd->type == FC_MSG_RESUME && h->history.unstable) fc_host_clear_unstable(h); /* checked again as it runs */
        h->paused = cmd->type == FC_MSG_PAUSE;
        h->paused_by_fault = 0;
        fc_host_restart_clocks(h);
        cJSON_AddBoolToObject(applied, "paused", h->paused);
        return 0;
    case FC_MSG_STEP: return apply_step(h, cmd, applied);
    case FC_MSG_RESET:
    case FC_MSG_LOAD_SCENE: return fc_host_apply_load(h, cmd, applied, err);
    case FC_MSG_SET_SOLVER: return apply_set_solver(h, cmd, applied, err);
    default:
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL, "%s is not a world command", fc_message_type_name(cmd->type));
        return -1;
    }
}

/* Applies a command and posts its ack or error to the client; a change sends a fresh state. */
void fc_host_run_command(fc_world_host *h, fc_command *cmd)
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
    if (changed) fc_host_request_state(h); /* the network thread sends the newest again after the ack (deliver) */
    if (failed) fc_mailbox_post_error(h->mailbox, FC_POST_TEXT, cmd->client, &err, h);
    else fc_mailbox_post(h->mailbox, FC_POST_TEXT, cmd->client, ack, h);
    /* a new epoch, or a pause: subscribers see the world as it now is, paused or not */
    if (changed && (h->epoch != epoch || cmd->type == FC_MSG_PAUSE)) fc_host_publish_frame(h);
    else if (changed) h->publish_after_step = 1; /* the effect goes out after the next step, not at the next 1/fps */
    fc_command_free(cmd);
}

int fc_host_load_initial_world(fc_world_host *h)
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
    h->test_step_delay_s = fc_host_test_delay("FLUIDCAST_TEST_STEP_DELAY", h->spec.scene);
    pthread_mutex_lock(&h->lock);
    snprintf(h->info.name, sizeof h->info.name, "%s", h->spec.name[0] ? h->spec.name : h->world.name);
    snprintf(h->info.scene, sizeof h->info.scene, "%s", h->spec.scene);
    pthread_mutex_unlock(&h->lock);
    show_backend(h, &backend);
    h->paused = h->waiting = h->spec.wait_for_subscriber;
    fc_host_restart_clocks(h);
    fc_host_publish_state(h);
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
