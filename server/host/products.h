/* What a world publishes (ARCHITECTURE.md "Products"): each product has a name, the magic its binary
 * messages begin with, a demand (how many subscribers want it) and its newest message, made once for
 * all of them. Particle frames are the first product, made on the world thread by the frame streams
 * (streams.h); every other product is made on its own worker thread from the newest snapshot of the
 * world, and a worker that is still busy skips the snapshots published meanwhile. */
#ifndef FC_PRODUCTS_H
#define FC_PRODUCTS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "core/world.h"
#include "host/blob.h"
#include "host/replies.h"

/* The products, in the order of the registry (fc_product_kinds). */
typedef enum { FC_PRODUCT_PARTICLES, FC_PRODUCT_CENSUS, FC_PRODUCT_COUNT } fc_product_id;

/* A product's input: the world's particles at one publication, in the store's order. */
typedef struct fc_product_input {
    uint32_t world, epoch, sequence;
    double time;
    int dimensions, fluid_count;
    size_t count, capacity;
    float *x, *y, *z;
    uint8_t *fluid;
} fc_product_input;

/* A message of at most this many bytes is what every worker product makes (checked by its make). */
enum { FC_PRODUCT_MAX_BYTES = 4096 };

typedef struct fc_product_kind {
    const char *name;     /* as `subscribe` names it */
    const char *magic;    /* the four bytes its messages begin with */
    const char *help;
    /* Makes the message (magic first) from in into out (FC_PRODUCT_MAX_BYTES of room); its length, or
     * 0 with err. NULL: the product is made by the frame streams on the world thread. */
    size_t (*make)(const fc_product_input *in, uint8_t *out, char *err, size_t errlen);
} fc_product_kind;

extern const fc_product_kind fc_product_kinds[FC_PRODUCT_COUNT];

/* The product named `name`, or -1. */
int fc_product_find(const char *name);
/* "particles, census": the names, for error messages. */
const char *fc_product_names(void);

/* One worker product of a world. */
typedef struct fc_product {
    fc_product_id id;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    /* under the lock */
    int subscribers;     /* set by the network thread */
    fc_blob *newest;     /* the newest message, or NULL */
    uint64_t version;    /* grows with each new message */
    int busy;            /* the worker has an input it has not finished */
    int stop;
    uint64_t made, skipped; /* messages made; publications skipped because the worker was busy */
    /* the worker's (the world thread's while not busy) */
    fc_product_input input;
    pthread_t thread;
    int thread_started;
    double delay_s;      /* tests only: FLUIDCAST_TEST_PRODUCT_DELAY seconds added to each make */
    fc_mailbox *mailbox; /* woken when a message is new */
} fc_product;

/* A world's worker products (of[FC_PRODUCT_PARTICLES] is unused: the streams make frames). */
typedef struct fc_products {
    fc_product of[FC_PRODUCT_COUNT];
} fc_products;

int fc_products_init(fc_products *p, fc_mailbox *mailbox);
/* Stops the workers, waiting for a make in progress (the world thread, as it ends: no worker outlives
 * it); then they take no more inputs. */
void fc_products_stop(fc_products *p);
/* Stops them if still running and frees everything. */
void fc_products_free(fc_products *p);

/* ---- the network thread ---- */
/* How many subscribers want each worker product. */
void fc_products_set_demands(fc_products *p, const int subscribers[FC_PRODUCT_COUNT]);
/* A new reference to product id's newest message and its version (NULL: none yet). */
fc_blob *fc_products_newest(fc_products *p, fc_product_id id, uint64_t *version);

/* ---- the world thread ---- */
/* 1 when some worker product has subscribers. */
int fc_products_wanted(fc_products *p);
/* Hands the world as it is now (publication `sequence`) to every wanted worker that is idle; a busy
 * one skips it. -1 when out of memory for an input (that product skips it too). */
int fc_products_offer(fc_products *p, fc_world *w, uint32_t world_id, uint32_t epoch, uint32_t sequence);

#endif
