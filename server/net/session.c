/* One WebSocket client: reassembles and rate-limits its messages, and writes its replies, the
 * states, stats and particle frames of the worlds it watches (PROTOCOL.md sections 1 and 5). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"

#define TIER_UP_AFTER_S 3.0     /* frames taken without a miss before moving up a tier */
#define STATS_INTERVAL_S 0.5

fc_session *fc_session_find(fc_server *s, uint64_t id)
{
    for (fc_session *c = s->sessions; c; c = c->next)
        if (c->id == id) return c;
    return NULL;
}

/* ---- replies, in request order per world --------------------------------------------------------- */

static fc_reply_slot *slot_at(fc_session *c, unsigned i)
{
    return &c->replies[(c->reply_head + i) % FC_SESSION_MAX_REPLIES];
}

/* Closes the connection with 1008 and the reason (fc_session_end), counted in /metrics. */
static void drop_client(fc_session *c, const char *reason)
{
    if (c->end_code || c->closing) return;
    c->server->metrics.clients_dropped++;
    fc_session_end(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, reason, NULL);
}

/* Reading the client stops while worlds owe it many replies, and resumes when they answered. */
static void pace_reading(fc_session *c)
{
    int pause = c->stalled_count || c->waiting_count >= FC_SESSION_PAUSE_AT;
    int resume = !c->stalled_count && c->waiting_count <= FC_SESSION_RESUME_AT;
    if ((pause && !c->rx_paused) || (resume && c->rx_paused)) {
        c->rx_paused = pause;
        lws_rx_flow_control(c->wsi, !pause);
    }
}

/* Replies that exist count against the client: one that lets FC_SESSION_MAX_UNREAD pile up unread
 * is dropped, so its memory stays bounded. Requests still in a world only pause its reading. */
static int reserve_slot(fc_session *c, fc_blob *text, fc_world_host *about, fc_world_host *waiting_for,
                        fc_blob *if_closed)
{
    if (c->reply_count - c->waiting_count >= FC_SESSION_MAX_UNREAD || c->reply_count == FC_SESSION_MAX_REPLIES) {
        fc_blob_unref(text);
        fc_blob_unref(if_closed);
        drop_client(c, c->reply_count - c->waiting_count >= FC_SESSION_MAX_UNREAD ? "replies not read"
                                                                                     : "too many requests pending");
        return -1;
    }
    fc_reply_slot *slot = slot_at(c, c->reply_count++);
    slot->text = text;
    slot->waiting_for = waiting_for;
    slot->about = about;
    slot->if_closed = if_closed;
    if (waiting_for) c->waiting_count++, pace_reading(c);
    lws_callback_on_writable(c->wsi);
    return 0;
}

int fc_session_stall(fc_session *c, fc_world_host *host, fc_command *cmd)
{
    if (c->stalled_count == FC_SESSION_MAX_STALLED ||
        fc_session_expect(c, host, cmd->id, fc_message_type_name(cmd->type)))
        return -1;
    c->stalled[c->stalled_count++] = (fc_stalled_request){cmd, host};
    pace_reading(c);
    return 0;
}

void fc_session_retry_stalled(fc_session *c)
{
    int taken = 0;
    while (taken < c->stalled_count && fc_world_host_post(c->stalled[taken].host, c->stalled[taken].cmd) == 0) taken++;
    if (!taken) return;
    c->stalled_count -= taken;
    memmove(c->stalled, c->stalled + taken, (size_t)c->stalled_count * sizeof *c->stalled);
    pace_reading(c);
}

/* The stalled requests for a world that closed: their replies will never come (their slots are
 * skipped like the others it owed). */
static void drop_stalled(fc_session *c, fc_world_host *host)
{
    int kept = 0;
    for (int i = 0; i < c->stalled_count; i++) {
        if (c->stalled[i].host == host) fc_command_free(c->stalled[i].cmd);
        else c->stalled[kept++] = c->stalled[i];
    }
    c->stalled_count = kept;
}

int fc_session_queue(fc_session *c, fc_blob *text)
{
    return fc_session_queue_about(c, NULL, text);
}

int fc_session_queue_about(fc_session *c, fc_world_host *about, fc_blob *text)
{
    if (!text) return -1;
    return reserve_slot(c, text, about, NULL, NULL);
}

int fc_session_expect(fc_session *c, fc_world_host *host, const char *id, const char *request)
{
    fc_message_error err;
    memset(&err, 0, sizeof err);
    err.code = FC_ERR_UNKNOWN_WORLD;
    snprintf(err.id, sizeof err.id, "%s", id);
    snprintf(err.request, sizeof err.request, "%s", request);
    snprintf(err.message, sizeof err.message, "world %u was closed before it answered this %s", (unsigned)host->id,
             request);
    fc_blob *if_closed = fc_reply_error(&err);
    if (!if_closed) {
        drop_client(c, "out of memory");
        return -1;
    }
    return reserve_slot(c, NULL, host, host, if_closed);
}

/* Takes slot i off the queue, the later ones moving up; returns its text (the caller's). */
static fc_blob *take_slot(fc_session *c, unsigned i)
{
    fc_reply_slot *slot = slot_at(c, i);
    fc_blob *text = slot->text;
    fc_blob_unref(slot->if_closed);
    if (i == 0) { /* the usual case: the head moves on */
        memset(slot, 0, sizeof *slot);
        c->reply_head = (c->reply_head + 1) % FC_SESSION_MAX_REPLIES;
    } else {
        for (unsigned k = i; k + 1 < c->reply_count; k++) *slot_at(c, k) = *slot_at(c, k + 1);
        memset(slot_at(c, c->reply_count - 1), 0, sizeof(fc_reply_slot));
    }
    c->reply_count--;
    return text;
}

/* The index of the first reply that may leave now: ready, and about no world that still owes c an
 * earlier reply; c->reply_count when none. */
static unsigned next_ready_slot(fc_session *c)
{
    fc_world_host *owing[FC_SESSION_MAX_REPLIES];
    unsigned owing_count = 0;
    for (unsigned i = 0; i < c->reply_count; i++) {
        const fc_reply_slot *slot = slot_at(c, i);
        if (!slot->text) {
            owing[owing_count++] = slot->about;
            continue;
        }
        int held = 0;
        for (unsigned k = 0; slot->about && k < owing_count && !held; k++) held = owing[k] == slot->about;
        if (!held) return i;
    }
    return c->reply_count;
}

void fc_session_fill(fc_session *c, fc_world_host *host, fc_blob *text)
{
    for (unsigned i = 0; i < c->reply_count; i++) {
        fc_reply_slot *slot = slot_at(c, i);
        if (!slot->text && slot->waiting_for == host) {
            slot->text = text;
            slot->waiting_for = NULL;
            fc_blob_unref(slot->if_closed);
            slot->if_closed = NULL;
            c->waiting_count--;
            pace_reading(c);
            lws_callback_on_writable(c->wsi);
            return;
        }
    }
    fc_blob_unref(text); /* no request waits for it (cannot happen; nothing to send it for) */
}

/* ---- subscriptions ------------------------------------------------------------------------- */

void fc_session_unsubscribe(fc_session *c, fc_world_host *host)
{
    for (int k = 0; k < FC_SESSION_MAX_SUBSCRIPTIONS; k++)
        if (c->sub[k].host == host) {
            if (c->out.frame && c->out_sub == k) c->out_sub = -1; /* the frame finishes; nothing follows */
            memset(&c->sub[k], 0, sizeof c->sub[k]);
        }
}

void fc_session_set_progress(fc_session *c, fc_world_host *host, fc_blob *text)
{
    fc_blob_assign(&c->progress, text);
    c->progress_host = text ? host : NULL;
    if (text) lws_callback_on_writable(c->wsi);
}

void fc_session_forget_world(fc_session *c, fc_world_host *host)
{
    fc_session_unsubscribe(c, host);
    if (c->progress_host == host) fc_session_set_progress(c, NULL, NULL);
    for (unsigned i = 0; i < c->reply_count; i++) { /* replies a closed world will never give: unknown_world */
        fc_reply_slot *slot = slot_at(c, i);
        if (slot->about == host) slot->about = NULL; /* its memory may hold another world soon */
        if (slot->waiting_for != host) continue;
        slot->text = slot->if_closed;
        slot->if_closed = NULL;
        slot->waiting_for = NULL;
        c->waiting_count--;
        lws_callback_on_writable(c->wsi);
    }
    drop_stalled(c, host);
    pace_reading(c);
}

/* ---- receiving ------------------------------------------------------------------------------- */

/* The token bucket of PROTOCOL.md section 1: 0 when the message may be handled. The first
 * message over the budget in a second gets rate_limited, the others are dropped silently. */
static int over_rate_limit(fc_session *c)
{
    double now = fc_host_now();
    c->tokens += (now - c->tokens_time) * FC_MESSAGE_RATE_PER_S;
    if (c->tokens > FC_MESSAGE_RATE_PER_S) c->tokens = FC_MESSAGE_RATE_PER_S;
    c->tokens_time = now;
    if (c->tokens >= 1.0) {
        c->tokens -= 1.0;
        return 0;
    }
    if (now - c->limited_second >= 1.0) {
        c->limited_second = now;
        fc_message_error err = {.code = FC_ERR_RATE_LIMITED};
        snprintf(err.id, sizeof err.id, "null");
        fc_message_error_set(&err, FC_ERR_RATE_LIMITED, NULL, "more than %d messages in a second; this one was not applied",
                             FC_MESSAGE_RATE_PER_S);
        fc_requests_error(c, &err);
    }
    return 1;
}

static void message_error(fc_session *c, fc_error_code code, const char *text)
{
    fc_message_error err;
    memset(&err, 0, sizeof err);
    snprintf(err.id, sizeof err.id, "null");
    fc_message_error_set(&err, code, NULL, "%s", text);
    fc_requests_error(c, &err);
}

static void message_complete(fc_session *c)
{
    c->server->metrics.commands++;
    if (c->closing || c->end_code) return; /* it is leaving: nothing it sends applies */
    if (over_rate_limit(c)) return;
    if (c->rx_binary)
        message_error(c, FC_ERR_BAD_MESSAGE, "binary messages are server to client only; send JSON text");
    else if (c->rx_too_large)
        message_error(c, FC_ERR_TOO_LARGE, "the message is longer than 65536 bytes");
    else
        fc_requests_handle(c, c->rx, c->rx_len);
}

static int in_message(fc_session *c) { return c->rx_len || c->rx_too_large || c->rx_binary; }

static void receive(fc_session *c, const void *in, size_t len)
{
    if (!in_message(c)) c->rx_binary = lws_frame_is_binary(c->wsi);
    if (!c->rx_binary && !c->rx_too_large) {
        if (c->rx_len + len > FC_MESSAGE_MAX_BYTES) {
            c->rx_too_large = 1; /* the rest is read and dropped */
        } else {
            memcpy(c->rx + c->rx_len, in, len);
            c->rx_len += len;
        }
    }
    if (lws_is_final_fragment(c->wsi)) {
        message_complete(c);
        c->rx_len = 0;
        c->rx_too_large = c->rx_binary = 0;
    }
}

/* ---- sending ----------------------------------------------------------------------------------- */

static int write_text(fc_session *c, fc_blob *text)
{
    int n = lws_write(c->wsi, text->data, text->len, LWS_WRITE_TEXT);
    if (n < (int)text->len) return -1;
    c->bytes_sent += text->len;
    c->bytes_window += text->len;
    c->server->metrics.bytes_sent += text->len;
    return 0;
}

/* Lays out the client's view of a frame: the header with its own section count, the table entries
 * and bodies of the sections it asked for (PROTOCOL.md 5, "Attributes"). */
static void prepare_frame(fc_session *c, int k, fc_blob *frame)
{
    fc_outgoing_frame *o = &c->out;
    const unsigned char *data = frame->data;
    unsigned sections = fc_get_u16(data + FC_HDR_SECTIONS), kept = 0;
    size_t body = FC_FRAME_HEADER_BYTES + (size_t)FC_FRAME_SECTION_ENTRY_BYTES * sections;
    o->frame = frame;
    o->parts = 1;
    memcpy(o->header, data, FC_FRAME_HEADER_BYTES);
    for (unsigned i = 0; i < sections; i++) {
        const unsigned char *entry = data + FC_FRAME_HEADER_BYTES + FC_FRAME_SECTION_ENTRY_BYTES * i;
        unsigned type = entry[0];
        size_t length = fc_get_u32(entry + 4);
        if (type < FC_SECTION_ATTRIBUTE || (c->sub[k].attributes & (1u << (type - FC_SECTION_ATTRIBUTE)))) {
            memcpy(o->header + FC_FRAME_HEADER_BYTES + FC_FRAME_SECTION_ENTRY_BYTES * kept++, entry,
                   FC_FRAME_SECTION_ENTRY_BYTES);
            o->part[o->parts].data = data + body;
            o->part[o->parts++].len = length;
        }
        body += length;
    }
    fc_put_u16(o->header + FC_HDR_SECTIONS, (uint16_t)kept);
    o->part[0].data = o->header;
    o->part[0].len = FC_FRAME_HEADER_BYTES + (size_t)FC_FRAME_SECTION_ENTRY_BYTES * kept;
    o->total = 0;
    for (int p = 0; p < o->parts; p++) o->total += o->part[p].len;
    o->part_index = 0;
    o->part_offset = o->sent = 0;
    c->out_sub = k;
}

/* Lays out a worker product's message as it is (products.h): every client gets all of it. */
static void prepare_whole(fc_session *c, fc_blob *message)
{
    fc_outgoing_frame *o = &c->out;
    o->frame = message;
    o->parts = 1;
    o->part[0].data = message->data;
    o->part[0].len = o->total = message->len;
    o->part_index = 0;
    o->part_offset = o->sent = 0;
    c->out_sub = -1;
}

/* Writes fragments of the frame while the socket takes them; 0, or -1 when the connection failed. */
static int continue_frame(fc_session *c)
{
    fc_outgoing_frame *o = &c->out;
    for (int n = 0; n < FC_FRAGMENTS_PER_WRITABLE && o->frame; n++) {
        if (n > 0 && lws_send_pipe_choked(c->wsi)) break;
        size_t fill = 0;
        unsigned char *chunk = c->chunk + LWS_PRE;
        while (fill < FC_FRAGMENT_BYTES && o->part_index < o->parts) {
            size_t left = o->part[o->part_index].len - o->part_offset;
            size_t take = left < FC_FRAGMENT_BYTES - fill ? left : FC_FRAGMENT_BYTES - fill;
            memcpy(chunk + fill, o->part[o->part_index].data + o->part_offset, take);
            fill += take;
            o->part_offset += take;
            if (o->part_offset == o->part[o->part_index].len) o->part_index++, o->part_offset = 0;
        }
        int first = o->sent == 0, last = o->sent + fill == o->total;
        int flags = (first ? LWS_WRITE_BINARY : LWS_WRITE_CONTINUATION) | (last ? 0 : LWS_WRITE_NO_FIN);
        if (lws_write(c->wsi, chunk, fill, (enum lws_write_protocol)flags) < (int)fill) return -1;
        o->sent += fill;
        c->bytes_sent += fill;
        c->bytes_window += fill;
        c->server->metrics.bytes_sent += fill;
        if (last) {
            fc_blob_unref(o->frame);
            o->frame = NULL;
            c->server->metrics.frames_sent++;
        }
    }
    if (o->frame) lws_callback_on_writable(c->wsi);
    return 0;
}

/* Asks the world for a key frame of the subscription's stream (the world publishes one at once). */
static void ask_key(fc_subscription *sub, const fc_blob *newest)
{
    fc_streams_want_key(&sub->host->streams, sub->bits, sub->tier);
    fc_world_host_wake(sub->host);
    sub->key_asked = 1;
    sub->key_asked_at = newest ? newest->sequence : 0;
}

/* Moves a subscription to another tier: the client needs a key frame of that stream. */
static void change_tier(fc_session *c, fc_subscription *sub, unsigned tier)
{
    sub->tier = tier;
    sub->in_chain = 0;
    sub->clean_since = fc_host_now();
    fc_server_update_demands(c->server, sub->host);
    sub->key_asked = 0; /* asked by next_frame, which knows the newest frame of the new stream */
    lws_callback_on_writable(c->wsi);
}

/* Picks the frame subscription k should get now (PROTOCOL.md 5): a key frame to enter the stream,
 * else the delta that follows the last frame sent; a missed delta moves the client down a tier. */
static fc_blob *next_frame(fc_session *c, fc_subscription *sub)
{
    fc_blob *newest, *key, *chosen = NULL;
    fc_streams_newest(&sub->host->streams, sub->bits, sub->tier, &newest, &key);
    double now = fc_host_now();
    if (!sub->in_chain) {
        if (key && newest && key->sequence == newest->sequence) {
            chosen = fc_blob_ref(key);
            sub->in_chain = 1;
            sub->key_asked = 0;
        } else if (!sub->key_asked || (newest && newest->sequence != sub->key_asked_at)) {
            ask_key(sub, newest); /* again when the stream moved on without the key we asked for */
        }
    } else if (newest && newest->sequence != sub->last_sequence) {
        if (newest->key || newest->reference == sub->last_sequence) {
            chosen = fc_blob_ref(newest);
        } else {
            uint32_t missed = (newest->sequence - sub->last_sequence) / sub->tier;
            missed = missed > 1 ? missed - 1 : 1;
            sub->frames_skipped += missed;
            c->server->metrics.frames_skipped += missed;
            change_tier(c, sub, sub->tier < FC_FRAME_MAX_TIER ? sub->tier * 2 : sub->tier);
        }
    } else if (sub->tier > sub->base_tier && now - sub->clean_since >= TIER_UP_AFTER_S) {
        change_tier(c, sub, sub->tier / 2);
    }
    fc_blob_unref(newest);
    fc_blob_unref(key);
    if (chosen) {
        sub->last_sequence = chosen->sequence;
        sub->frames_sent++;
    }
    return chosen;
}

/* The newest message of a worker product the subscription wants and has not had, or NULL. */
static fc_blob *next_product(fc_subscription *sub)
{
    for (int k = 0; k < FC_PRODUCT_COUNT; k++) {
        if (!fc_product_kinds[k].make || !(sub->products & (1u << k))) continue;
        uint64_t version;
        fc_blob *message = fc_products_newest(&sub->host->products, (fc_product_id)k, &version);
        if (message && version != sub->product_version[k]) {
            sub->product_version[k] = version;
            return message;
        }
        fc_blob_unref(message);
    }
    return NULL;
}

static fc_blob *stats_message(fc_session *c, const fc_subscription *sub)
{
    fc_world_info info;
    fc_world_host_info(sub->host, &info);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "stats");
    cJSON_AddNullToObject(o, "id");
    cJSON_AddNumberToObject(o, "world", sub->host->id);
    cJSON_AddNumberToObject(o, "steps_per_s", info.steps_per_s);
    cJSON_AddNumberToObject(o, "step_ms", info.step_ms);
    fc_world_info_add_dt(o, &info);
    cJSON_AddNumberToObject(o, "realtime_factor", info.paused ? 0.0 : info.realtime_factor);
    cJSON_AddNumberToObject(o, "particles", (double)info.particles);
    cJSON_AddNumberToObject(o, "max_speed", info.max_speed);
    if (info.density_error >= 0.0) cJSON_AddNumberToObject(o, "density_error", info.density_error);
    else cJSON_AddNullToObject(o, "density_error");
    cJSON *solver_stats = cJSON_AddArrayToObject(o, "solver_stats");
    for (int i = 0; solver_stats && i < info.solver_stat_count; i++) {
        const fc_solver_stat *st = &info.solver_stat[i];
        cJSON *one = cJSON_CreateObject();
        cJSON_AddStringToObject(one, "solver", st->solver);
        cJSON_AddStringToObject(one, "name", st->name);
        if (isfinite(st->value)) cJSON_AddNumberToObject(one, "value", st->value);
        else cJSON_AddNullToObject(one, "value");
        cJSON_AddItemToArray(solver_stats, one);
    }
    cJSON_AddNumberToObject(o, "bytes_per_s", (double)c->bytes_per_s);
    cJSON_AddNumberToObject(o, "frames_sent", (double)sub->frames_sent);
    cJSON_AddNumberToObject(o, "frames_skipped", (double)sub->frames_skipped);
    cJSON_AddNumberToObject(o, "tier", sub->tier);
    cJSON_AddNumberToObject(o, "bits", sub->bits);
    fc_blob *b = fc_reply_json(o);
    cJSON_Delete(o);
    return b;
}

static fc_blob *bye_message(const fc_session *c)
{
    static const char bye[] = "{\"type\":\"bye\",\"id\":null,\"reason\":\"shutdown\","
                              "\"message\":\"the server is shutting down\"}";
    if (!c->bye_reason) return fc_blob_new(bye, sizeof bye - 1);
    cJSON *o = cJSON_CreateObject(); /* fc_session_end's bye: "full", "evicted" */
    cJSON_AddStringToObject(o, "type", "bye");
    cJSON_AddNullToObject(o, "id");
    cJSON_AddStringToObject(o, "reason", c->bye_reason);
    cJSON_AddStringToObject(o, "message", c->end_reason ? c->end_reason : "");
    fc_blob *b = fc_reply_json(o);
    cJSON_Delete(o);
    return b;
}

/* The next text message to send, in priority order: replies, bye, states, stats. */
static fc_blob *next_text(fc_session *c)
{
    const unsigned ready = next_ready_slot(c);
    if (ready < c->reply_count) return take_slot(c, ready);
    if (c->closing) {
        if (c->bye_sent) return NULL;
        c->bye_sent = 1;
        return bye_message(c);
    }
    if (c->progress) { /* a build's progress, while its reply is owed */
        fc_blob *progress = c->progress;
        c->progress = NULL, c->progress_host = NULL;
        return progress;
    }
    double now = fc_host_now();
    for (int k = 0; k < FC_SESSION_MAX_SUBSCRIPTIONS; k++) {
        fc_subscription *sub = &c->sub[k];
        if (!sub->host) continue;
        for (int kind = FC_NOTICE_COUNT - 1; kind >= 0; kind--) { /* an unstable event before the state */
            uint64_t version = atomic_load(&sub->host->notice_version[kind]);
            if (version == sub->notice_version[kind]) continue;
            sub->notice_version[kind] = version;
            fc_blob *notice = fc_world_host_notice(sub->host, (fc_notice)kind);
            if (notice) return notice; /* NULL: withdrawn (a rewound world is stable again) */
        }
        fc_blob *camera = fc_camera_next(c, sub); /* after the state a new subscriber gets first */
        if (camera) return camera;
        if (now >= sub->next_stats) {
            sub->next_stats = now + STATS_INTERVAL_S;
            return stats_message(c, sub);
        }
    }
    return NULL;
}

/* Closes with the session's end code and reason (fc_session_end); -1 for the callback. */
static int end_now(fc_session *c)
{
    const char *reason = c->end_reason ? c->end_reason : "";
    size_t len = strlen(reason);
    lws_close_reason(c->wsi, (enum lws_close_status)c->end_code, (unsigned char *)reason, len > 123 ? 123 : len);
    return -1;
}

void fc_session_end(fc_session *c, int code, const char *reason, const char *bye_reason)
{
    if (c->end_code || c->closing) return; /* already leaving */
    c->end_code = code;
    c->end_reason = reason;
    c->bye_reason = bye_reason;
    c->closing = bye_reason != NULL; /* replies first, then the bye, then the close */
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, 5); /* also when it reads nothing any more */
    lws_callback_on_writable(c->wsi);
}

static int writable(fc_session *c)
{
    if (c->end_code && !c->bye_reason) return end_now(c);
    if (c->out.frame) return continue_frame(c);
    const int ping = fc_keepalive_write_ping(c); /* between two messages */
    if (ping) {
        if (ping > 0) lws_callback_on_writable(c->wsi);
        return ping < 0 ? -1 : 0;
    }
    /* Replies go before states: taking the world's posts first sends an ack before the state
     * that deliver() queued again behind it, whichever wake-up libwebsockets delivers first. */
    fc_server_take_posts(c->server);
    fc_blob *text = next_text(c);
    if (text) {
        int failed = write_text(c, text);
        fc_blob_unref(text);
        if (!failed) lws_callback_on_writable(c->wsi);
        return failed ? -1 : 0;
    }
    if (c->closing) {
        if (c->reply_count) return 0; /* a world's reply is still to come */
        if (c->end_code) return end_now(c);
        lws_close_reason(c->wsi, LWS_CLOSE_STATUS_GOINGAWAY, (unsigned char *)"shutdown", 8);
        c->close_sent = 1; /* only the client's answer to the close is still to come */
        return -1;
    }
    for (int n = 0; n < FC_SESSION_MAX_SUBSCRIPTIONS; n++) {
        int k = (c->next_sub + n) % FC_SESSION_MAX_SUBSCRIPTIONS;
        if (!c->sub[k].host) continue;
        fc_blob *product = next_product(&c->sub[k]);
        if (product) {
            c->next_sub = (k + 1) % FC_SESSION_MAX_SUBSCRIPTIONS;
            prepare_whole(c, product);
            return continue_frame(c);
        }
        fc_blob *frame = c->sub[k].products & (1u << FC_PRODUCT_PARTICLES) ? next_frame(c, &c->sub[k]) : NULL;
        if (frame) {
            c->next_sub = (k + 1) % FC_SESSION_MAX_SUBSCRIPTIONS;
            prepare_frame(c, k, frame);
            return continue_frame(c);
        }
    }
    return 0;
}

/* ---- the session's life -------------------------------------------------------------------------- */

static int open_session(fc_server *s, fc_session *c, struct lws *wsi)
{
    memset(c, 0, sizeof *c);
    c->rx = malloc(FC_MESSAGE_MAX_BYTES + 1);
    c->chunk = malloc(LWS_PRE + FC_FRAGMENT_BYTES);
    if (!c->rx || !c->chunk) return -1;
    c->server = s;
    c->wsi = wsi;
    c->id = ++s->next_session_id;
    c->tokens = FC_MESSAGE_RATE_PER_S;
    c->tokens_time = c->window_start = fc_host_now();
    c->limited_second = -1e9;
    c->out_sub = -1;
    c->next = s->sessions;
    s->sessions = c;
    s->session_count++;
    s->metrics.connections_total++;
    if (s->shutting_down) c->closing = 1;
    c->opened_at = fc_host_now();
    fc_keepalive_start(c);
    fc_slots_half_open(s, wsi, 1); /* until hello */
    return 0;
}

static void close_session(fc_server *s, fc_session *c)
{
    fc_camera_client_gone(s, c->id);
    for (int i = 0; i < c->stalled_count; i++) fc_command_free(c->stalled[i].cmd);
    c->stalled_count = 0;
    for (fc_session **p = &s->sessions; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            s->session_count--;
            break;
        }
    for (int k = 0; k < FC_SESSION_MAX_SUBSCRIPTIONS; k++) {
        fc_world_host *host = c->sub[k].host;
        c->sub[k].host = NULL;
        if (host) fc_server_update_demands(s, host);
    }
    while (c->reply_count) fc_blob_unref(take_slot(c, 0));
    fc_blob_unref(c->out.frame);
    fc_session_set_progress(c, NULL, NULL);
    free(c->rx);
    free(c->chunk);
    c->rx = NULL, c->chunk = NULL, c->out.frame = NULL;
}

/* Rolls the per-second byte counter of the stats message. */
static void roll_window(fc_session *c)
{
    double now = fc_host_now();
    if (now - c->window_start < 1.0) return;
    c->bytes_per_s = (uint64_t)((double)c->bytes_window / (now - c->window_start));
    c->bytes_window = 0;
    c->window_start = now;
}

/* 1 when s[0, n) is UTF-8 without overlong forms, surrogates or code points past U+10FFFF. */
static int valid_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (!len || i + len > n) return 0;
        for (size_t k = 1; k < len; k++)
            if ((s[i + k] & 0xC0) != 0x80) return 0;
        if ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] >= 0xA0) || (c == 0xF0 && s[i + 1] < 0x90) ||
            (c == 0xF4 && s[i + 1] >= 0x90))
            return 0;
        i += len;
    }
    return 1;
}

/* The client's close frame (RFC 6455 5.5.1, 7.4): libwebsockets 4.1.6 turns the codes it knows to
 * be invalid into 1002 itself, but lets a 1-byte payload, codes from 5000 and a reason that is not
 * UTF-8 through; those fail the connection with 1002 here. 0, or -1 to close. */
static int check_peer_close(struct lws *wsi, const unsigned char *p, size_t len)
{
    const char *why = NULL;
    if (len == 1) {
        why = "a close payload of 1 byte";
    } else if (len >= 2) {
        unsigned code = (unsigned)p[0] << 8 | p[1];
        int valid = (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
        if (!valid) why = "an invalid close code";
        else if (!valid_utf8(p + 2, len - 2)) why = "a close reason that is not UTF-8";
    }
    if (!why) return 0;
    lws_close_reason(wsi, LWS_CLOSE_STATUS_PROTOCOL_ERR, (unsigned char *)why, strlen(why));
    return -1;
}

int fc_session_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    fc_server *s = lws_context_user(lws_get_context(wsi));
    fc_session *c = user;
    switch (reason) {
    /* every connection, HTTP or not (protocols[0] gets these): slots.c, http.c */
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        return fc_slots_filter_connection(s, user);
    case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
        fc_slots_accepted(s, wsi);
        return 0;
    case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
        if (fc_http_check_request(wsi)) return -1;
        fc_slots_half_open(s, wsi, 0);
        return 0;
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return fc_http_check_request(wsi);
    case LWS_CALLBACK_WSI_DESTROY:
        fc_slots_destroyed(s, wsi);
        return 0;
    /* WebSocket sessions */
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return s->shutting_down; /* a full server answers 1013 once upgraded (ESTABLISHED) */
    case LWS_CALLBACK_ESTABLISHED:
        if (fc_slots_make_room(s)) { /* no session: closed with 1013 at the first writable callback */
            memset(c, 0, sizeof *c);
            c->wsi = wsi;
            s->metrics.refused_full++;
            fc_session_end(c, FC_CLOSE_TRY_AGAIN_LATER, "the server is full; try again later", NULL);
            return 0;
        }
        if (open_session(s, c, wsi)) {
            free(c->rx), free(c->chunk);
            c->rx = NULL, c->chunk = NULL;
            return -1;
        }
        return 0;
    case LWS_CALLBACK_RECEIVE:
        if (c->rx) receive(c, in, len);
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        if (!c->rx) return c->end_code ? end_now(c) : -1;
        roll_window(c);
        return writable(c);
    case LWS_CALLBACK_RECEIVE_PONG:
        if (c->rx) fc_keepalive_pong(c);
        return 0;
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        return check_peer_close(wsi, in, len);
    case LWS_CALLBACK_CLOSED:
        if (c->rx) close_session(s, c);
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        fc_server_on_wake(s);
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}
