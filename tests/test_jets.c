/* Jets onto colliders do not stack (issue 23 item 7): a jet straight down at 2 m/s onto a sphere
 * (3D) and onto a circle (2D, seed 004's emitter onto a circle) for 10 s. On-axis particles meet
 * head-on on the solid's top, where an elastic pressure exchange flings them up at 5-25 m/s until
 * the stability watch pauses the world; the artificial viscosity (Monaghan 1992) that both scenes
 * turn on (artificial_viscosity 0.1) makes such meetings inelastic. No particle may move faster
 * than twice the jet's speed plus the speed of a free fall from the emitter to the floor, and the
 * stability watch never fires. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/scene.h"
#include "core/stability.h"
#include "core/world.h"

#define JET_SPEED 2.0

static void jet_stays_bounded(const char *path, double seconds)
{
    char err[512] = "";
    fc_scene scene;
    fc_world w;
    if (fc_scene_parse_file(&scene, path, err, sizeof err)) {
        CHECK(0, "%s parses: %s", path, err);
        return;
    }
    const int built = fc_scene_instantiate(&scene, &w, err, sizeof err);
    fc_scene_free(&scene);
    if (built) {
        CHECK(0, "%s builds: %s", path, err);
        return;
    }
    const fc_object *emitter = fc_objects_next(&w.objects, FC_OBJECT_EMITTER, NULL);
    const double drop = emitter ? emitter->shape.center[1] - w.domain_lo[1] : 0.0;
    const double bound = 2.0 * JET_SPEED + sqrt(2.0 * 9.81 * drop);
    fc_stability_watch watch = {0};
    fc_instability r;
    memset(&r, 0, sizeof r);
    double fastest = 0.0, fastest_at = 0.0;
    int fired = 0, failed = 0;
    while (w.time < seconds && !fired && !failed) {
        failed = fc_world_step(&w) != FC_STEP_DONE;
        fc_world_stats s;
        fc_world_stats_compute(&w, &s);
        if (s.max_speed > fastest) fastest = s.max_speed, fastest_at = w.time;
        fired = fc_stability_watch_step(&watch, &w, &s, &r);
    }
    printf("%s: %.1f s, %zu particles at the end; fastest %.2f m/s at %.3f s (bound %.2f m/s)%s%s\n", w.name, w.time,
           w.particles.count, fastest, fastest_at, bound, fired ? "; the watch fired: " : "", fired ? r.message : "");
    CHECK(!failed && !fired, "%s: every step succeeds and the stability watch never fires (%s)", w.name,
          fired ? r.message : "quiet");
    CHECK(w.particles.count > 50, "%s: the jet flows (%zu particles)", w.name, w.particles.count);
    CHECK(fastest < bound, "%s: nothing faster than twice the jet plus free fall (%.2f < %.2f m/s)", w.name, fastest,
          bound);
    fc_world_free(&w);
}

int main(int argc, char **argv)
{
    const double seconds = check_short_run(argc, argv) ? 1.5 : 10.0; /* the first impacts come at 0.1-0.4 s */
    jet_stays_bounded(FLUIDCAST_TESTS_DIR "/scenes/jet_on_sphere.json", seconds);
    jet_stays_bounded(FLUIDCAST_TESTS_DIR "/scenes/jet_on_circle_2d.json", seconds);
    return check_summary("test_jets");
}
