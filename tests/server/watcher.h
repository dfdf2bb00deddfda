/* A subscriber on its own thread: keeps reading and decoding one world's frames while the test's
 * main thread does something else, and reports how many decoded. It can be told to stop reading
 * its socket for a while (a stalled client) and to read again. */
#ifndef FC_TEST_WATCHER_H
#define FC_TEST_WATCHER_H

#include <stdint.h>

#include "ws_client.h"

typedef struct {
    long frames, key_frames, need_key, corrupt, wrong_world, key_requests;
    long bytes;             /* of all binary messages */
    long texts, errors;     /* text messages, and those of type error */
    uint32_t last_count;    /* particles of the last decoded frame */
    int open;               /* the connection was still open when stopped */
    int close_code;         /* the server's close code (ws_close_code) if it closed */
    int bye;                /* a bye message came */
    char last_error[256];   /* the follower's last decode error */
} watch_result;

typedef struct watcher watcher;

/* Connects with options (port, receive buffer...; the subprotocol is fluidcast.v1), says hello,
 * subscribes to world (extra subscribe members as in peer_subscribe) and starts the thread; NULL
 * on failure (said on stderr). */
watcher *watcher_start(const ws_options *options, uint32_t world, const char *extra, const char *name);
/* watcher_start on 127.0.0.1:port with the default options. */
watcher *watcher_start_on(int port, uint32_t world, const char *extra, const char *name);
/* Frames and key frames decoded and bytes received so far; safe while the thread runs. */
long watcher_frames(watcher *w);
long watcher_key_frames(watcher *w);
long watcher_bytes(watcher *w);
/* 0 once the connection has ended (the thread then stops by itself). */
int watcher_connected(watcher *w);
/* 1: the thread stops reading the socket (the server's data piles up); 0: it reads again. */
void watcher_stall(watcher *w, int stalled);
/* Stops the thread, closes the connection, frees w and fills r. */
void watcher_stop(watcher *w, watch_result *r);

#endif
