/* The SPH family's device data and steps, callable from C: WCSPH and PBF (solvers/sph.c,
 * solvers/pbf.c) with the same formulas (solvers/sph_terms.h, core/collide.h) run one neighbour per
 * thread, on the particles of a generic device store (cuda/device_store.h). The family's data is what
 * only these methods need there: the neighbour grid, the boundary particles of the solids, per
 * particle scratch columns and neighbour counts. solvers/sph_family_device.c owns one per world and
 * drives its passes. Every function that can fail returns 0, or -1 with the reason in err. */
#ifndef FC_SPH_DEVICE_H
#define FC_SPH_DEVICE_H

#include "cuda/device_store.h"

#ifdef __cplusplus
extern "C" {
#endif

/* plain C headers without guards of their own: C linkage from C++ too */
#include "core/grid.h"
#include "solvers/sph_terms.h"

typedef struct fc_cuda_family fc_cuda_family;

/* What every pass reads of the world (solvers/sph_family_device.c fills it from the parameters each step,
 * so that a `set` takes effect at the next step as on the CPU). */
typedef struct fc_cuda_setup {
    double h, volume, initial_sum; /* smoothing radius, V0, the self weight (fc_sph_kernel_make) */
    int dimensions;
    float rest_density[FC_SPH_MAX_FLUIDS];
    float gravity[3];       /* gz 0 in 2D */
    fc_collision collision; /* its colliders are host memory: a step copies them to the device */
    fc_heat_terms heat;     /* conduction and thermal expansion (fc_heat_terms_of) */
    fc_tension_terms tension; /* surface and interface tension (fc_tension_terms_of) */
    float volume_over_m0;   /* PBF's conduction weights (sph_terms.h): V0 / m_0, and V0 / m_f of each fluid */
    float volume_over_mass[FC_SPH_MAX_FLUIDS];
    int air;                /* trapped air is on: a step keeps the positions its lists were found at */
} fc_cuda_setup;

/* WCSPH's: the equation of state and the force constants (sph_terms.h), collision FC_WALLS_SOFT. */
typedef struct fc_cuda_sph_setup {
    fc_cuda_setup common;
    fc_wcsph_eos eos;
    fc_wcsph_forces forces;
} fc_cuda_sph_setup;

/* PBF's: the scalars of fc_pbf_constants_make and the iterations, collision FC_WALLS_SOFT. */
typedef struct fc_cuda_pbf_setup {
    fc_cuda_setup common;
    double scorr_k, scorr_dq, rest_denominator, epsilon, vorticity, xsph;
    int scorr_n, iterations;
    float mass_ratio[FC_SPH_MAX_FLUIDS]; /* m_f / m_0 (fc_sph_mass_ratios), for fc_pbf_constants_masses */
    int gas[FC_SPH_MAX_FLUIDS];          /* 1 for a fluid of kind air, for fc_pbf_constants_masses */
    int fluids;
    fc_viscosity_terms viscosity;        /* Mueller's, with viscosity_model mueller2003 (fc_viscosity_terms_of) */
} fc_cuda_pbf_setup;


/* The family's data for the particles of `store`, on its stream, with a grid of the world's geometry. */
fc_cuda_family *fc_cuda_family_create(fc_device_store *store, const fc_grid_geom *geom, char *err, size_t errlen);
void fc_cuda_family_destroy(fc_cuda_family *d);

/* The boundary particles (sorted by cell of the same geometry, with its cell_start of ncells + 1). */
int fc_cuda_family_set_boundary(fc_cuda_family *d, size_t count, const float *x, const float *y, const float *z,
                                const float *volume, const uint32_t *cell_start, char *err, size_t errlen);

/* Mean number of fluid neighbours within h at the last sort. */
int fc_cuda_family_mean_neighbours(fc_cuda_family *d, double *out, char *err, size_t errlen);

/* WCSPH (sph_cuda.cu). density: sorts the particles into the grid and computes density (the
 * FC_DENSITY column) and pressure at their present positions. step: one step of dt (sort, density
 * and pressure, accelerations, semi-implicit Euler, collisions); returns when the device is done. */
int fc_cuda_sph_density(fc_cuda_family *d, const fc_cuda_sph_setup *setup, char *err, size_t errlen);
int fc_cuda_sph_step(fc_cuda_family *d, const fc_cuda_sph_setup *setup, float dt, char *err, size_t errlen);
/* The largest |a|^2 of the last step's accelerations (0 before any step), for the force condition
 * of the adaptive step; call right after fc_cuda_sph_step. */
int fc_cuda_sph_max_acceleration2(fc_cuda_family *d, float *out, char *err, size_t errlen);

/* PBF (pbf_cuda.cu): Algorithm 1 of Macklin and Mueller 2013 as pbf.c steps it (returning when the
 * device is done), and density, vorticity and XSPH at the present positions. */
int fc_cuda_pbf_density(fc_cuda_family *d, const fc_cuda_pbf_setup *setup, char *err, size_t errlen);
int fc_cuda_pbf_step(fc_cuda_family *d, const fc_cuda_pbf_setup *setup, float dt, char *err, size_t errlen);

/* Trapped air after a step (air_cuda.cu; solvers/air.c's device twin with the rules of sph_terms.h):
 * air's artificial buoyancy over dt, the air that goes flagged in the `flags` column, and the new
 * air marked with its offset in the family's scratch. counts: [0] air particles, [1] of them flagged,
 * [2] new air marked. */
int fc_cuda_air_mark(fc_cuda_family *d, const fc_cuda_setup *setup, const fc_air_terms *t, float dt, uint32_t counts[3],
                     char *err, size_t errlen);
/* Appends the first `limit` of the marked new air (fc_device_store_spawn), made of tpl's columns, at
 * its parent's temperature; *spawned gets how many. */
int fc_cuda_air_spawn(fc_cuda_family *d, size_t limit, const fc_emission *tpl, size_t *spawned, char *err,
                      size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
