/* Checkpoints, the blow-up watch and rewinding of one world. */
#include "host/history.h"

#include <math.h>
#include <string.h>

#include "core/params.h"

static void forget_checkpoints(fc_world_history *hist)
{
    for (int i = 0; i < FC_HISTORY_CHECKPOINTS; i++) hist->checkpoint[i].taken = 0;
}

/* Into the slot of the oldest (or a free) checkpoint. */
/* Checkpoints fall due at whole intervals of simulated time (1 s, 2 s, ...): one taken late, after
 * a few unstable steps, does not shift the ones after it. */
static double next_due(const fc_world *w)
{
    return (floor(w->time / FC_HISTORY_INTERVAL_S + 1e-9) + 1.0) * FC_HISTORY_INTERVAL_S;
}

static void take_checkpoint(fc_world_history *hist, fc_world *w)
{
    int slot = 0;
    for (int i = 0; i < FC_HISTORY_CHECKPOINTS; i++) {
        if (!hist->checkpoint[i].taken) {
            slot = i;
            break;
        }
        if (hist->checkpoint[i].time < hist->checkpoint[slot].time) slot = i;
    }
    fc_checkpoint_take(&hist->checkpoint[slot], w); /* out of memory: this one is skipped */
    hist->next_checkpoint = next_due(w);
}

void fc_history_restart(fc_world_history *hist, fc_world *w)
{
    forget_checkpoints(hist);
    hist->unstable = 0;
    hist->watch.strikes = 0;
    take_checkpoint(hist, w);
}

int fc_history_after_step(fc_world_history *hist, fc_world *w, fc_world_stats *stats)
{
    if (hist->unstable) return 0;
    fc_world_stats s;
    fc_world_stats_compute(w, &s);
    if (stats) *stats = s;
    if (fc_stability_watch_step(&hist->watch, w, &s, &hist->why)) {
        hist->unstable = 1;
        hist->unstable_time = w->time;
        return 1;
    }
    if (hist->watch.strikes == 0 && w->time >= hist->next_checkpoint) take_checkpoint(hist, w);
    return 0;
}

void fc_history_solver_failed(fc_world_history *hist, const fc_world *w)
{
    fc_instability_solver_failed(w, &hist->why);
    hist->unstable = 1;
    hist->unstable_time = w->time;
}

/* The newest checkpoint at or before `latest`, else the oldest; NULL when there is none. */
static fc_checkpoint *pick(fc_world_history *hist, double latest)
{
    fc_checkpoint *newest_fit = NULL, *oldest = NULL;
    for (int i = 0; i < FC_HISTORY_CHECKPOINTS; i++) {
        fc_checkpoint *c = &hist->checkpoint[i];
        if (!c->taken) continue;
        if (!oldest || c->time < oldest->time) oldest = c;
        if (c->time <= latest && (!newest_fit || c->time > newest_fit->time)) newest_fit = c;
    }
    return newest_fit ? newest_fit : oldest;
}

static double latest_allowed(const fc_world_history *hist, double now, double seconds)
{
    if (seconds >= 0.0) return now - seconds;
    return hist->unstable ? hist->unstable_time - FC_HISTORY_MARGIN_S : INFINITY;
}

double fc_history_rewind_target(const fc_world_history *hist)
{
    const fc_checkpoint *c = pick((fc_world_history *)hist, latest_allowed(hist, INFINITY, -1.0));
    return c ? c->time : -1.0;
}

int fc_history_rewind(fc_world_history *hist, fc_world *w, double seconds, double *back, fc_message_error *err)
{
    fc_checkpoint *c = pick(hist, latest_allowed(hist, w->time, seconds));
    if (!c) {
        fc_message_error_set(err, FC_ERR_BAD_VALUE, NULL, "this world has no checkpoint to go back to yet");
        return -1;
    }
    const double before = w->time;
    if (fc_checkpoint_restore(c, w)) {
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL,
                             "the checkpoint at t = %g s cannot be put back: out of memory, or the server's particle "
                             "budget is taken by other worlds", c->time);
        return -1;
    }
    *back = before - w->time;
    for (int i = 0; i < FC_HISTORY_CHECKPOINTS; i++) /* the future it came from is gone */
        if (hist->checkpoint[i].taken && hist->checkpoint[i].time > c->time) hist->checkpoint[i].taken = 0;
    hist->unstable = 0;
    hist->watch.strikes = 0;
    hist->next_checkpoint = next_due(w);
    return 0;
}

cJSON *fc_history_unstable_json(const fc_world_history *hist)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "check", hist->why.check ? hist->why.check : "");
    cJSON_AddStringToObject(o, "message", hist->why.message);
    cJSON_AddStringToObject(o, "cause", hist->why.cause);
    cJSON *suggested = cJSON_AddObjectToObject(o, "suggested"); /* as a `set` takes them */
    for (int i = 0; suggested && i < hist->why.suggested_count; i++) {
        const fc_suggestion *v = &hist->why.suggested[i];
        const fc_param_desc *d = fc_param_find(v->name);
        cJSON_AddItemToObject(suggested, v->name,
                              d && d->type == FC_PARAM_BOOL ? cJSON_CreateBool(v->value != 0.0) : cJSON_CreateNumber(v->value));
    }
    cJSON_AddNumberToObject(o, "time", hist->unstable_time);
    double target = fc_history_rewind_target(hist);
    cJSON_AddItemToObject(o, "rewind_to", target >= 0.0 ? cJSON_CreateNumber(target) : cJSON_CreateNull());
    return o;
}

void fc_history_free(fc_world_history *hist)
{
    for (int i = 0; i < FC_HISTORY_CHECKPOINTS; i++) fc_checkpoint_free(&hist->checkpoint[i]);
    memset(hist, 0, sizeof *hist);
}
