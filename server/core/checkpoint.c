/* Checkpoints: copies of a world's state, and putting one back. */
#include "core/checkpoint.h"

#include <stdlib.h>
#include <string.h>

/* Copies n items into *dst, resized; 0 or -1 when out of memory (*dst unchanged). */
static int copy_array(void **dst, const void *src, size_t n, size_t size)
{
    void *grown = realloc(*dst, (n ? n : 1) * size);
    if (!grown) return -1;
    if (n) memcpy(grown, src, n * size);
    *dst = grown;
    return 0;
}

int fc_checkpoint_take(fc_checkpoint *c, fc_world *w)
{
    c->taken = 0;
    fc_world_sync_to_host(w, FC_SYNC_ALL);
    if (fc_particles_copy(&c->particles, &w->particles) ||
        copy_array((void **)&c->emitters, w->emitters, w->emitter_count, sizeof *w->emitters) ||
        copy_array((void **)&c->colliders, w->colliders, w->collider_count, sizeof *w->colliders))
        return -1;
    c->emitter_count = w->emitter_count;
    c->collider_count = w->collider_count;
    c->params = w->params;
    memcpy(c->fluids, w->fluids, sizeof c->fluids);
    c->time = w->time;
    c->step_count = w->step_count;
    c->emitted_total = w->emitted_total;
    c->removed_total = w->removed_total;
    c->taken = 1;
    return 0;
}

int fc_checkpoint_restore(const fc_checkpoint *c, fc_world *w)
{
    if (!c->taken) return -1;
    /* the arrays grow first (nothing else changes if that fails), then take the checkpoint's */
    void *emitters = NULL, *colliders = NULL;
    if (fc_world_reserve_fluid(w, c->particles.count) || fc_particles_reserve(&w->particles, c->particles.count) ||
        copy_array(&emitters, c->emitters, c->emitter_count, sizeof *c->emitters) ||
        copy_array(&colliders, c->colliders, c->collider_count, sizeof *c->colliders)) {
        free(emitters);
        return -1;
    }
    fc_particles_copy(&w->particles, &c->particles); /* cannot fail: reserved above */
    free(w->emitters);
    free(w->colliders);
    w->emitters = emitters;
    w->emitter_count = c->emitter_count;
    w->colliders = colliders;
    w->collider_count = c->collider_count;
    w->params = c->params;
    memcpy(w->fluids, c->fluids, sizeof w->fluids); /* a world's fluids stay the same ones: their count too */
    w->time = c->time;
    w->step_count = c->step_count;
    w->emitted_total = c->emitted_total;
    w->removed_total = c->removed_total;
    /* every particle, the colliders (moved, come or gone since) and the parameters may differ */
    fc_world_host_changed(w, FC_CHANGED_REPLACED | FC_CHANGED_COLLIDERS | FC_CHANGED_PARAMS);
    return 0;
}

void fc_checkpoint_free(fc_checkpoint *c)
{
    fc_particles_free(&c->particles);
    free(c->emitters);
    free(c->colliders);
    memset(c, 0, sizeof *c);
}

size_t fc_checkpoint_bytes(const fc_checkpoint *c)
{
    return c->particles.capacity * fc_particles_bytes_per_particle() +
           c->emitter_count * sizeof *c->emitters + c->collider_count * sizeof *c->colliders;
}
