/* The solver interface: what SPH, PBF, FLIP and a CUDA backend implement, and their registry. */
#ifndef FC_SOLVER_H
#define FC_SOLVER_H

#include <stddef.h>
#include <stdint.h>

#include "core/world.h"

typedef struct fc_solver {
    const char *name;
    const char *description;
    uint32_t param_bit;      /* FC_SOLVER_*: the parameters whose mask has this bit are the ones it reads */

    /* Allocates state, derives constants (particle mass) from the parameters. 0 or -1 with err. */
    int (*init)(fc_world *w, void **state, char *err, size_t errlen);

    /* The step to take now, at most params.time_step (a CFL limit, for example). May be NULL. */
    double (*choose_dt)(const fc_world *w, const void *state);

    /* Advances particles by dt: neighbour grid, forces, integration, fc_collide_particles.
     * FC_STEP_DONE, FC_STEP_FAILED, or FC_STEP_INTERRUPTED when fc_world_interrupted(w) was seen
     * between two phases, before positions or velocities changed. */
    int (*step)(fc_world *w, void *state, double dt);

    /* Computes FC_DENSITY at the particles' present positions without moving them (it may reorder
     * them, as a step does); 0 or -1 when out of memory. NULL: the solver reports no density. */
    int (*density)(fc_world *w, void *state);

    /* The speed of sound of its equation of state (weakly compressible solvers; NULL for others):
     * the stability checks compare the flow with it (core/stability.h). */
    double (*sound_speed)(const fc_params *p);

    /* Mean neighbour count of the last step (the rest of fc_world_stats comes from particles). */
    double (*mean_neighbours)(const fc_world *w, const void *state);

    void (*destroy)(void *state);
} fc_solver;

const fc_solver *fc_solver_find(const char *name);
/* The registered names as "sph, pbf" into buf (NUL-terminated, cut at buflen); returns buf. */
const char *fc_solver_names(char *buf, size_t buflen);
/* NULL-terminated list of all solvers. */
extern const fc_solver *const fc_solvers[];

/* Solvers (one per file in server/solvers/). */
extern const fc_solver fc_solver_sph;
extern const fc_solver fc_solver_pbf;

/* Shared by solvers: collision response against colliders and the container (seed 001 3.2.2).
 * Pushes particles out of solids (by boundary_erp of the penetration beyond particle_margin; the
 * container fully), reflects boundary_restitution of the normal velocity, removes
 * boundary_friction of the tangential velocity. After it, every particle is inside the domain.
 * One particle at a time, with soft walls or positions only: fc_collide_point (colliders.h). */
void fc_collide_particles(fc_world *w);

#endif
