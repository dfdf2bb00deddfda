/* What the CUDA sources share (C++ only): the layouts of the generic device store and of the SPH
 * family's device data, the neighbourhood loop over the grid's nine bars, and the steps the family's
 * solvers take (sort, colliders, scratch, reductions). */
#ifndef FC_DEVICE_INTERNAL_H
#define FC_DEVICE_INTERNAL_H

#include "cuda/grid_cuda.h"
#include "cuda/particles_cuda.h"
#include "cuda/runtime.h"
#include "cuda/sph_device.h"

/* The generic device store (device_store.h). */
struct fc_device_store {
    cudaStream_t stream;
    fc_cuda_particles particles; /* every registry column and the ids */
    fc_object *d_colliders; /* the world's colliders (the first rows of its object table) */
    size_t collider_capacity;
    unsigned *d_word; /* one word for reductions */
    /* a frame's snapshot: (id, index) sorted by id, the quantized positions and fields */
    uint32_t *d_frame_id, *d_frame_index, *d_sorted_id, *d_sorted_index;
    uint16_t *d_frame_q;
    uint8_t *d_frame_a;
    void *d_sort_tmp;
    size_t sort_tmp_bytes, frame_capacity;
    double *d_partial; /* the statistics' partial sums (device_store.cu) */
    float *d_points;   /* an emission's (u, v) */
    size_t point_capacity;
    /* removing particles: the shapes, keep flags and their prefix sums (count + 1), the scan's scratch */
    fc_shape *d_shapes;
    size_t shape_capacity;
    uint32_t *d_keep, *d_kept;
    void *d_keep_tmp;
    size_t keep_tmp_bytes, keep_capacity;
};

/* Per-particle float scratch columns of the SPH family; each solver names the ones it uses. */
enum { FC_CUDA_SCRATCH = 32 };

/* The SPH family's device data (sph_device.h), beside its store's particles. */
struct fc_cuda_family {
    fc_device_store *store;
    fc_grid_geom geom;
    fc_cuda_grid grid; /* the particles' grid, rebuilt every step */
    /* boundary particles, sorted by cell, and their cell_start */
    float *d_bx, *d_by, *d_bz, *d_bvolume;
    uint32_t *d_bcell_start;
    size_t boundary_count, boundary_capacity;
    float *d_f[FC_CUDA_SCRATCH];
    uint32_t *d_neighbours; /* per particle: fluid neighbours within h at the last sort */
    unsigned *d_counts;     /* a few counters a pass adds up (the trapped air's) */
    const float *d_list_at[3]; /* the positions the last step's lists were found at (scratch), or NULL */
    size_t scratch_capacity;
};

/* The columns of the registry as typed device arrays. */
static inline float *fc_cuda_column(fc_device_store *s, int c) { return (float *)s->particles.d_column[c]; }
static inline float *fc_cuda_column(fc_cuda_family *d, int c) { return fc_cuda_column(d->store, c); }
static inline const uint8_t *fc_cuda_fluid_column(fc_device_store *s)
{
    return (const uint8_t *)s->particles.d_column[FC_FLUID];
}
static inline const uint8_t *fc_cuda_fluid_column(fc_cuda_family *d) { return fc_cuda_fluid_column(d->store); }

/* Device bytes a particle of the SPH family takes, its store's and the family's: the most any method
 * takes (the store refuses particles the device has no room for, device_store.cu). */
size_t fc_cuda_bytes_per_particle(void);

/* Calls visit(j) for every point j of the grid with cell_start in the nine bars around cell `key`
 * (core/grid.h's bars, the CPU's): the candidates of a neighbourhood. */
template <class Visit>
__device__ inline void fc_for_each_candidate(const fc_grid_geom &g, uint32_t key, const uint32_t *cell_start, Visit visit)
{
    fc_bar bars[9];
    const int nbars = fc_grid_bars(&g, key, bars);
    for (int b = 0; b < nbars; b++)
        for (uint32_t j = cell_start[bars[b].first], end = cell_start[bars[b].last + 1]; j < end; j++) visit(j);
}

/* The neighbours of a step as the CPU's lists hold them (core/neighbours.h): the points within h of
 * particle i at the positions (lx, ly, lz) they were sorted at, i itself left out. Calls
 * fluid(j) for the particles and, with solid, solid(b) for the boundary particles. Later passes of
 * the step test the same positions, so a pair keeps to its list as particles move (PBF's
 * iterations), as on the CPU. */
struct fc_cuda_lists {
    fc_grid_geom g;
    const uint32_t *key, *cell_start, *bcell_start;
    const float *lx, *ly, *lz;           /* positions at the sort */
    const float *bx, *by, *bz, *bvolume; /* the boundary particles */
    float h2;

    template <class Fluid> __device__ inline void fluid(size_t i, Fluid visit) const
    {
        const float xi = lx[i], yi = ly[i], zi = lz[i];
        fc_for_each_candidate(g, key[i], cell_start, [&](uint32_t j) {
            const float dx = xi - lx[j], dy = yi - ly[j], dz = zi - lz[j];
            if (j != i && dx * dx + dy * dy + dz * dz < h2) visit(j);
        });
    }
    template <class Solid> __device__ inline void solid(size_t i, Solid visit) const
    {
        const float xi = lx[i], yi = ly[i], zi = lz[i];
        fc_for_each_candidate(g, key[i], bcell_start, [&](uint32_t b) {
            const float dx = xi - bx[b], dy = yi - by[b], dz = zi - bz[b];
            if (dx * dx + dy * dy + dz * dz < h2) visit(b);
        });
    }
};

/* The tension's columns (sph_terms.h): s = (n^, |grad c^s|) and i = (grad c^i, lap c^i) of every
 * particle, four scratch columns each. */
struct fc_cuda_normals {
    float *s[4], *i[4];
};

/* Particle i's tension (fc_sph_tension_of's device twin, solvers/sph_family.c), added to a: the
 * surface's curvature from the neighbours' normals (positions x, y, z; weights w_j = V_j / m_0 in
 * weights[j], or `weight` for all with weights NULL), the interface's force from i's record. */
__device__ inline void fc_cuda_tension_of(const fc_cuda_lists &lists, const fc_tension_terms &t, const float *x,
                                          const float *y, const float *z, const float *weights, float weight,
                                          const fc_cuda_normals &nm, size_t i, int f, float a[3])
{
    const float ns_i[4] = {nm.s[0][i], nm.s[1][i], nm.s[2][i], nm.s[3][i]};
    const float ni_i[4] = {nm.i[0][i], nm.i[1][i], nm.i[2][i], nm.i[3][i]};
    float sums[2] = {0.0f, 0.0f};
    if (ns_i[3] != 0.0f && t.surface[f] > 0.0f)
        lists.fluid(i, [&](uint32_t j) {
            const float x_ij[3] = {x[i] - x[j], y[i] - y[j], z[i] - z[j]};
            const float r2 = x_ij[0] * x_ij[0] + x_ij[1] * x_ij[1] + x_ij[2] * x_ij[2];
            const float ns_j[4] = {nm.s[0][j], nm.s[1][j], nm.s[2][j], nm.s[3][j]};
            fc_tension_curvature_pair(&t, weights ? weights[j] : weight, r2, x_ij, ns_i, ns_j, sums);
        });
    fc_tension_acceleration(&t, f, ns_i, fc_tension_curvature(&t, sums), ni_i, a);
}

/* The tension's normals pass (summed in solvers/sph.c's force pass on the CPU): every particle's normals into nm,
 * from the neighbours at (x, y, z) with the weights above and c^i by fluid. */
int fc_cuda_tension_normals(fc_cuda_family *d, const fc_cuda_lists &lists, const fc_tension_terms &t, const float *x,
                            const float *y, const float *z, const float *weights, float weight, const fc_cuda_normals &nm,
                            char *err, size_t errlen);

/* The lists of the last sort, at the positions (lx, ly, lz). */
fc_cuda_lists fc_cuda_lists_of(fc_cuda_family *d, const fc_sph_kernel &k, const float *lx, const float *ly,
                               const float *lz);

/* Sorts the particles by the points (x, y, z) (given in the particles' order: their positions or
 * predicted ones) and reorders every column of the store with the grid's order. */
int fc_cuda_family_sort(fc_cuda_family *d, const float *x, const float *y, const float *z, char *err, size_t errlen);

/* dst[i] = src[order[i]] for three float columns (predicted positions into the sorted order). */
int fc_cuda_gather3(fc_cuda_family *d, const float *const src[3], float *const dst[3], char *err, size_t errlen);

/* A collision (its objects host memory) with its objects copied to the store's device array. */
int fc_cuda_device_collision(fc_device_store *s, const fc_collision *collision, fc_collision *c, char *err,
                             size_t errlen);

/* The largest x^2 + y^2 + z^2 over the particles' columns x, y, z (a speed's or an acceleration's
 * square; NaN left out) into *out, the device done. 0, or -1 with err. */
int fc_cuda_max_norm2(fc_device_store *s, const float *x, const float *y, const float *z, float *out, char *err,
                      size_t errlen);

/* Room for n particles in the family's scratch columns (contents not kept). */
int fc_cuda_reserve_scratch(fc_cuda_family *d, size_t n, char *err, size_t errlen);

/* err = msg (when err has room). */
void fc_cuda_set_msg(char *err, size_t errlen, const char *msg);

/* The kernel constants on the device's side of sph_terms.h (fc_fv is a float here). */
static inline fc_sph_kernel fc_cuda_kernel_of(const fc_cuda_setup *setup)
{
    fc_sph_kernel k;
    fc_sph_kernel_make(&k, setup->h, setup->dimensions, setup->volume, setup->initial_sum);
    return k;
}

#endif
