/* Budgets (core/budget.h): a scene's estimate against what building it really gives, reservations
 * that add up, and emitters that stop where the server's budget ends. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/budget.h"
#include "core/scene.h"
#include "core/sources.h"
#include "core/world.h"
#include "solvers/sph_family.h"

static int parse(fc_scene *scene, const char *name, const char *assignment)
{
    char path[4096], err[512];
    if (fc_scene_resolve(name, path, sizeof path) || fc_scene_parse_file(scene, path, err, sizeof err)) return -1;
    if (assignment && fc_param_assign_scoped(&scene->params, scene->fluids, scene->fluid_count, assignment, err, sizeof err)) return -1;
    return 0;
}

/* The estimate, made from the shapes alone, against the built world: within 5% for the fluid and
 * 15% for the boundary (the lattice's rounding at curved and small surfaces). */
static void test_estimates_match_builds(void)
{
    static const char *const scenes[] = {"dam_break", "double_dam_break", "water_drop", "fountain", "dam_break_pbf",
                                         "pool_colliders"};
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++) {
        fc_scene scene;
        char err[512];
        if (parse(&scene, scenes[i], NULL)) {
            CHECK(0, "%s parses", scenes[i]);
            continue;
        }
        fc_scene_estimate e;
        fc_scene_estimate_size(&scene, &e);
        fc_world w;
        if (fc_scene_instantiate(&scene, &w, err, sizeof err) == 0) {
            double fluid = (double)w.particles.count, boundary = (double)fc_sph_family_boundary(&w)->count;
            printf("%-18s fluid %8.0f estimated %8.0f   boundary %8.0f estimated %8.0f\n", scenes[i], fluid, e.fluid,
                   boundary, e.structures);
            CHECK(fabs(e.fluid - fluid) <= 0.05 * fluid, "%s: fluid estimate %g against %g built", scenes[i], e.fluid, fluid);
            CHECK(fabs(e.structures - boundary) <= 0.15 * boundary, "%s: boundary estimate %g against %g built", scenes[i],
                  e.structures, boundary);
            fc_cost built = fc_world_cost(&w, fluid);
            CHECK(fabs(built.particles - e.cost.particles) <= 0.1 * built.particles, "%s: the cost counts both", scenes[i]);
            fc_world_free(&w);
        } else {
            CHECK(0, "%s builds: %s", scenes[i], err);
        }
        fc_scene_free(&scene);
    }
}

/* Fluid that colliders cut away is counted point by point: the estimate of box blocks is exact with
 * overlapping colliders and planes; past the work limit it is left in (the estimate stays above). */
static void test_estimate_counts_cut_away(void)
{
    const char *json = "{\"domain\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1]}, \"fluid\": [{\"type\": \"box\","
                       " \"min\": [0, 0, 0], \"max\": [1, 0.4, 1]}, {\"type\": \"box\", \"min\": [0.05, 0.45, 0.05],"
                       " \"max\": [0.55, 0.7, 0.55]}], \"colliders\": [{\"type\": \"sphere\", \"center\": [0.3, 0.4, 0.3],"
                       " \"radius\": 0.17}, {\"type\": \"box\", \"center\": [0.4, 0.35, 0.3], \"half_extents\": [0.2, 0.05, 0.1]},"
                       " {\"type\": \"plane\", \"point\": [0, 0.03, 0], \"normal\": [0.1, 1, 0]}]}";
    fc_scene scene;
    fc_world w;
    char err[512];
    if (fc_scene_parse_string(&scene, json, "cut.json", err, sizeof err) || fc_scene_instantiate(&scene, &w, err, sizeof err)) {
        CHECK(0, "the cut-away scene builds: %s", err);
        return;
    }
    fc_scene_estimate e;
    fc_scene_estimate_size(&scene, &e);
    CHECK(e.fluid == (double)w.particles.count && w.particles.count < 50 * 20 * 50 + 25 * 13 * 25,
          "the estimate counts the cut-away exactly: %g against %zu built", e.fluid, w.particles.count);
    fc_world_free(&w);
    /* 1 mm spacing: 20 M points, each near the plane checked twice, is past the work limit */
    scene.params.particle_spacing = 0.001, scene.params.smoothing_radius = 0.002, scene.params.max_particles = 50000000;
    scene.block_count = 1, scene.blocks[0].max[1] = 0.02f; /* the three colliders stay */
    fc_scene_estimate_size(&scene, &e);
    CHECK(e.fluid == 1000.0 * 20 * 1000, "past the work limit nothing is subtracted: %g", e.fluid);
    fc_scene_free(&scene);
}

static void test_reservations_add_up(void)
{
    fc_budget b;
    CHECK(fc_budget_init(&b, 1000.0, 1e6) == 0, "a budget");
    fc_cost a = {0, 0}, c = {0, 0};
    char why[256] = "";
    CHECK(fc_budget_try_change(&b, &a, (fc_cost){600, 1000}, why, sizeof why) == 0, "600 of 1000 particles fit");
    CHECK(fc_budget_try_change(&b, &c, (fc_cost){600, 1000}, why, sizeof why) == -1, "600 more do not");
    CHECK(strstr(why, "400") != NULL, "the refusal says what is free: %s", why);
    CHECK(c.particles == 0 && b.used.particles == 600, "a refusal changes nothing");
    CHECK(fc_budget_try_change(&b, &a, (fc_cost){900, 1000}, why, sizeof why) == 0,
          "a world may grow into what it holds plus what is free (900 in place of its 600)");
    CHECK(fc_budget_try_change(&b, &c, (fc_cost){0, 2e6}, why, sizeof why) == -1, "memory is a limit too");
    fc_budget_set(&b, &a, (fc_cost){0, 0});
    CHECK(b.used.particles == 0 && b.used.bytes == 0, "releasing gives everything back");
    fc_budget_free(&b);
}

/* A fountain in a world whose budget leaves room for 3,000 more particles: it emits until the
 * budget is used, then waits; the world never holds more than its budget. */
static void test_emitters_stop_at_the_budget(void)
{
    fc_scene scene;
    char err[512];
    if (parse(&scene, "fountain", "max_particles=2000000")) {
        CHECK(0, "fountain parses");
        return;
    }
    fc_world w;
    if (fc_scene_instantiate(&scene, &w, err, sizeof err)) {
        CHECK(0, "fountain builds: %s", err);
        return;
    }
    for (const fc_object *sink; (sink = fc_objects_next(&w.objects, FC_OBJECT_SINK, NULL));) /* no drain: it only grows */
        fc_world_remove_object(&w, sink->id);
    fc_budget b;
    fc_cost start = fc_world_cost(&w, (double)w.particles.count);
    fc_budget_init(&b, start.particles + 3000.0, 1e12);
    w.budget = &b;
    CHECK(fc_budget_try_change(&b, &w.budget_held, start, NULL, 0) == 0, "the world's own particles fit");
    for (int step = 0; step < 6000; step++) fc_emitters_step(&w, w.params.time_step * 4.0);
    const size_t samples = fc_sph_family_boundary(&w)->count;
    double total = (double)(w.particles.count + samples);
    CHECK(w.particles.count > (size_t)(start.particles - samples) + 2000, "the fountain emitted (%zu particles)",
          w.particles.count);
    CHECK(total <= b.limit.particles, "it stopped within the budget: %g of %g particles", total, b.limit.particles);
    CHECK(b.used.particles <= b.limit.particles && b.used.particles >= total, "the reservation covers them (%g)",
          b.used.particles);
    fc_world_free(&w);
    CHECK(b.used.particles == 0, "freeing the world releases its reservation");
    fc_budget_free(&b);
    fc_scene_free(&scene);
}

/* issue 40: blocks that overlap earlier ones are counted exactly, however many: 64 copies of a
 * 0.9 m cube are its 45^3 = 91,125 points (they were "about 2 M", max_particles, past the work
 * limit); shifted boxes, spheres and a collider together as the fill builds them. */
static void test_estimate_overlapping_blocks(void)
{
    char json[64 * 80 + 256], err[512];
    int used = snprintf(json, sizeof json, "{\"domain\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1]}, "
                                           "\"parameters\": {\"particle_spacing\": 0.02}, \"fluid\": [");
    for (int i = 0; i < 64; i++)
        used += snprintf(json + used, sizeof json - (size_t)used, "%s{\"type\": \"box\", \"min\": [0.05, 0.05, 0.05], "
                         "\"max\": [0.95, 0.95, 0.95]}", i ? ", " : "");
    snprintf(json + used, sizeof json - (size_t)used, "]}");
    fc_scene scene;
    fc_scene_estimate e;
    if (fc_scene_parse_string(&scene, json, "cubes.json", err, sizeof err)) {
        CHECK(0, "64 cubes parse: %s", err);
        return;
    }
    fc_scene_estimate_size(&scene, &e);
    CHECK(e.fluid == 91125.0, "64 copies of a 0.9 m cube: %g fluid particles estimated, 91125 built", e.fluid);
    fc_scene_free(&scene);

    const char *mixed = "{\"domain\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1]}, \"parameters\": {\"particle_spacing\": 0.04},"
                        " \"fluid\": [{\"type\": \"box\", \"min\": [0, 0, 0], \"max\": [0.6, 0.5, 0.6]},"
                        " {\"type\": \"box\", \"min\": [0.3, 0.1, 0.3], \"max\": [0.9, 0.62, 0.9]},"
                        " {\"type\": \"sphere\", \"center\": [0.5, 0.5, 0.5], \"radius\": 0.3},"
                        " {\"type\": \"box\", \"min\": [0.31, 0.02, 0.05], \"max\": [0.97, 0.8, 0.45]},"
                        " {\"type\": \"box\", \"min\": [0, 0, 0], \"max\": [0.6, 0.5, 0.6]}],"
                        " \"colliders\": [{\"type\": \"sphere\", \"center\": [0.5, 0.3, 0.5], \"radius\": 0.15}]}";
    fc_world w;
    if (fc_scene_parse_string(&scene, mixed, "mixed.json", err, sizeof err) || fc_scene_instantiate(&scene, &w, err, sizeof err)) {
        CHECK(0, "the overlapping blocks build: %s", err);
        return;
    }
    fc_scene_estimate_size(&scene, &e);
    printf("overlapping blocks   fluid %8zu estimated %8.0f\n", w.particles.count, e.fluid);
    CHECK(fabs(e.fluid - (double)w.particles.count) <= 0.02 * (double)w.particles.count,
          "overlapping boxes and a sphere: %g estimated, %zu built", e.fluid, w.particles.count);
    fc_world_free(&w);
    fc_scene_free(&scene);
}

/* issue 40: a message's two byte counts never read alike ("16 MB or more, more than the 16 MB") */
static void test_bytes_apart(void)
{
    char a[40], b[40], msg[512];
    fc_format_bytes_apart(16.02e6, 16e6, a, b, sizeof a);
    CHECK(strcmp(a, "16.02 MB") == 0 && strcmp(b, "16 MB") == 0, "16.02 MB against 16 MB: '%s', '%s'", a, b);
    fc_format_bytes_apart(16000001.0, 16e6, a, b, sizeof a);
    CHECK(strcmp(a, "16000001 bytes") == 0 && strcmp(b, "16000000 bytes") == 0, "a byte apart: '%s', '%s'", a, b);
    fc_format_bytes_apart(35e6, 16e6, a, b, sizeof a);
    CHECK(strcmp(a, "35 MB") == 0 && strcmp(b, "16 MB") == 0, "far apart, as fc_format_bytes: '%s', '%s'", a, b);
    fc_neighbour_overflow_message(16.02e6, 16e6, msg, sizeof msg);
    CHECK(strstr(msg, "would need 16.02 MB or more, more than the 16 MB this world may use") != NULL, "%s", msg);
    fc_neighbour_overflow_message(15e6, 16e6, msg, sizeof msg); /* the extrapolation below the cap it passed */
    CHECK(strstr(msg, "would need more than the 16 MB this world may use") != NULL, "%s", msg);
}

int main(void)
{
    test_bytes_apart();
    test_reservations_add_up();
    test_estimates_match_builds();
    test_estimate_counts_cut_away();
    test_estimate_overlapping_blocks();
    test_emitters_stop_at_the_budget();
    return check_summary("test_budget");
}
