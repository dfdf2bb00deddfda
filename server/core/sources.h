/* Emitters that add particles and sinks that remove them. */
#ifndef FC_SOURCES_H
#define FC_SOURCES_H

#include "core/world.h"

/* Number of particles in one emission of an emitter's row: lattice points at particle_spacing on
 * its disc (dims 3) or segment (dims 2). */
size_t fc_emitter_layer_size(const fc_object *emitter, float spacing, int dims);

/* Lets every emitter emit what it owes after dt: whole layers (a disc of particles) when
 * rate * elapsed time reaches a layer. Returns particles added; stops at max_particles. */
size_t fc_emitters_step(fc_world *w, double dt);

/* Removes every particle inside a sink; returns how many. */
size_t fc_sinks_apply(fc_world *w);

/* The object kinds' step hooks after a solver's step of dt, in kind order (core/objects.h): the
 * sinks remove, then the emitters add what they owe. A kind without a hook does nothing. */
void fc_objects_step(fc_world *w, double dt);

#endif
