/* Physics tests of the WCSPH solver against physics: rest density, hydrostatic pressure,
 * conservation, emitter and sink balances, particles staying in the domain. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "world_checks.h"
#include "core/colliders.h"
#include "core/solver.h"
#include "core/sources.h"
#include "core/world.h"

static void set_domain(fc_world *w, float x, float y, float z)
{
    w->domain_lo[0] = w->domain_lo[1] = w->domain_lo[2] = 0.0f;
    w->domain_hi[0] = x, w->domain_hi[1] = y, w->domain_hi[2] = z;
}

/* A block filling the tank floor wall to wall under gravity: it must stay where it is, with the
 * compression that hydrostatics predicts (mean about g H / (2 c^2), here 0.25%), under 1%. */
static void test_block_at_rest(void)
{
    fc_world w;
    fc_world_init(&w);
    set_domain(&w, 0.4f, 0.5f, 0.4f);
    const float lo[3] = {0, 0, 0}, hi[3] = {0.4f, 0.2f, 0.4f}, v0[3] = {0, 0, 0};
    fc_world_fill_box(&w, lo, hi, v0, 0);
    if (start(&w)) return;
    const size_t n = w.particles.count;
    float *y0 = malloc(n * sizeof *y0);
    uint32_t *id0 = malloc(n * sizeof *id0);
    memcpy(y0, w.particles.field[FC_PY], n * sizeof *y0);
    memcpy(id0, w.particles.id, n * sizeof *id0);

    fc_world_stats s;
    double worst_mean_error = 0.0;
    for (int step = 0; step < 2000; step++) { /* 1 s */
        CHECK(fc_world_step(&w) == 0, "step %d", step);
        if (step >= 1000 && step % 50 == 0) {
            fc_world_stats_compute(&w, &s);
            const double mean_error = fc_world_stat(&s, "mean_density_error");
            if (mean_error > worst_mean_error) worst_mean_error = mean_error;
        }
    }
    fc_world_stats_compute(&w, &s);
    CHECK(!s.has_nan, "no NaN");
    CHECK(worst_mean_error < 0.01, "mean density error %.4f%% < 1%% over the last 0.5 s", 100 * worst_mean_error);
    double kinetic = 0.0;
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) kinetic += 0.5 * pow(w.particles.field[FC_VX + a][i], 2);
    const double rms_speed = sqrt(2.0 * kinetic / (double)n);
    CHECK(rms_speed < 0.05, "block at rest: rms speed %.4f m/s after 1 s (max %.3f)", rms_speed, s.max_speed);
    /* vertical displacement by id: ids are persistent through the sorting */
    double sum_dy = 0.0, max_dy = 0.0;
    for (size_t i = 0; i < n; i++) {
        uint32_t id = w.particles.id[i];
        CHECK(id < n && id0[id] == id, "id %u is one of the originals", id);
        double dy = fabs(w.particles.field[FC_PY][i] - y0[id]);
        sum_dy += dy;
        if (dy > max_dy) max_dy = dy;
    }
    const double s0 = w.params.particle_spacing;
    /* settling compresses the block by about 0.3% and the free surface jitters; a flow would move
     * particles by many spacings */
    CHECK(sum_dy / n < 1.0 * s0, "mean vertical displacement %.5f m < one spacing", sum_dy / n);
    CHECK(max_dy < 4.0 * s0, "largest vertical displacement %.5f m < four spacings", max_dy);
    printf("block at rest: %zu particles, mean density error %.3f%%, rms speed %.4f m/s, max speed %.3f m/s, "
           "mean |dy| %.5f m, neighbours %.1f\n",
           n, 100 * worst_mean_error, rms_speed, s.max_speed, sum_dy / n, fc_world_stat(&s, "mean_neighbours"));
    free(y0), free(id0);
    fc_world_free(&w);
}

/* A settled water column: pressure at depth d is rho0 g d (within 5%), averaged over slabs two
 * spacings thick and over the last 0.5 s of 2.5 s. Depth is measured from the free surface of an
 * incompressible column of the same mass, H = N m / (rho0 A), not from the noisy top particle. */
static void test_hydrostatic_pressure(void)
{
    fc_world w;
    fc_world_init(&w);
    set_domain(&w, 0.24f, 0.7f, 0.24f);
    const float lo[3] = {0, 0, 0}, hi[3] = {0.24f, 0.5f, 0.24f}, v0[3] = {0, 0, 0};
    fc_world_fill_box(&w, lo, hi, v0, 0);
    if (start(&w)) return;
    const fc_params *prm = &w.params;
    const double rho0 = w.fluids[0].rest_density, g = -prm->gravity_y;
    const double B = rho0 * prm->speed_of_sound * prm->speed_of_sound / 7.0;
    const double surface = (double)w.particles.count * w.fluid_mass[0] / (rho0 * 0.24 * 0.24);
    const double depths[] = {0.15, 0.25, 0.35};
    pressure_line line = {0};
    for (int step = 0; step < 5000; step++) { /* 2.5 s */
        if (fc_world_step(&w)) break;
        if (step < 4000 || step % 10) continue;
        const fc_particles *p = &w.particles;
        for (size_t i = 0; i < p->count; i++) {
            double depth = surface - p->field[FC_PY][i];
            /* away from the side walls, whose boundary layer is not what this test measures, and
             * from the surface and the floor (depths 0.1 to 0.4 m of the 0.5 m column) */
            double x = p->field[FC_PX][i], z = p->field[FC_PZ][i];
            if (x < 0.06 || x > 0.18 || z < 0.06 || z > 0.18 || depth < 0.1 || depth > 0.4) continue;
            pressure_line_add(&line, depth, B * (pow(p->field[FC_DENSITY][i] / rho0, 7) - 1.0)); /* Tait, as the default */
        }
    }
    check_hydrostatic(&line, "hydrostatic", rho0, g, depths, 3, 0.05);
    fc_world_free(&w);
}

/* A dam break: particle count and the set of ids conserved, every particle inside the domain
 * after every one of 2000 steps, no NaN; and the front moves. */
static void test_dam_break_stays_in_domain(void)
{
    fc_world w;
    fc_world_init(&w);
    set_domain(&w, 0.8f, 0.5f, 0.2f);
    const float lo[3] = {0, 0, 0}, hi[3] = {0.24f, 0.36f, 0.2f}, v0[3] = {0, 0, 0};
    fc_world_fill_box(&w, lo, hi, v0, 0);
    /* a sphere and a plane collider in the way */
    fc_shape ball = {.kind = FC_SHAPE_SPHERE, .center = {0.5f, 0.05f, 0.1f}, .radius = 0.06f};
    fc_shape ramp = {.kind = FC_SHAPE_PLANE, .normal = {-0.5f, 0.8660254f, 0.0f}};
    ramp.offset = ramp.normal[0] * 0.8f + ramp.normal[1] * 0.05f; /* passes through (0.8, 0.05) */
    fc_world_add_collider(&w, &ball);
    fc_world_add_collider(&w, &ramp);
    if (start(&w)) return;
    const size_t n = w.particles.count;
    double worst = 0.0, front = 0.0;
    int inside_ball = 0;
    for (int step = 0; step < 2000 && !isnan(worst); step++) {
        if (fc_world_step(&w)) break;
        double d = outside_distance(&w);
        if (isnan(d) || d > worst) worst = d;
        for (size_t i = 0; i < w.particles.count; i++) {
            float x[3] = {w.particles.field[FC_PX][i], w.particles.field[FC_PY][i], w.particles.field[FC_PZ][i]};
            if (fc_shape_contains(&ball, x)) inside_ball++;
            if (step == 399) front = fmax(front, x[0]);
        }
    }
    CHECK(w.step_count == 2000, "2000 steps ran (%llu)", (unsigned long long)w.step_count);
    CHECK(worst == 0.0, "no particle outside the domain (worst %g m)", worst);
    CHECK(inside_ball == 0, "no particle inside the sphere collider (%d particle-steps)", inside_ball);
    CHECK(w.particles.count == n, "particle count conserved: %zu -> %zu", n, w.particles.count);
    size_t bad = bad_ids(&w, n);
    CHECK(bad == 0, "ids unique and all original (%zu bad)", bad);
    CHECK(front > 0.24 + 0.1, "front advanced to %.3f m after 0.2 s", front);
    fc_world_free(&w);
}

/* An emitter adds rate * t particles, to within one emission (one disc layer). */
static void test_emitter_rate(void)
{
    fc_world w;
    fc_world_init(&w);
    set_domain(&w, 0.6f, 0.6f, 0.6f);
    const fc_object e = fc_emitter_row((float[]){0.3f, 0.45f, 0.3f}, (float[]){0, -1, 0}, 0.05f, 1.0f, 1500.0f, 0);
    fc_world_add_object(&w, &e);
    if (start(&w)) return;
    size_t layer = fc_emitter_layer_size(&e, (float)w.params.particle_spacing, w.dimensions);
    CHECK(layer > 1, "a layer has %zu particles", layer);
    for (int step = 0; step < 1000; step++) fc_world_step(&w); /* 0.5 s */
    double expected = e.emitter.rate * w.time;
    double got = (double)w.particles.count;
    printf("emitter: %.0f particles expected after %.3f s, %zu emitted (layer %zu)\n", expected, w.time,
           w.particles.count, layer);
    CHECK(fabs(got - expected) <= (double)layer, "emitted %.0f vs rate*t = %.1f (one emission = %zu)", got, expected,
          layer);
    CHECK(w.emitted_total == w.particles.count, "emitted_total %llu matches the count",
          (unsigned long long)w.emitted_total);
    fc_world_free(&w);
}

/* A sink removes everything that enters it: after every step no particle is inside, and the
 * particles that are gone are exactly the ones it counted. */
static void test_sink_removes(void)
{
    fc_world w;
    fc_world_init(&w);
    set_domain(&w, 0.4f, 0.6f, 0.4f);
    const float lo[3] = {0.1f, 0.3f, 0.1f}, hi[3] = {0.3f, 0.5f, 0.3f}, v0[3] = {0, 0, 0};
    fc_world_fill_box(&w, lo, hi, v0, 0);
    const fc_object sink = fc_sink_row(&(fc_shape){.kind = FC_SHAPE_BOX, .center = {0.2f, 0.05f, 0.2f}, .half = {0.2f, 0.05f, 0.2f}});
    fc_world_add_object(&w, &sink);
    if (start(&w)) return;
    const size_t n0 = w.particles.count;
    int inside_after_step = 0;
    for (int step = 0; step < 1600; step++) {
        fc_world_step(&w);
        for (size_t i = 0; i < w.particles.count; i++) {
            float x[3] = {w.particles.field[FC_PX][i], w.particles.field[FC_PY][i], w.particles.field[FC_PZ][i]};
            if (fc_shape_contains(&sink.shape, x)) inside_after_step++;
        }
    }
    printf("sink: %zu -> %zu particles, %llu removed\n", n0, w.particles.count, (unsigned long long)w.removed_total);
    CHECK(inside_after_step == 0, "no particle inside the sink after any step (%d)", inside_after_step);
    CHECK(w.removed_total > n0 / 2, "the falling block drained: %llu of %zu removed",
          (unsigned long long)w.removed_total, n0);
    CHECK(w.particles.count + w.removed_total == n0, "count + removed = initial");
    fc_world_free(&w);
}

int main(void)
{
    test_block_at_rest();
    test_hydrostatic_pressure();
    test_dam_break_stays_in_domain();
    test_emitter_rate();
    test_sink_removes();
    return check_summary("test_physics");
}
