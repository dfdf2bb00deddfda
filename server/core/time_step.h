/* The step a world takes: the largest its solver's stability conditions allow, capped by time_step. */
#ifndef FC_TIME_STEP_H
#define FC_TIME_STEP_H

/* The condition that bounded a step (fc_world.last_dt_bound): the cap time_step, a fixed step
 * (adaptive_time_step off), or one of a solver's stability conditions. */
typedef enum fc_dt_bound {
    FC_DT_MAXIMUM,  /* time_step: no condition asked for less */
    FC_DT_FIXED,    /* adaptive_time_step is off: every step is time_step */
    FC_DT_ACOUSTIC, /* cfl_number h / (c + |v|max): sound and flow cross a fraction of h per step */
    FC_DT_VELOCITY, /* cfl_number h / |v|max: the fastest particle crosses a fraction of h */
    FC_DT_VISCOUS,  /* 0.125 h^2 rho0 / mu: explicit viscous diffusion stays stable */
    FC_DT_FORCE,    /* 0.25 sqrt(h / |a|max): no particle accelerates across h in a step */
    FC_DT_THERMAL,  /* 0.1 h^2 / alpha: explicit heat conduction stays stable */
    FC_DT_CAPILLARY, /* sqrt(rho dx^3 / (2 pi sigma)): capillary waves stay resolved */
    FC_DT_CONTACT,  /* m c / (h_c A): a hot or cold solid moves a particle's temperature gradually */
    FC_DT_BUOYANCY, /* 0.25 sqrt(h / ((1 + b) |g|)): trapped air's buoyancy within the force condition */
    FC_DT_BOUND_COUNT
} fc_dt_bound;

/* "time_step", "fixed", "acoustic", "velocity", "viscous", "force", "thermal", "capillary", "contact",
 * "buoyancy": the names the stats, the runner and the viewer show. */
const char *fc_dt_bound_name(fc_dt_bound bound);

/* A step being chosen: the longest allowed so far and what bounds it. */
typedef struct fc_step_limit {
    double dt;
    fc_dt_bound bound;
} fc_step_limit;

/* Lowers the limit to dt (bound by `bound`) when dt is positive, finite and shorter. */
static inline void fc_step_limit_lower(fc_step_limit *limit, double dt, fc_dt_bound bound)
{
    if (dt > 0.0 && dt < limit->dt) limit->dt = dt, limit->bound = bound;
}

/* The stability conditions' constants (Monaghan 1992; Morris, Fox and Zhu 1997 for viscosity). */
#define FC_DT_VISCOUS_FACTOR 0.125
#define FC_DT_FORCE_FACTOR 0.25
#define FC_DT_THERMAL_FACTOR 0.1 /* Cleary and Monaghan 1999 */

/* The velocity condition of every particle method: cfl h / |v|max (0 when nothing moves). */
double fc_dt_velocity(double cfl, double h, double max_speed);
/* The force condition: 0.25 sqrt(h / |a|max) (0 when nothing accelerates). */
double fc_dt_force(double h, double max_acceleration);
/* The viscous condition: 0.125 h^2 / nu with nu = mu / rho0 the kinematic viscosity (0 for none). */
double fc_dt_viscous(double h, double kinematic_viscosity);
/* The thermal condition: 0.1 h^2 / alpha with alpha the largest thermal diffusivity (0 for none). */
double fc_dt_thermal(double h, double diffusivity);
/* The capillary condition of Brackbill, Kothe and Zemach 1992: sqrt(rho dx^3 / (2 pi sigma)) with
 * rho the lightest fluid's rest density and sigma the largest tension (0 for none). */
double fc_dt_capillary(double spacing, double density, double tension);
/* The contact condition of Newton's law at a hot or cold solid, m c dT/dt = h_c A (T_solid - T), integrated
 * explicitly: h_c A dt / (m c) <= 1, so dt <= m c / (h_c A) with the smallest m c / A of the fluids and the
 * largest heat transfer coefficient h_c (0 for none). fc_contact_relax integrates it exactly, which never
 * overshoots; the condition keeps each step's change, and the rest density that follows it, gradual. */
double fc_dt_contact(double mass_capacity_over_area, double heat_transfer);

#endif
