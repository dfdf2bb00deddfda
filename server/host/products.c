/* A world's products: the registry of what a world can publish, and the worker threads that make
 * every product but particle frames from the newest snapshot (products.h). */
#define _POSIX_C_SOURCE 200809L
#include "host/products.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/census.h"

const fc_product_kind fc_product_kinds[FC_PRODUCT_COUNT] = {
    [FC_PRODUCT_PARTICLES] = {"particles", "FCPF", "particle frames (PROTOCOL.md 4), one stream per bits and tier", NULL},
    [FC_PRODUCT_CENSUS] = {"census", "FCCS", "each fluid's particle count, centre of mass and bounds (PROTOCOL.md 6)",
                           fc_census_make},
};

int fc_product_find(const char *name)
{
    for (int k = 0; k < FC_PRODUCT_COUNT; k++)
        if (strcmp(fc_product_kinds[k].name, name) == 0) return k;
    return -1;
}

const char *fc_product_names(void)
{
    static char names[256];
    if (!names[0])
        for (int k = 0; k < FC_PRODUCT_COUNT; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "", fc_product_kinds[k].name);
    return names;
}

static void free_input(fc_product_input *in)
{
    free(in->x), free(in->y), free(in->z), free(in->fluid);
    memset(in, 0, sizeof *in);
}

int fc_products_init(fc_products *ps, fc_mailbox *mailbox)
{
    memset(ps, 0, sizeof *ps);
    const char *delay = getenv("FLUIDCAST_TEST_PRODUCT_DELAY");
    for (int k = 1; k < FC_PRODUCT_COUNT; k++) {
        fc_product *p = &ps->of[k];
        p->id = (fc_product_id)k;
        p->mailbox = mailbox;
        p->delay_s = delay ? atof(delay) : 0.0;
        if (pthread_mutex_init(&p->lock, NULL)) return -1;
        pthread_condattr_t attr;
        pthread_condattr_init(&attr);
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
        int failed = pthread_cond_init(&p->wake, &attr);
        pthread_condattr_destroy(&attr);
        if (failed) return -1;
    }
    return 0;
}

void fc_products_stop(fc_products *ps)
{
    for (int k = 1; k < FC_PRODUCT_COUNT; k++) {
        fc_product *p = &ps->of[k];
        if (!p->thread_started) continue;
        pthread_mutex_lock(&p->lock);
        p->stop = 1;
        pthread_cond_signal(&p->wake);
        pthread_mutex_unlock(&p->lock);
        pthread_join(p->thread, NULL);
        p->thread_started = 0;
    }
}

void fc_products_free(fc_products *ps)
{
    fc_products_stop(ps);
    for (int k = 1; k < FC_PRODUCT_COUNT; k++) {
        fc_product *p = &ps->of[k];
        fc_blob_unref(p->newest);
        free_input(&p->input);
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
    }
    memset(ps, 0, sizeof *ps);
}

/* Waits delay_s (tests: a deliberately slow product) unless a stop comes first; under the lock. */
static void test_delay(fc_product *p)
{
    if (p->delay_s <= 0.0) return;
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    double end = until.tv_sec + until.tv_nsec * 1e-9 + p->delay_s;
    until.tv_sec = (time_t)end;
    until.tv_nsec = (long)((end - (double)until.tv_sec) * 1e9);
    while (!p->stop && pthread_cond_timedwait(&p->wake, &p->lock, &until) == 0) {
    }
}

/* The worker: makes a message from each input the world thread hands over, then waits for the next. */
static void *worker(void *arg)
{
    fc_product *p = arg;
    const fc_product_kind *kind = &fc_product_kinds[p->id];
    uint8_t *out = malloc(FC_PRODUCT_MAX_BYTES);
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && !p->busy) pthread_cond_wait(&p->wake, &p->lock);
        test_delay(p);
        if (p->stop) break;
        pthread_mutex_unlock(&p->lock);
        char err[256] = "out of memory";
        size_t len = out ? kind->make(&p->input, out, err, sizeof err) : 0;
        fc_blob *b = len ? fc_blob_new(out, len) : NULL;
        if (!b) fprintf(stderr, "fluidcast: world %u: product %s: %s\n", (unsigned)p->input.world, kind->name, err);
        pthread_mutex_lock(&p->lock);
        if (b) {
            fc_blob_assign(&p->newest, b);
            p->version++;
            p->made++;
        }
        p->busy = 0;
        pthread_mutex_unlock(&p->lock);
        if (b) fc_mailbox_wake(p->mailbox);
        fc_blob_unref(b);
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    free(out);
    return NULL;
}

void fc_products_set_demands(fc_products *ps, const int subscribers[FC_PRODUCT_COUNT])
{
    for (int k = 1; k < FC_PRODUCT_COUNT; k++) {
        pthread_mutex_lock(&ps->of[k].lock);
        ps->of[k].subscribers = subscribers[k];
        pthread_mutex_unlock(&ps->of[k].lock);
    }
}

fc_blob *fc_products_newest(fc_products *ps, fc_product_id id, uint64_t *version)
{
    fc_product *p = &ps->of[id];
    pthread_mutex_lock(&p->lock);
    fc_blob *b = fc_blob_ref(p->newest);
    *version = p->version;
    pthread_mutex_unlock(&p->lock);
    return b;
}

int fc_products_wanted(fc_products *ps)
{
    int any = 0;
    for (int k = 1; k < FC_PRODUCT_COUNT; k++) {
        pthread_mutex_lock(&ps->of[k].lock);
        any |= ps->of[k].subscribers > 0;
        pthread_mutex_unlock(&ps->of[k].lock);
    }
    return any;
}

/* The input of a publication: the positions and fluids, brought to the host first. */
static int fill_input(fc_product_input *in, fc_world *w, uint32_t world_id, uint32_t epoch, uint32_t sequence)
{
    fc_world_sync_to_host(w, FC_SYNC_POSITION | FC_SYNC_FLUID);
    const fc_particles *pa = &w->particles;
    if (pa->count > in->capacity) {
        size_t cap = pa->count + pa->count / 4 + 64;
        float *x = realloc(in->x, cap * sizeof *x);
        if (x) in->x = x;
        float *y = realloc(in->y, cap * sizeof *y);
        if (y) in->y = y;
        float *z = realloc(in->z, cap * sizeof *z);
        if (z) in->z = z;
        uint8_t *f = realloc(in->fluid, cap);
        if (f) in->fluid = f;
        if (!x || !y || !z || !f) return -1;
        in->capacity = cap;
    }
    in->world = world_id, in->epoch = epoch, in->sequence = sequence;
    in->time = w->time;
    in->dimensions = w->dimensions;
    in->fluid_count = w->fluid_count;
    in->count = pa->count;
    memcpy(in->x, pa->field[FC_PX], pa->count * sizeof(float));
    memcpy(in->y, pa->field[FC_PY], pa->count * sizeof(float));
    memcpy(in->z, pa->field[FC_PZ], pa->count * sizeof(float));
    memcpy(in->fluid, pa->u8[FC_FLUID], pa->count);
    return 0;
}

int fc_products_offer(fc_products *ps, fc_world *w, uint32_t world_id, uint32_t epoch, uint32_t sequence)
{
    int failed = 0;
    for (int k = 1; k < FC_PRODUCT_COUNT; k++) {
        fc_product *p = &ps->of[k];
        pthread_mutex_lock(&p->lock);
        const int wanted = p->subscribers > 0 && !p->stop, busy = p->busy;
        p->skipped += wanted && busy;
        pthread_mutex_unlock(&p->lock);
        if (!wanted || busy) continue;
        if (!p->thread_started) {
            if (pthread_create(&p->thread, NULL, worker, p)) {
                failed = -1;
                continue;
            }
            p->thread_started = 1;
        }
        if (fill_input(&p->input, w, world_id, epoch, sequence)) {
            failed = -1;
            continue;
        }
        pthread_mutex_lock(&p->lock);
        p->busy = 1;
        pthread_cond_signal(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
    return failed;
}
