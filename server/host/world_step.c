/* A world's steps on its thread: one step with its timing and the blow-up watch after it, and whole
 * frames of steps for the `step` command. */
#define _POSIX_C_SOURCE 200809L
#include "host/world_host_parts.h"

#include <math.h>
#include <stdio.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define FRAME_MAX_STEPS_PER_SUBSTEP 50 /* a `step` frame ends after this many steps per substep at most */

static void use_thread_share(fc_world_host *h)
{
    int threads = atomic_load(&h->threads);
    if (threads < 1 || threads == h->omp_threads) return;
    h->omp_threads = threads;
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
}

void fc_host_restart_clocks(fc_world_host *h)
{
    double now = fc_host_now();
    h->anchor_wall = now;
    h->anchor_sim = h->world.time;
    h->rate_start = now;
    h->rate_steps = 0;
    h->rate_time = h->world.time;
}

/* The world blew up, or its solver failed (history.why): it pauses, every subscriber gets the
 * unstable event (PROTOCOL.md 2.3) and a state that carries it, and rewind can take it back. */
static void become_unstable(fc_world_host *h)
{
    h->paused = 1;
    fc_world_release_memory(&h->world); /* a runaway's neighbour lists are not kept while it waits */
    h->paused_by_fault = 1;
    fc_host_restart_clocks(h);
    fprintf(stderr, "fluidcast: world %u is unstable at t = %.4g s (%s): %s; paused\n", (unsigned)h->id,
            h->world.time, h->history.why.check, h->history.why.message);
    cJSON *o = fc_history_unstable_json(&h->history);
    cJSON_AddStringToObject(o, "type", "unstable");
    cJSON_AddNullToObject(o, "id");
    cJSON_AddNumberToObject(o, "world", h->id);
    cJSON_AddNumberToObject(o, "step", (double)h->world.step_count);
    fc_host_publish_notice(h, FC_NOTICE_UNSTABLE, o);
    fc_mailbox_post(h->mailbox, FC_POST_WORLD_FAULT, 0, NULL, h); /* counted in /metrics */
    fc_host_publish_state(h);
}

/* The world is stable again (rewound, rebuilt, resumed): the event is withdrawn. */
void fc_host_clear_unstable(fc_world_host *h)
{
    h->history.unstable = 0;
    h->history.watch.strikes = 0;
    if (h->history.changed_while_unstable) h->history.change_due = 1; /* played on: they get a checkpoint */
    h->history.changed_while_unstable = 0;
    fc_host_withdraw_notice(h, FC_NOTICE_UNSTABLE);
}

/* One solver step with its timing. 0 done; 1 interrupted (a queued reset, load or rewind discards
 * it); -1 when the solver failed: the world pauses itself. */
int fc_host_step_once(fc_world_host *h)
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

/* Why a `step` must end before its next solver step, or NULL to go on (fc_step_run.stopped): the
 * world closes; the wall-time limit is reached; a request to the world waits and either a frame
 * just ended or it has waited FC_STEP_YIELD_S (request_seen: when the step first saw it, < 0: none). */
static const char *step_must_end(fc_world_host *h, double started, int frame_ended, double *request_seen)
{
    pthread_mutex_lock(&h->lock);
    const int stop = h->stop, waiting = h->queue_count > 0;
    pthread_mutex_unlock(&h->lock);
    if (stop) return "closing";
    const double now = fc_host_now();
    if (waiting && *request_seen < 0.0) *request_seen = now;
    if (waiting && (frame_ended || now - *request_seen >= FC_STEP_YIELD_S)) return "request";
    if (now - started >= FC_STEP_WALL_LIMIT_S) return "time_limit";
    return NULL;
}

/* Advances whole frames, publishing after each, until they are done or something ends the step
 * early (step_must_end, a failure or a queued reset, load or rewind that interrupts a solver step);
 * a request that comes lets the frame under way end if it does within FC_STEP_YIELD_S.
 * A frame is substeps * time_step of simulated time whatever the adaptive step is: the world steps
 * until it is reached (at most FRAME_MAX_STEPS_PER_SUBSTEP steps a substep, so a frame goes out
 * even when the step has shrunk far below time_step). A frame cut short is published as it is. */
fc_step_run fc_host_step_frames(fc_world_host *h, int frames)
{
    fc_step_run run = {0, NULL};
    const double started = fc_host_now();
    double request_seen = -1.0;
    while (run.frames < frames) {
        const fc_params *p = &h->world.params;
        const double end = h->world.time + p->substeps * p->time_step * (1.0 - 1e-9); /* summed dt may fall short */
        const long max_steps = (long)p->substeps * FRAME_MAX_STEPS_PER_SUBSTEP;
        long s = 0;
        for (; s < max_steps && h->world.time < end; s++) {
            if ((run.stopped = step_must_end(h, started, s == 0 && run.frames > 0, &request_seen))) break;
            const int status = fc_host_step_once(h);
            if (status) {
                run.stopped = status > 0 ? "request" : "unstable"; /* the queued request goes first */
                break;
            }
        }
        if (s > 0 || !run.stopped) fc_host_publish_frame(h);
        if (run.stopped) break;
        run.frames++;
    }
    return run;
}
