/* Server over real sockets: a world's content. load_scene takes the scene's solver and parameters
 * (reset keeps the world's), uploaded scene documents, collider_add / collider_remove, and pick. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

static test_env env;

/* The request's ack (expect_ack), after a pause within the server's 100 messages a second. */
static cJSON *ack_of(peer *p, const char *json)
{
    sleep_ms(12);
    return expect_ack(p, json);
}

typedef struct {
    const char *solver;
    double time_step;
} solver_at;

static int state_runs(const cJSON *state, const void *ctx)
{
    const solver_at *want = ctx;
    return jstr_is(state, "solver", want->solver) && fabs(jnum(state, "values.time_step") - want->time_step) < 1e-12;
}

/* load_scene (or reset) json: the ack's applied.solver and a state after it say `solver`, and the
 * state's time_step is `time_step`. */
static void expect_solver(peer *p, const char *json, const char *solver, double time_step)
{
    long since = p->states;
    cJSON *ack = ack_of(p, json);
    if (!strstr(json, "\"reset\""))
        CHECK(jstr_is(ack, "applied.solver", solver), "%s: applied.solver is %s: %s", json, solver, jtext(ack));
    solver_at want = {solver, time_step};
    cJSON *state = peer_state_where(p, since, state_runs, &want, PEER_TIMEOUT_MS);
    CHECK(state != NULL, "after %s a state shows the world running %s at time_step %g (latest: %s)", json, solver,
          time_step, jtext(p->state));
    cJSON_Delete(state);
    cJSON_Delete(ack);
}

/* ---- load_scene and the solver ------------------------------------------------------------- */

static void check_load_scene_solver(peer *p)
{
    /* an SPH world (small_tank) loads the PBF dam break: PBF at the scene's 2 ms step */
    expect_solver(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break_pbf\"}", "pbf", 0.002);
    expect_solver(p, "{\"type\":\"reset\",\"world\":1}", "pbf", 0.002);
    /* a PBF world loads the SPH dam break: SPH at its default 0.5 ms */
    expect_solver(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break\"}", "sph", 0.0005);
    /* an explicit solver wins; reset keeps the world's current solver, whatever the scene says */
    expect_solver(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break\",\"solver\":\"pbf\"}", "pbf", 0.0005);
    expect_solver(p, "{\"type\":\"reset\",\"world\":1}", "pbf", 0.0005);
    cJSON_Delete(ack_of(p, "{\"type\":\"set_solver\",\"world\":1,\"solver\":\"sph\"}"));
    expect_solver(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break_pbf\"}", "pbf", 0.002);
    cJSON_Delete(ack_of(p, "{\"type\":\"set_solver\",\"world\":1,\"solver\":\"sph\"}"));
    expect_solver(p, "{\"type\":\"reset\",\"world\":1}", "sph", 0.002);
    sleep_ms(12);
    expect_error(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break\",\"solver\":\"flip\"}", "unknown_solver",
                 "solver");
}

/* ---- uploaded scenes ------------------------------------------------------------------------ */

#define POOL_DOMAIN "\"domain\":{\"min\":[0,0,0],\"max\":[0.6,0.4,0.3]}"

/* load_scene with this document; CHECKs the error code and field, that the message says part,
 * and that world 1 kept its epoch and particles. */
static void expect_upload_refused(peer *p, const char *document, const char *code, const char *field, const char *part)
{
    cJSON *before = peer_fresh_state(p, 1);
    char msg[2048];
    snprintf(msg, sizeof msg, "{\"type\":\"load_scene\",\"world\":1,\"scene\":%s}", document);
    sleep_ms(12);
    cJSON *r = peer_request(p, msg, PEER_TIMEOUT_MS);
    CHECK(is_error(r, code, field) && jstr_has(r, "message", part), "%s: %s on %s saying '%s', got %s", document, code,
          field ? field : "null", part, jtext(r));
    cJSON_Delete(r);
    cJSON *after = peer_fresh_state(p, 1);
    CHECK(before && after && jnum(after, "epoch") == jnum(before, "epoch") &&
              jnum(after, "particles") == jnum(before, "particles") && jstr_is(after, "scene", jstr(before, "scene")),
          "a refused upload changes nothing: %s", jtext(after));
    cJSON_Delete(after);
    cJSON_Delete(before);
}

static void check_uploads(peer *p)
{
    /* a valid document builds with its own solver and parameters; reset rebuilds it */
    cJSON *ack = ack_of(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":{\"name\":\"my_pool\",\"solver\":\"pbf\","
                           POOL_DOMAIN ",\"parameters\":{\"time_step\":0.002,\"particle_spacing\":0.025,"
                           "\"smoothing_radius\":0.05},\"fluid\":[{\"type\":\"box\",\"min\":[0,0,0],\"max\":[0.3,0.2,0.3]}]}}");
    double particles = jnum(ack, "applied.particles");
    CHECK(jstr_is(ack, "applied.scene", "my_pool") && jstr_is(ack, "applied.solver", "pbf") && particles == 12 * 8 * 12,
          "the uploaded pool is built: scene my_pool, pbf, 1152 particles: %s", jtext(ack));
    cJSON_Delete(ack);
    long since = p->states;
    ack = ack_of(p, "{\"type\":\"reset\",\"world\":1}");
    CHECK(jstr_is(ack, "applied.scene", "my_pool") && jnum(ack, "applied.particles") == particles,
          "reset rebuilds the uploaded scene: %s", jtext(ack));
    cJSON_Delete(ack);
    solver_at pbf = {"pbf", 0.002};
    cJSON *state = peer_state_where(p, since, state_runs, &pbf, PEER_TIMEOUT_MS);
    CHECK(state && jstr_is(state, "scene", "my_pool") && jnum(state, "particles") == particles,
          "the state shows the uploaded scene: %s", jtext(state));
    cJSON_Delete(state);
    ack = ack_of(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":{" POOL_DOMAIN "}}");
    CHECK(jstr_is(ack, "applied.scene", "uploaded") && jstr_is(ack, "applied.solver", "sph") &&
              jnum(ack, "applied.particles") == 0,
          "a document without a name is 'uploaded', sph, empty: %s", jtext(ack));
    cJSON_Delete(ack);

    /* errors name the key path below "scene"; nothing changes (the state held back by the burst
     * limit goes out first) */
    peer_pump(p, 1100);
    expect_upload_refused(p, "{" POOL_DOMAIN ",\"fluid\":[{\"type\":\"box\",\"min\":[0,0],\"max\":[0.1,0.1,0.1]}]}",
                          "bad_value", "scene.fluid[0].min", "expected an array of 3 numbers");
    expect_upload_refused(p, "{" POOL_DOMAIN ",\"fluid\":[{\"type\":\"box\",\"min\":[0,0,0],\"max\":[0.1,0.1,0.1],"
                             "\"colour\":1}]}",
                          "bad_value", "scene.fluid[0].colour", "unknown key");
    expect_upload_refused(p, "{" POOL_DOMAIN ",\"colliders\":[{\"type\":\"sphere\",\"center\":[0.1,0.1,\"x\"],"
                             "\"radius\":0.1}]}",
                          "bad_value", "scene.colliders[0].center", "found the string");
    expect_upload_refused(p, "{" POOL_DOMAIN ",\"parameters\":{\"viscosity\":-1}}", "bad_value", "scene.parameters.viscosity",
                          "out of range");
    expect_upload_refused(p, "{\"name\":\"no_domain\"}", "bad_value", "scene.domain", "required");
    expect_upload_refused(p, "{" POOL_DOMAIN ",\"fluid\":[{\"type\":\"box\",\"min\":[0,0,0],\"max\":[0.7,0.1,0.1]}]}",
                          "bad_value", "scene.fluid[0]", "inside the domain");
    /* bounded as files are: 1 x 0.5 x 1 m at 1 cm is 500 k particles, over the 400 k budget */
    expect_upload_refused(p, "{\"domain\":{\"min\":[0,0,0],\"max\":[1,1,1]},\"parameters\":{\"particle_spacing\":0.01,"
                             "\"smoothing_radius\":0.02},\"fluid\":[{\"type\":\"box\",\"min\":[0,0,0],\"max\":[1,0.5,1]}]}",
                          "over_budget", NULL, "would take about 500 k fluid");
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--max-particles",
                          "400000", NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_content");
    }
    peer p;
    if (expect_hello(&p, server.port, "content", NULL, "control") == 0) {
        cJSON_Delete(peer_subscribe(&p, 1, ""));
        cJSON_Delete(ack_of(&p, "{\"type\":\"pause\",\"world\":1}"));
        check_load_scene_solver(&p);
        check_uploads(&p);
    }
    peer_close(&p);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_content");
}
