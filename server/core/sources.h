/* Emitters that add particles and sinks that remove them. */
#ifndef FC_SOURCES_H
#define FC_SOURCES_H

#include "core/world.h"

/* Number of particles in one emission: lattice points at particle_spacing on the disc (dims 3) or
 * the segment (dims 2). */
size_t fc_emitter_layer_size(const fc_emitter *e, float spacing, int dims);

/* Lets every emitter emit what it owes after dt: whole layers (a disc of particles) when
 * rate * elapsed time reaches a layer. Returns particles added; stops at max_particles. */
size_t fc_emitters_step(fc_world *w, double dt);

/* Removes every particle inside a sink; returns how many. */
size_t fc_sinks_apply(fc_world *w);

#endif
