/* The fluid's force and torque on solids (fc_world_object_loads) against hydrostatics: a box held
 * under still water in a 2D tank feels Archimedes' buoyancy rho g A upward, no sideways force and
 * no torque about its centre; the container and the box together carry the water's weight, less what
 * the collision constraint holds at the floor (Newton's third law on the boundary pressure, Akinci et
 * al. 2012). PBF says it cannot sum loads. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "world_checks.h"
#include "core/scene.h"
#include "core/solver.h"

/* 0.4 m of water in a 0.4 m wide tank; a 0.1 x 0.1 m box held with its centre 0.2 m below the
 * surface (its top 0.15 m under it). */
static const char *const SUBMERGED_BOX =
    "{\"name\": \"submerged_box_2d\", \"dimensions\": 2, \"solver\": \"sph\","
    " \"domain\": {\"min\": [0, 0], \"max\": [0.4, 0.5]},"
    " \"parameters\": {\"particle_spacing\": 0.01, \"particle_radius\": 0.005},"
    " \"fluid\": [{\"type\": \"box\", \"min\": [0, 0], \"max\": [0.4, 0.4]}],"
    " \"colliders\": [{\"type\": \"box\", \"center\": [0.2, 0.2], \"half_extents\": [0.05, 0.05]}]}";

#define BOX_AREA 0.01
#define BOX_HALF 0.05
#define SETTLE_S 2.0
#define AVERAGE_S 0.5

static int load(fc_world *w, const char *solver)
{
    fc_scene scene;
    char err[512] = "";
    if (fc_scene_parse_string(&scene, SUBMERGED_BOX, "submerged_box_2d.json", err, sizeof err)) {
        CHECK(0, "the submerged box scene parses: %s", err);
        return -1;
    }
    snprintf(scene.solver, sizeof scene.solver, "%s", solver);
    const int rc = fc_scene_instantiate(&scene, w, err, sizeof err);
    fc_scene_free(&scene);
    CHECK(rc == 0, "the submerged box scene builds with %s: %s", solver, err);
    return rc;
}

static void test_buoyancy(void)
{
    fc_world w;
    fc_world_init(&w);
    if (load(&w, "sph") || start(&w)) {
        fc_world_free(&w);
        return;
    }
    double sum[2][3] = {{0}}, torque = 0.0;
    int samples = 0, failed = 0;
    while (w.time < SETTLE_S + AVERAGE_S && !failed) {
        failed = fc_world_step(&w) != 0;
        if (w.time < SETTLE_S || w.step_count % 5) continue;
        fc_object_load loads[2];
        const int n = fc_world_object_loads(&w, loads, 2);
        if (n != 2) {
            CHECK(0, "two solids carry loads: the container and the box (%d)", n);
            break;
        }
        for (int o = 0; o < 2; o++)
            for (int a = 0; a < 3; a++) sum[o][a] += loads[o].force[a];
        torque += loads[1].torque[2];
        samples++;
    }
    CHECK(!failed && samples > 0, "the tank settles for %.1f s and is sampled %d times", SETTLE_S + AVERAGE_S, samples);
    if (!samples) {
        fc_world_free(&w);
        return;
    }
    double mass = 0.0;
    for (size_t i = 0; i < w.particles.count; i++) mass += w.fluid_mass[w.particles.u8[FC_FLUID][i]];
    const double g = 9.81, rho = w.fluids[0].rest_density, buoyancy = rho * g * BOX_AREA;
    const double box[3] = {sum[1][0] / samples, sum[1][1] / samples, sum[1][2] / samples};
    const double total_y = (sum[0][1] + sum[1][1]) / samples, mean_torque = torque / samples;
    printf("box: force (%.2f, %.2f) N/m, torque %.4f N; Archimedes %.2f N/m; container and box %.2f N/m, weight %.2f N/m\n",
           box[0], box[1], mean_torque, buoyancy, total_y, mass * g);
    CHECK(fabs(box[1] - buoyancy) <= 0.15 * buoyancy, "the box feels rho g A = %.1f N/m upward: %.1f N/m", buoyancy, box[1]);
    CHECK(fabs(box[0]) <= 0.05 * buoyancy, "no sideways force on the box: %.2f N/m", box[0]);
    CHECK(fabs(mean_torque) <= 0.05 * buoyancy * BOX_HALF, "no torque about the box's centre: %.4f N", mean_torque);
    /* The bottom row rests at one particle radius from the floor, where the collision response
     * (fc_collide_particles, a position constraint, not a force) holds it against the column above:
     * the boundary pressure carries most of the weight, never more than all of it. */
    CHECK(-total_y >= 0.85 * mass * g && -total_y <= 1.02 * mass * g,
          "container and box carry 85%% to 100%% of the water's weight %.1f N/m by pressure: %.1f N/m", mass * g, -total_y);
    fc_world_free(&w);
}

static void test_pbf_cannot_say(void)
{
    fc_world w;
    fc_world_init(&w);
    if (load(&w, "pbf") == 0 && start(&w) == 0) {
        fc_object_load loads[2];
        CHECK(fc_world_object_loads(&w, loads, 2) == -2, "PBF says it cannot sum loads (-2)");
    }
    fc_world_free(&w);
}

int main(void)
{
    test_buoyancy();
    test_pbf_cannot_say();
    return check_summary("test_object_loads");
}
