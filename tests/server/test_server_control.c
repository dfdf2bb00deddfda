/* Server over real sockets: controlling a world. set (accepted and rejected, all or nothing),
 * emitters, pause / step / resume, collider_move, reset, and the errors of unknown things. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

static test_env env;

/* The state that follows now (peer_fresh_state); CHECKs that one came. */
static cJSON *fresh_state(peer *p)
{
    cJSON *s = peer_fresh_state(p, 1);
    CHECK(s != NULL, "a fresh state of world 1");
    return s;
}

/* The state that shows a request's effect (peer_state_where since the count before the request). */
static cJSON *state_showing(peer *p, long since, state_test test, const void *ctx, const char *what)
{
    cJSON *s = peer_state_where(p, since, test, ctx, PEER_TIMEOUT_MS);
    CHECK(s != NULL, "a state shows %s", what);
    return s;
}

static int state_time_is(const cJSON *state, const void *time)
{
    return fabs(jnum(state, "time") - *(const double *)time) < 1e-9 && cJSON_IsTrue(jget(state, "paused"));
}

static int state_epoch_above(const cJSON *state, const void *epoch) { return jnum(state, "epoch") > *(const double *)epoch; }

/* ---- set ------------------------------------------------------------------------------------ */

/* set values (a JSON object): the ack's applied.values are those, and a state shows them. */
static void check_set(peer *p, const char *values)
{
    char msg[400];
    snprintf(msg, sizeof msg, "{\"type\":\"set\",\"world\":1,\"values\":%s}", values);
    long since = p->states;
    cJSON *ack = expect_ack(p, msg), *want = cJSON_Parse(values);
    CHECK(cJSON_Compare(jget(ack, "applied.values"), want, 1), "set: applied.values is %s: %s", values, jtext(ack));
    cJSON_Delete(state_showing(p, since, state_has_values, want, values));
    cJSON_Delete(want);
    cJSON_Delete(ack);
}

static void check_set_accepted(peer *p)
{
    check_set(p, "{\"viscosity\":0.5,\"equation_of_state\":\"linear\",\"clamp_negative_pressure\":false,\"gravity_y\":-4.5}");
    /* Linear pressure without the clamp tears the block apart within 0.1 s (the stability watch
     * pauses the world): rewind puts it back to its first checkpoint and keeps the values set (its
     * ack names them); the equation of state and the clamp set back, it runs on. */
    cJSON *ack = expect_ack(p, "{\"type\":\"rewind\",\"world\":1}");
    CHECK(jnum(ack, "applied.time") == 0 && cJSON_IsNumber(jget(ack, "applied.back")), "rewind goes back to t = 0: %s",
          jtext(ack));
    CHECK(jstr_is(ack, "applied.kept.equation_of_state", "linear") && cJSON_IsFalse(jget(ack, "applied.kept.clamp_negative_pressure")) &&
              jnum(ack, "applied.kept.gravity_y") == -4.5,
          "the rewind keeps the values set since the checkpoint: %s", jtext(ack));
    cJSON_Delete(ack);
    check_set(p, "{\"equation_of_state\":\"tait\",\"clamp_negative_pressure\":true}");
    cJSON_Delete(expect_ack(p, "{\"type\":\"resume\",\"world\":1}"));
    check_set(p, "{\"substeps\":10}");
}

/* Every request is rejected with its error and leaves the world's values as they were. */
static void check_set_rejected(peer *p)
{
    static const struct { const char *values, *code, *field; } bad[] = {
        {"{\"particle_spacing\":0.03}", "not_live", "values.particle_spacing"},
        {"{\"frobnicate\":1}", "unknown_parameter", "values.frobnicate"},
        {"{\"viscosity\":1000}", "bad_value", "values.viscosity"},
        {"{\"viscosity\":-1}", "bad_value", "values.viscosity"},
        {"{\"viscosity\":\"thick\"}", "bad_value", "values.viscosity"},
        {"{\"substeps\":2.5}", "bad_value", "values.substeps"},
        {"{\"clamp_negative_pressure\":1}", "bad_value", "values.clamp_negative_pressure"},
        {"{\"equation_of_state\":\"cubic\"}", "bad_value", "values.equation_of_state"},
        {"{\"particle_margin\":0.02}", "bad_value", "*"}, /* above particle_radius: a relation */
        {"{\"viscosity\":1.5,\"frobnicate\":1}", "unknown_parameter", "values.frobnicate"},
        {"{\"viscosity\":1.5,\"time_step\":5}", "bad_value", "values.time_step"},
        {"{\"gravity_x\":3,\"rest_density\":500}", "not_live", "values.rest_density"},
    };
    cJSON *before = fresh_state(p);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char msg[300];
        snprintf(msg, sizeof msg, "{\"type\":\"set\",\"world\":1,\"values\":%s}", bad[i].values);
        expect_error(p, msg, bad[i].code, bad[i].field);
        cJSON *after = fresh_state(p);
        CHECK(before && after && cJSON_Compare(jget(before, "values"), jget(after, "values"), 1),
              "after the rejected set %s the values are unchanged: %s", bad[i].values, jtext(jget(after, "values")));
        cJSON_Delete(after);
    }
    cJSON_Delete(before);
    expect_error(p, "{\"type\":\"set\",\"world\":99,\"values\":{\"viscosity\":1}}", "unknown_world", "world");
}

/* ---- emitters ---------------------------------------------------------------------------------- */

static int vector_is(const cJSON *v, double x, double y, double z, double tol)
{
    return cJSON_GetArraySize(v) == 3 && fabs(cJSON_GetArrayItem(v, 0)->valuedouble - x) <= tol &&
           fabs(cJSON_GetArrayItem(v, 1)->valuedouble - y) <= tol && fabs(cJSON_GetArrayItem(v, 2)->valuedouble - z) <= tol;
}

static const cJSON *find_id(const cJSON *array, double id)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, array) if (jnum(e, "id") == id) return e;
    return NULL;
}

/* Adds an emitter and checks what the ack says was applied; returns its id (0 on failure). */
static int add_emitter(peer *p, double spacing)
{
    cJSON *ack = expect_ack(p, "{\"type\":\"emitter_add\",\"world\":1,\"emitter\":{\"position\":[0.35,0.4,0.3],"
                               "\"direction\":[0,-2,0],\"radius\":0.03,\"speed\":1}}");
    const cJSON *e = jget(ack, "applied.emitter");
    double id = jnum(e, "id"), rate = 1.0 * 3.14159265358979 * 0.03 * 0.03 / (spacing * spacing * spacing);
    CHECK(id >= 1 && id == floor(id), "emitter_add gives an integer id: %s", jtext(ack));
    CHECK(vector_is(jget(e, "direction"), 0, -1, 0, 1e-6) && vector_is(jget(e, "position"), 0.35, 0.4, 0.3, 1e-6),
          "the direction is normalised and the position kept: %s", jtext(e));
    CHECK(fabs(jnum(e, "radius") - 0.03) < 1e-6 && jnum(e, "speed") == 1 && jnum(e, "fluid") == 0 &&
              fabs(jnum(e, "rate") - rate) < rate * 0.01,
          "radius, speed, fluid 0 and the default rate %g (speed pi r^2 / spacing^3): %s", rate, jtext(e));
    cJSON_Delete(ack);
    return id >= 1 ? (int)id : 0;
}

/* The emitter adds particles: a state with more, and decoded frames with more (bounded waits). */
static void check_emitter_grows(peer *p, int id, double particles)
{
    cJSON *s = NULL;
    for (int64_t deadline = ws_now_ms() + 60000; ws_now_ms() < deadline; peer_pump(p, 500)) {
        cJSON_Delete(s);
        s = fresh_state(p);
        if (!s || jnum(s, "particles") > particles) break;
    }
    CHECK(jnum(s, "particles") > particles, "the emitter adds particles (%g -> %g)", particles, jnum(s, "particles"));
    CHECK(find_id(jget(s, "emitters"), id) != NULL, "state.emitters lists emitter %d: %s", id, jtext(jget(s, "emitters")));
    cJSON_Delete(s);
    for (int64_t deadline = ws_now_ms() + 30000; p->follow.last_count <= particles && ws_now_ms() < deadline;)
        cJSON_Delete(peer_next_text(p, 100));
    CHECK(p->follow.last_count > particles && p->follow.corrupt == 0 && p->follow.need_key == 0,
          "decoded frames hold the new particles (%u > %g; %s)", p->follow.last_count, particles, p->follow.last_error);
}

static void check_emitter_update(peer *p, int id)
{
    char msg[200];
    snprintf(msg, sizeof msg, "{\"type\":\"emitter_update\",\"world\":1,\"emitter\":%d,\"changes\":{\"speed\":2}}", id);
    cJSON *ack = expect_ack(p, msg);
    CHECK(jnum(ack, "applied.emitter.speed") == 2 && fabs(jnum(ack, "applied.emitter.radius") - 0.03) < 1e-6 &&
              jnum(ack, "applied.emitter.id") == id,
          "emitter_update changes the speed and keeps the rest: %s", jtext(ack));
    cJSON_Delete(ack);
    snprintf(msg, sizeof msg, "{\"type\":\"emitter_update\",\"world\":1,\"emitter\":%d,\"changes\":{\"speed\":2}}", id + 100);
    expect_error(p, msg, "unknown_emitter", "emitter");
}

static void check_emitter_removed(peer *p, int id)
{
    char msg[160];
    snprintf(msg, sizeof msg, "{\"type\":\"emitter_remove\",\"world\":1,\"emitter\":%d}", id);
    cJSON *ack = expect_ack(p, msg);
    CHECK(jnum(ack, "applied.emitter") == id, "emitter_remove's applied.emitter is %d: %s", id, jtext(ack));
    cJSON_Delete(ack);
    peer_pump(p, 500);
    cJSON *s1 = fresh_state(p);
    peer_pump(p, 1500);
    cJSON *s2 = fresh_state(p);
    CHECK(jnum(s2, "time") > jnum(s1, "time") && jnum(s2, "particles") == jnum(s1, "particles"),
          "after emitter_remove the count stays (%g -> %g while time runs %g -> %g)", jnum(s1, "particles"),
          jnum(s2, "particles"), jnum(s1, "time"), jnum(s2, "time"));
    CHECK(find_id(jget(s2, "emitters"), id) == NULL, "state.emitters no longer lists it: %s", jtext(jget(s2, "emitters")));
    cJSON_Delete(s1);
    cJSON_Delete(s2);
    expect_error(p, msg, "unknown_emitter", "emitter");
}

static void check_emitters(peer *p)
{
    cJSON *s = fresh_state(p);
    double particles = jnum(s, "particles"), spacing = jnum(s, "values.particle_spacing");
    cJSON_Delete(s);
    int id = add_emitter(p, spacing);
    if (!id) return;
    check_emitter_grows(p, id, particles);
    check_emitter_update(p, id);
    check_emitter_removed(p, id);
    expect_error(p, "{\"type\":\"emitter_add\",\"world\":1,\"emitter\":{\"position\":[5,0.2,0.2],\"direction\":[0,1,0],"
                    "\"radius\":0.03,\"speed\":1}}", "bad_value", "emitter.position");
    expect_error(p, "{\"type\":\"emitter_add\",\"world\":1,\"emitter\":{\"position\":[0.3,0.2,0.2],\"direction\":[0,0,0],"
                    "\"radius\":0.03,\"speed\":1}}", "bad_value", "emitter.direction");
    expect_error(p, "{\"type\":\"emitter_add\",\"world\":1,\"emitter\":{\"position\":[0.3,0.2,0.2],\"direction\":[0,1,0],"
                    "\"radius\":0.03,\"speed\":1,\"fluid\":3}}", "bad_value", "emitter.fluid");
    s = fresh_state(p);
    CHECK(cJSON_GetArraySize(jget(s, "emitters")) == 0, "the rejected emitters were not added: %s", jtext(jget(s, "emitters")));
    cJSON_Delete(s);
}

/* ---- pause, step, resume ----------------------------------------------------------------------- */

static void check_paused_still(peer *p, double time)
{
    peer_pump(p, 500); /* a frame already being written may still come */
    long frames = p->follow.frames, binaries = p->binaries;
    peer_pump(p, 1500);
    CHECK(p->binaries == binaries, "no frames while paused (%ld new)", p->binaries - binaries);
    cJSON *s = fresh_state(p);
    CHECK(jnum(s, "time") == time && cJSON_IsTrue(jget(s, "paused")), "paused: the time stays %.9f (now %.9f, paused %s)",
          time, jnum(s, "time"), jtext(jget(s, "paused")));
    peer_pump_frames(p, frames + 1, 15000); /* the subscription's key frame */
    CHECK(p->follow.last_sequence >= jnum(s, "sequence") && p->follow.last_time <= time + 1e-9,
          "the key frame after subscribing is not older than the state's sequence %g nor past its time %.9f (%u, %.9f)",
          jnum(s, "sequence"), time, p->follow.last_sequence, p->follow.last_time);
    cJSON_Delete(s);
}

/* step {frames}: time grows by frames * substeps * time_step; returns the new time. */
static double check_step(peer *p, int frames, double time, double step)
{
    cJSON *s = fresh_state(p);
    double dt = jnum(s, "values.time_step"), substeps = jnum(s, "values.substeps");
    cJSON_Delete(s);
    char msg[120];
    snprintf(msg, sizeof msg, "{\"type\":\"step\",\"world\":1,\"frames\":%d}", frames);
    long since = p->states;
    cJSON *ack = expect_ack(p, msg);
    double t = jnum(ack, "applied.time"), want = time + frames * substeps * dt;
    CHECK(fabs(t - want) < 1e-9, "step %d: time %.12f -> %.12f, expected %.12f (substeps %g, time_step %g)", frames, time,
          t, want, substeps, dt);
    CHECK(jnum(ack, "applied.frames") == frames && jnum(ack, "applied.step") == step + frames * substeps,
          "step %d: applied frames and step count: %s", frames, jtext(ack));
    cJSON_Delete(ack);
    cJSON_Delete(state_showing(p, since, state_time_is, &t, "the stepped time, paused"));
    int64_t deadline = ws_now_ms() + 15000;
    while (p->follow.max_time < t - 1e-9 && ws_now_ms() < deadline) cJSON_Delete(peer_next_text(p, 100));
    CHECK(fabs(p->follow.max_time - t) < 1e-9, "a frame of the stepped time %.9f arrives (latest %.9f)", t, p->follow.max_time);
    return t;
}

static void check_pause_step_resume(peer *p)
{
    cJSON *ack = expect_ack(p, "{\"type\":\"pause\",\"world\":1}");
    CHECK(cJSON_IsTrue(jget(ack, "applied.paused")), "pause: applied.paused true: %s", jtext(ack));
    cJSON_Delete(ack);
    cJSON *s = fresh_state(p);
    double time = jnum(s, "time"), step = jnum(s, "step");
    cJSON_Delete(s);
    check_paused_still(p, time);
    cJSON_Delete(expect_ack(p, "{\"type\":\"pause\",\"world\":1}")); /* pausing a paused world changes nothing */
    time = check_step(p, 1, time, step);
    s = fresh_state(p);
    step = jnum(s, "step");
    cJSON_Delete(s);
    time = check_step(p, 3, time, step);
    check_paused_still(p, time);
    ack = expect_ack(p, "{\"type\":\"resume\",\"world\":1}");
    CHECK(cJSON_IsFalse(jget(ack, "applied.paused")), "resume: applied.paused false: %s", jtext(ack));
    cJSON_Delete(ack);
    long frames = p->follow.frames;
    peer_pump(p, 1500);
    s = fresh_state(p);
    CHECK(jnum(s, "time") > time && cJSON_IsFalse(jget(s, "paused")), "after resume the time grows (%.9f -> %.9f)", time,
          jnum(s, "time"));
    CHECK(p->follow.frames > frames + 1, "after resume frames come again (%ld)", p->follow.frames - frames);
    cJSON_Delete(s);
    expect_error(p, "{\"type\":\"pause\",\"world\":42}", "unknown_world", "world");
    expect_error(p, "{\"type\":\"step\",\"world\":42}", "unknown_world", "world");
}

#ifdef FLUIDCAST_CUDA_HOST
/* create_world with "backend": "cuda" on the shim device: the ack and the world's state name the
 * backend and the device, and the world steps: its frames decode, with every particle, at
 * simulated times going on. World 1 is followed again afterwards. */
static void check_cuda_world(peer *p)
{
    /* one decoder follows one world: world 1's frames would interleave with the CUDA world's */
    cJSON_Delete(expect_ack(p, "{\"type\":\"unsubscribe\",\"world\":1}"));
    cJSON *ack = expect_ack(p, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"backend\":\"cuda\","
                               "\"values\":{\"particle_spacing\":0.04,\"smoothing_radius\":0.08}}");
    const double id = jnum(ack, "applied.world");
    CHECK(jstr_is(ack, "applied.backend", "cuda") && jstr_has(ack, "applied.device", "cuda-host shim"),
          "the CUDA world's ack names its backend and device: %s", jtext(ack));
    cJSON *state = id > 1 ? peer_fresh_state(p, (uint32_t)id) : NULL; /* follows its frames from now */
    CHECK(state && jstr_is(state, "backend", "cuda") && jnum(state, "particles") > 1000,
          "the CUDA world's state names its backend: %s", jtext(state));
    const int64_t deadline = ws_now_ms() + 20000;
    while (p->follow.max_time < 0.05 && ws_now_ms() < deadline) cJSON_Delete(peer_next_text(p, 100));
    CHECK(p->follow.max_time >= 0.05 && p->follow.corrupt == 0 && p->follow.last_count == jnum(state, "particles"),
          "the CUDA world's frames decode with all %g particles at times going on (to %g s; %s)",
          jnum(state, "particles"), p->follow.max_time, p->follow.last_error);
    char close[96];
    snprintf(close, sizeof close, "{\"type\":\"close_world\",\"world\":%.0f}", id);
    cJSON_Delete(expect_ack(p, close));
    cJSON_Delete(peer_fresh_state(p, 1));
    cJSON_Delete(state), cJSON_Delete(ack);
}
#endif

/* ---- colliders, reset, scenes -------------------------------------------------------------------- */

static int state_collider_moved(const cJSON *state, const void *id)
{
    const cJSON *c = find_id(jget(state, "colliders"), *(const double *)id);
    return c && vector_is(jget(c, "position"), 0.45, 0.15, 0.2, 1e-6);
}

static void check_collider_move(peer *p)
{
    cJSON *s = fresh_state(p);
    double id = jnum(cJSON_GetArrayItem(jget(s, "colliders"), 0), "id");
    cJSON_Delete(s);
    char msg[200];
    snprintf(msg, sizeof msg, "{\"type\":\"collider_move\",\"world\":1,\"collider\":%g,\"position\":[0.45,0.15,0.2],"
                              "\"velocity\":[0,0.5,0]}", id);
    long since = p->states;
    cJSON *ack = expect_ack(p, msg);
    CHECK(jnum(ack, "applied.collider") == id && vector_is(jget(ack, "applied.position"), 0.45, 0.15, 0.2, 1e-6) &&
              vector_is(jget(ack, "applied.velocity"), 0, 0.5, 0, 1e-6),
          "collider_move's applied: %s", jtext(ack));
    cJSON_Delete(ack);
    cJSON_Delete(state_showing(p, since, state_collider_moved, &id, "the moved collider"));
    expect_error(p, "{\"type\":\"collider_move\",\"world\":1,\"collider\":999,\"position\":[0.3,0.2,0.2]}", "unknown_collider",
                 "collider");
}

static void check_reset(peer *p)
{
    cJSON *before = fresh_state(p);
    double epoch = jnum(before, "epoch");
    long keys = p->follow.key_frames, since = p->states;
    cJSON *ack = expect_ack(p, "{\"type\":\"reset\",\"world\":1}");
    CHECK(jnum(ack, "applied.particles") > 1000 && jstr_has(ack, "applied.scene", "small_tank"),
          "reset's applied names the scene and the particles: %s", jtext(ack));
    cJSON *s = state_showing(p, since, state_epoch_above, &epoch, "a new epoch");
    CHECK(jnum(s, "time") < jnum(before, "time") && jnum(s, "particles") == jnum(ack, "applied.particles"),
          "after reset the time restarts and the particles are the scene's: %s", jtext(s));
    int64_t deadline = ws_now_ms() + 30000;
    while (p->follow.last_epoch <= epoch && ws_now_ms() < deadline) cJSON_Delete(peer_next_text(p, 100));
    CHECK(p->follow.last_epoch > epoch && p->follow.key_frames > keys && p->follow.corrupt == 0 && p->follow.need_key == 0,
          "a key frame of the new epoch decodes (epoch %g -> %u; %s)", epoch, p->follow.last_epoch, p->follow.last_error);
    CHECK(p->follow.last_count == jnum(ack, "applied.particles"), "the frames hold the reset world's %g particles (%u)",
          jnum(ack, "applied.particles"), p->follow.last_count);
    cJSON_Delete(s);
    cJSON_Delete(ack);
    cJSON_Delete(before);
    expect_error(p, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"no_such_scene\"}", "unknown_scene", "scene");
    expect_error(p, "{\"type\":\"reset\",\"world\":1,\"values\":{\"frobnicate\":2}}", "unknown_parameter", "values.frobnicate");
    expect_error(p, "{\"type\":\"create_world\",\"scene\":\"no_such_scene\"}", "unknown_scene", "scene");
    /* a backend that is not one is refused naming the field, before a world starts */
    expect_error(p, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"backend\":\"gpu\"}", "bad_value", "backend");
#ifdef FLUIDCAST_CUDA_HOST
    /* the cuda-host build's device is the shim: a CUDA world steps through the kernel sources */
    check_cuda_world(p);
#else
    /* and cuda where it cannot be used (here: no device) */
    expect_error(p, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"backend\":\"cuda\"}", "bad_value", "backend");
#endif
    cJSON *worlds = fresh_state(p);
    CHECK(jstr_is(worlds, "backend", "cpu") && jstr(worlds, "device") && jstr(worlds, "device")[0],
          "world 1's state says where it steps: %s", jtext(worlds));
    cJSON_Delete(worlds);
}

/* ---- set_solver ----------------------------------------------------------------------------- */

static int state_solver_is(const cJSON *state, const void *name) { return jstr_has(state, "solver", name); }

/* sph -> pbf -> sph at run time: the ack names the solver, the states show it with the same
 * particles, frames of the new epoch decode; an unknown solver is refused and changes nothing. */
static void check_set_solver(peer *p)
{
    static const char *const names[] = {"pbf", "sph"};
    for (int k = 0; k < 2; k++) {
        cJSON *before = fresh_state(p);
        char msg[200];
        snprintf(msg, sizeof msg, "{\"type\":\"set_solver\",\"world\":1,\"solver\":\"%s\"}", names[k]);
        long since = p->states;
        cJSON *ack = expect_ack(p, msg);
        CHECK(jstr_has(ack, "applied.solver", names[k]), "set_solver's applied names %s: %s", names[k], jtext(ack));
        cJSON *s = state_showing(p, since, state_solver_is, names[k], names[k]);
        CHECK(s && jnum(s, "particles") == jnum(before, "particles"), "the particles stay through the switch to %s (%g -> %g)",
              names[k], jnum(before, "particles"), jnum(s, "particles"));
        cJSON_Delete(s);
        cJSON_Delete(ack);
        cJSON_Delete(before);
    }
    expect_error(p, "{\"type\":\"set_solver\",\"world\":1,\"solver\":\"flip\"}", "unknown_solver", "solver");
    cJSON *after = fresh_state(p);
    CHECK(jstr_has(after, "solver", "sph"), "a refused set_solver leaves the solver as it was: %s", jtext(jget(after, "solver")));
    cJSON_Delete(after);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_control");
    }
    peer p;
    if (expect_subscriber(&p, server.port, "control", "") == 0) {
        check_set_accepted(&p);
        check_set_rejected(&p);
        check_emitters(&p);
        check_pause_step_resume(&p);
        check_collider_move(&p);
        check_reset(&p);
        check_set_solver(&p);
        CHECK(p.follow.corrupt == 0 && p.follow.need_key == 0, "no corrupt or undecodable frame in the whole session (%ld, %ld: %s)",
              p.follow.corrupt, p.follow.need_key, p.follow.last_error);
    }
    peer_close(&p);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_control");
}
