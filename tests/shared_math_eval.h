/* Evaluates every shared-math function (kernels, equations of state, grid key and bars) into one array, for C and CUDA. */
#ifndef FC_SHARED_MATH_EVAL_H
#define FC_SHARED_MATH_EVAL_H

#include "core/eos.h"
#include "core/grid.h"
#include "core/kernels.h"

#define FC_SHARED_MATH_N 20

/* out[FC_SHARED_MATH_N]: the values at distance r (r^2 for poly6), radius h, lattice spacing s,
 * density rho of rest density rho0 with stiffness k and speed of sound c, and the point p in g. */
static inline FC_HD void fc_shared_math_eval(double r, double h, double s, int dims, float rho, float rho0, float k, double c,
                                             const fc_grid_geom *g, const float p[3], double *out)
{
    fc_bar bars[9];
    const uint32_t key = fc_grid_key(g, p[0], p[1], p[2]);
    const int nbars = fc_grid_bars(g, key, bars);
    out[0] = fc_poly6_coefficient(h, dims);
    out[1] = fc_poly6(r * r, h, dims);
    out[2] = fc_spiky_gradient_coefficient(h, dims);
    out[3] = fc_spiky_gradient(r, h, dims);
    out[4] = fc_spiky(r, h, dims);
    out[5] = fc_viscosity_laplacian_coefficient(h, dims);
    out[6] = fc_viscosity_laplacian(r, h, dims);
    out[7] = fc_viscosity_kernel(r, h, dims);
    out[8] = fc_lattice_poly6_sum(h, s, 0.5, dims);
    out[9] = fc_rest_volume(h, s, 0.5, dims);
    out[10] = fc_lattice_spiky_moment(h, s, 0.5, dims);
    out[11] = fc_eos_linear(rho, rho0, k);
    out[12] = fc_eos_tait_coefficient(rho0, c);
    out[13] = fc_eos_tait(rho, rho0, (float)fc_eos_tait_coefficient(rho0, c));
    out[14] = fc_grid_coord(g, p[0], 0);
    out[15] = fc_grid_coord(g, p[1], 1);
    out[16] = fc_grid_coord(g, p[2], 2);
    out[17] = key;
    out[18] = nbars;
    out[19] = nbars ? (double)bars[0].first + 1e-6 * (double)bars[nbars - 1].last : -1.0;
}

#endif
