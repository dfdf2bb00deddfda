/* Server over real sockets: stats.realtime_factor, max_speed and density_error hold what the physics
 * says. Water at rest on a tank's floor stays within a few percent of its rest density and barely
 * moves; a collapsing block moves, but no faster than falling its height allows; a realtime world
 * never runs ahead of the wall clock, and its realtime factor is its step rate times its time step. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

static test_env env;

/* The next stats of world; NULL on timeout. */
static cJSON *next_stats(peer *p, int world)
{
    for (int64_t end = ws_now_ms() + PEER_TIMEOUT_MS; ws_now_ms() < end;) {
        cJSON *m = peer_wait_type(p, "stats", PEER_TIMEOUT_MS);
        if (!m || jnum(m, "world") == world) return m;
        cJSON_Delete(m);
    }
    return NULL;
}

/* Waits until a state of world says its simulated time reached t (up to timeout_ms). */
static int wait_time(peer *p, double t, int timeout_ms)
{
    for (int64_t end = ws_now_ms() + timeout_ms; ws_now_ms() < end;) {
        cJSON *m = peer_wait_type(p, "state", 2000);
        double now = jnum(m, "time");
        cJSON_Delete(m);
        if (now >= t) return 1;
    }
    return 0;
}

static int has_stats_fields(const cJSON *s)
{
    return cJSON_IsNumber(jget(s, "realtime_factor")) && cJSON_IsNumber(jget(s, "max_speed")) &&
           cJSON_IsNumber(jget(s, "density_error"));
}

/* 1 when the stats message's solver_stats has {"solver": solver, "name": name, "value": value}. */
static int solver_stat_matches(const cJSON *s, const char *solver, const char *name, double value)
{
    const cJSON *stat;
    cJSON_ArrayForEach(stat, cJSON_GetObjectItemCaseSensitive(s, "solver_stats"))
    {
        const cJSON *who = cJSON_GetObjectItemCaseSensitive(stat, "solver"), *what = cJSON_GetObjectItemCaseSensitive(stat, "name");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(stat, "value");
        if (cJSON_IsString(who) && strcmp(who->valuestring, solver) == 0 && cJSON_IsString(what) &&
            strcmp(what->valuestring, name) == 0)
            return cJSON_IsNumber(v) && v->valuedouble == value;
    }
    return 0;
}

/* rest_tank (world 1, --fast: as fast as it can): 0.1 m of water from wall to wall, dt 1 ms. The
 * lattice it starts from sloshes a little while it settles, about a second; the stats are read from
 * 2 s on, so that a slow machine (sanitizers, a busy CI) that reads them right after reaching that
 * time sees settled water too (at 1.2 s one splash still reached 0.56 m/s under ASan on a busy machine). */
static void check_at_rest(int port)
{
    peer p;
    if (expect_subscriber(&p, port, "rest", "") != 0) return;
    int settled = wait_time(&p, 2.0, 200000); /* ThreadSanitizer steps 1,100 particles 40 times a second */
    CHECK(settled, "the resting world reaches 2 s of simulated time");
    double worst_error = 0.0, worst_speed = 0.0;
    for (int i = 0; i < 4; i++) {
        cJSON *s = next_stats(&p, 1);
        CHECK(has_stats_fields(s), "stats has realtime_factor, max_speed and density_error: %s", jtext(s));
        worst_error = fmax(worst_error, jnum(s, "density_error"));
        CHECK(solver_stat_matches(s, "sph", "mean_abs_density_error", jnum(s, "density_error")),
              "solver_stats has sph's mean_abs_density_error, the density_error: %s", jtext(s));
        worst_speed = fmax(worst_speed, jnum(s, "max_speed"));
        double f = jnum(s, "realtime_factor"), rate = jnum(s, "steps_per_s"), dt = jnum(p.state, "values.time_step");
        CHECK(f > 0.0 && fabs(f - rate * dt) <= 0.05 * f, "realtime_factor %g = steps_per_s %g x time_step %g", f, rate, dt);
        cJSON_Delete(s);
    }
    /* a layer of 5 particles: its surface lacks neighbours above, which a mean over all of them sees */
    CHECK(worst_error < 0.03, "water at rest stays within 3%% of its rest density (density_error %g)", worst_error);
    /* max_speed is one particle's: a particle at a corner where two walls meet the surface keeps
     * circulating at 0.2-0.8 m/s in this settled layer (headless runs of rest_tank at time steps
     * 0.98-1.02 ms read 0.23-0.82 m/s after 2 s before issue 14's solver changes and 0.24-0.68 after;
     * the Akinci boundary's corner artifact, README "Physics notes"), so the bound is 1 m/s: below
     * the 1.4 m/s of falling the layer's depth, and far below a flow (the dam break's 2-3 m/s) */
    CHECK(worst_speed < 1.0, "water at rest barely moves: max_speed %g m/s, below the 1.4 m/s of falling its depth",
          worst_speed);

    sleep_ms(12);
    cJSON_Delete(expect_ack(&p, "{\"type\":\"pause\",\"world\":1}"));
    cJSON *s = next_stats(&p, 1);
    s = (cJSON_Delete(s), next_stats(&p, 1)); /* one taken after the pause */
    CHECK(jnum(s, "realtime_factor") == 0.0, "a paused world's realtime_factor is 0: %s", jtext(s));
    cJSON_Delete(s);
    sleep_ms(12);
    cJSON_Delete(expect_ack(&p, "{\"type\":\"resume\",\"world\":1}"));
    peer_close(&p);
}

/* A realtime dam break (world 2): 0.3 s into its collapse the 0.6 m column flows, no particle
 * faster than twice what falling 0.6 m gives (3.4 m/s: a jet up the far wall may outrun it); it
 * never runs ahead of the wall clock. */
static void check_collapse(int port)
{
    peer p;
    if (expect_hello(&p, port, "collapse", NULL, "control") != 0) return;
    sleep_ms(12);
    cJSON *ack = peer_request(&p, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"realtime\":true,"
                                  "\"values\":{\"particle_spacing\":0.04,\"smoothing_radius\":0.08}}",
                              PEER_TIMEOUT_MS);
    int world = (int)jnum(ack, "applied.world");
    CHECK(jtype_is(ack, "ack") && world == 2, "a dam break world is created: %s", jtext(ack));
    cJSON_Delete(ack);
    sleep_ms(12);
    cJSON_Delete(peer_subscribe(&p, 2, ""));
    CHECK(wait_time(&p, 0.3, 200000), "the dam break reaches 0.3 s of simulated time");
    double fastest = 0.0, worst_error = 0.0;
    for (int i = 0; i < 4; i++) {
        cJSON *s = next_stats(&p, 2);
        fastest = fmax(fastest, jnum(s, "max_speed"));
        worst_error = fmax(worst_error, jnum(s, "density_error"));
        double f = jnum(s, "realtime_factor"), rate = jnum(s, "steps_per_s");
        CHECK(f >= 0.0 && f <= 1.05, "a realtime world never runs ahead of the wall clock: realtime_factor %g", f);
        CHECK(fabs(f - rate * 5e-4) <= 0.05 * f + 1e-9, "realtime_factor %g = steps_per_s %g x 0.5 ms", f, rate);
        cJSON_Delete(s);
    }
    CHECK(fastest > 0.3 && fastest < 2.0 * sqrt(2.0 * 9.81 * 0.6),
          "a collapsing 0.6 m column flows (max_speed %g m/s), a jet off the wall at most twice as fast as falling its "
          "height (3.4 m/s)", fastest);
    /* the mean of |rho / rho0 - 1| also counts the neighbours a splash's surface particles lack */
    CHECK(worst_error > 0.0 && worst_error < 0.25, "its density_error stays below 25%% while it splashes (%g)", worst_error);
    peer_close(&p);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "rest_tank"), "--fast", NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_stats");
    }
    check_at_rest(server.port);
    check_collapse(server.port);
    CHECK(server_alive(&server), "the server is still running");
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_stats");
}
