/* Server over real sockets: roles with --token (watch without it, control with it, forbidden
 * changes nothing), and the exit status of `fluidcast serve` for bad command lines and scenes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expect.h"
#include "test_env.h"

#define TOKEN "s3cret"
#define SET_VISCOSITY "{\"type\":\"set\",\"world\":1,\"values\":{\"viscosity\":0.75}}"

static test_env env;

/* Everything a control message asks is refused with forbidden for a watch client. */
static void check_forbidden(peer *p)
{
    static const char *const control[] = {
        SET_VISCOSITY,
        "{\"type\":\"pause\",\"world\":1}",
        "{\"type\":\"step\",\"world\":1}",
        "{\"type\":\"reset\",\"world\":1}",
        "{\"type\":\"emitter_add\",\"world\":1,\"emitter\":{\"position\":[0.3,0.3,0.2],\"direction\":[0,-1,0],"
        "\"radius\":0.03,\"speed\":1}}",
        "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"dam_break\"}",
        "{\"type\":\"create_world\",\"scene\":\"dam_break\"}",
        "{\"type\":\"close_world\",\"world\":1}",
        "{\"type\":\"set_solver\",\"world\":1,\"solver\":\"sph\"}",
    };
    for (size_t i = 0; i < sizeof control / sizeof control[0]; i++) expect_error(p, control[i], "forbidden", NULL);
    /* the schema is checked before the role */
    expect_error(p, "{\"type\":\"set\",\"world\":1}", "missing_field", "values");
}

/* After the refused requests the world runs on as before, with the same values and one world. */
static void check_nothing_changed(peer *p, const cJSON *before)
{
    peer_pump(p, 1000);
    cJSON *after = peer_fresh_state(p, 1);
    CHECK(after && cJSON_Compare(jget(before, "values"), jget(after, "values"), 1), "forbidden requests changed no value: %s",
          jtext(jget(after, "values")));
    CHECK(cJSON_IsFalse(jget(after, "paused")) && jnum(after, "time") > jnum(before, "time") &&
              jnum(after, "epoch") == jnum(before, "epoch") && jnum(after, "particles") == jnum(before, "particles"),
          "the world runs on unpaused, not reset (time %g -> %g, epoch %g -> %g)", jnum(before, "time"), jnum(after, "time"),
          jnum(before, "epoch"), jnum(after, "epoch"));
    cJSON_Delete(after);
    cJSON *worlds = peer_request(p, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
    CHECK(cJSON_GetArraySize(jget(worlds, "worlds")) == 1, "still exactly one world: %s", jtext(worlds));
    cJSON_Delete(worlds);
}

static void check_watch_allowed(peer *p)
{
    cJSON_Delete(expect_ack(p, "{\"type\":\"key_request\",\"world\":1}"));
    cJSON *worlds = peer_request(p, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
    CHECK(jtype_is(worlds, "worlds"), "a watch client may list_worlds: %s", jtext(worlds));
    cJSON_Delete(worlds);
}

/* hello again with a token: a new welcome with the new role; the subscription stays. */
static void check_upgrade(peer *p, const char *token, const char *role)
{
    cJSON *w = peer_hello(p, token);
    CHECK(jstr_is(w, "role", role), "hello with token '%s' gives role %s: %s", token, role, jtext(jget(w, "role")));
    cJSON_Delete(w);
    long frames = p->follow.frames;
    peer_pump_frames(p, frames + 3, 15000);
    CHECK(p->follow.frames >= frames + 3, "the subscription stays after a new hello (%ld frames)", p->follow.frames - frames);
}

static void check_roles(int port)
{
    peer p;
    if (expect_hello(&p, port, "watcher", NULL, "watch") != 0) return;
    cJSON *r = peer_subscribe(&p, 1, "");
    CHECK(jtype_is(r, "ack"), "a watch client may subscribe: %s", jtext(r));
    cJSON_Delete(r);
    cJSON *before = peer_fresh_state(&p, 1);
    check_watch_allowed(&p);
    check_forbidden(&p);
    check_upgrade(&p, "wrong", "watch");
    expect_error(&p, SET_VISCOSITY, "forbidden", NULL);
    check_nothing_changed(&p, before);
    check_upgrade(&p, TOKEN, "control");
    long since = p.states;
    cJSON *ack = expect_ack(&p, SET_VISCOSITY);
    CHECK(jnum(ack, "applied.values.viscosity") == 0.75, "with the token the same set is applied: %s", jtext(ack));
    cJSON *s = peer_state_where(&p, since, state_has_values, jget(ack, "applied.values"), PEER_TIMEOUT_MS);
    CHECK(s != NULL, "a state shows the new viscosity");
    cJSON_Delete(s);
    cJSON_Delete(ack);
    cJSON_Delete(before);
    peer_close(&p);

    peer q;
    if (expect_hello(&q, port, "controller", TOKEN, "control") == 0)
        cJSON_Delete(expect_ack(&q, "{\"type\":\"pause\",\"world\":1}"));
    peer_close(&q);
}

/* ---- the command line ---------------------------------------------------------------------------- */

/* 1 when text contains one of the '|'-separated needles. */
static int contains_any(const char *text, const char *needles)
{
    char buf[128];
    for (const char *p = needles; text && *p; p += *p == '|') {
        size_t n = strcspn(p, "|");
        snprintf(buf, sizeof buf, "%.*s", (int)n, p);
        if (strstr(text, buf)) return 1;
        p += n;
    }
    return 0;
}

/* `fluidcast serve ARGS` must exit with status and name one of needles on stderr (NULL: anything). */
static void check_exit(const char *const *args, int status, const char *needles, const char *what)
{
    const char *argv[16] = {env.fluidcast, "serve"};
    for (int i = 0; args[i] && i < 13; i++) argv[i + 2] = args[i];
    char *err = NULL;
    int got = run_capture(argv, 20000, NULL, &err);
    CHECK(got == status, "%s: exit status %d, got %d (stderr: %.300s)", what, status, got, err);
    CHECK(!needles || contains_any(err, needles), "%s: stderr names %s: %.300s", what, needles, err);
    free(err);
}

static void check_command_line(void)
{
    const char *open_bind[] = {"--bind", "0.0.0.0", "--port", "0", "--scene", test_scene(&env, "small_tank"), NULL};
    check_exit(open_bind, 2, "--token|--open", "--bind 0.0.0.0 without --token or --open");
    const char *unknown[] = {"--frobnicate", NULL};
    check_exit(unknown, 2, "--frobnicate", "an unknown option");

    char path[] = "/tmp/fluidcast_broken_scene_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, "{\"domain\": [1, 2", 16) == 16, "write a broken scene file");
    if (fd >= 0) close(fd);
    const char *broken[] = {"--port", "0", "--scene", path, NULL};
    check_exit(broken, 1, NULL, "a scene file that does not parse");
    unlink(path);
}

/* With --token, a non-loopback address is allowed. */
static void check_token_allows_any_address(void)
{
    server_process s;
    int started = test_server_start(&s, &env, "--bind", "0.0.0.0", "--token", TOKEN, "--port", "0", "--scene",
                                    test_scene(&env, "small_tank"), NULL) == 0;
    CHECK(started, "--bind 0.0.0.0 with --token starts");
    if (!started) return;
    peer p;
    if (expect_hello(&p, s.port, "any address", TOKEN, "control") == 0) peer_close(&p);
    int status = test_server_stop(&s);
    CHECK(status == 0, "and exits 0 on SIGTERM (%d)", status);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    check_command_line();
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--token", TOKEN, "--scene", test_scene(&env, "small_tank"),
                          NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_roles");
    }
    check_roles(server.port);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    check_token_allows_any_address();
    return check_summary("test_server_roles");
}
