/* Server over real sockets: one `step` never holds a world or a client (issue 40). A big step on a
 * slow world (FLUIDCAST_TEST_STEP_DELAY) is stopped by pause at once and acked with the frames it
 * took; while it runs, its client gets replies about the server and other worlds at once, and
 * another controller's request to its world stops it; left alone, it ends after 5 s of wall time. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

static test_env env;

#define SLOW_SCENE "water_drop"   /* each solver step of its worlds also sleeps 3 ms: 1000 frames take minutes */
#define PROMPT_MS 1500            /* "at once": the server yields within 0.1 s; the rest is slack for sanitizers */
#define WALL_LIMIT_MS 5000        /* a step's wall-time bound (PROTOCOL.md 2.2, step) */

/* Replies with string ids, kept as they arrive (by whichever wait read them), with their time. */
typedef struct {
    cJSON *reply[16];
    int64_t at[16];
    int count;
} inbox;

static void inbox_free(inbox *box)
{
    for (int i = 0; i < box->count; i++) cJSON_Delete(box->reply[i]);
    box->count = 0;
}

static int inbox_find(const inbox *box, const char *id)
{
    for (int i = 0; i < box->count; i++)
        if (jstr_is(box->reply[i], "id", id)) return i;
    return -1;
}

/* Sends {json members..., "id": id}: json is an object's text without its closing brace. */
static void send_with_id(peer *p, const char *json, const char *id)
{
    char text[400];
    snprintf(text, sizeof text, "%s,\"id\":\"%s\"}", json, id);
    CHECK(peer_send(p, text) == 0, "%s: sends %s", p->name, text);
}

/* The reply with id (kept in box), read for at most timeout_ms; NULL when none came. */
static const cJSON *reply_within(peer *p, inbox *box, const char *id, int timeout_ms)
{
    for (int64_t deadline = ws_now_ms() + timeout_ms; inbox_find(box, id) < 0 && ws_now_ms() < deadline;) {
        cJSON *m = peer_next_text(p, (int)(deadline - ws_now_ms()));
        if (m && cJSON_IsString(jget(m, "id")) && box->count < 16) {
            box->at[box->count] = ws_now_ms();
            box->reply[box->count++] = m;
        } else {
            cJSON_Delete(m);
        }
    }
    int i = inbox_find(box, id);
    return i < 0 ? NULL : box->reply[i];
}

static int64_t arrived_at(const inbox *box, const char *id)
{
    int i = inbox_find(box, id);
    return i < 0 ? -1 : box->at[i];
}

/* A running world of the slow scene: its id, 0 on failure. */
static int create_slow_world(peer *p)
{
    cJSON *ack = expect_ack(p, "{\"type\":\"create_world\",\"scene\":\"" SLOW_SCENE "\",\"values\":"
                               "{\"particle_spacing\":0.04,\"smoothing_radius\":0.08}}");
    int id = (int)jnum(ack, "applied.world");
    cJSON_Delete(ack);
    return id > 0 ? id : 0;
}

/* Closes the world (which also ends a step that did not stop otherwise) and reads what it owed. */
static void close_world(peer *p, int world)
{
    char msg[120];
    snprintf(msg, sizeof msg, "{\"type\":\"close_world\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
    peer_pump(p, 200);
}

/* The simulated length of a frame of the world (substeps * time_step), from a fresh state. */
static double frame_seconds(peer *p, int world)
{
    cJSON *s = peer_fresh_state(p, (uint32_t)world);
    double frame = jnum(s, "values.substeps") * jnum(s, "values.time_step");
    cJSON_Delete(s);
    char msg[120];
    snprintf(msg, sizeof msg, "{\"type\":\"unsubscribe\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
    return frame;
}

/* Pauses the world; returns its simulated time then. */
static double pause_at(peer *p, int world)
{
    char msg[120];
    snprintf(msg, sizeof msg, "{\"type\":\"pause\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
    cJSON *s = peer_fresh_state(p, (uint32_t)world);
    double time = jnum(s, "time");
    cJSON_Delete(s);
    snprintf(msg, sizeof msg, "{\"type\":\"unsubscribe\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
    return time;
}

/* An ack of a step cut short: fewer frames than asked, why, and a time that matches the frames. */
static void check_stopped_ack(const cJSON *ack, const char *why, double time_before, double frame)
{
    double frames = jnum(ack, "applied.frames"), time = jnum(ack, "applied.time");
    CHECK(jtype_is(ack, "ack") && frames >= 0 && frames < 1000 && jstr_is(ack, "applied.stopped", why),
          "the step's ack says it stopped early (%s) with the frames it took: %s", why, jtext(ack));
    CHECK(time >= time_before + frames * frame - 1e-9 && time < time_before + (frames + 1) * frame + 1e-9,
          "its time %.6f is %g whole frames of %g s after %.6f, and less than one frame more", time, frames, frame,
          time_before);
}

/* (1) pause stops a big step at once; the step's ack comes first, with the frames really stepped. */
static void check_pause_stops_step(peer *p)
{
    int world = create_slow_world(p);
    if (!world) return;
    double frame = frame_seconds(p, world), time_before = pause_at(p, world);
    char msg[160];
    inbox box = {0};
    snprintf(msg, sizeof msg, "{\"type\":\"step\",\"world\":%d,\"frames\":1000", world);
    send_with_id(p, msg, "big-step");
    peer_pump(p, 700); /* it steps a few frames */
    CHECK(inbox_find(&box, "big-step") < 0, "a step of 1000 frames is still running after 0.7 s");
    snprintf(msg, sizeof msg, "{\"type\":\"pause\",\"world\":%d", world);
    int64_t sent = ws_now_ms();
    send_with_id(p, msg, "pause");
    const cJSON *ack = reply_within(p, &box, "big-step", PROMPT_MS);
    int64_t took = ack ? arrived_at(&box, "big-step") - sent : -1;
    printf("pause during a step of 1000 frames: the step's ack after %lld ms: %s\n", (long long)took, jtext(ack));
    CHECK(ack != NULL && took <= PROMPT_MS, "the step's ack comes within %d ms of the pause (%lld ms)", PROMPT_MS,
          (long long)took);
    if (ack) check_stopped_ack(ack, "request", time_before, frame);
    CHECK(jnum(ack, "applied.frames") >= 1, "it stepped at least one frame in 0.7 s: %s", jtext(ack));
    const cJSON *paused = reply_within(p, &box, "pause", PROMPT_MS);
    CHECK(jtype_is(paused, "ack") && cJSON_IsTrue(jget(paused, "applied.paused")), "the pause is acked after it: %s",
          jtext(paused));
    cJSON *after = peer_fresh_state(p, (uint32_t)world);
    CHECK(fabs(jnum(after, "time") - jnum(ack, "applied.time")) < 1e-9 && cJSON_IsTrue(jget(after, "paused")),
          "the world stays paused where the ack says: %s", jtext(after));
    cJSON_Delete(after);
    inbox_free(&box);
    close_world(p, world);
}

/* Sends list_worlds, hello and a set on the idle world 1 tagged with prefix; CHECKs each is answered
 * within PROMPT_MS. */
static void check_answered_promptly(peer *p, inbox *box, const char *prefix)
{
    static const struct { const char *json, *suffix, *type; } requests[] = {
        {"{\"type\":\"list_worlds\"", "-list", "worlds"},
        {"{\"type\":\"hello\",\"client\":\"test_server_step\"", "-hello", "welcome"},
        {"{\"type\":\"set\",\"world\":1,\"values\":{\"viscosity\":0.7}", "-set", "ack"},
    };
    for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++) {
        char id[64];
        snprintf(id, sizeof id, "%s%s", prefix, requests[i].suffix);
        int64_t sent = ws_now_ms();
        send_with_id(p, requests[i].json, id);
        const cJSON *r = reply_within(p, box, id, PROMPT_MS);
        CHECK(jtype_is(r, requests[i].type), "%s: %s is answered (%s) within %d ms while a step runs: got %s after %lld ms",
              p->name, id, requests[i].type, PROMPT_MS, jtext(r), (long long)(ws_now_ms() - sent));
    }
}

/* (2) While a big step runs on a world, its client gets replies about the server and another
 * world at once, and the step goes on; another controller that sends the world a request stops the
 * step and is answered at once, about that world as about the others. */
static void check_replies_during_step(peer *p, peer *other)
{
    int world = create_slow_world(p);
    if (!world) return;
    cJSON_Delete(expect_ack(p, "{\"type\":\"pause\",\"world\":1}")); /* world 1: idle */
    char msg[160];
    snprintf(msg, sizeof msg, "{\"type\":\"step\",\"world\":%d,\"frames\":1000", world);
    inbox box = {0}, other_box = {0};
    int64_t step_sent = ws_now_ms();
    send_with_id(p, msg, "big-step");
    peer_pump(p, 300);
    check_answered_promptly(p, &box, "same");
    int64_t replies_done = ws_now_ms();
    CHECK(inbox_find(&box, "big-step") < 0 && replies_done - step_sent < WALL_LIMIT_MS,
          "the step was still running while those were answered (%lld ms after it was sent)",
          (long long)(replies_done - step_sent));
    snprintf(msg, sizeof msg, "{\"type\":\"set\",\"world\":%d,\"values\":{\"viscosity\":0.8}", world);
    send_with_id(other, msg, "other-set-stepping");
    check_answered_promptly(other, &other_box, "other");
    const cJSON *set = reply_within(other, &other_box, "other-set-stepping", PROMPT_MS);
    CHECK(jtype_is(set, "ack"), "the other controller's set on the stepping world is acked at once: %s", jtext(set));
    const cJSON *ack = reply_within(p, &box, "big-step", PROMPT_MS);
    CHECK(jstr_is(ack, "applied.stopped", "request"), "that set stopped the step: %s", jtext(ack));
    inbox_free(&box);
    inbox_free(&other_box);
    close_world(p, world);
    cJSON_Delete(expect_ack(p, "{\"type\":\"resume\",\"world\":1}"));
}

/* (3) A step nobody interrupts ends after the wall-time limit, acked with what it did. */
static void check_step_bounded(peer *p)
{
    int world = create_slow_world(p);
    if (!world) return;
    double frame = frame_seconds(p, world), time_before = pause_at(p, world);
    char msg[160];
    snprintf(msg, sizeof msg, "{\"type\":\"step\",\"world\":%d,\"frames\":1000", world);
    inbox box = {0};
    int64_t sent = ws_now_ms();
    send_with_id(p, msg, "long-step");
    const cJSON *ack = reply_within(p, &box, "long-step", WALL_LIMIT_MS + 3000);
    int64_t took = ack ? arrived_at(&box, "long-step") - sent : -1;
    printf("a step of 1000 frames left alone: acked after %lld ms: %s\n", (long long)took, jtext(ack));
    CHECK(ack != NULL && took >= WALL_LIMIT_MS - 100 && took <= WALL_LIMIT_MS + 3000,
          "the step ends after its %d ms wall-time limit (acked after %lld ms)", WALL_LIMIT_MS, (long long)took);
    if (ack) check_stopped_ack(ack, "time_limit", time_before, frame);
    inbox_free(&box);
    close_world(p, world);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    setenv("FLUIDCAST_TEST_STEP_DELAY", SLOW_SCENE ":0.003", 1);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--threads", "1",
                          "--no-wait", NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_step");
    }
    peer controller, other;
    if (expect_hello(&controller, server.port, "controller", NULL, "control") == 0 &&
        expect_hello(&other, server.port, "other", NULL, "control") == 0) {
        check_pause_stops_step(&controller);
        check_replies_during_step(&controller, &other);
        check_step_bounded(&controller);
    }
    peer_close(&controller);
    peer_close(&other);
    CHECK(test_server_stop(&server) == 0, "the server exits 0");
    return check_summary("test_server_step");
}
