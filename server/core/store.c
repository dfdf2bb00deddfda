/* Where a world's particles live and which steps of its method run: the store of a backend, the
 * steps for a world, and the host's changes and syncs passed to the store. */
#include "core/store.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/solver.h"

const fc_store_kind *fc_store_for(fc_backend backend)
{
#ifdef FLUIDCAST_HAVE_CUDA
    if (backend == FC_BACKEND_CUDA) return &fc_store_cuda;
#endif
    (void)backend;
    return NULL;
}

const fc_method_steps *fc_world_steps(const fc_world *w)
{
    return w->store ? w->solver->on_device : &w->solver->on_host;
}

void fc_world_sync_to_host(fc_world *w, unsigned fields)
{
    if (w->store_state) w->store->sync_to_host(w, w->store_state, fields);
}

void fc_world_host_changed(fc_world *w, unsigned what)
{
    if (what & FC_CHANGED_COLLIDERS) w->solids_version++;
    if (w->store_state) w->store->host_changed(w, w->store_state, what);
}

void fc_sync_columns(unsigned fields, unsigned char columns[FC_COLUMN_COUNT])
{
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        unsigned flag = FC_SYNC_OTHER;
        if (c >= FC_PX && c <= FC_PZ) flag = FC_SYNC_POSITION;
        else if (c >= FC_VX && c <= FC_VZ) flag = FC_SYNC_VELOCITY;
        else if (c == FC_DENSITY) flag = FC_SYNC_DENSITY;
        else if (c == FC_FLUID) flag = FC_SYNC_FLUID;
        columns[c] = (fields & flag) != 0;
    }
}

/* Whether the element i of column c has a bit set. */
static int flagged(const fc_particles *p, int c, size_t i)
{
    const size_t size = fc_column_size(c);
    const unsigned char *bytes = (const unsigned char *)fc_particles_column(p, c) + i * size;
    for (size_t b = 0; b < size; b++)
        if (bytes[b]) return 1;
    return 0;
}

long fc_world_remove_flagged(fc_world *w, int column)
{
    fc_particles *p = &w->particles;
    long removed = -1;
    if (p->count == 0) return 0;
    if (w->store_state && w->store->remove_flagged) removed = w->store->remove_flagged(w, w->store_state, column);
    if (removed >= 0) {
        p->count -= (size_t)removed;
        w->removed_total += (uint64_t)removed;
        return removed;
    }
    fc_world_sync_to_host(w, FC_SYNC_ALL); /* compaction moves every field */
    uint8_t *keep = malloc(p->count);
    if (!keep) return -1;
    removed = 0;
    for (size_t i = 0; i < p->count; i++) removed += !(keep[i] = (uint8_t)!flagged(p, column, i));
    if (removed) fc_particles_compact(p, keep);
    free(keep);
    w->removed_total += (uint64_t)removed;
    if (removed) fc_world_host_changed(w, FC_CHANGED_REMOVED);
    return removed;
}

int fc_world_object_loads(fc_world *w, fc_object_load *loads, size_t max)
{
    if (!w->solver || !w->solver->object_loads || !w->solver_state) return -2;
    fc_world_sync_to_host(w, FC_SYNC_POSITION | FC_SYNC_DENSITY | FC_SYNC_FLUID);
    return w->solver->object_loads(w, loads, max);
}
