/* What the particle solvers of the SPH family (WCSPH, PBF) share: their parameter rule and statistics. */
#ifndef FC_SPH_FAMILY_H
#define FC_SPH_FAMILY_H

#include "core/solver.h"

/* The smoothing radius must be 1.2 to 4 particle spacings: a usable neighbourhood. 0 or -1 with err. */
int fc_sph_family_check_params(const fc_params *p, char *err, size_t errlen);

/* The density errors of the fluid particles (FC_DENSITY against rest_density) and the mean
 * neighbour count of the last step into out: mean_density_error (mean of max(rho - rho0, 0) / rho0,
 * compression), max_density_error, mean_abs_density_error (mean of |rho / rho0 - 1|) and
 * mean_neighbours; returns how many were written (at most max). */
int fc_sph_family_stats(const fc_world *w, double mean_neighbours, fc_solver_stat *out, int max);

#endif
