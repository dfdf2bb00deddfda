/* What each client message does on the network thread (PROTOCOL.md section 2): session and
 * subscription requests are answered here, world requests are checked and queued to the world. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "core/params_json.h"
#include "core/scene_list.h"
#include "core/solver.h"
#include "host/world_json.h"
#include "net/net.h"

void fc_requests_error(fc_session *c, const fc_message_error *err)
{
    fc_requests_error_about(c, NULL, err);
}

void fc_requests_error_about(fc_session *c, fc_world_host *about, const fc_message_error *err)
{
    fc_metrics_count_error(&c->server->metrics, err->code);
    fc_session_queue_about(c, about, fc_reply_error(err));
}

/* The ack of a request about a world (NULL: the server), after the replies that world owes c. */
static void reply_ack(fc_session *c, fc_world_host *about, const fc_message_error *request, cJSON *applied)
{
    fc_session_queue_about(c, about, fc_reply_ack(request->id, request->request, applied, -1));
    cJSON_Delete(applied);
}

/* The world the message names, or NULL after answering unknown_world (also for a hidden world and
 * a watcher: to a watcher it does not exist). */
static fc_world_host *named_world(fc_session *c, const cJSON *msg, fc_message_error *err)
{
    const cJSON *world = cJSON_GetObjectItemCaseSensitive(msg, "world");
    uint32_t id = cJSON_IsNumber(world) ? (uint32_t)world->valuedouble : 0;
    fc_world_host *host = fc_server_find_world(c->server, id);
    if (host && !fc_server_world_visible(c, host)) host = NULL;
    if (!host) {
        fc_message_error_set(err, FC_ERR_UNKNOWN_WORLD, "world", "no world has the id %u (list_worlds gives them)",
                             (unsigned)id);
        fc_requests_error(c, err);
    }
    return host;
}

static fc_subscription *subscription_of(fc_session *c, fc_world_host *host)
{
    for (int k = 0; k < FC_SESSION_MAX_SUBSCRIPTIONS; k++)
        if (c->sub[k].host == host) return &c->sub[k];
    return NULL;
}

/* ---- hello ----------------------------------------------------------------------------------- */

/* Compares in time independent of where the strings differ. */
static int same_secret(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned char diff = (unsigned char)(la != lb);
    for (size_t i = 0; i < la; i++) diff |= (unsigned char)(a[i] ^ b[i % (lb ? lb : 1)]);
    return diff == 0;
}

static cJSON *limits_json(const fc_server *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "max_message_bytes", FC_MESSAGE_MAX_BYTES);
    cJSON_AddNumberToObject(o, "max_depth", FC_MESSAGE_MAX_DEPTH);
    cJSON_AddNumberToObject(o, "max_number_chars", FC_MESSAGE_MAX_NUMBER_CHARS);
    cJSON_AddNumberToObject(o, "messages_per_second", FC_MESSAGE_RATE_PER_S);
    cJSON_AddNumberToObject(o, "max_fps", 120);
    cJSON_AddNumberToObject(o, "max_worlds", s->options.max_worlds);
    cJSON_AddNumberToObject(o, "max_clients", s->options.max_clients);
    cJSON_AddNumberToObject(o, "max_particles", s->budget.limit.particles);
    cJSON_AddNumberToObject(o, "max_emitters", FC_WORLD_MAX_EMITTERS);
    cJSON_AddNumberToObject(o, "max_colliders", FC_WORLD_MAX_COLLIDERS);
    return o;
}

/* A client that lost the control role (a new hello without the token): the camera broadcasts it
 * leads end, and it leaves the hidden worlds it watched. */
static void lose_control(fc_session *c)
{
    fc_camera_client_gone(c->server, c->id);
    for (int k = 0; k < FC_SESSION_MAX_SUBSCRIPTIONS; k++) {
        fc_world_host *host = c->sub[k].host;
        if (!host || !host->net.hidden) continue;
        fc_session_unsubscribe(c, host);
        fc_server_update_demands(c->server, host);
    }
}

/* The first hello admits the client (slots.c); a later one re-evaluates its role. */
static void hello(fc_session *c, const cJSON *msg, const fc_message_error *request)
{
    fc_server *s = c->server;
    const cJSON *token = cJSON_GetObjectItemCaseSensitive(msg, "token");
    int control = !s->options.token || (cJSON_IsString(token) && same_secret(token->valuestring, s->options.token));
    int refused = s->options.token && cJSON_IsString(token) && !control;
    if (fc_slots_admit(c, control) != 0) return; /* the server is full: bye "full", close 1013 */
    int lost = c->said_hello && c->control && !control;
    c->said_hello = 1;
    c->control = control; /* a watcher that becomes a controller counts as one from now on (slots.c) */
    if (lost) lose_control(c);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "welcome");
    cJSON_AddItemToObject(o, "id", cJSON_CreateRaw(request->id)); /* the id's literal, as sent */
    cJSON *server = cJSON_AddObjectToObject(o, "server");
    cJSON_AddStringToObject(server, "name", "fluidcast");
    cJSON_AddStringToObject(server, "version", FLUIDCAST_VERSION);
    cJSON_AddStringToObject(server, "instance", s->instance);
    cJSON_AddNumberToObject(o, "protocol", FC_MESSAGE_PROTOCOL_VERSION);
    cJSON_AddStringToObject(o, "role", c->control ? "control" : "watch");
    cJSON_AddBoolToObject(o, "token_refused", refused);
    cJSON_AddNumberToObject(o, "client", (double)c->id);
    cJSON_AddItemToObject(o, "worlds", fc_server_worlds_json(s, c->control));
    cJSON_AddItemToObject(o, "scenes", s->scenes_json ? cJSON_Duplicate(s->scenes_json, 1) : cJSON_CreateArray());
    cJSON_AddItemToObject(o, "solvers", fc_json_solvers());
    cJSON_AddItemToObject(o, "parameters", fc_params_json_table());
    cJSON_AddItemToObject(o, "limits", limits_json(s));
    cJSON *room = cJSON_AddObjectToObject(o, "room");
    cJSON_AddStringToObject(room, "url", s->room_url);
    cJSON_AddStringToObject(room, "source", fc_room_source_name(s->room_source));
    fc_session_queue(c, fc_reply_json(o));
    cJSON_Delete(o);
}

/* ---- subscriptions ------------------------------------------------------------------------------ */

/* The smallest tier whose frame rate fits max_fps (PROTOCOL.md 5). */
static unsigned tier_for(double world_fps, double max_fps)
{
    unsigned tier = 1;
    while (tier < FC_FRAME_MAX_TIER && world_fps / tier > max_fps + 1e-9) tier *= 2;
    return tier;
}

static uint32_t attributes_of(const cJSON *list, cJSON *names)
{
    uint32_t mask = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
        for (int a = 0; a < FC_ATTR_COUNT; a++)
            if (cJSON_IsString(item) && strcmp(item->valuestring, fc_attribute_names[a]) == 0) mask |= 1u << a;
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        if (mask & (1u << a)) cJSON_AddItemToArray(names, cJSON_CreateString(fc_attribute_names[a]));
    return mask;
}

/* The products a subscribe names (particles when it names none) as bits; -1 with err for an unknown one. */
static long products_of(const cJSON *list, fc_message_error *err)
{
    if (!list) return 1u << FC_PRODUCT_PARTICLES;
    uint32_t mask = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
    {
        int k = cJSON_IsString(item) ? fc_product_find(item->valuestring) : -1;
        if (k < 0) {
            fc_message_error_set(err, FC_ERR_BAD_VALUE, "products", "unknown product; products are %s", fc_product_names());
            return -1;
        }
        mask |= 1u << k;
    }
    return mask;
}

static void subscribe(fc_session *c, const cJSON *msg, fc_message_error *err)
{
    fc_world_host *host = named_world(c, msg, err);
    if (!host) return;
    fc_subscription *sub = subscription_of(c, host);
    if (!sub) sub = subscription_of(c, NULL);
    if (!sub) {
        fc_message_error_set(err, FC_ERR_BAD_VALUE, "world", "a client watches at most %d worlds at once",
                             FC_SESSION_MAX_SUBSCRIPTIONS);
        fc_requests_error_about(c, host, err);
        return;
    }
    const long products = products_of(cJSON_GetObjectItemCaseSensitive(msg, "products"), err);
    if (products < 0) {
        fc_requests_error_about(c, host, err);
        return;
    }
    const cJSON *bits = cJSON_GetObjectItemCaseSensitive(msg, "bits");
    const cJSON *max_fps = cJSON_GetObjectItemCaseSensitive(msg, "max_fps");
    cJSON *applied = cJSON_CreateObject();
    cJSON_AddNumberToObject(applied, "world", host->id);
    cJSON *names = cJSON_AddArrayToObject(applied, "attributes");
    /* A waiting world plays for its first subscriber (world_host.c): that subscriber gets the state
     * the world sends as it starts, not the waiting one. The version is read before `waiting`: a
     * state that is newer than it cannot be a waiting one. */
    uint64_t state_version = atomic_load(&host->notice_version[FC_NOTICE_STATE]);
    fc_world_info info;
    fc_world_host_info(host, &info);
    memset(sub, 0, sizeof *sub);
    if (info.waiting) sub->notice_version[FC_NOTICE_STATE] = state_version;
    sub->host = host;
    fc_camera_subscribed(sub);
    sub->attributes = attributes_of(cJSON_GetObjectItemCaseSensitive(msg, "attributes"), names);
    sub->products = (uint32_t)products;
    cJSON *product_names = cJSON_AddArrayToObject(applied, "products");
    for (int k = 0; k < FC_PRODUCT_COUNT; k++)
        if (sub->products & (1u << k)) cJSON_AddItemToArray(product_names, cJSON_CreateString(fc_product_kinds[k].name));
    sub->bits = cJSON_IsNumber(bits) ? (unsigned)bits->valuedouble : FC_FRAME_MAX_BITS;
    sub->max_fps = cJSON_IsNumber(max_fps) ? max_fps->valuedouble : 30.0;
    sub->base_tier = sub->tier = tier_for(c->server->options.fps, sub->max_fps);
    sub->clean_since = fc_host_now();
    cJSON_AddNumberToObject(applied, "max_fps", sub->max_fps);
    cJSON_AddNumberToObject(applied, "bits", sub->bits);
    reply_ack(c, host, err, applied);
    fc_server_update_demands(c->server, host);
    fc_world_host_wake(host); /* a waiting world plays for its first subscriber */
    lws_callback_on_writable(c->wsi); /* asks the world for the key frame */
}

static void unsubscribe(fc_session *c, const cJSON *msg, fc_message_error *err)
{
    fc_world_host *host = named_world(c, msg, err);
    if (!host) return;
    fc_session_unsubscribe(c, host); /* replies the world owes the client still come */
    fc_server_update_demands(c->server, host);
    cJSON *applied = cJSON_CreateObject();
    cJSON_AddNumberToObject(applied, "world", host->id);
    cJSON_AddBoolToObject(applied, "subscribed", 0);
    reply_ack(c, host, err, applied);
}

static void key_request(fc_session *c, const cJSON *msg, fc_message_error *err)
{
    fc_world_host *host = named_world(c, msg, err);
    if (!host) return;
    fc_subscription *sub = subscription_of(c, host);
    if (!sub) {
        fc_message_error_set(err, FC_ERR_NOT_SUBSCRIBED, "world", "this client does not watch world %u; subscribe first",
                             (unsigned)host->id);
        fc_requests_error_about(c, host, err);
        return;
    }
    sub->in_chain = 0;
    sub->key_asked = 0;
    lws_callback_on_writable(c->wsi); /* asks the world for the key frame */
    cJSON *applied = cJSON_CreateObject();
    cJSON_AddNumberToObject(applied, "world", host->id);
    reply_ack(c, host, err, applied);
}

/* ---- worlds ------------------------------------------------------------------------------------ */

/* What create_world asks checked on the network thread before a thread starts: a free world slot,
 * a shipped scene (or a document), a known solver and a backend that can be used (into
 * spec->backend). 0, or -1 with err set. */
static int check_world_request(fc_server *s, const fc_command *cmd, fc_world_spec *spec, fc_message_error *err)
{
    char why[300];
    if (fc_server_world_slots_used(s) >= s->options.max_worlds) {
        fc_message_error_set(err, FC_ERR_WORLD_LIMIT, NULL,
                             "the server runs its maximum of %d worlds (closed ones count until their step ends); "
                             "close one first", s->options.max_worlds);
        return -1;
    }
    if (!cmd->u.load.document && fc_scene_find_shipped(cmd->u.load.scene, spec->scene_path, sizeof spec->scene_path)) {
        char near[300];
        fc_message_error_set(err, FC_ERR_UNKNOWN_SCENE, "scene", "no shipped scene is named '%s'%s (welcome.scenes lists them)",
                             cmd->u.load.scene, fc_scene_did_you_mean(cmd->u.load.scene, near, sizeof near));
        return -1;
    }
    if (cmd->u.load.solver[0] && !fc_solver_lookup(cmd->u.load.solver, why, sizeof why)) {
        fc_message_error_set(err, FC_ERR_UNKNOWN_SOLVER, "solver", "%s", why);
        return -1;
    }
    spec->backend = s->options.backend; /* the server's --backend, unless the request names one */
    if (!cmd->u.load.backend[0]) return 0;
    fc_backend asked;
    if (fc_backend_parse(cmd->u.load.backend, &asked, why, sizeof why)) {
        fc_message_error_set(err, FC_ERR_BAD_VALUE, "backend", "%s", why);
        return -1;
    }
    if (fc_backend_resolve(asked, &spec->backend)) {
        fc_message_error_set(err, FC_ERR_BAD_VALUE, "backend", "cuda cannot be used: %s", spec->backend.why);
        return -1;
    }
    return 0;
}

/* The rest of the world's spec from the request and the server's options. */
static void fill_world_spec(fc_server *s, const fc_command *cmd, fc_world_spec *spec)
{
    snprintf(spec->scene, sizeof spec->scene, "%s", cmd->u.load.scene);
    snprintf(spec->name, sizeof spec->name, "%s", cmd->u.load.name);
    snprintf(spec->solver, sizeof spec->solver, "%s", cmd->u.load.solver);
    spec->realtime = cmd->u.load.realtime;
    spec->fps = s->options.fps;
    spec->values = cmd->u.load.values;
    spec->budget = &s->budget;
    spec->document = cmd->u.load.document; /* copied by the host */
}

/* A new world's thread, started: it builds the world and answers c (the ack or the error comes
 * from it through the mailbox). */
static void start_world(fc_session *c, const fc_world_spec *spec, fc_message_error *err)
{
    fc_server *s = c->server;
    const uint32_t id = fc_server_take_world_id(s);
    fc_world_host *host = fc_world_host_start(id, spec, 1, &s->mailbox, c->id, err->id);
    if (!host) {
        fc_server_give_back_world_id(s, id);
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL, "no thread could be started for the world");
        fc_requests_error(c, err);
        return;
    }
    s->starting[s->starting_count++] = host;
    fc_session_expect(c, host, err->id, "create_world");
}

/* create_world: the request read and checked here, the world built on its own thread. */
static void create_world(fc_session *c, const cJSON *msg, fc_message_error *err)
{
    fc_command *cmd = calloc(1, sizeof *cmd);
    if (!cmd) {
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL, "out of memory");
        fc_requests_error(c, err);
        return;
    }
    fc_world_spec spec;
    memset(&spec, 0, sizeof spec);
    if (fc_command_from_message(msg, c->id, cmd, err) || check_world_request(c->server, cmd, &spec, err)) {
        fc_requests_error(c, err);
        fc_command_free(cmd);
        return;
    }
    fill_world_spec(c->server, cmd, &spec);
    start_world(c, &spec, err);
    fc_command_free(cmd);
}

static void close_world(fc_session *c, const cJSON *msg, fc_message_error *err)
{
    fc_world_host *host = named_world(c, msg, err);
    if (!host) return;
    uint32_t id = host->id;
    fc_server_close_world(c->server, host);
    cJSON *applied = cJSON_CreateObject();
    cJSON_AddNumberToObject(applied, "world", id);
    reply_ack(c, NULL, err, applied); /* what it owed c was answered above (unknown_world), in order */
    fc_server_broadcast_worlds(c->server);
}

/* Hides a world from watchers, or shows it again; watchers that watched it are unsubscribed, and
 * every client gets the worlds list its role sees. */
static void set_world(fc_session *c, const cJSON *msg, fc_message_error *err)
{
    fc_world_host *host = named_world(c, msg, err);
    if (!host) return;
    fc_server *s = c->server;
    host->net.hidden = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "hidden"));
    for (fc_session *o = s->sessions; o && host->net.hidden; o = o->next)
        if (!o->control) fc_session_unsubscribe(o, host);
    fc_server_update_demands(s, host);
    cJSON *applied = cJSON_CreateObject();
    cJSON_AddNumberToObject(applied, "world", host->id);
    cJSON_AddBoolToObject(applied, "hidden", host->net.hidden);
    reply_ack(c, host, err, applied);
    fc_server_broadcast_worlds(s);
}

static void camera(fc_session *c, const cJSON *msg, fc_message_error *err)
{
    fc_world_host *host = named_world(c, msg, err);
    int active;
    if (!host) return;
    if (fc_camera_apply(c, host, msg, &active, err)) {
        fc_requests_error_about(c, host, err);
        return;
    }
    cJSON *applied = cJSON_CreateObject();
    cJSON_AddBoolToObject(applied, "active", active);
    reply_ack(c, host, err, applied);
}

/* set, emitters, colliders, pause, resume, step, reset, load_scene, set_solver: checked here
 * against the parameter table, then applied by the world between two steps. */
static void world_command(fc_session *c, const cJSON *msg, fc_message_error *err)
{
    fc_world_host *host = named_world(c, msg, err);
    if (!host) return;
    fc_command *cmd = calloc(1, sizeof *cmd);
    if (!cmd) {
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL, "out of memory");
    } else if (fc_command_from_message(msg, c->id, cmd, err) == 0) {
        snprintf(cmd->id, sizeof cmd->id, "%s", err->id);
        const char *request = fc_message_type_name(cmd->type); /* cmd belongs to the world once posted */
        /* after a stalled request, in order behind it; a busy world slows its controllers down */
        if (c->stalled_count == 0 && fc_world_host_post(host, cmd) == 0) {
            fc_session_expect(c, host, err->id, request);
            return;
        }
        if (fc_session_stall(c, host, cmd) == 0) return;
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL, "world %u has too many requests waiting; try again",
                             (unsigned)host->id);
    }
    fc_command_free(cmd);
    fc_requests_error_about(c, host, err);
}

void fc_requests_handle(fc_session *c, const char *text, size_t len)
{
    fc_message_error err;
    cJSON *msg = NULL;
    if (fc_message_parse(text, len, &err, &msg)) {
        fc_requests_error(c, &err);
        return;
    }
    fc_message_note_request(msg, &err);
    fc_message_type type = fc_message_type_of(msg);
    if (!c->said_hello && type != FC_MSG_HELLO) {
        fc_message_error_set(&err, FC_ERR_NOT_READY, NULL, "send hello first");
        fc_requests_error(c, &err);
    } else if (fc_message_needs_control(type) && !c->control) {
        fc_message_error_set(&err, FC_ERR_FORBIDDEN, NULL,
                             "%s needs the control role; this client watches (hello with the server's token)",
                             fc_message_type_name(type));
        fc_requests_error(c, &err);
    } else {
        switch (type) {
        case FC_MSG_HELLO: hello(c, msg, &err); break;
        case FC_MSG_LIST_WORLDS: fc_session_queue(c, fc_server_worlds_message(c->server, err.id, c->control)); break;
        case FC_MSG_SUBSCRIBE: subscribe(c, msg, &err); break;
        case FC_MSG_UNSUBSCRIBE: unsubscribe(c, msg, &err); break;
        case FC_MSG_KEY_REQUEST: key_request(c, msg, &err); break;
        case FC_MSG_CREATE_WORLD: create_world(c, msg, &err); break;
        case FC_MSG_CLOSE_WORLD: close_world(c, msg, &err); break;
        case FC_MSG_SET_WORLD: set_world(c, msg, &err); break;
        case FC_MSG_CAMERA: camera(c, msg, &err); break;
        default: world_command(c, msg, &err); break;
        }
    }
    cJSON_Delete(msg);
}
