/* Server over real sockets: 50 clients connect at once, say hello, subscribe, and every one of
 * them decodes frames; /metrics counts them while they are connected and not after. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

#include "expect.h"
#include "metrics_text.h"
#include "test_env.h"

#define CLIENTS 50
#define FRAMES_EACH 3
#define DEADLINE_MS 120000

static test_env env;

typedef struct {
    peer p;
    int welcomed, acked, states;
} crowd_member;

static void note_message(crowd_member *m, const cJSON *msg)
{
    m->welcomed |= jtype_is(msg, "welcome");
    m->acked |= jtype_is(msg, "ack") && jstr_is(msg, "request", "subscribe");
    m->states += jtype_is(msg, "state");
    if (jtype_is(msg, "error")) fprintf(stderr, "%s: %s\n", m->p.name, jtext(msg));
}

/* Reads whatever each client has, without waiting; returns how many decoded FRAMES_EACH frames. */
static int crowd_pump(crowd_member *crowd, int n)
{
    int done = 0;
    for (int i = 0; i < n; i++) {
        for (cJSON *msg; crowd[i].p.ws && (msg = peer_next_text(&crowd[i].p, 0)) != NULL; cJSON_Delete(msg))
            note_message(&crowd[i], msg);
        done += crowd[i].p.follow.frames >= FRAMES_EACH;
    }
    return done;
}

/* Waits up to ms for any client's socket to have data. */
static void crowd_wait(crowd_member *crowd, int n, int ms)
{
    struct pollfd fds[CLIENTS];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (crowd[i].p.ws && ws_is_open(crowd[i].p.ws)) fds[k++] = (struct pollfd){ws_fd(crowd[i].p.ws), POLLIN, 0};
    poll(fds, (nfds_t)k, ms);
}

static int connect_crowd(crowd_member *crowd, int port)
{
    int connected = 0;
    for (int i = 0; i < CLIENTS; i++) {
        char name[32];
        snprintf(name, sizeof name, "client %d", i);
        connected += peer_connect(&crowd[i].p, port, name) == 0;
    }
    for (int i = 0; i < CLIENTS; i++) {
        if (!crowd[i].p.ws) continue;
        follower_init(&crowd[i].p.follow, 1);
        peer_send(&crowd[i].p, "{\"type\":\"hello\",\"client\":\"crowd\"}");
        peer_send(&crowd[i].p, "{\"type\":\"subscribe\",\"world\":1}");
    }
    return connected;
}

static void check_crowd_metrics(int port, int expected, const char *when)
{
    double clients = -1;
    for (int64_t deadline = ws_now_ms() + 10000; ws_now_ms() < deadline; sleep_ms(200)) {
        char *text = metrics_fetch(port);
        clients = text ? metric_or(text, "fluidcast_clients", -1) : -1;
        free(text);
        if (clients == expected) break;
    }
    CHECK(clients == expected, "%s: /metrics says fluidcast_clients %d (%g)", when, expected, clients);
}

static void check_crowd(int port)
{
    static crowd_member crowd[CLIENTS];
    int connected = connect_crowd(crowd, port);
    CHECK(connected == CLIENTS, "%d clients connect at once (%d did)", CLIENTS, connected);
    int done = 0;
    int64_t start = ws_now_ms();
    while ((done = crowd_pump(crowd, CLIENTS)) < CLIENTS && ws_now_ms() - start < DEADLINE_MS) crowd_wait(crowd, CLIENTS, 50);
    printf("%d of %d clients decoded %d frames within %lld ms\n", done, CLIENTS, FRAMES_EACH, (long long)(ws_now_ms() - start));
    CHECK(done == CLIENTS, "every client decodes %d frames within %d s (%d did)", FRAMES_EACH, DEADLINE_MS / 1000, done);
    int bad = 0;
    for (int i = 0; i < CLIENTS; i++) {
        const frame_follower *f = &crowd[i].p.follow;
        int ok = crowd[i].welcomed && crowd[i].acked && crowd[i].states >= 1 && f->corrupt == 0 && f->need_key == 0 &&
                 f->first_kind == FC_FRAME_KEY && ws_is_open(crowd[i].p.ws);
        if (!ok && bad++ < 5)
            fprintf(stderr, "client %d: welcome %d, ack %d, states %d, frames %ld, corrupt %ld, need_key %ld, first kind %d: %s\n", i,
                    crowd[i].welcomed, crowd[i].acked, crowd[i].states, f->frames, f->corrupt, f->need_key, f->first_kind,
                    f->last_error);
    }
    CHECK(bad == 0, "every client got welcome, ack, state and a key frame first, nothing corrupt (%d did not)", bad);
    check_crowd_metrics(port, CLIENTS, "with the crowd connected");
    for (int i = 0; i < CLIENTS; i++) peer_close(&crowd[i].p);
    check_crowd_metrics(port, 0, "after the crowd left");
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--max-clients", "64",
                          NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_many_clients");
    }
    check_crowd(server.port);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_many_clients");
}
