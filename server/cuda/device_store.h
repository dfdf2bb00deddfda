/* The generic device store: a world's particles on a CUDA device (every registry column and the ids)
 * and what any method's store operations need there, callable from C: upload and download of named
 * columns, emission, removal by shape and by a per-particle flag, frame snapshots, motion
 * statistics, and the shared collision response (free flight, for methods without forces between
 * particles). A method's own device data lives beside it (the SPH family's: cuda/sph_device.h).
 *
 * A store's passes are queued on a stream of its own, so worlds sharing a GPU overlap. Every function
 * that can fail returns 0, or -1 with the reason in err, and never aborts. cuda/store.c keeps a
 * world's particles through it (the CUDA store kind, core/store.h). */
#ifndef FC_DEVICE_STORE_H
#define FC_DEVICE_STORE_H

#include <math.h> /* before the C block: C++'s math.h declares templates */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* plain C headers without guards of their own: C linkage from C++ too */
#include "core/collide.h"
#include "core/emission.h"
#include "core/fluids.h"
#include "core/frame_request.h"
#include "core/particles.h"

typedef struct fc_device_store fc_device_store;

/* An empty store on a new stream of the current device. */
fc_device_store *fc_device_store_create(char *err, size_t errlen);
void fc_device_store_destroy(fc_device_store *s);

/* The host's particles to the device: all of them (from = 0), or those appended since the device's
 * count (from = that count; the others on the device are kept). Refused before anything is allocated
 * when the device has too little free memory for them. */
int fc_device_store_upload(fc_device_store *s, const fc_particles *p, size_t from, char *err, size_t errlen);
/* The device's particles into the host's arrays (room for fc_device_store_count of them): the ids and the
 * columns c with columns[c] != 0 (NULL: every column). */
int fc_device_store_download(const fc_device_store *s, fc_particles *p, const unsigned char *columns, char *err,
                             size_t errlen);
size_t fc_device_store_count(const fc_device_store *s);

/* The largest |v|^2 of the particles (for the CFL step). */
int fc_device_store_max_speed2(fc_device_store *s, float *out, char *err, size_t errlen);
/* The statistics of the particles added up on the device (core/particle_stats.h): nothing but these
 * sums crosses to the host. rest_density: each fluid's, for the density errors; heat_capacity: a
 * particle's m c of each fluid, for the heat the particles hold. */
typedef struct fc_cuda_stats {
    double max_speed2, sum_speed2;       /* over the finite particles */
    int has_nan;                         /* a position or velocity is not finite */
    double sum_err, max_err, sum_abs_err; /* fc_density_error_sample */
    double sum_heat;                     /* sum m c T, J */
} fc_cuda_stats;
int fc_device_store_stats(fc_device_store *s, const double rest_density[FC_MAX_FLUIDS],
                          const double heat_capacity[FC_MAX_FLUIDS], fc_cuda_stats *out, char *err, size_t errlen);

/* Appends an emitter's layer on the device (core/emission.h): positions from fc_emitter_point, the
 * velocity, every other column from the template, ids from first_id. Synchronous. */
int fc_device_store_emit(fc_device_store *s, const fc_emission *e, char *err, size_t errlen);
/* Removes the particles inside any of the `count` shapes (host memory; a sink's, fc_shape_inside) on
 * the device, compacting the rest in order; *removed gets how many went. Synchronous. */
int fc_device_store_remove_inside(fc_device_store *s, const fc_shape *shapes, size_t count, size_t *removed, char *err,
                                  size_t errlen);
/* Appends a particle beside each marked one (d_mark[i] != 0 for i < count, d_mark[count] = 0; device
 * memory), the first `limit` in index order: at the parent's position moved by (d_offset[0..2])[i],
 * with its velocity and the columns c with inherit[c] set (its temperature: air made under a
 * surface), every other column from tpl's column values, ids from tpl->first_id. *spawned gets how
 * many. Synchronous. */
int fc_device_store_spawn(fc_device_store *s, const uint32_t *d_mark, const float *const d_offset[3], size_t limit,
                          const fc_emission *tpl, const unsigned char inherit[FC_COLUMN_COUNT], size_t *spawned,
                          char *err, size_t errlen);
/* Removes the particles whose registry column `column` has a bit set (a per-particle flag) and
 * compacts the rest in their order; how many went into *removed. Synchronous. */
int fc_device_store_remove_flagged(fc_device_store *s, int column, size_t *removed, char *err, size_t errlen);
/* Free flight of every particle for dt: v += g dt, x += v dt, then the shared collision response
 * (collision's objects are host memory: copied to the device). A primitive for methods without
 * forces between particles (the ballistic test method of test_solver_seam). Synchronous. */
int fc_device_store_fall(fc_device_store *s, const float g[3], float dt, const fc_collision *collision, char *err,
                         size_t errlen);

/* A frame's snapshot (core/frame_request.h): the particles sorted by id and quantized on the device,
 * then only the quantized values, and the ids when with_ids, copied to the host arrays of req
 * (req->count must be the device's count; req->bytes_copied says how many bytes crossed).
 * Synchronous. */
int fc_device_store_frame(fc_device_store *s, fc_frame_request *req, int with_ids, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
