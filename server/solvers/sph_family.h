/* What the particle solvers of the SPH family (WCSPH, PBF) share: their parameter rule, length
 * scale, checks and cost, the boundary particles of the solids, the rest volume, the neighbourhood
 * of a step (grid, neighbour lists, boundary records), the kernel terms over FC_LANES neighbours, the
 * one density formula, and their statistics. */
#ifndef FC_SPH_FAMILY_H
#define FC_SPH_FAMILY_H

#include "core/grid.h"
#include "core/lanes.h"
#include "core/neighbours.h"
#include "core/solver.h"
#include "solvers/boundary.h"
#include "solvers/sph_terms.h"

_Static_assert(FC_SPH_MAX_FLUIDS == FC_MAX_FLUIDS, "sph_terms.h's per-fluid tables hold every fluid");

/* A step's work per particle grows with the neighbours, (h / spacing / 2)^dims of the budget's
 * measure at h = 2 spacings (fc_solver.step_work; WCSPH's, which is below PBF's at any count). */
double fc_sph_family_step_work(const fc_params *p, int dims);

/* The family's length scale: the smoothing radius h (fc_solver.length_scale). */
double fc_sph_family_length_scale(const fc_params *p);

/* The family's own blow-up checks (fc_solver.check_stability), after the generic ones:
 *   mach         (with a speed of sound) the bulk flow (RMS speed) is faster than 0.2 of the
 *                model's speed of sound (Monaghan 1992: c >= 10 v keeps density within 1%);
 *   compression  the mean compression exceeds 10% (weakly compressible fluids stay near 1%). */
struct fc_instability;
int fc_sph_family_check_stability(const fc_world *w, const fc_world_stats *s, struct fc_instability *r);

/* The family's cost (fc_solver.cost): the fluid and the boundary samples the solids will take
 * (fc_boundary_estimate), each counted by step_work, and their bytes with the neighbour lists. */
fc_method_cost fc_sph_family_cost(const fc_cost_query *q);

/* The most memory world w's neighbour lists may take in one step (they grow with pairs, and
 * particles piled up would take N^2): with a budget the world's whole reservation, without one
 * FC_NEIGHBOUR_CAP_FACTOR times what the family's cost counts for them; never under
 * FC_NEIGHBOUR_CAP_FLOOR (a small world's splash). */
enum { FC_NEIGHBOUR_CAP_FACTOR = 4 };
#define FC_NEIGHBOUR_CAP_FLOOR 16e6
double fc_neighbour_cap_bytes(const fc_world *w);
/* Why a step failed when its neighbour lists passed the cap: the lower bound of what they would
 * need when it is above the cap, in figures that differ (fc_format_bytes_apart), else the cap alone. */
void fc_neighbour_overflow_message(double needed_bytes, double cap_bytes, char *out, size_t outlen);

/* The family's steps in a CUDA store (solvers/sph_family_device.c), when the build has a CUDA part. */
#ifdef FLUIDCAST_HAVE_CUDA
extern const fc_method_steps fc_wcsph_on_device, fc_pbf_on_device;
#define FC_WCSPH_ON_DEVICE (&fc_wcsph_on_device)
#define FC_PBF_ON_DEVICE (&fc_pbf_on_device)
#else
#define FC_WCSPH_ON_DEVICE NULL
#define FC_PBF_ON_DEVICE NULL
#endif

/* The fc_solver members every solver of the family shares. */
#define FC_SPH_FAMILY_METHOD                                                                                         \
    .needs = FC_NEEDS_GRID, .check_params = fc_sph_family_check_params, .length_scale = fc_sph_family_length_scale, \
    .length_name = "smoothing radius", .check_stability = fc_sph_family_check_stability,                          \
    .cost = fc_sph_family_cost, .structures_name = "boundary particles"

/* The family's solids: the boundary particles of the container and the colliders, sampled when a
 * solver starts and again before its first step after the colliders changed (fc_world's
 * solids_version). Every family solver's state begins with one (fc_sph_family_boundary reads it). */
typedef struct fc_sph_solids {
    fc_boundary boundary;
    uint64_t version; /* the solids_version sampled */
} fc_sph_solids;
/* Samples them (reporting the build's boundary phases), then reports the solver phase. 0, or -1
 * out of memory. */
int fc_sph_solids_init(fc_world *w, fc_sph_solids *s);
/* Brings them up to date when the colliders changed since (fc_boundary_update: moved colliders
 * carry their samples, others are sampled again): 0 unchanged, 1 changed, -1 out of memory. */
int fc_sph_solids_update(fc_world *w, fc_sph_solids *s);
void fc_sph_solids_free(fc_sph_solids *s);
/* The boundary of a world stepping with a solver of the family (NULL otherwise, or not started). */
const fc_boundary *fc_sph_family_boundary(const fc_world *w);

/* The smoothing radius must be 1.2 to 4 particle spacings: a usable neighbourhood. 0 or -1 with err. */
int fc_sph_family_check_params(const fc_params *p, char *err, size_t errlen);

/* V0, the volume a particle at rest spacing stands for: 1 / (poly6 coefficient times the poly6 sum
 * of a particle of the rest lattice, its own term weighted by initial_sum; kernels.h). The mass
 * m = rho0 V0 gives such a particle rest density, and V0 caps the Akinci boundary volumes. The one
 * place V0 is derived, for both solvers and the boundary. */
double fc_sph_rest_volume(const fc_world *w);

/* Each fluid's value of a fluid-scoped parameter, as floats indexed by a particle's `fluid` field:
 * FC_SPH_REST_DENSITY or FC_SPH_VISCOSITY (the solvers' per-particle lookups). */
enum { FC_SPH_REST_DENSITY, FC_SPH_VISCOSITY };
void fc_sph_fluid_values(const fc_world *w, int which, float out[FC_MAX_FLUIDS]);

/* The kernel constants of the world's parameters (fc_sph_kernel_make), V0 = volume (fc_sph_rest_volume,
 * kept by the solver). */
void fc_sph_kernel_init(fc_sph_kernel *k, const fc_world *w, double volume);

/* The neighbourhood of one step: the particles sorted into the shared grid, and every particle's
 * neighbours within h found once (seed 001 section 4.4.2), fluid and boundary, read by all the
 * passes of the step through the lane iterator (core/lanes.h). The particles are cut into one
 * contiguous share per thread (core/neighbours.h's fc_neighbour_shares), balanced by the cost of the
 * last step's lists since a particle's cost follows its neighbour count (lower at a free surface,
 * higher by a wall). Every pass over the particles of the step hands them out with fc_shares_take,
 * each thread starting on its own share, so that the data a thread wrote in one pass are in its
 * core's cache in the next; a thread that is done helps with the ends of the others' shares. Each
 * particle's result is its own, so neither the cut nor the thread count changes anything. */
enum { FC_SPH_FLUID, FC_SPH_SOLID };

typedef struct fc_sph_neighbourhood {
    fc_grid grid;
    fc_neighbour_list lists[2];   /* [FC_SPH_FLUID] particles, [FC_SPH_SOLID] boundary particles */
    fc_neighbour_shares shares;   /* the threads' shares of the particles in this step */
    fc_record4 *solid;            /* boundary particles (x, y, z, V_b); entry count is far away */
    size_t solid_capacity;
} fc_sph_neighbourhood;

/* Where a list's padded lanes point: a record so far away that every kernel term of it is 0. */
extern const fc_record4 fc_sph_far_away;

void fc_sph_neighbourhood_init(fc_sph_neighbourhood *nh, const fc_world *w);
/* Reallocates each of the count arrays *arrays[a] to `capacity` elements of `size` bytes: a
 * solver's per-particle scratch arrays. Returns 0, or -1 when out of memory (the arrays grown
 * so far keep their new size, the rest their old one). */
int fc_sph_grow_arrays(void **const arrays[], size_t count, size_t capacity, size_t size);

/* What both solvers do when they start: the world's per-fluid masses derived from the rest volume
 * V0 (fc_world_derive_masses), so that a particle with a full neighbourhood at rest spacing has its
 * fluid's rest density, the solids sampled (fc_sph_solids_init) and the neighbourhood set up. V0
 * into *rest_volume, for the solver to keep; 0, or -1 out of memory. */
int fc_sph_family_start(fc_world *w, fc_sph_solids *solids, fc_sph_neighbourhood *nh, double *rest_volume);
void fc_sph_neighbourhood_free(fc_sph_neighbourhood *nh);
/* Gives back the neighbour lists' memory (they grow again at the next search): after a failed
 * step, and while a world that blew up is paused. */
void fc_sph_release_lists(fc_sph_neighbourhood *nh);

/* Sorts the world's particles into the grid by the positions (x, y, z), given in the particles'
 * current order (their own positions or predicted ones), and permutes the particles with it. */
int fc_sph_sort(fc_world *w, fc_sph_neighbourhood *nh, const float *x, const float *y, const float *z);

/* The boundary records (the solids resampled first when the colliders changed, fc_sph_solids_update)
 * and the lists of every particle at the sorted positions (x, y, z). With
 * fluid_d3 and solid_d3 (both or neither), also the two sums of fc_sph_density_ratio at these
 * positions, per particle: fluid_d3[i] = sum_j d3_ij and solid_d3[i] = sum_b V_b d3_ib, added up as
 * the neighbours are found. The lists may take fc_neighbour_cap_bytes(w) at most. Returns 0,
 * FC_STEP_INTERRUPTED (w->interrupt was set), or FC_STEP_FAILED (out of memory, or over the cap:
 * w->step_failure says so), the lists' memory then given back. */
int fc_sph_find_neighbours(fc_world *w, fc_sph_neighbourhood *nh, fc_sph_solids *solids, const float *x, const float *y,
                           const float *z, float *fluid_d3, float *solid_d3);

/* Mean number of fluid neighbours per particle in the lists. */
double fc_sph_mean_neighbours(const fc_sph_neighbourhood *nh);

/* sum_b V_b d3_ib over particle i's boundary neighbours (the solid of fc_sph_density_ratio). */
static inline float fc_sph_solid_sum(const fc_sph_kernel *k, const fc_sph_neighbourhood *nh, size_t i, float xi,
                                     float yi, float zi)
{
    const fc_neighbour_list *solid = &nh->lists[FC_SPH_SOLID];
    if (solid->start[i] == solid->start[i + 1]) return 0.0f;
    fc_fv sum = fc_fv_splat(0.0f);
    for (fc_lanes nb = fc_lanes_of(solid, i, nh->solid, xi, yi, zi); fc_lanes_next(&nb);) {
        fc_fv d3, g;
        fc_sph_kernel_terms(k, nb.r2, &d3, &g);
        sum += nb.w * d3; /* w: V_b */
    }
    return fc_fv_sum(sum);
}

/* Adds the boundary samples near particle i (at x_i) to its colour sums (fc_tension_boundary_pair), c_i = c^i_i. */
static inline void fc_sph_tension_boundary(const fc_tension_terms *tt, const fc_sph_neighbourhood *nh, size_t i,
                                           float xi, float yi, float zi, fc_fv c_i, fc_fv gs[3], fc_fv gi[3], fc_fv *li)
{
    const fc_neighbour_list *solid = &nh->lists[FC_SPH_SOLID];
    for (fc_lanes nb = fc_lanes_of(solid, i, nh->solid, xi, yi, zi); fc_lanes_next(&nb);) {
        const fc_fv x_ib[3] = {nb.dx, nb.dy, nb.dz};
        fc_tension_boundary_pair(tt, nb.w, c_i, nb.r2, x_ib, gs, gi, li); /* w: V_b */
    }
}

/* Per fluid: the mass of its particles over fluid 0's, m_f / m_0 (1 for fluid 0, exactly). */
void fc_sph_mass_ratios(const fc_world *w, float ratio[FC_MAX_FLUIDS]);

/* WCSPH's tables for sph_terms.h from the world, for both backends: the equation of state, and the
 * force constants with the pressure gradient correction (fc_wcsph_gradient_correction). */
void fc_wcsph_eos_of(const fc_world *w, fc_wcsph_eos *eos);
void fc_wcsph_forces_of(const fc_world *w, double gradient_correction, fc_wcsph_forces *t);
/* The fluid's force and torque on each owner of boundary samples (fc_solver.object_loads;
 * solvers/object_loads.c): the reaction of the boundary pressure at each fluid particle's density. */
int fc_wcsph_object_loads(const fc_world *w, fc_object_load *loads, size_t max);
/* Speed of sound of WCSPH's equation of state: c for Tait, sqrt(k) for p = k (rho - rho0). */
double fc_wcsph_sound_speed(const fc_params *p);
/* WCSPH's stability conditions lower limit (core/time_step.h): the acoustic one, cfl_number h /
 * (c + |v|max) (Monaghan 1992: sound and the flow together cross at most that fraction of h per
 * step), the viscous one, 0.125 h^2 / nu of the most viscous fluid (Morris, Fox and Zhu 1997), and
 * the force one, 0.25 sqrt(h / |a|max) (Monaghan 1992), with |a|max of the step before. */
void fc_wcsph_limit_dt(const fc_world *w, double max_speed, double max_acceleration, fc_step_limit *limit);

/* The heat terms of sph_terms.h from the world's parameters and fluids, for both solvers and backends. */
void fc_heat_terms_of(const fc_world *w, fc_heat_terms *t);
/* With heat_conduction on, the thermal condition 0.1 h^2 / alpha of the most diffusive fluid
 * (Cleary and Monaghan 1999: forward Euler conduction stays stable), and the contact condition of
 * the hot and cold walls and colliders (fc_dt_contact: the largest heat transfer, the smallest m c
 * over the area s^(dims - 1) a particle covers). */
void fc_heat_limit_dt(const fc_world *w, fc_step_limit *limit);
/* With air on, air's buoyancy within the force condition: 0.25 sqrt(h / ((1 + b) |g|)), since
 * fc_air_buoyancy's acceleration b (rho - rho0) |g| / rho stays below b |g| (it is applied after the
 * step, outside the step's largest acceleration). */
void fc_air_limit_dt(const fc_world *w, fc_step_limit *limit);

/* The viscosity's constants and each fluid's mu (sph_terms.h): on when viscosity_model is
 * mueller2003, or solver and the solver has Mueller's viscosity of its own (solver_has_it: WCSPH
 * 1, PBF 0); off, every mu is 0. */
void fc_viscosity_terms_of(const fc_world *w, int solver_has_it, fc_viscosity_terms *t);
/* Lowers limit to the viscous condition 0.125 h^2 / nu of the most viscous fluid under the model. */
void fc_viscosity_limit_dt(const fc_world *w, int solver_has_it, fc_step_limit *limit);

/* The tension's constants and each fluid's sigma^s, sigma^i and c^i (sph_terms.h); on when the
 * world's tension is mueller2005 and some fluid has a tension above 0. */
void fc_tension_terms_of(const fc_world *w, fc_tension_terms *t);
/* Particle i's normals from its lane sums of fc_tension_normal_pair (grad c^s, grad c^i, lap c^i):
 * n^ and |grad c^s| into normal_s, (grad c^i, lap c^i) into normal_i (fc_tension_normal,
 * fc_tension_interface). */
static inline void fc_sph_tension_normals(const fc_tension_terms *tt, const fc_fv gs[3], const fc_fv gi[3], fc_fv li,
                                          fc_record4 *normal_s, fc_record4 *normal_i)
{
    float sum_s[4], sum_i[4];
    fc_fv_sum4(gs[0], gs[1], gs[2], fc_fv_splat(0.0f), sum_s);
    fc_fv_sum4(gi[0], gi[1], gi[2], li, sum_i);
    fc_tension_normal(tt, sum_s, (float *)normal_s);
    fc_tension_interface(tt, sum_i, sum_i[3], (float *)normal_i);
}

/* Particle i's tension (fc_tension_acceleration), added to a, the step's normals in normal_s and
 * normal_i: the surface's curvature from the neighbours' normals (fc_tension_curvature_pair over
 * i's fluid list, positions in at[j].x..z, weights w_j = V_j / m_0 in weights[j].w, or `weight`
 * for all when weights is NULL), the interface's force from i's record. */
void fc_sph_tension_of(const fc_tension_terms *tt, const fc_neighbour_list *fluid, const fc_record4 *at,
                       const fc_record4 *weights, float weight, const fc_record4 *normal_s, const fc_record4 *normal_i,
                       long i, int f, float a[3]);
/* Lowers limit to the capillary condition when tension is on (fc_dt_capillary). */
void fc_tension_limit_dt(const fc_world *w, fc_step_limit *limit);

/* The trapped air's constants (sph_terms.h) from the world; on when air is mueller2005 and some
 * fluid is of kind air, new air made of the first such fluid. */
void fc_air_terms_of(const fc_world *w, fc_air_terms *t);
/* The scratch of the CPU's air pass (solvers/air.c): per particle its position and weight
 * (x, y, z, V_j / m_0), its c^s, its spawn offset and its decision. */
typedef struct fc_air_state {
    fc_record4 *at, *colour, *spawn;
    uint8_t *decision;
    size_t capacity;
} fc_air_state;
void fc_air_state_free(fc_air_state *a);
/* Trapped air after a step (fc_air_terms, sph_terms.h): grad c^p and grad c^s of every particle over
 * the step's fluid lists at the positions now, air's artificial buoyancy over dt, the air that goes
 * removed through the `flags` field (fc_world_remove_flagged) and the new air appended, at most
 * max_air_particles of air and max_particles in all, within the server's budget. Nothing when air
 * is off. 0, or -1 out of memory. */
int fc_sph_air_step(fc_world *w, fc_air_state *a, const fc_sph_neighbourhood *nh, double dt);
/* How many of `wanted` new air particles a world of `count` particles, `air` of them air and
 * `removed` of those going, may make now: within max_air_particles (of the air that stays),
 * max_particles and the server's budget (reserved here); 0 when full. */
long fc_air_room(fc_world *w, long count, long air, long removed, long wanted);
/* Removes the `removed` air particles flagged in the `flags` field (fc_world_remove_flagged), counted
 * as air_removed_total, not as a sink's; 0, or -1 out of memory. */
int fc_air_remove(fc_world *w, long removed);

/* 1 / fc_lattice_spiky_moment times the spiky-to-Laplacian constant ratio (1 in 3D): the forces
 * share the viscosity Laplacian's constant K (45/(pi h^6) in 3D, also the spiky gradient's -3 C);
 * in 2D the spiky gradient's is 30/(pi h^5) against K = 40/(pi h^5), so the pressure sums take
 * their ratio with the lattice correction, which makes pressure gradients exact at rest. */
double fc_wcsph_gradient_correction(const fc_world *w);

/* The density errors of the fluid particles (FC_DENSITY against their fluid's rest_density) and the mean
 * neighbour count of the last step into out: mean_density_error (mean of max(rho - rho0, 0) / rho0,
 * compression), max_density_error, mean_abs_density_error (mean of |rho / rho0 - 1|),
 * mean_neighbours and total_heat (the heat the particles hold, sum_i m_i c_i T_i: J, J/m in 2D);
 * returns how many were written (at most max). */
int fc_sph_family_stats(const fc_world *w, double mean_neighbours, fc_solver_stat *out, int max);
/* The same from the sums over n particles of fc_density_error_sample (the compressions, their
 * largest, and the magnitudes) and of m c T (a device adds them up where the particles are). */
/* With air on, the trapped air's statistics after the others: air_particles (air of this count),
 * air_made and air_removed (the world's totals); how many were written. */
int fc_air_stats(const fc_world *w, size_t air, fc_solver_stat *out, int max);
int fc_sph_family_stats_of(double sum_err, double max_err, double sum_abs_err, double total_heat, size_t n,
                           double mean_neighbours, fc_solver_stat *out, int max);

#endif
