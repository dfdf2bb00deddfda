/* SPH smoothing kernels of Mueller et al. 2003 (seed 001 eqs. 10-12) in 3D and 2D, with their constants; C and CUDA (FC_HD). */
#ifndef FC_KERNELS_H
#define FC_KERNELS_H

#include <math.h>

#include "core/hd.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Each kernel is one formula in r and h; only its normalisation constant depends on the number of
 * dimensions `dims` (2 or 3; anything but 2 is 3D). A kernel W = C f(r) integrates to 1 over the
 * ball of radius h, so C = 1 / int_0^h S_d r^(d-1) f(r) dr with S_3 = 4 pi, S_2 = 2 pi (the sphere's
 * area, the circle's length); the derivation of each constant is written beside it and
 * tests/test_kernels.c checks the integrals and the derivatives numerically in both dimensions. */

/* W_poly6(r, h) = C (h^2 - r^2)^3 for 0 <= r <= h (eq. 10); takes r^2.
 * 3D: int 4 pi r^2 (h^2 - r^2)^3 dr = 64 pi h^9 / 315, so C = 315 / (64 pi h^9).
 * 2D: int 2 pi r (h^2 - r^2)^3 dr = pi h^8 / 4, so C = 4 / (pi h^8). */
static inline FC_HD double fc_poly6_coefficient(double h, int dims)
{
    return dims == 2 ? 4.0 / (M_PI * pow(h, 8)) : 315.0 / (64.0 * M_PI * pow(h, 9));
}
static inline FC_HD double fc_poly6(double r2, double h, int dims)
{
    double d = h * h - r2;
    return (r2 >= 0.0 && d > 0.0) ? fc_poly6_coefficient(h, dims) * d * d * d : 0.0;
}

/* W_spiky(r, h) = C (h - r)^3 (Desbrun and Gascuel 1996, as Mueller 2003 uses it).
 * 3D: int 4 pi r^2 (h - r)^3 dr = pi h^6 / 15, so C = 15 / (pi h^6).
 * 2D: int 2 pi r (h - r)^3 dr = pi h^5 / 10, so C = 10 / (pi h^5). */
static inline FC_HD double fc_spiky_coefficient(double h, int dims)
{
    return dims == 2 ? 10.0 / (M_PI * pow(h, 5)) : 15.0 / (M_PI * pow(h, 6));
}
static inline FC_HD double fc_spiky(double r, double h, int dims)
{
    double d = h - r;
    return (r >= 0.0 && d > 0.0) ? fc_spiky_coefficient(h, dims) * d * d * d : 0.0;
}

/* grad W_spiky(r, h) = -3 C (h - |r|)^2 r/|r| (eq. 11): the magnitude factor -3 C (h - r)^2, to
 * multiply with the unit vector r/|r|; -3 C is -45 / (pi h^6) in 3D, -30 / (pi h^5) in 2D. */
static inline FC_HD double fc_spiky_gradient_coefficient(double h, int dims)
{
    return dims == 2 ? -30.0 / (M_PI * pow(h, 5)) : -45.0 / (M_PI * pow(h, 6));
}
static inline FC_HD double fc_spiky_gradient(double r, double h, int dims)
{
    double d = h - r;
    return (r > 0.0 && d > 0.0) ? fc_spiky_gradient_coefficient(h, dims) * d * d : 0.0;
}

/* The viscosity Laplacian L(r, h) = K (h - r) (eq. 12). K makes sum_j V_j f_j L_ij exact for the
 * Laplacian of a quadratic field: int |x|^2 L dV = 2 d (the Laplacian of |x|^2 is 2 d).
 * 3D: int 4 pi r^4 (h - r) dr = 2 pi h^6 / 15, so K = 6 * 15 / (2 pi h^6) = 45 / (pi h^6), which is
 *     also the exact Laplacian W'' + 2 W'/r of W_viscosity below (Mueller 2003).
 * 2D: int 2 pi r^3 (h - r) dr = pi h^5 / 10, so K = 4 * 10 / (pi h^5) = 40 / (pi h^5). (The 2D
 *     Laplacian W'' + W'/r of the 2D W_viscosity is not linear in r; the moment condition is what
 *     the viscosity force needs, and is what fixes the 3D constant too.) */
static inline FC_HD double fc_viscosity_laplacian_coefficient(double h, int dims)
{
    return dims == 2 ? 40.0 / (M_PI * pow(h, 5)) : 45.0 / (M_PI * pow(h, 6));
}
static inline FC_HD double fc_viscosity_laplacian(double r, double h, int dims)
{
    double d = h - r;
    return (r >= 0.0 && d > 0.0) ? fc_viscosity_laplacian_coefficient(h, dims) * d : 0.0;
}

/* W_viscosity(r, h) = C (-r^3 / (2 h^3) + r^2 / h^2 + h / (2 r) - 1) (Mueller 2003; seed 002 eq. 9
 * misses the final -1, see SEED-NOTES). The bracket integrates to
 * 3D: int 4 pi r^2 (...) dr = 4 pi h^3 / 30, so C = 15 / (2 pi h^3);
 * 2D: int 2 pi r (...) dr = 2 pi h^2 (-1/10 + 1/4 + 1/2 - 1/2) = 3 pi h^2 / 10, so C = 10 / (3 pi h^2). */
static inline FC_HD double fc_viscosity_kernel_coefficient(double h, int dims)
{
    return dims == 2 ? 10.0 / (3.0 * M_PI * h * h) : 15.0 / (2.0 * M_PI * h * h * h);
}
static inline FC_HD double fc_viscosity_kernel(double r, double h, int dims)
{
    if (!(r > 0.0 && r < h)) return 0.0;
    return fc_viscosity_kernel_coefficient(h, dims) * (-r * r * r / (2.0 * h * h * h) + r * r / (h * h) + h / (2.0 * r) - 1.0);
}

/* Sum of (h^2 - r^2)^3 over the neighbours of a point of a cubic lattice (a square one in 2D) of
 * spacing s, the point's own term weighted by self_weight. With it, V0 = 1 / (poly6 coefficient *
 * sum) is the volume (in 2D the area) a particle at rest spacing stands for, and m = rho0 V0 the
 * mass that gives it rest density. */
static inline FC_HD double fc_lattice_poly6_sum(double h, double s, double self_weight, int dims)
{
    const int n = (int)ceil(h / s), nk = dims == 2 ? 0 : n;
    double sum = 0.0, h2 = h * h;
    for (int i = -n; i <= n; i++)
        for (int j = -n; j <= n; j++)
            for (int k = -nk; k <= nk; k++) {
                double d = h2 - s * s * (double)(i * i + j * j + k * k);
                if (d > 0.0) sum += (i == 0 && j == 0 && k == 0 ? self_weight : 1.0) * d * d * d;
            }
    return sum;
}

static inline FC_HD double fc_rest_volume(double h, double s, double self_weight, int dims)
{
    return 1.0 / (fc_poly6_coefficient(h, dims) * fc_lattice_poly6_sum(h, s, self_weight, dims));
}

/* The moment sum_j V0 (x_j - x_i)_x (grad W_spiky(x_i - x_j))_x on the rest lattice. A gradient
 * estimate sum_j V_j f_j grad W_ij is exact for linear f when it is 1 (as the integral is); on a
 * lattice of spacing h/2 it is 0.947, so pressure gradients come out 5% weak unless divided by it. */
static inline FC_HD double fc_lattice_spiky_moment(double h, double s, double self_weight, int dims)
{
    const int n = (int)ceil(h / s), nk = dims == 2 ? 0 : n;
    double moment = 0.0;
    for (int i = -n; i <= n; i++)
        for (int j = -n; j <= n; j++)
            for (int k = -nk; k <= nk; k++) {
                double x = s * i, r = s * sqrt((double)(i * i + j * j + k * k));
                if (r > 0.0 && r < h) moment -= fc_spiky_gradient(r, h, dims) * x * x / r;
            }
    return fc_rest_volume(h, s, self_weight, dims) * moment;
}

/* The free surface's share of the colour jump on the rest lattice: a flat free surface of the lattice
 * (a face of it, the half-space of points at depth >= 0), with c = 1 on the points and the
 * gradient grad c_i = sum_j V0 grad W_poly6(x_i - x_j) that the tension's normals pass sums, gives
 * sum over the layers of |grad c| times their spacing. The continuum surface force of Brackbill,
 * Kothe and Zemach 1992 needs the jump's delta function to integrate to 1 across the surface;
 * particles sample only the liquid's side of it, so the sum is about a half (at h = 2 spacings
 * only the top layer has a gradient: 0.527 in 3D, 0.5 in 2D), and a surface force sigma kappa
 * grad c comes out a half of sigma's unless divided by it. */
static inline FC_HD double fc_lattice_surface_share(double h, double s, double self_weight, int dims)
{
    const int n = (int)ceil(h / s), nk = dims == 2 ? 0 : n;
    const double volume = fc_rest_volume(h, s, self_weight, dims), h2 = h * h;
    double share = 0.0;
    for (int depth = 0; depth <= n; depth++) { /* a point of the layer at this depth, its neighbours at depth - j */
        double gradient = 0.0;                  /* along the surface's normal; the other parts cancel */
        for (int i = -n; i <= n; i++)
            for (int j = -n; j <= depth; j++)
                for (int k = -nk; k <= nk; k++) {
                    const double d = h2 - s * s * (double)(i * i + j * j + k * k);
                    if (d > 0.0 && d < h2) gradient += d * d * (double)j * s;
                }
        share += fabs(6.0 * fc_poly6_coefficient(h, dims) * volume * gradient) * s;
    }
    return share;
}

#endif
