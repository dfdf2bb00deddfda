/* Server over real sockets, a bounded soak (FLUIDCAST_SOAK_SECONDS, default 60): 100 connections a
 * second come and go (WebSocket with hello and close, WebSocket dropped without a close, bare TCP),
 * 10 controllers send random valid requests, 20 watchers follow the world. The server never
 * crashes, answers /healthz throughout, the world never blows up, its memory stays within
 * SOAK_RSS_GROWTH_MIB of what it held after the warm-up and its open descriptors come back to
 * where they were. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expect.h"
#include "metrics_text.h"
#include "test_env.h"

#define CONTROLLERS 10
#define WATCHERS 20
#define CHURN_PER_S 100
#define WARM_UP_S 8
#define SOAK_RSS_GROWTH_MIB 64 /* of resident memory between the warm-up's end and the soak's */

static test_env env;

static int open_fds(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(path);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += e->d_name[0] != '.';
    if (d) closedir(d);
    return d ? n : -1;
}

static double uniform(unsigned *seed, double lo, double hi) { return lo + (hi - lo) * rand_r(seed) / (double)RAND_MAX; }

/* A controller's emitters: the ids acked, and adds still unanswered; at most 4 together, so the
 * 10 controllers stay well within a world's 64. */
typedef struct {
    int ids[4], n, adding;
} emitter_ids;

/* One random valid request of a controller. */
static void random_request(peer *p, unsigned *seed, emitter_ids *mine)
{
    char msg[400];
    int kind = rand_r(seed) % 100, *ids = mine->ids, *n = &mine->n;
    if (kind < 25) {
        snprintf(msg, sizeof msg, "{\"type\":\"set\",\"world\":1,\"values\":{\"viscosity\":%.3f,\"gravity_x\":%.2f}}",
                 uniform(seed, 0.5, 4.0), uniform(seed, -2.0, 2.0));
    } else if (kind < 40 && *n + mine->adding < 4) {
        mine->adding++;
        snprintf(msg, sizeof msg, "{\"type\":\"emitter_add\",\"world\":1,\"emitter\":{\"position\":[%.3f,0.4,%.3f],"
                                  "\"direction\":[0,-1,0],\"radius\":0.02,\"speed\":1,\"rate\":%.0f}}",
                 uniform(seed, 0.1, 0.5), uniform(seed, 0.1, 0.3), uniform(seed, 0, 300));
    } else if (kind < 55 && *n > 0) {
        snprintf(msg, sizeof msg, "{\"type\":\"emitter_update\",\"world\":1,\"emitter\":%d,\"changes\":{\"rate\":%.0f}}",
                 ids[rand_r(seed) % *n], uniform(seed, 0, 300));
    } else if (kind < 62 && *n > 0) {
        snprintf(msg, sizeof msg, "{\"type\":\"emitter_remove\",\"world\":1,\"emitter\":%d}", ids[--*n]);
    } else if (kind < 80) {
        snprintf(msg, sizeof msg, "{\"type\":\"collider_move\",\"world\":1,\"collider\":1,\"position\":[%.3f,0.1,0.2],"
                                  "\"velocity\":[%.2f,0,0]}", uniform(seed, 0.35, 0.5), uniform(seed, -1, 1));
    } else if (kind < 85) {
        snprintf(msg, sizeof msg, "{\"type\":\"%s\",\"world\":1}", rand_r(seed) % 2 ? "pause" : "resume");
    } else if (kind < 90) {
        snprintf(msg, sizeof msg, "{\"type\":\"step\",\"world\":1,\"frames\":%d}", 1 + rand_r(seed) % 3);
    } else if (kind < 92) {
        snprintf(msg, sizeof msg, "{\"type\":\"reset\",\"world\":1}");
    } else if (kind < 96) {
        snprintf(msg, sizeof msg, "{\"type\":\"key_request\",\"world\":1}");
    } else {
        snprintf(msg, sizeof msg, "{\"type\":\"list_worlds\"}");
    }
    peer_send(p, msg);
}

/* Reads a controller's replies; new emitter ids go into ids. Errors other than unknown_emitter (an
 * emitter gone with a reset) are counted as failures. */
static void drain_controller(peer *p, emitter_ids *mine, long *errors)
{
    for (cJSON *m; (m = peer_next_text(p, 0)) != NULL; cJSON_Delete(m)) {
        if (jstr_is(m, "request", "emitter_add")) mine->adding--;
        if (jtype_is(m, "ack") && jstr_is(m, "request", "emitter_add") && mine->n < 4)
            mine->ids[mine->n++] = (int)jnum(m, "applied.emitter.id");
        if (jtype_is(m, "ack") && jstr_is(m, "request", "reset")) mine->n = 0;
        if (jtype_is(m, "error") && !jstr_is(m, "code", "unknown_emitter")) {
            if (*errors < 5) fprintf(stderr, "%s: %s\n", p->name, jtext(m));
            ++*errors;
        }
    }
}

/* One connection that comes and goes: 0 with hello and a close, 1 dropped, 2 bare TCP. */
static void churn_once(int port, int kind)
{
    if (kind == 2) {
        int fd = ws_tcp_connect(port, 0, 1000);
        if (fd >= 0) close(fd);
        return;
    }
    ws_client *c = ws_connect(port, "fluidcast.v1", 2000);
    if (!c) return;
    ws_send_text(c, "{\"type\":\"hello\",\"client\":\"churn\"}");
    if (kind == 0) ws_close(c, 1000, 200); /* frees c */
    else ws_free(c);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    const char *seconds_env = getenv("FLUIDCAST_SOAK_SECONDS");
    int seconds = seconds_env && atoi(seconds_env) > 0 ? atoi(seconds_env) : 60;
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--max-clients", "64",
                          NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_soak");
    }
    static peer controllers[CONTROLLERS], watchers[WATCHERS];
    emitter_ids emitters[CONTROLLERS];
    memset(emitters, 0, sizeof emitters);
    unsigned seeds[CONTROLLERS];
    long errors = 0, churned = 0, requests = 0;
    int ready = 1;
    for (int i = 0; i < CONTROLLERS && ready; i++) {
        char name[32];
        snprintf(name, sizeof name, "controller %d", i);
        ready = expect_subscriber(&controllers[i], server.port, name, "\"max_fps\":10") == 0;
        seeds[i] = 1234u + (unsigned)i;
    }
    for (int i = 0; i < WATCHERS && ready; i++) {
        char name[32];
        snprintf(name, sizeof name, "watcher %d", i);
        ready = expect_subscriber(&watchers[i], server.port, name, i % 2 ? "\"bits\":12,\"attributes\":[\"speed\"]" : "") == 0;
    }
    long rss_start = -1;
    int fds_start = -1;
    long frames_at_warm_up[WATCHERS] = {0};
    int64_t start = ws_now_ms(), end = start + (int64_t)(WARM_UP_S + seconds) * 1000;
    for (int64_t tick = start; ready && ws_now_ms() < end; tick += 10) {
        for (int i = 0; i < CONTROLLERS; i++) { /* each controller about 10 requests a second */
            if (rand_r(&seeds[i]) % 10 == 0) random_request(&controllers[i], &seeds[i], &emitters[i]), requests++;
            drain_controller(&controllers[i], &emitters[i], &errors);
        }
        for (int i = 0; i < WATCHERS; i++) cJSON_Delete(peer_next_text(&watchers[i], 0));
        for (int i = 0; i < WATCHERS; i++)
            for (cJSON *m; (m = peer_next_text(&watchers[i], 0)) != NULL;) cJSON_Delete(m);
        churn_once(server.port, (int)(churned++ % 3)); /* one every 10 ms: 100 a second */
        if (rss_start < 0 && ws_now_ms() - start >= WARM_UP_S * 1000) {
            rss_start = server_rss_kib(&server);
            fds_start = open_fds(server.pid);
            for (int i = 0; i < WATCHERS; i++) frames_at_warm_up[i] = watchers[i].follow.frames;
        }
        if ((tick - start) % 5000 == 0) {
            http_response r;
            int ok = http_get(server.port, "/healthz", 5000, &r) == 0 && r.status == 200;
            CHECK(ok, "/healthz answers during the soak (at %lld s)", (long long)((tick - start) / 1000));
            if (ok) http_response_free(&r);
        }
        int64_t wait = tick + 10 - ws_now_ms();
        if (wait > 0) sleep_ms((int)wait);
    }
    CHECK(server_alive(&server), "the server is alive after %d s", seconds);
    char *metrics = metrics_fetch(server.port);
    const double blow_ups = metrics ? metric_or(metrics, "fluidcast_worlds_unstable_total", -1.0) : -1.0;
    free(metrics);
    /* moderate values, emitters and moves: the world stays stable (a step retried while a reset
     * waited once emitted its layers again and again onto one spot) */
    CHECK(blow_ups == 0.0, "the world never blew up under the random requests (%g unstable events)", blow_ups);
    sleep_ms(2000); /* the churned connections are gone */
    for (int i = 0; i < WATCHERS; i++) peer_pump(&watchers[i], 0);
    long rss_end = server_rss_kib(&server);
    int fds_end = open_fds(server.pid);
    long frames_min = -1;
    for (int i = 0; i < WATCHERS; i++) {
        long got = watchers[i].follow.frames - frames_at_warm_up[i];
        if (frames_min < 0 || got < frames_min) frames_min = got;
        CHECK(ws_is_open(watchers[i].ws) && watchers[i].follow.corrupt == 0, "watcher %d is connected, no corrupt frame", i);
    }
    printf("soak: %d s, %ld connections churned, %ld requests, RSS %ld -> %ld KiB, fds %d -> %d, fewest frames %ld\n",
           seconds, churned, requests, rss_start, rss_end, fds_start, fds_end, frames_min);
    CHECK(errors == 0, "every random request was valid and accepted (%ld errors)", errors);
    CHECK(rss_start > 0 && rss_end - rss_start <= SOAK_RSS_GROWTH_MIB * 1024, "memory within %d MiB of the warm-up (%ld -> %ld KiB)",
          SOAK_RSS_GROWTH_MIB, rss_start, rss_end);
    CHECK(fds_start > 0 && fds_end <= fds_start + 4, "open descriptors are flat (%d -> %d)", fds_start, fds_end);
    CHECK(frames_min > seconds, "every watcher kept receiving frames (at least %ld)", frames_min);
    for (int i = 0; i < CONTROLLERS; i++) peer_close(&controllers[i]);
    for (int i = 0; i < WATCHERS; i++) peer_close(&watchers[i]);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_soak");
}
