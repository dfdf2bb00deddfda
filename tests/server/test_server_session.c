/* Server over real sockets: the handshake and subprotocol, not_ready, hello and welcome with the
 * parameter table, list_worlds, subscribe (ack, state, key frame, decodable deltas), the bits and
 * attributes variant, key_request and unsubscribe. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

#define MAX_CLIENTS "20"
#define MAX_WORLDS "3"

static test_env env;
static int port;

/* ---- handshake ------------------------------------------------------------------------------------ */

static void check_handshakes(void)
{
    ws_handshake hs;
    ws_options other = {.port = port, .subprotocol = "other.v9", .timeout_ms = PEER_TIMEOUT_MS};
    ws_client *c = ws_open(&other, &hs);
    CHECK(!c && hs.status != 101, "a handshake offering only other.v9 is refused (status %d, %s)", hs.status, hs.error);
    ws_free(c);

    ws_options two = {.port = port, .subprotocol = "other.v9, fluidcast.v1", .timeout_ms = PEER_TIMEOUT_MS};
    c = ws_open(&two, &hs);
    CHECK(c && strcmp(hs.protocol, "fluidcast.v1") == 0, "of other.v9 and fluidcast.v1 the server picks fluidcast.v1 (%s, '%s')",
          hs.error, hs.protocol);
    if (c) ws_close(c, 1000, 2000);

    ws_options none = {.port = port, .subprotocol = NULL, .timeout_ms = PEER_TIMEOUT_MS};
    c = ws_open(&none, &hs);
    CHECK(c != NULL, "a handshake offering no subprotocol is served (%s)", hs.error);
    if (!c) return;
    ws_send_text(c, "{\"type\":\"hello\",\"id\":1,\"client\":\"no subprotocol\"}");
    ws_message m;
    ws_status st = ws_recv(c, PEER_TIMEOUT_MS, &m);
    CHECK(st == WS_OK && m.opcode == WS_OP_TEXT && strstr((const char *)m.data, "\"welcome\""),
          "without a subprotocol, hello gets a welcome (status %d: %.200s)", st, st == WS_OK ? (const char *)m.data : "");
    ws_close(c, 1000, 2000);
}

/* ---- before hello ------------------------------------------------------------------------------------ */

static void check_not_ready(void)
{
    peer p;
    if (peer_connect(&p, port, "not ready") != 0) {
        CHECK(0, "connect");
        return;
    }
    expect_error(&p, "{\"type\":\"list_worlds\"}", "not_ready", NULL);
    expect_error(&p, "{\"type\":\"subscribe\",\"world\":1}", "not_ready", NULL);
    expect_error(&p, "{\"type\":\"set\",\"world\":1,\"values\":{\"viscosity\":1}}", "not_ready", NULL);
    peer_pump(&p, 500);
    CHECK(p.binaries == 0, "no frames before hello and subscribe (%ld)", p.binaries);
    cJSON *r = peer_hello(&p, NULL);
    CHECK(jtype_is(r, "welcome"), "hello after the refused messages gets a welcome: %s", jtext(r));
    cJSON_Delete(r);
    peer_close(&p);
}

/* ---- welcome ------------------------------------------------------------------------------------ */

static cJSON *cli_params_table(void)
{
    const char *argv[] = {env.fluidcast, "params", "--json", NULL};
    char *out = NULL;
    int status = run_capture(argv, 30000, &out, NULL);
    cJSON *doc = status == 0 ? cJSON_Parse(out) : NULL;
    CHECK(doc != NULL, "fluidcast params --json runs (status %d) and prints JSON", status);
    free(out);
    cJSON *table = cJSON_DetachItemFromObjectCaseSensitive(doc, "parameters");
    cJSON_Delete(doc);
    return table;
}

static const cJSON *find_named(const cJSON *array, const char *key, const char *value)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, array) {
        const char *v = jstr(e, key);
        if (v && strcmp(v, value) == 0) return e;
    }
    return NULL;
}

static const cJSON *find_world(const cJSON *array, double id)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, array) if (jnum(e, "id") == id) return e;
    return NULL;
}

static void check_parameters(const cJSON *params)
{
    cJSON *cli = cli_params_table();
    CHECK(cJSON_IsArray(params) && cJSON_GetArraySize(params) > 10, "welcome.parameters is the table (%d entries)",
          cJSON_GetArraySize(params));
    CHECK(cli && cJSON_Compare(params, cli, 1), "welcome.parameters equals `fluidcast params --json`'s parameters");
    const cJSON *v = find_named(params, "name", "viscosity");
    CHECK(v && jstr_is(v, "type", "float") && jstr_is(v, "unit", "Pa s") && jnum(v, "min") == 0 &&
              jnum(v, "max") == 100 && cJSON_IsTrue(jget(v, "live")),
          "viscosity: float, Pa s, 0 to 100, live: %s", jtext(v));
    const cJSON *sp = find_named(params, "name", "particle_spacing");
    CHECK(sp && cJSON_IsFalse(jget(sp, "live")) && jstr_is(sp, "unit", "m"),
          "particle_spacing is an init parameter in m: %s", jtext(sp));
    const cJSON *eos = find_named(params, "name", "equation_of_state");
    CHECK(eos && jstr_is(eos, "type", "enum") && cJSON_GetArraySize(jget(eos, "choices")) == 2 &&
              !jget(eos, "unit"),
          "equation_of_state is an enum with two choices and no unit: %s", jtext(eos));
    cJSON_Delete(cli);
}

static void check_limits(const cJSON *limits)
{
    const struct { const char *name; double value; } want[] = {
        {"max_message_bytes", 65536}, {"max_depth", 16}, {"max_number_chars", 63}, {"messages_per_second", 100},
        {"max_fps", 120}, {"max_worlds", atoi(MAX_WORLDS)}, {"max_clients", atoi(MAX_CLIENTS)}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECK(jnum(limits, want[i].name) == want[i].value, "welcome.limits.%s is %g: %s", want[i].name, want[i].value,
              jtext(limits));
}

static void check_world_summary(const cJSON *worlds, const char *what)
{
    const cJSON *w = find_world(worlds, 1);
    CHECK(w && jstr_has(w, "scene", "small_tank") /* the name or the file given */ && jstr(w, "name") &&
              jstr_is(w, "solver", "sph") && cJSON_IsTrue(jget(w, "paused")) && cJSON_IsTrue(jget(w, "waiting")) &&
              cJSON_IsTrue(jget(w, "realtime")) && jnum(w, "particles") > 1000 && jnum(w, "subscribers") >= 0,
          "%s: world 1 runs small_tank with sph in real time, waiting (paused) for its first subscriber: %s", what,
          jtext(worlds));
}

static void check_welcome(const cJSON *w)
{
    CHECK(jtype_is(w, "welcome"), "hello gets a welcome: %s", jtext(w));
    CHECK(jstr_is(w, "server.name", "fluidcast") && jstr(w, "server.version"),
          "welcome.server: %s", jtext(jget(w, "server")));
    CHECK(jnum(w, "protocol") == 1, "welcome.protocol is 1");
    CHECK(jstr_is(w, "role", "control"), "without --token the role is control");
    CHECK(jnum(w, "client") >= 0 && jnum(w, "client") == floor(jnum(w, "client")), "welcome.client is an integer");
    check_world_summary(jget(w, "worlds"), "welcome.worlds");
    const cJSON *dam = find_named(jget(w, "scenes"), "name", "dam_break");
    CHECK(dam && jstr(dam, "description") && *jstr(dam, "description"), "welcome.scenes has dam_break with a description");
    /* the column's volume over the spacing cubed: 0.5 x 0.6 x 0.6 m / (0.02 m)^3 */
    CHECK(dam && fabs(jnum(dam, "particles") - 0.5 * 0.6 * 0.6 / (0.02 * 0.02 * 0.02)) < 0.05 * 22500 &&
              jnum(dam, "dimensions") == 3,
          "welcome.scenes: dam_break starts with about 22,500 particles in 3D: %s", jtext(dam));
    const cJSON *flat = find_named(jget(w, "scenes"), "name", "dam_break_2d");
    CHECK(flat && jnum(flat, "dimensions") == 2 && jnum(flat, "particles") > 1000, "welcome.scenes: dam_break_2d is 2D: %s",
          jtext(flat));
    const cJSON *sph = find_named(jget(w, "solvers"), "name", "sph");
    CHECK(sph && jstr(sph, "description"), "welcome.solvers has sph with a description");
    check_parameters(jget(w, "parameters"));
    check_limits(jget(w, "limits"));
}

/* ---- subscribe and the stream ---------------------------------------------------------------------- */

/* Sends subscribe and reads until the first frame, noting whether ack, state and frame came in that order. */
static cJSON *subscribe_in_order(peer *p, const char *extra, cJSON **state)
{
    char msg[256];
    snprintf(msg, sizeof msg, "{\"type\":\"subscribe\",\"world\":1%s%s}", *extra ? "," : "", extra);
    snprintf(p->sub_options, sizeof p->sub_options, "%s", extra);
    follower_init(&p->follow, 1);
    cJSON *ack = peer_request(p, msg, PEER_TIMEOUT_MS);
    long frames_at_ack = p->binaries;
    *state = peer_wait_type(p, "state", PEER_TIMEOUT_MS);
    long frames_at_state = p->binaries;
    CHECK(jtype_is(ack, "ack") && jstr_is(ack, "request", "subscribe"), "subscribe is acked: %s", jtext(ack));
    CHECK(*state != NULL, "a state follows the subscribe ack");
    CHECK(frames_at_ack == 0 && frames_at_state == 0, "no frame before the ack and the state (%ld, %ld)", frames_at_ack,
          frames_at_state);
    peer_pump_frames(p, 1, 30000);
    CHECK(p->follow.first_kind == FC_FRAME_KEY, "the first frame is a key frame (kind %d)", p->follow.first_kind);
    return ack;
}

static void check_state(const cJSON *s)
{
    CHECK(jnum(s, "world") == 1 && jnum(s, "particles") > 1000 && jnum(s, "time") >= 0 && jnum(s, "step") >= 0 &&
              cJSON_IsFalse(jget(s, "paused")) && jnum(s, "sequence") >= 0 && jnum(s, "epoch") >= 0,
          "state of world 1: %s", jtext(s));
    const cJSON *lo = jget(s, "domain.min"), *hi = jget(s, "domain.max");
    CHECK(cJSON_GetArraySize(lo) == 3 && cJSON_GetArraySize(hi) == 3 && cJSON_GetArrayItem(hi, 0)->valuedouble == 0.6 &&
              cJSON_GetArrayItem(hi, 1)->valuedouble == 0.5 && cJSON_GetArrayItem(lo, 2)->valuedouble == 0,
          "state.domain is the scene's: %s", jtext(jget(s, "domain")));
    CHECK(jnum(s, "values.viscosity") == 2 && jnum(s, "values.substeps") == 20, "state.values has the defaults: %s",
          jtext(jget(s, "values")));
    const cJSON *collider = cJSON_GetArrayItem(jget(s, "colliders"), 0);
    CHECK(collider && jstr_is(collider, "shape", "sphere") &&
              fabs(jnum(collider, "radius") - 0.06) < 1e-6 && jnum(collider, "id") >= 1,
          "state.colliders has the scene's sphere: %s", jtext(jget(s, "colliders")));
    CHECK(cJSON_IsArray(jget(s, "emitters")) && cJSON_GetArraySize(jget(s, "emitters")) == 0, "no emitters yet");
}

/* Reads the stream for at least min_ms and until `frames` decoded, counting states and stats. */
static void read_stream(peer *p, long frames, int min_ms, int *states, cJSON **stats)
{
    int64_t start = ws_now_ms(), deadline = start + 60000;
    while (ws_now_ms() < deadline && ws_is_open(p->ws) && (p->follow.frames < frames || ws_now_ms() - start < min_ms)) {
        cJSON *msg = peer_next_text(p, 100);
        *states += jtype_is(msg, "state");
        if (jtype_is(msg, "stats") && !*stats) *stats = msg;
        else cJSON_Delete(msg);
    }
}

static void check_stream(peer *p, long particles, unsigned bits, uint32_t attributes, const char *what)
{
    int states = 0;
    cJSON *stats = NULL;
    read_stream(p, 20, 3000, &states, &stats);
    const frame_follower *f = &p->follow;
    CHECK(f->frames >= 20 && f->deltas >= 10, "%s: 20 frames decode, mostly deltas (%ld, %ld deltas; %s)", what, f->frames,
          f->deltas, f->last_error);
    CHECK(f->corrupt == 0 && f->need_key == 0 && f->wrong_world == 0 && f->other_binary == 0,
          "%s: no corrupt, undecodable or foreign frame (%ld, %ld, %ld, %ld: %s)", what, f->corrupt, f->need_key,
          f->wrong_world, f->other_binary, f->last_error);
    CHECK(f->last_count == particles, "%s: a frame holds the world's %ld particles (%u)", what, particles, f->last_count);
    CHECK(f->last_bits == bits && f->last_attributes == attributes, "%s: %u bits, attributes 0x%x (got %u, 0x%x)", what,
          bits, attributes, f->last_bits, f->last_attributes);
    CHECK(states >= 2, "%s: a state at least once per second while the world runs (%d in 3 s)", what, states);
    CHECK(stats && jnum(stats, "world") == 1 && jnum(stats, "bits") == bits && jnum(stats, "frames_sent") >= 1 &&
              jnum(stats, "particles") == particles && jnum(stats, "tier") >= 1 && jnum(stats, "tier") <= 8,
          "%s: stats come with world, bits, frames_sent, tier: %s", what, jtext(stats));
    cJSON_Delete(stats);
}

static void check_subscribe(peer *p, const char *extra, unsigned bits, uint32_t attributes, const char *applied)
{
    cJSON *state = NULL, *ack = subscribe_in_order(p, extra, &state);
    cJSON *want = cJSON_Parse(applied);
    CHECK(cJSON_Compare(jget(ack, "applied"), want, 1), "subscribe's applied is %s: %s", applied, jtext(ack));
    cJSON_Delete(want);
    if (state) check_state(state);
    check_stream(p, (long)jnum(state, "particles"), bits, attributes, extra);
    cJSON_Delete(state);
    cJSON_Delete(ack);
}

static void check_key_request(peer *p)
{
    long keys = p->follow.key_frames;
    cJSON_Delete(expect_ack(p, "{\"type\":\"key_request\",\"world\":1}"));
    int64_t deadline = ws_now_ms() + 15000;
    while (p->follow.key_frames == keys && ws_now_ms() < deadline) cJSON_Delete(peer_next_text(p, 100));
    CHECK(p->follow.key_frames > keys, "a key frame follows key_request");
    expect_error(p, "{\"type\":\"key_request\",\"world\":77}", "unknown_world", "world");
    expect_error(p, "{\"type\":\"subscribe\",\"world\":77}", "unknown_world", "world");
}

static void check_unsubscribe(peer *p)
{
    cJSON *r = expect_ack(p, "{\"type\":\"unsubscribe\",\"world\":1}");
    CHECK(jnum(r, "applied.world") == 1, "unsubscribe's applied.world is 1: %s", jtext(r));
    cJSON_Delete(r);
    peer_pump(p, 500); /* a frame already being written may still arrive */
    long frames = p->binaries, states = p->states;
    peer_pump(p, 2000);
    CHECK(p->binaries == frames && p->states == states, "no frames or states after unsubscribe (%ld, %ld more)",
          p->binaries - frames, p->states - states);
    expect_error(p, "{\"type\":\"key_request\",\"world\":1}", "not_subscribed", "world");
    r = expect_ack(p, "{\"type\":\"unsubscribe\",\"world\":1}");
    CHECK(cJSON_IsFalse(jget(r, "applied.subscribed")),
          "unsubscribe when not subscribed: ack with subscribed false, got %s", jtext(r));
    cJSON_Delete(r);
}

static void check_session(void)
{
    peer p;
    if (peer_connect(&p, port, "session") != 0) {
        CHECK(0, "connect");
        return;
    }
    cJSON *w = peer_hello(&p, NULL);
    check_welcome(w);
    cJSON_Delete(w);
    cJSON *worlds = peer_request(&p, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
    CHECK(jtype_is(worlds, "worlds"), "list_worlds gets worlds: %s", jtext(worlds));
    check_world_summary(jget(worlds, "worlds"), "worlds");
    cJSON_Delete(worlds);
    check_subscribe(&p, "", 16, 0, "{\"world\":1,\"attributes\":[],\"max_fps\":30,\"bits\":16,\"products\":[\"particles\"]}");
    check_key_request(&p);
    check_unsubscribe(&p);
    peer_close(&p);

    peer q;
    if (expect_hello(&q, port, "bits 12", NULL, "control") != 0) return;
    check_subscribe(&q, "\"bits\":12,\"attributes\":[\"speed\"]", 12, 1u << FC_ATTR_SPEED,
                    "{\"world\":1,\"attributes\":[\"speed\"],\"max_fps\":30,\"bits\":12,\"products\":[\"particles\"]}");
    peer_close(&q);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--max-clients",
                          MAX_CLIENTS, "--max-worlds", MAX_WORLDS, NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_session");
    }
    port = server.port;
    check_handshakes();
    check_not_ready();
    check_session();
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_session");
}
