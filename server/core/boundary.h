/* Boundary particles on walls and colliders, with Akinci et al. 2012 volume weights. */
#ifndef FC_BOUNDARY_H
#define FC_BOUNDARY_H

#include "core/world.h"

/* Samples the container and every collider at the particle spacing, sorts the samples into a
 * grid of the world's geometry and computes each one's volume. 0, or -1 when out of memory. */
int fc_boundary_build(fc_boundary *b, const fc_world *w);
void fc_boundary_free(fc_boundary *b);

#endif
