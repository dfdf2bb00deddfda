/* A protocol-level test client: a WebSocket with JSON requests and replies, the latest state, and a
 * frame follower for the subscribed world. Also small cJSON accessors for the checks. */
#ifndef FC_TEST_PEER_H
#define FC_TEST_PEER_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "follower.h"
#include "ws_client.h"

#define PEER_TIMEOUT_MS 15000 /* generous: replies come in milliseconds, also under ASan */

typedef struct {
    ws_client *ws;
    frame_follower follow; /* decodes the frames of follow.world */
    cJSON *state;          /* the latest state message (owned) */
    long texts, binaries, states;
    long products;                  /* binary messages that are not particle frames (worker products) */
    unsigned char last_product[4096]; /* the newest of them (cut at its size) */
    size_t last_product_len;
    long next_id;
    char sub_options[256]; /* extra subscribe members of the last subscribe, for peer_fresh_state */
    char name[32];
} peer;

/* Connects offering fluidcast.v1; 0, or -1 (the reason on stderr). */
int peer_connect(peer *p, int port, const char *name);
/* The same with any options (a small receive buffer, another subprotocol). */
int peer_open(peer *p, const ws_options *o, const char *name);
void peer_close(peer *p);

/* Sends text as one message; 0 or -1. */
int peer_send(peer *p, const char *text);
/* The next text message as JSON (the caller frees it), feeding binary frames to the follower on
 * the way; NULL on timeout, close or a message that is not JSON (said on stderr). */
cJSON *peer_next_text(peer *p, int timeout_ms);
/* The next text message of that type, skipping others; NULL on timeout. */
cJSON *peer_wait_type(peer *p, const char *type, int timeout_ms);
/* Reads everything for ms milliseconds; -1 when the connection ended. */
int peer_pump(peer *p, int ms);
/* Reads until the follower has decoded `frames` frames in all; 0, or -1 on timeout or close. */
int peer_pump_frames(peer *p, long frames, int timeout_ms);
/* Sends the JSON object text with a fresh "id" added and returns the reply carrying that id
 * (welcome, worlds, ack or error), skipping other messages; NULL on timeout. */
cJSON *peer_request(peer *p, const char *json, int timeout_ms);
/* hello (with token unless NULL); the welcome or NULL. */
cJSON *peer_hello(peer *p, const char *token);
/* subscribe to world with extra members (e.g. "\"bits\": 12", or ""): returns the reply (ack or
 * error); after an ack also waits for the state that follows it. Restarts the follower. */
cJSON *peer_subscribe(peer *p, uint32_t world, const char *extra);
/* A state produced after this call: subscribes again with the same options and returns a copy of
 * the state that follows the ack; NULL on failure. */
cJSON *peer_fresh_state(peer *p, uint32_t world);

/* A condition on a state message. */
typedef int (*state_test)(const cJSON *state, const void *ctx);
/* The first state received since the p->states count `since` for which test holds: the latest one
 * received if it does (a world may send its new state before the reply), else one that comes within
 * the time. A copy (the caller frees it), or NULL. */
cJSON *peer_state_where(peer *p, long since, state_test test, const void *ctx, int timeout_ms);
/* state_test: state.values has every member of the cJSON object values, equal. */
int state_has_values(const cJSON *state, const void *values);

/* World 1's steps/s averaged over the stats messages read in ms milliseconds (0 when none came);
 * every other message is read and dropped. */
double peer_steps_per_second(peer *p, int ms);
/* cJSON accessors: a dotted path ("values.viscosity", "applied.emitter.id"); NAN, NULL when absent. */
const cJSON *jget(const cJSON *o, const char *path);
double jnum(const cJSON *o, const char *path);
const char *jstr(const cJSON *o, const char *path);
/* 1 when the string at path equals value. */
int jstr_is(const cJSON *o, const char *path, const char *value);
/* 1 when the string at path contains part. */
int jstr_has(const cJSON *o, const char *path, const char *part);
/* 1 when o is {"type": type, ...}. */
int jtype_is(const cJSON *o, const char *type);
/* 1 when o is an error with this code and field (NULL: the field must be JSON null; "*": any). */
int is_error(const cJSON *o, const char *code, const char *field);
/* o printed on one line, cut at 700 characters, for messages ("(none)" for NULL); a few rotating
 * buffers per thread so that one printf may use several. */
const char *jtext(const cJSON *o);

#endif
