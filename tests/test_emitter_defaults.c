/* "+ Emitter" in every shipped scene: the server's defaults for an emitter without a place or a rate
 * (core/emitter_place.h, what emitter_add does) put the nozzle above the fluid, aimed down, with the
 * rate of the world's dimensions; then 10 s of simulated time run without a blow-up, or the
 * container's fill time (the notice the ack carries) came before it, the tank about full when it
 * blew up (at least 80% of that time) and the blow-up's cause saying so. Each scene runs at a whole
 * multiple of its spacing that starts it with at most 3,500 particles (the same flows, affordable).
 * ctest runs 1 s of each in the Release build, 0.25 s in the sanitizer builds (--short); --full runs the
 * 10 s of issue 41's acceptance (17 minutes there): dam_break_2d, double_dam_break_2d and
 * two_fluids then blow up (Mach 0.2 at 3.8, 5.7 and 2.6 s) before their tanks fill, with no notice
 * that explains it: not yet met. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/emitter_place.h"
#include "core/scene.h"
#include "core/scene_list.h"
#include "core/stability.h"
#include "core/world.h"

static int full_run;
#define MAX_PARTICLES 3500.0

/* Loads a shipped scene with its spacing, smoothing radius and particle radius times `coarse`. */
static int load(fc_world *w, const char *name, double coarse)
{
    char path[4096], err[512];
    fc_scene scene;
    if (fc_scene_resolve(name, path, sizeof path) || fc_scene_parse_file(&scene, path, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", name, err);
        return -1;
    }
    if (coarse > 1.0) {
        fc_params_resolve_smoothing(&scene.params);
        const double radius = fc_params_particle_radius(&scene.params);
        scene.params.particle_spacing *= coarse, scene.params.smoothing_radius *= coarse;
        scene.params.particle_radius = coarse * radius;
    }
    const int rc = fc_scene_instantiate(&scene, w, err, sizeof err);
    if (rc) fprintf(stderr, "%s: %s\n", name, err);
    fc_scene_free(&scene);
    return rc;
}

/* The highest liquid particle within the disc's reach (radius + spacing) across the up axis. */
static double fluid_top_under(const fc_world *w, const fc_object *e, int up)
{
    const double reach = e->shape.radius + w->params.particle_spacing;
    double top = -INFINITY;
    for (size_t i = 0; i < w->particles.count; i++) {
        double d2 = 0.0;
        for (int a = 0; a < 3; a++)
            if (a != up) d2 += pow((double)w->particles.field[FC_PX + a][i] - e->shape.center[a], 2);
        if (d2 <= reach * reach) top = fmax(top, w->particles.field[FC_PX + up][i]);
    }
    return top;
}

static void check_scene(const char *name, double seconds)
{
    fc_world w;
    if (load(&w, name, 1.0)) {
        CHECK(0, "%s loads", name);
        return;
    }
    /* coarse enough to start with at most MAX_PARTICLES: the same flows, affordable for 10 s */
    const double coarse = fmax(1.0, ceil(pow((double)w.particles.count / MAX_PARTICLES, 1.0 / w.dimensions)));
    if (coarse > 1.0) {
        fc_world_free(&w);
        if (load(&w, name, coarse)) {
            CHECK(0, "%s loads %g times coarser", name, coarse);
            return;
        }
    }
    fc_object e = fc_emitter_default_row(&w);
    fc_emitter_place place;
    fc_emitter_complete(&w, &e, 0, 0, 0, &place);
    const int up = place.up;
    const double s = w.params.particle_spacing, top = fluid_top_under(&w, &e, up);
    const double rate = w.dimensions == 2 ? 2.0 * e.shape.radius * e.emitter.speed / (s * s)
                                          : 3.14159265358979 * e.shape.radius * e.shape.radius * e.emitter.speed / (s * s * s);
    CHECK(fabs(e.emitter.rate - rate) < 1e-3 * rate, "%s: the rate of a %dD jet, %g particles/s (got %g)", name, w.dimensions,
          rate, e.emitter.rate);
    CHECK(e.shape.normal[up] == -1.0f, "%s: aimed down", name);
    const int room = place.room >= 2.0 * s;
    CHECK(!room || e.shape.center[up] > top + 0.5 * s, "%s: the nozzle (at %g m) is above the fluid under it (%g m)", name,
          e.shape.center[up], top);
    fc_world_add_object(&w, &e);
    fc_fill_estimate fill;
    fc_emitters_fill_estimate(&w, &fill);
    fc_stability_watch watch = {0};
    fc_instability r;
    memset(&r, 0, sizeof r);
    double blew = -1.0;
    while (w.time < seconds && blew < 0.0) {
        if (fc_world_step(&w) != FC_STEP_DONE) {
            fc_instability_solver_failed(&w, &r);
            blew = w.time;
            break;
        }
        fc_world_stats st;
        fc_world_stats_compute(&w, &st);
        if (fc_stability_watch_step(&watch, &w, &st, &r)) blew = w.time;
    }
    printf("%-22s x%g %dD nozzle %c = %.3g m over %.3g m of fluid (room %.3g m), %.0f particles/s, fills in %.3g s; %s%.3g s (%s)\n",
           name, coarse, w.dimensions, "xyz"[up], e.shape.center[up], top, place.room, e.emitter.rate, fill.seconds,
           blew < 0.0 ? "stable to " : "blew up at ", blew < 0.0 ? w.time : blew, blew < 0.0 ? "" : r.check);
    /* the notice came with the emitter; it told of this blow-up when the tank was about full by then,
     * and the blow-up's cause says so */
    CHECK(blew < 0.0 || (fill.seconds <= 1.25 * blew && strstr(r.cause, "container is full")),
          "%s: no blow-up in %g s, or the notice that the tank is full (in %g s) before it: blew up at %g s, %s: %s; "
          "cause: %s", name, seconds, fill.seconds, blew, r.check, r.message, r.cause);
    fc_world_free(&w);
}

int main(int argc, char **argv)
{
    int short_run = 0;
    for (int i = 1; i < argc; i++) {
        full_run |= strcmp(argv[i], "--full") == 0;
        short_run |= strcmp(argv[i], "--short") == 0;
    }
    size_t count = 0;
    char **names = fc_scene_list(fc_scenes_dir(), &count);
    CHECK(names && count > 0, "the shipped scenes are listed (%s)", fc_scenes_dir());
    const char *only = getenv("FC_SCENE"); /* one scene, for a look at it */
    for (size_t i = 0; i < count; i++)
        if (!only || strcmp(only, names[i]) == 0) check_scene(names[i], full_run ? 10.0 : short_run ? 0.25 : 1.0);
    fc_scene_list_free(names, count);
    return check_summary("test_emitter_defaults");
}
