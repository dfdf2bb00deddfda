/* A world: particles, parameters, container, colliders, emitters, sinks, a solver and its clock. */
#ifndef FC_WORLD_H
#define FC_WORLD_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/backend.h"
#include "core/budget.h"
#include "core/fluids.h"
#include "core/grid.h"
#include "core/params.h"
#include "core/particles.h"
#include "core/view.h"
#include "core/objects.h"
#include "core/shape.h"
#include "core/time_step.h"

struct fc_solver;
struct fc_build_progress;

typedef struct fc_world {
    fc_params params;
    fc_fluid fluids[FC_MAX_FLUIDS]; /* at least one; a particle's `fluid` field indexes them */
    int fluid_count;
    float domain_lo[3], domain_hi[3]; /* the container: fluid stays inside */
    fc_thermal_contact walls[6];      /* the container's walls x_min, x_max, y_min, y_max, z_min, z_max (scenes'
                                         "walls"): insulating unless a heat_transfer is set */
    int dimensions;                   /* 3, or 2: a 2D world lives in the plane z = 0 (every particle's z and
                                         vz are 0, domain_lo[2] = domain_hi[2] = 0, the grid is one cell
                                         deep); the scene's "dimensions" */
    fc_particles particles;
    fc_objects objects;               /* colliders, sinks, emitters: one table (core/objects.h) */

    fc_grid_geom grid_geom;       /* cell = the method's length scale, covering the domain (FC_NEEDS_GRID) */
    uint64_t solids_version;      /* raised whenever colliders change: methods that sample them resample */

    fc_backend backend;           /* FC_BACKEND_CPU (fc_world_init) or FC_BACKEND_CUDA: where the solver steps;
                                     set before the solver (fc_world_set_solver checks it can step there) */
    const struct fc_store_kind *store; /* where the particles live between steps: NULL, the host arrays;
                                          else a device store (core/store.h), made by fc_world_start */
    void *store_state;
    const struct fc_solver *solver;    /* the method; it steps with its on_host steps, or on_device in a store */
    void *solver_state;
    float fluid_mass[FC_MAX_FLUIDS]; /* kg, a particle of each fluid (fc_world_derive_masses) */

    /* Set by whoever drives the world when the step in progress is no longer wanted (a stop, a
     * reset or a load waits): a solver may then end its step between two phases, before it
     * changes positions or velocities (NULL: never). */
    const atomic_int *interrupt;

    /* Why the last step failed, when a solver knows (the unstable event's message; "": it does
     * not). Cleared before every step. */
    char step_failure[240];

    /* Where the build in progress reports how far it got (fc_scene_instantiate_progress sets it
     * while it builds the world; NULL otherwise). */
    const struct fc_build_progress *build_progress;

    /* The server's budget (NULL: none, as in `fluidcast run`) and what this world reserves of
     * it: its particles, fluid and boundary. Emitters take more before they emit. */
    struct fc_budget *budget;
    fc_cost budget_held;

    double time;                  /* simulated seconds */
    double last_dt;               /* the last step's length, and the condition that bounded it */
    fc_dt_bound last_dt_bound;
    uint64_t step_count;
    uint64_t emitted_total, removed_total;
    uint64_t air_made_total, air_removed_total; /* trapped air made and removed (not in the two above) */
    char name[64];
    fc_view view;                 /* the scene's "view" for viewers (state.view) */
} fc_world;

/* An empty world with default parameters, one fluid of the defaults (fc_fluid_defaults), the SPH
 * solver and a 1 m container. */
void fc_world_init(fc_world *w);
void fc_world_free(fc_world *w);

/* Selects the solver by name; 0, or -1 with the known names in err, or on a CUDA world with the
 * reason when the solver has no device steps (fc_solver.on_device). */
int fc_world_set_solver(fc_world *w, const char *name, char *err, size_t errlen);

/* Switches a world (started or not) to the solver `name`, keeping its particles (count, ids,
 * positions, velocities) and clock: starts the new solver's state, then destroys the old one.
 * A time_step off by more than 2x from the one the new solver is made for (fc_solver.default_time_step)
 * becomes that one (the caller compares to say so).
 * Returns 0 (also when it already runs that solver), -1 for an unknown name (the known names in
 * err), -2 when the new solver cannot start ("NAME cannot start: why" in err; the world is
 * unchanged). */
int fc_world_switch_solver(fc_world *w, const char *name, char *err, size_t errlen);

/* Makes sure the world's budget covers `fluid` fluid particles with its boundary (always true
 * without a budget); 0, or -1 when the server has no room (nothing changes). */
int fc_world_reserve_fluid(fc_world *w, size_t fluid);

/* A box's half extent along z in a 2D world: it reaches through the plane z = 0. */
#define FC_WORLD_THROUGH_PLANE 1e30f
/* In a 2D world (w->dimensions == 2), puts a shape in the plane z = 0 (fc_world_add_object does): a
 * sphere becomes the circle of its centre's x and y, a box the rectangle reaching through the
 * plane, a plane's or a disc's normal its part in the plane, renormalised. */
void fc_world_shape_in_plane(const fc_world *w, fc_shape *s);
/* The same whatever the world: the shape's section by the plane z = 0. */
void fc_shape_in_plane(fc_shape *s);

/* Adds an object (in a 2D world put in the plane first: its shape by fc_world_shape_in_plane, an
 * emitter's disc at z = 0 facing along the plane; an emitter without a temperature takes its
 * fluid's); returns its fresh id, or -1 when out of memory. */
int fc_world_add_object(fc_world *w, const fc_object *row);
/* fc_world_add_object of a collider with this shape. */
int fc_world_add_collider(fc_world *w, const fc_shape *shape);
/* The row of a collider with this shape, and of a sink. */
fc_object fc_collider_row(const fc_shape *shape);
fc_object fc_sink_row(const fc_shape *shape);
/* An emitter's row: a disc at position of the radius facing direction, shooting speed m/s of
 * fluid at rate particles a second. */
fc_object fc_emitter_row(const float position[3], const float direction[3], float radius, float speed, float rate,
                         int fluid);
/* Removes the object with this id (a collider's boundary is resampled before the next step); 0,
 * or -1 when there is none. */
int fc_world_remove_object(fc_world *w, int id);
/* After an object's shape or pose changed in place: colliders tell the methods (FC_CHANGED_COLLIDERS). */
void fc_world_object_moved(fc_world *w, const fc_object *o);

/* The cubic lattice a fluid block is filled on: n[a] points along axis a from start[a], spacing
 * apart (point i, j, k at start + (i, j, k) * spacing, in float as written). In 2D (dims 2) the
 * square lattice of the plane z = 0: n[2] = 1 and start[2] = 0. */
typedef struct fc_lattice {
    int n[3];
    float start[3], spacing;
} fc_lattice;
/* A box block's lattice: each particle owns a cube of the spacing, the outer ones half a spacing in
 * from the faces, centred so the margins on both sides match. */
void fc_lattice_of_box(fc_lattice *l, const float lo[3], const float hi[3], float spacing, int dims);
/* A sphere block's: the lattice of its bounding cube, corners included; the points inside the
 * sphere are filled (in 2D: of its bounding square, the disc's points). */
void fc_lattice_of_sphere(fc_lattice *l, const float center[3], float radius, float spacing, int dims);

/* Each fluid's particle mass from the rest volume V0 a solver's particles stand for:
 * mass_f = rest_density_f * V0, the one place masses are derived (solvers call it when they start). */
void fc_world_derive_masses(fc_world *w, double rest_volume);

/* The gravity the particles feel, m/s^2: the parameters' (gravity_x, gravity_y, gravity_z), with z
 * 0 in a 2D world, which stays in the plane z = 0. */
void fc_world_gravity(const fc_world *w, float g[3]);

/* A particle of fluid `fluid` (an index into w->fluids) at position x moving at v: every other
 * field at its registry default, the temperature the fluid's; in a 2D world z and vz are 0. */
void fc_world_particle(const fc_world *w, int fluid, const float x[3], const float v[3], fc_particle *rec);

/* Fills a box [lo, hi] or a sphere with particles of fluid `fluid` on its lattice at
 * particle_spacing, moving at velocity v (in 2D: a rectangle or a disc in the plane z = 0, v's z
 * ignored), leaving out the points near the world's colliders (fc_point_clear_of at
 * particle_radius: fluid never starts inside a solid); returns how many were added, or -1 when out
 * of memory. */
long fc_world_fill_box(fc_world *w, const float lo[3], const float hi[3], const float v[3], int fluid);
/* The same, less the points inside any of the `excluded_count` shapes `excluded` (a scene's blocks
 * before this one: overlapping blocks merge, the first one's fluid and velocity kept), reporting its
 * layers to w->build_progress as the part [from, to] of the fluid phase. */
long fc_world_fill_box_except(fc_world *w, const float lo[3], const float hi[3], const float v[3], int fluid,
                              const fc_shape *excluded, size_t excluded_count, double from, double to);
long fc_world_fill_sphere_except(fc_world *w, const float center[3], float radius, const float v[3], int fluid,
                                 const fc_shape *excluded, size_t excluded_count, double from, double to);
long fc_world_fill_sphere(fc_world *w, const float center[3], float radius, const float v[3], int fluid);

/* Removes the particles a fill would leave out for this collider (within particle_radius of it,
 * fc_shape_near): a collider added to a running world takes the place of the fluid there, which
 * the collision response could not push out without blowing the world up. Between steps only.
 * Returns how many went, or -1 when out of memory (nothing removed). */
long fc_world_cut_away(fc_world *w, const fc_shape *collider);

/* What building a world returns when memory ran out (other failures are -1). */
enum { FC_BUILD_OUT_OF_MEMORY = -2 };

/* Checks parameters (fc_solver_check_params), lays the grid over the domain and samples boundaries
 * when the solver needs them (fc_solver.needs), and starts the solver.
 * Call after the scene is set up and before stepping. 0, -1 with err, or FC_BUILD_OUT_OF_MEMORY. */
int fc_world_start(fc_world *w, char *err, size_t errlen);

/* The step the world takes next: time_step, or with adaptive_time_step (the default) the longest its
 * solver's stability conditions allow up to it (fc_method_steps.limit_dt), and what bounds it. */
void fc_world_choose_dt(const fc_world *w, fc_step_limit *limit);

/* What a step (fc_world_step, fc_method_steps.step) returns. */
enum { FC_STEP_DONE = 0, FC_STEP_FAILED = -1, FC_STEP_INTERRUPTED = 1 };

/* Gives back what a runaway state grew (the solver's release, then the allocator's free pages to
 * the system): a world that blew up holds only its particles while it waits. */
void fc_world_release_memory(fc_world *w);

/* One time step: solver step (grid, forces, integration, collisions), sinks, then the emitters'
 * layers due during the step (placed as far along as they travelled since due).
 * Returns FC_STEP_DONE, FC_STEP_FAILED when the solver failed, or FC_STEP_INTERRUPTED when
 * w->interrupt ended it before it moved anything (time, positions and particle count as before;
 * particles may be reordered). */
int fc_world_step(fc_world *w);

/* Density (FC_DENSITY) at the particles' present positions, through the solver (a started world
 * whose solver reports none keeps what it has): for frame 0, before any step. 0 or -1. */
int fc_world_compute_density(fc_world *w);

/* 1 when the driver asked the step in progress to end (w->interrupt). */
static inline int fc_world_interrupted(const fc_world *w)
{
    return w->interrupt && atomic_load_explicit(w->interrupt, memory_order_relaxed);
}

/* One statistic a solver reports (fc_method_steps.stats in core/solver.h), its solver's name on it. */
typedef struct fc_solver_stat {
    const char *solver; /* the reporting solver's name (the world sets it) */
    const char *name;   /* "mean_density_error", "mean_neighbours", ... */
    double value;
} fc_solver_stat;

/* The most statistics a solver reports. */
enum { FC_WORLD_MAX_SOLVER_STATS = 8 };

/* Widens [*lo, *hi] to the coldest and hottest temperature the world gives anything: its fluids,
 * its emitters, and the colliders and walls that heat or cool. */
void fc_world_temperature_span(const fc_world *w, float *lo, float *hi);

/* Statistics of the current state: the motion of the particles, measured by the world, and what
 * the solver reports of its own (density errors for the SPH family, each with its solver's name). */
typedef struct fc_world_stats {
    size_t particles;
    double max_speed;            /* m/s */
    double rms_speed;            /* m/s, root mean square over the particles: the bulk flow's speed */
    int has_nan;                 /* a position or velocity is not finite */
    int solver_stat_count;
    fc_solver_stat solver_stat[FC_WORLD_MAX_SOLVER_STATS];
} fc_world_stats;
/* Brings the fields statistics read up to date first (FC_SYNC_STATS, fc_world_sync_to_host). */
void fc_world_stats_compute(fc_world *w, fc_world_stats *s);
/* The solver's statistic `name` in s, or NAN when its solver reports none by that name. */
double fc_world_stat(const fc_world_stats *s, const char *name);

/* Particle fields a solver may keep elsewhere (a GPU) and bring up to date in the host arrays
 * (fc_store_kind.sync_to_host). */
enum {
    FC_SYNC_POSITION = 1u << 0,
    FC_SYNC_VELOCITY = 1u << 1,
    FC_SYNC_DENSITY = 1u << 2,
    FC_SYNC_FLUID = 1u << 3,
    FC_SYNC_OTHER = 1u << 4, /* every other field, and the ids */
    FC_SYNC_ALL = FC_SYNC_POSITION | FC_SYNC_VELOCITY | FC_SYNC_DENSITY | FC_SYNC_FLUID | FC_SYNC_OTHER,
    FC_SYNC_STATS = FC_SYNC_POSITION | FC_SYNC_VELOCITY | FC_SYNC_DENSITY | FC_SYNC_FLUID, /* what statistics read */
};

/* What the host changed behind the store's and the method's back (fc_world_host_changed). */
enum {
    FC_CHANGED_ADDED = 1u << 0,     /* particles appended after those the solver has (emitters, fills); the
                                       host's copies of the others may be stale: take the new ones only */
    FC_CHANGED_REMOVED = 1u << 1,   /* particles removed and the rest compacted (sinks, a collider's cut),
                                       after a sync of every field: take them all again */
    FC_CHANGED_REPLACED = 1u << 2,  /* any particle may differ (a checkpoint put back): take them all again */
    FC_CHANGED_COLLIDERS = 1u << 3, /* colliders came, went or moved: solids_version rises */
    FC_CHANGED_PARAMS = 1u << 4,    /* parameters changed (set) */
};

/* Which registry columns the FC_SYNC_* flags in `fields` name: columns[c] = 1 for each (OTHER names
 * every column the others do not). */
void fc_sync_columns(unsigned fields, unsigned char columns[FC_COLUMN_COUNT]);

/* Brings the FC_SYNC_* fields up to date in w->particles from the store (nothing when the host
 * arrays are the store, or it has not started): call before reading particles for a snapshot, an
 * export, a checkpoint or statistics. */
void fc_world_sync_to_host(fc_world *w, unsigned fields);
/* Tells the store that the host changed what FC_CHANGED_* says (after emitting, removing, putting a
 * checkpoint back, a command); FC_CHANGED_COLLIDERS raises solids_version, so that methods that
 * sample the solids resample them before their next step. */
void fc_world_host_changed(fc_world *w, unsigned what);

/* The fluid's force and torque on each solid now (fc_solver.object_loads, after syncing positions
 * and densities from the store): how many loads, -1 out of memory, or -2 when the world's method
 * cannot say. */
int fc_world_object_loads(fc_world *w, fc_object_load *loads, size_t max);

/* Removes the particles whose registry column `column` has a bit set (a per-particle flag a method
 * wrote), in the store when it can (fc_store_kind.remove_flagged), else on the host; the rest keep
 * their order and ids. Returns how many went, or -1 when out of memory (nothing removed). */
long fc_world_remove_flagged(fc_world *w, int column);

/* The steps of w's method where its particles live (fc_solver.on_host, or on_device in a store). */
struct fc_method_steps;
const struct fc_method_steps *fc_world_steps(const fc_world *w);

#endif
