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

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_content");
    }
    peer p;
    if (expect_hello(&p, server.port, "content", NULL, "control") == 0) {
        cJSON_Delete(peer_subscribe(&p, 1, ""));
        cJSON_Delete(ack_of(&p, "{\"type\":\"pause\",\"world\":1}"));
        check_load_scene_solver(&p);
    }
    peer_close(&p);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_content");
}
