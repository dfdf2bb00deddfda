/* The network thread's own state, shared by its files: the server, its sessions (one per
 * WebSocket client) and their subscriptions. Only the network thread touches any of it. */
#ifndef FC_NET_H
#define FC_NET_H

#include <libwebsockets.h>
#include <stdint.h>

#include "host/world_host.h"
#include "net/metrics.h"
#include "net/server.h"

enum {
    FC_SESSION_MAX_SUBSCRIPTIONS = 16,
    FC_SESSION_MAX_REPLIES = 256,        /* unsent replies; past this the client is disconnected */
    FC_FRAGMENT_BYTES = 16384,           /* WebSocket fragment of a particle frame */
    FC_FRAGMENTS_PER_WRITABLE = 16       /* at most this many fragments per writable callback */
};

/* One world a session watches, and where it is in that world's stream. */
typedef struct fc_subscription {
    fc_world_host *host;        /* NULL: the slot is free */
    unsigned bits, tier, base_tier;
    uint32_t attributes;
    double max_fps;
    int in_chain;               /* the client decoded a key frame of its current stream */
    int key_asked;              /* a key frame was asked of the world since in_chain dropped */
    uint32_t key_asked_at;      /* the stream's newest sequence when it was asked */
    uint32_t last_sequence;     /* of the last frame sent */
    double clean_since;         /* the last time it missed a frame or changed tier */
    uint64_t state_version;     /* of the last state sent */
    uint64_t frames_sent, frames_skipped;
    double next_stats;
} fc_subscription;

/* A reply waiting to be sent; a world's reply fills the slot reserved when its request came,
 * so that replies leave in request order. */
typedef struct fc_reply_slot {
    fc_blob *text;              /* NULL: still waiting for `waiting_for` */
    fc_world_host *waiting_for;
} fc_reply_slot;

/* The frame being written to a client, in fragments. */
typedef struct fc_outgoing_frame {
    fc_blob *frame;
    unsigned char header[FC_FRAME_HEADER_BYTES + FC_FRAME_SECTION_ENTRY_BYTES * FC_FRAME_MAX_SECTIONS];
    struct { const unsigned char *data; size_t len; } part[2 + FC_FRAME_MAX_SECTIONS];
    int parts, part_index;
    size_t part_offset, total, sent;
} fc_outgoing_frame;

typedef struct fc_session {
    struct fc_server *server;
    struct lws *wsi;
    struct fc_session *next;
    uint64_t id;
    int said_hello, control, closing, bye_sent;
    /* receiving: one message reassembled from its fragments */
    char *rx;
    size_t rx_len;
    int rx_too_large, rx_binary;
    /* rate limit: a token bucket */
    double tokens, tokens_time, limited_second;
    /* sending */
    fc_reply_slot replies[FC_SESSION_MAX_REPLIES];
    unsigned reply_head, reply_count;
    fc_outgoing_frame out;
    int out_sub;                /* subscription whose frame is being written */
    unsigned char *chunk;       /* LWS_PRE + FC_FRAGMENT_BYTES */
    fc_subscription sub[FC_SESSION_MAX_SUBSCRIPTIONS];
    int next_sub;               /* round robin over subscriptions */
    uint64_t bytes_sent, bytes_window, bytes_per_s;
    double window_start;
} fc_session;

typedef struct fc_server {
    fc_server_options options;
    struct lws_context *context;
    fc_mailbox mailbox;
    fc_world_host *worlds[FC_WORLDS_MAX];
    int world_count;
    fc_world_host *starting[FC_WORLDS_MAX]; /* created, scene still loading */
    int starting_count;
    fc_world_host *closing[FC_WORLDS_MAX];  /* closed, thread asked to stop: freed once it returned */
    int closing_count;
    uint32_t next_world_id;
    fc_session *sessions;
    int session_count;
    uint64_t next_session_id;
    fc_metrics metrics;
    fc_budget budget;            /* --max-particles and memory, shared by the worlds */
    int web_dir_ok;
    cJSON *scenes_json;          /* the shipped scenes, read once at start */
    volatile int shutting_down;
    double shutdown_deadline;
    int done;
    lws_sorted_usec_list_t tick;
} fc_server;

/* ---- server.c ---- */
/* The network thread was woken (lws_cancel_service): posts, new frames, new states, shutdown. */
void fc_server_on_wake(fc_server *s);
/* Delivers what world threads posted (replies, worlds ready or failed). */
void fc_server_take_posts(fc_server *s);
fc_world_host *fc_server_find_world(fc_server *s, uint32_t id);
/* Gives each world its share of the threads. */
void fc_server_share_threads(fc_server *s);
/* Recomputes a world's stream demands from every subscription to it. */
void fc_server_update_demands(fc_server *s, fc_world_host *host);
/* Sends `worlds` to every client that said hello. */
void fc_server_broadcast_worlds(fc_server *s);
/* Closes a world: unsubscribes its viewers and asks its thread to stop, without waiting for it
 * (fc_server_reap_worlds frees it once the thread has returned). */
void fc_server_close_world(fc_server *s, fc_world_host *host);
/* Frees the closed worlds whose threads have returned. Never waits. */
void fc_server_reap_worlds(fc_server *s);
/* Worlds counted against --max-worlds: running, starting and still closing. */
int fc_server_world_slots_used(const fc_server *s);
/* The worlds message (reply to list_worlds when id is given, else unsolicited). */
fc_blob *fc_server_worlds_message(fc_server *s, const char *id);

/* ---- session.c ---- */
int fc_session_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len);
/* Queues a ready reply (takes ownership); -1 (and the client is dropped) when too many wait. */
int fc_session_queue(fc_session *c, fc_blob *text);
/* Reserves the reply slot of a request that host will answer; -1 as fc_session_queue. */
int fc_session_expect(fc_session *c, fc_world_host *host);
/* Fills the first slot waiting for host with text (takes ownership). */
void fc_session_fill(fc_session *c, fc_world_host *host, fc_blob *text);
fc_session *fc_session_find(fc_server *s, uint64_t id);
/* Drops every subscription to host (the world closes). */
void fc_session_forget_world(fc_session *c, fc_world_host *host);

/* ---- requests.c: what each client message does on the network thread ---- */
void fc_requests_handle(fc_session *c, const char *text, size_t len);
/* Sends error err to the client and counts it. */
void fc_requests_error(fc_session *c, const fc_message_error *err);

/* ---- http.c ---- */
typedef struct fc_http_session {
    char *body;
    size_t len;
} fc_http_session;
int fc_http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len);

#endif
