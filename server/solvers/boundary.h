/* The SPH family's boundary particles on walls and colliders, with Akinci et al. 2012 volume weights. */
#ifndef FC_BOUNDARY_H
#define FC_BOUNDARY_H

#include "core/world.h"

/* Boundary particles in a layer one smoothing radius deep behind the container walls and collider
 * surfaces, weighted by volume (Akinci et al. 2012; boundary.c explains the sampling and bound). */
typedef struct fc_boundary {
    size_t count;
    float *x, *y, *z, *volume; /* sorted by grid cell */
    fc_grid grid;
} fc_boundary;

/* Samples the solid skin behind the container walls and every collider on the fluid lattice, sorts
 * the samples into a grid of the world's geometry and computes their volumes (bounded by the rest
 * volume V0, fc_sph_rest_volume). 0, or -1 out of memory. */
int fc_boundary_build(fc_boundary *b, const fc_world *w);
void fc_boundary_free(fc_boundary *b);

/* Boundary samples expected behind one shape's surface (shape NULL: the container's walls) in the
 * domain [lo, hi], at the parameters' spacing and smoothing radius: what the budget counts before
 * anything is sampled. */
double fc_boundary_estimate(const fc_shape *shape, const float lo[3], const float hi[3], const fc_params *p, int dims);

#endif
