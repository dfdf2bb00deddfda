/* Server over real sockets: nobody hogs the slots (PROTOCOL.md section 1, "Slots"). Silent TCP
 * sockets and WebSockets that never say hello neither keep a token holder out nor stay longer than
 * about 5 s (silent WebSockets end with 1008); a full server makes room for a new WebSocket by
 * closing the oldest one that has not said hello (1013) and keeps serving plain HTTP; a token holder's hello on a full server takes the oldest watcher's slot
 * (bye "evicted", 1013) while a watcher's hello gets bye "full" and 1013; one address has at most
 * 64 half-open connections; connections churned at 100 per second are all served. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "expect.h"
#include "message.h"
#include "metrics_text.h"
#include "test_env.h"

#define MAX_CLIENTS 16
#define RESERVED 16      /* FC_RESERVED_SLOTS */
#define PER_ADDRESS 64   /* FC_HALF_OPEN_PER_ADDRESS */
#define TOKEN "slots-secret"
#define HELLO_TIMEOUT_MS 5000
#define LATE_MS 3000     /* slack past a 5 s timeout: the 250 ms tick, 1 s libwebsockets timer, sanitizers */

static test_env env;
static int port;

/* ---- helpers ------------------------------------------------------------------------------------ */

/* A WebSocket that completed the handshake and says nothing; NULL on failure. */
static ws_client *silent_ws(void)
{
    ws_options o = {.port = port, .subprotocol = FC_MESSAGE_SUBPROTOCOL, .timeout_ms = PEER_TIMEOUT_MS};
    ws_handshake hs;
    ws_client *c = ws_open(&o, &hs);
    if (!c) fprintf(stderr, "silent WebSocket: %s\n", hs.error);
    return c;
}

/* Waits until the server ends the WebSocket; the close code (-1 without a close frame), and in
 * *after_ms how long that took from start_ms. Texts received on the way are counted in *texts and
 * the last bye's reason copied into bye (when not NULL). */
static int wait_close(ws_client *c, int64_t start_ms, int timeout_ms, int64_t *after_ms, char *bye, size_t byelen)
{
    int64_t deadline = ws_now_ms() + timeout_ms;
    ws_message m;
    while (ws_is_open(c) && ws_now_ms() < deadline) {
        ws_status st = ws_recv(c, 100, &m);
        if (st == WS_OK && m.opcode == WS_OP_TEXT && bye) {
            cJSON *msg = cJSON_ParseWithLength((const char *)m.data, m.len);
            if (jtype_is(msg, "bye")) snprintf(bye, byelen, "%s", jstr(msg, "reason") ? jstr(msg, "reason") : "?");
            cJSON_Delete(msg);
        }
    }
    if (after_ms) *after_ms = ws_now_ms() - start_ms;
    return ws_is_open(c) ? -2 : ws_close_code(c);
}

/* Waits until the server closes a raw TCP socket: 1 when it did (EOF or reset) within timeout_ms. */
static int tcp_closed_within(int fd, int timeout_ms)
{
    int64_t deadline = ws_now_ms() + timeout_ms;
    char buf[256];
    while (ws_fd_wait(fd, POLLIN, deadline) > 0) {
        ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return 1;
    }
    return 0;
}

static double metric_now(const char *series)
{
    char *text = metrics_fetch(port);
    double v = text ? metric_or(text, series, -1) : -1;
    free(text);
    return v;
}

/* Waits up to 10 s for /metrics to count n WebSocket clients; 1 when it does. */
static int wait_clients(int n)
{
    for (int64_t deadline = ws_now_ms() + 10000; ws_now_ms() < deadline; sleep_ms(50))
        if (metric_now("fluidcast_clients") == n) return 1;
    return 0;
}

static void expect_healthz(const char *when)
{
    http_response r;
    int rc = http_get(port, "/healthz", 15000, &r);
    CHECK(rc == 0 && r.status == 200, "%s: GET /healthz answers 200 (got %d)", when, r.status);
    http_response_free(&r);
}

/* ---- silent sockets and WebSockets ------------------------------------------------------------------ */

static void check_silent(void)
{
    int tcp[MAX_CLIENTS];
    ws_client *ws[MAX_CLIENTS];
    int64_t start = ws_now_ms();
    for (int i = 0; i < MAX_CLIENTS; i++) tcp[i] = ws_tcp_connect(port, 0, 5000);
    for (int i = 0; i < MAX_CLIENTS; i++) ws[i] = silent_ws();
    int partial = ws_tcp_connect(port, 0, 5000); /* an HTTP request that never ends */
    const char head[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow";
    CHECK(partial >= 0 && ws_write_all(partial, head, sizeof head - 1, 5000) == 0, "a partial request is sent");
    int opened = 0;
    for (int i = 0; i < MAX_CLIENTS; i++) opened += tcp[i] >= 0 && ws[i] != NULL;
    CHECK(opened == MAX_CLIENTS, "%d silent TCP sockets and %d silent WebSockets open (%d pairs did)", MAX_CLIENTS,
          MAX_CLIENTS, opened);

    /* they do not keep a token holder out, nor a watcher */
    peer boss, viewer;
    int in = expect_hello(&boss, port, "token holder", TOKEN, "control") == 0;
    CHECK(in, "with %d silent sockets and %d silent WebSockets on --max-clients %d, a token holder gets in", MAX_CLIENTS,
          MAX_CLIENTS, MAX_CLIENTS);
    expect_hello(&viewer, port, "viewer", NULL, "watch");
    expect_healthz("with silent sockets");

    /* the silent WebSockets end with 1008 about 5 s after their handshake, the sockets about 5 s
     * after accept; none much earlier */
    int closed_1008 = 0, early = 0, hello_reason = 0;
    int64_t slowest = 0, fastest = 1 << 30;
    for (int i = 0; i < MAX_CLIENTS; i++) {
        if (!ws[i]) continue;
        int64_t after = 0;
        int code = wait_close(ws[i], start, HELLO_TIMEOUT_MS + LATE_MS + 2000, &after, NULL, 0);
        closed_1008 += code == 1008;
        hello_reason += strstr(ws_close_reason(ws[i]), "hello") != NULL;
        early += after < HELLO_TIMEOUT_MS - 500;
        if (after > slowest) slowest = after;
        if (after < fastest) fastest = after;
        ws_free(ws[i]);
    }
    printf("silent WebSockets closed after %lld to %lld ms\n", (long long)fastest, (long long)slowest);
    CHECK(closed_1008 == MAX_CLIENTS && hello_reason == MAX_CLIENTS,
          "every silent WebSocket is closed with 1008 and a reason naming hello (%d, %d of %d)", closed_1008, hello_reason,
          MAX_CLIENTS);
    CHECK(early == 0 && slowest <= HELLO_TIMEOUT_MS + LATE_MS, "they are closed 5 s after the handshake (%lld to %lld ms)",
          (long long)fastest, (long long)slowest);
    int tcp_closed = 0;
    for (int i = 0; i < MAX_CLIENTS; i++)
        if (tcp[i] >= 0) tcp_closed += tcp_closed_within(tcp[i], (int)(start + HELLO_TIMEOUT_MS + LATE_MS - ws_now_ms())),
                         close(tcp[i]);
    CHECK(tcp_closed == MAX_CLIENTS, "every silent TCP socket is closed by the server within %d ms (%d of %d)",
          HELLO_TIMEOUT_MS + LATE_MS, tcp_closed, MAX_CLIENTS);
    if (partial >= 0) {
        CHECK(tcp_closed_within(partial, (int)(start + HELLO_TIMEOUT_MS + LATE_MS - ws_now_ms())),
              "a request that never ends is closed within %d ms", HELLO_TIMEOUT_MS + LATE_MS);
        close(partial);
    }
    CHECK(metric_now("fluidcast_hello_timeouts_total") >= MAX_CLIENTS, "/metrics counts the hello timeouts (%g)",
          metric_now("fluidcast_hello_timeouts_total"));

    /* those who said hello stay */
    cJSON *r = peer_request(&boss, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
    CHECK(jtype_is(r, "worlds"), "the token holder is still served after the timeouts: %s", jtext(r));
    cJSON_Delete(r);
    r = peer_request(&viewer, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
    CHECK(jtype_is(r, "worlds"), "the watcher is still served after the timeouts: %s", jtext(r));
    cJSON_Delete(r);
    peer_close(&boss);
    peer_close(&viewer);
}

/* ---- a full server ------------------------------------------------------------------------------ */

static void check_full(void)
{
    static peer watchers[MAX_CLIENTS];
    int in = 0;
    for (int i = 0; i < MAX_CLIENTS; i++) {
        char name[32];
        snprintf(name, sizeof name, "watcher %d", i);
        in += expect_hello(&watchers[i], port, name, NULL, "watch") == 0;
    }
    CHECK(in == MAX_CLIENTS, "%d watchers fill --max-clients %d (%d did)", MAX_CLIENTS, MAX_CLIENTS, in);
    double refused_before = metric_now("fluidcast_connections_refused_total{reason=\"server_full\"}");

    /* a watcher's hello on a full server: bye "full", then 1013 */
    peer late;
    if (peer_connect(&late, port, "late watcher") == 0) {
        peer_send(&late, "{\"type\":\"hello\",\"client\":\"late watcher\"}");
        char bye[32] = "";
        int code = wait_close(late.ws, ws_now_ms(), 10000, NULL, bye, sizeof bye);
        CHECK(code == 1013 && strcmp(bye, "full") == 0, "a watcher's hello on a full server: bye full and 1013 (bye '%s', %d)",
              bye, code);
        peer_close(&late);
    }

    /* a token holder's hello evicts the oldest watcher */
    peer boss;
    CHECK(expect_hello(&boss, port, "token holder", TOKEN, "control") == 0, "a token holder gets into a full server");
    char bye[32] = "";
    int code = wait_close(watchers[0].ws, ws_now_ms(), 10000, NULL, bye, sizeof bye);
    CHECK(code == 1013 && strcmp(bye, "evicted") == 0, "the oldest watcher gets bye evicted and 1013 (bye '%s', %d: %s)", bye,
          code, ws_close_reason(watchers[0].ws));
    peer_close(&watchers[0]);
    int served = 0;
    for (int i = 1; i < MAX_CLIENTS; i++) {
        cJSON *r = peer_request(&watchers[i], "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
        served += jtype_is(r, "worlds");
        cJSON_Delete(r);
    }
    CHECK(served == MAX_CLIENTS - 1, "the other watchers stay (%d of %d answered)", served, MAX_CLIENTS - 1);

    CHECK(wait_clients(MAX_CLIENTS), "the server counts %d clients again (%g)", MAX_CLIENTS, metric_now("fluidcast_clients"));

    /* the reserved slots fill with WebSockets before hello (an attacker's, reopened as they time
     * out); the next WebSocket takes the oldest one's slot (1013), so a token holder still gets in
     * and its hello evicts the oldest watcher */
    ws_client *pending[RESERVED];
    int opened = 0;
    int64_t t0 = ws_now_ms();
    for (int i = 0; i < RESERVED; i++) opened += (pending[i] = silent_ws()) != NULL;
    CHECK(opened == RESERVED, "%d more WebSockets before hello fill the reserve (%d did)", RESERVED, opened);
    peer boss2;
    int64_t t1 = ws_now_ms();
    CHECK(expect_hello(&boss2, port, "second token holder", TOKEN, "control") == 0,
          "a token holder gets in past %d watchers and %d silent WebSockets", MAX_CLIENTS - 1, RESERVED);
    if (pending[0]) {
        int64_t after = 0;
        code = wait_close(pending[0], t1, 5000, &after, NULL, 0);
        CHECK(code == 1013 && after < 2000 && strstr(ws_close_reason(pending[0]), "newer connection"),
              "the oldest silent WebSocket made room with 1013 at once (%d after %lld ms: %s)", code, (long long)after,
              ws_close_reason(pending[0]));
    }
    code = wait_close(watchers[1].ws, ws_now_ms(), 10000, NULL, bye, sizeof bye);
    CHECK(code == 1013 && strcmp(bye, "evicted") == 0, "its hello evicts the oldest watcher (bye '%s', %d)", bye, code);
    expect_healthz("on a full server");
    double refused_after = metric_now("fluidcast_connections_refused_total{reason=\"server_full\"}");
    CHECK(refused_after >= refused_before + 1, "/metrics counts the refusal (%g -> %g)", refused_before, refused_after);
    CHECK(metric_now("fluidcast_clients_evicted_total") == 3, "/metrics counts three evictions (%g)",
          metric_now("fluidcast_clients_evicted_total"));

    /* once the reserve's sessions timed out and a controller left, a new watcher gets its slot */
    for (int i = 0; i < RESERVED; i++)
        if (pending[i]) wait_close(pending[i], t0, HELLO_TIMEOUT_MS + LATE_MS, NULL, NULL, 0), ws_free(pending[i]);
    peer_close(&watchers[1]);
    peer_close(&boss2);
    CHECK(wait_clients(MAX_CLIENTS - 1), "the server counts %d clients (%g)", MAX_CLIENTS - 1, metric_now("fluidcast_clients"));
    peer again;
    CHECK(expect_hello(&again, port, "after the timeouts", NULL, "watch") == 0,
          "after the reserve's sessions timed out a watcher gets the free slot");
    peer_close(&again);
    peer_close(&boss);
    for (int i = 2; i < MAX_CLIENTS; i++) peer_close(&watchers[i]);
}

/* ---- half-open connections per address, and churn ---------------------------------------------------- */

static void check_per_address(void)
{
    sleep_ms(500); /* the server has seen the earlier connections end */
    int fds[PER_ADDRESS];
    int opened = 0;
    for (int i = 0; i < PER_ADDRESS; i++) opened += (fds[i] = ws_tcp_connect(port, 0, 5000)) >= 0;
    CHECK(opened == PER_ADDRESS, "%d half-open connections from 127.0.0.1 (%d opened)", PER_ADDRESS, opened);
    sleep_ms(300); /* all accepted */
    int extra = ws_tcp_connect(port, 0, 5000);
    CHECK(extra >= 0 && tcp_closed_within(extra, 1500), "connection %d from the same address is closed at once", PER_ADDRESS + 1);
    if (extra >= 0) close(extra);
    CHECK(metric_now("fluidcast_connections_refused_total{reason=\"address_limit\"}") < 0,
          "(/metrics is refused too while the address is at its limit)");
    for (int i = 0; i < 8; i++) close(fds[i]);
    sleep_ms(300);
    expect_healthz("after 8 of the half-open connections closed");
    CHECK(metric_now("fluidcast_connections_refused_total{reason=\"address_limit\"}") >= 1, "/metrics counts the refusal");
    for (int i = 8; i < PER_ADDRESS; i++)
        if (fds[i] >= 0) close(fds[i]);
}

static void check_churn(void)
{
    sleep_ms(300);
    int ok = 0, n = 200;
    int64_t start = ws_now_ms();
    for (int i = 0; i < n; i++) {
        int64_t due = start + i * 10; /* 100 connections per second */
        if (ws_now_ms() < due) sleep_ms((int)(due - ws_now_ms()));
        ws_client *c = silent_ws();
        if (!c) continue;
        ws_send_text(c, "{\"type\":\"hello\",\"client\":\"churn\"}");
        ws_message m;
        ok += ws_recv(c, PEER_TIMEOUT_MS, &m) == WS_OK && strstr((const char *)m.data, "\"welcome\"") != NULL;
        if (i % 2) ws_close(c, 1000, 2000);
        else ws_free(c); /* half of them just drop the socket */
    }
    int64_t took = ws_now_ms() - start;
    printf("churn: %d of %d welcomed in %lld ms\n", ok, n, (long long)took);
    CHECK(ok == n, "%d connections at 100 per second are all welcomed (%d were)", n, ok);
    expect_healthz("after the churn");
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--max-clients", "16",
                          "--token", TOKEN, NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_slots");
    }
    port = server.port;
    check_silent();
    check_full();
    check_per_address();
    check_churn();
    CHECK(server_alive(&server), "the server is still running");
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_slots");
}
