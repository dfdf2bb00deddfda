/* Grid tests: neighbour sets from the sorted grid equal brute force, also on cell borders and outside. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/grid.h"

static float frand(unsigned *state, float lo, float hi)
{
    *state = *state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(*state >> 8) / (float)(1u << 24);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int near(const float *x, const float *y, const float *z, size_t i, size_t j, float h)
{
    float dx = x[i] - x[j], dy = y[i] - y[j], dz = z[i] - z[j];
    return dx * dx + dy * dy + dz * dz < h * h;
}

static void run_cloud(const char *label, size_t n, unsigned seed, int with_borders)
{
    const float lo[3] = {0, 0, 0}, hi[3] = {1.0f, 0.6f, 0.8f}, h = 0.1f;
    char err[256];
    fc_grid_geom geom;
    CHECK(fc_grid_geom_init(&geom, lo, hi, h, err, sizeof err) == 0, "geometry: %s", err);
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
    for (size_t i = 0; i < n; i++) {
        x[i] = frand(&seed, -0.3f, 1.3f); /* a fifth of the range lies outside the grid */
        y[i] = frand(&seed, -0.2f, 0.8f);
        z[i] = frand(&seed, -0.25f, 1.05f);
        if (with_borders && i % 3 == 0) { /* exactly on cell borders */
            x[i] = h * (float)(int)(x[i] / h);
            y[i] = h * (float)(int)(y[i] / h);
        }
    }
    if (n > 10) { /* far away, and not a number: must not touch memory outside the arrays */
        x[0] = 1e30f, y[0] = -1e30f, z[0] = 5.0f;
        x[1] = NAN;
        x[2] = 1.0f, y[2] = 0.6f, z[2] = 0.8f; /* the upper corner exactly */
    }
    fc_grid g;
    fc_grid_init(&g, &geom);
    CHECK(fc_grid_sort(&g, x, y, z, n) == 0, "sort");

    /* the sort is a permutation, keys are non-decreasing, and cell ranges match keys */
    uint32_t *seen = calloc(n, sizeof *seen);
    int perm_ok = 1, keys_ok = 1;
    for (size_t s = 0; s < n; s++) {
        if (g.order[s] >= n || seen[g.order[s]]++) perm_ok = 0;
        if (s && g.key[s] < g.key[s - 1]) keys_ok = 0;
        if (g.key[s] >= geom.ncells || s < g.cell_start[g.key[s]] || s >= g.cell_start[g.key[s] + 1]) keys_ok = 0;
    }
    CHECK(perm_ok, "%s: order is a permutation", label);
    CHECK(keys_ok, "%s: keys sorted and inside their cell ranges", label);
    CHECK(g.cell_start[geom.ncells] == n, "%s: last cell ends at n", label);

    /* neighbour sets: grid candidates filtered by distance == brute force */
    uint32_t *from_grid = malloc(n * sizeof *from_grid), *brute = malloc(n * sizeof *brute);
    size_t mismatches = 0, total = 0;
    for (size_t s = 0; s < n; s++) {
        size_t i = g.order[s], a = 0, b = 0;
        fc_bar bars[9];
        int nbars = fc_grid_bars(&geom, g.key[s], bars);
        FC_FOR_EACH_CANDIDATE(&g, bars, nbars, t)
        {
            if (near(x, y, z, i, g.order[t], h)) from_grid[a++] = g.order[t];
        }
        for (size_t j = 0; j < n; j++)
            if (near(x, y, z, i, j, h)) brute[b++] = (uint32_t)j;
        qsort(from_grid, a, sizeof *from_grid, cmp_u32);
        total += b;
        if (a != b || memcmp(from_grid, brute, a * sizeof *brute) != 0) mismatches++;
    }
    CHECK(mismatches == 0, "%s: %zu of %zu particles have a neighbour set unlike brute force", label, mismatches, n);
    if (n > 100) CHECK(total > n, "%s: the cloud has neighbours at all (%zu pairs)", label, total);

    free(seen), free(from_grid), free(brute);
    fc_grid_free(&g);
    free(x), free(y), free(z);
}

int main(void)
{
    run_cloud("random 3000", 3000, 12345u, 0);
    run_cloud("borders 4000", 4000, 777u, 1);
    run_cloud("tiny 5", 5, 1u, 0);
    run_cloud("empty", 0, 1u, 0);

    char err[256];
    fc_grid_geom geom;
    const float lo[3] = {0, 0, 0}, hi[3] = {1000, 1000, 1000}, bad_hi[3] = {0, 1, 1};
    CHECK(fc_grid_geom_init(&geom, lo, hi, 0.001f, err, sizeof err) != 0 && strstr(err, "cells"),
          "too many cells rejected: %s", err);
    CHECK(fc_grid_geom_init(&geom, lo, bad_hi, 0.1f, err, sizeof err) != 0, "empty bounds rejected");
    CHECK(fc_grid_geom_init(&geom, lo, hi, 0.0f, err, sizeof err) != 0, "zero cell rejected");
    return check_summary("test_grid");
}
