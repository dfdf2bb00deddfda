/* The CUDA store: a world's particles live on the device (cuda/device_store.h) between steps. The host
 * arrays are brought up to date only when something reads them (fc_world_sync_to_host: snapshots,
 * exports, statistics), and what the host changes goes to the device through host_changed: emitted
 * particles are appended, a compaction or a checkpoint uploads them all. A sync brings only the
 * columns asked for that are behind (with the ids, which say the order they come in). Emission,
 * sinks, frame snapshots and the motion statistics happen on the device, so that only what they
 * produce crosses. */
#include "cuda/store.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cuda_store {
    fc_device_store *device;
    unsigned char fresh[FC_COLUMN_COUNT]; /* the host's column is the device's, in the device's order */
    int failed;          /* a device call failed: every step fails from now on */
    uint64_t id_stamp;   /* the set of particles (their ids) now: a new stamp at every change */
    fc_cuda_stats sums;  /* motion_stats' sums, for the method's stats call after it */
    int sums_ready;
} cuda_store;

/* Stamps of particle sets, unique in the process (fc_frame_request.id_stamp). */
static atomic_uint_fast64_t last_stamp;
static uint64_t new_stamp(void) { return (uint64_t)atomic_fetch_add(&last_stamp, 1) + 1; }

static cuda_store *store_of(const fc_world *w)
{
    return w->store == &fc_store_cuda ? w->store_state : NULL;
}

void fc_cuda_store_report(const fc_world *w, const char *what, const char *why)
{
    fprintf(stderr, "fluidcast: world '%s' on the GPU: %s: %s\n", w->name, what, why);
}

fc_device_store *fc_cuda_store_device(const fc_world *w)
{
    const cuda_store *st = store_of(w);
    return st && !st->failed ? st->device : NULL;
}

/* The device changed the particles: no host column is up to date. */
static void device_moved(cuda_store *st)
{
    memset(st->fresh, 0, sizeof st->fresh);
}

void fc_cuda_store_stepped(fc_world *w, int failed, const char *what, const char *why)
{
    cuda_store *st = store_of(w);
    if (!st) return;
    device_moved(st);
    if (failed && !st->failed) fc_cuda_store_report(w, what, why);
    st->failed |= failed;
}

int fc_cuda_store_take_sums(const fc_world *w, fc_cuda_stats *out)
{
    cuda_store *st = store_of(w);
    if (!st || !st->sums_ready) return 0;
    st->sums_ready = 0;
    *out = st->sums;
    return 1;
}

static void store_destroy(void *state)
{
    cuda_store *st = state;
    if (!st) return;
    fc_device_store_destroy(st->device);
    free(st);
}

static int store_create(fc_world *w, void **state, char *err, size_t errlen)
{
    cuda_store *st = calloc(1, sizeof *st);
    if (!st) return -1;
    if (errlen) err[0] = '\0';
    st->device = fc_device_store_create(err, errlen);
    if (!st->device || fc_device_store_upload(st->device, &w->particles, 0, err, errlen)) {
        if (!err[0]) snprintf(err, errlen, "the particles could not be put on the device");
        store_destroy(st);
        return -1;
    }
    st->id_stamp = new_stamp();
    memset(st->fresh, 1, sizeof st->fresh); /* the device holds what the host has */
    *state = st;
    return 0;
}

/* The columns asked for that are behind, with the ids: a step's reorder moved every column, so a
 * column synced after it is in the device's order, and one not synced is not to be read. */
static void store_sync_to_host(fc_world *w, void *state, unsigned fields)
{
    cuda_store *st = state;
    char err[512];
    unsigned char wanted[FC_COLUMN_COUNT];
    fc_sync_columns(fields, wanted);
    int any = 0;
    for (int c = 0; c < FC_COLUMN_COUNT; c++) any |= wanted[c] = wanted[c] && !st->fresh[c];
    if (!any || st->failed) return;
    if (fc_device_store_download(st->device, &w->particles, wanted, err, sizeof err)) {
        fc_cuda_store_report(w, "download", err);
        st->failed = 1;
        return;
    }
    for (int c = 0; c < FC_COLUMN_COUNT; c++) st->fresh[c] |= wanted[c];
}

static void store_host_changed(fc_world *w, void *state, unsigned what)
{
    cuda_store *st = state;
    char err[512];
    if (st->failed || !(what & (FC_CHANGED_ADDED | FC_CHANGED_REMOVED | FC_CHANGED_REPLACED))) return;
    /* appended only: the device keeps its particles (the host's copies of them may be behind) */
    const int appended = !(what & (FC_CHANGED_REMOVED | FC_CHANGED_REPLACED));
    if (appended && fc_device_store_count(st->device) == w->particles.count) return; /* emitted there (store_emit) */
    const size_t from = appended ? fc_device_store_count(st->device) : 0;
    st->id_stamp = new_stamp();
    if (!appended) memset(st->fresh, 1, sizeof st->fresh); /* the host's arrays are the device's again */
    if (fc_device_store_upload(st->device, &w->particles, from, err, sizeof err)) {
        fc_cuda_store_report(w, "upload", err);
        st->failed = 1;
    }
}

/* Motion and density statistics added up on the device: the blow-up check after every step moves
 * a few hundred bytes, not the particles. */
static int store_motion_stats(fc_world *w, void *state, fc_world_stats *out)
{
    cuda_store *st = state;
    char err[512];
    double rest[FC_MAX_FLUIDS], heat_capacity[FC_MAX_FLUIDS];
    if (st->failed) return -1;
    for (int f = 0; f < FC_MAX_FLUIDS; f++) {
        const int of = f < w->fluid_count ? f : 0;
        rest[f] = w->fluids[of].rest_density;
        heat_capacity[f] = (double)w->fluid_mass[of] * w->fluids[of].specific_heat;
    }
    if (fc_device_store_stats(st->device, rest, heat_capacity, &st->sums, err, sizeof err)) {
        fc_cuda_store_report(w, "statistics", err);
        return -1;
    }
    const size_t n = fc_device_store_count(st->device);
    out->particles = n;
    out->max_speed = sqrt(st->sums.max_speed2);
    out->rms_speed = n ? sqrt(st->sums.sum_speed2 / (double)n) : 0.0;
    out->has_nan = st->sums.has_nan;
    st->sums_ready = 1;
    return 0;
}

/* The frame's snapshot quantized on the device: only ids and quantized values cross to the host. */
static int store_frame_snapshot(fc_world *w, void *state, fc_frame_request *req)
{
    cuda_store *st = state;
    char err[512];
    if (st->failed || req->count != fc_device_store_count(st->device)) return -1;
    if (fc_device_store_frame(st->device, req, req->id_stamp != st->id_stamp, err, sizeof err)) {
        fc_cuda_store_report(w, "frame", err);
        return -1;
    }
    req->id_stamp = st->id_stamp;
    return 0;
}

/* An emitter's layer appended on the device: only the layer's points cross. */
static int store_emit(fc_world *w, void *state, const fc_emission *e)
{
    cuda_store *st = state;
    char err[512];
    if (st->failed) return -1;
    if (fc_device_store_emit(st->device, e, err, sizeof err)) {
        fc_cuda_store_report(w, "emission", err);
        st->failed = 1;
        return -1;
    }
    device_moved(st), st->id_stamp = new_stamp();
    return 0;
}

/* Sinks on the device: the particles inside go, the rest are compacted there. */
static long store_remove_inside(fc_world *w, void *state, const fc_shape *shapes, size_t count)
{
    cuda_store *st = state;
    char err[512];
    size_t removed = 0;
    if (st->failed) return -1;
    if (fc_device_store_remove_inside(st->device, shapes, count, &removed, err, sizeof err)) {
        fc_cuda_store_report(w, "sinks", err);
        st->failed = 1;
        return -1;
    }
    if (removed) device_moved(st), st->id_stamp = new_stamp();
    return (long)removed;
}

/* A per-particle flag on the device: the flagged particles go, the rest are compacted there. */
static long store_remove_flagged(fc_world *w, void *state, int column)
{
    cuda_store *st = state;
    char err[512];
    size_t removed = 0;
    if (st->failed) return -1;
    if (fc_device_store_remove_flagged(st->device, column, &removed, err, sizeof err)) {
        fc_cuda_store_report(w, "flagged removal", err);
        st->failed = 1;
        return -1;
    }
    if (removed) device_moved(st), st->id_stamp = new_stamp();
    return (long)removed;
}

const fc_store_kind fc_store_cuda = {
    .name = "cuda",
    .create = store_create,
    .destroy = store_destroy,
    .sync_to_host = store_sync_to_host,
    .host_changed = store_host_changed,
    .motion_stats = store_motion_stats,
    .frame_snapshot = store_frame_snapshot,
    .emit = store_emit,
    .remove_inside = store_remove_inside,
    .remove_flagged = store_remove_flagged,
};
