/* nvcc's build of the shared math: a kernel using every function (the device pass must accept each) and a host entry. */
#include "cuda/runtime.h" /* nvcc's runtime, or the host shim's qualifiers in the cuda-host build */

extern "C" {
#include "shared_math_eval.h"
}

/* Never launched by the tests (CI has no GPU): it exists so that a function of the shared headers
 * that cannot run on the device fails the build. */
__global__ void fc_k_shared_math(double r, double h, double s, int dims, float rho, float rho0, float k, double c,
                                 fc_grid_geom g, float px, float py, float pz, double *out)
{
    const float p[3] = {px, py, pz};
    fc_shared_math_eval(r, h, s, dims, rho, rho0, k, c, &g, p, out);
}

/* The same evaluation as compiled into a CUDA translation unit, run on the host. */
extern "C" void fc_cuda_shared_math_host(double r, double h, double s, int dims, float rho, float rho0, float k, double c,
                                         const fc_grid_geom *g, const float p[3], double *out)
{
    fc_shared_math_eval(r, h, s, dims, rho, rho0, k, c, g, p, out);
}
