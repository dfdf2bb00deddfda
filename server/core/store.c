/* Where a world's particles live and which steps of its method run: the store of a backend, the
 * steps for a world, and the host's changes and syncs passed to the store. */
#include "core/store.h"

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
