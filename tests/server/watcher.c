/* The background subscriber: a peer driven by its own thread. */
#include "watcher.h"
#include "peer.h"
#include "server_process.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct watcher {
    peer p;
    pthread_t thread;
    atomic_int stop, stalled, ended;
    atomic_long frames, key_frames, bytes;
    long errors;
    int bye;
};

static void note_message(watcher *w, const cJSON *msg)
{
    if (jtype_is(msg, "error")) {
        w->errors++;
        fprintf(stderr, "%s: got %s\n", w->p.name, jtext(msg));
    }
    w->bye |= jtype_is(msg, "bye");
}

static void *watch_loop(void *arg)
{
    watcher *w = arg;
    while (!atomic_load(&w->stop) && ws_is_open(w->p.ws)) {
        if (atomic_load(&w->stalled)) {
            sleep_ms(20);
            continue;
        }
        cJSON *msg = peer_next_text(&w->p, 100);
        note_message(w, msg);
        cJSON_Delete(msg);
        atomic_store(&w->frames, w->p.follow.frames);
        atomic_store(&w->key_frames, w->p.follow.key_frames);
        atomic_store(&w->bytes, w->p.follow.bytes);
    }
    atomic_store(&w->ended, 1);
    return NULL;
}

watcher *watcher_start(const ws_options *options, uint32_t world, const char *extra, const char *name)
{
    watcher *w = calloc(1, sizeof *w);
    ws_options o = *options;
    o.subprotocol = "fluidcast.v1";
    if (!w || peer_open(&w->p, &o, name) != 0) return free(w), NULL;
    cJSON *welcome = peer_hello(&w->p, NULL), *ack = welcome ? peer_subscribe(&w->p, world, extra) : NULL;
    int ok = jtype_is(welcome, "welcome") && jtype_is(ack, "ack");
    if (!ok) fprintf(stderr, "%s: hello/subscribe failed: %s\n", name, jtext(ack));
    cJSON_Delete(welcome);
    cJSON_Delete(ack);
    if (ok && pthread_create(&w->thread, NULL, watch_loop, w) == 0) return w;
    peer_close(&w->p);
    free(w);
    return NULL;
}

watcher *watcher_start_on(int port, uint32_t world, const char *extra, const char *name)
{
    ws_options o = {.port = port, .timeout_ms = PEER_TIMEOUT_MS};
    return watcher_start(&o, world, extra, name);
}

long watcher_frames(watcher *w) { return atomic_load(&w->frames); }
long watcher_key_frames(watcher *w) { return atomic_load(&w->key_frames); }
long watcher_bytes(watcher *w) { return atomic_load(&w->bytes); }
int watcher_connected(watcher *w) { return !atomic_load(&w->ended); }
void watcher_stall(watcher *w, int stalled) { atomic_store(&w->stalled, stalled); }

void watcher_stop(watcher *w, watch_result *r)
{
    atomic_store(&w->stop, 1);
    pthread_join(w->thread, NULL);
    const frame_follower *f = &w->p.follow;
    *r = (watch_result){f->frames, f->key_frames, f->need_key, f->corrupt, f->wrong_world, f->key_requests, f->bytes,
                        w->p.texts, w->errors, f->last_count, ws_is_open(w->p.ws), ws_close_code(w->p.ws), w->bye, ""};
    snprintf(r->last_error, sizeof r->last_error, "%s", f->last_error);
    peer_close(&w->p);
    free(w);
}
