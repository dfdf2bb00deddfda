/* Position Based Fluids (pbf.c): the part of the solver that tests reach beyond the solver interface. */
#ifndef FC_PBF_H
#define FC_PBF_H

#include "core/world.h"

/* Vorticity confinement alone (seed 000 eqs. 15-17): sorts the world's particles into the grid (so
 * indices change, ids follow), finds their neighbours and writes the acceleration
 * vorticity_epsilon (N_i x omega_i) of every particle from the current positions and velocities,
 * without stepping; ax, ay, az hold particles.count floats each. The world must have been started
 * with the PBF solver. Returns 0, or -1 (other solver, out of memory). */
int fc_pbf_vorticity_acceleration(fc_world *w, float *ax, float *ay, float *az);

/* PBF's stability condition (fc_method_steps.limit_dt, on the host and on the device): the velocity condition alone,
 * cfl_number h / |v|max (the density constraints hold any stiffness: no acoustic condition). */
void fc_pbf_limit_dt(const fc_world *w, double max_speed, fc_step_limit *limit);

/* The budget's work per particle (fc_solver.step_work): the neighbours' (fc_sph_family_step_work)
 * times the passes over them, prediction's sort and lists and each iteration's, against the
 * measure's 4 iterations. */
double fc_pbf_step_work(const fc_params *p, int dims);

/* D0 = sum_j |grad_{p_j} C_i|^2 + |grad_{p_i} C_i|^2 at a particle of the cubic (2D: square) lattice of
 * spacing s with smoothing radius h and rest volume V0 = volume: s_corr's scale (pbf.c). */
double fc_pbf_lattice_denominator(double h, double s, double volume, int dims);

/* The relaxation epsilon of eq. 11 a world uses: relaxation_epsilon when it is set (above 0), else
 * relaxation_ratio * D0 (rest_denominator), which follows the spacing and the dimensions. */
double fc_pbf_relaxation(const fc_params *p, double rest_denominator);

#endif
