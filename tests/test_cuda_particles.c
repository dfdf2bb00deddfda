/* The device particle store against the host's: upload and download keep every registry column and
 * id; a device grid sort followed by fc_cuda_particles_permute puts each particle, with all its
 * fields, in the cell the CPU's fc_grid_sort + fc_particles_permute put it in. Runs on a GPU, or on
 * the host through the CUDA host shim (cuda-host build); skips (77) without either. */
#include "check.h"
#include "core/grid.h"
#include "core/particles.h"
#include "cuda/grid_cuda.h"
#include "cuda/particles_cuda.h"
#include "cuda/device.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static float uniform(float a, float b)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return a + (b - a) * (float)(rng_state >> 40) * (1.0f / 16777216.0f);
}

/* n particles with every field set to something of its own (positions in [0, 1)^3). */
static int fill(fc_particles *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fc_particle rec;
        fc_particle_defaults(&rec);
        for (int a = 0; a < 3; a++) rec.POSITION[a] = uniform(0.0f, 1.0f), rec.VELOCITY[a] = uniform(-2.0f, 2.0f);
        rec.DENSITY = uniform(900.0f, 1100.0f);
        rec.FLUID = (uint8_t)(i % 3);
        rec.TEMPERATURE = uniform(280.0f, 320.0f);
        if (fc_particles_add(p, &rec) < 0) return -1;
    }
    return 0;
}

/* Whether particle i of a and particle j of b hold the same id and the same bits in every column. */
static int same_particle(const fc_particles *a, size_t i, const fc_particles *b, size_t j)
{
    if (a->id[i] != b->id[j]) return 0;
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        const size_t size = fc_column_size(c);
        const uint8_t *x = fc_particles_column(a, c), *y = fc_particles_column(b, c);
        if (memcmp(x + i * size, y + j * size, size) != 0) return 0;
    }
    return 1;
}

static void test_round_trip(const fc_particles *host)
{
    fc_cuda_particles d;
    memset(&d, 0, sizeof d);
    fc_particles back;
    fc_particles_init(&back);
    char err[256] = "";
    CHECK(fc_cuda_particles_upload(&d, host, err, sizeof err) == 0, "upload: %s", err);
    CHECK(fc_particles_reserve(&back, host->count) == 0, "host room");
    CHECK(fc_cuda_particles_download(&d, &back, NULL, err, sizeof err) == 0, "download: %s", err);
    size_t bad = 0;
    for (size_t i = 0; i < host->count; i++) bad += !same_particle(host, i, &back, i);
    CHECK(back.count == host->count && bad == 0, "upload then download gives back %zu particles bit for bit (%zu differ)",
          host->count, bad);
    if (host->count) {
        fc_particles small;
        fc_particles_init(&small);
        CHECK(fc_cuda_particles_download(&d, &small, NULL, err, sizeof err) == -1 && strstr(err, "room") && small.count == 0,
              "a download into a host without room is refused and changes nothing: %s", err);
        fc_particles_free(&small);
    }
    fc_particles_free(&back);
    fc_cuda_particles_free(&d);
}

/* Sorts into the grid on the device and reorders there; compares with the CPU's sort and permute. */
static void test_sort_and_permute(const fc_particles *host)
{
    const float lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    fc_grid_geom geom;
    char err[256] = "";
    if (fc_grid_geom_init(&geom, lo, hi, 0.05f, err, sizeof err)) {
        CHECK(0, "geometry: %s", err);
        return;
    }
    /* the CPU: fc_grid_sort, then fc_particles_permute with its order */
    fc_particles cpu;
    fc_particles_init(&cpu);
    CHECK(fc_particles_copy(&cpu, host) == 0, "copy");
    fc_grid grid;
    fc_grid_init(&grid, &geom);
    CHECK(fc_grid_sort(&grid, cpu.field[FC_PX], cpu.field[FC_PY], cpu.field[FC_PZ], cpu.count) == 0, "CPU sort");
    fc_particles_permute(&cpu, grid.order);

    /* the device: the grid built from the store's own position columns, then the store reordered */
    fc_cuda_particles d;
    memset(&d, 0, sizeof d);
    fc_cuda_grid g;
    memset(&g, 0, sizeof g);
    fc_particles gpu;
    fc_particles_init(&gpu);
    uint32_t *cell_start = malloc(sizeof(uint32_t) * ((size_t)geom.ncells + 1));
    int ok = cell_start && fc_cuda_particles_upload(&d, host, err, sizeof err) == 0 &&
             fc_cuda_grid_init(&g, &geom, err, sizeof err) == 0 &&
             fc_cuda_grid_build(&g, d.d_column[FC_PX], d.d_column[FC_PY], d.d_column[FC_PZ], d.count, NULL, err,
                                sizeof err) == 0 &&
             fc_cuda_particles_permute(&d, g.d_order, NULL, err, sizeof err) == 0 &&
             fc_particles_reserve(&gpu, host->count) == 0 && fc_cuda_particles_download(&d, &gpu, NULL, err, sizeof err) == 0;
    CHECK(ok, "device sort, permute and download: %s", err);
    if (ok) {
        /* within a cell the device's order may differ (its scatter claims slots with atomics):
         * compare each cell's particles as a set, matched by id, every field included */
        size_t bad = 0;
        for (uint32_t k = 0; k < geom.ncells; k++)
            for (uint32_t i = grid.cell_start[k]; i < grid.cell_start[k + 1]; i++) {
                uint32_t j = grid.cell_start[k];
                while (j < grid.cell_start[k + 1] && gpu.id[j] != cpu.id[i]) j++;
                bad += j == grid.cell_start[k + 1] || !same_particle(&cpu, i, &gpu, j);
            }
        CHECK(gpu.count == cpu.count && bad == 0,
              "after the device sort every particle sits in the CPU's cell with all its fields (%zu of %zu differ)", bad,
              cpu.count);
    }
    free(cell_start);
    fc_particles_free(&gpu);
    fc_cuda_grid_free(&g);
    fc_cuda_particles_free(&d);
    fc_grid_free(&grid);
    fc_particles_free(&cpu);
}

int main(void)
{
    if (fc_cuda_device_count() == 0) {
        printf("skipped: no CUDA device\n");
        return 77;
    }
    char name[256];
    fc_cuda_device_name(0, name, sizeof name);
    printf("device: %s\n", name);
    fc_particles host;
    fc_particles_init(&host);
    CHECK(fill(&host, 20000) == 0, "20,000 particles");
    test_round_trip(&host);
    test_sort_and_permute(&host);
    fc_particles empty;
    fc_particles_init(&empty);
    test_round_trip(&empty);
    fc_particles_free(&empty);
    fc_particles_free(&host);
    return check_summary("test_cuda_particles");
}
