/* Server over real sockets: blow-ups caught and rewound. Each configuration that blows up (values
 * inside every parameter's range) is caught within 2 s of simulated time: the world pauses, its
 * subscribers get an `unstable` event naming the check and the likely cause, the state carries it,
 * and `rewind` brings back a state that runs stably. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "metrics_text.h"
#include "test_env.h"

static test_env env;

/* The dam break at 4 cm (8 times fewer particles than shipped): the same flow, fast to step. */
#define COARSE "\"particle_spacing\":0.04,\"smoothing_radius\":0.08,\"particle_radius\":0.02"

/* A new world of the coarse dam break, stepping as fast as it can; its id, 0 on failure. */
static int create_coarse_world(peer *p)
{
    cJSON *ack = expect_ack(p, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"realtime\":false,\"values\":{" COARSE "}}");
    int id = (int)jnum(ack, "applied.world");
    cJSON_Delete(ack);
    return id > 0 ? id : 0;
}

static int state_is_paused_and_unstable(const cJSON *state, const void *ctx)
{
    (void)ctx;
    return cJSON_IsTrue(jget(state, "paused")) && cJSON_IsObject(jget(state, "unstable"));
}

/* The rewind's ack names each parameter of `values` (a `set`'s) as kept: the value set stays. */
static void check_values_kept(const char *what, const char *values, const cJSON *ack)
{
    cJSON *set = cJSON_Parse(values);
    const cJSON *kept = jget(ack, "applied.kept");
    for (const cJSON *v = set ? set->child : NULL; v; v = v->next) {
        const cJSON *found = NULL; /* "viscosity" is kept as each fluid's, "water.viscosity" */
        for (const cJSON *k = kept ? kept->child : NULL; k && !found; k = k->next) {
            const char *dot = strrchr(k->string, '.');
            if (!strcmp(k->string, v->string) || (dot && !strcmp(dot + 1, v->string))) found = k;
        }
        CHECK(found && cJSON_Compare(found, v, 1), "%s: the rewind keeps %s as set (applied.kept): %s", what, v->string,
              jtext(ack));
    }
    cJSON_Delete(set);
}

/* Sets values that blow the world up, and checks what follows: caught, reported, rewound with the
 * values set kept (the user's; the one click's suggestions then stay too). */
static void check_blow_up(peer *p, const char *what, const char *values, const char *cause_names)
{
    int world = create_coarse_world(p);
    if (!world) return;
    char msg[600];
    cJSON_Delete(peer_subscribe(p, (uint32_t)world, ""));
    cJSON *before = peer_fresh_state(p, (uint32_t)world);
    snprintf(msg, sizeof msg, "{\"type\":\"set\",\"world\":%d,\"values\":%s}", world, values);
    cJSON_Delete(expect_ack(p, msg));
    cJSON *event = peer_wait_type(p, "unstable", 60000);
    CHECK(event && jnum(event, "world") == world, "%s: an unstable event for world %d: %s", what, world, jtext(event));
    CHECK(jstr(event, "check") && *jstr(event, "check") && jstr(event, "message") && *jstr(event, "message"),
          "%s: it names the check that fired and what it saw: %s", what, jtext(event));
    CHECK(jstr_has(event, "cause", cause_names), "%s: the likely cause names %s: %s", what, cause_names,
          jstr(event, "cause"));
    CHECK(jnum(event, "time") - jnum(before, "time") <= 2.0, "%s: caught within 2 s of simulated time (%g s after %g s)",
          what, jnum(event, "time"), jnum(before, "time"));
    CHECK(cJSON_IsNumber(jget(event, "rewind_to")) && jnum(event, "rewind_to") <= jnum(event, "time"),
          "%s: it says where rewind goes: %s", what, jtext(event));
    cJSON *state = peer_state_where(p, 0, state_is_paused_and_unstable, NULL, PEER_TIMEOUT_MS);
    CHECK(state != NULL, "%s: the world is paused and its state carries the event", what);

    snprintf(msg, sizeof msg, "{\"type\":\"rewind\",\"world\":%d}", world);
    cJSON *ack = expect_ack(p, msg);
    CHECK(fabs(jnum(ack, "applied.time") - jnum(event, "rewind_to")) < 1e-9 && jnum(ack, "applied.back") > 0,
          "%s: rewind goes back to %g s: %s", what, jnum(event, "rewind_to"), jtext(ack));
    check_values_kept(what, values, ack);
    cJSON_Delete(ack);
    cJSON *rewound = peer_fresh_state(p, (uint32_t)world);
    CHECK(rewound && cJSON_IsNull(jget(rewound, "unstable")) && cJSON_Compare(jget(rewound, "values"), jget(state, "values"), 1),
          "%s: the rewound world is stable with the values it had when it blew up: %s", what, jtext(rewound));
    /* the viewer's one click: the suggested values, then on */
    const cJSON *suggested = jget(event, "suggested");
    CHECK(cJSON_IsObject(suggested) && suggested->child, "%s: the event suggests values to set: %s", what, jtext(event));
    if (cJSON_IsObject(suggested) && suggested->child) {
        char *text = cJSON_PrintUnformatted(suggested);
        snprintf(msg, sizeof msg, "{\"type\":\"set\",\"world\":%d,\"values\":%s}", world, text ? text : "{}");
        free(text);
        cJSON_Delete(expect_ack(p, msg));
    }
    snprintf(msg, sizeof msg, "{\"type\":\"resume\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
    /* 50 steps: five times the strikes that would catch a blow-up again (slow under sanitizers) */
    cJSON *after = NULL;
    for (int64_t deadline = ws_now_ms() + 120000; ws_now_ms() < deadline; peer_pump(p, 500)) {
        cJSON_Delete(after);
        after = peer_fresh_state(p, (uint32_t)world);
        if (!after || jnum(after, "step") >= jnum(rewound, "step") + 50 || cJSON_IsObject(jget(after, "unstable"))) break;
    }
    CHECK(after && jnum(after, "step") >= jnum(rewound, "step") + 50 && cJSON_IsFalse(jget(after, "paused")) &&
              cJSON_IsNull(jget(after, "unstable")),
          "%s: it runs on stably (step %g -> %g): %s", what, jnum(rewound, "step"), jnum(after, "step"), jtext(after));
    cJSON_Delete(after);
    cJSON_Delete(rewound);
    cJSON_Delete(state);
    cJSON_Delete(event);
    cJSON_Delete(before);
    snprintf(msg, sizeof msg, "{\"type\":\"close_world\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
}

static int state_plays_stably(const cJSON *state, const void *ctx)
{
    (void)ctx;
    return cJSON_IsFalse(jget(state, "paused")) && cJSON_IsNull(jget(state, "unstable"));
}

/* A world a blow-up paused plays its new build after reset (or load_scene): nobody paused it. */
static void check_rebuild_plays(peer *p)
{
    int world = create_coarse_world(p);
    if (!world) return;
    char msg[200];
    cJSON_Delete(peer_subscribe(p, (uint32_t)world, ""));
    snprintf(msg, sizeof msg, "{\"type\":\"set\",\"world\":%d,\"values\":{\"speed_of_sound\":1000,\"adaptive_time_step\":false}}",
             world);
    cJSON_Delete(expect_ack(p, msg));
    cJSON *event = peer_wait_type(p, "unstable", 60000);
    CHECK(event != NULL, "speed_of_sound 1000 at a fixed step blows world %d up", world);
    cJSON_Delete(event);
    long since = p->states;
    snprintf(msg, sizeof msg, "{\"type\":\"reset\",\"world\":%d,\"values\":{" COARSE "}}", world);
    cJSON_Delete(expect_ack(p, msg));
    cJSON *state = peer_state_where(p, since, state_plays_stably, NULL, PEER_TIMEOUT_MS);
    CHECK(state != NULL, "after the blow-up, reset plays the rebuilt world (paused false, unstable null): %s",
          jtext(p->state));
    cJSON_Delete(state);
    snprintf(msg, sizeof msg, "{\"type\":\"close_world\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
}

/* The ack's applied.objects: kept as expected, and (when not kept) `removed` listing none. */
static void check_objects_report(const cJSON *ack, int kept, const char *what)
{
    const cJSON *o = jget(ack, "applied.objects");
    CHECK(cJSON_IsBool(jget(o, "kept")) && cJSON_IsTrue(jget(o, "kept")) == kept &&
              (kept || (cJSON_GetArraySize(jget(o, "removed")) == 0 && cJSON_IsArray(jget(o, "restored")))),
          "%s: applied.objects says %s: %s", what, kept ? "they stay" : "nothing added was removed", jtext(ack));
}

/* Whether the state's `list` ("emitters", "colliders") has an object of this id. */
static int state_has_object(const cJSON *state, const char *list, double id)
{
    const cJSON *o;
    cJSON_ArrayForEach(o, jget(state, list)) if (jnum(o, "id") == id) return 1;
    return 0;
}

/* The world's state once it has stepped past simulated time t (NULL after a minute). */
static cJSON *state_after(peer *p, int world, double t)
{
    for (int64_t deadline = ws_now_ms() + 60000; ws_now_ms() < deadline; peer_pump(p, 100)) {
        cJSON *s = peer_fresh_state(p, (uint32_t)world);
        if (s && jnum(s, "time") > t) return s;
        cJSON_Delete(s);
    }
    return NULL;
}

static int state_at_time(const cJSON *state, const void *ctx)
{
    return fabs(jnum(state, "time") - *(const double *)ctx) < 1e-9;
}

/* The paused world's state after a rewind to time t (a state requested at once may be the one
 * before it: states go out at a bounded rate). */
static cJSON *state_rewound_to(peer *p, double t)
{
    return peer_state_where(p, 0, state_at_time, &t, PEER_TIMEOUT_MS);
}

/* What the user did stays over a rewind (issue 40): an emitter and a sphere added and a wall
 * heated before a blow-up are in the checkpoint taken after them, which the rewind (the one
 * click's first request) goes back to however close to the blow-up; the values set stay; an
 * emitter removed while the world waits stays removed. */
static void check_rewind_keeps_changes(peer *p)
{
    int world = create_coarse_world(p);
    if (!world) return;
    char msg[600];
    cJSON_Delete(peer_subscribe(p, (uint32_t)world, ""));
    cJSON *started = state_after(p, world, 0.1); /* past the build's checkpoint at t = 0 */
    const double changed_at = jnum(started, "time");
    cJSON_Delete(started);
    snprintf(msg, sizeof msg, "{\"type\":\"emitter_add\",\"world\":%d,\"emitter\":{\"position\":[1.2,0.7,0.3],"
             "\"direction\":[0,-1,0],\"radius\":0.05,\"speed\":1,\"rate\":100}}", world);
    cJSON *ack = expect_ack(p, msg);
    const double emitter = jnum(ack, "applied.emitter.id");
    cJSON_Delete(ack);
    snprintf(msg, sizeof msg, "{\"type\":\"collider_add\",\"world\":%d,\"collider\":{\"shape\":\"sphere\","
             "\"position\":[1.0,0.15,0.3],\"radius\":0.08,\"temperature\":330}}", world);
    ack = expect_ack(p, msg);
    const double sphere = jnum(ack, "applied.collider.id");
    cJSON_Delete(ack);
    snprintf(msg, sizeof msg, "{\"type\":\"walls_update\",\"world\":%d,\"walls\":{\"x_max\":{\"temperature\":320}}}", world);
    cJSON_Delete(expect_ack(p, msg));
    sleep_ms(600); /* a checkpoint after a change waits a quarter of a second after the last one */
    cJSON *edited = state_after(p, world, changed_at + 0.02);
    cJSON_Delete(edited);

    const char *values = "{\"time_step\":0.02,\"viscosity\":0,\"adaptive_time_step\":false}";
    snprintf(msg, sizeof msg, "{\"type\":\"set\",\"world\":%d,\"values\":%s}", world, values);
    cJSON_Delete(expect_ack(p, msg));
    cJSON *event = peer_wait_type(p, "unstable", 60000);
    CHECK(event && jnum(event, "rewind_to") >= changed_at && jnum(event, "rewind_to") < jnum(event, "time"),
          "the blow-up %g s after the edits at %g s rewinds to the checkpoint after them: %s",
          jnum(event, "time") - changed_at, changed_at, jtext(event));
    snprintf(msg, sizeof msg, "{\"type\":\"rewind\",\"world\":%d}", world);
    ack = expect_ack(p, msg);
    check_objects_report(ack, 0, "rewind after edits");
    check_values_kept("rewind after edits", values, ack);
    cJSON *rewound = state_rewound_to(p, jnum(ack, "applied.time"));
    cJSON_Delete(ack);
    CHECK(state_has_object(rewound, "emitters", emitter) && state_has_object(rewound, "colliders", sphere) &&
              jnum(rewound, "walls.x_max.temperature") == 320,
          "the rewound world has the emitter %g, the sphere %g and the warm wall added before the blow-up: %s", emitter,
          sphere, jtext(rewound));
    cJSON_Delete(rewound);
    cJSON_Delete(event);

    /* the fixed step still set blows it up again; the user removes the emitter while it waits */
    snprintf(msg, sizeof msg, "{\"type\":\"resume\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
    event = peer_wait_type(p, "unstable", 60000);
    CHECK(event != NULL, "the values kept blow the world up again");
    cJSON_Delete(event);
    snprintf(msg, sizeof msg, "{\"type\":\"emitter_remove\",\"world\":%d,\"emitter\":%.0f}", world, emitter);
    cJSON_Delete(expect_ack(p, msg));
    snprintf(msg, sizeof msg, "{\"type\":\"rewind\",\"world\":%d}", world);
    ack = expect_ack(p, msg);
    check_objects_report(ack, 1, "rewind after a removal while unstable");
    rewound = state_rewound_to(p, jnum(ack, "applied.time"));
    cJSON_Delete(ack);
    CHECK(rewound && !state_has_object(rewound, "emitters", emitter) && state_has_object(rewound, "colliders", sphere),
          "the emitter removed after the blow-up stays removed, the sphere stays: emitters %s", jtext(jget(rewound, "emitters")));
    CHECK(state_has_object(rewound, "colliders", sphere), "the sphere stays: colliders %s", jtext(jget(rewound, "colliders")));
    cJSON_Delete(rewound);
    snprintf(msg, sizeof msg, "{\"type\":\"close_world\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
}

/* rewind by seconds, and the errors of rewind: on world 1, the small tank at 4 cm (250 particles)
 * and a 1 ms step, so that it passes 2 s of simulated time quickly under sanitizers too. */
static void check_rewind_requests(peer *p)
{
    const int world = 1;
    char msg[200];
    cJSON_Delete(expect_ack(p, "{\"type\":\"reset\",\"world\":1,\"values\":{" COARSE ",\"time_step\":0.001}}"));
    cJSON_Delete(peer_subscribe(p, (uint32_t)world, ""));
    for (int64_t deadline = ws_now_ms() + 120000; ws_now_ms() < deadline;) { /* past 2.2 s of simulated time */
        cJSON *s = peer_fresh_state(p, (uint32_t)world);
        double t = jnum(s, "time");
        cJSON_Delete(s);
        if (t > 2.2) break;
        peer_pump(p, 300);
    }
    snprintf(msg, sizeof msg, "{\"type\":\"pause\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
    cJSON *paused = peer_fresh_state(p, (uint32_t)world);
    snprintf(msg, sizeof msg, "{\"type\":\"rewind\",\"world\":%d,\"seconds\":1}", world);
    cJSON *ack = expect_ack(p, msg);
    double t = jnum(paused, "time"), to = jnum(ack, "applied.time");
    CHECK(to <= t - 1.0 && to >= t - 3.0 && fabs(to - floor(to + 0.5)) < 0.01 && jnum(ack, "applied.back") >= 1.0,
          "rewind 1 s from t = %g goes to the newest checkpoint at least 1 s back (a whole second): %s", t, jtext(ack));
    cJSON_Delete(ack);
    cJSON_Delete(paused);
    snprintf(msg, sizeof msg, "{\"type\":\"rewind\",\"world\":%d,\"seconds\":-1}", world);
    expect_error(p, msg, "bad_value", "seconds");
    expect_error(p, "{\"type\":\"rewind\",\"world\":999}", "unknown_world", "world");
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--threads", "1", "--fast",
                          NULL) !=
        0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_stability");
    }
    peer p;
    if (expect_hello(&p, server.port, "stability", NULL, "control") == 0) {
        /* the adaptive step (the default) holds all but the last; fixed steps blow up */
        check_blow_up(&p, "a fixed time_step 0.02 with viscosity 0",
                      "{\"time_step\":0.02,\"viscosity\":0,\"adaptive_time_step\":false}", "time_step");
        check_blow_up(&p, "speed_of_sound at its maximum with a fixed step",
                      "{\"speed_of_sound\":1000,\"adaptive_time_step\":false}", "speed_of_sound");
        check_blow_up(&p, "stiffness at its maximum with a fixed step",
                      "{\"equation_of_state\":\"linear\",\"stiffness\":1000000,\"adaptive_time_step\":false}", "stiffness");
        check_blow_up(&p, "gravity 100", "{\"gravity_y\":100}", "gravity");
        check_rebuild_plays(&p);
        check_rewind_keeps_changes(&p);
        check_rewind_requests(&p);
        char *metrics = metrics_fetch(server.port);
        CHECK(metric_or(metrics, "fluidcast_worlds_unstable_total", 0) == 7, "/metrics counts the 7 blow-ups");
        free(metrics);
    }
    peer_close(&p);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_stability");
}
