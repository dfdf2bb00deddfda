/* Where a world's particles live between steps: its host arrays (no store kind), or a device store
 * that keeps them (every registry column and the ids) and brings the host arrays up to date when
 * something reads them. What is about where particles live is here; what is about physics is the
 * method's (core/solver.h), which steps in the store through its on_device steps. */
#ifndef FC_STORE_H
#define FC_STORE_H

#include <stddef.h>

#include "core/backend.h"
#include "core/emission.h"
#include "core/frame_request.h"
#include "core/world.h"

typedef struct fc_store_kind {
    const char *name;

    /* Takes the world's particles (the host arrays) into a new store. 0, or -1 with err. */
    int (*create)(fc_world *w, void **state, char *err, size_t errlen);
    void (*destroy)(void *state);

    /* Brings the FC_SYNC_* fields up to date in w->particles (before a snapshot, an export, a
     * checkpoint or statistics). */
    void (*sync_to_host)(fc_world *w, void *state, unsigned fields);

    /* The host changed particles (FC_CHANGED_ADDED, _REMOVED, _REPLACED in what): the store takes
     * them again from w->particles (appended ones only after an addition). */
    void (*host_changed)(fc_world *w, void *state, unsigned what);

    /* The motion statistics of fc_world_stats (particles, max_speed, rms_speed, has_nan, with
     * fc_motion_sample) computed in the store, so that the blow-up check after every step moves
     * nothing to the host; 0, or -1 (the host then syncs and computes them). May be NULL. */
    int (*motion_stats)(fc_world *w, void *state, fc_world_stats *s);

    /* Fills a frame's snapshot in the store (fc_frame_request) without bringing the host arrays up
     * to date: 0, or -1 (the host then syncs and takes it from its arrays). May be NULL. */
    int (*frame_snapshot)(fc_world *w, void *state, fc_frame_request *req);

    /* Appends an emitter's layer in the store (core/emission.h), the host's arrays left behind (the
     * world raises its count and next id); 0, or -1 (the emission stops for this step). May be
     * NULL: the host places the particles and host_changed(FC_CHANGED_ADDED) brings them. */
    int (*emit)(fc_world *w, void *state, const fc_emission *e);

    /* Removes the particles inside any of the `count` shapes (fc_shape_inside: sinks) in the store:
     * how many went (the world then lowers its count; the host arrays come up to date at the next
     * sync_to_host), or -1 (the host then syncs and removes them). May be NULL. */
    long (*remove_inside)(fc_world *w, void *state, const fc_shape *shapes, size_t count);

    /* Removes the particles whose registry column `column` has a bit set, a method's per-particle
     * flag (air deletion and FLIP reseeding mark particles so), in the store: how many went, or -1
     * (the host then syncs and removes them). May be NULL. */
    long (*remove_flagged)(fc_world *w, void *state, int column);
} fc_store_kind;

/* The store of a backend: NULL for the CPU (the host arrays are the store), the CUDA store for a
 * CUDA device (when the build has a CUDA part). */
const fc_store_kind *fc_store_for(fc_backend backend);

#ifdef FLUIDCAST_HAVE_CUDA
extern const fc_store_kind fc_store_cuda; /* cuda/store.c */
#endif

#endif
