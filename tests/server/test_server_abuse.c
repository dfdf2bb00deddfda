/* Server over real sockets: hostile and broken input. Every invalid schema example gets its
 * expected error; size and depth limits; binary messages; fragments; WebSocket protocol
 * violations; the rate limit. A watcher on its own thread must keep decoding frames throughout. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"
#include "watcher.h"

#define PACE_MS 15 /* between messages: below the rate limit of 100 per second */

static test_env env;
static int port;

/* ---- files ---------------------------------------------------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    *len = data && fread(data, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
    fclose(f);
    if (data) data[*len] = '\0';
    return data;
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The *.json names of dir, sorted (caller frees each and the array); count in *n. */
static char **list_json(const char *dir, size_t *n)
{
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0) continue;
        if (*n == cap) names = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
        names[(*n)++] = strdup(e->d_name);
    }
    if (d) closedir(d);
    if (*n) qsort(names, *n, sizeof *names, compare_names);
    return names;
}

/* ---- replies ---------------------------------------------------------------------------------------- */

/* The next reply (ack, error, welcome, or worlds with an id), skipping state, stats and unsolicited worlds. */
static cJSON *next_reply(peer *p, int timeout_ms)
{
    int64_t deadline = ws_now_ms() + timeout_ms;
    for (int64_t left; (left = deadline - ws_now_ms()) >= 0;) {
        cJSON *m = peer_next_text(p, (int)left);
        if (!m) return NULL;
        int unsolicited = jtype_is(m, "state") || jtype_is(m, "stats") || (jtype_is(m, "worlds") && cJSON_IsNull(jget(m, "id")));
        if (!unsolicited) return m;
        cJSON_Delete(m);
    }
    return NULL;
}

/* The abuser's connection ended (it should not have, PROTOCOL.md section 3): CHECK fails once
 * with the close code, and a new connection with hello carries on so that later checks still run. */
static void ensure_open(peer *p, const char *after)
{
    if (p->ws && ws_is_open(p->ws)) return;
    CHECK(0, "after %s the connection stays open (the server closed it with code %d)", after,
          p->ws ? ws_close_code(p->ws) : -1);
    peer_close(p);
    expect_hello(p, port, "abuser", NULL, "control");
}

/* Sends data as one text message (or binary) and CHECKs that the reply is error code with field. */
static void expect_raw_error(peer *p, int binary, const void *data, size_t len, const char *code, const char *field,
                             const char *what)
{
    int sent = binary ? ws_send_binary(p->ws, data, len) : ws_send_text_len(p->ws, data, len);
    cJSON *r = sent == 0 ? next_reply(p, PEER_TIMEOUT_MS) : NULL;
    CHECK(is_error(r, code, field), "%s: error %s (field %s), got %s", what, code, field ? field : "null", jtext(r));
    cJSON_Delete(r);
    sleep_ms(PACE_MS);
    ensure_open(p, what);
}

/* A request with an id is answered: the connection is still usable. */
static void expect_usable(peer *p, const char *after)
{
    cJSON *r = peer_request(p, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
    CHECK(jtype_is(r, "worlds"), "after %s the connection still answers list_worlds: %s", after, jtext(r));
    cJSON_Delete(r);
    sleep_ms(PACE_MS);
    ensure_open(p, after);
}

/* ---- the schema examples ------------------------------------------------------------------------------ */

static void check_example(peer *p, const char *dir, const char *name, const cJSON *want)
{
    char path[1024];
    size_t len = 0;
    snprintf(path, sizeof path, "%s/invalid/%s", dir, name);
    char *text = read_file(path, &len);
    CHECK(text != NULL, "read %s", path);
    if (ws_send_text_len(p->ws, text ? text : "", len) != 0) CHECK(0, "%s: sent", name);
    free(text);
    cJSON *r = next_reply(p, PEER_TIMEOUT_MS);
    const char *field = cJSON_IsString(jget(want, "field")) ? jstr(want, "field") : NULL;
    const char *message = jstr(want, "message"), *got = jstr(r, "message");
    CHECK(is_error(r, jstr(want, "code"), field), "invalid/%s: error %s (field %s), got %s", name, jstr(want, "code"),
          field ? field : "null", jtext(r));
    CHECK(message && got && strstr(got, message), "invalid/%s: message contains '%s': %s", name, message, got);
    cJSON_Delete(r);
    sleep_ms(PACE_MS);
    ensure_open(p, name);
}

static void check_examples(peer *p)
{
    char path[1024];
    size_t len = 0, n = 0;
    snprintf(path, sizeof path, "%s/expected_errors.json", env.examples);
    char *text = read_file(path, &len);
    cJSON *expected = text ? cJSON_Parse(text) : NULL;
    free(text);
    snprintf(path, sizeof path, "%s/invalid", env.examples);
    char **names = list_json(path, &n);
    CHECK(expected && n >= 100, "%zu invalid examples and expected_errors.json in %s", n, env.examples);
    for (size_t i = 0; i < n; i++) {
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(expected, names[i]);
        CHECK(want != NULL, "expected_errors.json has %s", names[i]);
        if (want) check_example(p, env.examples, names[i], want);
        free(names[i]);
    }
    free(names);
    cJSON_Delete(expected);
    expect_usable(p, "the invalid examples");
}

/* ---- limits, binary, fragments --------------------------------------------------------------------- */

/* A list_worlds request with id "pad" filled with spaces to exactly len bytes. */
static char *padded_request(size_t len)
{
    const char *head = "{\"type\":\"list_worlds\",\"id\":\"pad\"", *tail = "}";
    char *msg = malloc(len + 1);
    memset(msg, ' ', len);
    memcpy(msg, head, strlen(head));
    msg[len - 1] = tail[0];
    msg[len] = '\0';
    return msg;
}

static void check_sizes(peer *p)
{
    char *exact = padded_request(65536);
    CHECK(ws_send_text_len(p->ws, exact, 65536) == 0, "send 65,536 bytes");
    cJSON *r = next_reply(p, PEER_TIMEOUT_MS);
    CHECK(jtype_is(r, "worlds") && jstr_is(r, "id", "pad"), "a message of exactly 65,536 bytes is answered: %s", jtext(r));
    cJSON_Delete(r);
    free(exact);
    char *over = padded_request(65537);
    expect_raw_error(p, 0, over, 65537, "too_large", NULL, "65,537 bytes");
    free(over);
    char *big = padded_request(70 * 1024);
    expect_raw_error(p, 0, big, 70 * 1024, "too_large", NULL, "a 70 KiB message");
    for (int i = 0; i < 5; i++) /* the same in 5 fragments */
        ws_send_frame_raw(p->ws, i ? WS_OP_CONTINUATION : WS_OP_TEXT, i == 4, big + i * 14 * 1024, 14 * 1024);
    r = next_reply(p, PEER_TIMEOUT_MS);
    CHECK(is_error(r, "too_large", NULL), "a 70 KiB message in 5 fragments: too_large, got %s", jtext(r));
    cJSON_Delete(r);
    free(big);
    expect_usable(p, "too_large messages");
}

static void check_depth(peer *p)
{
    char msg[256] = "{\"type\":\"hello\",\"client\":\"deep\",\"x\":";
    size_t n = strlen(msg);
    for (int i = 0; i < 19; i++) msg[n++] = '[';
    for (int i = 0; i < 19; i++) msg[n++] = ']';
    msg[n++] = '}';
    expect_raw_error(p, 0, msg, n, "too_deep", NULL, "20 levels of nesting");
    expect_usable(p, "too_deep");
}

static void check_binary(peer *p)
{
    unsigned char garbage[300];
    for (size_t i = 0; i < sizeof garbage; i++) garbage[i] = (unsigned char)(i * 37 + 11);
    expect_raw_error(p, 1, garbage, sizeof garbage, "bad_message", NULL, "a binary message");
    expect_raw_error(p, 1, "FCPF", 4, "bad_message", NULL, "a binary message that looks like a frame");
    expect_usable(p, "binary messages");
}

static void check_fragments(peer *p)
{
    const char *parts[] = {"{\"type\":\"list", "_worlds\",\"id\":", "\"frag\"}"};
    long pongs = ws_pongs_received(p->ws);
    ws_send_frame_raw(p->ws, WS_OP_TEXT, 0, parts[0], strlen(parts[0]));
    ws_send_frame_raw(p->ws, WS_OP_PING, 1, "ping", 4); /* control frames may come between fragments */
    ws_send_frame_raw(p->ws, WS_OP_CONTINUATION, 0, parts[1], strlen(parts[1]));
    ws_send_frame_raw(p->ws, WS_OP_CONTINUATION, 1, parts[2], strlen(parts[2]));
    cJSON *r = next_reply(p, PEER_TIMEOUT_MS);
    CHECK(jtype_is(r, "worlds") && jstr_is(r, "id", "frag"), "a message in 3 fragments is reassembled and answered: %s",
          jtext(r));
    CHECK(ws_pongs_received(p->ws) == pongs + 1, "the ping between the fragments got a pong");
    cJSON_Delete(r);
}

/* A connection that breaks the WebSocket protocol is closed; the server goes on. */
static void check_violation(const char *what, const void *bytes, size_t len)
{
    peer p;
    if (expect_hello(&p, port, what, NULL, NULL) != 0) return;
    ws_send_bytes_raw(p.ws, bytes, len);
    ws_message m;
    int64_t deadline = ws_now_ms() + 10000;
    while (ws_now_ms() < deadline && ws_recv(p.ws, 200, &m) != WS_CLOSED && ws_is_open(p.ws)) continue;
    CHECK(!ws_is_open(p.ws), "%s: the server ends the connection", what);
    peer_close(&p);
}

static void check_violations(void)
{
    const unsigned char reserved_opcode[] = {0x83, 0x80, 1, 2, 3, 4};
    const unsigned char rsv_bits[] = {0xF1, 0x80, 1, 2, 3, 4};
    unsigned char noise[256];
    memset(noise, 0xff, sizeof noise);
    check_violation("a reserved opcode", reserved_opcode, sizeof reserved_opcode);
    check_violation("reserved bits set", rsv_bits, sizeof rsv_bits);
    check_violation("bytes that are no frame", noise, sizeof noise);
}

/* ---- rate limit ----------------------------------------------------------------------------------------- */

typedef struct {
    int answered, limited, other;
    int64_t last_answered_ms; /* when the last answer arrived */
    unsigned char seen[300];
} flood_replies;

static void collect_flood(peer *p, flood_replies *fr, int ms)
{
    for (int64_t deadline = ws_now_ms() + ms; ws_now_ms() < deadline && ws_is_open(p->ws);) {
        cJSON *r = next_reply(p, 200);
        double id = jnum(r, "id");
        if (!r) continue;
        if (jtype_is(r, "worlds") && id >= 0 && id < 300 && !fr->seen[(int)id])
            fr->seen[(int)id] = 1, fr->answered++, fr->last_answered_ms = ws_now_ms();
        else if (is_error(r, "rate_limited", NULL)) fr->limited++;
        else fr->other++, fprintf(stderr, "unexpected reply during the flood: %s\n", jtext(r));
        cJSON_Delete(r);
    }
}

static void check_rate_limit(peer *p)
{
    sleep_ms(1100); /* a full budget */
    int64_t start = ws_now_ms();
    for (int i = 0; i < 300; i++) {
        char msg[64];
        snprintf(msg, sizeof msg, "{\"type\":\"list_worlds\",\"id\":%d}", i);
        ws_send_text(p->ws, msg);
    }
    int64_t took = ws_now_ms() - start;
    CHECK(took < 800, "the flood of 300 messages was sent within 0.8 s (%lld ms)", (long long)took);
    flood_replies fr = {0};
    collect_flood(p, &fr, 3000);
    int first = 0;
    while (first < 300 && fr.seen[first]) first++;
    /* The bucket and what refills (100/s) until the server took the last answered message, which
     * was before its answer arrived; the server may read the flood later than it was sent (under
     * ThreadSanitizer, for one), so the client's sending time alone is no bound. */
    int64_t window = (fr.answered ? fr.last_answered_ms : ws_now_ms()) - start;
    int most = 100 + (int)(window / 10) + 5;
    CHECK(fr.answered >= 95 && fr.answered <= most, "about 100 of 300 are answered (%d; at most %d)", fr.answered, most);
    CHECK(first >= 90, "the first 90 are all answered (the first %d are)", first);
    CHECK(fr.limited >= 1 && fr.limited <= 2, "one rate_limited error per second of the flood (%d)", fr.limited);
    CHECK(fr.answered + fr.limited < 300 && fr.other == 0, "the rest is dropped without a reply (%d replies, %d unexpected)",
          fr.answered + fr.limited, fr.other);
    sleep_ms(1100);
    expect_usable(p, "the flood (1.1 s later)");
}

/* ---- main ------------------------------------------------------------------------------------------------- */

static void check_not_ready(void)
{
    peer p;
    if (peer_connect(&p, port, "early") != 0) return;
    expect_error(&p, "{\"type\":\"subscribe\",\"world\":1}", "not_ready", NULL);
    peer_close(&p);
}

/* Runs one part of the abuse and CHECKs that the watcher decoded frames meanwhile. */
static void while_watching(watcher *w, void (*part)(peer *), peer *p, const char *what)
{
    long before = watcher_frames(w);
    ensure_open(p, "the previous part");
    part(p);
    for (int64_t deadline = ws_now_ms() + 10000; watcher_frames(w) <= before && ws_now_ms() < deadline;) sleep_ms(50);
    CHECK(watcher_frames(w) > before, "the watcher decodes frames during %s (%ld -> %ld)", what, before, watcher_frames(w));
}

static void check_abuse(void)
{
    watcher *w = watcher_start_on(port, 1, "", "watcher");
    CHECK(w != NULL, "a watcher subscribes to world 1");
    if (!w) return;
    check_not_ready();
    peer p;
    if (expect_hello(&p, port, "abuser", NULL, "control") == 0) {
        while_watching(w, check_examples, &p, "the invalid examples");
        while_watching(w, check_sizes, &p, "oversized messages");
        while_watching(w, check_depth, &p, "deep nesting");
        while_watching(w, check_binary, &p, "binary messages");
        while_watching(w, check_fragments, &p, "fragments");
        check_violations();
        while_watching(w, check_rate_limit, &p, "the flood");
    }
    peer_close(&p);
    long before = watcher_frames(w);
    sleep_ms(1500);
    watch_result r;
    watcher_stop(w, &r);
    CHECK(r.frames > before, "the watcher decodes frames after the abuse (%ld -> %ld)", before, r.frames);
    CHECK(r.open && r.corrupt == 0 && r.need_key == 0 && r.errors == 0,
          "the watcher stayed connected with no corrupt or undecodable frame and no error (%d, %ld, %ld, %ld: %s)", r.open,
          r.corrupt, r.need_key, r.errors, r.last_error);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    if (!env.examples) {
        fprintf(stderr, "test_server_abuse: the schema examples directory is required (argv[3])\n");
        return 2;
    }
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_abuse");
    }
    port = server.port;
    check_abuse();
    CHECK(server_alive(&server), "the server is still running");
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_abuse");
}
