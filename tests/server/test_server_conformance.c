/* Server over real sockets: the places where libwebsockets alone is lax. Request ids come back as
 * the very bytes the client sent (integers up to 2^63 - 1, strings with escapes) in welcome, worlds,
 * ack and error; invalid close codes and close payloads fail the connection with 1002; long URLs
 * get 414 and long headers 431, with a status line. Unmasked client frames: libwebsockets 4.1.6 does
 * not check the mask bit (PROTOCOL.md section 1); the test accepts a 1002 or the documented gap and
 * checks that nothing else happens. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "message.h"
#include "metrics_text.h"
#include "test_env.h"

static test_env env;
static int port;

/* ---- exact ids ------------------------------------------------------------------------------------- */

static ws_client *open_ws(void)
{
    ws_options o = {.port = port, .subprotocol = FC_MESSAGE_SUBPROTOCOL, .timeout_ms = PEER_TIMEOUT_MS};
    ws_handshake hs;
    ws_client *c = ws_open(&o, &hs);
    CHECK(c != NULL, "a WebSocket opens: %s", hs.error);
    return c;
}

/* The raw text of the next reply (welcome, worlds with an id, ack, error), skipping state, stats and
 * unsolicited worlds; a malloc'd copy, or NULL on timeout or close. */
static char *next_reply_text(ws_client *c)
{
    int64_t deadline = ws_now_ms() + PEER_TIMEOUT_MS;
    ws_message m;
    while (ws_now_ms() < deadline) {
        ws_status st = ws_recv(c, (int)(deadline - ws_now_ms()), &m);
        if (st != WS_OK) return NULL;
        if (m.opcode != WS_OP_TEXT) continue;
        cJSON *msg = cJSON_ParseWithLength((const char *)m.data, m.len);
        int reply = jtype_is(msg, "welcome") || jtype_is(msg, "ack") || jtype_is(msg, "error") ||
                    (jtype_is(msg, "worlds") && !cJSON_IsNull(jget(msg, "id")));
        cJSON_Delete(msg);
        if (reply) return strdup((const char *)m.data);
    }
    return NULL;
}

/* Sends the request with "id": literal spliced in and CHECKs that the reply of that type carries
 * "id":literal byte for byte. */
static void expect_id_echo(ws_client *c, const char *request, const char *literal, const char *reply_type)
{
    char msg[512], want_id[256], want_type[64];
    snprintf(msg, sizeof msg, "{\"id\": %s, %s", literal, request + 1);
    ws_send_text(c, msg);
    char *reply = next_reply_text(c);
    snprintf(want_id, sizeof want_id, "\"id\":%s,", literal);
    snprintf(want_type, sizeof want_type, "\"type\":\"%s\"", reply_type);
    CHECK(reply && strstr(reply, want_type) && strstr(reply, want_id), "%s: the %s carries %s exactly: %.300s", msg,
          reply_type, want_id, reply ? reply : "(no reply)");
    free(reply);
}

static void check_exact_ids(void)
{
    ws_client *c = open_ws();
    if (!c) return;
    expect_id_echo(c, "{\"type\":\"hello\",\"client\":\"ids\"}", "9007199254740991", "welcome");
    expect_id_echo(c, "{\"type\":\"list_worlds\"}", "9223372036854775807", "worlds");
    expect_id_echo(c, "{\"type\":\"list_worlds\"}", "\"a\\u0041\\\"b\\/\\n\\u00e9 \\ud83d\\ude00\"", "worlds");
    expect_id_echo(c, "{\"type\":\"list_worlds\"}", "2.0", "worlds");
    /* ack and error of the network thread, and a world's ack from its own thread: both are built by
     * server/host/replies.c (fc_reply_ack, fc_reply_error), whose id_json must insert the literal
     * with cJSON_CreateRaw (cJSON_Parse + print rounds 9007199254740993 to 9.00719925474099e+15) */
    expect_id_echo(c, "{\"type\":\"subscribe\",\"world\":1}", "9223372036854775807", "ack");
    expect_id_echo(c, "{\"type\":\"unsubscribe\",\"world\":999}", "9007199254740993", "error");
    expect_id_echo(c, "{\"type\":\"unsubscribe\",\"world\":999}", "\"x\\u0041\\\\\"", "error");
    expect_id_echo(c, "{\"type\":\"pause\",\"world\":1}", "9223372036854775806", "ack");
    expect_id_echo(c, "{\"type\":\"resume\",\"world\":1}", "\"w\\u00e9\"", "ack");
    expect_id_echo(c, "{\"type\":\"subscribe\",\"world\":1,\"max_fps\":500}", "\"bad \\u0066ps\"", "error");
    /* past 2^63 - 1: bad_value on id, and the reply echoes no id */
    ws_send_text(c, "{\"type\":\"list_worlds\",\"id\":9223372036854775808}");
    char *reply = next_reply_text(c);
    cJSON *r = reply ? cJSON_Parse(reply) : NULL;
    CHECK(is_error(r, "bad_value", "id") && cJSON_IsNull(jget(r, "id")) && jstr_has(r, "message", "9223372036854775807"),
          "id 9223372036854775808: bad_value on id with id null: %.300s", reply ? reply : "(none)");
    cJSON_Delete(r);
    free(reply);
    ws_close(c, 1000, 2000);
}

/* ---- unmasked frames ---------------------------------------------------------------------------------- */

static void check_unmasked(void)
{
    ws_client *c = open_ws();
    if (!c) return;
    ws_send_text(c, "{\"type\":\"hello\",\"client\":\"unmasked\",\"id\":1}");
    char *welcome = next_reply_text(c);
    CHECK(welcome && strstr(welcome, "\"welcome\""), "hello is welcomed: %.100s", welcome ? welcome : "(none)");
    free(welcome);
    const char msg[] = "{\"type\":\"list_worlds\",\"id\":\"unmasked\"}";
    ws_send_frame_unmasked(c, WS_OP_TEXT, 1, msg, sizeof msg - 1);
    char *reply = next_reply_text(c);
    int failed_1002 = !reply && ws_close_code(c) == 1002;
    int gap = reply && strstr(reply, "\"type\":\"worlds\"") && strstr(reply, "\"id\":\"unmasked\"");
    if (gap) printf("NOTE: libwebsockets 4.1.6 took an unmasked client frame as if masked (PROTOCOL.md 1 documents it)\n");
    CHECK(failed_1002 || gap,
          "an unmasked frame either fails the connection with 1002 or is read as if masked (the documented gap); "
          "got close %d, reply %.200s", ws_close_code(c), reply ? reply : "(none)");
    free(reply);
    ws_free(c);
    peer p;
    CHECK(expect_hello(&p, port, "after unmasked", NULL, NULL) == 0, "the server goes on");
    peer_close(&p);
}

/* ---- close frames ------------------------------------------------------------------------------------------ */

/* Sends a close frame with this payload and returns the code of the server's close (-1: none). */
static int close_with(const void *payload, size_t len)
{
    ws_client *c = open_ws();
    if (!c) return -1;
    ws_send_text(c, "{\"type\":\"hello\",\"client\":\"closer\"}");
    ws_message m;
    ws_recv(c, PEER_TIMEOUT_MS, &m); /* the welcome */
    ws_send_close_raw(c, payload, len);
    int64_t deadline = ws_now_ms() + 10000;
    while (ws_is_open(c) && ws_now_ms() < deadline) ws_recv(c, 200, &m);
    int code = ws_close_code(c);
    ws_free(c);
    return code;
}

static int close_code_with(int code, const char *reason, size_t reason_len)
{
    unsigned char payload[125] = {(unsigned char)(code >> 8), (unsigned char)code};
    memcpy(payload + 2, reason, reason_len);
    return close_with(payload, 2 + reason_len);
}

static void check_close_frames(void)
{
    static const int invalid[] = {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535};
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        int got = close_code_with(invalid[i], "", 0);
        CHECK(got == 1002, "close code %d fails the connection with 1002 (got %d)", invalid[i], got);
    }
    static const int valid[] = {1000, 1001, 1003, 1007, 1011, 3000, 4999};
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        int got = close_code_with(valid[i], "", 0);
        CHECK(got == valid[i], "close code %d is echoed (got %d)", valid[i], got);
    }
    int got = close_with("\x03", 1);
    CHECK(got == 1002, "a close payload of 1 byte fails the connection with 1002 (got %d)", got);
    got = close_with("", 0);
    CHECK(got == 1005 || got == 1000, "an empty close payload is a normal close (got %d)", got);
    got = close_code_with(1000, "bye \xff", 5);
    CHECK(got == 1002, "a close reason that is not UTF-8 fails with 1002 (got %d)", got);
    got = close_code_with(1000, "bye \xe2\x82", 6);
    CHECK(got == 1002, "a close reason with a cut UTF-8 sequence fails with 1002 (got %d)", got);
    got = close_code_with(1000, "bye \xed\xa0\x80", 7);
    CHECK(got == 1002, "a close reason with a surrogate fails with 1002 (got %d)", got);
    got = close_code_with(1000, "bye \xc3\xa9 \xf0\x9f\x98\x80", 11);
    CHECK(got == 1000, "a UTF-8 close reason is fine (got %d)", got);
}

/* ---- 414 and 431 ---------------------------------------------------------------------------------------------- */

/* A request of the given head (request line and headers, without the blank line); CHECKs the status. */
static void expect_status(const char *what, const char *head, int status)
{
    size_t len = strlen(head);
    char *req = malloc(len + 5);
    memcpy(req, head, len);
    memcpy(req + len, "\r\n\r\n", 5);
    http_response r;
    int rc = http_request_raw(port, req, len + 4, 15000, &r);
    CHECK(rc == 0 && r.status == status, "%s: HTTP %d (got %d, rc %d: %.80s)", what, status, r.status, rc, r.head ? r.head : "");
    http_response_free(&r);
    free(req);
}

static char *repeat(char c, size_t n)
{
    char *s = malloc(n + 1);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

static void check_long_requests(void)
{
    char *a5000 = repeat('a', 5000), *a4000 = repeat('a', 4000), *a3000 = repeat('a', 3000);
    char *head = malloc(40000);
    snprintf(head, 40000, "GET /%s HTTP/1.1\r\nHost: 127.0.0.1", a5000);
    expect_status("a path of 5000 bytes", head, 414);
    snprintf(head, 40000, "GET /healthz?token=%s HTTP/1.1\r\nHost: 127.0.0.1", a5000);
    expect_status("a query of 5000 bytes", head, 414);
    snprintf(head, 40000, "GET /%s HTTP/1.1\r\nHost: 127.0.0.1", a4000);
    expect_status("a path of 4000 bytes (not too long)", head, 404);
    snprintf(head, 40000,
             "GET /%s HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: fluidcast.v1",
             a5000);
    expect_status("a WebSocket upgrade on a path of 5000 bytes", head, 414);
    snprintf(head, 40000, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: %s", a5000);
    expect_status("a User-Agent of 5000 bytes", head, 431);
    snprintf(head, 40000, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: %s\r\nCookie: %s\r\nAccept: %s", a3000,
             a3000, a3000);
    expect_status("three headers of 3000 bytes", head, 431);
    snprintf(head, 40000,
             "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nCookie: %s",
             a5000);
    expect_status("a WebSocket upgrade with a Cookie of 5000 bytes", head, 431);
    snprintf(head, 40000, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: %s", a4000);
    expect_status("a User-Agent of 4000 bytes (not too long)", head, 200);
    /* libwebsockets drops a request whose unknown headers overflow its 16 KiB buffer, without an
     * answer (PROTOCOL.md 1); the server goes on */
    char *a20000 = repeat('a', 20000);
    snprintf(head, 40000, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: %s", a20000);
    http_response r;
    http_request_raw(port, head, strlen(head), 15000, &r);
    http_response_free(&r);
    expect_status("a plain request after all that", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close", 200);
    char *text = metrics_fetch(port);
    double n414 = text ? metric_or(text, "fluidcast_http_rejected_total{status=\"414\"}", -1) : -1;
    double n431 = text ? metric_or(text, "fluidcast_http_rejected_total{status=\"431\"}", -1) : -1;
    CHECK(n414 == 3 && n431 == 3, "/metrics counts 3 answers 414 and 3 answers 431 (%g, %g)", n414, n431);
    free(text);
    free(a5000), free(a4000), free(a3000), free(a20000), free(head);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_conformance");
    }
    port = server.port;
    check_exact_ids();
    check_unmasked();
    check_close_frames();
    check_long_requests();
    CHECK(server_alive(&server), "the server is still running");
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_conformance");
}
