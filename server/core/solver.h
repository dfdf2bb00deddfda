/* The solver interface: what SPH, PBF, FLIP and a CUDA backend implement, and their registry. */
#ifndef FC_SOLVER_H
#define FC_SOLVER_H

#include <stddef.h>
#include <stdint.h>

#include "core/emission.h"
#include "core/frame_request.h"
#include "core/time_step.h"
#include "core/world.h"

/* What a solver needs the world to build before it starts (fc_solver.needs); nothing else is built.
 * A method builds its own structures (the SPH family's boundary particles) in init. */
enum {
    FC_NEEDS_GRID = 1u << 0, /* the neighbour grid's geometry: cells of the method's length scale over the domain */
};

/* What a method is asked to cost (fc_solver.cost): `fluid` particles with parameters `params` in a
 * world of `dims` dimensions with the container [lo, hi] and the colliders `solids`, before the
 * world is built (a scene's estimate) or while it runs (a set, an added collider, emission). */
typedef struct fc_cost_query {
    const fc_params *params;
    int dims;
    double fluid;
    const float *lo, *hi;
    const fc_shape *solids;
    size_t solid_count;
    double step_work; /* the solver's fc_step_work for these parameters (fc_solver_cost fills it in) */
} fc_cost_query;

/* A method's answer: the cost against the budget (particles counted by their step work, and
 * bytes), and how many particles' worth of its own structures it holds besides the fluid (the SPH
 * family's boundary samples), for messages. */
typedef struct fc_method_cost {
    fc_cost cost;
    double structures;
} fc_method_cost;

struct fc_instability;

/* How a method steps where its world's particles live: on the host arrays (fc_solver.on_host) or
 * in a device store (fc_solver.on_device, core/store.h). Only step is required. */
typedef struct fc_method_steps {
    /* Allocates state, derives constants (particle mass) from the parameters and builds the method's
     * own structures (reporting their build phases). 0, -1 with err, or FC_BUILD_OUT_OF_MEMORY. */
    int (*init)(fc_world *w, void **state, char *err, size_t errlen);

    /* Lowers limit (time_step and FC_DT_MAXIMUM when called) to the longest step its stability
     * conditions allow now (core/time_step.h); the world calls it before each step unless
     * adaptive_time_step is off. May be NULL: time_step. */
    void (*limit_dt)(const fc_world *w, const void *state, fc_step_limit *limit);

    /* Advances particles by dt: neighbour grid, forces, integration, fc_collide_particles.
     * FC_STEP_DONE, FC_STEP_FAILED, or FC_STEP_INTERRUPTED when fc_world_interrupted(w) was seen
     * between two phases, before positions or velocities changed. */
    int (*step)(fc_world *w, void *state, double dt);

    /* Computes FC_DENSITY at the particles' present positions without moving them (it may reorder
     * them, as a step does); 0 or -1 when out of memory. NULL: the method reports no density. */
    int (*density)(fc_world *w, void *state);

    /* Its statistics of the present state into out (at most max, name and value; the world puts
     * the solver's name on them); returns how many. May be NULL: none. */
    int (*stats)(const fc_world *w, const void *state, fc_solver_stat *out, int max);

    /* Gives back the memory that grows with pairs rather than particles (neighbour lists) while the
     * world is paused after a blow-up; the next step grows it again. NULL: nothing to give. */
    void (*release)(fc_world *w, void *state);

    void (*destroy)(void *state);
} fc_method_steps;

/* A method: its physics, parameters, checks and cost; one entry whatever store its particles live in. */
typedef struct fc_solver {
    const char *name;
    const char *description;
    uint32_t param_bit;      /* FC_SOLVER_*: the parameters whose mask has this bit are the ones it reads */
    unsigned needs;          /* FC_NEEDS_*: what the world builds for it */

    /* Its own rules on the parameters, beyond fc_params_check; 0, or -1 with err quoting the
     * parameters as 'name'. May be NULL. */
    int (*check_params)(const fc_params *p, char *err, size_t errlen);

    /* Its steps on the host arrays, and in a device store (NULL: it has no device step yet; a world
     * on a CUDA device cannot run it). */
    fc_method_steps on_host;
    const fc_method_steps *on_device;

    /* The time step its method is made for: what a world switched to it takes when the step it had
     * is longer (fc_world_switch_solver). 0: any. */
    double default_time_step;

    /* The work of a step per particle with these parameters against the budget's measure (PBF with
     * 4 iterations at h = 2 spacings: --max-particles' default is what the threads step in about 2 s
     * at that): the budget counts each particle this many times (at least once). NULL: 1. */
    double (*step_work)(const fc_params *p, int dims);

    /* What a world of q->fluid particles costs with this method, its own structures included (the
     * budget asks before building and before any change; core/budget.h). NULL: the fluid particles
     * alone, counted by step_work, at FC_BYTES_PER_PARTICLE each. */
    fc_method_cost (*cost)(const fc_cost_query *q);
    const char *structures_name; /* what fc_method_cost.structures counts ("boundary particles") */

    /* The distance a particle may cross in one step before the method loses track of it (the SPH
     * family's smoothing radius; a grid's cell), m, and what messages call it: the stability checks
     * measure the step against it. NULL: the particle spacing. */
    double (*length_scale)(const fc_params *p);
    const char *length_name;

    /* Its own blow-up checks, after the ones every method gets (core/stability.h): 1 with r's check
     * and message filled when the state is unsound for this method, else 0. May be NULL. */
    int (*check_stability)(const fc_world *w, const fc_world_stats *s, struct fc_instability *r);

    /* The fluid's force and torque on each solid (the container's walls first, then the colliders in
     * the table's order) into loads (at most max); returns how many, or -1 out of memory. The world
     * syncs positions and densities first (fc_world_object_loads). NULL: the method cannot say. */
    int (*object_loads)(const fc_world *w, fc_object_load *loads, size_t max);
    /* The speed of sound of its equation of state (weakly compressible solvers; NULL for others):
     * the stability checks compare the flow with it (core/stability.h). */
    double (*sound_speed)(const fc_params *p);
} fc_solver;

const fc_solver *fc_solver_find(const char *name);
/* The one solver-name check: the solver called name, or NULL with "expected one of sph, pbf, got
 * 'NAME'" in err (callers put what they read, "--solver: ", in front). */
const fc_solver *fc_solver_lookup(const char *name, char *err, size_t errlen);
/* The parameter rules for solver s: fc_params_check and then the solver's own (s NULL: the
 * general rules only). 0, or -1 with err. */
int fc_solver_check_params(const fc_solver *s, const fc_params *p, char *err, size_t errlen);
/* Makes p's time_step the one solver s is made for (fc_solver.default_time_step) when it is more
 * than 2x off (WCSPH's 0.5 ms would make PBF crawl; PBF's 2 ms only caps WCSPH's adaptive step):
 * what a world switched to s, or a scene run with another solver than its own, takes. */
void fc_solver_fit_time_step(const fc_solver *s, fc_params *p);
/* How many times the budget counts a particle of solver s with parameters p (fc_solver.step_work,
 * at least 1): iterations and neighbours cost step time as particles do. */
double fc_step_work(const fc_solver *s, const fc_params *p, int dims);
/* Solver s's cost for q (fc_solver.cost, or the fluid alone without one); s may be NULL. */
fc_method_cost fc_solver_cost(const fc_solver *s, const fc_cost_query *q);
/* Solver s's length scale for parameters p (fc_solver.length_scale; the particle spacing when it
 * has none), and its name in messages ("particle spacing" then). */
double fc_solver_length_scale(const fc_solver *s, const fc_params *p);
const char *fc_solver_length_name(const fc_solver *s);
/* The registered names as "sph, pbf" into buf (NUL-terminated, cut at buflen); returns buf. */
const char *fc_solver_names(char *buf, size_t buflen);
/* NULL-terminated list of all solvers. */
extern const fc_solver *const fc_solvers[];

/* Solvers (one per file in server/solvers/). */
extern const fc_solver fc_solver_sph;
extern const fc_solver fc_solver_pbf;

/* Where solver s steps under the choice c: a CUDA choice made by auto gives way to the CPU when s
 * has no device steps (c then says so); one asked for stays, and fc_world_set_solver refuses it. */
void fc_solver_fit_backend(const fc_solver *s, fc_backend_choice *c);

/* Shared by solvers: collision response against colliders and the container (seed 001 3.2.2).
 * Pushes particles out of solids (by boundary_erp of the penetration beyond particle_margin; the
 * container fully), reflects boundary_restitution of the normal velocity, removes
 * boundary_friction of the tangential velocity. After it, every particle is inside the domain.
 * One particle at a time, with soft walls or positions only: fc_collide_point (colliders.h). */
void fc_collide_particles(fc_world *w);

#endif
