/* Server over real sockets: progress events of long builds. A load_scene, reset or create_world
 * whose build takes more than 0.3 s sends {"type": "progress", "task": "build", "done", "total",
 * "message"} to the client that asked and the world's subscribers, at most 4 a second, done
 * growing, and none after the ack; a quick build sends none. FLUIDCAST_TEST_BUILD_DELAY stands a
 * long build in: every report point of a dam_break build also sleeps. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

#define COARSE "\"values\":{\"particle_spacing\":0.03,\"smoothing_radius\":0.06}"

static test_env env;

typedef struct {
    int count, ordered, well_formed, world_ok;
    double first_s, last_s, duration_s; /* after the request was sent */
    double last_done;
    int after_reply;                    /* progress events after the reply */
} progress_seen;

/* Sends json with "id":"p" and reads until its reply (returned) and ms more, noting the progress
 * events of world (0: any) on the way. */
static cJSON *request_watching(peer *p, const char *json, int world, int linger_ms, progress_seen *seen)
{
    memset(seen, 0, sizeof *seen);
    seen->ordered = seen->well_formed = seen->world_ok = 1;
    char msg[600];
    snprintf(msg, sizeof msg, "{\"id\":\"p\",%s", json + 1);
    sleep_ms(12); /* within the 100 messages per second */
    int64_t t0 = ws_now_ms();
    peer_send(p, msg);
    cJSON *reply = NULL;
    int64_t end = t0 + PEER_TIMEOUT_MS;
    while (ws_now_ms() < end) {
        cJSON *m = peer_next_text(p, (int)(end - ws_now_ms()));
        if (!m) break;
        double at = (double)(ws_now_ms() - t0) / 1000.0;
        if (jtype_is(m, "progress")) {
            if (reply) seen->after_reply++;
            if (!seen->count) seen->first_s = at;
            seen->count++;
            seen->last_s = at;
            double done = jnum(m, "done"), total = jnum(m, "total");
            seen->well_formed &= cJSON_IsNull(jget(m, "id")) && jstr_is(m, "task", "build") && total == 4 && done >= 0 &&
                                 done <= total && jstr(m, "message") && *jstr(m, "message");
            seen->ordered &= done >= seen->last_done;
            seen->world_ok &= !world || jnum(m, "world") == world;
            seen->last_done = done;
        } else if (!reply && jstr_is(m, "id", "p")) {
            reply = cJSON_Duplicate(m, 1);
            seen->duration_s = at;
            end = ws_now_ms() + linger_ms;
        }
        cJSON_Delete(m);
    }
    return reply;
}

static void check_seen(const char *what, const progress_seen *s)
{
    CHECK(s->count >= 2, "%s: progress events come (%d in %.2f s)", what, s->count, s->duration_s);
    CHECK(s->well_formed && s->ordered && s->world_ok,
          "%s: each is {progress, id null, world, task build, done growing within total 4, message}", what);
    CHECK(s->first_s >= 0.25, "%s: the first comes after 0.3 s of building (%.2f s)", what, s->first_s);
    CHECK(s->count <= 4.0 * (s->last_s - s->first_s) + 1.5, "%s: at most 4 a second (%d from %.2f to %.2f s)", what,
          s->count, s->first_s, s->last_s);
    CHECK(s->after_reply == 0, "%s: none after the ack (%d)", what, s->after_reply);
}

/* Reads for ms: the progress events of world that came. */
static int progress_of(peer *p, int world, int ms)
{
    int n = 0;
    for (int64_t end = ws_now_ms() + ms, left; (left = end - ws_now_ms()) > 0;) {
        cJSON *m = peer_next_text(p, (int)left);
        n += jtype_is(m, "progress") && jnum(m, "world") == world;
        cJSON_Delete(m);
    }
    return n;
}

static void check_progress(int port)
{
    peer ctl, room;
    if (expect_hello(&ctl, port, "controller", NULL, "control") || expect_subscriber(&room, port, "room", "")) return;
    progress_seen seen;

    cJSON *r = request_watching(&ctl, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break\"," COARSE "}", 1, 600,
                                &seen);
    CHECK(jtype_is(r, "ack") && jstr_is(r, "request", "load_scene"), "load_scene dam_break is acked: %s", jtext(r));
    cJSON_Delete(r);
    check_seen("load_scene", &seen);
    CHECK(progress_of(&room, 1, 300) >= 1, "the world's subscriber gets progress events too");

    r = request_watching(&ctl, "{\"type\":\"reset\",\"world\":1," COARSE "}", 1, 600, &seen);
    CHECK(jtype_is(r, "ack"), "reset is acked: %s", jtext(r));
    cJSON_Delete(r);
    check_seen("reset", &seen);

    r = request_watching(&ctl, "{\"type\":\"create_world\",\"scene\":\"dam_break\"," COARSE "}", 2, 600, &seen);
    CHECK(jtype_is(r, "ack") && jnum(r, "applied.world") == 2, "create_world is acked with world 2: %s", jtext(r));
    cJSON_Delete(r);
    check_seen("create_world (to the client that asked)", &seen);
    CHECK(progress_of(&room, 2, 300) == 0, "a client that neither asked nor watches world 2 hears nothing of its build");

    /* a quick build (no delay for this scene) sends none */
    r = request_watching(&ctl, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"water_drop\"," COARSE "}", 1, 400,
                         &seen);
    CHECK(jtype_is(r, "ack") && seen.count == 0, "a quick load_scene sends no progress (%d): %s", seen.count, jtext(r));
    cJSON_Delete(r);
    peer_close(&ctl), peer_close(&room);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    setenv("FLUIDCAST_TEST_BUILD_DELAY", "dam_break:0.05", 1);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_progress");
    }
    check_progress(server.port);
    CHECK(server_alive(&server), "the server is still running");
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_progress");
}
