/* The camera relay (PROTOCOL.md 2.2, `camera`): a controller's camera goes to the other subscribers
 * of its world, at most FC_CAMERA_RELAYS_PER_S times a second per world. Each subscriber gets only
 * the newest relay (a version, as for states), a newer camera replaces one that waits for the cap,
 * and a new subscriber of a broadcasting world gets the newest after its state. Network thread only. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "net/net.h"

#define RELAY_INTERVAL_S (1.0 / FC_CAMERA_RELAYS_PER_S)

static void wake_subscribers(fc_server *s, fc_world_host *host)
{
    for (fc_session *c = s->sessions; c; c = c->next)
        for (int k = 0; k < FC_SESSION_MAX_SUBSCRIPTIONS; k++)
            if (c->sub[k].host == host) {
                lws_callback_on_writable(c->wsi);
                break;
            }
}

static void relay(fc_server *s, fc_world_host *host, fc_blob *message, uint64_t sender, int active)
{
    fc_world_net *n = &host->net;
    fc_blob_assign(&n->camera, message);
    n->camera_sender = sender;
    n->camera_active = active;
    n->camera_version++;
    n->camera_relayed_at = fc_host_now();
    wake_subscribers(s, host);
}

static void flush(lws_sorted_usec_list_t *sul);

static void arm_timer(fc_server *s, double seconds)
{
    lws_sul_schedule(s->context, 0, &s->camera_timer, flush, (lws_usec_t)(seconds * 1e6) + 1000);
}

/* Relays the waiting cameras whose world's interval has passed; comes back for the others. */
static void flush(lws_sorted_usec_list_t *sul)
{
    fc_server *s = lws_container_of(sul, fc_server, camera_timer);
    double now = fc_host_now(), next = -1.0;
    for (int i = 0; i < s->world_count; i++) {
        fc_world_net *n = &s->worlds[i]->net;
        if (!n->camera_pending) continue;
        double wait = n->camera_relayed_at + RELAY_INTERVAL_S - now;
        if (wait <= 0.0) {
            relay(s, s->worlds[i], n->camera_pending, n->pending_sender, n->pending_active);
            fc_blob_assign(&n->camera_pending, NULL);
        } else if (next < 0.0 || wait < next) {
            next = wait;
        }
    }
    if (next >= 0.0) arm_timer(s, next);
}

/* Relays message now, or keeps it as the newest waiting for the cap (takes it). */
static void offer(fc_server *s, fc_world_host *host, fc_blob *message, uint64_t sender, int active)
{
    if (!message) return; /* out of memory: the previous camera stands */
    fc_world_net *n = &host->net;
    double wait = n->camera_relayed_at + RELAY_INTERVAL_S - fc_host_now();
    if (wait <= 0.0) {
        relay(s, host, message, sender, active);
        fc_blob_assign(&n->camera_pending, NULL);
    } else {
        int armed = n->camera_pending != NULL;
        fc_blob_assign(&n->camera_pending, message);
        n->pending_sender = sender;
        n->pending_active = active;
        if (!armed) arm_timer(s, wait);
    }
    fc_blob_unref(message);
}

/* {"type": "camera", "id": null, "world", "position", "target", "active": true} (or without
 * position and target, "active": false). */
static fc_blob *camera_message(uint32_t world, const cJSON *position, const cJSON *target)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "camera");
    cJSON_AddNullToObject(o, "id");
    cJSON_AddNumberToObject(o, "world", world);
    if (position && target) {
        cJSON_AddItemToObject(o, "position", cJSON_Duplicate(position, 1));
        cJSON_AddItemToObject(o, "target", cJSON_Duplicate(target, 1));
    }
    cJSON_AddBoolToObject(o, "active", position && target);
    fc_blob *b = fc_reply_json(o);
    cJSON_Delete(o);
    return b;
}

/* Ends host's broadcast, telling the subscribers (all but sender). */
static void end_broadcast(fc_server *s, fc_world_host *host, uint64_t sender)
{
    host->net.camera_client = 0;
    fc_world_host_set_camera_broadcast(host, 0);
    offer(s, host, camera_message(host->id, NULL, NULL), sender, 0);
}

int fc_camera_apply(fc_session *c, fc_world_host *host, const cJSON *msg, int *active, fc_message_error *err)
{
    const cJSON *position = cJSON_GetObjectItemCaseSensitive(msg, "position");
    const cJSON *target = cJSON_GetObjectItemCaseSensitive(msg, "target");
    *active = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(msg, "active"));
    if (!*active) { /* the schema allowed neither position nor target */
        if (host->net.camera_client) end_broadcast(c->server, host, c->id);
        return 0;
    }
    int same = 1;
    for (int a = 0; a < 3; a++)
        same &= cJSON_GetArrayItem(position, a)->valuedouble == cJSON_GetArrayItem(target, a)->valuedouble;
    if (same) {
        fc_message_error_set(err, FC_ERR_BAD_VALUE, "target", "expected a point other than the camera's position");
        return -1;
    }
    host->net.camera_client = c->id; /* the newest camera wins, whoever sends it */
    fc_world_host_set_camera_broadcast(host, 1);
    offer(c->server, host, camera_message(host->id, position, target), c->id, 1);
    return 0;
}

void fc_camera_client_gone(fc_server *s, uint64_t client)
{
    for (int i = 0; i < s->world_count; i++)
        if (client && s->worlds[i]->net.camera_client == client) end_broadcast(s, s->worlds[i], client);
}

void fc_camera_subscribed(fc_subscription *sub)
{
    const fc_world_net *n = &sub->host->net;
    /* 0: the newest relay is owed (not an ended one, while a new broadcast waits for the cap) */
    sub->camera_version = n->camera_client && n->camera_active ? 0 : n->camera_version;
}

fc_blob *fc_camera_next(const fc_session *c, fc_subscription *sub)
{
    const fc_world_net *n = &sub->host->net;
    if (sub->camera_version == n->camera_version) return NULL;
    sub->camera_version = n->camera_version;
    if (!n->camera || n->camera_sender == c->id) return NULL; /* never back to its sender */
    return fc_blob_ref(n->camera);
}
