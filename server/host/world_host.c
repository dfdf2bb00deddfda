/* The world thread: its queue of commands, and its loop of commands between steps, stepping on the
 * wall clock or as fast as allowed; world_step.c steps, world_publish.c publishes, world_requests.c
 * applies the requests. */
#define _POSIX_C_SOURCE 200809L
#include "host/world_host_parts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REALTIME_MAX_LAG_S 0.1 /* a world that fell behind the wall clock does not race to catch up */

double fc_host_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double fc_host_test_delay(const char *variable, const char *scene)
{
    const char *spec = getenv(variable), *colon = spec ? strchr(spec, ':') : NULL;
    if (!colon || (size_t)(colon - spec) != strlen(scene) || strncmp(spec, scene, strlen(scene)) != 0) return 0.0;
    return atof(colon + 1);
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

/* Sleeps until woken (a command, a key request, stop) or for at most seconds (< 0: no limit). */
static void wait_for_work(fc_world_host *h, double seconds)
{
    pthread_mutex_lock(&h->lock);
    /* A waiting world checks its subscribers under the lock too: a subscriber that came after the
     * loop's check wakes it (fc_world_host_wake after the demands changed), never a lost wake-up. */
    if (!h->stop && !h->queue_count && !fc_streams_key_wanted(&h->streams) && !atomic_load(&h->state_wanted) &&
        !(h->waiting && fc_host_watched(h))) {
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

/* ---- the thread ---------------------------------------------------------------------------- */

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
    fc_host_restart_clocks(h);
    fc_host_publish_state(h);
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
    if (fc_host_apply_load(h, &cmd, applied, &err)) {
        fprintf(stderr, "fluidcast: world %u: --loop: the rebuild failed (%s); the loop ends\n", (unsigned)h->id,
                err.message);
        h->spec.loop = 0.0;
    }
    cJSON_Delete(applied);
    fc_host_request_state(h);
    fc_host_publish_frame(h);
}

static void run_world(fc_world_host *h)
{
    if (fc_host_load_initial_world(h)) return;
    const double interval = 1.0 / h->spec.fps;
    h->next_publish = fc_host_now();
    for (;;) {
        int stop;
        for (fc_command *cmd; (cmd = next_command(h, &stop));) fc_host_run_command(h, cmd);
        if (stop) break;
        if (h->waiting && fc_host_watched(h)) end_wait(h);
        if (atomic_exchange(&h->state_wanted, 0)) fc_host_request_state(h);
        double now = fc_host_now();
        if (fc_streams_key_wanted(&h->streams)) fc_host_publish_frame(h);
        double state_wait = fc_host_state_due_in(h, now);
        if (state_wait == 0.0) fc_host_publish_state(h), state_wait = -1.0;
        if (h->paused) {
            wait_for_work(h, state_wait);
            continue;
        }
        double wait = realtime_wait(h, now);
        if (wait > 0.0) {
            wait_for_work(h, state_wait > 0.0 ? fmin(wait, state_wait) : wait);
            continue;
        }
        if (fc_host_step_once(h)) continue;
        if (h->spec.loop > 0.0 && h->world.time >= h->spec.loop * (1.0 - 1e-9)) { /* summed dt may fall short */
            loop_reset(h);
            continue;
        }
        now = fc_host_now();
        /* a request's effect goes out early, but never more than twice the frame rate */
        int early = h->publish_after_step && now - h->last_publish >= 0.5 * interval;
        if (now >= h->next_publish || early) {
            fc_host_publish_frame(h);
            h->publish_after_step = 0;
            h->last_publish = now;
            h->next_publish = fmax(h->next_publish + interval, now);
        }
        if (now >= h->next_state) fc_host_publish_state(h);
    }
}

static void *world_thread(void *arg)
{
    fc_world_host *h = arg;
    run_world(h);
    fc_products_stop(&h->products);
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
    int failed = fc_streams_init(&h->streams) || fc_products_init(&h->products, mailbox) || pthread_mutex_init(&h->lock, NULL) ||
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
    fc_products_free(&h->products);
    pthread_cond_destroy(&h->wake);
    pthread_mutex_destroy(&h->lock);
    free(h);
}
