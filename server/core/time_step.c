/* The stability conditions every particle method shares, and the names of what bounds a step. */
#include "core/time_step.h"

#include <math.h>

const char *fc_dt_bound_name(fc_dt_bound bound)
{
    static const char *const names[FC_DT_BOUND_COUNT] = {"time_step", "fixed",   "acoustic",
                                                         "velocity",  "viscous", "force", "thermal", "capillary",
                                                         "contact",   "buoyancy"};
    return bound >= 0 && bound < FC_DT_BOUND_COUNT ? names[bound] : "time_step";
}

double fc_dt_velocity(double cfl, double h, double max_speed)
{
    return max_speed > 0.0 && isfinite(max_speed) ? cfl * h / max_speed : 0.0;
}

double fc_dt_force(double h, double max_acceleration)
{
    return max_acceleration > 0.0 && isfinite(max_acceleration) ? FC_DT_FORCE_FACTOR * sqrt(h / max_acceleration) : 0.0;
}

double fc_dt_viscous(double h, double kinematic_viscosity)
{
    return kinematic_viscosity > 0.0 ? FC_DT_VISCOUS_FACTOR * h * h / kinematic_viscosity : 0.0;
}

double fc_dt_thermal(double h, double diffusivity)
{
    return diffusivity > 0.0 ? FC_DT_THERMAL_FACTOR * h * h / diffusivity : 0.0;
}

double fc_dt_capillary(double spacing, double density, double tension)
{
    return tension > 0.0 ? sqrt(density * spacing * spacing * spacing / (2.0 * 3.14159265358979323846 * tension)) : 0.0;
}

double fc_dt_contact(double mass_capacity_over_area, double heat_transfer)
{
    return heat_transfer > 0.0 && mass_capacity_over_area > 0.0 ? mass_capacity_over_area / heat_transfer : 0.0;
}
