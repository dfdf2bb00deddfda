/* The SPH family's parameter rule and statistics, shared by sph.c and pbf.c. */
#include "solvers/sph_family.h"

#include <math.h>
#include <stdio.h>

int fc_sph_family_check_params(const fc_params *p, char *err, size_t errlen)
{
    double ratio = p->smoothing_radius / p->particle_spacing;
    if (ratio < 1.2 || ratio > 4.0) {
        snprintf(err, errlen,
                 "parameter 'smoothing_radius' (%g m) must be 1.2 to 4 times 'particle_spacing' (%g m) "
                 "for a usable neighbourhood; 2x gives about 30 neighbours",
                 p->smoothing_radius, p->particle_spacing);
        return -1;
    }
    return 0;
}

int fc_sph_family_stats(const fc_world *w, double mean_neighbours, fc_solver_stat *out, int max)
{
    const float *rho = w->particles.field[FC_DENSITY];
    const double rho0 = w->params.rest_density;
    const long n = (long)w->particles.count;
    double sum_err = 0.0, max_err = 0.0, sum_abs_err = 0.0;
#pragma omp parallel for schedule(static) reduction(max : max_err) reduction(+ : sum_err, sum_abs_err)
    for (long i = 0; i < n; i++) {
        double err = ((double)rho[i] - rho0) / rho0;
        sum_abs_err += fabs(err);
        if (err < 0.0) err = 0.0;
        sum_err += err;
        if (err > max_err) max_err = err;
    }
    const fc_solver_stat stats[] = {
        {.name = "mean_density_error", .value = n ? sum_err / (double)n : 0.0},
        {.name = "max_density_error", .value = max_err},
        {.name = "mean_abs_density_error", .value = n ? sum_abs_err / (double)n : 0.0},
        {.name = "mean_neighbours", .value = mean_neighbours},
    };
    int count = 0;
    for (size_t i = 0; i < sizeof stats / sizeof stats[0] && count < max; i++) out[count++] = stats[i];
    return count;
}
