/* Server over real sockets: memory no request can run away with (issue 21 item 8). A reset within
 * the particle budget whose particles pile up at the default step (spacing 5.5 mm, 100 k
 * particles) fails as solver_failed naming the neighbour lists within seconds, its memory stays
 * within a bound and is given back while it waits, another world's frames keep coming; a request
 * queued behind a closed world is answered unknown_world, and the closed world's budget is free
 * for the next create_world at once; `set speed_of_sound 1000` on double_dam_break at a fixed
 * step is reported unstable within the same memory bound; scene documents get emitter_add's and
 * collider_add's checks (a rate of 1e30 or over the budget, a radius of 0.4 m, 17 colliders are refused naming the
 * key), 65 fluid blocks are refused and 64 copies of one block merge into its particles. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "test_env.h"

#define BUDGET "320000" /* particles: the piled-up world (about 200 k with its boundary) and a small one fit; a
                          * third of 170 k only once the first is closed */
/* The server's VmRSS stays within its start + 256 MiB (times FC_TEST_RSS_SCALE, set where a
 * sanitizer's shadow memory grows with what it watches). */
#define RSS_BOUND_KIB ((long)(256 * 1024 * rss_scale()))

static double rss_scale(void)
{
    const char *scale = getenv("FC_TEST_RSS_SCALE");
    return scale && atof(scale) >= 1.0 ? atof(scale) : 1.0;
}
/* the reproduction's reset at the old fixed step and the old fixed collision radius of 1 cm, nearly two spacings
 * (the defaults, the adaptive step and a radius of half the spacing, keep it stable) */
#define PILE_UP "\"values\":{\"particle_spacing\":0.0055,\"smoothing_radius\":0.011,\"particle_radius\":0.01,\"adaptive_time_step\":false}"

static test_env env;

/* Frames of the watched world the watcher decodes within ms. */
static long frames_within(peer *watcher, int ms)
{
    long before = watcher->follow.frames;
    peer_pump(watcher, ms);
    return watcher->follow.frames - before;
}

/* Waits up to ms for world's unstable event on p, sampling the server's VmRSS: the largest seen. */
static cJSON *unstable_event(peer *p, server_process *server, int world, int ms, long *peak_kib)
{
    for (int64_t end = ws_now_ms() + ms; ws_now_ms() < end;) {
        long rss = server_rss_kib(server);
        if (rss > *peak_kib) *peak_kib = rss;
        cJSON *event = peer_wait_type(p, "unstable", 50);
        if (event && jnum(event, "world") == world) return event;
        cJSON_Delete(event);
    }
    return NULL;
}

/* After a blow-up: the peak VmRSS was within the bound, world 2's frames keep coming, and the
 * paused world holds its particles but not its neighbour lists. */
static void check_after_blow_up(server_process *server, peer *watcher, long start_kib, long peak)
{
    CHECK(peak - start_kib < RSS_BOUND_KIB, "VmRSS stays within the start + %ld MiB (+%ld MiB)", RSS_BOUND_KIB / 1024,
          (peak - start_kib) / 1024);
    long frames = frames_within(watcher, 1500);
    CHECK(frames >= 10 && watcher->follow.corrupt == 0, "world 2's frames keep coming (%ld in 1.5 s)", frames);
    long paused = server_rss_kib(server);
    printf("VmRSS while paused %ld MiB over the start\n", (paused - start_kib) / 1024);
    CHECK(paused - start_kib < RSS_BOUND_KIB / 2, "while paused it holds its particles, not its lists (+%ld MiB)",
          (paused - start_kib) / 1024);
}

static void check_pile_up(server_process *server, peer *controller, peer *watcher, long start_kib)
{
    long peak = start_kib;
    int64_t t0 = ws_now_ms();
    cJSON *ack = expect_ack(controller, "{\"type\":\"reset\",\"world\":1," PILE_UP "}");
    CHECK(jnum(ack, "applied.particles") > 90000, "the reset within the budget is built (%g particles)",
          jnum(ack, "applied.particles"));
    cJSON_Delete(ack);
    /* the wait is long for the sanitizer builds (18 s under ThreadSanitizer on a busy CI machine);
     * the bound that matters is the memory's, checked meanwhile */
    cJSON *event = unstable_event(controller, server, 1, 60000, &peak);
    int64_t took = ws_now_ms() - t0;
    printf("pile-up: unstable after %lld ms, peak VmRSS %ld MiB over the start's %ld MiB: %s\n", (long long)took,
           (peak - start_kib) / 1024, start_kib / 1024, jstr(event, "message") ? jstr(event, "message") : "(none)");
    CHECK(event && jstr_is(event, "check", "solver_failed") && jstr_has(event, "message", "neighbour lists would need") &&
              jstr_has(event, "message", "piled up"),
          "the piled-up world fails as solver_failed naming the neighbour lists: %s", jtext(event));
    cJSON_Delete(event);
    check_after_blow_up(server, watcher, start_kib, peak);
}

/* The reproduction's `set {"speed_of_sound":1000}` on double_dam_break (45 k particles) at the old
 * fixed step: reported unstable, memory within the bound, given back while paused, and the other
 * world's frames keep coming. (At the adaptive step, the default, the step shrinks instead.) */
static void check_sound_speed_blow_up(server_process *server, peer *controller, peer *watcher, long start_kib)
{
    cJSON *ack = expect_ack(controller, "{\"type\":\"load_scene\",\"world\":1,\"scene\":\"double_dam_break\"}");
    CHECK(jnum(ack, "applied.particles") > 40000, "double_dam_break is loaded (%g particles)", jnum(ack, "applied.particles"));
    cJSON_Delete(ack);
    long peak = server_rss_kib(server);
    int64_t t0 = ws_now_ms();
    cJSON_Delete(expect_ack(controller, "{\"type\":\"set\",\"world\":1,\"values\":"
                                        "{\"speed_of_sound\":1000,\"adaptive_time_step\":false}}"));
    cJSON *event = unstable_event(controller, server, 1, 60000, &peak);
    printf("speed_of_sound 1000: unstable after %lld ms, peak VmRSS %ld MiB over the start's %ld MiB: %s\n",
           (long long)(ws_now_ms() - t0), (peak - start_kib) / 1024, start_kib / 1024,
           jstr(event, "message") ? jstr(event, "message") : "(none)");
    CHECK(event != NULL && jstr(event, "check") != NULL, "double_dam_break with speed_of_sound 1000 is reported unstable: %s",
          jtext(event));
    cJSON_Delete(event);
    check_after_blow_up(server, watcher, start_kib, peak);
}

/* load_scene with document: refused with code on field, saying part, world 1's epoch unchanged. */
static void expect_document_refused(peer *p, const char *document, const char *code, const char *field, const char *part)
{
    char msg[4096];
    snprintf(msg, sizeof msg, "{\"type\":\"load_scene\",\"world\":1,\"scene\":%s}", document);
    cJSON *r = peer_request(p, msg, PEER_TIMEOUT_MS);
    CHECK(is_error(r, code, field) && jstr_has(r, "message", part), "a scene document: %s on %s saying '%s', got %s", code,
          field, part, jtext(r));
    cJSON_Delete(r);
}

/* A document of n copies of one 0.1 m block (125 particles at the default 2 cm spacing). */
static void copies_document(char *doc, size_t len, int n, const char *head, const char *tail)
{
    int used = snprintf(doc, len, "%s{\"name\":\"copies\",\"domain\":{\"min\":[0,0,0],\"max\":[0.6,0.5,0.4]},\"fluid\":[",
                        head);
    for (int i = 0; i < n && used < (int)len; i++)
        used += snprintf(doc + used, len - (size_t)used, "%s{\"type\":\"box\",\"min\":[0,0,0],\"max\":[0.1,0.1,0.1]}",
                         i ? "," : "");
    if (used < (int)len) snprintf(doc + used, len - (size_t)used, "]}%s", tail);
}

/* Copies of one block piled onto the same points: 65 are refused before anything is built, 64
 * merge into the one block's particles (create_world takes the document as load_scene does). */
static void check_copied_blocks(peer *p)
{
    static char doc[8192];
    copies_document(doc, sizeof doc, 65, "", "");
    expect_document_refused(p, doc, "bad_value", "scene.fluid", "at most 64 fluid blocks");
    copies_document(doc, sizeof doc, 64, "{\"type\":\"create_world\",\"scene\":", ",\"realtime\":false}");
    int64_t t0 = ws_now_ms();
    cJSON *ack = expect_ack(p, doc);
    const int world = (int)jnum(ack, "applied.world");
    CHECK(world > 0 && jstr_is(ack, "applied.scene", "copies"), "create_world builds a scene document (%lld ms): %s",
          (long long)(ws_now_ms() - t0), jtext(ack));
    cJSON_Delete(ack);
    if (world <= 0) return;
    cJSON_Delete(peer_subscribe(p, (uint32_t)world, ""));
    cJSON *state = peer_fresh_state(p, (uint32_t)world);
    CHECK(jnum(state, "particles") == 125, "64 copies of one block build its 125 particles once: %g",
          jnum(state, "particles"));
    cJSON_Delete(state);
    char msg[100];
    snprintf(msg, sizeof msg, "{\"type\":\"close_world\",\"world\":%d}", world);
    cJSON_Delete(expect_ack(p, msg));
}

/* Scene documents get the checks of emitter_add and collider_add, limits included. */
static void check_documents(peer *p)
{
#define DOC_HEAD "{\"domain\":{\"min\":[0,0,0],\"max\":[0.6,0.5,0.4]},\"fluid\":[{\"type\":\"box\",\"min\":[0,0,0],\"max\":[0.1,0.1,0.1]}]"
    expect_document_refused(p, DOC_HEAD ",\"emitters\":[{\"position\":[0.3,0.4,0.2],\"direction\":[0,-1,0],\"speed\":1,"
                               "\"radius\":0.05,\"rate\":1e30}]}",
                            "bad_value", "scene.emitters[0].rate", "at most 1e+07");
    expect_document_refused(p, DOC_HEAD ",\"emitters\":[{\"position\":[0.3,0.4,0.2],\"direction\":[0,-1,0],\"speed\":1,"
                               "\"radius\":0.05,\"rate\":1e7}]}",
                            "over_budget", "scene.emitters[0].rate", "budget");
    expect_document_refused(p, DOC_HEAD ",\"emitters\":[{\"position\":[0.3,0.4,0.2],\"direction\":[0,-1,0],\"speed\":1,"
                               "\"radius\":0.4,\"rate\":10}]}",
                            "bad_value", "scene.emitters[0].radius", "half the domain");
    char doc[3000];
    int n = snprintf(doc, sizeof doc, "%s,\"colliders\":[", DOC_HEAD);
    for (int i = 0; i < 17; i++)
        n += snprintf(doc + n, sizeof doc - (size_t)n, "%s{\"type\":\"sphere\",\"center\":[0.4,0.3,0.2],\"radius\":0.02}",
                      i ? "," : "");
    snprintf(doc + n, sizeof doc - (size_t)n, "]}");
    expect_document_refused(p, doc, "over_budget", "scene.colliders", "at most 16");
#undef DOC_HEAD
    check_copied_blocks(p);
}

/* close_world with a request queued behind it: that request is answered unknown_world, and the
 * budget of the closed world is free for create_world at once. */
static void check_close(peer *controller)
{
    peer_send(controller, "{\"type\":\"step\",\"world\":1,\"id\":\"owed\",\"frames\":1}");
    peer_send(controller, "{\"type\":\"close_world\",\"world\":1,\"id\":\"close\"}");
    int owed = 0, closed = 0;
    for (int64_t end = ws_now_ms() + 5000; ws_now_ms() < end && !(owed && closed);) {
        cJSON *r = peer_next_text(controller, 200);
        if (jstr_is(r, "id", "owed"))
            owed = 1 + (is_error(r, "unknown_world", NULL) || jtype_is(r, "ack")), printf("owed reply: %s\n", jtext(r));
        if (jstr_is(r, "id", "close")) closed = 1 + jtype_is(r, "ack");
        cJSON_Delete(r);
    }
    CHECK(owed == 2 && closed == 2, "the request owed by the closed world is answered (%d) and close_world acked (%d)", owed,
          closed);
    int64_t t0 = ws_now_ms();
    cJSON *ack = peer_request(controller, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"values\":"
                                          "{\"particle_spacing\":0.0125,\"smoothing_radius\":0.025}}", 20000);
    CHECK(jtype_is(ack, "ack") && jnum(ack, "applied.world") > 2,
          "create_world right after close_world gets the closed world's budget (%lld ms): %s", (long long)(ws_now_ms() - t0),
          jtext(ack));
    cJSON_Delete(ack);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--max-particles", BUDGET,
                          "--no-wait", NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_memory");
    }
    peer controller, watcher;
    if (expect_hello(&controller, server.port, "memory", NULL, "control") == 0 &&
        expect_hello(&watcher, server.port, "watcher", NULL, "control") == 0) {
        cJSON *ack = expect_ack(&controller, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"values\":"
                                             "{\"particle_spacing\":0.04,\"smoothing_radius\":0.08}}");
        int second = (int)jnum(ack, "applied.world");
        cJSON_Delete(ack);
        cJSON_Delete(peer_subscribe(&watcher, (uint32_t)second, ""));
        cJSON_Delete(peer_subscribe(&controller, 1, ""));
        peer_pump(&watcher, 500);
        check_documents(&controller);
        long start_kib = server_rss_kib(&server);
        check_pile_up(&server, &controller, &watcher, start_kib);
        check_sound_speed_blow_up(&server, &controller, &watcher, start_kib);
        check_close(&controller);
    }
    peer_close(&controller);
    peer_close(&watcher);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_memory");
}
