/* What the statistics take of one particle, written once for the host's loops and a device's reductions (FC_HD). */
#ifndef FC_PARTICLE_STATS_H
#define FC_PARTICLE_STATS_H

#include <math.h>

#include "core/hd.h"

/* |v|^2 of a particle into *speed2; 0 when a position or velocity component is not finite (the
 * blow-up check), 1 otherwise. */
static inline FC_HD int fc_motion_sample(float px, float py, float pz, float vx, float vy, float vz, double *speed2)
{
    *speed2 = (double)vx * vx + (double)vy * vy + (double)vz * vz;
    return isfinite(*speed2) && isfinite(px) && isfinite(py) && isfinite(pz);
}

/* The density error (rho - rho0) / rho0 of a particle: its magnitude into *abs_error, and the
 * compression max(error, 0) returned. */
static inline FC_HD double fc_density_error_sample(float rho, double rho0, double *abs_error)
{
    const double error = ((double)rho - rho0) / rho0;
    *abs_error = fabs(error);
    return error > 0.0 ? error : 0.0;
}

#endif
