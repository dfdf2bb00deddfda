/* Boundary particles on walls and colliders, with Akinci et al. 2012 volume weights. */
#ifndef FC_BOUNDARY_H
#define FC_BOUNDARY_H

#include "core/world.h"

/* Samples the solid skin behind the container walls and every collider on the fluid lattice, sorts
 * the samples into a grid of the world's geometry and computes their volumes. 0, or -1 out of memory. */
int fc_boundary_build(fc_boundary *b, const fc_world *w);
void fc_boundary_free(fc_boundary *b);


#endif
