/* Server over real sockets: the camera relay. A controller's camera reaches the world's other
 * subscribers (never itself), at most 10 times a second with the newest winning, state says
 * camera_broadcast, a new subscriber gets the newest camera right after its state, and the
 * broadcast ends with active false or when its controller disconnects. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

static test_env env;

/* The x of a camera message's position (NAN when it has none). */
static double x_of(const cJSON *camera)
{
    const cJSON *x = cJSON_GetArrayItem(jget(camera, "position"), 0);
    return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

static void send_camera(peer *p, double x)
{
    char msg[200];
    snprintf(msg, sizeof msg, "{\"type\":\"camera\",\"world\":1,\"position\":[%g,0.8,1.2],\"target\":[0.3,0.1,0.2]}", x);
    sleep_ms(12); /* within the 100 messages per second */
    cJSON *r = peer_request(p, msg, PEER_TIMEOUT_MS);
    CHECK(jtype_is(r, "ack") && cJSON_IsTrue(jget(r, "applied.active")) && !jget(r, "sequence"),
          "camera at x %g is acked with active true: %s", x, jtext(r));
    cJSON_Delete(r);
}

/* Reads for ms: the camera messages of world 1 (count, and a copy of the last in *last). */
static int cameras(peer *p, int ms, cJSON **last)
{
    int n = 0;
    int64_t end = ws_now_ms() + ms;
    for (int64_t left; (left = end - ws_now_ms()) > 0;) {
        cJSON *m = peer_next_text(p, (int)left);
        if (jtype_is(m, "camera")) {
            n++;
            if (last) {
                cJSON_Delete(*last);
                *last = cJSON_Duplicate(m, 1);
            }
        }
        cJSON_Delete(m);
    }
    return n;
}

static int broadcasting(const cJSON *state, const void *ctx)
{
    return cJSON_IsBool(jget(state, "camera_broadcast")) && cJSON_IsTrue(jget(state, "camera_broadcast")) == *(const int *)ctx;
}

static void expect_broadcast_state(peer *p, long since, int on)
{
    cJSON *s = peer_state_where(p, since, broadcasting, &on, PEER_TIMEOUT_MS);
    CHECK(s != NULL, "%s: a state says camera_broadcast %s", p->name, on ? "true" : "false");
    cJSON_Delete(s);
}

static int subscribe(peer *p, int port, const char *name)
{
    return expect_subscriber(p, port, name, "");
}

static void check_relay(int port)
{
    peer a, b, c, d;
    if (subscribe(&a, port, "presenter") || subscribe(&b, port, "room")) return;
    sleep_ms(12);
    cJSON *w = peer_hello(&a, "any"); /* a server without --token refuses no token */
    CHECK(jstr_is(w, "role", "control") && cJSON_IsFalse(jget(w, "token_refused")),
          "without --token a hello with a token controls, token_refused false: %s", jtext(w));
    cJSON_Delete(w);
    CHECK(b.state && cJSON_IsFalse(jget(b.state, "camera_broadcast")), "state.camera_broadcast is false at first: %s",
          jtext(b.state));
    long since = b.states;
    send_camera(&a, 1.5);
    cJSON *got = NULL;
    CHECK(cameras(&b, 600, &got) == 1, "the room gets one camera message");
    const cJSON *pos = jget(got, "position");
    CHECK(jnum(got, "world") == 1 && cJSON_IsNull(jget(got, "id")) && cJSON_IsTrue(jget(got, "active")) &&
              cJSON_GetArraySize(pos) == 3 && x_of(got) == 1.5 &&
              cJSON_GetArraySize(jget(got, "target")) == 3,
          "it is {type camera, id null, world 1, position, target, active true}: %s", jtext(got));
    expect_broadcast_state(&b, since, 1);
    CHECK(cameras(&a, 300, NULL) == 0, "the presenter does not get its own camera back");

    /* 30 cameras in about 0.5 s: at most 10 relays a second, the last one is the newest */
    int64_t t0 = ws_now_ms();
    for (int i = 0; i < 30; i++) send_camera(&a, 2.0 + 0.01 * i);
    int n = cameras(&b, 500, &got);
    double seconds = (double)(ws_now_ms() - t0) / 1000.0;
    CHECK(n >= 2 && n <= (int)(10.0 * seconds) + 2, "%d relays in %.2f s: at most 10 a second", n, seconds);
    CHECK(fabs(x_of(got) - 2.29) < 1e-9,
          "the last relay is the newest camera (x 2.29): %s", jtext(got));

    /* a new subscriber: ack, state, then the newest camera */
    if (expect_hello(&c, port, "latecomer", NULL, NULL) == 0) {
        sleep_ms(12);
        peer_send(&c, "{\"type\":\"subscribe\",\"world\":1}");
        cJSON *m1 = peer_next_text(&c, PEER_TIMEOUT_MS), *m2 = peer_next_text(&c, PEER_TIMEOUT_MS);
        cJSON *m3 = peer_next_text(&c, PEER_TIMEOUT_MS);
        CHECK(jtype_is(m1, "ack") && jtype_is(m2, "state") && cJSON_IsTrue(jget(m2, "camera_broadcast")) &&
                  jtype_is(m3, "camera") && fabs(x_of(m3) - 2.29) < 1e-9,
              "a new subscriber gets ack, state (camera_broadcast true), then the newest camera: %s, %s, %s", jtext(m1),
              jtext(m2), jtext(m3));
        cJSON_Delete(m1), cJSON_Delete(m2), cJSON_Delete(m3);
    }

    /* errors change nothing */
    sleep_ms(12);
    expect_error(&a, "{\"type\":\"camera\",\"world\":1,\"position\":[1,1,1],\"target\":[1,1,1]}", "bad_value", "target");
    sleep_ms(12);
    expect_error(&a, "{\"type\":\"camera\",\"world\":7,\"position\":[1,1,1],\"target\":[0,0,0]}", "unknown_world", "world");

    /* active false ends it: everyone else hears it once, state says so */
    since = b.states;
    sleep_ms(150);
    sleep_ms(12);
    cJSON *r = peer_request(&a, "{\"type\":\"camera\",\"world\":1,\"active\":false}", PEER_TIMEOUT_MS);
    CHECK(jtype_is(r, "ack") && cJSON_IsFalse(jget(r, "applied.active")), "active false is acked: %s", jtext(r));
    cJSON_Delete(r);
    n = cameras(&b, 500, &got);
    CHECK(n == 1 && cJSON_IsFalse(jget(got, "active")) && !jget(got, "position") && jnum(got, "world") == 1,
          "the room gets {camera, world 1, active false} once (%d): %s", n, jtext(got));
    expect_broadcast_state(&b, since, 0);
    CHECK(cameras(&c, 300, &got) == 1 && cJSON_IsFalse(jget(got, "active")), "so does the latecomer: %s", jtext(got));
    if (expect_hello(&d, port, "after", NULL, NULL) == 0) {
        sleep_ms(12);
        cJSON_Delete(peer_subscribe(&d, 1, ""));
        CHECK(cameras(&d, 400, NULL) == 0, "a subscriber after the end gets no camera");
    }

    /* a presenter that leaves ends its broadcast */
    send_camera(&c, 0.9);
    CHECK(cameras(&b, 400, NULL) == 1, "the room gets the latecomer's camera");
    since = b.states;
    peer_close(&c);
    n = cameras(&b, 800, &got);
    CHECK(n == 1 && cJSON_IsFalse(jget(got, "active")), "when its sender disconnects the room gets active false: %s",
          jtext(got));
    expect_broadcast_state(&b, since, 0);
    cJSON_Delete(got);
    peer_close(&a), peer_close(&b), peer_close(&d);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_camera");
    }
    check_relay(server.port);
    CHECK(server_alive(&server), "the server is still running");
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_camera");
}
