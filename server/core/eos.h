/* Equations of state of weakly compressible SPH (pressure from density), written once for C and CUDA (FC_HD). */
#ifndef FC_EOS_H
#define FC_EOS_H

#include "core/hd.h"

/* Linear p = k (rho - rho0) (Mueller et al. 2003, seed 001 eq. 3). */
static inline FC_HD float fc_eos_linear(float rho, float rho0, float k) { return k * (rho - rho0); }

/* Tait p = B ((rho / rho0)^7 - 1) with B = rho0 c^2 / 7 (Monaghan 1994; Becker & Teschner 2007,
 * gamma = 7): c is the speed of sound, and density stays within about 1% while c >= 10 |v|. */
static inline FC_HD double fc_eos_tait_coefficient(double rho0, double c) { return rho0 * c * c / 7.0; }
static inline FC_HD float fc_eos_tait(float rho, float rho0, float B)
{
    float ratio = rho / rho0, r2 = ratio * ratio, r4 = r2 * r2;
    return B * (r4 * r2 * ratio - 1.0f);
}

/* How far thermal expansion may move a rest density from its fluid's: the factor 1 - beta (T - T_ref)
 * stays within [1 - this, 1 + this] (fc_heat_expansion; params.def, thermal_expansion), so every rest
 * density stays positive, at most 1.5 times the fluid's. */
#define FC_HEAT_EXPANSION_RANGE 0.5

#endif
