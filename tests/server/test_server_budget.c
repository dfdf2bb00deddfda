/* Server over real sockets: the particle budget (--max-particles). Requests that would need more
 * than the budget, with values inside every parameter's range, are refused with over_budget before
 * anything is built, and the world they named keeps stepping unchanged; emitters are bounded. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

#define BUDGET 200000

static test_env env;

/* Sends json; CHECKs an over_budget error on field (NULL: null) whose message says part. */
static void expect_over_budget(peer *p, const char *json, const char *field, const char *part)
{
    cJSON *r = peer_request(p, json, PEER_TIMEOUT_MS);
    CHECK(is_error(r, "over_budget", field) && jstr_has(r, "message", part), "%s: over_budget (%s) saying '%s', got %s",
          json, field ? field : "null", part, jtext(r));
    cJSON_Delete(r);
}

/* After refused requests world 1 has its particles, values and epoch, and steps on. */
static void check_world_unchanged(peer *p, const cJSON *before, const char *after_what)
{
    peer_pump(p, 1200); /* a running world sends its state every second */
    cJSON *after = peer_fresh_state(p, 1);
    CHECK(after && jnum(after, "particles") == jnum(before, "particles") && jnum(after, "epoch") == jnum(before, "epoch") &&
              cJSON_Compare(jget(after, "values"), jget(before, "values"), 1),
          "after %s world 1 has its %g particles, epoch and values: %s", after_what, jnum(before, "particles"), jtext(after));
    CHECK(after && jnum(after, "time") > jnum(before, "time") && cJSON_IsFalse(jget(after, "paused")),
          "after %s world 1 steps on (time %g -> %g)", after_what, jnum(before, "time"), jnum(after, "time"));
    cJSON_Delete(after);
}

static void check_builds_refused(peer *p)
{
    cJSON *before = peer_fresh_state(p, 1);
    CHECK(before != NULL, "a state of world 1");
    /* a client cannot raise the cap above the server's budget */
    expect_over_budget(p, "{\"type\":\"reset\",\"world\":1,\"values\":{\"particle_spacing\":0.001,\"smoothing_radius\":0.002,"
                          "\"max_particles\":50000000}}",
                       "values.max_particles", "budget of 200 k particles");
    expect_over_budget(p, "{\"type\":\"set\",\"world\":1,\"values\":{\"max_particles\":300000}}", "values.max_particles",
                       "--max-particles");
    /* fine spacing: 270 k fluid particles and their boundary, estimated before building */
    expect_over_budget(p, "{\"type\":\"reset\",\"world\":1,\"values\":{\"particle_spacing\":0.004,\"smoothing_radius\":0.008}}",
                       NULL, "would take about");
    expect_over_budget(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break\",\"values\":{\"particle_spacing\":0.008,"
                          "\"smoothing_radius\":0.016}}",
                       NULL, "boundary particles");
    check_world_unchanged(p, before, "refused resets and loads");
    expect_over_budget(p, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"values\":{\"particle_spacing\":0.008,"
                          "\"smoothing_radius\":0.016}}",
                       NULL, "free of the server's 200 k particles");
    cJSON *worlds = peer_request(p, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
    CHECK(cJSON_GetArraySize(jget(worlds, "worlds")) == 1, "the refused world was never added: %s", jtext(worlds));
    cJSON_Delete(worlds);
    /* what fits is built: a coarser reset, then the scene's own */
    cJSON *ack = expect_ack(p, "{\"type\":\"reset\",\"world\":1,\"values\":{\"particle_spacing\":0.03,\"smoothing_radius\":0.06}}");
    CHECK(jnum(ack, "applied.particles") > 0 && jnum(ack, "applied.particles") < jnum(before, "particles"),
          "a reset within the budget is built (%g particles): %s", jnum(ack, "applied.particles"), jtext(ack));
    cJSON_Delete(ack);
    cJSON_Delete(expect_ack(p, "{\"type\":\"reset\",\"world\":1}"));
    cJSON_Delete(before);
}

/* Step time grows with PBF's iterations and the neighbours per particle: three messages that would
 * make steps seconds long (the solver switch, a smoothing radius of 4 spacings, 100 iterations) are
 * refused by the budget before they take effect. */
static void check_step_work_refused(peer *p)
{
    cJSON *ack = expect_ack(p, "{\"type\":\"set_solver\",\"world\":1,\"solver\":\"pbf\"}");
    CHECK(jnum(ack, "applied.time_step") == 0.002 && jstr_has(ack, "applied.note", "0.002 s"),
          "the switch to pbf takes PBF's 2 ms step in place of SPH's 0.5 ms and says so: %s", jtext(ack));
    cJSON_Delete(ack);
    cJSON *before = peer_fresh_state(p, 1);
    expect_over_budget(p, "{\"type\":\"set\",\"world\":1,\"values\":{\"solver_iterations\":100}}", "values",
                       "iterations");
    expect_over_budget(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break\",\"solver\":\"pbf\",\"values\":"
                          "{\"particle_spacing\":0.04,\"smoothing_ratio\":4,\"solver_iterations\":20}}",
                       NULL, "times as much per particle");
    check_world_unchanged(p, before, "refused iterations and neighbours");
    cJSON_Delete(before);
    cJSON_Delete(expect_ack(p, "{\"type\":\"set_solver\",\"world\":1,\"solver\":\"sph\"}"));
}

static int no_emitters(const cJSON *state, const void *ctx)
{
    (void)ctx;
    return cJSON_IsArray(jget(state, "emitters")) && cJSON_GetArraySize(jget(state, "emitters")) == 0;
}

static void check_emitters_bounded(peer *p)
{
    cJSON *before = peer_fresh_state(p, 1);
    /* the domain is 0.6 x 0.5 x 0.4 m: a radius of at most 0.3 m */
    expect_error(p, "{\"type\":\"emitter_add\",\"world\":1,\"emitter\":{\"position\":[0.3,0.4,0.2],\"direction\":[0,-1,0],"
                    "\"radius\":10,\"speed\":100,\"rate\":10000000}}",
                 "bad_value", "emitter.radius");
    expect_over_budget(p, "{\"type\":\"emitter_add\",\"world\":1,\"emitter\":{\"position\":[0.3,0.4,0.2],\"direction\":[0,-1,0],"
                          "\"radius\":0.05,\"speed\":1,\"rate\":10000000}}",
                       "emitter.rate", "at most 200000");
    int first = 0, last = 0;
    for (int i = 0; i < 64; i++) {
        sleep_ms(12); /* within 100 messages a second */
        cJSON *r = expect_ack(p, "{\"type\":\"emitter_add\",\"world\":1,\"emitter\":{\"position\":[0.3,0.4,0.2],"
                                 "\"direction\":[0,-1,0],\"radius\":0.02,\"speed\":1,\"rate\":0}}");
        last = (int)jnum(r, "applied.emitter.id");
        if (!first) first = last;
        cJSON_Delete(r);
    }
    expect_over_budget(p, "{\"type\":\"emitter_add\",\"world\":1,\"emitter\":{\"position\":[0.3,0.4,0.2],\"direction\":[0,-1,0],"
                          "\"radius\":0.02,\"speed\":1,\"rate\":0}}",
                       NULL, "at most 64 emitters");
    char msg[200];
    snprintf(msg, sizeof msg, "{\"type\":\"emitter_update\",\"world\":1,\"emitter\":%d,\"changes\":{\"rate\":5000000}}", last);
    expect_over_budget(p, msg, "changes.rate", "budget");
    long since = p->states;
    for (int id = first; id <= last; id++) {
        sleep_ms(12);
        snprintf(msg, sizeof msg, "{\"type\":\"emitter_remove\",\"world\":1,\"emitter\":%d}", id);
        cJSON_Delete(expect_ack(p, msg));
    }
    /* after a flood of requests the world's states come at most 4 a second: the one showing it */
    cJSON *after = peer_state_where(p, since, no_emitters, NULL, PEER_TIMEOUT_MS);
    CHECK(after && jnum(after, "particles") == jnum(before, "particles"),
          "the idle emitters are gone and emitted nothing: %s", jtext(after));
    cJSON_Delete(after);
    cJSON_Delete(before);
}

/* Sends json; CHECKs an error with code and field whose message says part. */
static void expect_error_saying(peer *p, const char *json, const char *code, const char *field, const char *part)
{
    cJSON *r = peer_request(p, json, PEER_TIMEOUT_MS);
    CHECK(is_error(r, code, field) && jstr_has(r, "message", part), "%s: %s on %s saying '%s', got %s", json, code, field, part,
          jtext(r));
    cJSON_Delete(r);
}

#define UPLOAD(extra) "{\"type\":\"load_scene\",\"world\":1,\"scene\":{\"domain\":{\"min\":[0,0,0],\"max\":[1,1,1]}," extra "}}"

/* Issue 40, as an independent client found it: a document's emitters and colliders meet the limits
 * of emitter_add and collider_add; values that a float turns into 0 are refused naming the field
 * sent; 64 copies of one cube are estimated as one; a reset refused for kind names it. */
static void check_issue_40(peer *p)
{
    static const char emitter[] = "\"emitters\":[{\"position\":[0.5,0.5,0.5],\"direction\":[0,1,0],\"rate\":5,\"radius\":0.04,";
    char json[64 * 80 + 512];
    snprintf(json, sizeof json, UPLOAD("%s\"speed\":101}]"), emitter);
    expect_error_saying(p, json, "bad_value", "scene.emitters[0].speed", "at most 100 (m/s), found 101");
    snprintf(json, sizeof json, UPLOAD("%s\"speed\":1e30}]"), emitter);
    expect_error_saying(p, json, "bad_value", "scene.emitters[0].speed", "found 1e+30");
    expect_error_saying(p, UPLOAD("\"colliders\":[{\"type\":\"box\",\"center\":[0.5,0.5,0.5],\"half_extents\":[0.1,0.1,0.1],"
                                  "\"rotation\":[0,3601,0]}]"),
                        "bad_value", "scene.colliders[0].rotation[1]", "at most 3600 (degrees), found 3601");
    expect_error_saying(p, UPLOAD("\"colliders\":[{\"type\":\"box\",\"center\":[0.5,0.5,0.5],\"half_extents\":[0.1,0.1,0.1],"
                                  "\"temperature\":1e-300}]"),
                        "bad_value", "scene.colliders[0].temperature", "which is 0 as a float");
    expect_error_saying(p, "{\"type\":\"collider_add\",\"world\":1,\"collider\":{\"shape\":\"sphere\",\"position\":[0.2,0.2,0.2],"
                           "\"radius\":1e-300}}",
                        "bad_value", "collider.radius", "which is 0 as a float");
    expect_error_saying(p, "{\"type\":\"collider_add\",\"world\":1,\"collider\":{\"shape\":\"sphere\",\"position\":[0.2,0.2,0.2],"
                           "\"radius\":0.05,\"temperature\":1e-300}}",
                        "bad_value", "collider.temperature", "which is 0 as a float");
    expect_error_saying(p, "{\"type\":\"emitter_add\",\"world\":1,\"emitter\":{\"position\":[0.2,0.2,0.2],\"direction\":[0,1,0],"
                           "\"speed\":1,\"radius\":0.02,\"temperature\":1e-300}}",
                        "bad_value", "emitter.temperature", "which is 0 as a float");
    expect_error_saying(p, "{\"type\":\"reset\",\"world\":1,\"values\":{\"temperature\":0}}", "bad_value", "values.temperature",
                        "expected a number > 0");

    /* 64 copies of a 0.9 m cube at 3 cm: 30^3 = 27,000 particles, within the budget */
    int used = snprintf(json, sizeof json, "{\"type\":\"load_scene\",\"world\":1,\"scene\":{\"domain\":{\"min\":[0,0,0],"
                                           "\"max\":[1,1,1]},\"parameters\":{\"particle_spacing\":0.03},\"fluid\":[");
    for (int i = 0; i < 64; i++)
        used += snprintf(json + used, sizeof json - (size_t)used, "%s{\"type\":\"box\",\"min\":[0.05,0.05,0.05],"
                         "\"max\":[0.95,0.95,0.95]}", i ? "," : "");
    snprintf(json + used, sizeof json - (size_t)used, "]}}");
    cJSON *ack = expect_ack(p, json);
    CHECK(jnum(ack, "applied.particles") == 27000.0, "64 copies of one cube build as one: %s", jtext(ack));
    cJSON_Delete(ack);

    /* air on, with an air fluid; a reset that makes it a liquid is refused on values.kind */
    cJSON_Delete(expect_ack(p, UPLOAD("\"parameters\":{\"particle_spacing\":0.05,\"air\":\"mueller2005\"},"
                                      "\"fluids\":[{\"name\":\"water\"},{\"name\":\"air\",\"kind\":\"air\"}],"
                                      "\"fluid\":[{\"type\":\"box\",\"min\":[0,0,0],\"max\":[1,0.3,1]}]")));
    expect_error_saying(p, "{\"type\":\"reset\",\"world\":1,\"values\":{\"kind\":\"liquid\"}}", "bad_value", "values.kind",
                        "needs a fluid of 'kind' air");
}
#undef UPLOAD

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--max-particles", "200000",
                          NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_budget");
    }
    peer p;
    if (expect_hello(&p, server.port, "budget", NULL, "control") == 0) {
        cJSON *w = peer_request(&p, "{\"type\":\"hello\",\"client\":\"budget\"}", PEER_TIMEOUT_MS);
        CHECK(jnum(w, "limits.max_particles") == BUDGET && jnum(w, "limits.max_emitters") == 64,
              "welcome.limits has max_particles %d and max_emitters 64: %s", BUDGET, jtext(jget(w, "limits")));
        cJSON_Delete(w);
        cJSON_Delete(peer_subscribe(&p, 1, ""));
        check_builds_refused(&p);
        check_step_work_refused(&p);
        check_emitters_bounded(&p);
        check_issue_40(&p);
    }
    peer_close(&p);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_budget");
}
