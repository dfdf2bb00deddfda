/* Server over real sockets: a hello with a wrong token is answered with the watch role and
 * welcome.token_refused; a second hello on the same connection re-evaluates the role both ways
 * (the token typed in later makes a controller, a hello without it a watcher again), and the slots
 * follow the role: a watcher that became a controller is never evicted as a watcher. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

#define TOKEN "s3cret"
#define MAX_CLIENTS "3"
#define PAUSE "{\"type\":\"pause\",\"world\":1}"
#define RESUME "{\"type\":\"resume\",\"world\":1}"

static test_env env;

/* hello (token NULL: none); CHECKs the welcome's role and token_refused. */
static void expect_welcome(peer *p, const char *token, const char *role, int refused)
{
    sleep_ms(12); /* within the 100 messages per second */
    cJSON *w = peer_hello(p, token);
    CHECK(jtype_is(w, "welcome") && jstr_is(w, "role", role), "%s: hello with token %s gets role %s: %s", p->name,
          token ? token : "(none)", role, jtext(w));
    CHECK(cJSON_IsBool(jget(w, "token_refused")) && cJSON_IsTrue(jget(w, "token_refused")) == refused,
          "%s: hello with token %s has token_refused %s: %s", p->name, token ? token : "(none)", refused ? "true" : "false",
          jtext(jget(w, "token_refused")));
    CHECK(cJSON_GetArraySize(jget(w, "parameters")) > 20, "%s: the welcome has the parameter table", p->name);
    cJSON_Delete(w);
}

static void expect_ack_paced(peer *p, const char *json)
{
    sleep_ms(12);
    cJSON_Delete(expect_ack(p, json));
}

static void expect_error_paced(peer *p, const char *json, const char *code)
{
    sleep_ms(12);
    expect_error(p, json, code, NULL);
}

/* Every entry of welcome.parameters has a label and plain-language help besides the description. */
static void check_parameter_labels(int port)
{
    peer p;
    if (peer_connect(&p, port, "labels") != 0) return;
    cJSON *w = peer_hello(&p, NULL);
    int n = 0, labelled = 0;
    const cJSON *entry;
    cJSON_ArrayForEach(entry, jget(w, "parameters"))
    {
        n++;
        const char *help = jstr(entry, "help");
        labelled += jstr(entry, "label") && *jstr(entry, "label") && help && *help && !strstr(help, "seed") &&
                    jstr(entry, "description") && strcmp(help, jstr(entry, "description")) != 0;
    }
    CHECK(n > 20 && labelled == n, "welcome.parameters: %d of %d entries have a label and help", labelled, n);
    const cJSON *first = cJSON_GetArrayItem(jget(w, "parameters"), 0);
    CHECK(jstr_is(first, "name", "time_step") && jstr_is(first, "label", "Time step"), "time_step is labelled 'Time step': %s",
          jtext(first));
    cJSON_Delete(w);
    peer_close(&p);
}

/* One connection: no token, a wrong one, the right one, a wrong one again, the right one again. */
static void check_hello_again(int port)
{
    peer p;
    if (peer_connect(&p, port, "typist") != 0) {
        CHECK(0, "typist connects");
        return;
    }
    expect_welcome(&p, NULL, "watch", 0);
    expect_welcome(&p, "wrong", "watch", 1);
    expect_error_paced(&p, PAUSE, "forbidden");
    sleep_ms(12);
    cJSON *r = peer_subscribe(&p, 1, "");
    CHECK(jtype_is(r, "ack"), "the watcher subscribes: %s", jtext(r));
    cJSON_Delete(r);
    expect_welcome(&p, TOKEN, "control", 0);
    expect_ack_paced(&p, PAUSE); /* the same connection controls now */
    cJSON *state = peer_wait_type(&p, "state", PEER_TIMEOUT_MS);
    CHECK(state && cJSON_IsTrue(jget(state, "paused")), "the subscription stayed: a state says paused: %s", jtext(state));
    cJSON_Delete(state);
    expect_ack_paced(&p, RESUME);
    expect_welcome(&p, "wrong", "watch", 1); /* a wrong token takes the control role away again */
    expect_error_paced(&p, PAUSE, "forbidden");
    expect_welcome(&p, TOKEN, "control", 0);
    expect_ack_paced(&p, PAUSE);
    expect_ack_paced(&p, RESUME);
    peer_close(&p);
}

/* A bye within the time, or NULL. */
static cJSON *wait_bye(peer *p)
{
    return peer_wait_type(p, "bye", 5000);
}

/* --max-clients 3: three watchers fill it; the oldest becomes a controller by a second hello; a
 * token holder then evicts the oldest remaining watcher, not it. */
static void check_slots_follow_the_role(int port)
{
    peer a, b, c, d, e;
    if (expect_hello(&a, port, "oldest", NULL, "watch") || expect_hello(&b, port, "second", NULL, "watch") ||
        expect_hello(&c, port, "third", NULL, "watch"))
        return;
    expect_welcome(&a, TOKEN, "control", 0); /* keeps its slot, counts as a controller now */
    if (expect_hello(&d, port, "holder", TOKEN, "control") == 0) {
        cJSON *bye = wait_bye(&b);
        CHECK(jstr_is(bye, "reason", "evicted"), "the oldest watcher left (second) is evicted: %s", jtext(bye));
        cJSON_Delete(bye);
        expect_ack_paced(&a, PAUSE); /* the upgraded one is still in, with control */
        expect_ack_paced(&a, RESUME);
        sleep_ms(12);
        cJSON *worlds = peer_request(&c, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
        CHECK(jtype_is(worlds, "worlds"), "the third watcher is still in: %s", jtext(worlds));
        cJSON_Delete(worlds);
    }
    if (peer_connect(&e, port, "late") == 0) { /* full of a, c, d: a watcher is refused */
        peer_send(&e, "{\"type\":\"hello\",\"client\":\"late\"}");
        cJSON *bye = wait_bye(&e);
        CHECK(jstr_is(bye, "reason", "full"), "a watcher's hello on the full server gets bye full: %s", jtext(bye));
        cJSON_Delete(bye);
        peer_close(&e);
    }
    peer_close(&a), peer_close(&b), peer_close(&c), peer_close(&d);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--token", TOKEN,
                          "--max-clients", MAX_CLIENTS, NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_token");
    }
    check_parameter_labels(server.port);
    check_hello_again(server.port);
    sleep_ms(300); /* the closed connections leave their slots */
    check_slots_follow_the_role(server.port);
    CHECK(server_alive(&server), "the server is still running");
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_token");
}
