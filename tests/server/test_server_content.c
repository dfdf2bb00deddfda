/* Server over real sockets: a world's content. load_scene takes the scene's solver and parameters
 * (reset keeps the world's), uploaded scene documents, collider_add / collider_remove, and pick
 * (also by watchers). */
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

static int state_shows_pool(const cJSON *state, const void *ctx)
{
    (void)ctx;
    return jstr_is(state, "scene", "my_pool");
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
    /* a world not named by create_world takes the loaded scene's name */
    CHECK(jstr_is(p->state, "name", "dam_break_pbf"), "the world's name follows the loaded scene: %s", jtext(p->state));
    expect_solver(p, "{\"type\":\"reset\",\"world\":1}", "pbf", 0.002);
    /* a PBF world loads the SPH dam break: SPH at its default 0.5 ms */
    expect_solver(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break\"}", "sph", 0.0005);
    /* an explicit solver wins, with its own step (the scene's 0.5 ms is 4x off PBF's 2 ms), and reset
     * rebuilds with it: it is how the world was loaded */
    expect_solver(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break\",\"solver\":\"pbf\"}", "pbf", 0.002);
    expect_solver(p, "{\"type\":\"reset\",\"world\":1}", "pbf", 0.002);
    cJSON_Delete(ack_of(p, "{\"type\":\"set_solver\",\"world\":1,\"solver\":\"sph\"}"));
    expect_solver(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break_pbf\"}", "pbf", 0.002);
    /* reset to scene undoes a set_solver as it undoes a set: the scene's PBF again */
    cJSON_Delete(ack_of(p, "{\"type\":\"set_solver\",\"world\":1,\"solver\":\"sph\"}"));
    expect_solver(p, "{\"type\":\"reset\",\"world\":1}", "pbf", 0.002);
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
    /* the world ran dam_break_pbf (pbf, 2 ms) before: a state of that one, held back by the burst
     * limit, may come after `since`; wait for the pool's */
    cJSON *state = peer_state_where(p, since, state_shows_pool, NULL, PEER_TIMEOUT_MS);
    CHECK(state && state_runs(state, &(solver_at){"pbf", 0.002}) && jnum(state, "particles") == particles,
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

/* ---- collider_add and collider_remove --------------------------------------------------------- */

/* The state's colliders hold (present 1) or lack (present 0) the id. */
typedef struct {
    double id;
    int present;
} collider_seen;

static int state_collider(const cJSON *state, const void *ctx)
{
    const collider_seen *want = ctx;
    int found = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, jget(state, "colliders")) found |= jnum(c, "id") == want->id;
    return cJSON_IsArray(jget(state, "colliders")) && found == want->present;
}

/* CHECKs that a state after `since` shows (or no longer shows) the collider. */
static void expect_collider_in_state(peer *p, long since, double id, int present)
{
    collider_seen want = {id, present};
    cJSON *s = peer_state_where(p, since, state_collider, &want, PEER_TIMEOUT_MS);
    CHECK(s != NULL, "a state %s collider %g (latest: %s)", present ? "lists" : "no longer lists", id, jtext(p->state));
    cJSON_Delete(s);
}

/* collider_add of json (the "collider" object); returns the new id (0 when refused). */
static double add_collider(peer *p, const char *collider)
{
    char msg[512];
    snprintf(msg, sizeof msg, "{\"type\":\"collider_add\",\"world\":1,\"collider\":%s}", collider);
    cJSON *ack = ack_of(p, msg);
    double id = jnum(ack, "applied.collider.id");
    cJSON_Delete(ack);
    return isnan(id) ? 0 : id;
}

static void expect_collider_refused(peer *p, const char *collider, const char *code, const char *field, const char *part)
{
    char msg[512];
    snprintf(msg, sizeof msg, "{\"type\":\"collider_add\",\"world\":1,\"collider\":%s}", collider);
    sleep_ms(12);
    cJSON *r = peer_request(p, msg, PEER_TIMEOUT_MS);
    CHECK(is_error(r, code, field) && jstr_has(r, "message", part), "%s: %s on %s saying '%s', got %s", collider, code,
          field ? field : "null", part, jtext(r));
    cJSON_Delete(r);
}

static void remove_collider(peer *p, double id)
{
    char msg[160];
    snprintf(msg, sizeof msg, "{\"type\":\"collider_remove\",\"world\":1,\"collider\":%.0f}", id);
    cJSON *ack = ack_of(p, msg);
    CHECK(jnum(ack, "applied.collider") == id, "collider_remove %g: applied.collider is the id: %s", id, jtext(ack));
    cJSON_Delete(ack);
}

/* pick at (x, y, z) in world 1: the ack. */
static cJSON *pick(peer *p, double x, double y, double z)
{
    char msg[200];
    snprintf(msg, sizeof msg, "{\"type\":\"pick\",\"world\":1,\"position\":[%.9g,%.9g,%.9g]}", x, y, z);
    return ack_of(p, msg);
}

static void check_colliders(peer *p)
{
    /* a 0.6 x 0.4 x 0.3 m pool with a sphere (id 1) and a floor plane (id 2) from the scene */
    cJSON_Delete(ack_of(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":{\"name\":\"colliders\"," POOL_DOMAIN ","
                           "\"fluid\":[{\"type\":\"box\",\"min\":[0,0,0],\"max\":[0.3,0.1,0.3]}],\"colliders\":["
                           "{\"type\":\"sphere\",\"center\":[0.45,0.1,0.15],\"radius\":0.05},"
                           "{\"type\":\"plane\",\"point\":[0,0.01,0],\"normal\":[0,1,0]}]}}"));
    long since = p->states;
    sleep_ms(12);
    cJSON *ack = expect_ack(p, "{\"type\":\"collider_add\",\"world\":1,\"collider\":{\"shape\":\"sphere\","
                               "\"position\":[0.3,0.3,0.15],\"radius\":0.05}}");
    cJSON *want = cJSON_Parse("{\"id\":3,\"shape\":\"sphere\",\"position\":[0.3,0.3,0.15],\"radius\":0.05}");
    CHECK(cJSON_Compare(jget(ack, "applied.collider"), want, 1), "collider_add: applied.collider is %s: %s", jtext(want),
          jtext(ack));
    cJSON_Delete(want);
    cJSON_Delete(ack);
    expect_collider_in_state(p, since, 3, 1);
    ack = ack_of(p, "{\"type\":\"collider_add\",\"world\":1,\"collider\":{\"shape\":\"box\",\"position\":[0.5,0.2,0.15],"
                    "\"half_extents\":[0.05,0.1,0.05]}}");
    want = cJSON_Parse("{\"id\":4,\"shape\":\"box\",\"position\":[0.5,0.2,0.15],\"half_extents\":[0.05,0.1,0.05]}");
    CHECK(cJSON_Compare(jget(ack, "applied.collider"), want, 1), "a box: applied.collider is %s: %s", jtext(want), jtext(ack));
    cJSON_Delete(want);
    cJSON_Delete(ack);
    /* an added collider moves like the scene's */
    ack = ack_of(p, "{\"type\":\"collider_move\",\"world\":1,\"collider\":3,\"position\":[0.25,0.3,0.15]}");
    CHECK(jnum(ack, "applied.collider") == 3, "collider_move moves the added sphere: %s", jtext(ack));
    cJSON_Delete(ack);

    /* refused: outside the domain, reaching beyond it, the wrong size field, planes and unknown ids */
    expect_collider_refused(p, "{\"shape\":\"sphere\",\"position\":[0.3,0.5,0.15],\"radius\":0.05}", "bad_value",
                            "collider.position", "inside the domain");
    expect_collider_refused(p, "{\"shape\":\"sphere\",\"position\":[0.3,0.2,0.15],\"radius\":0.2}", "bad_value",
                            "collider.radius", "inside the domain");
    expect_collider_refused(p, "{\"shape\":\"box\",\"position\":[0.3,0.2,0.15],\"half_extents\":[0.1,0.1,0.2]}",
                            "bad_value", "collider.half_extents", "on z it reaches");
    expect_collider_refused(p, "{\"shape\":\"sphere\",\"position\":[0.3,0.2,0.15],\"radius\":0.05,"
                               "\"half_extents\":[0.1,0.1,0.1]}",
                            "bad_value", "collider.half_extents", "radius only");
    expect_collider_refused(p, "{\"shape\":\"box\",\"position\":[0.3,0.2,0.15]}", "missing_field", "collider.half_extents",
                            "required");
    sleep_ms(12);
    expect_error(p, "{\"type\":\"collider_remove\",\"world\":1,\"collider\":2}", "unknown_collider", "collider");
    sleep_ms(12);
    expect_error(p, "{\"type\":\"collider_remove\",\"world\":1,\"collider\":99}", "unknown_collider", "collider");

    /* at most 16 spheres and boxes: 3 now, 13 more fit, the 17th is over_budget */
    double ids[13];
    for (int i = 0; i < 13; i++) {
        char c[160];
        snprintf(c, sizeof c, "{\"shape\":\"sphere\",\"position\":[%g,0.35,0.15],\"radius\":0.02}", 0.03 + 0.04 * i);
        ids[i] = add_collider(p, c);
    }
    CHECK(ids[12] == 17, "13 more colliders are added (the last has id 17: %g)", ids[12]);
    expect_collider_refused(p, "{\"shape\":\"sphere\",\"position\":[0.3,0.3,0.15],\"radius\":0.02}", "over_budget", NULL,
                            "at most 16");
    for (int i = 0; i < 13; i++) remove_collider(p, ids[i]);

    /* removing the scene's sphere and the added ones */
    since = p->states;
    remove_collider(p, 1);
    remove_collider(p, 4);
    expect_collider_in_state(p, since, 4, 0);
    expect_collider_in_state(p, since, 1, 0);
    /* a collider added inside the fluid takes its place (the particles there go, as a scene's cut
     * away), and the world steps on without blowing up */
    peer_pump(p, 1100); /* the states held back by the burst limit */
    cJSON *before = peer_fresh_state(p, 1);
    ack = ack_of(p, "{\"type\":\"collider_add\",\"world\":1,\"collider\":{\"shape\":\"sphere\","
                    "\"position\":[0.15,0.05,0.15],\"radius\":0.05}}");
    double inside = jnum(ack, "applied.collider.id");
    cJSON_Delete(ack);
    ack = ack_of(p, "{\"type\":\"step\",\"world\":1,\"frames\":10}");
    cJSON_Delete(ack);
    cJSON *near = pick(p, 0.15, 0.05, 0.15);
    const cJSON *np = jget(near, "applied.particle.position");
    double dx = cJSON_GetArrayItem(np, 0) ? cJSON_GetArrayItem(np, 0)->valuedouble - 0.15 : NAN;
    double dy = cJSON_GetArrayItem(np, 1) ? cJSON_GetArrayItem(np, 1)->valuedouble - 0.05 : NAN;
    double dz = cJSON_GetArrayItem(np, 2) ? cJSON_GetArrayItem(np, 2)->valuedouble - 0.15 : NAN;
    double r = sqrt(dx * dx + dy * dy + dz * dz);
    CHECK(inside > 0 && r > 0.05, "after collider_add inside the fluid no particle is in the sphere (nearest at %g m): %s", r,
          jtext(near));
    cJSON_Delete(near);
    peer_pump(p, 1100); /* the states held back by the burst limit */
    cJSON *after = peer_fresh_state(p, 1);
    CHECK(before && after && jnum(after, "particles") < jnum(before, "particles") && cJSON_IsNull(jget(after, "unstable")) &&
              jnum(after, "step") > jnum(before, "step"),
          "the fluid where the sphere appeared went (%g -> %g particles) and the world steps on, stable: %s",
          jnum(before, "particles"), jnum(after, "particles"), jtext(jget(after, "unstable")));
    cJSON_Delete(after);
    cJSON_Delete(before);

    /* rewind puts the colliders of its checkpoint (the scene's, at t = 0: the oldest, as none is a
     * million seconds old) back, and its ack names them */
    since = p->states;
    ack = ack_of(p, "{\"type\":\"rewind\",\"world\":1,\"seconds\":1000000}");
    int removed3 = 0, restored1 = 0;
    const cJSON *id;
    cJSON_ArrayForEach(id, jget(ack, "applied.objects.removed")) removed3 |= id->valuedouble == 3;
    cJSON_ArrayForEach(id, jget(ack, "applied.objects.restored")) restored1 |= id->valuedouble == 1;
    CHECK(jnum(ack, "applied.time") == 0 && removed3 && restored1,
          "the rewind to t = 0 says it removed collider 3 and restored collider 1: %s", jtext(ack));
    cJSON_Delete(ack);
    expect_collider_in_state(p, since, 1, 1);
    expect_collider_in_state(p, since, 3, 0);

    /* the budget (400 k particles): a 0.6 m container at 4 mm spacing has about 280 k boundary
     * samples; a box filling it would add 245 k more */
    cJSON_Delete(ack_of(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":{\"domain\":{\"min\":[0,0,0],"
                           "\"max\":[0.6,0.6,0.6]},\"parameters\":{\"particle_spacing\":0.004,\"smoothing_radius\":0.008}}}"));
    expect_collider_refused(p, "{\"shape\":\"box\",\"position\":[0.3,0.3,0.3],\"half_extents\":[0.29,0.29,0.29]}",
                            "over_budget", "collider.half_extents", "boundary particles");
    double small = add_collider(p, "{\"shape\":\"sphere\",\"position\":[0.3,0.3,0.3],\"radius\":0.05}");
    CHECK(small > 0, "a small sphere fits the budget");
}

/* ---- pick ----------------------------------------------------------------------------------- */


static void check_pick(peer *p)
{
    /* an empty world has nothing to pick */
    cJSON_Delete(ack_of(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":{" POOL_DOMAIN "}}"));
    cJSON *ack = pick(p, 0.1, 0.1, 0.1);
    CHECK(cJSON_IsNull(jget(ack, "applied.particle")), "pick in an empty world gives null: %s", jtext(ack));
    cJSON_Delete(ack);

    /* a block at rest, stepped one frame so that densities are computed, then paused */
    cJSON_Delete(ack_of(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":{" POOL_DOMAIN ","
                           "\"fluid\":[{\"type\":\"box\",\"min\":[0,0,0],\"max\":[0.3,0.2,0.3]}]}}"));
    cJSON_Delete(ack_of(p, "{\"type\":\"step\",\"world\":1,\"frames\":1}"));
    ack = pick(p, 0.15, 0.1, 0.15);
    const cJSON *first = jget(ack, "applied.particle");
    double id = jnum(first, "id");
    const cJSON *pos = jget(first, "position");
    double px = cJSON_GetArrayItem(pos, 0) ? cJSON_GetArrayItem(pos, 0)->valuedouble : NAN;
    double py = cJSON_GetArrayItem(pos, 1) ? cJSON_GetArrayItem(pos, 1)->valuedouble : NAN;
    double pz = cJSON_GetArrayItem(pos, 2) ? cJSON_GetArrayItem(pos, 2)->valuedouble : NAN;
    double d = sqrt((px - 0.15) * (px - 0.15) + (py - 0.1) * (py - 0.1) + (pz - 0.15) * (pz - 0.15));
    CHECK(cJSON_IsObject(first) && d < 0.02, "pick inside the block finds a particle within a spacing: %s", jtext(ack));
    /* picking at that particle's own position gives it again, with its velocity and density */
    cJSON *again = pick(p, px, py, pz);
    const cJSON *q = jget(again, "applied.particle");
    const cJSON *v = jget(q, "velocity");
    double speed = jnum(q, "speed"), density = jnum(q, "density");
    CHECK(jnum(q, "id") == id && jnum(q, "fluid") == 0 && fabs(jnum(q, "temperature") - 293.15) < 1e-3 &&
              cJSON_GetArraySize(v) == 3 && isfinite(speed) && speed < 0.5,
          "pick at particle %g's position returns it, with a finite velocity: %s", id, jtext(again));
    CHECK(fabs(density - 1000.0) < 50.0, "its density is near the rest density 1000 kg/m^3: %g", density);
    cJSON_Delete(again);
    cJSON_Delete(ack);

    /* a world answers at most 20 picks a second */
    sleep_ms(1100);
    for (int i = 0; i < 25; i++) {
        sleep_ms(12);
        peer_send(p, "{\"type\":\"pick\",\"id\":\"burst\",\"world\":1,\"position\":[0.1,0.1,0.1]}");
    }
    int acks = 0, refused = 0;
    for (int replies = 0; replies < 25;) {
        cJSON *r = peer_next_text(p, PEER_TIMEOUT_MS);
        if (!r) break;
        if (jstr_is(r, "id", "burst")) {
            replies++;
            acks += jtype_is(r, "ack");
            refused += is_error(r, "over_budget", NULL);
        }
        cJSON_Delete(r);
    }
    CHECK(acks == 20 && refused == 5, "of 25 picks within a second 20 are answered and 5 refused: %d, %d", acks, refused);
}

/* With --token a watcher may pick but not add or remove colliders (forbidden). */
static void check_watcher_roles(void)
{
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--token", "s3cret",
                          NULL) != 0) {
        CHECK(0, "the server with a token starts");
        return;
    }
    peer w;
    if (expect_hello(&w, server.port, "watcher", NULL, "watch") == 0) {
        cJSON *ack = pick(&w, 0.1, 0.1, 0.1);
        CHECK(cJSON_IsObject(jget(ack, "applied.particle")), "a watcher picks a particle: %s", jtext(ack));
        cJSON_Delete(ack);
        sleep_ms(12);
        expect_error(&w, "{\"type\":\"collider_add\",\"world\":1,\"collider\":{\"shape\":\"sphere\","
                         "\"position\":[0.3,0.3,0.2],\"radius\":0.05}}",
                     "forbidden", NULL);
        sleep_ms(12);
        expect_error(&w, "{\"type\":\"collider_remove\",\"world\":1,\"collider\":1}", "forbidden", NULL);
        sleep_ms(12);
        expect_error(&w, "{\"type\":\"pick\",\"world\":7,\"position\":[0,0,0]}", "unknown_world", "world");
    }
    peer_close(&w);
    CHECK(test_server_stop(&server) == 0, "the server with a token exits 0");
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
        check_colliders(&p);
        check_pick(&p);
    }
    peer_close(&p);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    check_watcher_roles();
    return check_summary("test_server_content");
}
