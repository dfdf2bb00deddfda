/* Trapped air on the CPU for both solvers of the SPH family (Mueller et al. 2005; seed 004 section
 * 3.5; the rules are sph_terms.h's fc_air_*): after a step, one pass over the step's fluid lists at
 * the particles' new positions sums grad c^p and grad c^s, marks the air that has been carried
 * under in the `submerged` field and gives it its artificial buoyancy, marks the air that goes in
 * the `flags` field and collects the new air; the store then removes the marked particles and the
 * new ones are appended, within max_air_particles, max_particles and the server's budget. */
#include <math.h>
#include <stdlib.h>

#include "core/lanes.h"
#include "solvers/sph_family.h"

void fc_air_terms_of(const fc_world *w, fc_air_terms *t)
{
    const fc_params *p = &w->params;
    const double h = p->smoothing_radius, spacing = p->particle_spacing;
    float ratio[FC_MAX_FLUIDS];
    fc_sph_mass_ratios(w, ratio);
    t->g[0] = (float)p->gravity_x, t->g[1] = (float)p->gravity_y, t->g[2] = (float)p->gravity_z;
    t->g_length = sqrtf(t->g[0] * t->g[0] + t->g[1] * t->g[1] + t->g[2] * t->g[2]);
    t->h2 = (float)(h * h);
    t->coeff = (float)(-6.0 * fc_poly6_coefficient(h, w->dimensions) * w->fluid_mass[0]);
    t->poly6_m0 = (float)(fc_poly6_coefficient(h, w->dimensions) * w->fluid_mass[0]);
    t->generation2 = (float)(p->air_generation_threshold * p->air_generation_threshold / (h * h));
    t->deletion2 = (float)(p->air_deletion_threshold * p->air_deletion_threshold / (h * h));
    t->deletion_density = (float)p->air_deletion_density;
    t->offset = (float)(p->air_offset * spacing);
    t->free2 = (float)(0.5625 * spacing * spacing);
    t->buoyancy = (float)p->air_buoyancy;
    t->air_fluid = -1;
    for (int f = 0; f < FC_MAX_FLUIDS; f++) {
        const fc_fluid *fluid = &w->fluids[f < w->fluid_count ? f : 0];
        const int air = fluid->kind != 0;
        t->liquid[f] = air ? 0.0f : 1.0f;
        t->ratio[f] = ratio[f];
        t->rest[f] = (float)fluid->rest_density;
        if (air && f < w->fluid_count && t->air_fluid < 0) t->air_fluid = f;
    }
    t->on = p->air != 0 && t->air_fluid >= 0;
}

void fc_air_state_free(fc_air_state *a)
{
    free(a->at), free(a->colour), free(a->spawn), free(a->decision);
    *a = (fc_air_state){0};
}

static int air_reserve(fc_air_state *a, size_t n)
{
    if (n + 1 <= a->capacity) return 0;
    const size_t cap = n + n / 2 + 1024;
    void **const records[] = {(void **)&a->at, (void **)&a->colour, (void **)&a->spawn};
    if (fc_sph_grow_arrays(records, 3, cap, sizeof(fc_record4))) return -1;
    void *d = realloc(a->decision, cap);
    if (!d) return -1;
    a->decision = d;
    a->capacity = cap;
    return 0;
}

/* Particle i's decision (fc_air_decide) from its sums over the fluid list; a spawn whose point a
 * neighbour already takes stays. */
static int air_decision(const fc_air_terms *t, const fc_air_state *a, const fc_sph_neighbourhood *nh, long i, int f,
                        float density, float spawn[3], float *mass_density, uint8_t *submerged)
{
    const fc_neighbour_list *fluid = &nh->lists[FC_SPH_FLUID], *solid = &nh->lists[FC_SPH_SOLID];
    const fc_record4 at = a->at[i];
    const fc_fv zero = fc_fv_splat(0.0f);
    fc_fv gp[3] = {zero, zero, zero}, gs[3] = {zero, zero, zero}, mass[2] = {zero, zero};
    for (fc_lanes nb = fc_lanes_of(fluid, (size_t)i, a->at, at.x, at.y, at.z); fc_lanes_next(&nb);) {
        fc_fv cs_j, r_j, unused_z, unused_w;
        fc_lanes_gather(&nb, a->colour, &cs_j, &r_j, &unused_z, &unused_w);
        const fc_fv x_ij[3] = {nb.dx, nb.dy, nb.dz};
        fc_air_pair(t, nb.w, cs_j, r_j, nb.r2, x_ij, gp, gs, mass);
    }
    float gp_sum[4], gs_sum[4], mass_sums[4];
    fc_fv_sum4(gp[0], gp[1], gp[2], zero, gp_sum);
    fc_fv_sum4(gs[0], gs[1], gs[2], zero, gs_sum);
    fc_fv_sum4(mass[0], mass[1], zero, zero, mass_sums);
    *mass_density = fc_air_mass_density(t, f, density, mass_sums);
    const int near_solid = solid->start[i] < solid->start[i + 1];
    const int decision = fc_air_decide(t, f, density, near_solid, gp_sum, gs_sum, spawn, submerged);
    if (decision != FC_AIR_SPAWN) return decision;
    const float point[3] = {at.x + spawn[0], at.y + spawn[1], at.z + spawn[2]};
    float cp = 0.0f;
    const float own[3] = {-spawn[0], -spawn[1], -spawn[2]};
    fc_air_point_taken(t, own, at.w, &cp); /* i itself is d spacing away: it does not take the point */
    for (uint32_t e = fluid->start[i]; e < fluid->start[i + 1]; e++) {
        const fc_record4 j = a->at[fluid->index[e]];
        const float dx[3] = {j.x - point[0], j.y - point[1], j.z - point[2]};
            if (fc_air_point_taken(t, dx, j.w, &cp)) return FC_AIR_STAY;
    }
    return fc_air_point_outside(t, cp) ? FC_AIR_SPAWN : FC_AIR_STAY;
}

int fc_sph_air_step(fc_world *w, fc_air_state *a, const fc_sph_neighbourhood *nh, double dt)
{
    fc_air_terms t;
    fc_air_terms_of(w, &t);
    if (!t.on) return 0;
    fc_particles *p = &w->particles;
    const long n = (long)p->count;
    if (n == 0) return 0;
    if (air_reserve(a, (size_t)n)) return -1;
    const fc_neighbour_shares *shares = &nh->shares; /* the step's, over these n particles */
    const float *x = p->field[FC_PX], *y = p->field[FC_PY], *z = p->field[FC_PZ], *rho = p->field[FC_DENSITY];
    float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    const uint8_t *of = p->u8[FC_FLUID];
    uint8_t *flags = p->u8[FC_FLAGS], *submerged = p->u8[FC_SUBMERGED];
    fc_shares_open(shares);
#pragma omp parallel
    for (size_t lo, hi; fc_shares_take(shares, FC_SHARE_CHUNK, &lo, &hi);)
        for (long i = (long)lo; i < (long)hi; i++) {
            const int f = of[i];
            a->at[i] = (fc_record4){x[i], y[i], z[i], rho[i] > 0.0f ? t.ratio[f] / rho[i] : 0.0f};
            a->colour[i] = (fc_record4){t.liquid[f], t.ratio[f], 0.0f, 0.0f};
        }
    a->at[n] = fc_sph_far_away;
    a->colour[n] = (fc_record4){0.0f, 0.0f, 0.0f, 0.0f};
    long air = 0, removed = 0, wanted = 0;
    fc_shares_open(shares);
#pragma omp parallel reduction(+ : air, removed, wanted)
    for (size_t lo, hi; fc_shares_take(shares, FC_SHARE_CHUNK, &lo, &hi);)
        for (long i = (long)lo; i < (long)hi; i++) {
            const int f = of[i];
            float spawn[3] = {0.0f, 0.0f, 0.0f};
            float mass_density;
            const int decision = air_decision(&t, a, nh, i, f, rho[i], spawn, &mass_density, &submerged[i]);
            a->decision[i] = (uint8_t)decision;
            a->spawn[i] = (fc_record4){spawn[0], spawn[1], spawn[2], 0.0f};
            flags[i] = decision == FC_AIR_REMOVE ? FC_FLAG_REMOVE : 0;
            wanted += decision == FC_AIR_SPAWN;
            if (t.liquid[f] == 0.0f) {
                air++, removed += decision == FC_AIR_REMOVE;
                float v[3] = {vx[i], vy[i], vz[i]};
                fc_air_buoyancy(&t, f, submerged[i], mass_density, (float)dt, v);
                vx[i] = v[0], vy[i] = v[1], vz[i] = v[2];
            }
        }
    /* the new air, in particle order, while there is room */
    const long count = fc_air_room(w, n, air, removed, wanted);
    fc_particle *born = NULL;
    if (count > 0) {
        if (!(born = malloc((size_t)count * sizeof *born))) return -1;
        long k = 0;
        for (long i = 0; i < n && k < count; i++) {
            if (a->decision[i] != FC_AIR_SPAWN) continue;
            const float at[3] = {x[i] + a->spawn[i].x, y[i] + a->spawn[i].y, z[i] + a->spawn[i].z};
            const float v[3] = {vx[i], vy[i], vz[i]};
            fc_world_particle(w, t.air_fluid, at, v, &born[k]);
            born[k].TEMPERATURE = p->field[FC_TEMPERATURE][i];
            k++;
        }
    }
    if (fc_air_remove(w, removed)) {
        free(born);
        return -1;
    }
    long added = 0;
    for (long k = 0; k < count; k++) added += fc_particles_add(p, &born[k]) >= 0;
    free(born);
    if (added > 0) fc_world_host_changed(w, FC_CHANGED_ADDED);
    w->air_made_total += (uint64_t)added;
    return 0;
}

long fc_air_room(fc_world *w, long count, long air, long removed, long wanted)
{
    long room = (long)w->params.max_air_particles - (air - removed); /* the cap counts the air that stays */
    const long total_room = (long)w->params.max_particles - (count - removed);
    if (total_room < room) room = total_room;
    if (wanted < room) room = wanted;
    if (room <= 0 || fc_world_reserve_fluid(w, (size_t)(count - removed + room))) return 0; /* full, or the budget is */
    return room;
}

int fc_air_remove(fc_world *w, long removed)
{
    if (removed <= 0) return 0;
    if (fc_world_remove_flagged(w, FC_FLAGS) < 0) return -1;
    w->removed_total -= (uint64_t)removed; /* the sinks' count; air has its own */
    w->air_removed_total += (uint64_t)removed;
    return 0;
}
