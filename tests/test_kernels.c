/* Kernel tests: poly6 and spiky integrate to 1 over their support, gradients match finite differences. */
#include <math.h>

#include "check.h"
#include "core/kernels.h"

/* Integral of W over the ball of radius h as a radial quadrature: int 4 pi r^2 W(r) dr. */
static double radial_integral(double (*kernel)(double r, double h), double h)
{
    const int steps = 200000;
    double sum = 0.0, dr = h / steps;
    for (int i = 0; i < steps; i++) {
        double r = (i + 0.5) * dr;
        sum += 4.0 * M_PI * r * r * kernel(r, h) * dr;
    }
    return sum;
}

static double poly6_of_r(double r, double h) { return fc_poly6(r * r, h); }

/* Integral over a 3D box lattice (independent of the radial form). */
static double lattice_integral(double h)
{
    const int n = 80;
    double d = 2.0 * h / n, sum = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                double x = -h + (i + 0.5) * d, y = -h + (j + 0.5) * d, z = -h + (k + 0.5) * d;
                sum += fc_poly6(x * x + y * y + z * z, h) * d * d * d;
            }
    return sum;
}

int main(void)
{
    const double hs[] = {0.01, 0.04, 1.0};
    for (int k = 0; k < 3; k++) {
        double h = hs[k];
        double i6 = radial_integral(poly6_of_r, h);
        CHECK(fabs(i6 - 1.0) < 1e-6, "poly6 integrates to %.9f for h=%g", i6, h);
        double is = radial_integral(fc_spiky, h);
        CHECK(fabs(is - 1.0) < 1e-6, "spiky integrates to %.9f for h=%g", is, h);
        double iv = radial_integral(fc_viscosity_kernel, h);
        CHECK(fabs(iv - 1.0) < 1e-4, "viscosity kernel integrates to %.9f for h=%g", iv, h);

        /* compact support and peak at the centre (seed 000 appendix A.1 says W(0,h)=0: wrong) */
        CHECK(fc_poly6(0.0, h) > fc_poly6(0.25 * h * h, h), "poly6 peaks at r = 0");
        CHECK(fc_poly6(h * h, h) == 0.0 && fc_poly6(1.5 * h * h, h) == 0.0, "poly6 vanishes for r >= h");
        CHECK(fc_spiky_gradient(h, h) == 0.0 && fc_viscosity_laplacian(h, h) == 0.0, "derivatives vanish at h");

        /* dW_spiky/dr by central differences equals the gradient magnitude factor */
        for (double r = 0.05 * h; r < h; r += 0.1 * h) {
            double e = 1e-6 * h;
            double fd = (fc_spiky(r + e, h) - fc_spiky(r - e, h)) / (2 * e);
            double an = fc_spiky_gradient(r, h);
            CHECK(fabs(fd - an) <= 1e-5 * fabs(an) + 1e-9, "spiky gradient at r=%g: fd %g analytic %g", r, fd, an);

            /* Laplacian of W_viscosity = W'' + 2 W' / r, by finite differences */
            double e2 = 1e-4 * h;
            double w0 = fc_viscosity_kernel(r, h), wp = fc_viscosity_kernel(r + e2, h),
                   wm = fc_viscosity_kernel(r - e2, h);
            double lap = (wp - 2 * w0 + wm) / (e2 * e2) + (wp - wm) / (e2 * r);
            double lan = fc_viscosity_laplacian(r, h);
            CHECK(fabs(lap - lan) <= 1e-3 * fabs(lan) + 1e-9 * lan / h, "viscosity laplacian at r=%g: fd %g analytic %g",
                  r, lap, lan);

            /* poly6 gradient check: d/dr of W(r^2) */
            double gfd = (poly6_of_r(r + e, h) - poly6_of_r(r - e, h)) / (2 * e);
            double gan = -6.0 * r * fc_poly6_coefficient(h) * pow(h * h - r * r, 2);
            CHECK(fabs(gfd - gan) <= 1e-5 * fabs(gan) + 1e-9, "poly6 derivative at r=%g", r);
        }
    }
    double il = lattice_integral(1.0);
    CHECK(fabs(il - 1.0) < 1e-3, "poly6 integrates to %.6f over a cartesian lattice", il);
    return check_summary("test_kernels");
}
