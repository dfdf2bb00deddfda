/* Weakly compressible SPH on the device, callable from C: the GPU twin of solvers/sph.c's step, with
 * the same formulas (solvers/sph_terms.h, core/collide.h) run one neighbour per thread.
 *
 * A world stepped here keeps its particles (every registry column and the ids), the boundary
 * particles and the colliders on the device; its passes are queued on a stream of its own, so worlds
 * sharing a GPU overlap. Every function that can fail returns 0, or -1 with the reason in err, and
 * never aborts. solvers/sph_gpu.c is the fc_solver that drives it. */
#ifndef FC_SPH_CUDA_H
#define FC_SPH_CUDA_H

#include <math.h> /* before the C block: C++'s math.h declares templates */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* plain C headers without guards of their own: C linkage from C++ too */
#include "core/collide.h"
#include "core/grid.h"
#include "core/particles.h"
#include "solvers/sph_terms.h"

typedef struct fc_cuda_sph fc_cuda_sph;

/* What one pass reads of the world (solvers/sph_gpu.c fills it from the parameters each step, so
 * that a `set` takes effect at the next step as on the CPU). */
typedef struct fc_cuda_sph_setup {
    double h, volume, initial_sum; /* smoothing radius, V0, the self weight (fc_sph_kernel_make) */
    int dimensions;
    float rest_density[FC_SPH_MAX_FLUIDS];
    fc_wcsph_eos eos;
    fc_wcsph_forces forces;
    fc_collision collision; /* its colliders are host memory: a pass copies them to the device */
} fc_cuda_sph_setup;

/* A device solver for the grid geometry `geom` (the world's), on a new stream of the current device. */
fc_cuda_sph *fc_cuda_sph_create(const fc_grid_geom *geom, char *err, size_t errlen);
void fc_cuda_sph_destroy(fc_cuda_sph *s);

/* The host's particles to the device: all of them (from = 0), or those appended since the device's
 * count (from = that count; the others on the device are kept). */
int fc_cuda_sph_upload(fc_cuda_sph *s, const fc_particles *p, size_t from, char *err, size_t errlen);
/* The device's particles into the host's arrays (room for fc_cuda_sph_count of them). */
int fc_cuda_sph_download(const fc_cuda_sph *s, fc_particles *p, char *err, size_t errlen);
size_t fc_cuda_sph_count(const fc_cuda_sph *s);

/* The boundary particles (sorted by cell of the same geometry, with its cell_start of ncells + 1). */
int fc_cuda_sph_set_boundary(fc_cuda_sph *s, size_t count, const float *x, const float *y, const float *z,
                             const float *volume, const uint32_t *cell_start, char *err, size_t errlen);

/* Sorts the particles into the grid and computes density (the FC_DENSITY column) and pressure at
 * their present positions. */
int fc_cuda_sph_density(fc_cuda_sph *s, const fc_cuda_sph_setup *setup, char *err, size_t errlen);
/* One step of dt: sort, density and pressure, accelerations, semi-implicit Euler, collisions.
 * Returns after queueing; the next call on s (or a download) waits for it. */
int fc_cuda_sph_step(fc_cuda_sph *s, const fc_cuda_sph_setup *setup, float dt, char *err, size_t errlen);

/* The largest |v|^2 of the particles (for the CFL step). */
int fc_cuda_sph_max_speed2(fc_cuda_sph *s, float *out, char *err, size_t errlen);
/* Mean number of fluid neighbours within h at the last density pass. */
int fc_cuda_sph_mean_neighbours(fc_cuda_sph *s, double *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
