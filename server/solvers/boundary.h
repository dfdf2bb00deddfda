/* The SPH family's boundary particles on walls and colliders, with Akinci et al. 2012 volume weights. */
#ifndef FC_BOUNDARY_H
#define FC_BOUNDARY_H

#include "core/world.h"

/* The solid a sample belongs to: the container (id 0) or a collider row, with the pose its
 * samples were last placed at. */
typedef struct fc_boundary_owner {
    int id;
    fc_shape pose;
} fc_boundary_owner;

/* Boundary particles in a layer one smoothing radius deep behind the container walls and collider
 * surfaces, weighted by volume (Akinci et al. 2012; boundary.c explains the sampling and bound).
 * Each sample keeps its owner and its place in the owner's frame, so a collider that moves or
 * turns carries its samples along (fc_boundary_update) and the fluid's force on one can be summed. */
typedef struct fc_boundary {
    size_t count;
    float *x, *y, *z, *volume; /* sorted by grid cell */
    uint32_t *owner;           /* the sample's index in owners */
    float *lx, *ly, *lz;       /* the sample in its owner's frame: R^T (x - centre) (the container's: x) */
    fc_boundary_owner *owners; /* [0] the container, then the colliders in the table's order */
    size_t owner_count;
    fc_grid grid;
} fc_boundary;

/* Samples the solid skin behind the container walls and every collider on the fluid lattice, sorts
 * the samples into a grid of the world's geometry and computes their volumes (bounded by the rest
 * volume V0, fc_sph_rest_volume). 0, or -1 out of memory. */
int fc_boundary_build(fc_boundary *b, const fc_world *w);
/* Brings the samples up to date with w's colliders: when only poses changed (collider_move, a
 * rotation), the moved colliders' samples follow them (x = centre + R local), are sorted again,
 * and the volumes within a smoothing radius of a moved sample are weighed again, which gives the
 * volumes a full weighing would; when colliders came, went or changed size, everything is
 * sampled again (fc_boundary_build). 0 followed, 1 sampled again, -1 out of memory. */
int fc_boundary_update(fc_boundary *b, const fc_world *w);
void fc_boundary_free(fc_boundary *b);

/* Boundary samples expected behind one shape's surface (shape NULL: the container's walls) in the
 * domain [lo, hi], at the parameters' spacing and smoothing radius: what the budget counts before
 * anything is sampled. */
double fc_boundary_estimate(const fc_shape *shape, const float lo[3], const float hi[3], const fc_params *p, int dims);

#endif
