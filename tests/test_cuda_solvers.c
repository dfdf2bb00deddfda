/* The solvers on the CUDA backend (cuda/store.c, solvers/sph_family_device.c, cuda/sph_cuda.cu, cuda/pbf_cuda.cu) against
 * the CPU solvers (sph.c, pbf.c), WCSPH and PBF alike: one step from the same state agrees in
 * positions and velocities (relative L2 <= 1e-4) in 3D, 2D, with colliders and with two fluids; 200
 * steps of the dam break keep count, ids and domain and the mean density within 0.5% of the CPU
 * run; emitters and sinks add and remove what they do on the CPU; a frame's snapshot quantized on the
 * device encodes to the same bytes as the CPU's snapshot of the same particles. Runs on a GPU, or through the
 * CUDA host shim (cuda-host build, CI); skips (77) without either. `--short` (the sanitizer builds): 60
 * dam-break steps instead of 200 (PBF 20), the one-step comparisons of the 2D dam break, the pool
 * (3D, colliders) and the heat and tension scenes only, and 0.2 s of water on the turned box instead of 0.3. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/collide.h"
#include "core/scene.h"
#include "frame_encoder.h"
#include "host/snapshot.h"
#include "core/solver.h"
#include "core/store.h"
#include "cuda/device.h"
#include "solvers/sph_family.h"
#include "world_checks.h"

/* The solver every world below runs ("sph" or "pbf"), and whether build() leaves the scene's fluid
 * blocks out (a world that starts empty). */
static const char *solver_now = "sph";
static int without_fluid = 0;

/* CPU steps before a one-step comparison (the float sums' order differs between the backends, so
 * velocities need some motion for a relative comparison), and steps of the long dam-break
 * comparison: 30 in the short variant (`--short`, the sanitizer builds; PBF's, each four constraint
 * iterations, 10), whose checks stay the same. */
static const int warmup_steps = 40;
static int dam_break_steps = 200, pbf_dam_break_steps = 200;
/* Simulated seconds of water falling onto the turned box: it meets the box after about 0.12 s. */
static double rotated_box_seconds = 0.3;

/* The scene `name` built as a world of solver_now stepped on `backend`. */
static int build(const char *name, fc_backend backend, fc_world *w)
{
    char path[4096], err[1024] = "";
    fc_scene scene;
    if (fc_scene_resolve(name, path, sizeof path) || fc_scene_parse_file(&scene, path, err, sizeof err)) {
        CHECK(0, "scene %s loads: %s", name, err);
        return -1;
    }
    scene.backend = backend;
    if (without_fluid) scene.block_count = 0;
    snprintf(scene.solver, sizeof scene.solver, "%s", solver_now);
    const int rc = fc_scene_instantiate(&scene, w, err, sizeof err);
    fc_scene_free(&scene);
    CHECK(rc == 0, "%s builds on %s: %s", name, fc_backend_name(backend), err);
    return rc;
}

/* index[id] = the particle's index in w (ids below n). */
static uint32_t *index_by_id(const fc_world *w, size_t n)
{
    uint32_t *index = malloc((n ? n : 1) * sizeof *index);
    for (size_t i = 0; i < n; i++) index[i] = UINT32_MAX;
    for (size_t i = 0; i < w->particles.count; i++)
        if (w->particles.id[i] < n) index[w->particles.id[i]] = (uint32_t)i;
    return index;
}

/* Relative L2 difference of the vector field starting at column c (position or velocity) between
 * the particles of gpu and cpu with the same id: |a - b| / |b| over all of them. */
static double relative_l2(const fc_world *gpu, const fc_world *cpu, int c, size_t n)
{
    uint32_t *g = index_by_id(gpu, n), *k = index_by_id(cpu, n);
    double diff = 0.0, norm = 0.0;
    for (size_t id = 0; id < n; id++) {
        if (g[id] == UINT32_MAX && k[id] == UINT32_MAX) continue; /* removed on both */
        if (g[id] == UINT32_MAX || k[id] == UINT32_MAX) {
            diff = INFINITY;
            continue;
        }
        for (int a = 0; a < 3; a++) {
            const double x = gpu->particles.field[c + a][g[id]], y = cpu->particles.field[c + a][k[id]];
            diff += (x - y) * (x - y), norm += y * y;
        }
    }
    free(g), free(k);
    return norm > 0.0 ? sqrt(diff / norm) : sqrt(diff);
}

/* Relative L2 difference of the temperature changes over a step, gpu's against cpu's, both from
 * the temperatures `before` (indexed by id): conduction's own work, not the absolute kelvins. A
 * temperature is a float, so two backends whose rates differ in the last bits (a GPU's fused
 * multiply-adds, its expf) can round a particle's new temperature one float step apart: *resolution
 * is the relative L2 of one float step at every particle, the floor under which nothing compares. */
static double relative_l2_heating(const fc_world *gpu, const fc_world *cpu, const float *before, size_t n,
                                  double *resolution)
{
    uint32_t *g = index_by_id(gpu, n), *k = index_by_id(cpu, n);
    double diff = 0.0, norm = 0.0, step = 0.0;
    for (size_t id = 0; id < n; id++) {
        if (g[id] == UINT32_MAX || k[id] == UINT32_MAX) continue;
        const float y = cpu->particles.field[FC_TEMPERATURE][k[id]];
        const double x = gpu->particles.field[FC_TEMPERATURE][g[id]], ulp = nextafterf(y, INFINITY) - y;
        diff += (x - y) * (x - y), norm += ((double)y - before[id]) * ((double)y - before[id]), step += ulp * ulp;
    }
    free(g), free(k);
    *resolution = norm > 0.0 ? sqrt(step / norm) : INFINITY;
    return norm > 0.0 ? sqrt(diff / norm) : INFINITY; /* nothing conducted: nothing compared */
}

static double mean_density(const fc_world *w)
{
    double sum = 0.0;
    for (size_t i = 0; i < w->particles.count; i++) sum += w->particles.field[FC_DENSITY][i];
    return w->particles.count ? sum / (double)w->particles.count : 0.0;
}

/* Scene `name`: `warmup` CPU steps, then the CPU world's particles given to a CUDA world of the same
 * scene, and one step of each from that same state. */
static void one_step_agrees(const char *name, int warmup)
{
    fc_world cpu, gpu;
    if (build(name, FC_BACKEND_CPU, &cpu)) return;
    if (build(name, FC_BACKEND_CUDA, &gpu)) {
        fc_world_free(&cpu);
        return;
    }
    CHECK(gpu.solver == cpu.solver && gpu.solver && !strcmp(gpu.solver->name, solver_now) && gpu.store == &fc_store_cuda &&
              !cpu.store && fc_world_steps(&gpu) == gpu.solver->on_device,
          "%s: the CUDA world steps with %s's device steps in the CUDA store, the CPU world in its host arrays", name,
          solver_now);
    for (int s = 0; s < warmup; s++) fc_world_step(&cpu);
    /* with trapped air, steps from the same state are compared until one makes air (not every step does) */
    for (int attempt = 0;; attempt++) {
        fc_world_sync_to_host(&cpu, FC_SYNC_ALL);
        CHECK(fc_particles_copy(&gpu.particles, &cpu.particles) == 0, "%s: copy", name);
        gpu.particles.next_id = cpu.particles.next_id; /* new air takes the same ids */
        fc_world_host_changed(&gpu, FC_CHANGED_REPLACED);
        const size_t n = cpu.particles.count;
        float *before = calloc(n ? n : 1, sizeof *before); /* temperatures by id */
        for (size_t i = 0; i < n; i++)
            if (cpu.particles.id[i] < n) before[cpu.particles.id[i]] = cpu.particles.field[FC_TEMPERATURE][i];
        gpu.air_made_total = cpu.air_made_total, gpu.air_removed_total = cpu.air_removed_total;
        const uint64_t made = cpu.air_made_total, gone = cpu.air_removed_total;
        CHECK(fc_world_step(&cpu) == FC_STEP_DONE && fc_world_step(&gpu) == FC_STEP_DONE, "%s: both step", name);
        /* the device's max speed may differ from the host's in the last bits (fused multiply-adds) */
        CHECK(fabs(cpu.last_dt - gpu.last_dt) <= 1e-6 * cpu.last_dt,
              "%s: the same step (CFL from the device's max speed): %.9g s against %.9g s", name, gpu.last_dt, cpu.last_dt);
        fc_world_sync_to_host(&gpu, FC_SYNC_ALL);
        const int air = cpu.params.air != 0, made_air = cpu.air_made_total > made;
        const int last = !air || made_air || attempt == 200;
        if (air) { /* trapped air: made on the device, removed there, the same particles by id */
            CHECK(gpu.air_made_total == cpu.air_made_total && gpu.air_removed_total == cpu.air_removed_total &&
                      gpu.particles.count == cpu.particles.count && gpu.particles.next_id == cpu.particles.next_id,
                  "%s: the device makes and removes the same air as the CPU (made %llu and %llu, removed %llu and "
                  "%llu): %zu particles against %zu", name, (unsigned long long)(gpu.air_made_total - made),
                  (unsigned long long)(cpu.air_made_total - made), (unsigned long long)(gpu.air_removed_total - gone),
                  (unsigned long long)(cpu.air_removed_total - gone), gpu.particles.count, cpu.particles.count);
            if (last) {
                printf("%s %s: air made %llu and removed %llu on both in step %d after the warm-up\n", solver_now, name,
                       (unsigned long long)(cpu.air_made_total - made), (unsigned long long)(cpu.air_removed_total - gone),
                       attempt + 1);
                CHECK(made_air, "%s: a step made air within 200 steps", name);
            }
        } else
            CHECK(gpu.particles.count == n, "%s: count %zu after the step, %zu before", name, gpu.particles.count, n);
        const size_t ids = cpu.particles.next_id; /* the ids so far, the new air's too */
        const double dx = relative_l2(&gpu, &cpu, FC_PX, ids), dv = relative_l2(&gpu, &cpu, FC_VX, ids);
        if (last)
            printf("%s %s: one step after %d: relative L2 positions %.2e, velocities %.2e (%zu particles)\n", solver_now,
                   name, warmup + attempt, dx, dv, n);
        CHECK(dx <= 1e-4, "%s: positions agree: relative L2 %.3e", name, dx);
        CHECK(dv <= 1e-4, "%s: velocities agree: relative L2 %.3e", name, dv);
        if (cpu.params.heat_conduction) {
            double resolution;
            const double dt = relative_l2_heating(&gpu, &cpu, before, n, &resolution);
            printf("%s %s: relative L2 of the temperature changes %.2e (one float step at every particle: %.2e)\n",
                   solver_now, name, dt, resolution);
            CHECK(dt <= 1e-4 + resolution, "%s: the heat conducted agrees: relative L2 of the temperature changes %.3e, "
                  "within 1e-4 and the temperatures' float resolution %.3e", name, dt, resolution);
        }
        free(before);
        if (last) break;
    }
    fc_world_free(&cpu), fc_world_free(&gpu);
}

/* dam_break_steps steps of the dam break on each backend: count, ids, domain, mean density. */
static void dam_break_steps_agree(void)
{
    fc_world cpu, gpu;
    if (build("dam_break", FC_BACKEND_CPU, &cpu)) return;
    if (build("dam_break", FC_BACKEND_CUDA, &gpu)) {
        fc_world_free(&cpu);
        return;
    }
    const size_t n = cpu.particles.count;
    const int steps = strcmp(solver_now, "pbf") == 0 ? pbf_dam_break_steps : dam_break_steps;
    int failed = 0;
    for (int s = 0; s < steps && !failed; s++)
        failed = fc_world_step(&cpu) != FC_STEP_DONE || fc_world_step(&gpu) != FC_STEP_DONE;
    CHECK(!failed, "dam_break: %d steps on both", steps);
    fc_world_sync_to_host(&gpu, FC_SYNC_ALL);
    const double rho_cpu = mean_density(&cpu), rho_gpu = mean_density(&gpu);
    printf("%s dam_break %d steps (%.3f s): mean density %.3f kg/m^3 on the device, %.3f on the CPU (%+.4f%%); "
           "relative L2 of positions %.2e\n",
           solver_now, steps, gpu.time, rho_gpu, rho_cpu, 100.0 * (rho_gpu / rho_cpu - 1.0), relative_l2(&gpu, &cpu, FC_PX, n));
    CHECK(gpu.particles.count == n, "dam_break: %zu particles after %d steps, %zu at the start", gpu.particles.count,
          steps, n);
    CHECK(bad_ids(&gpu, n) == 0, "dam_break: every id once");
    CHECK(outside_distance(&gpu) == 0.0, "dam_break: every particle in the domain (worst %g m outside)",
          outside_distance(&gpu));
    CHECK(fabs(rho_gpu / rho_cpu - 1.0) <= 0.005, "dam_break: mean density within 0.5%% of the CPU's");
    CHECK(fabs(gpu.time - cpu.time) < 1e-9, "dam_break: the same simulated time (%g s, %g s)", gpu.time, cpu.time);
    fc_world_stats stats;
    fc_world_stats_compute(&gpu, &stats);
    const double neighbours = fc_world_stat(&stats, "mean_neighbours");
    CHECK(!stats.has_nan && neighbours > 20.0 && neighbours < 40.0, "dam_break: statistics from the device: "
          "mean_neighbours %g", neighbours);
    /* the device's sums against the host's arrays, added up on the host */
    fc_world_sync_to_host(&gpu, FC_SYNC_ALL);
    double max2 = 0.0, sum2 = 0.0;
    for (size_t i = 0; i < gpu.particles.count; i++) {
        const double v2 = (double)gpu.particles.field[FC_VX][i] * gpu.particles.field[FC_VX][i] +
                          (double)gpu.particles.field[FC_VY][i] * gpu.particles.field[FC_VY][i] +
                          (double)gpu.particles.field[FC_VZ][i] * gpu.particles.field[FC_VZ][i];
        sum2 += v2, max2 = v2 > max2 ? v2 : max2;
    }
    fc_solver_stat host[8];
    const int count = fc_sph_family_stats(&gpu, neighbours, host, 8);
    double host_error = NAN;
    for (int k = 0; k < count; k++)
        if (!strcmp(host[k].name, "mean_abs_density_error")) host_error = host[k].value;
    const double device_error = fc_world_stat(&stats, "mean_abs_density_error");
    printf("%s dam_break: device statistics: max speed %.6f m/s (host %.6f), rms %.6f (host %.6f), mean |rho/rho0 - 1| "
           "%.6e (host %.6e)\n", solver_now, stats.max_speed, sqrt(max2), stats.rms_speed,
           sqrt(sum2 / (double)gpu.particles.count), device_error, host_error);
    CHECK(stats.particles == gpu.particles.count && fabs(stats.max_speed - sqrt(max2)) <= 1e-9 * (1.0 + sqrt(max2)) &&
              fabs(stats.rms_speed - sqrt(sum2 / (double)gpu.particles.count)) <= 1e-9 * (1.0 + stats.rms_speed) &&
              fabs(device_error - host_error) <= 1e-9 * (1e-6 + host_error),
          "dam_break: the statistics added up on the device are the host's");
    fc_world_free(&cpu), fc_world_free(&gpu);
}

/* The fountain's emitter and a sink over part of the pool: the same particles emitted and removed
 * on both backends, ids unique, the device's count the host's. */
static void emitters_and_sinks(void)
{
    fc_world w[2];
    const fc_backend backends[2] = {FC_BACKEND_CPU, FC_BACKEND_CUDA};
    for (int b = 0; b < 2; b++) {
        if (build("fountain", backends[b], &w[b])) {
            if (b) fc_world_free(&w[0]);
            return;
        }
        /* a sink over one corner of the pool: it removes particles at once */
        const fc_object sink =
            fc_sink_row(&(fc_shape){.kind = FC_SHAPE_BOX, .center = {0.05f, 0.03f, 0.05f}, .half = {0.05f, 0.05f, 0.05f}});
        CHECK(fc_world_add_object(&w[b], &sink) >= 0, "sink added");
    }
    for (int s = 0; s < 60; s++)
        for (int b = 0; b < 2; b++) CHECK(fc_world_step(&w[b]) == FC_STEP_DONE, "fountain steps");
    fc_world_sync_to_host(&w[1], FC_SYNC_ALL);
    printf("%s fountain 60 steps: emitted %llu / %llu, removed %llu / %llu (device / CPU), %zu / %zu particles\n",
           solver_now, (unsigned long long)w[1].emitted_total, (unsigned long long)w[0].emitted_total,
           (unsigned long long)w[1].removed_total, (unsigned long long)w[0].removed_total, w[1].particles.count,
           w[0].particles.count);
    CHECK(w[1].emitted_total == w[0].emitted_total && w[1].emitted_total > 0, "the same particles emitted");
    /* PBF's trajectories part within a few steps (below), so a particle may reach the sink a step
     * sooner on one backend: on a GPU, whose rounding differs from the CPU's, 77 against 78 */
    const long long removed_slack = strcmp(solver_now, "pbf") == 0 ? 2 + (long long)w[0].removed_total / 20 : 0;
    CHECK(llabs((long long)w[1].removed_total - (long long)w[0].removed_total) <= removed_slack && w[1].removed_total > 0,
          "the same particles removed (within %lld)", removed_slack);
    CHECK(llabs((long long)w[1].particles.count - (long long)w[0].particles.count) <= removed_slack,
          "the same count (within %lld)", removed_slack);
    const size_t ids = w[1].particles.count + (size_t)w[1].removed_total;
    uint8_t *seen = calloc(ids + 1, 1);
    size_t bad = 0;
    for (size_t i = 0; i < w[1].particles.count; i++) {
        const uint32_t id = w[1].particles.id[i];
        if (id >= ids || seen[id]++) bad++;
    }
    free(seen);
    CHECK(bad == 0, "each id at most once (%zu bad)", bad);
    CHECK(outside_distance(&w[1]) == 0.0, "every particle in the domain");
    const double dv = relative_l2(&w[1], &w[0], FC_VX, ids);
    if (isfinite(dv)) printf("%s fountain: relative L2 of velocities after 60 steps %.2e\n", solver_now, dv);
    else printf("%s fountain: velocities not compared after 60 steps (a particle removed on one backend only)\n", solver_now);
    /* WCSPH's trajectories stay close over 60 steps; PBF's surface jitter (pbf.c) makes two runs that
     * differ in the last bits part within a few steps, so only the counts above are compared */
    if (!strcmp(solver_now, "sph")) CHECK(dv < 0.05, "the same particles, moving alike: relative L2 of velocities %.3e", dv);
    fc_world_free(&w[0]), fc_world_free(&w[1]);
}

/* Scene `name` after `warmup` CPU steps, given to a CUDA world: the snapshot the device quantizes
 * (positions at 16 and 10 bits, every streamed attribute) encodes to the bytes of the CPU world's
 * float snapshot, key frame and delta frame alike, and only the ids and quantized values cross. */
static void frames_agree(const char *name, int warmup)
{
    fc_world cpu, gpu;
    if (build(name, FC_BACKEND_CPU, &cpu)) return;
    if (build(name, FC_BACKEND_CUDA, &gpu)) {
        fc_world_free(&cpu);
        return;
    }
    fc_snapshot_buffer cpu_buffer, gpu_buffer;
    memset(&cpu_buffer, 0, sizeof cpu_buffer), memset(&gpu_buffer, 0, sizeof gpu_buffer);
    uint32_t attributes = 0;
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        if (fc_field_streamed_as(fc_attribute_names[a])) attributes |= 1u << a;
    static const unsigned bit_depths[2] = {16, 10};
    const size_t per_particle = 2 * 6 + (size_t)__builtin_popcount(attributes); /* two depths, 8-bit attributes */
    fc_frame_encoder *enc[2][2] = {{NULL, NULL}, {NULL, NULL}}; /* [backend][depth] */
    fc_bytes frame[2] = {{0}, {0}};
    for (int round = 0; round < 2; round++) { /* a key frame, then a delta after more steps */
        for (int s = 0; s < warmup; s++) fc_world_step(&cpu);
        fc_world_sync_to_host(&cpu, FC_SYNC_ALL);
        CHECK(fc_particles_copy(&gpu.particles, &cpu.particles) == 0, "%s: copy", name);
        gpu.time = cpu.time;
        fc_world_host_changed(&gpu, FC_CHANGED_REPLACED);
        fc_snapshot snap[2];
        CHECK(fc_snapshot_take(&cpu_buffer, &cpu, attributes, 0, 7, &snap[0]) == 0, "%s: CPU snapshot", name);
        CHECK(fc_snapshot_take(&gpu_buffer, &gpu, attributes, 1u << 16 | 1u << 10, 7, &snap[1]) == 0,
              "%s: device snapshot", name);
        CHECK(snap[1].quantized_count == 2 && !snap[1].position[0] && snap[1].attribute_q[FC_ATTR_SPEED] &&
                  !snap[1].attribute[FC_ATTR_SPEED],
              "%s: the device's snapshot is quantized (%u position sets), no floats crossed", name,
              snap[1].quantized_count);
        CHECK(gpu_buffer.bytes_copied == snap[1].count * (per_particle + 4),
              "%s: a changed set of particles moves %zu bytes a particle: the ids and the quantized values (%zu)",
              name, per_particle + 4, gpu_buffer.bytes_copied);
        for (int d = 0; d < 2; d++) {
            for (int b = 0; b < 2; b++) {
                if (!enc[b][d]) {
                    fc_stream_config c;
                    memset(&c, 0, sizeof c);
                    c.world = 1, c.bits = bit_depths[d], c.tier = 1, c.attributes = attributes;
                    memcpy(c.lo, cpu.domain_lo, sizeof c.lo), memcpy(c.hi, cpu.domain_hi, sizeof c.hi);
                    for (int a = 0; a < FC_ATTR_COUNT; a++)
                        if (attributes & (1u << a)) fc_snapshot_attribute_range(&cpu, (fc_attribute)a, &c.attr_lo[a], &c.attr_hi[a]);
                    char err[200] = "";
                    enc[b][d] = fc_frame_encoder_new(&c, err, sizeof err);
                    CHECK(enc[b][d] != NULL, "encoder: %s", err);
                }
                char err[200] = "";
                CHECK(enc[b][d] && fc_frame_encoder_push(enc[b][d], &snap[b], &frame[b], err, sizeof err) == FC_CODEC_OK,
                      "%s: %s snapshot encodes at %u bits: %s", name, b ? "device" : "CPU", bit_depths[d], err);
            }
            const int same = frame[0].size == frame[1].size && !memcmp(frame[0].data, frame[1].data, frame[0].size);
            printf("%s %s: %s frame at %u bits of %zu particles: %zu bytes from the CPU's snapshot, %zu from the "
                   "device's, %s\n", solver_now, name, round ? "delta" : "key", bit_depths[d], snap[0].count,
                   frame[0].size, frame[1].size, same ? "identical" : "DIFFERENT");
            CHECK(same, "%s: the device's quantized snapshot gives the CPU's frame (%u bits, round %d)", name,
                  bit_depths[d], round);
        }
    }
    /* the same set of particles again: the ids stay where they are, only the quantized values cross */
    fc_snapshot again;
    CHECK(fc_snapshot_take(&gpu_buffer, &gpu, attributes, 1u << 16 | 1u << 10, 8, &again) == 0, "%s: again", name);
    printf("%s %s: a frame of an unchanged set moves %.1f bytes a particle from the device (%zu attributes)\n",
           solver_now, name, again.count ? (double)gpu_buffer.bytes_copied / (double)again.count : 0.0,
           per_particle - 12);
    CHECK(gpu_buffer.bytes_copied == again.count * per_particle && again.count == cpu.particles.count &&
              !memcmp(again.id, cpu_buffer.id, again.count * sizeof *again.id),
          "%s: an unchanged set moves no ids (%zu bytes), and the ids kept are the CPU snapshot's", name,
          gpu_buffer.bytes_copied);
    for (int b = 0; b < 2; b++) {
        for (int d = 0; d < 2; d++) fc_frame_encoder_free(enc[b][d]);
        fc_bytes_free(&frame[b]);
    }
    fc_snapshot_buffer_free(&cpu_buffer), fc_snapshot_buffer_free(&gpu_buffer);
    fc_world_free(&cpu), fc_world_free(&gpu);
}

/* The fountain without its pool: a world that starts empty fills from its emitter, on the device
 * as on the CPU (the same particles, ids 0.. in order of emission, inside the domain). */
static void emitter_fills_empty_world(void)
{
    fc_world w[2];
    const fc_backend backends[2] = {FC_BACKEND_CPU, FC_BACKEND_CUDA};
    without_fluid = 1;
    for (int b = 0; b < 2; b++)
        if (build("fountain", backends[b], &w[b])) {
            if (b) fc_world_free(&w[0]);
            without_fluid = 0;
            return;
        }
    without_fluid = 0;
    CHECK(w[0].particles.count == 0 && w[1].particles.count == 0, "the worlds start empty");
    double first_dx = NAN; /* at the step that emitted the first layer */
    for (int s = 0; s < 40; s++) {
        for (int b = 0; b < 2; b++) CHECK(fc_world_step(&w[b]) == FC_STEP_DONE, "empty fountain steps");
        if (isnan(first_dx) && w[0].particles.count > 0) {
            fc_world_sync_to_host(&w[1], FC_SYNC_ALL);
            first_dx = relative_l2(&w[1], &w[0], FC_PX, w[0].particles.count);
        }
    }    fc_world_sync_to_host(&w[1], FC_SYNC_ALL);
    const size_t n = w[0].particles.count;
    const double dx = relative_l2(&w[1], &w[0], FC_PX, n), dv = relative_l2(&w[1], &w[0], FC_VX, n);
    printf("%s empty fountain 40 steps: %zu particles on the device, %zu on the CPU; relative L2 positions %.2e at the "
           "first layer's step, %.2e and velocities %.2e after 40 steps\n", solver_now, w[1].particles.count, n, first_dx,
           dx, dv);
    CHECK(n > 0 && w[1].particles.count == n && w[1].emitted_total == w[0].emitted_total && bad_ids(&w[1], n) == 0,
          "the same %zu particles emitted into an empty world, ids 0..n-1", n);
    /* a small PBF cluster amplifies last-bit differences about tenfold a step (the bilateral constraint,
     * pbf.c), so where the layer went is compared at the step that emitted it */
    CHECK(first_dx <= 1e-4 && outside_distance(&w[1]) == 0.0, "emitted where the CPU emits them: relative L2 %.3e",
          first_dx);
    fc_world_free(&w[0]), fc_world_free(&w[1]);
}

/* The CUDA store brings only the columns a sync asks for: after a step, a position sync leaves the
 * host's velocities as they were; a velocity sync then brings them, and a full sync changes neither
 * (the device did not move in between). */
static void sync_brings_what_is_asked(void)
{
    fc_world w;
    if (build("dam_break_2d", FC_BACKEND_CUDA, &w)) return;
    fc_world_step(&w);
    const size_t n = w.particles.count;
    for (size_t i = 0; i < n; i++) w.particles.field[FC_VX][i] = NAN; /* a mark a download overwrites */
    fc_world_sync_to_host(&w, FC_SYNC_POSITION);
    size_t marked = 0;
    for (size_t i = 0; i < n; i++) marked += isnan(w.particles.field[FC_VX][i]);
    CHECK(marked == n, "%s: a position sync leaves the velocities (%zu of %zu as they were)", solver_now, marked, n);
    float *x = malloc(n * sizeof *x);
    if (x) memcpy(x, w.particles.field[FC_PX], n * sizeof *x);
    fc_world_sync_to_host(&w, FC_SYNC_VELOCITY);
    marked = 0;
    for (size_t i = 0; i < n; i++) marked += isnan(w.particles.field[FC_VX][i]);
    CHECK(marked == 0, "%s: a velocity sync brings them (%zu left)", solver_now, marked);
    float *vx = malloc(n * sizeof *vx);
    if (vx) memcpy(vx, w.particles.field[FC_VX], n * sizeof *vx);
    fc_world_sync_to_host(&w, FC_SYNC_ALL);
    CHECK(x && vx && memcmp(x, w.particles.field[FC_PX], n * sizeof *x) == 0 &&
              memcmp(vx, w.particles.field[FC_VX], n * sizeof *vx) == 0,
          "%s: a full sync after them brings the same positions and velocities", solver_now);
    free(x), free(vx);
    fc_world_free(&w);
}

/* A per-particle flag in a registry column removes exactly the flagged particles in the CUDA store as
 * on the host (fc_world_remove_flagged): two_fluids with every honey particle flagged by its fluid
 * column leaves the same water particles, in the same order, on both; both step on. */
static void removal_by_flag(void)
{
    fc_world w[2];
    const fc_backend backends[2] = {FC_BACKEND_CPU, FC_BACKEND_CUDA};
    for (int b = 0; b < 2; b++)
        if (build("two_fluids", backends[b], &w[b])) {
            if (b) fc_world_free(&w[0]);
            return;
        }
    size_t honey = 0;
    for (size_t i = 0; i < w[0].particles.count; i++) honey += w[0].particles.u8[FC_FLUID][i] != 0;
    const size_t n = w[0].particles.count;
    long removed[2];
    for (int b = 0; b < 2; b++) removed[b] = fc_world_remove_flagged(&w[b], FC_FLUID);
    fc_world_sync_to_host(&w[1], FC_SYNC_ALL);
    int same = w[0].particles.count == w[1].particles.count, water = 1;
    for (size_t i = 0; same && i < w[0].particles.count; i++) {
        same &= w[0].particles.id[i] == w[1].particles.id[i];
        water &= w[1].particles.u8[FC_FLUID][i] == 0;
    }
    printf("%s flagged removal: %ld on the host, %ld on the device, of %zu honey particles in %zu\n", solver_now,
           removed[0], removed[1], honey, n);
    CHECK(honey > 0 && removed[0] == (long)honey && removed[1] == (long)honey,
          "every flagged particle goes, on the host (%ld) and the device (%ld), of %zu", removed[0], removed[1], honey);
    CHECK(same && water && bad_ids(&w[1], n) == 0, "the same water particles stay in the same order on both");
    for (int b = 0; b < 2; b++) CHECK(fc_world_step(&w[b]) == FC_STEP_DONE, "the world steps on after the removal");
    fc_world_free(&w[0]), fc_world_free(&w[1]);
}

/* Water falling onto a box turned about two axes (tests/scenes/rotated_box.json) in the CUDA store:
 * the device's collision keeps every particle centre out of the box, as the CPU's does
 * (test_objects). */
static void rotated_box_on_device(void)
{
    fc_world w;
    if (build(FLUIDCAST_TESTS_DIR "/scenes/rotated_box.json", FC_BACKEND_CUDA, &w)) return;
    fc_solver_fit_time_step(w.solver, &w.params); /* PBF's own, longer step, as a switch to it gives */
    const fc_object *box = fc_objects_next(&w.objects, FC_OBJECT_COLLIDER, NULL);
    double deepest = INFINITY;
    float n[3];
    int failed = 0;
    while (w.time < rotated_box_seconds && !failed) {
        failed = fc_world_step(&w) != FC_STEP_DONE;
        if (w.step_count % 20) continue;
        fc_world_sync_to_host(&w, FC_SYNC_POSITION);
        for (size_t i = 0; i < w.particles.count; i++) {
            const float p[3] = {w.particles.field[FC_PX][i], w.particles.field[FC_PY][i], w.particles.field[FC_PZ][i]};
            deepest = fmin(deepest, fc_shape_distance(&box->shape, p, n));
        }
    }
    printf("%s rotated box on the device: t = %.3f s, deepest particle %.4f m from the box's surface\n", solver_now,
           w.time, deepest);
    CHECK(!failed && box->shape.rotated, "%s: the rotated box scene steps on the device", solver_now);
    CHECK(deepest > 0.0, "%s: no particle centre gets inside the turned box on the device (deepest %g m)", solver_now,
          deepest);
    fc_world_free(&w);
}

int main(int argc, char **argv)
{
    const int short_run = check_short_run(argc, argv);
    if (short_run) dam_break_steps = 30, pbf_dam_break_steps = 10, rotated_box_seconds = 0.2;
    if (fc_cuda_device_count() <= 0) {
        printf("skipped: no CUDA device\n");
        return 77;
    }
    char device[256] = "";
    fc_cuda_device_name(0, device, sizeof device);
    printf("device: %s\n", device);
    static const char *const solvers[] = {"sph", "pbf"};
    for (int s = 0; s < 2; s++) {
        solver_now = solvers[s];
        if (!short_run) one_step_agrees("dam_break", warmup_steps); /* 3D stays compared: pool_colliders */
        one_step_agrees("dam_break_2d", warmup_steps);
        one_step_agrees("pool_colliders", warmup_steps);
        /* heat: conduction, expansion, a hot collider and a cold wall */
        one_step_agrees(FLUIDCAST_TESTS_DIR "/scenes/warm_cold_collapse.json", warmup_steps);
        one_step_agrees(FLUIDCAST_TESTS_DIR "/scenes/heater_2d.json", warmup_steps);
        /* tension: a surface and an interface (the normals pass, the curvature, eq. 5) */
        one_step_agrees(FLUIDCAST_TESTS_DIR "/scenes/oil_blob_2d.json", warmup_steps);
        /* each fluid's viscosity for either solver, two viscosities (viscosity_model mueller2003) */
        one_step_agrees(FLUIDCAST_TESTS_DIR "/scenes/viscous_layers_2d.json", warmup_steps);
        /* trapped air: made under a falling block, removed, buoyant (solvers/air.c, air_cuda.cu) */
        one_step_agrees(FLUIDCAST_TESTS_DIR "/scenes/air_falling_block.json", warmup_steps);
        if (!short_run) { /* two fluids and emitters stay checked below (frames, emitters and sinks) */
            one_step_agrees("two_fluids", warmup_steps);
            one_step_agrees("fountain", warmup_steps);
        }
        frames_agree("two_fluids", 30);
        dam_break_steps_agree();
        emitters_and_sinks();
        emitter_fills_empty_world();
        sync_brings_what_is_asked();
        rotated_box_on_device();
        removal_by_flag();
    }
    return check_summary("test_cuda_solvers");
}
