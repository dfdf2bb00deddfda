/* Moving a collider at about a million boundary samples: sampling everything again (what every
 * collider_move cost before the samples kept their owners) against carrying the moved collider's
 * samples (fc_boundary_update). Prints a markdown table; bench/run_collider_move_bench.sh writes it
 * into bench/RESULTS.md. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/colliders.h"
#include "core/world.h"
#include "solvers/boundary.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { REPEATS = 7 };

int main(void)
{
    fc_world w;
    char err[256];
    fc_world_init(&w);
    w.domain_hi[0] = 2.0f, w.domain_hi[1] = 1.0f, w.domain_hi[2] = 1.0f;
    w.params.particle_spacing = 0.005, w.params.smoothing_radius = 0.01, w.params.particle_radius = 0.0025;
    const fc_shape box = {.kind = FC_SHAPE_BOX, .center = {1.0f, 0.5f, 0.5f}, .half = {0.5f, 0.25f, 0.25f}};
    const int id = fc_world_add_collider(&w, &box);
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.1f, 0.1f, 0.1f}, v0[3] = {0, 0, 0};
    fc_world_fill_box(&w, lo, hi, v0, 0);
    if (fc_world_start(&w, err, sizeof err)) {
        fprintf(stderr, "collider_move_bench: %s\n", err);
        return 1;
    }
    fc_boundary b = {0};
    double sample_all[REPEATS], carry[REPEATS];
    size_t moved = 0;
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now();
        if (fc_boundary_build(&b, &w)) return 1;
        sample_all[r] = now() - t0;
        fc_object *o = fc_objects_find(&w.objects, id, FC_OBJECT_COLLIDER);
        float q[4];
        o->shape.center[0] += 0.01f * (float)(r + 1);
        fc_quaternion_from_degrees((float[]){0.0f, 0.0f, 5.0f * (float)(r + 1)}, q);
        fc_shape_set_orientation(&o->shape, q);
        t0 = now();
        if (fc_boundary_update(&b, &w) != 0) return 1; /* 0: followed, not sampled again */
        carry[r] = now() - t0;
        moved = 0;
        for (size_t i = 0; i < b.count; i++) moved += b.owner[i] != 0;
    }
    qsort(sample_all, REPEATS, sizeof(double), compare);
    qsort(carry, REPEATS, sizeof(double), compare);
    printf("| boundary samples | the collider's | sampling all again (median of %d) | carrying the collider's (median) |\n",
           REPEATS);
    printf("|---|---|---|---|\n");
    printf("| %zu | %zu | %.0f ms | %.0f ms |\n", b.count, moved, 1e3 * sample_all[REPEATS / 2], 1e3 * carry[REPEATS / 2]);
    fc_boundary_free(&b);
    fc_world_free(&w);
    return 0;
}
