/* What a world publishes: its products (frames, encoded once into the streams from one snapshot, and
 * the worker products' inputs); its state messages, at most so often; its notices (unstable); and its
 * summary for the world list. */
#define _POSIX_C_SOURCE 200809L
#include "host/world_host_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host/world_json.h"

#define STATE_INTERVAL_S 1.0     /* a running world sends its state at least this often */
#define STATE_BURST_WINDOW_S 1.0 /* FC_STATE_BURST states within this window at most */

/* Makes o the newest notice of its kind (takes it) and wakes the network thread. */
void fc_host_publish_notice(fc_world_host *h, fc_notice kind, cJSON *o)
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

/* 1 when some client subscribes to one of the world's products. */
int fc_host_watched(fc_world_host *h)
{
    return fc_streams_watched(&h->streams) || fc_products_wanted(&h->products);
}

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
void fc_host_publish_state(fc_world_host *h)
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
    fc_host_publish_notice(h, FC_NOTICE_STATE, o);
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
void fc_host_request_state(fc_world_host *h)
{
    if (fc_host_now() >= state_allowed_at(h)) fc_host_publish_state(h);
    else h->state_due = 1;
}

/* Seconds until a deferred state is due (< 0: none is). */
double fc_host_state_due_in(const fc_world_host *h, double now)
{
    return h->state_due ? fmax(0.0, state_allowed_at(h) - now) : -1.0;
}

/* Encodes a snapshot into every frame stream that is due. */
static void publish_frames(fc_world_host *h)
{
    uint32_t attributes, bits;
    fc_streams_wanted(&h->streams, &attributes, &bits);
    fc_snapshot snap;
    if (fc_snapshot_take(&h->snapshot, &h->world, attributes, bits, h->sequence, &snap)) {
        fprintf(stderr, "fluidcast: world %u: out of memory for a snapshot\n", (unsigned)h->id);
        return;
    }
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
    pthread_mutex_lock(&h->lock);
    h->info.frames_encoded += r.frames;
    if (r.frames) h->info.bytes_per_frame = (double)r.bytes / r.frames;
    pthread_mutex_unlock(&h->lock);
}

/* Publishes the world as it is now to every product someone subscribes to: the frame streams here,
 * the others handed to their workers (an idle one takes it, a busy one skips it). Nothing when no one
 * watches. */
void fc_host_publish_frame(fc_world_host *h)
{
    const int frames = fc_streams_watched(&h->streams), products = fc_products_wanted(&h->products);
    if (!frames && !products) return;
    h->sequence++;
    if (frames) publish_frames(h);
    if (products && fc_products_offer(&h->products, &h->world, h->id, h->epoch, h->sequence))
        fprintf(stderr, "fluidcast: world %u: out of memory for a product's input\n", (unsigned)h->id);
    update_info(h);
    atomic_fetch_add(&h->published, 1);
    fc_mailbox_wake(h->mailbox);
}

/* Withdraws a notice: subscribers that have not had it will not get it. */
void fc_host_withdraw_notice(fc_world_host *h, fc_notice kind)
{
    pthread_mutex_lock(&h->lock);
    fc_blob_assign(&h->notice[kind], NULL);
    pthread_mutex_unlock(&h->lock);
    atomic_fetch_add(&h->notice_version[kind], 1);
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

void fc_world_host_set_camera_broadcast(fc_world_host *h, int broadcasting)
{
    if (atomic_exchange(&h->camera_broadcast, broadcasting != 0) == (broadcasting != 0)) return;
    pthread_mutex_lock(&h->lock); /* wait_for_work reads state_wanted under the lock: no lost wake-up */
    atomic_store(&h->state_wanted, 1);
    pthread_cond_signal(&h->wake);
    pthread_mutex_unlock(&h->lock);
}
