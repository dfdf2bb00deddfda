/* The server's JSON messages that answer a request (ack, error) as ready-to-send text blobs, and
 * the mailbox that carries them, with world events, from world threads to the network thread. */
#ifndef FC_REPLIES_H
#define FC_REPLIES_H

#include <pthread.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "host/blob.h"
#include "message.h"

/* {"type":"ack","id":ID,"request":REQUEST,"applied":APPLIED}; id is JSON text ("null", "7",
 * "\"a\""). applied may be NULL ({}). A world's reply adds "sequence": the first snapshot that
 * reflects the request (sequence < 0: none). NULL when out of memory. */
fc_blob *fc_reply_ack(const char *id, const char *request, const cJSON *applied, long long sequence);
/* {"type":"error","id","request","code","field","message"} from err. */
fc_blob *fc_reply_error(const fc_message_error *err);
/* The code an error reply names for code: itself, or FC_ERR_INTERNAL when it has no name. */
fc_error_code fc_reply_error_code(fc_error_code code);
/* Any JSON object as a text blob (printed unformatted). */
fc_blob *fc_reply_json(const cJSON *object);

struct fc_world_host;

typedef enum {
    FC_POST_TEXT,          /* a text message for one client */
    FC_POST_WORLD_READY,   /* a world thread loaded its scene and runs (text: the create ack, or NULL) */
    FC_POST_WORLD_FAILED,  /* a world thread could not load its scene and ended (text: the error) */
    FC_POST_WORLD_FAULT,   /* a running world became unstable (blew up, or its solver failed) and paused */
    FC_POST_PROGRESS       /* a long build's progress: for the world's subscribers and client (who asked) */
} fc_post_kind;

typedef struct fc_post {
    struct fc_post *next;
    fc_post_kind kind;
    uint64_t client;             /* who gets text; 0: nobody */
    fc_blob *text;
    fc_message_error error;      /* when text is an error reply: what it says (code as named in it);
                                    else code FC_ERR_NONE */
    struct fc_world_host *host;
} fc_post;

/* Posts from world threads to the network thread; wake() tells the network thread (for
 * libwebsockets, lws_cancel_service, the one call allowed from other threads). */
typedef struct fc_mailbox {
    pthread_mutex_t lock;
    pthread_cond_t posted;
    fc_post *head, *tail;
    void (*wake)(void *context);
    void *wake_context;
} fc_mailbox;

int fc_mailbox_init(fc_mailbox *m);
void fc_mailbox_free(fc_mailbox *m);
/* Sets the function that wakes the network thread (NULL: none yet). */
void fc_mailbox_set_wake(fc_mailbox *m, void (*wake)(void *), void *context);
/* Wakes the network thread without posting (new frames, new state). */
void fc_mailbox_wake(fc_mailbox *m);
/* Queues a post (takes ownership of text) and wakes the network thread. 0, or -1 when out of
 * memory (the text is dropped). */
int fc_mailbox_post(fc_mailbox *m, fc_post_kind kind, uint64_t client, fc_blob *text, struct fc_world_host *host);
/* Posts the error reply err for client: its text and err itself, so that the network thread
 * reads the code (metrics) and message as data. 0, or -1 when out of memory. */
int fc_mailbox_post_error(fc_mailbox *m, fc_post_kind kind, uint64_t client, const fc_message_error *err,
                          struct fc_world_host *host);
/* Takes every queued post, oldest first; waits up to timeout_s for one when there is none
 * (0: does not wait). The caller frees each with fc_post_free. */
fc_post *fc_mailbox_take(fc_mailbox *m, double timeout_s);
void fc_post_free(fc_post *p);

#endif
