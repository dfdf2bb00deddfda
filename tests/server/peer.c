/* The protocol-level test client: requests with ids, replies, state tracking, frame following. */
#include "peer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_format.h"
#include "message.h"

int peer_open(peer *p, const ws_options *o, const char *name)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->next_id = 1000;
    ws_handshake hs;
    p->ws = ws_open(o, &hs);
    if (!p->ws) fprintf(stderr, "%s: WebSocket to port %d failed: %s\n", name, o->port, hs.error);
    return p->ws ? 0 : -1;
}

int peer_connect(peer *p, int port, const char *name)
{
    ws_options o = {.port = port, .subprotocol = FC_MESSAGE_SUBPROTOCOL, .timeout_ms = PEER_TIMEOUT_MS};
    return peer_open(p, &o, name);
}

void peer_close(peer *p)
{
    if (p->ws) ws_close(p->ws, 1000, 2000);
    p->ws = NULL;
    follower_free(&p->follow);
    cJSON_Delete(p->state);
    p->state = NULL;
}

int peer_send(peer *p, const char *text)
{
    return p->ws ? ws_send_text(p->ws, text) : -1;
}

static void note_text(peer *p, const cJSON *msg)
{
    p->texts++;
    if (!jtype_is(msg, "state")) return;
    p->states++;
    cJSON_Delete(p->state);
    p->state = cJSON_Duplicate(msg, 1);
}

cJSON *peer_next_text(peer *p, int timeout_ms)
{
    int64_t deadline = ws_now_ms() + timeout_ms;
    ws_message m;
    while (p->ws) {
        int64_t left = deadline - ws_now_ms();
        ws_status st = ws_recv(p->ws, left > 0 ? (int)left : 0, &m);
        if (st == WS_TIMEOUT) return NULL;
        if (st != WS_OK) {
            fprintf(stderr, "%s: connection ended (close code %d, %s)\n", p->name, ws_close_code(p->ws), ws_error(p->ws));
            return NULL;
        }
        if (m.opcode == WS_OP_BINARY) {
            p->binaries++;
            if (m.len >= 4 && memcmp(m.data, FC_FRAME_MAGIC, 4) != 0) {
                p->products++;
                p->last_product_len = m.len < sizeof p->last_product ? m.len : sizeof p->last_product;
                memcpy(p->last_product, m.data, p->last_product_len);
            }
            if (p->follow.dec) follower_feed(&p->follow, p->ws, m.data, m.len);
            continue;
        }
        cJSON *msg = cJSON_ParseWithLength((const char *)m.data, m.len);
        if (!msg) fprintf(stderr, "%s: a text message that is not JSON: %.300s\n", p->name, (const char *)m.data);
        else note_text(p, msg);
        return msg;
    }
    return NULL;
}

cJSON *peer_wait_type(peer *p, const char *type, int timeout_ms)
{
    int64_t deadline = ws_now_ms() + timeout_ms;
    for (int64_t left; (left = deadline - ws_now_ms()) >= 0;) {
        cJSON *msg = peer_next_text(p, (int)left);
        if (!msg) return NULL;
        if (jtype_is(msg, type)) return msg;
        cJSON_Delete(msg);
    }
    return NULL;
}

int peer_pump(peer *p, int ms)
{
    int64_t deadline = ws_now_ms() + ms;
    for (int64_t left; (left = deadline - ws_now_ms()) > 0;) {
        cJSON_Delete(peer_next_text(p, (int)left));
        if (!p->ws || !ws_is_open(p->ws)) return -1;
    }
    return 0;
}

int peer_pump_frames(peer *p, long frames, int timeout_ms)
{
    int64_t deadline = ws_now_ms() + timeout_ms;
    while (p->follow.frames < frames && ws_now_ms() < deadline && p->ws && ws_is_open(p->ws))
        cJSON_Delete(peer_next_text(p, 100));
    return p->follow.frames >= frames ? 0 : -1;
}

static int is_reply_to(const cJSON *msg, long id)
{
    const cJSON *mid = cJSON_GetObjectItemCaseSensitive(msg, "id");
    return cJSON_IsNumber(mid) && mid->valuedouble == (double)id &&
           (jtype_is(msg, "ack") || jtype_is(msg, "error") || jtype_is(msg, "welcome") || jtype_is(msg, "worlds"));
}

cJSON *peer_request(peer *p, const char *json, int timeout_ms)
{
    cJSON *req = cJSON_Parse(json);
    if (!req) return fprintf(stderr, "%s: test bug: request is not JSON: %s\n", p->name, json), NULL;
    long id = p->next_id++;
    cJSON_AddNumberToObject(req, "id", (double)id);
    char *text = cJSON_PrintUnformatted(req);
    cJSON_Delete(req);
    int sent = peer_send(p, text);
    free(text);
    if (sent != 0) return NULL;
    int64_t deadline = ws_now_ms() + timeout_ms;
    for (int64_t left; (left = deadline - ws_now_ms()) >= 0;) {
        cJSON *msg = peer_next_text(p, (int)left);
        if (!msg) break;
        if (is_reply_to(msg, id)) return msg;
        cJSON_Delete(msg);
    }
    fprintf(stderr, "%s: no reply to %s within %d ms\n", p->name, json, timeout_ms);
    return NULL;
}

cJSON *peer_hello(peer *p, const char *token)
{
    char msg[512];
    if (token) snprintf(msg, sizeof msg, "{\"type\":\"hello\",\"client\":\"%s\",\"token\":\"%s\"}", p->name, token);
    else snprintf(msg, sizeof msg, "{\"type\":\"hello\",\"client\":\"%s\"}", p->name);
    cJSON *r = peer_request(p, msg, PEER_TIMEOUT_MS);
    if (r && !jtype_is(r, "welcome")) fprintf(stderr, "%s: hello answered with %s\n", p->name, jtext(r));
    return r;
}

/* A follower for world. One that follows it already keeps its frame: deltas of the old
 * subscription may still come before the new one's key frame, and they decode. */
static int follow_world(peer *p, uint32_t world)
{
    if (p->follow.dec && p->follow.world != world) follower_free(&p->follow);
    return p->follow.dec || follower_init(&p->follow, world) == 0 ? 0 : -1;
}

cJSON *peer_subscribe(peer *p, uint32_t world, const char *extra)
{
    char msg[400];
    snprintf(p->sub_options, sizeof p->sub_options, "%s", extra ? extra : "");
    snprintf(msg, sizeof msg, "{\"type\":\"subscribe\",\"world\":%u%s%s}", (unsigned)world, p->sub_options[0] ? "," : "",
             p->sub_options);
    if (follow_world(p, world) != 0) return NULL;
    cJSON *r = peer_request(p, msg, PEER_TIMEOUT_MS);
    if (!jtype_is(r, "ack")) return r;
    cJSON *state = peer_wait_type(p, "state", PEER_TIMEOUT_MS);
    if (!state) fprintf(stderr, "%s: no state after the subscribe ack\n", p->name);
    cJSON_Delete(state);
    return r;
}

cJSON *peer_fresh_state(peer *p, uint32_t world)
{
    long before = p->states;
    char options[256];
    snprintf(options, sizeof options, "%s", p->sub_options);
    cJSON *r = peer_subscribe(p, world, options);
    int ok = jtype_is(r, "ack") && p->states > before && p->state;
    if (!ok) fprintf(stderr, "%s: no fresh state of world %u (reply %s)\n", p->name, (unsigned)world, jtext(r));
    cJSON_Delete(r);
    return ok ? cJSON_Duplicate(p->state, 1) : NULL;
}

cJSON *peer_state_where(peer *p, long since, state_test test, const void *ctx, int timeout_ms)
{
    int64_t deadline = ws_now_ms() + timeout_ms;
    if (p->states > since && test(p->state, ctx)) return cJSON_Duplicate(p->state, 1);
    for (int64_t left; (left = deadline - ws_now_ms()) >= 0;) {
        cJSON *msg = peer_next_text(p, (int)left);
        if (!msg && (!p->ws || !ws_is_open(p->ws))) break;
        if (jtype_is(msg, "state") && test(msg, ctx)) return msg;
        cJSON_Delete(msg);
    }
    fprintf(stderr, "%s: no state as expected within %d ms; the latest: %s\n", p->name, timeout_ms, jtext(p->state));
    return NULL;
}

int state_has_values(const cJSON *state, const void *values)
{
    const cJSON *v, *now = jget(state, "values");
    cJSON_ArrayForEach(v, (const cJSON *)values) {
        if (!cJSON_Compare(v, cJSON_GetObjectItemCaseSensitive(now, v->string), 1)) return 0;
    }
    return now != NULL;
}

/* ---- cJSON accessors ------------------------------------------------------------------------- */

const cJSON *jget(const cJSON *o, const char *path)
{
    char name[128];
    while (o && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof name) return NULL;
        memcpy(name, path, n);
        name[n] = '\0';
        o = cJSON_GetObjectItemCaseSensitive(o, name);
        path += n + (path[n] == '.');
    }
    return o;
}

double jnum(const cJSON *o, const char *path)
{
    const cJSON *v = jget(o, path);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const char *jstr(const cJSON *o, const char *path)
{
    const cJSON *v = jget(o, path);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int jstr_is(const cJSON *o, const char *path, const char *value)
{
    const char *s = jstr(o, path);
    return s && strcmp(s, value) == 0;
}

int jstr_has(const cJSON *o, const char *path, const char *part)
{
    const char *s = jstr(o, path);
    return s && strstr(s, part);
}

int jtype_is(const cJSON *o, const char *type) { return jstr_is(o, "type", type); }

int is_error(const cJSON *o, const char *code, const char *field)
{
    if (!jtype_is(o, "error")) return 0;
    const char *c = jstr(o, "code"), *f = jstr(o, "field");
    if (!c || strcmp(c, code) != 0) return 0;
    if (!field) return cJSON_IsNull(jget(o, "field"));
    if (strcmp(field, "*") == 0) return 1;
    return f && strcmp(f, field) == 0;
}

const char *jtext(const cJSON *o)
{
    static _Thread_local char buf[4][704];
    static _Thread_local int next;
    char *out = buf[next++ & 3];
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    snprintf(out, sizeof buf[0], "%.700s", text ? text : "(none)");
    free(text);
    return out;
}

double peer_steps_per_second(peer *p, int ms)
{
    double sum = 0;
    int n = 0;
    for (int64_t end = ws_now_ms() + ms; ws_now_ms() < end;) {
        cJSON *m = peer_next_text(p, (int)(end - ws_now_ms() > 0 ? end - ws_now_ms() : 1));
        if (jtype_is(m, "stats") && jnum(m, "world") == 1 && jnum(m, "steps_per_s") > 0) sum += jnum(m, "steps_per_s"), n++;
        cJSON_Delete(m);
    }
    return n ? sum / n : 0.0;
}
