/* Server over real sockets: the keepalive (PROTOCOL.md section 1), shortened by FLUIDCAST_TEST_PING to
 * a ping after 1 s without a pong and 1 s to answer it. A client that answers stays; one that stops
 * answering gets a close frame (1008) with a reason, and /metrics counts it (issue 40 B). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "metrics_text.h"
#include "test_env.h"

static test_env env;

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    setenv("FLUIDCAST_TEST_PING", "1:1", 1);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--threads", "1",
                          NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_keepalive");
    }
    peer answering, silent;
    if (expect_hello(&answering, server.port, "answering", NULL, NULL) == 0 &&
        expect_hello(&silent, server.port, "silent", NULL, NULL) == 0) {
        ws_answer_pings(silent.ws, 0);
        int64_t start = ws_now_ms(), deadline = start + 8000;
        while (ws_is_open(silent.ws) && ws_now_ms() < deadline) {
            peer_pump(&silent, 100);
            peer_pump(&answering, 100);
        }
        int64_t took = ws_now_ms() - start;
        printf("the client that answers no ping: closed after %lld ms with %d '%s' (%ld pings)\n", (long long)took,
               ws_close_code(silent.ws), ws_close_reason(silent.ws), ws_pings_received(silent.ws));
        CHECK(ws_pings_received(silent.ws) >= 1, "the silent client was pinged (%ld)", ws_pings_received(silent.ws));
        CHECK(ws_close_code(silent.ws) == 1008 && strstr(ws_close_reason(silent.ws), "ping") != NULL,
              "it got a close frame 1008 whose reason names the ping: %d '%s'", ws_close_code(silent.ws),
              ws_close_reason(silent.ws));
        CHECK(took >= 1500 && took <= 5000, "after the ping interval and timeout, 2 s (%lld ms)", (long long)took);
        peer_pump(&answering, 2500); /* more pings, answered */
        CHECK(ws_is_open(answering.ws) && ws_pings_received(answering.ws) >= 3,
              "the client that answers stays, pinged about once a second (%ld pings)", ws_pings_received(answering.ws));
        cJSON *worlds = peer_request(&answering, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
        CHECK(jtype_is(worlds, "worlds"), "and is answered: %s", jtext(worlds));
        cJSON_Delete(worlds);
        char *metrics = metrics_fetch(server.port);
        CHECK(metric_or(metrics, "fluidcast_ping_timeouts_total", -1) == 1, "/metrics counts one ping timeout");
        CHECK(metric_or(metrics, "fluidcast_clients", -1) == 1, "/metrics shows one client left");
        free(metrics);
    }
    peer_close(&answering);
    peer_close(&silent);
    CHECK(test_server_stop(&server) == 0, "the server exits 0");
    return check_summary("test_server_keepalive");
}
