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
    FC_SESSION_MAX_REPLIES = 256,        /* reply slots: replies not yet sent and requests in worlds */
    FC_SESSION_MAX_UNREAD = 192,         /* replies written but not taken: past this the client is
                                            dropped (it does not read) */
    FC_SESSION_PAUSE_AT = 48,            /* requests waiting in worlds: stop reading the client ... */
    FC_SESSION_RESUME_AT = 16,           /* ... until no more than this many wait */
    FC_SESSION_MAX_STALLED = 8,          /* requests held while their world's queue is full (reading
                                            stops at the first; a few may be in flight) */
    FC_FRAGMENT_BYTES = 16384,           /* WebSocket fragment of a particle frame */
    FC_FRAGMENTS_PER_WRITABLE = 16,      /* at most this many fragments per writable callback */
    FC_CAMERA_RELAYS_PER_S = 10          /* camera messages relayed per world and second, at most */
};

/* Connection slots (slots.c, PROTOCOL.md section 1). */
enum {
    FC_RESERVED_SLOTS = 16,              /* WebSockets beyond --max-clients, for clients before hello */
    FC_HALF_OPEN_PER_ADDRESS = 64,       /* connections of one address before a request or hello */
    FC_HANDSHAKE_TIMEOUT_S = 5,          /* to complete an HTTP request or the WebSocket handshake */
    FC_HELLO_TIMEOUT_S = 5,              /* from the WebSocket handshake to hello */
    FC_CLOSE_TRY_AGAIN_LATER = 1013      /* WebSocket close code: the server is full */
};

/* Keepalive (keepalive.c, PROTOCOL.md section 1): a ping after this long without a pong, and the
 * close (1008) when one stays unanswered this long. */
#define FC_PING_INTERVAL_S 60.0
#define FC_PING_TIMEOUT_S 30.0

/* HTTP requests the server answers with 414 or 431 (http.c); libwebsockets keeps each header
 * below FC_HTTP_MAX_HEADER + 1 bytes and all of them below FC_HTTP_HEADER_BUFFER. */
enum {
    FC_HTTP_MAX_URL = 4096,              /* path and query, after percent-decoding */
    FC_HTTP_MAX_HEADER = 4096,           /* one header's value */
    FC_HTTP_MAX_HEADERS = 8192,          /* all header values together */
    FC_HTTP_HEADER_BUFFER = 16384        /* info.max_http_header_data */
};

/* One world a session watches, and where it is in that world's stream. */
typedef struct fc_subscription {
    fc_world_host *host;        /* NULL: the slot is free */
    unsigned bits, tier, base_tier;
    uint32_t attributes;
    uint32_t products;          /* bit k: product k (host/products.h) is wanted */
    uint64_t product_version[FC_PRODUCT_COUNT]; /* of the last worker product's message sent */
    double max_fps;
    int in_chain;               /* the client decoded a key frame of its current stream */
    int key_asked;              /* a key frame was asked of the world since in_chain dropped */
    uint32_t key_asked_at;      /* the stream's newest sequence when it was asked */
    uint32_t last_sequence;     /* of the last frame sent */
    double clean_since;         /* the last time it missed a frame or changed tier */
    uint64_t notice_version[FC_NOTICE_COUNT]; /* of the last state and unstable event sent */
    uint64_t camera_version;    /* of the last camera relay taken (camera.c) */
    uint64_t frames_sent, frames_skipped;
    double next_stats;
} fc_subscription;

/* A request whose world's queue was full: posted, in order, when there is room. */
typedef struct fc_stalled_request {
    fc_command *cmd;
    fc_world_host *host;
} fc_stalled_request;

/* A reply waiting to be sent; a world's reply fills the slot reserved when its request came.
 * Replies about one world leave in the order of their requests; a reply a world still owes holds
 * back only later replies about that world, never those about other worlds or the server. */
typedef struct fc_reply_slot {
    fc_blob *text;              /* NULL: still waiting for `waiting_for` */
    fc_world_host *waiting_for;
    fc_world_host *about;       /* the world the request named (NULL: the server); only compared */
    fc_blob *if_closed;         /* while waiting: the unknown_world error sent if the world is closed first */
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
    int said_hello, control, closing, bye_sent, close_sent;
    /* receiving: one message reassembled from its fragments */
    char *rx;
    size_t rx_len;
    int rx_too_large, rx_binary;
    /* rate limit: a token bucket */
    double tokens, tokens_time, limited_second;
    /* sending */
    fc_reply_slot replies[FC_SESSION_MAX_REPLIES];
    unsigned reply_head, reply_count;
    unsigned waiting_count;     /* slots still waiting for a world's reply */
    int rx_paused;              /* lws_rx_flow_control stopped reading: worlds owe many replies,
                                   or a request waits for room in its world's queue */
    fc_stalled_request stalled[FC_SESSION_MAX_STALLED]; /* requests whose world's queue was full, */
    int stalled_count;                                  /* in order, their reply slots reserved */
    fc_outgoing_frame out;
    int out_sub;                /* subscription whose frame is being written */
    unsigned char *chunk;       /* LWS_PRE + FC_FRAGMENT_BYTES */
    fc_subscription sub[FC_SESSION_MAX_SUBSCRIPTIONS];
    int next_sub;               /* round robin over subscriptions */
    fc_blob *progress;          /* the newest progress event of a build not yet answered, to send */
    fc_world_host *progress_host; /* the world building */
    uint64_t bytes_sent, bytes_window, bytes_per_s;
    double window_start;
    /* slots (slots.c): ending the session; bye_reason NULL closes without a bye */
    double opened_at;           /* the WebSocket handshake, for the hello timeout */
    int end_code;               /* 0, or the close code it ends with (1008, 1013) */
    const char *end_reason, *bye_reason;
    /* keepalive (keepalive.c) */
    double alive_at;            /* the handshake or the last pong */
    double ping_sent_at;        /* the unanswered ping (0: none) */
    int ping_due;               /* a ping waits for the next writable callback */
} fc_session;

/* A connection from accept to close, for the limit of half-open connections per address. */
typedef struct fc_connection {
    struct lws *wsi;
    unsigned char address[16];  /* IPv6, or IPv4 as ::ffff:a.b.c.d */
    int half_open;              /* no HTTP request completed and no hello yet */
} fc_connection;

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
    uint32_t unused_ids[FC_WORLDS_MAX]; /* ids given back by refused create_worlds, below next_world_id */
    int unused_id_count;
    fc_session *sessions;
    int session_count;
    uint64_t next_session_id;
    fc_metrics metrics;
    fc_budget budget;            /* --max-particles and memory, shared by the worlds */
    int web_dir_ok;
    cJSON *scenes_json;          /* the shipped scenes, read once at start */
    volatile int shutting_down;
    double shutdown_started, shutdown_deadline;
    int done;
    lws_sorted_usec_list_t tick;
    lws_sorted_usec_list_t camera_timer; /* relays cameras that waited for the cap (camera.c) */
    fc_connection *connections;  /* slots.c */
    int connection_count, connection_cap;
    atomic_int signal_seen;      /* SIGINT or SIGTERM came (set by the signal thread) */
    struct lws_http_mount mounts[3]; /* /healthz, /metrics and the viewer's files (set_up_mounts) */
    char lws_first_line[160];    /* the first error libwebsockets reported while its context was created */
    char room_url[600];          /* welcome.room: where the room opens the viewer (room_url.c) */
    fc_room_source room_source;
    char instance[17];           /* welcome.server.instance: new at every start, so a viewer sees a restart */
    double ping_interval_s, ping_timeout_s; /* keepalive.c */
    char ping_timeout_reason[64];
} fc_server;

/* ---- server.c ---- */
/* The network thread was woken (lws_cancel_service): posts, new frames, new states, shutdown. */
void fc_server_on_wake(fc_server *s);
/* Delivers what world threads posted (replies, worlds ready or failed). */
void fc_server_take_posts(fc_server *s);
fc_world_host *fc_server_find_world(fc_server *s, uint32_t id);
/* Gives each CPU world its share of the threads (a CUDA world takes one: its work is on the device). */
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
/* The id for a new world: the smallest one a refused create_world gave back, else the next. */
uint32_t fc_server_take_world_id(fc_server *s);
/* A world that was never built (its create_world refused) gives its id back for the next one. */
void fc_server_give_back_world_id(fc_server *s, uint32_t id);
/* Worlds counted against --max-worlds: running, starting and still closing. */
int fc_server_world_slots_used(const fc_server *s);
/* The worlds list as a client with the control role (control 1: every world, with "hidden") or a
 * watcher (0: hidden ones left out) sees it: a new JSON array (welcome.worlds, worlds.worlds). */
cJSON *fc_server_worlds_json(fc_server *s, int control);
/* The worlds message (reply to list_worlds when id is given, else unsolicited) around
 * fc_server_worlds_json. */
fc_blob *fc_server_worlds_message(fc_server *s, const char *id, int control);
/* 1 when the client may see the world: it controls, or the world is not hidden. */
int fc_server_world_visible(const fc_session *c, const fc_world_host *host);

/* ---- session.c ---- */
int fc_session_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len);
/* Queues a ready reply (takes ownership); -1 (and the client is dropped) when too many wait. */
int fc_session_queue(fc_session *c, fc_blob *text);
/* The same for a reply about a world: it leaves after the replies that world still owes c. */
int fc_session_queue_about(fc_session *c, fc_world_host *about, fc_blob *text);
/* Reserves the reply slot of a request (its id as JSON text and its type) that host will answer;
 * if the world is closed first, the request is answered unknown_world. -1 as fc_session_queue. */
int fc_session_expect(fc_session *c, fc_world_host *host, const char *id, const char *request);
/* The world's queue is full: cmd (taken) waits here with its reply slot reserved, and the client
 * is not read until the world takes it (fc_session_retry_stalled, on every wake of the network
 * thread). 0, or -1 when the session holds its maximum already (cmd not taken). */
int fc_session_stall(fc_session *c, fc_world_host *host, fc_command *cmd);
void fc_session_retry_stalled(fc_session *c);
/* Fills the first slot waiting for host with text (takes ownership). */
void fc_session_fill(fc_session *c, fc_world_host *host, fc_blob *text);
fc_session *fc_session_find(fc_server *s, uint64_t id);
/* Drops c's subscription to host (unsubscribe; a hidden world for a watcher); replies host owes
 * c still come. */
void fc_session_unsubscribe(fc_session *c, fc_world_host *host);
/* Drops every subscription to host and the replies it owes (the world closes). */
void fc_session_forget_world(fc_session *c, fc_world_host *host);
/* The newest progress event of host's build for c (replaces one not yet sent); host NULL with
 * text NULL drops it. */
void fc_session_set_progress(fc_session *c, fc_world_host *host, fc_blob *text);
/* Ends the session with a close code and reason (libwebsockets keeps at most 123 bytes): with
 * bye_reason, after its replies and a bye {"reason": bye_reason, "message": reason}; without, at
 * the next writable callback. Messages from it are ignored from now on. */
void fc_session_end(fc_session *c, int code, const char *reason, const char *bye_reason);

/* ---- slots.c: connection slots (PROTOCOL.md section 1) ---- */
/* LWS_CALLBACK_FILTER_NETWORK_CONNECTION: 1 refuses the connection (its address has
 * FC_HALF_OPEN_PER_ADDRESS half-open connections). */
int fc_slots_filter_connection(fc_server *s, const struct lws_filter_network_conn_args *a);
/* A connection was accepted (LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED): it is half-open. */
void fc_slots_accepted(fc_server *s, struct lws *wsi);
/* It completed an HTTP request (0), said hello (0) or upgraded to a WebSocket (1). */
void fc_slots_half_open(fc_server *s, struct lws *wsi, int half_open);
/* LWS_CALLBACK_WSI_DESTROY. */
void fc_slots_destroyed(fc_server *s, struct lws *wsi);
void fc_slots_free(fc_server *s);
/* Room for a new WebSocket: 0 when fewer than --max-clients + FC_RESERVED_SLOTS sessions are open,
 * or when the oldest that has not said hello was closed for it (1013); -1 when every open session
 * said hello (the new one must be refused). */
int fc_slots_make_room(fc_server *s);
/* A hello: 0 when c may go on (a slot of --max-clients is free, or control takes the oldest
 * watcher's, which is evicted); -1 when the server is full (c ends with bye "full" and 1013). */
int fc_slots_admit(fc_session *c, int control);
/* From the tick: ends the sessions that did not say hello within FC_HELLO_TIMEOUT_S (1008). */
void fc_slots_tick(fc_server *s);

/* ---- keepalive.c: pings, and the close of a client that does not answer (PROTOCOL.md section 1) ---- */
/* The retry and idle policy for libwebsockets: its own pings and hang-ups never come. */
const lws_retry_bo_t *fc_keepalive_lws_policy(void);
/* The interval and timeout: FC_PING_INTERVAL_S and FC_PING_TIMEOUT_S, or FLUIDCAST_TEST_PING's. */
void fc_keepalive_init(fc_server *s);
/* A new session (its handshake counts as an answer); a pong came. */
void fc_keepalive_start(fc_session *c);
void fc_keepalive_pong(fc_session *c);
/* From the tick: asks for the pings that are due; ends (1008, counted) the sessions whose ping
 * went unanswered for the timeout. */
void fc_keepalive_tick(fc_server *s);
/* From the writable callback, between messages: writes a due ping. 1 written, 0 none due, -1 failed. */
int fc_keepalive_write_ping(fc_session *c);

/* ---- camera.c: the camera relay (PROTOCOL.md 2.2, camera) ---- */
/* A controller's camera message for host (schema-valid): position and target start or move the
 * broadcast, active false ends it; relayed to the other subscribers at most FC_CAMERA_RELAYS_PER_S
 * times a second (newest wins). 0 with *active as applied, or -1 with err (nothing changed). */
int fc_camera_apply(fc_session *c, fc_world_host *host, const cJSON *msg, int *active, fc_message_error *err);
/* The client left or lost the control role: the broadcasts it leads end. */
void fc_camera_client_gone(fc_server *s, uint64_t client);
/* A new subscription: it gets the newest camera of a broadcasting world (after its state). */
void fc_camera_subscribed(fc_subscription *sub);
/* The camera relay the subscription has not had yet (a new reference), or NULL. */
fc_blob *fc_camera_next(const fc_session *c, fc_subscription *sub);

/* ---- requests.c: what each client message does on the network thread ---- */
void fc_requests_handle(fc_session *c, const char *text, size_t len);
/* Sends error err to the client and counts it. */
void fc_requests_error(fc_session *c, const fc_message_error *err);
/* The same for a request about a world (fc_session_queue_about). */
void fc_requests_error_about(fc_session *c, fc_world_host *about, const fc_message_error *err);

/* ---- http.c ---- */
typedef struct fc_http_session {
    char *body;
    size_t len;
} fc_http_session;
int fc_http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len);
/* The header limits for info.token_limits (each header at most FC_HTTP_MAX_HEADER + 1 bytes). */
const struct lws_token_limits *fc_http_token_limits(void);
/* A complete request's size checks (LWS_CALLBACK_FILTER_HTTP_CONNECTION and
 * LWS_CALLBACK_HTTP_CONFIRM_UPGRADE): 0 to go on, or -1 after answering 414 or 431 (close). */
int fc_http_check_request(struct lws *wsi);

#endif
