/* 2D worlds (issue 14 item 3) against physics, for SPH and PBF: a settled column's pressure is
 * rho0 g d; a dam break's front advances, every particle stays in the plane z = 0 inside the
 * domain, count and ids conserved; a block at rest stays at rest density. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "world_checks.h"
#include "core/colliders.h"
#include "core/world.h"

/* A 2D world of x by y metres (z from 0 to 0) with `solver` and its scenes' time step. */
static void world_2d(fc_world *w, const char *solver, float x, float y)
{
    char err[256];
    fc_world_init(w);
    w->dimensions = 2;
    w->domain_lo[0] = w->domain_lo[1] = w->domain_lo[2] = 0.0f;
    w->domain_hi[0] = x, w->domain_hi[1] = y, w->domain_hi[2] = 0.0f;
    CHECK(fc_world_set_solver(w, solver, err, sizeof err) == 0, "%s: %s", solver, err);
    if (w->solver && strcmp(solver, "pbf") == 0) w->params.time_step = 0.002; /* as dam_break_pbf.json */
    w->params.gravity_z = -5.0; /* ignored in 2D: nothing may leave the plane */
}

static void fill(fc_world *w, float x0, float y0, float x1, float y1)
{
    const float lo[3] = {x0, y0, 0}, hi[3] = {x1, y1, 0}, v0[3] = {0, 0, 0};
    fc_world_fill_box(w, lo, hi, v0, 0);
}

/* Particles off the plane z = 0 or moving out of it. */
static size_t off_plane(const fc_world *w)
{
    size_t off = 0;
    for (size_t i = 0; i < w->particles.count; i++)
        off += w->particles.field[FC_PZ][i] != 0.0f || w->particles.field[FC_VZ][i] != 0.0f;
    return off;
}

/* A settled 2D water column (SPH): pressure at depth d is rho0 g d within 5%, averaged over slabs
 * two spacings thick away from the side walls and over the last 1.5 s of 3 s (a 2D column keeps
 * more jitter than a 3D one: see test_block_at_rest); depth from the
 * surface of an incompressible column of the same mass, H = N m / (rho0 width). In 2D a particle's
 * mass is rho0 times its area (kg per metre of depth), so the same formula holds. */
static void test_column_pressure(void)
{
    fc_world w;
    world_2d(&w, "sph", 0.24f, 0.7f);
    /* hydrostatics does not depend on viscosity; a more viscous column settles out of the jitter a
     * 2D WCSPH column keeps at the default 2 Pa s (test_block_at_rest), in which the particles leave
     * the square lattice that the gradient correction is computed on */
    w.fluids[0].viscosity = 10.0;
    fill(&w, 0, 0, 0.24f, 0.5f);
    if (start(&w)) return;
    const fc_params *prm = &w.params;
    const double rho0 = w.fluids[0].rest_density, g = -prm->gravity_y, s0 = prm->particle_spacing;
    const double B = rho0 * prm->speed_of_sound * prm->speed_of_sound / 7.0;
    CHECK(fabs(w.fluid_mass[0] / (rho0 * s0 * s0) - 1.0) < 0.15, "2D mass %.4g kg/m near rho0 s^2 = %.4g",
          w.fluid_mass[0], rho0 * s0 * s0);
    const double surface = (double)w.particles.count * w.fluid_mass[0] / (rho0 * 0.24);
    const double depths[] = {0.15, 0.25, 0.35};
    pressure_line line = {0};
    for (int step = 0; step < 6000; step++) { /* 3 s */
        if (fc_world_step(&w)) break;
        if (step < 3000 || step % 10) continue;
        const fc_particles *p = &w.particles;
        for (size_t i = 0; i < p->count; i++) {
            double depth = surface - p->field[FC_PY][i], x = p->field[FC_PX][i];
            if (x < 0.06 || x > 0.18 || depth < 0.1 || depth > 0.4) continue;
            pressure_line_add(&line, depth, B * (pow(p->field[FC_DENSITY][i] / rho0, 7) - 1.0)); /* Tait, the default */
        }
    }
    CHECK(w.step_count == 6000, "6000 steps ran (%llu)", (unsigned long long)w.step_count);
    CHECK(off_plane(&w) == 0, "%zu particles off the plane", off_plane(&w));
    check_hydrostatic(&line, "2D hydrostatic", rho0, g, depths, 3, 0.05);
    fc_world_free(&w);
}

/* A 2D block wall to wall on the floor stays at rest density (the 2D mass, kernels and boundary
 * agree): mean compression under 1% after 1 s, a 2D neighbourhood. PBF also comes to rest (rms
 * speed under 0.05 m/s); WCSPH at the default parameters keeps a jitter of 0.05-0.1 m/s in 2D
 * (about 10 neighbours against 30 in 3D; its 3D block settles), so its speed is printed, not checked. */
static void test_block_at_rest(const char *solver)
{
    fc_world w;
    world_2d(&w, solver, 0.4f, 0.5f);
    fill(&w, 0, 0, 0.4f, 0.2f);
    if (start(&w)) return;
    const double seconds = 1.0;
    const int steps = (int)lround(seconds / w.params.time_step);
    for (int step = 0; step < steps; step++)
        if (fc_world_step(&w)) break;
    fc_world_stats s;
    fc_world_stats_compute(&w, &s);
    const double error = fc_world_stat(&s, "mean_density_error");
    printf("2D %s block at rest: %zu particles, mean density error %.3f%%, rms speed %.4f m/s, neighbours %.1f\n",
           solver, s.particles, 100 * error, s.rms_speed, fc_world_stat(&s, "mean_neighbours"));
    CHECK(!s.has_nan, "%s: no NaN", solver);
    CHECK(error < 0.01, "%s: mean density error %.3f%% < 1%%", solver, 100 * error);
    if (strcmp(solver, "pbf") == 0) CHECK(s.rms_speed < 0.05, "%s: rms speed %.4f m/s after 1 s at rest", solver, s.rms_speed);
    const double neighbours = fc_world_stat(&s, "mean_neighbours");
    CHECK(neighbours > 8 && neighbours < 16, "%s: %.1f neighbours, a 2D neighbourhood (pi (h/s)^2 = 12.6)", solver,
          neighbours);
    fc_world_free(&w);
}

/* A 2D dam break with a circle and a line (plane) collider in the way: the front advances, every
 * particle stays inside the domain, in the plane and out of the circle, count and ids conserved. */
static void test_dam_break(const char *solver)
{
    fc_world w;
    world_2d(&w, solver, 0.8f, 0.5f);
    fill(&w, 0, 0, 0.24f, 0.36f);
    fc_shape ball = {.kind = FC_SHAPE_SPHERE, .center = {0.5f, 0.05f, 0.0f}, .radius = 0.06f};
    fc_shape ramp = {.kind = FC_SHAPE_PLANE, .normal = {-0.5f, 0.8660254f, 0.0f}};
    ramp.offset = ramp.normal[0] * 0.8f + ramp.normal[1] * 0.05f; /* through (0.8, 0.05) */
    fc_world_add_collider(&w, &ball);
    fc_world_add_collider(&w, &ramp);
    if (start(&w)) return;
    const size_t n = w.particles.count;
    const int steps = (int)lround(1.0 / w.params.time_step), front_step = (int)lround(0.3 / w.params.time_step);
    double worst = 0.0, front = 0.0;
    long inside_ball = 0;
    size_t off = 0;
    for (int step = 1; step <= steps && !isnan(worst); step++) {
        if (fc_world_step(&w)) break;
        double d = outside_distance(&w);
        if (isnan(d) || d > worst) worst = d;
        off += off_plane(&w);
        for (size_t i = 0; i < w.particles.count; i++) {
            float x[3] = {w.particles.field[FC_PX][i], w.particles.field[FC_PY][i], w.particles.field[FC_PZ][i]};
            inside_ball += fc_shape_contains(&ball, x);
            if (step == front_step) front = fmax(front, x[0]);
        }
    }
    printf("2D %s dam break: %zu particles, %llu steps (%.2f s), front %.3f m at 0.3 s, worst outside %g m\n", solver, n,
           (unsigned long long)w.step_count, w.time, front, worst);
    CHECK(w.step_count == (uint64_t)steps, "%s: %d steps ran (%llu)", solver, steps, (unsigned long long)w.step_count);
    CHECK(worst == 0.0, "%s: no particle outside the domain (worst %g m)", solver, worst);
    CHECK(off == 0, "%s: %zu particle-steps off the plane z = 0", solver, off);
    CHECK(inside_ball == 0, "%s: no particle inside the circle (%ld particle-steps)", solver, inside_ball);
    CHECK(front > 0.24 + 0.1, "%s: the front advanced to %.3f m after 0.3 s", solver, front);
    CHECK(w.particles.count == n, "%s: particle count conserved: %zu -> %zu", solver, n, w.particles.count);
    size_t bad = bad_ids(&w, n);
    CHECK(bad == 0, "%s: ids unique and all original (%zu bad)", solver, bad);
    fc_world_free(&w);
}

int main(void)
{
    test_block_at_rest("sph");
    test_block_at_rest("pbf");
    test_column_pressure();
    test_dam_break("sph");
    test_dam_break("pbf");
    return check_summary("test_2d");
}
