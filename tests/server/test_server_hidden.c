/* Server over real sockets: set_world hides a world from watchers. Their worlds lists (also the
 * unsolicited ones and welcome.worlds) leave it out, they cannot subscribe to it (unknown_world),
 * watchers that watched it are unsubscribed and get a fresh list; controllers see it with
 * "hidden": true. A watcher that gets the token sees it, and loses it again with the role. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

#define TOKEN "s3cret"

static test_env env;

static cJSON *request(peer *p, const char *json)
{
    sleep_ms(12); /* within the 100 messages per second */
    return peer_request(p, json, PEER_TIMEOUT_MS);
}

/* The summary of world id in a worlds list (welcome or worlds), or NULL. */
static const cJSON *summary_of(const cJSON *message, int id)
{
    const cJSON *w;
    cJSON_ArrayForEach(w, jget(message, "worlds")) if (jnum(w, "id") == id) return w;
    return NULL;
}

static cJSON *list_worlds(peer *p)
{
    cJSON *r = request(p, "{\"type\":\"list_worlds\"}");
    CHECK(jtype_is(r, "worlds"), "%s: list_worlds answered: %s", p->name, jtext(r));
    return r;
}

/* Reads for ms: how many texts named world (state, stats) came, and the last unsolicited worlds. */
static int world_texts(peer *p, int world, int ms, cJSON **worlds)
{
    int n = 0;
    int64_t end = ws_now_ms() + ms;
    for (int64_t left; (left = end - ws_now_ms()) > 0;) {
        cJSON *m = peer_next_text(p, (int)left);
        if (!m) continue;
        if (jtype_is(m, "worlds") && worlds) {
            cJSON_Delete(*worlds);
            *worlds = cJSON_Duplicate(m, 1);
        } else if (jnum(m, "world") == world) {
            n++;
        }
        cJSON_Delete(m);
    }
    return n;
}

static void expect_subscribed(peer *p, int world)
{
    sleep_ms(12);
    cJSON *r = peer_subscribe(p, (uint32_t)world, "");
    CHECK(jtype_is(r, "ack"), "%s subscribes to world %d: %s", p->name, world, jtext(r));
    cJSON_Delete(r);
}

static void expect_unknown(peer *p, const char *json)
{
    sleep_ms(12);
    expect_error(p, json, "unknown_world", "world");
}

static void check_hidden(int port)
{
    peer ctl, w1, w2, w3;
    if (expect_hello(&ctl, port, "controller", TOKEN, "control") || expect_hello(&w1, port, "watcher1", NULL, "watch") ||
        expect_hello(&w2, port, "watcher2", NULL, "watch"))
        return;
    cJSON *ack = request(&ctl, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"name\":\"backstage\","
                               "\"values\":{\"particle_spacing\":0.04,\"smoothing_radius\":0.08}}");
    CHECK(jtype_is(ack, "ack") && jnum(ack, "applied.world") == 2, "world 2 is created: %s", jtext(ack));
    cJSON_Delete(ack);
    expect_subscribed(&w1, 2);
    CHECK(world_texts(&w1, 2, 1200, NULL) > 0, "watcher1 gets states and stats of world 2");

    /* errors change nothing */
    sleep_ms(12);
    expect_error(&w1, "{\"type\":\"set_world\",\"world\":2,\"hidden\":true}", "forbidden", NULL);
    expect_unknown(&ctl, "{\"type\":\"set_world\",\"world\":9,\"hidden\":true}");

    ack = request(&ctl, "{\"type\":\"set_world\",\"world\":2,\"hidden\":true}");
    CHECK(jtype_is(ack, "ack") && jnum(ack, "applied.world") == 2 && cJSON_IsTrue(jget(ack, "applied.hidden")) &&
              !jget(ack, "sequence"),
          "set_world hidden is acked with {world, hidden}: %s", jtext(ack));
    cJSON_Delete(ack);

    /* the watcher that watched it: a fresh list without it, and nothing of world 2 any more */
    cJSON *fresh = NULL;
    world_texts(&w1, 2, 300, &fresh); /* what was under way when it was hidden */
    CHECK(fresh && !summary_of(fresh, 2) && summary_of(fresh, 1), "watcher1 gets a worlds list without world 2: %s",
          jtext(fresh));
    cJSON_Delete(fresh);
    CHECK(world_texts(&w1, 2, 1500, NULL) == 0, "watcher1 is unsubscribed: no state or stats of world 2 any more");
    expect_unknown(&w1, "{\"type\":\"subscribe\",\"world\":2}");
    expect_unknown(&w1, "{\"type\":\"key_request\",\"world\":2}");
    cJSON *list = list_worlds(&w1);
    CHECK(!summary_of(list, 2) && summary_of(list, 1) && cJSON_IsFalse(jget(summary_of(list, 1), "hidden")),
          "watcher1's list_worlds has world 1 (hidden false), not world 2: %s", jtext(list));
    cJSON_Delete(list);
    list = list_worlds(&w2);
    CHECK(!summary_of(list, 2), "watcher2's list has no world 2: %s", jtext(list));
    cJSON_Delete(list);

    /* controllers see it, marked, and may watch it */
    list = list_worlds(&ctl);
    CHECK(cJSON_IsTrue(jget(summary_of(list, 2), "hidden")) && cJSON_IsFalse(jget(summary_of(list, 1), "hidden")),
          "the controller's list has world 2 with hidden true: %s", jtext(list));
    cJSON_Delete(list);
    expect_subscribed(&ctl, 2);

    /* a new watcher's welcome leaves it out */
    if (expect_hello(&w3, port, "watcher3", NULL, "watch") == 0) {
        sleep_ms(12);
        cJSON *w = peer_hello(&w3, NULL);
        CHECK(jtype_is(w, "welcome") && summary_of(w, 1) && !summary_of(w, 2), "welcome.worlds of a watcher: %s", jtext(w));
        cJSON_Delete(w);
        peer_close(&w3);
    }

    /* watcher2 types the token in: it sees and watches world 2; without it again, it loses both */
    sleep_ms(12);
    cJSON *w = peer_hello(&w2, TOKEN);
    CHECK(jstr_is(w, "role", "control") && cJSON_IsTrue(jget(summary_of(w, 2), "hidden")),
          "with the token watcher2's welcome lists world 2 as hidden: %s", jtext(w));
    cJSON_Delete(w);
    expect_subscribed(&w2, 2);
    sleep_ms(12);
    w = peer_hello(&w2, "wrong");
    CHECK(jstr_is(w, "role", "watch") && !summary_of(w, 2), "without it again, welcome.worlds has no world 2: %s", jtext(w));
    cJSON_Delete(w);
    world_texts(&w2, 2, 300, NULL);
    CHECK(world_texts(&w2, 2, 1500, NULL) == 0, "watcher2 lost its subscription to world 2 with the control role");

    /* shown again: watchers see it and may subscribe */
    ack = request(&ctl, "{\"type\":\"set_world\",\"world\":2,\"hidden\":false}");
    CHECK(jtype_is(ack, "ack") && cJSON_IsFalse(jget(ack, "applied.hidden")), "set_world hidden false: %s", jtext(ack));
    cJSON_Delete(ack);
    fresh = NULL;
    world_texts(&w1, 2, 500, &fresh);
    CHECK(fresh && summary_of(fresh, 2) && cJSON_IsFalse(jget(summary_of(fresh, 2), "hidden")),
          "watcher1 gets a list with world 2 again: %s", jtext(fresh));
    cJSON_Delete(fresh);
    expect_subscribed(&w1, 2);
    peer_close(&ctl), peer_close(&w1), peer_close(&w2);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--token", TOKEN,
                          NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_hidden");
    }
    check_hidden(server.port);
    CHECK(server_alive(&server), "the server is still running");
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_hidden");
}
