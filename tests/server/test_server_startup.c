/* Server over real sockets: how `fluidcast serve` starts its world. It waits at t = 0 for its first
 * subscriber (a controller's pause, resume or step decides instead; --no-wait plays at once; worlds
 * of create_world never wait), --loop rebuilds it every SECONDS, and a busy port is one clear line. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

static test_env env;

/* World 1 of a worlds list (list_worlds now). */
static cJSON *world_summary(peer *p)
{
    cJSON *worlds = peer_request(p, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
    cJSON *w = NULL, *item;
    cJSON_ArrayForEach(item, jget(worlds, "worlds"))
        if (jnum(item, "id") == 1) w = cJSON_Duplicate(item, 1);
    CHECK(w != NULL, "list_worlds has world 1: %s", jtext(worlds));
    cJSON_Delete(worlds);
    return w;
}

static int start(server_process *s, const char *extra1, const char *extra2, const char *extra3)
{
    int ok = test_server_start(s, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), extra1, extra2, extra3,
                               NULL) == 0;
    CHECK(ok, "the server starts (%s %s %s)", extra1 ? extra1 : "", extra2 ? extra2 : "", extra3 ? extra3 : "");
    return ok ? 0 : -1;
}

static void stop(server_process *s)
{
    int status = test_server_stop(s);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
}

/* ---- waiting for the first subscriber ------------------------------------------------------------ */

static void check_waits_for_subscriber(void)
{
    server_process s;
    if (start(&s, NULL, NULL, NULL)) return;
    peer p;
    if (expect_hello(&p, s.port, "waits", NULL, "control") == 0) {
        cJSON *w = world_summary(&p);
        CHECK(cJSON_IsTrue(jget(w, "paused")) && cJSON_IsTrue(jget(w, "waiting")) && jnum(w, "subscribers") == 0,
              "before any subscriber world 1 waits, paused: %s", jtext(w));
        cJSON_Delete(w);
        sleep_ms(1500);
        w = world_summary(&p);
        CHECK(cJSON_IsTrue(jget(w, "paused")) && cJSON_IsTrue(jget(w, "waiting")), "1.5 s later it still waits: %s",
              jtext(w));
        cJSON_Delete(w);
        cJSON *ack = peer_subscribe(&p, 1, "");
        CHECK(jtype_is(ack, "ack"), "subscribe is acked: %s", jtext(ack));
        cJSON_Delete(ack);
        CHECK(p.state && jnum(p.state, "time") == 0 && jnum(p.state, "step") == 0 && cJSON_IsFalse(jget(p.state, "paused")) &&
                  cJSON_IsFalse(jget(p.state, "waiting")) && cJSON_IsNull(jget(p.state, "loop")),
              "the subscriber's first state: t = 0 after the wait, playing, not waiting, no loop: %s", jtext(p.state));
        peer_pump_frames(&p, 5, 15000);
        CHECK(p.follow.frames >= 5 && p.follow.last_time > 0, "then the time advances: %ld frames, the last at t = %g s",
              p.follow.frames, p.follow.last_time);
        /* a world made by create_world does not wait */
        cJSON *created = expect_ack(&p, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"values\":{"
                                        "\"particle_spacing\":0.04,\"smoothing_radius\":0.08,\"particle_radius\":0.02}}");
        cJSON *worlds = peer_request(&p, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
        const cJSON *item, *second = NULL;
        cJSON_ArrayForEach(item, jget(worlds, "worlds"))
            if (jnum(item, "id") == jnum(created, "applied.world")) second = item;
        CHECK(second && cJSON_IsFalse(jget(second, "paused")) && cJSON_IsFalse(jget(second, "waiting")),
              "a world of create_world plays without a subscriber: %s", jtext(worlds));
        cJSON_Delete(worlds);
        cJSON_Delete(created);
        peer_close(&p);
    }
    stop(&s);
}

/* A controller's request while world 1 waits ends the wait as it says: paused stays paused when a
 * subscriber comes, resume plays without one, step steps and stays paused. */
static void check_request_ends_wait(const char *request, int playing)
{
    server_process s;
    if (start(&s, NULL, NULL, NULL)) return;
    peer p;
    if (expect_hello(&p, s.port, request, NULL, "control") == 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "{\"type\":\"%s\",\"world\":1}", request);
        cJSON_Delete(expect_ack(&p, msg));
        cJSON *w = world_summary(&p);
        CHECK(cJSON_IsFalse(jget(w, "waiting")) && cJSON_IsBool(jget(w, "paused")) &&
                  cJSON_IsTrue(jget(w, "paused")) == !playing,
              "%s while waiting: the wait is over, world 1 %s: %s", request, playing ? "plays" : "stays paused", jtext(w));
        cJSON_Delete(w);
        cJSON *ack = peer_subscribe(&p, 1, "");
        cJSON_Delete(ack);
        double t0 = p.state ? jnum(p.state, "time") : NAN;
        sleep_ms(1500); /* a running world sends its state every second */
        cJSON *later = peer_fresh_state(&p, 1);
        CHECK(later && cJSON_IsFalse(jget(later, "waiting")) && cJSON_IsTrue(jget(later, "paused")) == !playing &&
                  (playing ? jnum(later, "time") > t0 : jnum(later, "time") == t0),
              "%s while waiting: a subscriber %s (time %g -> %g): %s", request,
              playing ? "sees it play" : "does not start it", t0, jnum(later, "time"), jtext(later));
        cJSON_Delete(later);
        peer_close(&p);
    }
    stop(&s);
}

static void check_no_wait(void)
{
    server_process s;
    if (start(&s, "--no-wait", NULL, NULL)) return;
    peer p;
    if (expect_hello(&p, s.port, "no-wait", NULL, "control") == 0) {
        cJSON *w = world_summary(&p);
        CHECK(cJSON_IsFalse(jget(w, "paused")) && cJSON_IsFalse(jget(w, "waiting")), "--no-wait: world 1 plays at once: %s",
              jtext(w));
        cJSON_Delete(w);
        sleep_ms(1500); /* a running world sends its state every second */
        cJSON_Delete(peer_subscribe(&p, 1, ""));
        CHECK(p.state && jnum(p.state, "time") > 0, "--no-wait: it ran before anyone subscribed (t = %g s)",
              p.state ? jnum(p.state, "time") : NAN);
        peer_close(&p);
    }
    stop(&s);
}

/* ---- --loop ---------------------------------------------------------------------------------------- */

static int state_epoch_above(const cJSON *state, const void *epoch) { return jnum(state, "epoch") > *(const double *)epoch; }

static void check_loop(void)
{
    server_process s;
    /* 0.1 s is 200 steps: about 10 s under ThreadSanitizer, which steps small_tank 20 times a second */
    if (start(&s, "--loop", "0.1", "--set=viscosity=1.5")) return;
    peer p;
    if (expect_subscriber(&p, s.port, "loop", "") == 0) {
        CHECK(p.state && jnum(p.state, "loop") == 0.1, "state.loop is 0.1: %s", jtext(jget(p.state, "loop")));
        double epoch = jnum(p.state, "epoch");
        for (int round = 1; round <= 2; round++) {
            long since = p.states;
            cJSON *next = peer_state_where(&p, since, state_epoch_above, &epoch, 60000);
            CHECK(next && jnum(next, "time") < 0.1 && jnum(next, "loop") == 0.1 && cJSON_IsFalse(jget(next, "paused")) &&
                      jnum(next, "values.viscosity") == 1.5,
                  "loop %d: a new epoch from t = 0 with the --set values, still playing: %s", round, jtext(next));
            if (!next) break;
            epoch = jnum(next, "epoch");
            cJSON_Delete(next);
        }
        long frames = p.follow.frames;
        peer_pump_frames(&p, frames + 5, 15000);
        CHECK(p.follow.frames >= frames + 5 && p.follow.last_epoch >= epoch && p.follow.corrupt == 0,
              "frames of the new epoch decode (%ld more, epoch %u)", p.follow.frames - frames, (unsigned)p.follow.last_epoch);
        peer_close(&p);
    }
    stop(&s);
}

/* ---- where the room reaches the server ------------------------------------------------------------ */

/* The welcome of a server started with extra (NULL: none), or NULL; its port in *port. */
static cJSON *welcome_of(const char *extra1, const char *extra2, int *port)
{
    server_process s;
    if (start(&s, extra1, extra2, NULL)) return NULL;
    *port = s.port;
    peer p;
    cJSON *w = NULL;
    if (peer_connect(&p, s.port, "room") == 0) {
        w = peer_hello(&p, NULL);
        peer_close(&p);
    }
    stop(&s);
    return w;
}

static int is_instance(const char *text)
{
    return text && strlen(text) == 16 && strspn(text, "0123456789abcdef") == 16;
}

/* welcome.room is --public-url when given, else 127.0.0.1 (loopback: the viewer warns); every
 * start has a new welcome.server.instance */
static void check_room(void)
{
    int port = 0;
    cJSON *given = welcome_of("--public-url", "https://room.example.org/fc", &port);
    CHECK(jstr_is(given, "room.url", "https://room.example.org/fc/") && jstr_is(given, "room.source", "public_url"),
          "--public-url is the room's URL, with a '/' at its end: %s", jtext(jget(given, "room")));
    cJSON *plain = welcome_of(NULL, NULL, &port);
    char want[64];
    snprintf(want, sizeof want, "http://127.0.0.1:%d/", port);
    CHECK(jstr_is(plain, "room.url", want) && jstr_is(plain, "room.source", "loopback"),
          "without it a loopback server's room is %s, source loopback: %s", want, jtext(jget(plain, "room")));
    const char *a = jstr(given, "server.instance"), *b = jstr(plain, "server.instance");
    CHECK(is_instance(a) && is_instance(b) && strcmp(a, b) != 0, "two starts have two instances (16 hex digits): %s %s",
          a ? a : "(none)", b ? b : "(none)");
    cJSON_Delete(given);
    cJSON_Delete(plain);
}

/* ---- a busy port ------------------------------------------------------------------------------------ */

static void check_busy_port(void)
{
    server_process s;
    if (start(&s, NULL, NULL, NULL)) return;
    char port[16];
    snprintf(port, sizeof port, "%d", s.port);
    const char *argv[] = {env.fluidcast, "serve", "--port", port, "--scene", test_scene(&env, "small_tank"), NULL};
    char *out = NULL, *err = NULL;
    int status = run_capture(argv, 20000, &out, &err);
    char want[64];
    snprintf(want, sizeof want, "port %s is already in use", port);
    const char *nl = err ? strchr(err, '\n') : NULL;
    CHECK(status == 1, "a second server on port %s exits 1 (%d)", port, status);
    CHECK(err && strstr(err, want) && strstr(err, "--port") && nl && nl[1] == '\0',
          "it says so in one line naming the port and --port: '%s'", err ? err : "(none)");
    CHECK(err && !strstr(err, "E:") && out && !out[0], "no libwebsockets lines, nothing on stdout: '%s' '%s'",
          err ? err : "", out ? out : "");
    free(out);
    free(err);
    stop(&s);
    /* an interface that does not exist: libwebsockets' complaint becomes the one line */
    const char *nowhere[] = {env.fluidcast, "serve", "--bind", "nosuchif0", "--open", "--port", "0", "--scene",
                             test_scene(&env, "small_tank"), NULL};
    out = err = NULL;
    status = run_capture(nowhere, 20000, &out, &err);
    nl = err ? strchr(err, '\n') : NULL;
    CHECK(status == 1 && err && strstr(err, "cannot listen on nosuchif0") && strstr(err, "--bind") && nl && nl[1] == '\0' &&
              !strstr(err, "] E:"),
          "--bind to a name that is no interface: exit 1 (%d) with one line: '%s'", status, err ? err : "(none)");
    free(out);
    free(err);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    check_waits_for_subscriber();
    check_request_ends_wait("pause", 0);
    check_request_ends_wait("resume", 1);
    check_request_ends_wait("step", 0);
    check_no_wait();
    check_loop();
    check_busy_port();
    check_room();
    return check_summary("test_server_startup");
}
