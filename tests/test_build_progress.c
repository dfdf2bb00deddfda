/* Build progress: fc_scene_instantiate_progress reports every phase of the build in order, from
 * the building thread, with done growing from 0 to the phase count; the fluid and boundary phases
 * report layer by layer, the boundary volumes chunk by chunk; the world keeps no pointer to the reporter; a build without one is the same. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/build_progress.h"
#include "core/scene.h"
#include "core/world.h"
#include "solvers/sph_family.h"

#define SCENE                                                                                                     \
    "{\"domain\": {\"min\": [0, 0, 0], \"max\": [0.4, 0.3, 0.2]},"                                               \
    " \"parameters\": {\"particle_spacing\": 0.02, \"smoothing_radius\": 0.04},"                                 \
    " \"fluid\": [{\"type\": \"box\", \"min\": [0, 0, 0], \"max\": [0.1, 0.1, 0.2]},"                              \
    "            {\"type\": \"box\", \"min\": [0.2, 0, 0], \"max\": [0.3, 0.1, 0.2]}],"                            \
    " \"colliders\": [{\"type\": \"sphere\", \"center\": [0.3, 0.2, 0.1], \"radius\": 0.05}]}"

typedef struct seen {
    int count, in_order, in_range, boundary_reports;
    double last_done, total;
    int phase_seen[FC_BUILD_PHASES];
} seen;

static void record(void *ctx, const char *message, double done, double total)
{
    seen *s = ctx;
    static const char *const names[FC_BUILD_PHASES] = {"filling fluid", "sampling boundary",
                                                       "weighing boundary samples", "starting the solver"};
    int phase = (int)floor(done);
    s->in_order &= done >= s->last_done;
    s->in_range &= done >= 0.0 && done < total && total == FC_BUILD_PHASES && phase < FC_BUILD_PHASES &&
                   strcmp(message, names[phase]) == 0;
    if (phase >= 0 && phase < FC_BUILD_PHASES) s->phase_seen[phase]++;
    s->boundary_reports += phase == FC_BUILD_BOUNDARY;
    s->last_done = done;
    s->total = total;
    s->count++;
}

int main(void)
{
    char err[512];
    fc_scene scene;
    CHECK(fc_scene_parse_string(&scene, SCENE, "progress.json", err, sizeof err) == 0, "the scene parses: %s", err);

    seen s = {.in_order = 1, .in_range = 1};
    fc_build_progress progress = {record, &s};
    fc_world w, plain;
    CHECK(fc_scene_instantiate_progress(&scene, &w, &progress, err, sizeof err) == 0, "the scene builds: %s", err);
    CHECK(s.in_order && s.in_range, "reports grow in order, each naming its phase, within 0 to 4");
    for (int p = 0; p < FC_BUILD_PHASES; p++) CHECK(s.phase_seen[p] > 0, "phase %d is reported", p);
    /* each block 0.2 / spacing = 10 layers deep in z, reported layer by layer */
    CHECK(s.phase_seen[FC_BUILD_FLUID] == 20, "the fluid reports each block layer by layer (%d)", s.phase_seen[FC_BUILD_FLUID]);
    CHECK(s.phase_seen[FC_BUILD_VOLUMES] >= 10, "the boundary volumes report as they are weighed, in chunks (%d)",
          s.phase_seen[FC_BUILD_VOLUMES]);
    /* the container is (0.2 + 2 h) / spacing = 14 layers deep in z, the sphere's box 5 more */
    CHECK(s.boundary_reports >= 14, "the boundary reports layer by layer (%d)", s.boundary_reports);
    CHECK(w.build_progress == NULL, "the world keeps no pointer to the reporter");

    CHECK(fc_scene_instantiate(&scene, &plain, err, sizeof err) == 0, "the same build without a reporter: %s", err);
    const size_t plain_samples = fc_sph_family_boundary(&plain)->count, samples = fc_sph_family_boundary(&w)->count;
    CHECK(plain.particles.count == w.particles.count && plain_samples == samples,
          "builds the same world (%zu and %zu particles, %zu and %zu boundary samples)", plain.particles.count,
          w.particles.count, plain_samples, samples);
    fc_build_progress_report(NULL, FC_BUILD_FLUID, 0.5); /* no reporter: nothing happens */

    fc_world_free(&w);
    fc_world_free(&plain);
    fc_scene_free(&scene);
    return check_summary("test_build_progress");
}
