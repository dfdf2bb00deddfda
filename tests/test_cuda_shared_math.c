/* The shared math headers give the same numbers compiled as C and compiled by nvcc in a CUDA translation unit. */
#include "check.h"
#include "shared_math_eval.h"

#include <math.h>
#include <string.h>

void fc_cuda_shared_math_host(double r, double h, double s, int dims, float rho, float rho0, float k, double c,
                              const fc_grid_geom *g, const float p[3], double *out);

int main(void)
{
    const float lo[3] = {-0.3f, -2.05f, 0.0f}, hi[3] = {1.71f, 0.4f, 0.93f};
    fc_grid_geom g;
    char err[256];
    CHECK(fc_grid_geom_init(&g, lo, hi, 0.1f, err, sizeof err) == 0, "geometry: %s", err);
    /* distances inside, on and beyond h; densities below, at and above rest; points inside, on a
     * border, outside and NaN */
    const double rs[] = {0.0, 0.013, 0.05, 0.0999, 0.1, 0.2};
    const float rhos[] = {950.0f, 1000.0f, 1003.7f, 1100.0f};
    const float points[][3] = {{0.05f, -1.0f, 0.5f}, {0.0f, 0.0f, 0.0f}, {1.71f, 0.4f, 0.93f},
                               {-5.0f, 9.0f, 0.31f}, {NAN, 0.2f, INFINITY}, {-0.3f, -2.05f, -INFINITY}};
    int compared = 0;
    for (int dims = 2; dims <= 3; dims++)
    for (size_t a = 0; a < sizeof rs / sizeof rs[0]; a++)
        for (size_t b = 0; b < sizeof rhos / sizeof rhos[0]; b++)
            for (size_t c = 0; c < sizeof points / sizeof points[0]; c++) {
                double cpu[FC_SHARED_MATH_N], cuda[FC_SHARED_MATH_N];
                fc_shared_math_eval(rs[a], 0.1, 0.05, dims, rhos[b], 1000.0f, 1000.0f, 88.5, &g, points[c], cpu);
                fc_cuda_shared_math_host(rs[a], 0.1, 0.05, dims, rhos[b], 1000.0f, 1000.0f, 88.5, &g, points[c], cuda);
                for (int v = 0; v < FC_SHARED_MATH_N; v++)
                    CHECK(memcmp(&cpu[v], &cuda[v], sizeof(double)) == 0,
                          "%dD value %d at r %g, rho %g, point %zu: C %.17g, CUDA translation unit %.17g", dims, v, rs[a],
                          (double)rhos[b], c, cpu[v], cuda[v]);
                compared++;
            }
    CHECK(compared == 288, "compared %d cases (144 in each dimension)", compared);
    return check_summary("test_cuda_shared_math");
}
