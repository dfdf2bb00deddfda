/* Server over real sockets: a subscriber that stops reading must not slow the others down or make
 * the server's memory grow (PROTOCOL.md section 5), and gets a decodable key frame when it reads
 * again. */
#include <stdio.h>
#include <stdlib.h>

#include "expect.h"
#include "metrics_text.h"
#include "test_env.h"
#include "watcher.h"

#define BASELINE_MS 3000
#ifndef MIN_STALL_MS
#define MIN_STALL_MS 5000 /* -DMIN_STALL_MS=... for a longer experiment */
#endif
#define MAX_STALL_MS 90000
#define SKIP_MARGIN_MS 3000 /* the stall goes on this long after the server began to skip frames */
#define MIN_RATE_SHARE 0.7            /* the fast client keeps at least 70% of its baseline frame rate */
#define RSS_BOUND_KIB (64 * 1024)     /* the server's VmRSS stays within baseline + 64 MiB */
#define SLOW_RCVBUF (32 * 1024)       /* the stalled client's receive buffer */

static test_env env;

/* The most a socket's send buffer can grow to (tcp_wmem's maximum), bytes. */
static double send_buffer_max(void)
{
    long min, def, max = 4 << 20;
    FILE *f = fopen("/proc/sys/net/ipv4/tcp_wmem", "r");
    if (f && fscanf(f, "%ld %ld %ld", &min, &def, &max) != 3) max = 4 << 20;
    if (f) fclose(f);
    return (double)max;
}

typedef struct {
    double fast_fps;       /* frames the fast client decoded per second */
    double slow_bytes_per_s;
} rates;

/* The server's count of frames slow clients did not get (its /metrics), or -1. */
static double frames_skipped(const server_process *s)
{
    char *text = metrics_fetch(s->port);
    const double skipped = text ? metric_or(text, "fluidcast_frames_skipped_total", -1.0) : -1.0;
    free(text);
    return skipped;
}

/* Rates over ms milliseconds; the largest server VmRSS seen meanwhile goes into *rss. With
 * skip_margin_ms > 0 the measurement ends early, skip_margin_ms after the server began to skip
 * frames (and not before MIN_STALL_MS): what the stall is for has then happened. */
static rates measure(watcher *fast, watcher *slow, server_process *s, int ms, long *rss, int skip_margin_ms, int *ran_ms)
{
    long frames = watcher_frames(fast), bytes = watcher_bytes(slow);
    double skipped_before = skip_margin_ms > 0 ? frames_skipped(s) : -1.0;
    int64_t start = ws_now_ms(), end = start + ms;
    while (ws_now_ms() < end) {
        long kib = server_rss_kib(s);
        if (kib > *rss) *rss = kib;
        sleep_ms(250);
        if (skipped_before >= 0.0 && frames_skipped(s) > skipped_before) {
            const int64_t soon = ws_now_ms() + skip_margin_ms, earliest = start + MIN_STALL_MS;
            const int64_t stop = soon > earliest ? soon : earliest;
            if (stop < end) end = stop;
            skipped_before = -1.0; /* seen */
        }
    }
    if (ran_ms) *ran_ms = (int)(ws_now_ms() - start);
    double secs = (double)(ws_now_ms() - start) / 1000.0;
    return (rates){(double)(watcher_frames(fast) - frames) / secs, (double)(watcher_bytes(slow) - bytes) / secs};
}

/* Long enough that what the server sends meanwhile, at the rate the slow client read before it
 * stalled, is 2.5 times what the kernel can buffer on both sides, so that the server itself must
 * skip frames; at least MIN_STALL_MS. The stall itself goes on until the server skips (and
 * SKIP_MARGIN_MS more), up to MAX_STALL_MS: the server may send less while the client is stalled
 * (a world settling sends smaller deltas; a busy machine steps it slower). */
static int stall_duration(double bytes_per_s)
{
    double ms = 2.5 * (send_buffer_max() + 2.0 * SLOW_RCVBUF) / (bytes_per_s > 1 ? bytes_per_s : 1) * 1000.0;
    return ms < MIN_STALL_MS ? MIN_STALL_MS : ms > MAX_STALL_MS ? MAX_STALL_MS : (int)ms;
}

static int wait_frames(watcher *w, long frames, long key_frames, int timeout_ms)
{
    int64_t deadline = ws_now_ms() + timeout_ms;
    while ((watcher_frames(w) < frames || watcher_key_frames(w) < key_frames) && watcher_connected(w) && ws_now_ms() < deadline)
        sleep_ms(50);
    return watcher_frames(w) >= frames && watcher_key_frames(w) >= key_frames;
}

/* Reading again, the stalled client decodes a key frame (the server moved it down a tier: key_owed,
 * it skipped frames for it) and more, or it was disconnected with a close frame. A sanitized server
 * may never have skipped (at MAX_STALL_MS): its chain of deltas goes on, and no key frame is owed. */
static void check_recovery(watcher *slow, const watch_result *fast, int key_owed)
{
    long frames = watcher_frames(slow), keys = watcher_key_frames(slow);
    watcher_stall(slow, 0);
    int recovered = wait_frames(slow, frames + 3, keys + (key_owed ? 1 : 0), 60000);
    watch_result r;
    watcher_stop(slow, &r);
    if (!r.open) {
        CHECK(r.close_code > 0, "the stalled client was disconnected with a close frame (code %d)", r.close_code);
        return;
    }
    CHECK(recovered, "reading again, the stalled client decodes %s (%ld key frames, %ld frames)",
          key_owed ? "a key frame and more" : "frames", r.key_frames - keys, r.frames - frames);
    CHECK(r.corrupt == 0 && r.need_key == 0, "the stalled client never got a corrupt or undecodable frame (%ld, %ld: %s)",
          r.corrupt, r.need_key, r.last_error);
    CHECK(r.last_count == fast->last_count, "its frames hold the world's %u particles (%u)", fast->last_count, r.last_count);
}

static void check_slow_client(server_process *s)
{
    ws_options small = {.port = s->port, .timeout_ms = PEER_TIMEOUT_MS, .rcvbuf = SLOW_RCVBUF};
    watcher *fast = watcher_start_on(s->port, 1, "", "fast"), *slow = fast ? watcher_start(&small, 1, "", "slow") : NULL;
    CHECK(fast && slow, "a fast and a slow client subscribe");
    int flowing = slow && wait_frames(fast, 5, 1, 60000) && wait_frames(slow, 5, 1, 60000);
    CHECK(flowing, "both decode frames");
    double skipped = 0.0, skipped_before = 0.0; /* frames the server skipped for the stalled client */
    int stalled_past_buffers = 0;
    if (flowing) {
        long rss_base = server_rss_kib(s), rss_max = rss_base;
        rates base = measure(fast, slow, s, BASELINE_MS, &rss_base, 0, NULL);
        const int stall_ms = stall_duration(base.slow_bytes_per_s);
        skipped_before = frames_skipped(s);
        int stalled_ms = 0;
        watcher_stall(slow, 1);
        rates stalled = measure(fast, slow, s, MAX_STALL_MS, &rss_max, SKIP_MARGIN_MS, &stalled_ms);
        skipped = frames_skipped(s) - skipped_before;
        printf("both reading: %.2f frames/s for the fast client, %.0f bytes/s for the slow one; the slow one stalled for "
               "%d ms (%d ms send 2.5 times the buffers at the rate before): %.2f frames/s for the fast one, %.0f frames "
               "skipped; VmRSS %ld KiB -> at most %ld KiB\n",
               base.fast_fps, base.slow_bytes_per_s, stalled_ms, stall_ms, stalled.fast_fps, skipped, rss_base, rss_max);
        /* at the cap (a sanitized server sends too little to fill the kernel's buffers in 90 s) the
         * server may never have had to skip: the rest still holds */
        stalled_past_buffers = stall_ms < MAX_STALL_MS;
        CHECK(base.fast_fps > 0, "the fast client decodes frames (%.2f per second)", base.fast_fps);
        if (test_rates_checked())
            CHECK(stalled.fast_fps >= MIN_RATE_SHARE * base.fast_fps,
                  "a stalled client does not slow the fast one: %.2f frames/s, at least 70%% of %.2f", stalled.fast_fps,
                  base.fast_fps);
        CHECK(rss_max <= rss_base + RSS_BOUND_KIB, "server VmRSS stays within baseline + 64 MiB: %ld KiB > %ld + %d KiB",
              rss_max, rss_base, RSS_BOUND_KIB);
    }
    watch_result r = {0};
    if (fast) watcher_stop(fast, &r);
    CHECK(r.open && r.corrupt == 0 && r.need_key == 0, "the fast client stayed connected, nothing corrupt or undecodable (%ld, %ld: %s)",
          r.corrupt, r.need_key, r.last_error);
    if (slow && flowing) {
        check_recovery(slow, &r, skipped > 0);
        /* a stall past the buffers cannot be sent in full: the server skips frames for it, most often
         * while it lasts, else at the first frame it sends when the client reads again (a frame is
         * skipped when a writable socket finds the stream ahead, so a socket full all along shows
         * it only then) */
        if (stalled_past_buffers) {
            const double total = frames_skipped(s) - skipped_before;
            CHECK(total > 0, "the server skipped frames for the stalled client (%.0f during the stall, %.0f in all)",
                  skipped, total);
        }
    } else if (slow) {
        watcher_stop(slow, &(watch_result){0});
    }
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    /* substeps=1: more frames per second from the CPU-bound world, so that rates are measurable */
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "big_tank"), "--fast", "--fps", "30",
                          "--set", "substeps=1", NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_slow_client");
    }
    check_slow_client(&server);
    int status = test_server_stop(&server);
    CHECK(status == 0, "the server exits 0 on SIGTERM (status %d)", status);
    return check_summary("test_server_slow_client");
}
