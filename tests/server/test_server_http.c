/* Server over real sockets: plain HTTP on the same port. /healthz, /metrics (names present, values
 * that follow what clients did), 404 for unknown paths, the viewer's files from --web, and path
 * traversal attempts that must not reach files outside the web directory. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "expect.h"
#include "metrics_text.h"
#include "test_env.h"

#define INDEX_CANARY "fluidcast-test-index-5821"
#define SECRET_CANARY "fluidcast-test-secret-93731"

static test_env env;

/* ---- files ------------------------------------------------------------------------------------------ */

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

/* A temporary directory with www/index.html (the web root) and secret.txt beside www. */
static int make_web_root(char root[64], char www[96])
{
    snprintf(root, 64, "/tmp/fluidcast_web_XXXXXX");
    if (!mkdtemp(root)) return -1;
    snprintf(www, 96, "%s/www", root);
    char path[160];
    int rc = mkdir(www, 0700);
    snprintf(path, sizeof path, "%s/index.html", www);
    rc |= write_text(path, "<!doctype html><title>test</title>" INDEX_CANARY "\n");
    snprintf(path, sizeof path, "%s/secret.txt", root);
    rc |= write_text(path, SECRET_CANARY "\n");
    return rc;
}

static void remove_web_root(const char *root)
{
    char path[160];
    snprintf(path, sizeof path, "%s/www/index.html", root);
    unlink(path);
    snprintf(path, sizeof path, "%s/secret.txt", root);
    unlink(path);
    snprintf(path, sizeof path, "%s/www", root);
    rmdir(path);
    rmdir(root);
}

/* ---- plain pages ------------------------------------------------------------------------------------ */

/* GET path; CHECKs the status and, unless NULL, that the body contains needle. */
static void expect_get(int port, const char *path, int status, const char *needle)
{
    http_response r;
    int rc = http_get(port, path, 15000, &r);
    CHECK(rc == 0 && r.status == status, "GET %s: status %d, got %d", path, status, r.status);
    CHECK(!needle || (r.body && strstr(r.body, needle)), "GET %s: the body contains '%s': %.200s", path, needle, r.body);
    http_response_free(&r);
}

/* GET path must not answer the content of a file outside the web root. */
static void expect_no_leak(int port, const char *path, const char *secret)
{
    http_response r;
    http_get(port, path, 15000, &r);
    CHECK(!(r.body && strstr(r.body, secret)), "GET %s does not serve a file outside the web root (status %d)", path, r.status);
    CHECK(r.status != 200 || !r.body || !strstr(r.body, secret), "GET %s: no 200 with the file", path);
    http_response_free(&r);
}

static void check_pages(int port)
{
    http_response r;
    int rc = http_get(port, "/healthz", 15000, &r);
    size_t n = r.body ? strcspn(r.body, "\r\n") : 0;
    CHECK(rc == 0 && r.status == 200 && n == 2 && strncmp(r.body, "ok", 2) == 0, "GET /healthz: 200 ok, got %d '%.40s'",
          r.status, r.body);
    http_response_free(&r);
    expect_get(port, "/", 200, INDEX_CANARY);
    expect_get(port, "/index.html", 200, INDEX_CANARY);
    expect_get(port, "/no-such-file.js", 404, NULL);
    expect_get(port, "/nope/deeper/page.html", 404, NULL);
}

static void check_traversal(int port)
{
    static const char *const paths[] = {
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/..%2fsecret.txt", "/..%2Fsecret.txt",
        "/%2e%2e%2fsecret.txt", "//../secret.txt", "/./../secret.txt", "/www/../../secret.txt", "/..\\secret.txt",
        "/index.html/../../secret.txt", "/%252e%252e/secret.txt", "/.%2e/secret.txt", "/..;/secret.txt",
    };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) expect_no_leak(port, paths[i], SECRET_CANARY);
    expect_no_leak(port, "/../../../../../../../../etc/passwd", "root:");
    expect_no_leak(port, "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "root:");
    expect_no_leak(port, "/%2fetc%2fpasswd", "root:");
}

/* Without --web: GET / is some page, and the source tree around the default web directory stays hidden. */
static void check_default_web(void)
{
    server_process s;
    if (test_server_start(&s, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), NULL) != 0) {
        CHECK(0, "the server without --web starts");
        return;
    }
    expect_get(s.port, "/", 200, NULL);
    const char *paths[] = {"/../CMakeLists.txt", "/%2e%2e/CMakeLists.txt", "/../../CMakeLists.txt", "/%2e%2e/%2e%2e/CMakeLists.txt",
                           "/..%2f..%2fCMakeLists.txt"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) expect_no_leak(s.port, paths[i], "cmake_minimum_required");
    int status = test_server_stop(&s);
    CHECK(status == 0, "the server without --web exits 0 (status %d)", status);
}

/* ---- metrics ------------------------------------------------------------------------------------------ */

static const char *const required_series[] = {
    "fluidcast_clients", "fluidcast_frames_sent_total", "fluidcast_bytes_sent_total", "fluidcast_frames_skipped_total",
    "fluidcast_commands_total", "fluidcast_world_steps_per_second{world=\"1\"}",
    "fluidcast_world_step_milliseconds{world=\"1\"}", "fluidcast_world_particles{world=\"1\"}",
    "fluidcast_world_frames_encoded_total{world=\"1\"}", "fluidcast_world_bytes_per_frame{world=\"1\"}",
    "process_resident_memory_bytes",
};

static char *fetch_checked(int port, const char *when)
{
    char *text = metrics_fetch(port);
    CHECK(text != NULL, "%s: GET /metrics answers 200", when);
    if (!text) return NULL;
    for (size_t i = 0; i < sizeof required_series / sizeof required_series[0]; i++) {
        double v;
        CHECK(metric_get(text, required_series[i], &v) == 0 && v >= 0, "%s: /metrics has %s >= 0", when, required_series[i]);
    }
    const char *bad = metrics_bad_line(text);
    CHECK(!bad, "%s: every /metrics line is a comment or `series value`: '%.80s'", when, bad);
    return text;
}

#define M(text, series) metric_or(text, series, -1)

/* /metrics once the world reports steps per second (its first second of measurement is over). */
static char *fetch_when_stepping(int port)
{
    char *text = NULL;
    for (int64_t deadline = ws_now_ms() + 10000; ws_now_ms() < deadline; sleep_ms(250)) {
        free(text);
        text = fetch_checked(port, "after a client watched");
        if (!text || M(text, "fluidcast_world_steps_per_second{world=\"1\"}") > 0) break;
    }
    return text;
}

static void check_metrics_values(const char *before, const char *after, const peer *p, long rss_kib)
{
    double frames = M(after, "fluidcast_frames_sent_total") - M(before, "fluidcast_frames_sent_total");
    double bytes = M(after, "fluidcast_bytes_sent_total") - M(before, "fluidcast_bytes_sent_total");
    CHECK(frames >= (double)p->follow.frames, "frames_sent_total grew by at least the %ld frames the client got (%g)",
          p->follow.frames, frames);
    CHECK(bytes >= (double)p->follow.bytes, "bytes_sent_total grew by at least the %ld frame bytes the client got (%g)",
          p->follow.bytes, bytes);
    CHECK(M(after, "fluidcast_clients") == 1, "fluidcast_clients is 1 (%g)", M(after, "fluidcast_clients"));
    /* where world 1 steps: the state's backend and device, as labels of a constant 1 */
    const char *device = jstr(p->state, "device") ? jstr(p->state, "device") : "";
    char info[600];
    snprintf(info, sizeof info, "fluidcast_world_info{world=\"1\",backend=\"cpu\",device=\"%s\"} 1\n", device);
    CHECK(jstr_is(p->state, "backend", "cpu") && device[0] && strstr(after, info),
          "world_info names the state's backend 'cpu' and device '%s'", device);
    CHECK(M(after, "fluidcast_world_particles{world=\"1\"}") == jnum(p->state, "particles"),
          "world_particles is the state's %g (%g)", jnum(p->state, "particles"), M(after, "fluidcast_world_particles{world=\"1\"}"));
    CHECK(M(after, "fluidcast_world_frames_encoded_total{world=\"1\"}") > M(before, "fluidcast_world_frames_encoded_total{world=\"1\"}"),
          "world_frames_encoded_total grows while a client watches");
    double per_frame = M(after, "fluidcast_world_bytes_per_frame{world=\"1\"}");
    double steps = M(after, "fluidcast_world_steps_per_second{world=\"1\"}");
    double step_ms = M(after, "fluidcast_world_step_milliseconds{world=\"1\"}");
    CHECK(per_frame > 0 && steps > 0 && step_ms > 0,
          "bytes_per_frame (%g), steps_per_second (%g) and step_milliseconds (%g) are positive while a client watches the "
          "running world", per_frame, steps, step_ms);
    double rss = M(after, "process_resident_memory_bytes");
    CHECK(rss > 0.5 * 1024.0 * (double)rss_kib && rss < 2.0 * 1024.0 * (double)rss_kib,
          "process_resident_memory_bytes %g is near VmRSS %ld KiB", rss, rss_kib);
}

static void check_error_and_command_counts(int port, peer *p)
{
    char *before = fetch_checked(port, "before the bad message");
    double errors = metric_or(before, "fluidcast_errors_total{code=\"bad_json\"}", 0);
    double world_errors = metric_or(before, "fluidcast_errors_total{code=\"unknown_emitter\"}", 0);
    double commands = M(before, "fluidcast_commands_total");
    peer_send(p, "{\"type\":\"list_worlds\",");
    cJSON *r = peer_wait_type(p, "error", PEER_TIMEOUT_MS);
    CHECK(is_error(r, "bad_json", NULL), "a broken message gets bad_json: %s", jtext(r));
    cJSON_Delete(r);
    cJSON_Delete(expect_ack(p, "{\"type\":\"set\",\"world\":1,\"values\":{\"viscosity\":1.5}}"));
    /* an error the world thread makes is counted too */
    expect_error(p, "{\"type\":\"emitter_remove\",\"world\":1,\"emitter\":999}", "unknown_emitter", "emitter");
    char *after = fetch_checked(port, "after the bad message");
    CHECK(M(after, "fluidcast_errors_total{code=\"bad_json\"}") == errors + 1, "errors_total{code=\"bad_json\"} counts it: %g -> %g",
          errors, M(after, "fluidcast_errors_total{code=\"bad_json\"}"));
    CHECK(M(after, "fluidcast_errors_total{code=\"unknown_emitter\"}") == world_errors + 1,
          "errors_total{code=\"unknown_emitter\"} counts the world's error: %g -> %g", world_errors,
          M(after, "fluidcast_errors_total{code=\"unknown_emitter\"}"));
    CHECK(M(after, "fluidcast_commands_total") > commands, "commands_total counts the set: %g -> %g", commands,
          M(after, "fluidcast_commands_total"));
    free(before);
    free(after);
}

static void check_metrics(server_process *s)
{
    char *before = fetch_checked(s->port, "with no client");
    peer p;
    if (expect_subscriber(&p, s->port, "metrics", "") == 0) {
        peer_pump_frames(&p, 20, 60000);
        char *after = fetch_when_stepping(s->port);
        if (before && after) check_metrics_values(before, after, &p, server_rss_kib(s));
        free(after);
        check_error_and_command_counts(s->port, &p);
    }
    peer_close(&p);
    free(before);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    char root[64], www[96];
    CHECK(make_web_root(root, www) == 0, "make a web root in /tmp");
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--web", www, NULL) != 0) {
        CHECK(0, "the server starts");
        remove_web_root(root);
        return check_summary("test_server_http");
    }
    check_pages(server.port);
    check_traversal(server.port);
    check_metrics(&server);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    remove_web_root(root);
    check_default_web();
    return check_summary("test_server_http");
}
