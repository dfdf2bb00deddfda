/* The fluid's force and torque on each solid of a WCSPH world: Newton's third law on the boundary
 * pressure force of Akinci et al. 2012, summed over each owner's boundary samples (bodies next). */
#include <stdlib.h>
#include <string.h>

#include "solvers/sph_family.h"

/* The force fluid particle i (mass m_i, boundary coefficient `wall`) puts on boundary sample b at
 * squared distance r2, offset d = x_i - x_b: the opposite of the sample's force on i,
 * F_b = -m_i wall V_b g_ib (x_i - x_b) (fc_wcsph_acceleration's boundary term); 0 beyond h. */
static int pair_force(const fc_sph_kernel *k, double m_wall, float volume_b, float r2, const float d[3], double f[3])
{
    fc_fv inv_r;
    const fc_fv q = fc_sph_distance_terms(k, fc_fv_splat(r2), &inv_r);
    const fc_fv pair = fc_wcsph_boundary_pair(fc_fv_splat(volume_b), q, inv_r);
    if (pair[0] == 0.0f) return 0;
    for (int a = 0; a < 3; a++) f[a] = -m_wall * pair[0] * d[a];
    return 1;
}

int fc_wcsph_object_loads(const fc_world *w, fc_object_load *loads, size_t max)
{
    const fc_boundary *b = fc_sph_family_boundary(w);
    if (!b) return 0;
    const size_t owners = b->owner_count < max ? b->owner_count : max;
    fc_wcsph_eos eos;
    fc_wcsph_forces t;
    fc_sph_kernel k;
    fc_wcsph_eos_of(w, &eos);
    fc_wcsph_forces_of(w, fc_wcsph_gradient_correction(w), &t);
    fc_sph_kernel_init(&k, w, fc_sph_rest_volume(w));
    float rest_density[FC_MAX_FLUIDS];
    fc_sph_fluid_values(w, FC_SPH_REST_DENSITY, rest_density);
    for (size_t o = 0; o < owners; o++) {
        memset(&loads[o], 0, sizeof loads[o]);
        loads[o].id = b->owners[o].id;
    }
    const fc_particles *p = &w->particles;
    const float h2 = (float)(w->params.smoothing_radius * w->params.smoothing_radius);
    for (size_t i = 0; i < p->count; i++) {
        const int f = p->u8[FC_FLUID][i];
        const float rho = p->field[FC_DENSITY][i];
        if (!(rho > 0.0f)) continue;
        const float pressure = fc_wcsph_pressure(&eos, f, rho, rest_density[f]);
        const double m_wall = (double)w->fluid_mass[f] * fc_wcsph_wall_coefficient(&t, f, 1.0f / rho, pressure);
        if (m_wall == 0.0) continue;
        const float xi[3] = {p->field[FC_PX][i], p->field[FC_PY][i], p->field[FC_PZ][i]};
        fc_bar bars[9];
        const int nbars = fc_grid_bars(&b->grid.geom, fc_grid_key(&b->grid.geom, xi[0], xi[1], xi[2]), bars);
        FC_FOR_EACH_CANDIDATE(&b->grid, bars, nbars, s)
        {
            const float d[3] = {xi[0] - b->x[s], xi[1] - b->y[s], xi[2] - b->z[s]};
            const float r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            double force[3];
            if (r2 >= h2 || b->owner[s] >= owners || !pair_force(&k, m_wall, b->volume[s], r2, d, force)) continue;
            fc_object_load *load = &loads[b->owner[s]];
            const fc_shape *pose = &b->owners[b->owner[s]].pose;
            const double centre[3] = {b->owner[s] ? pose->center[0] : 0.0, b->owner[s] ? pose->center[1] : 0.0,
                                      b->owner[s] ? pose->center[2] : 0.0};
            const double arm[3] = {b->x[s] - centre[0], b->y[s] - centre[1], b->z[s] - centre[2]};
            for (int a = 0; a < 3; a++) load->force[a] += force[a];
            load->torque[0] += arm[1] * force[2] - arm[2] * force[1];
            load->torque[1] += arm[2] * force[0] - arm[0] * force[2];
            load->torque[2] += arm[0] * force[1] - arm[1] * force[0];
        }
    }
    return (int)owners;
}
