/* A world's particles on a CUDA device and the SPH family's steps there, callable from C: WCSPH and
 * PBF (solvers/sph.c, solvers/pbf.c) with the same formulas (solvers/sph_terms.h, core/collide.h)
 * run one neighbour per thread.
 *
 * A device world keeps its particles (every registry column and the ids), the boundary particles and
 * the colliders on the device; its passes are queued on a stream of its own, so worlds sharing a GPU
 * overlap. Every function that can fail returns 0, or -1 with the reason in err, and never aborts.
 * cuda/store.c keeps the particles of a world through it (the CUDA store, core/store.h), and
 * solvers/sph_family_device.c holds the family's device steps that drive its passes. */
#ifndef FC_WORLD_CUDA_H
#define FC_WORLD_CUDA_H

#include <math.h> /* before the C block: C++'s math.h declares templates */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* plain C headers without guards of their own: C linkage from C++ too */
#include "core/collide.h"
#include "core/emission.h"
#include "core/frame_request.h"
#include "core/grid.h"
#include "core/particles.h"
#include "solvers/sph_terms.h"

typedef struct fc_cuda_world fc_cuda_world;

/* What every pass reads of the world (solvers/sph_family_device.c fills it from the parameters each step,
 * so that a `set` takes effect at the next step as on the CPU). */
typedef struct fc_cuda_setup {
    double h, volume, initial_sum; /* smoothing radius, V0, the self weight (fc_sph_kernel_make) */
    int dimensions;
    float rest_density[FC_SPH_MAX_FLUIDS];
    float gravity[3];       /* gz 0 in 2D */
    fc_collision collision; /* its colliders are host memory: a step copies them to the device */
} fc_cuda_setup;

/* WCSPH's: the equation of state and the force constants (sph_terms.h), collision FC_WALLS_CLAMP. */
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
} fc_cuda_pbf_setup;

/* A device world for the grid geometry `geom` (the world's; none, ncells 0, for a method that needs no
 * grid), on a new stream of the current device. */
fc_cuda_world *fc_cuda_world_create(const fc_grid_geom *geom, char *err, size_t errlen);
void fc_cuda_world_destroy(fc_cuda_world *s);

/* The host's particles to the device: all of them (from = 0), or those appended since the device's
 * count (from = that count; the others on the device are kept). */
int fc_cuda_world_upload(fc_cuda_world *s, const fc_particles *p, size_t from, char *err, size_t errlen);
/* The device's particles into the host's arrays (room for fc_cuda_world_count of them): the ids and the
 * columns c with columns[c] != 0 (NULL: every column). */
int fc_cuda_world_download(const fc_cuda_world *s, fc_particles *p, const unsigned char *columns, char *err,
                           size_t errlen);
size_t fc_cuda_world_count(const fc_cuda_world *s);

/* The boundary particles (sorted by cell of the same geometry, with its cell_start of ncells + 1). */
int fc_cuda_world_set_boundary(fc_cuda_world *s, size_t count, const float *x, const float *y, const float *z,
                               const float *volume, const uint32_t *cell_start, char *err, size_t errlen);

/* The largest |v|^2 of the particles (for the CFL step). */
int fc_cuda_world_max_speed2(fc_cuda_world *s, float *out, char *err, size_t errlen);
/* The statistics of the particles added up on the device (core/particle_stats.h): nothing but these
 * sums crosses to the host. rest_density: each fluid's, for the density errors. */
typedef struct fc_cuda_stats {
    double max_speed2, sum_speed2;       /* over the finite particles */
    int has_nan;                         /* a position or velocity is not finite */
    double sum_err, max_err, sum_abs_err; /* fc_density_error_sample */
} fc_cuda_stats;
int fc_cuda_world_stats(fc_cuda_world *s, const double rest_density[FC_SPH_MAX_FLUIDS], fc_cuda_stats *out, char *err,
                        size_t errlen);

/* Mean number of fluid neighbours within h at the last sort. */
int fc_cuda_world_mean_neighbours(fc_cuda_world *s, double *out, char *err, size_t errlen);

/* Appends an emitter's layer on the device (core/emission.h): positions from fc_emitter_point, the
 * velocity, every other column from the template, ids from first_id. Synchronous. */
int fc_cuda_world_emit(fc_cuda_world *s, const fc_emission *e, char *err, size_t errlen);

/* Removes the particles inside any of the `count` shapes (host memory; a sink's, fc_shape_inside) on
 * the device, compacting the rest in order; *removed gets how many went. Synchronous. */
int fc_cuda_world_remove_inside(fc_cuda_world *s, const fc_shape *shapes, size_t count, size_t *removed, char *err,
                                size_t errlen);
/* Free flight of every particle for dt: v += g dt, x += v dt, then the shared collision response
 * (collision's objects are host memory: copied to the device). A primitive for methods without
 * forces between particles (the ballistic test method of test_solver_seam). Synchronous. */
int fc_cuda_world_fall(fc_cuda_world *s, const float g[3], float dt, const fc_collision *collision, char *err,
                       size_t errlen);
/* Removes the particles whose registry column `column` has a bit set (a per-particle flag) and
 * compacts the rest in their order; how many went into *removed. Synchronous. */
int fc_cuda_world_remove_flagged(fc_cuda_world *s, int column, size_t *removed, char *err, size_t errlen);

/* A frame's snapshot (core/frame_request.h): the particles sorted by id and quantized on the device,
 * then only the quantized values, and the ids when with_ids, copied to the host arrays of req
 * (req->count must be the device's count; req->bytes_copied says how many bytes crossed).
 * Synchronous. */
int fc_cuda_world_frame(fc_cuda_world *s, fc_frame_request *req, int with_ids, char *err, size_t errlen);

/* WCSPH (sph_cuda.cu). density: sorts the particles into the grid and computes density (the
 * FC_DENSITY column) and pressure at their present positions. step: one step of dt (sort, density
 * and pressure, accelerations, semi-implicit Euler, collisions); returns when the device is done. */
int fc_cuda_sph_density(fc_cuda_world *s, const fc_cuda_sph_setup *setup, char *err, size_t errlen);
int fc_cuda_sph_step(fc_cuda_world *s, const fc_cuda_sph_setup *setup, float dt, char *err, size_t errlen);
/* The largest |a|^2 of the last step's accelerations (0 before any step), for the force condition
 * of the adaptive step; call right after fc_cuda_sph_step. */
int fc_cuda_sph_max_acceleration2(fc_cuda_world *s, float *out, char *err, size_t errlen);

/* PBF (pbf_cuda.cu): Algorithm 1 of Macklin and Mueller 2013 as pbf.c steps it (returning when the
 * device is done), and density, vorticity and XSPH at the present positions. */
int fc_cuda_pbf_density(fc_cuda_world *s, const fc_cuda_pbf_setup *setup, char *err, size_t errlen);
int fc_cuda_pbf_step(fc_cuda_world *s, const fc_cuda_pbf_setup *setup, float dt, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
