/* A world's state kept in memory to go back to: particles, objects, walls, parameters and clock. */
#ifndef FC_CHECKPOINT_H
#define FC_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "core/world.h"

typedef struct fc_checkpoint {
    int taken;
    double time;
    uint64_t step_count, emitted_total, removed_total, air_made_total, air_removed_total;
    fc_params params;
    fc_fluid fluids[FC_MAX_FLUIDS]; /* their live parameters (set) */
    fc_particles particles;
    fc_objects objects;    /* the objects as they were (collider_add and _remove change the set, emitters owe) */
    fc_thermal_contact walls[6]; /* the container walls' thermal contact (walls_update) */
} fc_checkpoint;

/* Copies w's state into c (reusing c's memory), the particles brought up to date from the solver
 * first (fc_world_sync_to_host). 0, or -1 when out of memory (c not taken). */
int fc_checkpoint_take(fc_checkpoint *c, fc_world *w);
/* Puts c's state back into w: particles, objects (new ids stay unused: next ids are kept;
 * colliders added since go, those removed since come back), walls, parameters and clock; the solver stays. 0, or -1 when out of
 * memory or the server's budget has no room for the particles again (w unchanged). */
int fc_checkpoint_restore(const fc_checkpoint *c, fc_world *w);
void fc_checkpoint_free(fc_checkpoint *c);
/* Bytes c holds. */
size_t fc_checkpoint_bytes(const fc_checkpoint *c);

#endif
