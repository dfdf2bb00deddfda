/* ack and error messages as text blobs, and the mailbox from world threads to the network thread. */
#define _POSIX_C_SOURCE 200809L
#include "host/replies.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

fc_blob *fc_reply_json(const cJSON *object)
{
    char *text = cJSON_PrintUnformatted(object);
    if (!text) return NULL;
    fc_blob *b = fc_blob_new(text, strlen(text));
    cJSON_free(text);
    return b;
}

/* The id as JSON: a request id is always valid JSON text, "null" when absent, echoed byte for
 * byte (an integer above 2^53 would not survive a double). */
static cJSON *id_json(const char *id)
{
    return id && id[0] ? cJSON_CreateRaw(id) : cJSON_CreateNull();
}

static cJSON *string_or_null(const char *s)
{
    return s && s[0] ? cJSON_CreateString(s) : cJSON_CreateNull();
}

fc_blob *fc_reply_ack(const char *id, const char *request, const cJSON *applied, long long sequence)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "ack");
    cJSON_AddItemToObject(o, "id", id_json(id));
    cJSON_AddStringToObject(o, "request", request);
    cJSON_AddItemToObject(o, "applied", applied ? cJSON_Duplicate(applied, 1) : cJSON_CreateObject());
    if (sequence >= 0) cJSON_AddNumberToObject(o, "sequence", (double)sequence);
    fc_blob *b = fc_reply_json(o);
    cJSON_Delete(o);
    return b;
}

fc_blob *fc_reply_error(const fc_message_error *err)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "error");
    cJSON_AddItemToObject(o, "id", id_json(err->id));
    cJSON_AddItemToObject(o, "request", string_or_null(err->request));
    cJSON_AddStringToObject(o, "code", fc_error_code_name(fc_reply_error_code(err->code)));
    cJSON_AddItemToObject(o, "field", string_or_null(err->field));
    cJSON_AddStringToObject(o, "message", err->message);
    fc_blob *b = fc_reply_json(o);
    cJSON_Delete(o);
    return b;
}

fc_error_code fc_reply_error_code(fc_error_code code)
{
    return fc_error_code_name(code) ? code : FC_ERR_INTERNAL;
}

int fc_mailbox_init(fc_mailbox *m)
{
    memset(m, 0, sizeof *m);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    int failed = pthread_mutex_init(&m->lock, NULL) || pthread_cond_init(&m->posted, &attr);
    pthread_condattr_destroy(&attr);
    return failed ? -1 : 0;
}

void fc_post_free(fc_post *p)
{
    if (!p) return;
    fc_blob_unref(p->text);
    free(p);
}

void fc_mailbox_free(fc_mailbox *m)
{
    for (fc_post *p = m->head, *next; p; p = next) {
        next = p->next;
        fc_post_free(p);
    }
    pthread_cond_destroy(&m->posted);
    pthread_mutex_destroy(&m->lock);
}

void fc_mailbox_set_wake(fc_mailbox *m, void (*wake)(void *), void *context)
{
    pthread_mutex_lock(&m->lock);
    m->wake = wake;
    m->wake_context = context;
    pthread_mutex_unlock(&m->lock);
}

void fc_mailbox_wake(fc_mailbox *m)
{
    pthread_mutex_lock(&m->lock);
    void (*wake)(void *) = m->wake;
    void *context = m->wake_context;
    pthread_mutex_unlock(&m->lock);
    if (wake) wake(context);
}

/* Queues p (kind, client, text and host set) and wakes the network thread. */
static void enqueue(fc_mailbox *m, fc_post *p)
{
    pthread_mutex_lock(&m->lock);
    if (m->tail) m->tail->next = p;
    else m->head = p;
    m->tail = p;
    pthread_cond_broadcast(&m->posted);
    pthread_mutex_unlock(&m->lock);
    fc_mailbox_wake(m);
}

/* A new post holding text (taken), or NULL when out of memory (text dropped). */
static fc_post *new_post(fc_post_kind kind, uint64_t client, fc_blob *text, struct fc_world_host *host)
{
    fc_post *p = calloc(1, sizeof *p);
    if (!p) {
        fc_blob_unref(text);
        return NULL;
    }
    p->kind = kind, p->client = client, p->text = text, p->host = host;
    return p;
}

int fc_mailbox_post(fc_mailbox *m, fc_post_kind kind, uint64_t client, fc_blob *text, struct fc_world_host *host)
{
    fc_post *p = new_post(kind, client, text, host);
    if (!p) return -1;
    enqueue(m, p);
    return 0;
}

int fc_mailbox_post_error(fc_mailbox *m, fc_post_kind kind, uint64_t client, const fc_message_error *err,
                          struct fc_world_host *host)
{
    fc_post *p = new_post(kind, client, fc_reply_error(err), host);
    if (!p) return -1;
    p->error = *err;
    p->error.code = fc_reply_error_code(err->code);
    enqueue(m, p);
    return 0;
}

fc_post *fc_mailbox_take(fc_mailbox *m, double timeout_s)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    double whole = floor(timeout_s);
    until.tv_sec += (time_t)whole;
    until.tv_nsec += (long)((timeout_s - whole) * 1e9);
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&m->lock);
    while (!m->head && timeout_s > 0 && pthread_cond_timedwait(&m->posted, &m->lock, &until) != ETIMEDOUT) {}
    fc_post *all = m->head;
    m->head = m->tail = NULL;
    pthread_mutex_unlock(&m->lock);
    return all;
}
