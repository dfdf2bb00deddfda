/* Checkpoints: copies of a world's state, and putting one back. */
#include "core/checkpoint.h"

#include <stdlib.h>
#include <string.h>

int fc_checkpoint_take(fc_checkpoint *c, fc_world *w)
{
    c->taken = 0;
    fc_world_sync_to_host(w, FC_SYNC_ALL);
    if (fc_particles_copy(&c->particles, &w->particles) || fc_objects_copy(&c->objects, &w->objects)) return -1;
    memcpy(c->walls, w->walls, sizeof c->walls);
    c->params = w->params;
    memcpy(c->fluids, w->fluids, sizeof c->fluids);
    c->time = w->time;
    c->step_count = w->step_count;
    c->emitted_total = w->emitted_total;
    c->removed_total = w->removed_total;
    c->air_made_total = w->air_made_total, c->air_removed_total = w->air_removed_total;
    c->taken = 1;
    return 0;
}

int fc_checkpoint_restore(const fc_checkpoint *c, fc_world *w)
{
    if (!c->taken) return -1;
    /* the arrays grow first (nothing else changes if that fails), then take the checkpoint's */
    fc_objects objects = {0};
    if (fc_world_reserve_fluid(w, c->particles.count) || fc_particles_reserve(&w->particles, c->particles.count) ||
        fc_objects_copy(&objects, &c->objects))
        return -1;
    fc_particles_copy(&w->particles, &c->particles); /* cannot fail: reserved above */
    objects.next_id = w->objects.next_id; /* ids given since are not given again */
    fc_objects_free(&w->objects);
    w->objects = objects;
    memcpy(w->walls, c->walls, sizeof w->walls);
    w->params = c->params;
    memcpy(w->fluids, c->fluids, sizeof w->fluids); /* a world's fluids stay the same ones: their count too */
    w->time = c->time;
    w->step_count = c->step_count;
    w->emitted_total = c->emitted_total;
    w->removed_total = c->removed_total;
    w->air_made_total = c->air_made_total, w->air_removed_total = c->air_removed_total;
    /* every particle, the colliders (moved, come or gone since) and the parameters may differ */
    fc_world_host_changed(w, FC_CHANGED_REPLACED | FC_CHANGED_COLLIDERS | FC_CHANGED_PARAMS);
    return 0;
}

void fc_checkpoint_free(fc_checkpoint *c)
{
    fc_particles_free(&c->particles);
    fc_objects_free(&c->objects);
    memset(c, 0, sizeof *c);
}

size_t fc_checkpoint_bytes(const fc_checkpoint *c)
{
    return c->particles.capacity * fc_particles_bytes_per_particle() +
           c->objects.count * sizeof *c->objects.rows;
}
