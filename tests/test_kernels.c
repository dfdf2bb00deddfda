/* Kernel tests, in 3D and 2D: poly6, spiky and the viscosity kernel integrate to 1 over their
 * support, gradients match finite differences, the viscosity Laplacian is exact for quadratics. */
#include <math.h>

#include "check.h"
#include "core/kernels.h"

static int dims_now; /* the dimension the radial helpers evaluate in */

/* int S_d r^(d-1) f(r) dr over [0, h]: the integral of a radial function over the ball (disc). */
static double radial_integral(double (*f)(double r, double h), double h, int dims)
{
    const int steps = 200000;
    double sum = 0.0, dr = h / steps;
    for (int i = 0; i < steps; i++) {
        double r = (i + 0.5) * dr;
        sum += (dims == 2 ? 2.0 * M_PI * r : 4.0 * M_PI * r * r) * f(r, h) * dr;
    }
    return sum;
}

static double poly6_of_r(double r, double h) { return fc_poly6(r * r, h, dims_now); }
static double spiky_of_r(double r, double h) { return fc_spiky(r, h, dims_now); }
static double viscosity_of_r(double r, double h) { return fc_viscosity_kernel(r, h, dims_now); }
/* r^2 L(r): its integral is the second moment of the viscosity Laplacian, 2 d when exact for |x|^2 */
static double laplacian_moment_of_r(double r, double h) { return r * r * fc_viscosity_laplacian(r, h, dims_now); }

/* Integral of poly6 over a cartesian lattice of the cube (square) [-h, h]^d, independent of the radial form. */
static double lattice_integral(double h, int dims)
{
    const int n = 80, nk = dims == 2 ? 1 : n;
    double d = 2.0 * h / n, sum = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < nk; k++) {
                double x = -h + (i + 0.5) * d, y = -h + (j + 0.5) * d, z = dims == 2 ? 0.0 : -h + (k + 0.5) * d;
                sum += fc_poly6(x * x + y * y + z * z, h, dims) * d * d * (dims == 2 ? 1.0 : d);
            }
    return sum;
}

static void check_dims(int dims)
{
    dims_now = dims;
    const double hs[] = {0.01, 0.04, 1.0};
    for (int k = 0; k < 3; k++) {
        double h = hs[k];
        double i6 = radial_integral(poly6_of_r, h, dims);
        CHECK(fabs(i6 - 1.0) < 1e-6, "%dD poly6 integrates to %.9f for h=%g", dims, i6, h);
        double is = radial_integral(spiky_of_r, h, dims);
        CHECK(fabs(is - 1.0) < 1e-6, "%dD spiky integrates to %.9f for h=%g", dims, is, h);
        double iv = radial_integral(viscosity_of_r, h, dims);
        CHECK(fabs(iv - 1.0) < 1e-4, "%dD viscosity kernel integrates to %.9f for h=%g", dims, iv, h);
        double il = radial_integral(laplacian_moment_of_r, h, dims);
        CHECK(fabs(il - 2.0 * dims) < 1e-6 * dims, "%dD viscosity laplacian's second moment is %.9f, expected %d",
              dims, il, 2 * dims);

        /* compact support and peak at the centre (seed 000 appendix A.1 says W(0,h)=0: wrong) */
        CHECK(fc_poly6(0.0, h, dims) > fc_poly6(0.25 * h * h, h, dims), "%dD poly6 peaks at r = 0", dims);
        CHECK(fc_poly6(h * h, h, dims) == 0.0 && fc_poly6(1.5 * h * h, h, dims) == 0.0, "%dD poly6 vanishes for r >= h",
              dims);
        CHECK(fc_spiky_gradient(h, h, dims) == 0.0 && fc_viscosity_laplacian(h, h, dims) == 0.0,
              "%dD derivatives vanish at h", dims);

        for (double r = 0.05 * h; r < h; r += 0.1 * h) {
            /* dW_spiky/dr by central differences equals the gradient magnitude factor */
            double e = 1e-6 * h;
            double fd = (fc_spiky(r + e, h, dims) - fc_spiky(r - e, h, dims)) / (2 * e);
            double an = fc_spiky_gradient(r, h, dims);
            CHECK(fabs(fd - an) <= 1e-5 * fabs(an) + 1e-9, "%dD spiky gradient at r=%g: fd %g analytic %g", dims, r, fd,
                  an);

            /* in 3D the Laplacian of W_viscosity, W'' + 2 W' / r by finite differences, is eq. 12 */
            if (dims == 3) {
                double e2 = 1e-4 * h;
                double w0 = fc_viscosity_kernel(r, h, 3), wp = fc_viscosity_kernel(r + e2, h, 3),
                       wm = fc_viscosity_kernel(r - e2, h, 3);
                double lap = (wp - 2 * w0 + wm) / (e2 * e2) + (wp - wm) / (e2 * r);
                double lan = fc_viscosity_laplacian(r, h, 3);
                CHECK(fabs(lap - lan) <= 1e-3 * fabs(lan) + 1e-9 * lan / h,
                      "viscosity laplacian at r=%g: fd %g analytic %g", r, lap, lan);
            }

            /* poly6 gradient check: d/dr of W(r^2) */
            double gfd = (poly6_of_r(r + e, h) - poly6_of_r(r - e, h)) / (2 * e);
            double gan = -6.0 * r * fc_poly6_coefficient(h, dims) * pow(h * h - r * r, 2);
            CHECK(fabs(gfd - gan) <= 1e-5 * fabs(gan) + 1e-9, "%dD poly6 derivative at r=%g", dims, r);
        }

        /* the spiky gradient in cartesian form, grad W = W'(r) x / r, against finite differences of
         * W along each axis at an off-axis point */
        const double x[3] = {0.31 * h, -0.22 * h, dims == 2 ? 0.0 : 0.17 * h};
        const double r = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        for (int a = 0; a < dims; a++) {
            double e = 1e-6 * h, xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
            xp[a] += e, xm[a] -= e;
            double fd = (fc_spiky(sqrt(xp[0] * xp[0] + xp[1] * xp[1] + xp[2] * xp[2]), h, dims) -
                         fc_spiky(sqrt(xm[0] * xm[0] + xm[1] * xm[1] + xm[2] * xm[2]), h, dims)) / (2 * e);
            double an = fc_spiky_gradient(r, h, dims) * x[a] / r;
            CHECK(fabs(fd - an) <= 1e-5 * fabs(an) + 1e-9, "%dD spiky gradient, axis %d: fd %g analytic %g", dims, a,
                  fd, an);
        }
    }
    double il = lattice_integral(1.0, dims);
    CHECK(fabs(il - 1.0) < 1e-3, "%dD poly6 integrates to %.6f over a cartesian lattice", dims, il);

    /* the lattice sums: a gradient estimate on the rest lattice is within 15% of exact (moment 1:
     * 0.947 in 3D, 0.874 in 2D at h = 2 s; the solvers divide by it), nearer on a finer lattice, and
     * the rest volume is about s^d (each particle stands for its lattice cell) */
    const double h = 0.1, s = 0.05;
    double moment = fc_lattice_spiky_moment(h, s, 1.0, dims), fine = fc_lattice_spiky_moment(h, s / 4, 1.0, dims);
    CHECK(moment > 0.85 && moment < 1.0, "%dD lattice spiky moment %.4f near 1", dims, moment);
    CHECK(fabs(fine - 1.0) < fabs(moment - 1.0), "%dD lattice spiky moment %.4f nearer 1 at s/4", dims, fine);
    double v0 = fc_rest_volume(h, s, 1.0, dims), cell = dims == 2 ? s * s : s * s * s;
    CHECK(fabs(v0 / cell - 1.0) < 0.15, "%dD rest volume %.4g near the lattice cell %.4g", dims, v0, cell);
    /* the free surface's share of the colour jump: the particles sit on the liquid's side, where c
     * falls from 1 to about 1/2, so the share tends to exactly 1/2 as the lattice refines (0.527 in
     * 3D and 0.5 in 2D at h = 2 s) */
    double share = fc_lattice_surface_share(h, s, 1.0, dims), fine_share = fc_lattice_surface_share(h, s / 4, 1.0, dims);
    CHECK(fabs(share - 0.5) < 0.05, "%dD surface share %.4f near a half", dims, share);
    CHECK(fabs(fine_share - 0.5) < 0.005, "%dD surface share %.4f at s/4 within 0.005 of a half", dims, fine_share);
}

int main(void)
{
    check_dims(3);
    check_dims(2);
    /* the constants of Mueller 2003 in 3D and their usual 2D counterparts, now derived (kernels.h) */
    const double h = 0.7;
    CHECK(fabs(fc_poly6_coefficient(h, 2) * M_PI * pow(h, 8) - 4.0) < 1e-12, "2D poly6 constant 4 / (pi h^8)");
    CHECK(fabs(fc_spiky_gradient_coefficient(h, 2) * M_PI * pow(h, 5) + 30.0) < 1e-12, "2D spiky gradient -30 / (pi h^5)");
    CHECK(fabs(fc_viscosity_laplacian_coefficient(h, 2) * M_PI * pow(h, 5) - 40.0) < 1e-12,
          "2D viscosity laplacian 40 / (pi h^5)");
    CHECK(fc_poly6_coefficient(h, 3) == 315.0 / (64.0 * M_PI * pow(h, 9)), "3D poly6 constant unchanged");
    return check_summary("test_kernels");
}
