/* CUDA grid vs the CPU grid: same keys from the CUDA translation unit (--keys, no GPU needed), and on a GPU the
 * same cell_start and particles per cell (skips without one). */
#include "check.h"
#include "core/grid.h"
#include "cuda/grid_cuda.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rng_u32(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 32);
}

static float rng_uniform(float a, float b) { return a + (b - a) * (float)(rng_u32() >> 8) * (1.0f / 16777216.0f); }

static double now_ms(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* One coordinate on axis a: mostly inside, often exactly on a cell border, sometimes far outside
 * or not finite. */
static float pick_coord(const fc_grid_geom *g, const float hi[3], int a)
{
    uint32_t r = rng_u32() % 100;
    if (r < 70) return rng_uniform(g->lo[a], hi[a]);
    if (r < 85) { /* on a border, computed the way the grid computes cells: lo + k * cell, k = 0..dim */
        int k = (int)(rng_u32() % (uint32_t)(g->dim[a] + 1));
        return g->lo[a] + (float)k * g->cell;
    }
    if (r < 90) { /* just beside a border */
        int k = (int)(rng_u32() % (uint32_t)(g->dim[a] + 1));
        float v = g->lo[a] + (float)k * g->cell;
        return (rng_u32() & 1) ? nextafterf(v, INFINITY) : nextafterf(v, -INFINITY);
    }
    if (r < 97) { /* far outside, either side */
        float far = rng_uniform(1.0f, 1e6f);
        return (rng_u32() & 1) ? hi[a] + far : g->lo[a] - far;
    }
    switch (rng_u32() % 4) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    default: return -0.0f;
    }
}

/* Sorts the points on the CPU and on the GPU and compares; returns 0 when the GPU call worked. */
static int compare_sorts(const char *label, const fc_grid_geom *geom, const float *x, const float *y,
                         const float *z, size_t n)
{
    fc_grid cpu;
    fc_grid_init(&cpu, geom);
    size_t cells1 = (size_t)geom->ncells + 1;
    uint32_t *order = malloc(sizeof(uint32_t) * (n ? n : 1));
    uint32_t *start = malloc(sizeof(uint32_t) * cells1);
    uint32_t *a = malloc(sizeof(uint32_t) * (n ? n : 1));
    uint32_t *b = malloc(sizeof(uint32_t) * (n ? n : 1));
    char err[256] = "";
    int rc = -1;
    if (!order || !start || !a || !b) {
        CHECK(0, "%s: out of host memory", label);
        goto done;
    }
    if (fc_grid_sort(&cpu, x, y, z, n) != 0) {
        CHECK(0, "%s: CPU sort failed", label);
        goto done;
    }
    if (fc_cuda_grid_sort_host(geom, x, y, z, n, order, start, err, sizeof err) != 0) {
        CHECK(0, "%s: GPU sort failed: %s", label, err);
        goto done;
    }
    rc = 0;

    size_t bad_start = 0, first_bad = 0;
    for (size_t k = 0; k < cells1; k++)
        if (start[k] != cpu.cell_start[k] && bad_start++ == 0) first_bad = k;
    CHECK(bad_start == 0, "%s: %zu of %zu cell_start entries differ, first at cell %zu (GPU %u, CPU %u)", label,
          bad_start, cells1, first_bad, start[first_bad], cpu.cell_start[first_bad]);
    CHECK(start[geom->ncells] == (uint32_t)n, "%s: GPU cell_start[ncells] = %u, want %zu", label,
          start[geom->ncells], n);
    if (bad_start) goto done;

    /* per cell, the same set of original indices (the order inside a cell may differ) */
    if (n) { /* an empty grid has no order array (NULL): memcpy must not see it */
        memcpy(a, order, sizeof(uint32_t) * n);
        memcpy(b, cpu.order, sizeof(uint32_t) * n);
    }
    size_t bad_cells = 0, bad_cell = 0;
    for (uint32_t k = 0; k < geom->ncells; k++) {
        uint32_t s = cpu.cell_start[k], m = cpu.cell_start[k + 1] - s;
        if (m > 1) {
            qsort(a + s, m, sizeof(uint32_t), cmp_u32);
            qsort(b + s, m, sizeof(uint32_t), cmp_u32);
        }
        if (m && memcmp(a + s, b + s, sizeof(uint32_t) * m) != 0 && bad_cells++ == 0) bad_cell = k;
    }
    CHECK(bad_cells == 0, "%s: %zu cells hold different particles on the GPU, first cell %zu", label, bad_cells,
          bad_cell);

    /* and each GPU slot's particle really has that cell's key */
    size_t bad_keys = 0;
    for (uint32_t k = 0; k < geom->ncells; k++)
        for (uint32_t s = start[k]; s < start[k + 1]; s++) {
            uint32_t i = order[s];
            if (i >= n || fc_grid_key(geom, x[i], y[i], z[i]) != k) bad_keys++;
        }
    CHECK(bad_keys == 0, "%s: %zu GPU slots hold a particle of another cell", label, bad_keys);

done:
    free(order);
    free(start);
    free(a);
    free(b);
    fc_grid_free(&cpu);
    return rc;
}

static int make_geom(fc_grid_geom *g, float hi[3], float lx, float ly, float lz, float hx, float hy, float hz,
                     float cell)
{
    const float lo[3] = {lx, ly, lz};
    hi[0] = hx;
    hi[1] = hy;
    hi[2] = hz;
    char err[256];
    int rc = fc_grid_geom_init(g, lo, hi, cell, err, sizeof err);
    CHECK(rc == 0, "geometry: %s", err);
    return rc;
}

static void test_edge_cloud(const char *label, const fc_grid_geom *g, const float hi[3], size_t n)
{
    float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n), *z = malloc(sizeof(float) * n);
    if (!x || !y || !z) {
        CHECK(0, "%s: out of host memory", label);
    } else {
        for (size_t i = 0; i < n; i++) {
            x[i] = pick_coord(g, hi, 0);
            y[i] = pick_coord(g, hi, 1);
            z[i] = pick_coord(g, hi, 2);
        }
        /* fixed corner cases: a NaN point, the exact corners, and a point far outside on every axis */
        if (n >= 4) {
            x[0] = NAN, y[0] = NAN, z[0] = NAN;
            x[1] = g->lo[0], y[1] = g->lo[1], z[1] = g->lo[2];
            x[2] = hi[0], y[2] = hi[1], z[2] = hi[2];
            x[3] = 1e30f, y[3] = -1e30f, z[3] = 1e30f;
        }
        compare_sorts(label, g, x, y, z, n);
    }
    free(x);
    free(y);
    free(z);
}

/* The key the CUDA side computes (fc_grid_key as compiled into grid_cuda.cu, run on the host) equals
 * the CPU grid's for every point of an edge cloud: borders, outside, infinities, NaN. */
static void test_host_keys(const char *label, const fc_grid_geom *g, const float hi[3], size_t n)
{
    float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n), *z = malloc(sizeof(float) * n);
    uint32_t *key = malloc(sizeof(uint32_t) * n);
    if (!x || !y || !z || !key) {
        CHECK(0, "%s: out of host memory", label);
    } else {
        for (size_t i = 0; i < n; i++) {
            x[i] = pick_coord(g, hi, 0);
            y[i] = pick_coord(g, hi, 1);
            z[i] = pick_coord(g, hi, 2);
        }
        fc_cuda_grid_keys_host(g, x, y, z, n, key);
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < n; i++)
            if (key[i] != fc_grid_key(g, x[i], y[i], z[i]) && bad++ == 0) first = i;
        CHECK(bad == 0, "%s: %zu of %zu CUDA-side keys differ, first point %zu (%g, %g, %g): %u vs CPU %u", label, bad,
              n, first, (double)x[first], (double)y[first], (double)z[first], key[first],
              fc_grid_key(g, x[first], y[first], z[first]));
        size_t border = 0; /* the cloud must really hold keys off the first cell */
        for (size_t i = 0; i < n; i++) border += key[i] != 0;
        CHECK(border > n / 2, "%s: only %zu of %zu points off cell 0", label, border, n);
    }
    free(x);
    free(y);
    free(z);
    free(key);
}

static void test_timing(void)
{
    const size_t n = 1000000;
    fc_grid_geom g;
    float hi[3];
    if (make_geom(&g, hi, 0.0f, 0.0f, 0.0f, 4.0f, 2.0f, 2.0f, 0.02f)) return;
    float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n), *z = malloc(sizeof(float) * n);
    uint32_t *order = malloc(sizeof(uint32_t) * n), *start = malloc(sizeof(uint32_t) * ((size_t)g.ncells + 1));
    fc_grid cpu;
    fc_grid_init(&cpu, &g);
    char err[256] = "";
    if (!x || !y || !z || !order || !start) {
        CHECK(0, "timing: out of host memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        x[i] = rng_uniform(0.0f, hi[0]);
        y[i] = rng_uniform(0.0f, hi[1]);
        z[i] = rng_uniform(0.0f, hi[2]);
    }
    fc_grid_sort(&cpu, x, y, z, n); /* warm-up (page faults) */
    double t0 = now_ms();
    int cpu_rc = fc_grid_sort(&cpu, x, y, z, n);
    double cpu_ms = now_ms() - t0;
    CHECK(cpu_rc == 0, "timing: CPU sort failed");

    t0 = now_ms();
    int gpu_rc = fc_cuda_grid_sort_host(&g, x, y, z, n, order, start, err, sizeof err);
    double host_ms = now_ms() - t0;
    CHECK(gpu_rc == 0, "timing: GPU sort failed: %s", err);
    if (gpu_rc == 0 && cpu_rc == 0)
        CHECK(memcmp(start, cpu.cell_start, sizeof(uint32_t) * ((size_t)g.ncells + 1)) == 0,
              "timing: 1M-point cell_start differs");

    double build_ms = 0.0;
    int time_rc = fc_cuda_grid_time_build(&g, x, y, z, n, 20, &build_ms, err, sizeof err);
    CHECK(time_rc == 0, "timing: GPU timing failed: %s", err);
    if (cpu_rc == 0 && gpu_rc == 0 && time_rc == 0)
        printf("timing (informational), %zu points, %u cells: CPU fc_grid_sort %.2f ms; "
               "device build %.3f ms (device only, mean of 20), %.2f ms with allocation and transfers\n",
               n, g.ncells, cpu_ms, build_ms, host_ms);
done:
    free(x);
    free(y);
    free(z);
    free(order);
    free(start);
    fc_grid_free(&cpu);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--keys") == 0) {
        fc_grid_geom g;
        float hi[3];
        if (make_geom(&g, hi, -1.0f, 0.0f, 0.5f, 1.0f, 2.0f, 1.5f, 0.125f) == 0)
            test_host_keys("exact cells", &g, hi, 200000);
        if (make_geom(&g, hi, -0.3f, -2.05f, 0.0f, 1.71f, 0.4f, 0.93f, 0.1f) == 0)
            test_host_keys("inexact cells", &g, hi, 300000);
        return check_summary("test_cuda_grid --keys");
    }
    int devices = fc_cuda_device_count();
    if (devices == 0) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
    char name[256];
    if (fc_cuda_device_name(0, name, sizeof name) != 0) snprintf(name, sizeof name, "(name unavailable)");
    printf("CUDA devices: %d; using 0: %s\n", devices, name);

    /* the name query rejects a device that is not there */
    char msg[128];
    CHECK(fc_cuda_device_name(devices, msg, sizeof msg) != 0, "device %d should not exist", devices);

    fc_grid_geom g;
    float hi[3];
    /* a cell width that is exact in binary, so border points are exactly on cell edges */
    if (make_geom(&g, hi, -1.0f, 0.0f, 0.5f, 1.0f, 2.0f, 1.5f, 0.125f) == 0) {
        test_edge_cloud("exact cells, 200k", &g, hi, 200000);
        test_edge_cloud("exact cells, 1 point", &g, hi, 1);
        test_edge_cloud("exact cells, 5 points", &g, hi, 5);
        compare_sorts("exact cells, empty", &g, NULL, NULL, NULL, 0);
    }
    /* an inexact width with uneven bounds (the last cell on each axis is partial) */
    if (make_geom(&g, hi, -0.3f, -2.05f, 0.0f, 1.71f, 0.4f, 0.93f, 0.1f) == 0)
        test_edge_cloud("inexact cells, 300k", &g, hi, 300000);
    /* a single cell */
    if (make_geom(&g, hi, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 5.0f) == 0)
        test_edge_cloud("one cell, 10k", &g, hi, 10000);

    /* errors come back as -1 with a reason, not as an abort */
    fc_grid_geom broken = g;
    broken.ncells = 0;
    uint32_t cs[2], ord[1];
    float p = 0.0f;
    char err[256] = "";
    CHECK(fc_cuda_grid_sort_host(&broken, &p, &p, &p, 1, ord, cs, err, sizeof err) == -1 && err[0],
          "invalid geometry should fail with a message");

    /* --no-timing: the checks only (compute-sanitizer runs, scripts/gpu_check.sh) */
    if (!(argc > 1 && strcmp(argv[1], "--no-timing") == 0)) test_timing();
    return check_summary("test_cuda_grid");
}
