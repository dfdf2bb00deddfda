/* SPH smoothing kernels of Mueller et al. 2003 in 3D (seed 001 eqs. 10-12), with their constants; C and CUDA (FC_HD). */
#ifndef FC_KERNELS_H
#define FC_KERNELS_H

#include <math.h>

#include "core/hd.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* W_poly6(r, h) = 315 / (64 pi h^9) (h^2 - r^2)^3 for 0 <= r <= h (eq. 10); takes r^2. */
static inline FC_HD double fc_poly6_coefficient(double h) { return 315.0 / (64.0 * M_PI * pow(h, 9)); }
static inline FC_HD double fc_poly6(double r2, double h)
{
    double d = h * h - r2;
    return (r2 >= 0.0 && d > 0.0) ? fc_poly6_coefficient(h) * d * d * d : 0.0;
}

/* grad W_spiky(r, h) = -45 / (pi h^6) (h - |r|)^2 r/|r| (eq. 11): the magnitude factor
 * -45/(pi h^6) (h - r)^2, to multiply with the unit vector r/|r|. */
static inline FC_HD double fc_spiky_gradient_coefficient(double h) { return -45.0 / (M_PI * pow(h, 6)); }
static inline FC_HD double fc_spiky_gradient(double r, double h)
{
    double d = h - r;
    return (r > 0.0 && d > 0.0) ? fc_spiky_gradient_coefficient(h) * d * d : 0.0;
}

/* W_spiky(r, h) = 15 / (pi h^6) (h - r)^3, whose gradient is the above. */
static inline FC_HD double fc_spiky(double r, double h)
{
    double d = h - r;
    return (r >= 0.0 && d > 0.0) ? 15.0 / (M_PI * pow(h, 6)) * d * d * d : 0.0;
}

/* Laplacian of W_viscosity: 45 / (pi h^6) (h - r) (eq. 12). */
static inline FC_HD double fc_viscosity_laplacian_coefficient(double h) { return 45.0 / (M_PI * pow(h, 6)); }
static inline FC_HD double fc_viscosity_laplacian(double r, double h)
{
    double d = h - r;
    return (r >= 0.0 && d > 0.0) ? fc_viscosity_laplacian_coefficient(h) * d : 0.0;
}

/* W_viscosity(r, h) = 15 / (2 pi h^3) (-r^3 / (2 h^3) + r^2 / h^2 + h / (2 r) - 1)
 * (Mueller 2003; seed 002 eq. 9 misses the final -1, see SEED-NOTES). */
static inline FC_HD double fc_viscosity_kernel(double r, double h)
{
    if (!(r > 0.0 && r < h)) return 0.0;
    return 15.0 / (2.0 * M_PI * h * h * h) * (-r * r * r / (2.0 * h * h * h) + r * r / (h * h) + h / (2.0 * r) - 1.0);
}

/* Sum of (h^2 - r^2)^3 over the neighbours of a point of a cubic lattice of spacing s, the point's
 * own term weighted by self_weight. With it, V0 = 1 / (poly6 coefficient * sum) is the volume a
 * particle at rest spacing stands for, and m = rho0 V0 the mass that gives it rest density. */
static inline FC_HD double fc_lattice_poly6_sum(double h, double s, double self_weight)
{
    const int n = (int)ceil(h / s);
    double sum = 0.0, h2 = h * h;
    for (int i = -n; i <= n; i++)
        for (int j = -n; j <= n; j++)
            for (int k = -n; k <= n; k++) {
                double d = h2 - s * s * (double)(i * i + j * j + k * k);
                if (d > 0.0) sum += (i == 0 && j == 0 && k == 0 ? self_weight : 1.0) * d * d * d;
            }
    return sum;
}

static inline FC_HD double fc_rest_volume(double h, double s, double self_weight)
{
    return 1.0 / (fc_poly6_coefficient(h) * fc_lattice_poly6_sum(h, s, self_weight));
}

/* The moment sum_j V0 (x_j - x_i)_x (grad W_spiky(x_i - x_j))_x on the rest lattice. A gradient
 * estimate sum_j V_j f_j grad W_ij is exact for linear f when it is 1 (as the integral is); on a
 * lattice of spacing h/2 it is 0.947, so pressure gradients come out 5% weak unless divided by it. */
static inline FC_HD double fc_lattice_spiky_moment(double h, double s, double self_weight)
{
    const int n = (int)ceil(h / s);
    double moment = 0.0;
    for (int i = -n; i <= n; i++)
        for (int j = -n; j <= n; j++)
            for (int k = -n; k <= n; k++) {
                double x = s * i, r = s * sqrt((double)(i * i + j * j + k * k));
                if (r > 0.0 && r < h) moment -= fc_spiky_gradient(r, h) * x * x / r;
            }
    return fc_rest_volume(h, s, self_weight) * moment;
}

#endif
