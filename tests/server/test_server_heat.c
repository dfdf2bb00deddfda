/* Server over real sockets: heat and new emitters as a user meets them (issue 41). The heat
 * reproductions of heat_sources_2d (x_min at 5000 K with heat_transfer 1e5; at 1000 K with the
 * scene's heat transfer for 60 s) run stably with the adaptive step, or blow up with a cause that
 * names heat whose suggested values, applied as the viewer's one click does (rewind, set, resume),
 * run 10 s stably; a heat setting without heat conduction is answered with a note; "+ Emitter"
 * (emitter_add without a place or a rate) lands above the fluid with a 2D rate and says when the
 * closed tank is full. --short (the sanitizer builds): the 5000 K case only, 2 s after the fix. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

static test_env env;
static int short_run;

/* A new world of a shipped scene stepping as fast as it can; its id, 0 on failure. */
static int create_world(peer *p, const char *scene)
{
    char msg[200];
    snprintf(msg, sizeof msg, "{\"type\":\"create_world\",\"scene\":\"%s\",\"realtime\":false}", scene);
    cJSON *ack = expect_ack(p, msg);
    const int id = (int)jnum(ack, "applied.world");
    cJSON_Delete(ack);
    return id > 0 ? id : 0;
}

static void close_world(peer *p, int world)
{
    char msg[100];
    snprintf(msg, sizeof msg, "{\"type\":\"close_world\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
}

/* The world's state once it is past simulated time t or paused by a blow-up (a copy), NULL when
 * neither came within the wall-clock time. */
static cJSON *run_until(peer *p, int world, double t, int timeout_ms)
{
    for (int64_t deadline = ws_now_ms() + timeout_ms; ws_now_ms() < deadline; peer_pump(p, 250)) {
        cJSON *s = peer_fresh_state(p, (uint32_t)world);
        if (s && (jnum(s, "time") >= t || cJSON_IsObject(jget(s, "unstable")))) return s;
        cJSON_Delete(s);
    }
    return NULL;
}

/* Heats x_min of heat_sources_2d as `walls` says and runs `seconds`: stable, or a blow-up whose
 * cause names heat and whose suggestions, applied with a rewind, run `after` seconds stably. */
static void check_heat_case(peer *p, const char *what, const char *walls, double seconds, double after)
{
    const int world = create_world(p, "heat_sources_2d");
    if (!world) return;
    char msg[600];
    cJSON_Delete(peer_subscribe(p, (uint32_t)world, ""));
    snprintf(msg, sizeof msg, "{\"type\":\"walls_update\",\"world\":%d,\"walls\":%s}", world, walls);
    cJSON *ack = expect_ack(p, msg);
    CHECK(ack && !jget(ack, "applied.note"), "%s: heat conduction is on, so no note: %s", what, jtext(ack));
    cJSON_Delete(ack);
    const int64_t started = ws_now_ms();
    cJSON *s = run_until(p, world, seconds, 900000);
    CHECK(s != NULL, "%s: the world reaches %g s or blows up", what, seconds);
    const cJSON *unstable = jget(s, "unstable");
    if (s && !cJSON_IsObject(unstable)) {
        printf("%s: stable to %.3g s with the adaptive step (%.1f s of wall time)\n", what, jnum(s, "time"),
               1e-3 * (double)(ws_now_ms() - started));
    } else if (s) {
        printf("%s: blew up at %.3g s: %s\n  cause: %s\n", what, jnum(unstable, "time"), jstr(unstable, "message"),
               jstr(unstable, "cause"));
        CHECK(jstr_has(unstable, "cause", "heat") && jstr_has(unstable, "cause", "thermal_expansion"),
              "%s: the cause names heat and the term (thermal_expansion): %s", what, jstr(unstable, "cause"));
        const cJSON *suggested = jget(unstable, "suggested");
        CHECK(cJSON_IsObject(suggested) && suggested->child, "%s: values to set are suggested: %s", what, jtext(unstable));
        /* the viewer's one click: rewind, the suggested values, resume */
        snprintf(msg, sizeof msg, "{\"type\":\"rewind\",\"world\":%d}", world);
        cJSON *rewound = expect_ack(p, msg);
        const double from = jnum(rewound, "applied.time");
        cJSON_Delete(rewound);
        char *values = cJSON_PrintUnformatted(suggested);
        snprintf(msg, sizeof msg, "{\"type\":\"set\",\"world\":%d,\"values\":%s}", world, values ? values : "{}");
        free(values);
        cJSON_Delete(expect_ack(p, msg));
        snprintf(msg, sizeof msg, "{\"type\":\"resume\",\"world\":%d}", world);
        cJSON_Delete(expect_ack(p, msg));
        cJSON *later = run_until(p, world, from + after, 900000);
        CHECK(later && jnum(later, "time") >= from + after && cJSON_IsNull(jget(later, "unstable")),
              "%s: with the suggested values it runs %g s stably from %.3g s: %s", what, after, from, jtext(later));
        printf("%s: with %s it ran from %.3g s to %.3g s (%.1f s of wall time in all)\n", what, jtext(suggested), from,
               jnum(later, "time"), 1e-3 * (double)(ws_now_ms() - started));
        cJSON_Delete(later);
    }
    cJSON_Delete(s);
    close_world(p, world);
}

/* Heat settings where heat_conduction is none are kept and answered with a note saying how to turn
 * it on; with conduction on, no note. */
static void check_heat_off_notes(peer *p)
{
    const int world = create_world(p, "dam_break_2d");
    if (!world) return;
    char msg[400];
    snprintf(msg, sizeof msg, "{\"type\":\"walls_update\",\"world\":%d,\"walls\":{\"x_min\":{\"temperature\":400}}}", world);
    cJSON *ack = expect_ack(p, msg);
    CHECK(jnum(ack, "applied.walls.x_min.temperature") == 400 && jstr_has(ack, "applied.note", "heat conduction is off") &&
              jstr_has(ack, "applied.note", "heat_conduction"),
          "walls_update without conduction: kept, with a note naming heat_conduction: %s", jtext(ack));
    cJSON_Delete(ack);
    snprintf(msg, sizeof msg, "{\"type\":\"collider_add\",\"world\":%d,\"collider\":{\"shape\":\"sphere\",\"position\":[1.2,0.4,0],"
             "\"radius\":0.05,\"temperature\":350}}", world);
    ack = expect_ack(p, msg);
    const double id = jnum(ack, "applied.collider.id");
    CHECK(jnum(ack, "applied.collider.temperature") == 350 && jstr_has(ack, "applied.note", "heat conduction is off"),
          "collider_add with a temperature without conduction: a note: %s", jtext(ack));
    cJSON_Delete(ack);
    snprintf(msg, sizeof msg, "{\"type\":\"collider_update\",\"world\":%d,\"collider\":%.0f,\"changes\":{\"temperature\":360}}",
             world, id);
    ack = expect_ack(p, msg);
    CHECK(jstr_has(ack, "applied.note", "heat conduction is off"), "collider_update without conduction: a note: %s", jtext(ack));
    cJSON_Delete(ack);
    snprintf(msg, sizeof msg, "{\"type\":\"set\",\"world\":%d,\"values\":{\"heat_conduction\":\"cleary_monaghan\"}}", world);
    cJSON_Delete(expect_ack(p, msg));
    snprintf(msg, sizeof msg, "{\"type\":\"collider_update\",\"world\":%d,\"collider\":%.0f,\"changes\":{\"temperature\":370}}",
             world, id);
    ack = expect_ack(p, msg);
    CHECK(ack && !jget(ack, "applied.note"), "with conduction on, no note: %s", jtext(ack));
    cJSON_Delete(ack);
    snprintf(msg, sizeof msg, "{\"type\":\"collider_add\",\"world\":%d,\"collider\":{\"shape\":\"sphere\",\"position\":[1.2,0.4,0],"
             "\"radius\":0.05}}", world);
    ack = expect_ack(p, msg);
    CHECK(ack && !jget(ack, "applied.note"), "a collider without a temperature gets no note: %s", jtext(ack));
    cJSON_Delete(ack);
    close_world(p, world);
}

/* Component k of the vector at path, NAN when absent. */
static double jvec(const cJSON *o, const char *path, int k)
{
    const cJSON *v = cJSON_GetArrayItem(jget(o, path), k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* "+ Emitter" in heat_sources_2d (a closed 2D tank, 0.58 x 0.62 m, water to 0.57 m): the server
 * puts the nozzle in the free space above the water, aims it down, gives it the 2D rate 2 r v / s^2
 * and says when the tank is full, free area / (rate s^2). */
static void check_emitter_defaults(peer *p)
{
    const int world = create_world(p, "heat_sources_2d");
    if (!world) return;
    char msg[200];
    snprintf(msg, sizeof msg, "{\"type\":\"emitter_add\",\"world\":%d,\"emitter\":{}}", world);
    cJSON *ack = expect_ack(p, msg);
    const cJSON *e = jget(ack, "applied.emitter");
    const double s = 0.01, r = jnum(e, "radius"), v = jnum(e, "speed"), y = jvec(e, "position", 1);
    const double top = 0.57; /* the scene's water: its box reaches 0.57 m */
    CHECK(y > top && y < 0.62 && jvec(e, "direction", 1) == -1.0 && jvec(e, "direction", 0) == 0.0,
          "the nozzle is above the water's surface (%g m), below the lid, aimed down: %s", top, jtext(ack));
    CHECK(fabs(r - 2.5 * s) < 1e-6 && fabs(v - 1.5) < 1e-6 && fabs(jnum(e, "rate") - 2.0 * r * v / (s * s)) < 1.0,
          "radius 2.5 spacings, 1.5 m/s, the 2D rate 2 r v / s^2 = %g: %s", 2.0 * r * v / (s * s), jtext(ack));
    const double free_area = 0.58 * 0.62 - 3306 * s * s; /* the domain less its 3,306 particles */
    const double fills = free_area / (jnum(e, "rate") * s * s);
    CHECK(fabs(jnum(ack, "applied.fills_in") - fills) < 0.02 * fills && jstr_has(ack, "applied.note", "full in about"),
          "the ack says when the closed tank is full, about %.3g s: %s", fills, jtext(ack));
    cJSON_Delete(ack);
    snprintf(msg, sizeof msg, "{\"type\":\"emitter_add\",\"world\":%d,\"emitter\":{\"radius\":0}}", world);
    expect_error(p, msg, "bad_value", "emitter.radius");
    close_world(p, world);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    for (int i = 4; i < argc; i++) short_run |= strcmp(argv[i], "--short") == 0;
    const char *short_env = getenv("FC_SHORT_RUN");
    if (short_env && *short_env) short_run = 1;
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--threads", "1", "--fast",
                          NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_heat");
    }
    peer p;
    if (expect_hello(&p, server.port, "heat", NULL, "control") == 0) {
        check_heat_off_notes(&p);
        check_emitter_defaults(&p);
        check_heat_case(&p, "x_min at 5000 K, heat_transfer 1e5",
                        "{\"x_min\":{\"temperature\":5000,\"heat_transfer\":100000}}", short_run ? 3.0 : 10.0,
                        short_run ? 2.0 : 10.0);
        if (!short_run)
            check_heat_case(&p, "x_min at 1000 K, the scene's heat transfer", "{\"x_min\":{\"temperature\":1000}}", 60.0, 10.0);
    }
    peer_close(&p);
    const int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_heat");
}
