/* Checkpoints, the blow-up watch and rewinding of one world. */
#define _POSIX_C_SOURCE 200809L
#include "host/history.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/params.h"
#include "core/params_json.h"

static void forget_checkpoints(fc_world_history *hist)
{
    for (int i = 0; i < FC_HISTORY_CHECKPOINTS; i++) hist->checkpoint[i].taken = 0;
    hist->change_due = 0;
    hist->changed_while_unstable = 0;
}

/* Into the slot of the oldest (or a free) checkpoint. */
/* Checkpoints fall due at whole intervals of simulated time (1 s, 2 s, ...): one taken late, after
 * a few unstable steps, does not shift the ones after it. */
static double next_due(const fc_world *w)
{
    return (floor(w->time / FC_HISTORY_INTERVAL_S + 1e-9) + 1.0) * FC_HISTORY_INTERVAL_S;
}

static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The newest checkpoint's slot, or -1 when none is taken. */
static int newest_slot(const fc_world_history *hist)
{
    int newest = -1;
    for (int i = 0; i < FC_HISTORY_CHECKPOINTS; i++)
        if (hist->checkpoint[i].taken && (newest < 0 || hist->checkpoint[i].time > hist->checkpoint[newest].time))
            newest = i;
    return newest;
}

/* The slot of the newest checkpoint taken after a change, or -1. */
static int newest_change_slot(const fc_world_history *hist)
{
    int newest = -1;
    for (int i = 0; i < FC_HISTORY_CHECKPOINTS; i++)
        if (hist->checkpoint[i].taken && hist->after_change[i] &&
            (newest < 0 || hist->checkpoint[i].time > hist->checkpoint[newest].time))
            newest = i;
    return newest;
}

/* Into the slot of the oldest (or a free) checkpoint but the newest one taken after a change (what
 * a heat blow-up's fix goes back to: stability.h rewind_to_change); one taken after a change
 * replaces the newest when that one was too, so that a run of edits keeps the older checkpoints to
 * go back to. */
static void take_checkpoint(fc_world_history *hist, fc_world *w, int after_change)
{
    const int kept = newest_change_slot(hist);
    int slot = -1;
    for (int i = 0; i < FC_HISTORY_CHECKPOINTS; i++) {
        if (!hist->checkpoint[i].taken) {
            slot = i;
            break;
        }
        if (i != kept && (slot < 0 || hist->checkpoint[i].time < hist->checkpoint[slot].time)) slot = i;
    }
    if (slot < 0) slot = 0;
    const int newest = newest_slot(hist);
    if (after_change && newest >= 0 && hist->after_change[newest]) slot = newest;
    fc_checkpoint_take(&hist->checkpoint[slot], w); /* out of memory: this one is skipped */
    hist->after_change[slot] = after_change;
    hist->next_checkpoint = next_due(w);
    hist->change_due = 0;
    if (after_change) hist->last_change_checkpoint = wall_seconds();
}

void fc_history_restart(fc_world_history *hist, fc_world *w)
{
    forget_checkpoints(hist);
    hist->unstable = 0;
    hist->watch.strikes = 0;
    take_checkpoint(hist, w, 0);
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
    const int change_ready = hist->change_due && wall_seconds() - hist->last_change_checkpoint >= FC_HISTORY_CHANGE_GAP_S;
    if (hist->watch.strikes == 0 && (change_ready || w->time >= hist->next_checkpoint))
        take_checkpoint(hist, w, hist->change_due);
    return 0;
}

void fc_history_objects_changed(fc_world_history *hist)
{
    if (hist->unstable) hist->changed_while_unstable = 1;
    else hist->change_due = 1;
}

void fc_history_solver_failed(fc_world_history *hist, const fc_world *w)
{
    fc_instability_solver_failed(w, &hist->why);
    hist->unstable = 1;
    hist->unstable_time = w->time;
}

/* The newest checkpoint at or before `latest` (or, with `changes_before` above latest, taken after
 * a change before that time), else the oldest; NULL when there is none. */
static fc_checkpoint *pick(fc_world_history *hist, double latest, double changes_before)
{
    fc_checkpoint *newest_fit = NULL, *oldest = NULL;
    for (int i = 0; i < FC_HISTORY_CHECKPOINTS; i++) {
        fc_checkpoint *c = &hist->checkpoint[i];
        if (!c->taken) continue;
        if (!oldest || c->time < oldest->time) oldest = c;
        const int fits = c->time <= latest || (hist->after_change[i] && c->time < changes_before);
        if (fits && (!newest_fit || c->time > newest_fit->time)) newest_fit = c;
    }
    return newest_fit ? newest_fit : oldest;
}

/* The checkpoint a rewind of `seconds` (< 0: to before the blow-up, or the newest) goes back to. */
static fc_checkpoint *rewind_target(fc_world_history *hist, double now, double seconds)
{
    if (seconds >= 0.0) return pick(hist, now - seconds, -INFINITY);
    if (!hist->unstable) return pick(hist, INFINITY, -INFINITY);
    const int change = newest_change_slot(hist);
    if (hist->why.rewind_to_change && change >= 0 && hist->checkpoint[change].time < hist->unstable_time)
        return &hist->checkpoint[change];
    return pick(hist, hist->unstable_time - FC_HISTORY_MARGIN_S, hist->unstable_time);
}

double fc_history_rewind_target(const fc_world_history *hist)
{
    const fc_checkpoint *c = rewind_target((fc_world_history *)hist, INFINITY, -1.0);
    return c ? c->time : -1.0;
}

/* Into report's "kept": the parameters of w (its own and its fluids') that differ from c's. */
static void report_kept_parameters(cJSON *report, const fc_checkpoint *c, const fc_world *w)
{
    cJSON *kept = cJSON_CreateObject();
    for (size_t i = 0; kept && i < fc_param_count; i++) {
        const fc_param_desc *d = &fc_param_table[i];
        if (!(d->flags & FC_PARAM_FLUID)) {
            if (fc_param_get(&w->params, d) != fc_param_get(&c->params, d))
                fc_json_attach(kept, d->name, fc_param_value_json(&w->params, d));
            continue;
        }
        for (int f = 0; f < w->fluid_count; f++) {
            const double now = *fc_fluid_param_slot((fc_fluid *)&w->fluids[f], d);
            if (now == *fc_fluid_param_slot((fc_fluid *)&c->fluids[f], d)) continue;
            char name[128];
            snprintf(name, sizeof name, "%s.%s", w->fluids[f].name, d->name);
            fc_json_attach(kept, name, fc_param_number_json(d, now));
        }
    }
    fc_json_attach(report, "kept", kept);
}

/* Whether table t has a row of this id. */
static int has_object(const fc_objects *t, int id)
{
    for (size_t i = 0; i < t->count; i++)
        if (t->rows[i].id == id) return 1;
    return 0;
}

/* The ids of the rows of `from` that `other` lacks, as a JSON array. */
static cJSON *ids_missing(const fc_objects *from, const fc_objects *other)
{
    cJSON *ids = cJSON_CreateArray();
    for (size_t i = 0; ids && i < from->count; i++)
        if (!has_object(other, from->rows[i].id)) fc_json_attach(ids, NULL, cJSON_CreateNumber(from->rows[i].id));
    return ids;
}

/* Into report's "objects": what putting c's objects and walls back over w's did. */
static void report_objects_put_back(cJSON *report, const fc_checkpoint *c, const fc_world *w)
{
    cJSON *o = cJSON_CreateObject();
    fc_json_attach(o, "kept", cJSON_CreateFalse());
    fc_json_attach(o, "removed", ids_missing(&w->objects, &c->objects)); /* added since the checkpoint */
    fc_json_attach(o, "restored", ids_missing(&c->objects, &w->objects)); /* removed since */
    fc_json_attach(o, "walls", cJSON_CreateBool(memcmp(c->walls, w->walls, sizeof c->walls) != 0));
    fc_json_attach(report, "objects", o);
}

int fc_history_rewind(fc_world_history *hist, fc_world *w, double seconds, double *back, cJSON *report,
                      fc_message_error *err)
{
    fc_checkpoint *c = rewind_target(hist, w->time, seconds);
    if (!c) {
        fc_message_error_set(err, FC_ERR_BAD_VALUE, NULL, "this world has no checkpoint to go back to yet");
        return -1;
    }
    /* what the user did since stays: the parameters, and objects and walls changed after a blow-up */
    const int keep_objects = hist->unstable && hist->changed_while_unstable;
    fc_objects objects = {0};
    if (keep_objects && fc_objects_copy(&objects, &w->objects)) {
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL, "out of memory keeping the objects over the rewind");
        return -1;
    }
    fc_thermal_contact walls[6];
    memcpy(walls, w->walls, sizeof walls);
    const fc_params params = w->params;
    fc_fluid fluids[FC_MAX_FLUIDS];
    memcpy(fluids, w->fluids, sizeof fluids);
    if (report) {
        report_kept_parameters(report, c, w);
        if (!keep_objects) report_objects_put_back(report, c, w);
    }
    const double before = w->time;
    if (fc_checkpoint_restore(c, w)) {
        fc_objects_free(&objects);
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL,
                             "the checkpoint at t = %g s cannot be put back: out of memory, or the server's particle "
                             "budget is taken by other worlds", c->time);
        return -1;
    }
    w->params = params;
    memcpy(w->fluids, fluids, sizeof fluids);
    if (keep_objects) {
        objects.next_id = w->objects.next_id;
        fc_objects_free(&w->objects);
        w->objects = objects;
        memcpy(w->walls, walls, sizeof walls);
        if (report) {
            cJSON *o = cJSON_CreateObject();
            fc_json_attach(o, "kept", cJSON_CreateTrue()); /* changed after the blow-up: the user's fix */
            fc_json_attach(report, "objects", o);
        }
    }
    fc_world_host_changed(w, FC_CHANGED_COLLIDERS | FC_CHANGED_PARAMS);
    *back = before - w->time;
    for (int i = 0; i < FC_HISTORY_CHECKPOINTS; i++) /* the future it came from is gone */
        if (hist->checkpoint[i].taken && hist->checkpoint[i].time > c->time) hist->checkpoint[i].taken = 0;
    hist->unstable = 0;
    hist->watch.strikes = 0;
    hist->next_checkpoint = next_due(w);
    hist->change_due = keep_objects; /* the kept objects get a checkpoint of their own */
    hist->changed_while_unstable = 0;
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
