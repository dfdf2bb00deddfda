/* The generic device store (device_store.h): create, upload and download, colliders, reductions,
 * frames, emission, removal, statistics and free flight of a world's particles on the device. */
#include "cuda/device_internal.h"

#include "core/particle_stats.h"
#include "frame_format.h" /* fc_quantize, fc_quantize_scale: the encoder's quantization */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fc_cuda_set_msg(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

/* The largest x^2 + y^2 + z^2 (|v|^2, |a|^2), as the bits of a non-negative float (which order as unsigned integers). */
__global__ void fc_k_max_speed2(size_t n, const float *__restrict__ vx, const float *__restrict__ vy,
                                const float *__restrict__ vz, unsigned *__restrict__ out)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float s2 = vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i];
        unsigned bits;
        memcpy(&bits, &s2, sizeof bits);
        if (s2 == s2) atomicMax(out, bits); /* NaN is reported by the statistics, not here */
    }
}

__global__ void fc_k_iota(size_t n, uint32_t *__restrict__ out)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = (uint32_t)i;
}

/* What the quantize kernel reads of a frame request, by value. */
struct fc_frame_plan {
    float lo[3];
    double scale[FC_FRAME_MAX_POSITION_SETS][3];
    uint32_t max_q[FC_FRAME_MAX_POSITION_SETS];
    int sets, fields;
    const float *x, *y, *z;
    struct {
        const void *column[3];
        int components, is_u8;
        float lo;
        double scale;
    } field[FC_FRAME_MAX_FIELDS];
};

/* Particle order[i] (the i-th smallest id) quantized as the encoder quantizes it: positions into
 * q[(set * 3 + axis) * n + i], field f into a[f * n + i]. A vector field streams its magnitude
 * (fc_norm3_rn, as the host's snapshot). */
__global__ void fc_k_frame_quantize(size_t n, fc_frame_plan plan, const uint32_t *__restrict__ order,
                                    uint16_t *__restrict__ q, uint8_t *__restrict__ a)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint32_t k = order[i];
        const float p[3] = {plan.x[k], plan.y[k], plan.z[k]};
        for (int set = 0; set < plan.sets; set++)
            for (int axis = 0; axis < 3; axis++)
                q[((size_t)set * 3 + axis) * n + i] =
                    (uint16_t)fc_quantize(p[axis], plan.lo[axis], plan.scale[set][axis], plan.max_q[set]);
        for (int f = 0; f < plan.fields; f++) {
            float v;
            if (plan.field[f].components == 3)
                v = fc_norm3_rn(((const float *)plan.field[f].column[0])[k], ((const float *)plan.field[f].column[1])[k],
                                ((const float *)plan.field[f].column[2])[k]);
            else if (plan.field[f].is_u8)
                v = (float)((const uint8_t *)plan.field[f].column[0])[k];
            else
                v = ((const float *)plan.field[f].column[0])[k];
            a[(size_t)f * n + i] = (uint8_t)fc_quantize(v, plan.field[f].lo, plan.field[f].scale, 255);
        }
    }
}

/* keep[i] = 0 for the particles inside any shape, 1 for the others; keep[n] = 0. */
__global__ void fc_k_mark_outside(size_t n, const float *__restrict__ x, const float *__restrict__ y,
                                  const float *__restrict__ z, const fc_shape *__restrict__ shapes, size_t count,
                                  uint32_t *__restrict__ keep)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += (size_t)gridDim.x * blockDim.x) {
        if (i == n) {
            keep[n] = 0;
            continue;
        }
        const float p[3] = {x[i], y[i], z[i]};
        uint32_t outside = 1;
        for (size_t k = 0; k < count && outside; k++) outside = !fc_shape_inside(&shapes[k], p);
        keep[i] = outside;
    }
}

/* keep[i] = 0 for the particles whose flag (an element of `size` bytes of a registry column) has a
 * bit set, 1 for the others; keep[n] = 0. */
__global__ void fc_k_mark_unflagged(size_t n, const unsigned char *__restrict__ flag, size_t size,
                                    uint32_t *__restrict__ keep)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += (size_t)gridDim.x * blockDim.x) {
        if (i == n) {
            keep[n] = 0;
            continue;
        }
        uint32_t clear = 1;
        for (size_t b = 0; b < size; b++) clear &= flag[i * size + b] == 0;
        keep[i] = clear;
    }
}

/* The statistics in two plain passes (no shared memory, so that the shim runs them): each of
 * STATS_THREADS threads adds up its grid-stride share of the particles, then each of STATS_GROUPS
 * threads adds up STATS_THREADS / STATS_GROUPS of those; the host adds the last STATS_GROUPS. The
 * order of the sums is fixed, so the result does not depend on scheduling. */
enum { STATS_BLOCKS = 64, STATS_THREADS = STATS_BLOCKS * FC_CUDA_BLOCK, STATS_GROUPS = 64, STATS_VALUES = 7 };
enum { MAX_SPEED2, SUM_SPEED2, NAN_SEEN, SUM_ERR, MAX_ERR, SUM_ABS_ERR, SUM_HEAT };

struct fc_stats_input {
    double rest_density[FC_MAX_FLUIDS];
    double heat_capacity[FC_MAX_FLUIDS]; /* m_f c_f, J/K */
};

__global__ void fc_k_stats_partial(size_t n, const float *__restrict__ px, const float *__restrict__ py,
                                   const float *__restrict__ pz, const float *__restrict__ vx,
                                   const float *__restrict__ vy, const float *__restrict__ vz,
                                   const float *__restrict__ rho, const float *__restrict__ temperature,
                                   const uint8_t *__restrict__ fluid, fc_stats_input in,
                                   double *__restrict__ partial)
{
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    double v[STATS_VALUES] = {0.0};
    for (size_t i = t; i < n; i += (size_t)gridDim.x * blockDim.x) {
        double speed2, abs_err;
        if (!fc_motion_sample(px[i], py[i], pz[i], vx[i], vy[i], vz[i], &speed2)) {
            v[NAN_SEEN] = 1.0;
        } else {
            v[SUM_SPEED2] += speed2;
            if (speed2 > v[MAX_SPEED2]) v[MAX_SPEED2] = speed2;
        }
        const double e = fc_density_error_sample(rho[i], in.rest_density[fluid[i]], &abs_err);
        v[SUM_ERR] += e, v[SUM_ABS_ERR] += abs_err;
        if (e > v[MAX_ERR]) v[MAX_ERR] = e;
        v[SUM_HEAT] += in.heat_capacity[fluid[i]] * temperature[i];
    }
    for (int k = 0; k < STATS_VALUES; k++) partial[(size_t)k * STATS_THREADS + t] = v[k];
}

/* Combines two sets of the values above into a. */
static __host__ __device__ inline void fc_stats_combine(double *a, const double *b)
{
    a[MAX_SPEED2] = b[MAX_SPEED2] > a[MAX_SPEED2] ? b[MAX_SPEED2] : a[MAX_SPEED2];
    a[SUM_SPEED2] += b[SUM_SPEED2];
    a[NAN_SEEN] = b[NAN_SEEN] > a[NAN_SEEN] ? b[NAN_SEEN] : a[NAN_SEEN];
    a[SUM_ERR] += b[SUM_ERR];
    a[MAX_ERR] = b[MAX_ERR] > a[MAX_ERR] ? b[MAX_ERR] : a[MAX_ERR];
    a[SUM_ABS_ERR] += b[SUM_ABS_ERR];
    a[SUM_HEAT] += b[SUM_HEAT];
}

__global__ void fc_k_stats_groups(const double *__restrict__ partial, double *__restrict__ groups)
{
    const size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= STATS_GROUPS) return;
    double a[STATS_VALUES] = {0.0};
    for (size_t t = g; t < STATS_THREADS; t += STATS_GROUPS) {
        double b[STATS_VALUES];
        for (int k = 0; k < STATS_VALUES; k++) b[k] = partial[(size_t)k * STATS_THREADS + t];
        fc_stats_combine(a, b);
    }
    for (int k = 0; k < STATS_VALUES; k++) groups[(size_t)k * STATS_GROUPS + g] = a[k];
}

/* The columns of an emission, by value. */
struct fc_emit_plan {
    fc_emission e;
    void *column[FC_COLUMN_COUNT];
    uint32_t size[FC_COLUMN_COUNT];
};

/* Particle from + k of an emitter's layer: its point's position, the velocity, the template's other
 * columns, id first_id + k. */
__global__ void fc_k_emit(size_t count, size_t from, fc_emit_plan plan, const float *__restrict__ points,
                          uint32_t *__restrict__ id)
{
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < count; k += (size_t)gridDim.x * blockDim.x) {
        const size_t i = from + k;
        float p[3];
        fc_emitter_point(plan.e.base, plan.e.t1, plan.e.t2, points[2 * k], points[2 * k + 1], p);
        if (plan.e.dimensions == 2) p[2] = 0.0f;
        for (int c = 0; c < FC_COLUMN_COUNT; c++) {
            if (c >= FC_POSITION && c < FC_POSITION + 3) ((float *)plan.column[c])[i] = p[c - FC_POSITION];
            else if (c >= FC_VELOCITY && c < FC_VELOCITY + 3) ((float *)plan.column[c])[i] = plan.e.velocity[c - FC_VELOCITY];
            else if (plan.size[c] == 1) ((uint8_t *)plan.column[c])[i] = (uint8_t)(plan.e.column[c] & 0xffu);
            else ((uint32_t *)plan.column[c])[i] = plan.e.column[c];
        }
        id[i] = plan.e.first_id + (uint32_t)k;
    }
}

extern "C" void fc_device_store_destroy(fc_device_store *s)
{
    if (!s) return;
    cudaFree(s->d_points);
    cudaFree(s->d_partial);
    cudaFree(s->d_shapes), cudaFree(s->d_keep), cudaFree(s->d_kept), cudaFree(s->d_keep_tmp);
    void *frame[] = {s->d_frame_id, s->d_frame_index, s->d_sorted_id, s->d_sorted_index, s->d_frame_q, s->d_frame_a,
                     s->d_sort_tmp};
    for (size_t a = 0; a < sizeof frame / sizeof frame[0]; a++) cudaFree(frame[a]);
    fc_cuda_particles_free(&s->particles);
    cudaFree(s->d_colliders);
    cudaFree(s->d_word);
    if (s->stream) cudaStreamDestroy(s->stream);
    free(s);
}

extern "C" fc_device_store *fc_device_store_create(char *err, size_t errlen)
{
    fc_device_store *s = (fc_device_store *)calloc(1, sizeof *s);
    if (!s) {
        fc_cuda_set_msg(err, errlen, "fc_device_store_create: out of host memory");
        return NULL;
    }
    FC_CU(cudaStreamCreate(&s->stream));
    FC_CU(cudaMalloc((void **)&s->d_word, sizeof(unsigned)));
    return s;
fail:
    fc_device_store_destroy(s);
    return NULL;
}

extern "C" size_t fc_device_store_count(const fc_device_store *s) { return s->particles.count; }

/* Device bytes a particle takes: its columns and id twice (the reorder's targets), the family's
 * scratch columns and neighbour count, the frame's and the compaction's arrays, and the grid's key,
 * order and unsorted key. */
size_t fc_cuda_bytes_per_particle(void)
{
    return 2 * fc_cuda_particles_bytes() + FC_CUDA_SCRATCH * sizeof(float) + sizeof(uint32_t) + 4 * sizeof(uint32_t) +
           3 * FC_FRAME_MAX_POSITION_SETS * sizeof(uint16_t) + FC_FRAME_MAX_FIELDS + 2 * sizeof(uint32_t) +
           3 * sizeof(uint32_t);
}

/* Refuses, before anything is allocated, particles that need more device memory than is free (with
 * a quarter of the growth headroom the arrays take). */
static int check_room(fc_device_store *s, size_t n, char *err, size_t errlen)
{
    size_t free_bytes = 0, total_bytes = 0;
    if (n <= s->particles.capacity) return 0;
    FC_CU(cudaMemGetInfo(&free_bytes, &total_bytes));
    {
        const double need = (double)(n + n / 4 + 64) * (double)fc_cuda_bytes_per_particle();
        if (need > (double)free_bytes) {
            if (err && errlen)
                snprintf(err, errlen, "too little GPU memory for the scene: %zu particles need about %.0f MiB, "
                                      "%.0f MiB of %.0f MiB are free", n, need / 1048576.0, free_bytes / 1048576.0,
                         total_bytes / 1048576.0);
            return -1;
        }
    }
    return 0;
fail:
    return -1;
}

extern "C" int fc_device_store_upload(fc_device_store *s, const fc_particles *p, size_t from, char *err, size_t errlen)
{
    if (cudaStreamSynchronize(s->stream) != cudaSuccess) {
        fc_cuda_set_msg(err, errlen, "fc_device_store_upload: the device failed in an earlier step");
        return -1;
    }
    if (check_room(s, p->count, err, errlen)) return -1;
    if (from == 0 || from != s->particles.count || p->count < from) {
        if (fc_cuda_particles_upload(&s->particles, p, err, errlen)) return -1;
    } else if (fc_cuda_particles_append(&s->particles, p, from, err, errlen)) {
        return -1;
    }
    return 0;
}

extern "C" int fc_device_store_download(const fc_device_store *s, fc_particles *p, const unsigned char *columns, char *err,
                                        size_t errlen)
{
    if (cudaStreamSynchronize(s->stream) != cudaSuccess) {
        fc_cuda_set_msg(err, errlen, "fc_device_store_download: the device failed in an earlier step");
        return -1;
    }
    return fc_cuda_particles_download(&s->particles, p, columns, err, errlen);
}

int fc_cuda_device_collision(fc_device_store *s, const fc_collision *collision, fc_collision *c, char *err,
                             size_t errlen)
{
    *c = *collision;
    if (c->collider_count > s->collider_capacity) {
        FC_CU(cudaStreamSynchronize(s->stream));
        cudaFree(s->d_colliders);
        s->d_colliders = NULL, s->collider_capacity = 0;
        FC_CU(cudaMalloc((void **)&s->d_colliders, c->collider_count * sizeof(fc_object)));
        s->collider_capacity = c->collider_count;
    }
    /* synchronous: the host's objects may change after this call returns */
    if (c->collider_count)
        FC_CU(cudaMemcpy(s->d_colliders, c->colliders, c->collider_count * sizeof(fc_object), cudaMemcpyHostToDevice));
    c->colliders = s->d_colliders;
    return 0;
fail:
    return -1;
}

int fc_cuda_max_norm2(fc_device_store *s, const float *x, const float *y, const float *z, float *out, char *err,
                      size_t errlen)
{
    const size_t n = s->particles.count;
    unsigned bits = 0;
    *out = 0.0f;
    if (n == 0) return 0;
    FC_CU(cudaMemsetAsync(s->d_word, 0, sizeof(unsigned), s->stream));
    FC_LAUNCH(fc_k_max_speed2, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->stream, n, x, y, z, s->d_word);
    FC_CU(cudaGetLastError());
    FC_CU(cudaMemcpyAsync(&bits, s->d_word, sizeof bits, cudaMemcpyDeviceToHost, s->stream));
    FC_CU(cudaStreamSynchronize(s->stream));
    memcpy(out, &bits, sizeof *out);
    return 0;
fail:
    return -1;
}

extern "C" int fc_device_store_max_speed2(fc_device_store *s, float *out, char *err, size_t errlen)
{
    return fc_cuda_max_norm2(s, fc_cuda_column(s, FC_VX), fc_cuda_column(s, FC_VY), fc_cuda_column(s, FC_VZ), out, err,
                             errlen);
}

/* Room for a frame of n particles. */
static int reserve_frame(fc_device_store *s, size_t n, char *err, size_t errlen)
{
    if (n <= s->frame_capacity) return 0;
    const size_t cap = n + n / 4 + 64;
    void **arrays[] = {(void **)&s->d_frame_id, (void **)&s->d_frame_index, (void **)&s->d_sorted_id,
                       (void **)&s->d_sorted_index, (void **)&s->d_frame_q, (void **)&s->d_frame_a, &s->d_sort_tmp};
    const size_t bytes[] = {4 * cap, 4 * cap, 4 * cap, 4 * cap, sizeof(uint16_t) * 3 * FC_FRAME_MAX_POSITION_SETS * cap,
                            (size_t)FC_FRAME_MAX_FIELDS * cap, 0};
    for (size_t a = 0; a < 7; a++) cudaFree(*arrays[a]), *arrays[a] = NULL;
    s->frame_capacity = 0;
    s->sort_tmp_bytes = 0;
    FC_CU(cub::DeviceRadixSort::SortPairs((void *)NULL, s->sort_tmp_bytes, (const uint32_t *)NULL, (uint32_t *)NULL,
                                          (const uint32_t *)NULL, (uint32_t *)NULL, (int)cap, 0, 32, s->stream));
    for (size_t a = 0; a < 6; a++) FC_CU(cudaMalloc(arrays[a], bytes[a]));
    FC_CU(cudaMalloc(&s->d_sort_tmp, s->sort_tmp_bytes ? s->sort_tmp_bytes : 1));
    s->frame_capacity = cap;
    return 0;
fail:
    return -1;
}

extern "C" int fc_device_store_frame(fc_device_store *s, fc_frame_request *req, int with_ids, char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    fc_frame_plan plan;
    memset(&plan, 0, sizeof plan);
    if (req->count != n) {
        fc_cuda_set_msg(err, errlen, "fc_device_store_frame: the host's count is not the device's");
        return -1;
    }
    req->bytes_copied = 0;
    if (n == 0) return 0;
    if (reserve_frame(s, n, err, errlen)) return -1;
    plan.sets = req->position_sets, plan.fields = req->field_count;
    plan.x = fc_cuda_column(s, FC_PX), plan.y = fc_cuda_column(s, FC_PY), plan.z = fc_cuda_column(s, FC_PZ);
    for (int a = 0; a < 3; a++) plan.lo[a] = req->lo[a];
    for (int set = 0; set < plan.sets; set++) {
        plan.max_q[set] = (1u << req->bits[set]) - 1;
        for (int a = 0; a < 3; a++) plan.scale[set][a] = fc_quantize_scale(req->lo[a], req->hi[a], plan.max_q[set]);
    }
    for (int f = 0; f < plan.fields; f++) {
        const fc_frame_field *ff = &req->fields[f];
        for (int c = 0; c < ff->components; c++) plan.field[f].column[c] = s->particles.d_column[ff->column + c];
        plan.field[f].components = ff->components, plan.field[f].is_u8 = ff->is_u8;
        plan.field[f].lo = ff->lo;
        plan.field[f].scale = fc_quantize_scale(ff->lo, ff->hi, 255);
    }
    FC_CU(cudaMemcpyAsync(s->d_frame_id, s->particles.d_id, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, s->stream));
    FC_LAUNCH(fc_k_iota, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->stream, n, s->d_frame_index);
    FC_CU(cudaGetLastError());
    FC_CU(cub::DeviceRadixSort::SortPairs(s->d_sort_tmp, s->sort_tmp_bytes, s->d_frame_id, s->d_sorted_id,
                                          s->d_frame_index, s->d_sorted_index, (int)n, 0, 32, s->stream));
    FC_LAUNCH(fc_k_frame_quantize, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->stream, n, plan, s->d_sorted_index,
              s->d_frame_q, s->d_frame_a);
    FC_CU(cudaGetLastError());
    /* what crosses to the host: 6 bytes per position set, 1 per field, and the ids when they changed */
    req->bytes_copied = n * (6 * (size_t)plan.sets + (size_t)plan.fields);
    if (with_ids) {
        FC_CU(cudaMemcpyAsync(req->id, s->d_sorted_id, n * sizeof(uint32_t), cudaMemcpyDeviceToHost, s->stream));
        req->bytes_copied += n * sizeof(uint32_t);
    }
    for (int set = 0; set < plan.sets; set++)
        for (int a = 0; a < 3; a++)
            FC_CU(cudaMemcpyAsync(req->q[set][a], s->d_frame_q + ((size_t)set * 3 + a) * n, n * sizeof(uint16_t),
                                  cudaMemcpyDeviceToHost, s->stream));
    for (int f = 0; f < plan.fields; f++)
        FC_CU(cudaMemcpyAsync(req->fields[f].q, s->d_frame_a + (size_t)f * n, n, cudaMemcpyDeviceToHost, s->stream));
    FC_CU(cudaStreamSynchronize(s->stream));
    return 0;
fail:
    return -1;
}

/* Room for the keep flags of n particles. */
static int reserve_keep(fc_device_store *s, size_t n, char *err, size_t errlen)
{
    if (n + 1 <= s->keep_capacity) return 0;
    const size_t cap = n + n / 4 + 64;
    cudaFree(s->d_keep), cudaFree(s->d_kept), cudaFree(s->d_keep_tmp);
    s->d_keep = s->d_kept = NULL, s->d_keep_tmp = NULL, s->keep_capacity = 0, s->keep_tmp_bytes = 0;
    FC_CU(cub::DeviceScan::ExclusiveSum((void *)NULL, s->keep_tmp_bytes, (const uint32_t *)NULL, (uint32_t *)NULL,
                                        (int)cap, s->stream));
    FC_CU(cudaMalloc((void **)&s->d_keep, cap * sizeof(uint32_t)));
    FC_CU(cudaMalloc((void **)&s->d_kept, cap * sizeof(uint32_t)));
    FC_CU(cudaMalloc(&s->d_keep_tmp, s->keep_tmp_bytes ? s->keep_tmp_bytes : 1));
    s->keep_capacity = cap;
    return 0;
fail:
    return -1;
}

/* The particles compacted by the keep marks a kernel wrote into s->d_keep (keep[n] = 0): how many
 * went into *removed. */
static int compact_marked(fc_device_store *s, size_t n, size_t *removed, char *err, size_t errlen)
{
    uint32_t kept = 0;
    FC_CU(cub::DeviceScan::ExclusiveSum(s->d_keep_tmp, s->keep_tmp_bytes, s->d_keep, s->d_kept, (int)(n + 1), s->stream));
    FC_CU(cudaMemcpyAsync(&kept, s->d_kept + n, sizeof kept, cudaMemcpyDeviceToHost, s->stream));
    FC_CU(cudaStreamSynchronize(s->stream)); /* also: what the host passed to the marker is no longer read */
    if (kept < n) {
        if (fc_cuda_particles_compact(&s->particles, s->d_keep, s->d_kept, kept, s->stream, err, errlen)) return -1;
        FC_CU(cudaStreamSynchronize(s->stream));
    }
    *removed = n - kept;
    return 0;
fail:
    return -1;
}

extern "C" int fc_device_store_remove_inside(fc_device_store *s, const fc_shape *shapes, size_t count, size_t *removed,
                                           char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    *removed = 0;
    if (n == 0 || count == 0) return 0;
    if (reserve_keep(s, n, err, errlen)) return -1;
    if (count > s->shape_capacity) {
        FC_CU(cudaStreamSynchronize(s->stream));
        cudaFree(s->d_shapes);
        s->d_shapes = NULL, s->shape_capacity = 0;
        FC_CU(cudaMalloc((void **)&s->d_shapes, count * sizeof(fc_shape)));
        s->shape_capacity = count;
    }
    FC_CU(cudaMemcpyAsync(s->d_shapes, shapes, count * sizeof(fc_shape), cudaMemcpyHostToDevice, s->stream));
    FC_LAUNCH(fc_k_mark_outside, fc_cuda_blocks_for(n + 1), FC_CUDA_BLOCK, s->stream, n, fc_cuda_column(s, FC_PX),
              fc_cuda_column(s, FC_PY), fc_cuda_column(s, FC_PZ), s->d_shapes, count, s->d_keep);
    FC_CU(cudaGetLastError());
    return compact_marked(s, n, removed, err, errlen);
fail:
    return -1;
}

/* Free flight of every particle: v += g dt, x += v dt, then the shared collision response. */
__global__ void fc_k_fall(size_t n, float *__restrict__ x, float *__restrict__ y, float *__restrict__ z,
                          float *__restrict__ vx, float *__restrict__ vy, float *__restrict__ vz, float gx, float gy,
                          float gz, float dt, fc_collision c)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float v[3] = {vx[i] + gx * dt, vy[i] + gy * dt, vz[i] + gz * dt};
        float p[3] = {x[i] + v[0] * dt, y[i] + v[1] * dt, z[i] + v[2] * dt};
        fc_collide_point(&c, p, v);
        x[i] = p[0], y[i] = p[1], z[i] = p[2];
        vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
    }
}

extern "C" int fc_device_store_fall(fc_device_store *s, const float g[3], float dt, const fc_collision *collision, char *err,
                                  size_t errlen)
{
    const size_t n = s->particles.count;
    if (n == 0) return 0;
    fc_collision c;
    if (fc_cuda_device_collision(s, collision, &c, err, errlen)) return -1;
    FC_LAUNCH(fc_k_fall, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->stream, n, fc_cuda_column(s, FC_PX),
              fc_cuda_column(s, FC_PY), fc_cuda_column(s, FC_PZ), fc_cuda_column(s, FC_VX), fc_cuda_column(s, FC_VY),
              fc_cuda_column(s, FC_VZ), g[0], g[1], g[2], dt, c);
    FC_CU(cudaGetLastError());
    FC_CU(cudaStreamSynchronize(s->stream));
    return 0;
fail:
    return -1;
}

extern "C" int fc_device_store_remove_flagged(fc_device_store *s, int column, size_t *removed, char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    *removed = 0;
    if (n == 0) return 0;
    if (reserve_keep(s, n, err, errlen)) return -1;
    FC_LAUNCH(fc_k_mark_unflagged, fc_cuda_blocks_for(n + 1), FC_CUDA_BLOCK, s->stream, n,
              (const unsigned char *)s->particles.d_column[column], fc_column_size(column), s->d_keep);
    FC_CU(cudaGetLastError());
    return compact_marked(s, n, removed, err, errlen);
fail:
    return -1;
}

extern "C" int fc_device_store_stats(fc_device_store *s, const double rest_density[FC_MAX_FLUIDS],
                                     const double heat_capacity[FC_MAX_FLUIDS], fc_cuda_stats *out, char *err,
                                     size_t errlen)
{
    const size_t n = s->particles.count;
    double groups[STATS_VALUES * STATS_GROUPS], total[STATS_VALUES] = {0.0};
    fc_stats_input in;
    memset(out, 0, sizeof *out);
    if (n == 0) return 0;
    for (int f = 0; f < FC_MAX_FLUIDS; f++) in.rest_density[f] = rest_density[f], in.heat_capacity[f] = heat_capacity[f];
    if (!s->d_partial)
        FC_CU(cudaMalloc((void **)&s->d_partial, sizeof(double) * STATS_VALUES * (STATS_THREADS + STATS_GROUPS)));
    FC_LAUNCH(fc_k_stats_partial, STATS_BLOCKS, FC_CUDA_BLOCK, s->stream, n, fc_cuda_column(s, FC_PX),
              fc_cuda_column(s, FC_PY), fc_cuda_column(s, FC_PZ), fc_cuda_column(s, FC_VX), fc_cuda_column(s, FC_VY),
              fc_cuda_column(s, FC_VZ), fc_cuda_column(s, FC_DENSITY), fc_cuda_column(s, FC_TEMPERATURE),
              fc_cuda_fluid_column(s), in, s->d_partial);
    FC_CU(cudaGetLastError());
    FC_LAUNCH(fc_k_stats_groups, 1, STATS_GROUPS, s->stream, s->d_partial, s->d_partial + STATS_VALUES * STATS_THREADS);
    FC_CU(cudaGetLastError());
    FC_CU(cudaMemcpyAsync(groups, s->d_partial + STATS_VALUES * STATS_THREADS, sizeof groups, cudaMemcpyDeviceToHost,
                          s->stream));
    FC_CU(cudaStreamSynchronize(s->stream));
    for (int g = 0; g < STATS_GROUPS; g++) {
        double b[STATS_VALUES];
        for (int k = 0; k < STATS_VALUES; k++) b[k] = groups[k * STATS_GROUPS + g];
        fc_stats_combine(total, b);
    }
    out->max_speed2 = total[MAX_SPEED2], out->sum_speed2 = total[SUM_SPEED2], out->has_nan = total[NAN_SEEN] > 0.0;
    out->sum_err = total[SUM_ERR], out->max_err = total[MAX_ERR], out->sum_abs_err = total[SUM_ABS_ERR];
    out->sum_heat = total[SUM_HEAT];
    return 0;
fail:
    return -1;
}

/* The columns of a spawn: where each goes and what a spawned particle takes that is not its parent's. */
struct fc_spawn_plan {
    void *column[FC_COLUMN_COUNT];
    uint32_t size[FC_COLUMN_COUNT];
    uint32_t value[FC_COLUMN_COUNT]; /* the template's bytes of each column */
    unsigned char inherit[FC_COLUMN_COUNT];
};

__global__ void fc_k_spawn(size_t n, size_t from, size_t count, const uint32_t *__restrict__ mark,
                           const uint32_t *__restrict__ index, const float *__restrict__ ox, const float *__restrict__ oy,
                           const float *__restrict__ oz, fc_spawn_plan plan, uint32_t first_id, uint32_t *__restrict__ id)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        if (!mark[i] || index[i] >= count) continue;
        const size_t j = from + index[i];
        const float offset[3] = {ox[i], oy[i], oz[i]};
        for (int c = 0; c < FC_COLUMN_COUNT; c++) {
            if (c >= FC_POSITION && c < FC_POSITION + 3)
                ((float *)plan.column[c])[j] = ((float *)plan.column[c])[i] + offset[c - FC_POSITION];
            else if ((c >= FC_VELOCITY && c < FC_VELOCITY + 3) || plan.inherit[c]) {
                if (plan.size[c] == 1) ((uint8_t *)plan.column[c])[j] = ((uint8_t *)plan.column[c])[i];
                else ((uint32_t *)plan.column[c])[j] = ((uint32_t *)plan.column[c])[i];
            } else if (plan.size[c] == 1) ((uint8_t *)plan.column[c])[j] = (uint8_t)(plan.value[c] & 0xffu);
            else ((uint32_t *)plan.column[c])[j] = plan.value[c];
        }
        id[j] = first_id + index[i];
    }
}

extern "C" int fc_device_store_spawn(fc_device_store *s, const uint32_t *d_mark, const float *const d_offset[3],
                                     size_t limit, const fc_emission *tpl, const unsigned char inherit[FC_COLUMN_COUNT],
                                     size_t *spawned, char *err, size_t errlen)
{
    const size_t n = s->particles.count;
    uint32_t marked = 0;
    fc_spawn_plan plan;
    *spawned = 0;
    if (n == 0 || limit == 0) return 0;
    if (reserve_keep(s, n, err, errlen)) return -1;
    FC_CU(cub::DeviceScan::ExclusiveSum(s->d_keep_tmp, s->keep_tmp_bytes, d_mark, s->d_kept, (int)(n + 1), s->stream));
    FC_CU(cudaMemcpyAsync(&marked, s->d_kept + n, sizeof marked, cudaMemcpyDeviceToHost, s->stream));
    FC_CU(cudaStreamSynchronize(s->stream));
    {
        const size_t count = marked < limit ? marked : limit;
        if (count == 0) return 0;
        if (check_room(s, n + count, err, errlen) || fc_cuda_particles_grow(&s->particles, n + count, err, errlen))
            return -1;
        for (int c = 0; c < FC_COLUMN_COUNT; c++) {
            plan.column[c] = s->particles.d_column[c];
            plan.size[c] = (uint32_t)fc_cuda_particles_bytes_of(c);
            plan.value[c] = tpl->column[c];
            plan.inherit[c] = inherit[c];
        }
        FC_LAUNCH(fc_k_spawn, fc_cuda_blocks_for(n), FC_CUDA_BLOCK, s->stream, n, n, count, d_mark, s->d_kept,
                  d_offset[0], d_offset[1], d_offset[2], plan, tpl->first_id, s->particles.d_id);
        FC_CU(cudaGetLastError());
        FC_CU(cudaStreamSynchronize(s->stream));
        s->particles.count = n + count;
        *spawned = count;
    }
    return 0;
fail:
    return -1;
}

extern "C" int fc_device_store_emit(fc_device_store *s, const fc_emission *e, char *err, size_t errlen)
{
    const size_t from = s->particles.count;
    fc_emit_plan plan;
    if (e->count == 0) return 0;
    if (e->column_count != FC_COLUMN_COUNT) {
        fc_cuda_set_msg(err, errlen, "fc_device_store_emit: the emission's columns are not this build's registry");
        return -1;
    }
    FC_CU(cudaStreamSynchronize(s->stream));
    if (check_room(s, from + e->count, err, errlen) || fc_cuda_particles_grow(&s->particles, from + e->count, err, errlen))
        return -1;
    if (e->count > s->point_capacity) {
        cudaFree(s->d_points);
        s->d_points = NULL, s->point_capacity = 0;
        FC_CU(cudaMalloc((void **)&s->d_points, 2 * e->count * sizeof(float)));
        s->point_capacity = e->count;
    }
    FC_CU(cudaMemcpy(s->d_points, e->points, 2 * e->count * sizeof(float), cudaMemcpyHostToDevice));
    plan.e = *e;
    plan.e.points = NULL;
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        plan.column[c] = s->particles.d_column[c];
        plan.size[c] = (uint32_t)(fc_cuda_particles_bytes_of(c));
    }
    FC_LAUNCH(fc_k_emit, fc_cuda_blocks_for(e->count), FC_CUDA_BLOCK, s->stream, e->count, from, plan, s->d_points,
              s->particles.d_id);
    FC_CU(cudaGetLastError());
    FC_CU(cudaStreamSynchronize(s->stream)); /* the host's points are free to go */
    s->particles.count = from + e->count;
    return 0;
fail:
    return -1;
}
