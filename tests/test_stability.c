/* The blow-up checks (core/stability.h) against real blow-ups and real flows: the configurations
 * that blow up are caught within 2 s of simulated time and name their cause; the shipped scenes
 * run 2 s without a false alarm; a checkpoint puts a world back exactly; a step interrupted by its
 * driver moves nothing; the adaptive step is each stability condition's bound where it binds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/checkpoint.h"
#include "core/scene.h"
#include "core/solver.h"
#include "core/stability.h"
#include "core/world.h"
#include "solvers/sph_family.h"

/* Loads a shipped scene with parameter assignments ("name=value") on top; 0 on success. */
static int load(fc_world *w, const char *scene_name, const char *const *sets)
{
    char path[4096], err[512];
    fc_scene scene;
    if (fc_scene_resolve(scene_name, path, sizeof path) || fc_scene_parse_file(&scene, path, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", scene_name, err);
        return -1;
    }
    int failed = 0;
    for (const char *const *s = sets; s && *s && !failed; s++)
        if (fc_param_assign_scoped(&scene.params, scene.fluids, scene.fluid_count, *s, err, sizeof err)) fprintf(stderr, "%s: %s\n", *s, err), failed = 1;
    failed = failed || fc_scene_instantiate(&scene, w, err, sizeof err) != 0;
    if (failed) fprintf(stderr, "%s: %s\n", scene_name, err);
    fc_scene_free(&scene);
    return failed ? -1 : 0;
}

/* Steps until the check fires or `seconds` pass; the simulated time it fired at, or -1. */
static double run_until_unstable(fc_world *w, double seconds, fc_instability *r)
{
    fc_stability_watch watch = {0};
    memset(r, 0, sizeof *r);
    while (w->time < seconds) {
        if (fc_world_step(w) != FC_STEP_DONE) {
            fc_instability_solver_failed(w, r);
            return w->time;
        }
        fc_world_stats s;
        fc_world_stats_compute(w, &s);
        if (fc_stability_watch_step(&watch, w, &s, r)) return w->time;
    }
    return -1.0;
}

/* The coarse versions (2 cm -> 4 cm spacing, 8 times fewer particles) keep the flows' speeds. */
#define COARSE "particle_spacing=0.04", "smoothing_radius=0.08", "particle_radius=0.02"

static void test_blow_ups_are_caught(void)
{
    static const struct {
        const char *what, *scene, *sets[8], *cause_mentions;
    } cases[] = {
        /* fixed steps too long for the flow (the adaptive step, the default, would shorten them) */
        {"fixed time_step 0.02 with viscosity 0", "dam_break",
         {COARSE, "time_step=0.02", "viscosity=0", "adaptive_time_step=false", NULL}, "time_step"},
        {"speed_of_sound at its maximum, fixed step", "dam_break",
         {COARSE, "speed_of_sound=1000", "adaptive_time_step=false", NULL}, "speed_of_sound"},
        {"stiffness at its maximum (linear), fixed step", "dam_break",
         {COARSE, "equation_of_state=linear", "stiffness=1000000", "adaptive_time_step=false", NULL}, "stiffness"},
        {"gravity 100 up", "dam_break", {COARSE, "gravity_y=100", NULL}, "gravity"},
        {"gravity 100 down", "dam_break", {COARSE, "gravity_y=-100", NULL}, "gravity"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fc_world w;
        if (load(&w, cases[i].scene, cases[i].sets)) {
            CHECK(0, "%s: the scene loads", cases[i].what);
            continue;
        }
        fc_instability r;
        double t = run_until_unstable(&w, 2.0, &r);
        printf("%-36s caught at t = %.3f s by %s: %s\n    cause: %s\n", cases[i].what, t, r.check ? r.check : "-",
               r.message, r.cause);
        CHECK(t >= 0.0 && t <= 2.0, "%s: caught within 2 s of simulated time (t = %g)", cases[i].what, t);
        CHECK(strstr(r.cause, cases[i].cause_mentions) != NULL, "%s: the cause names %s: %s", cases[i].what,
              cases[i].cause_mentions, r.cause);
        fc_world_free(&w);
    }
}

/* Simulated seconds the shipped scenes run without an alarm: a fifth in the short variant (`--short`,
 * the sanitizer builds; the Release build's `long` tests run every shipped scene for 3 s). */
static double shipped_scene_share = 1.0;

static void test_shipped_scenes_raise_no_alarm(void)
{
    /* the small ones as shipped, the big ones coarse (their flows keep their speeds) */
    static const struct {
        const char *scene;
        int coarse;
        double seconds;
    } runs[] = {{"dam_break", 1, 2.0}, {"double_dam_break", 1, 2.0}, {"dam_break_pbf", 1, 1.0}, {"fountain", 0, 1.0},
                {"water_drop", 1, 1.0}};
    static const char *const coarse[] = {COARSE, NULL}, *const pbf_coarse[] = {COARSE, NULL}; /* relaxation follows the spacing */
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        const char *const *sets = !runs[i].coarse ? NULL : strstr(runs[i].scene, "pbf") ? pbf_coarse : coarse;
        fc_world w;
        if (load(&w, runs[i].scene, sets)) {
            CHECK(0, "%s loads", runs[i].scene);
            continue;
        }
        fc_instability r;
        double t = run_until_unstable(&w, runs[i].seconds * shipped_scene_share, &r);
        CHECK(t < 0.0, "%s: no alarm, but %s at t = %g: %s", runs[i].scene, r.check, t, r.message);
        fc_world_free(&w);
    }
}

/* A scene that sets a finer spacing and no particle_radius (as "Restart with these settings" does
 * after a spacing edit): the collision radius follows the spacing (half of it), so the fluid filled
 * half a spacing from the walls rests there. With the old fixed 1 cm radius, twice this block's
 * half spacing, the walls threw the first layers inward and the watch fired within a dozen steps. */
static void test_spacing_without_radius(void)
{
    static const char *const json =
        "{\"name\": \"fine_block\", \"domain\": {\"min\": [0, 0, 0], \"max\": [0.2, 0.3, 0.2]},"
        " \"parameters\": {\"particle_spacing\": 0.01},"
        " \"fluid\": [{\"type\": \"box\", \"min\": [0, 0, 0], \"max\": [0.2, 0.12, 0.2]}]}";
    char err[512] = "";
    fc_scene scene;
    fc_world w;
    if (fc_scene_parse_string(&scene, json, "fine_block.json", err, sizeof err)) {
        CHECK(0, "the block parses: %s", err);
        return;
    }
    const int rc = fc_scene_instantiate(&scene, &w, err, sizeof err);
    fc_scene_free(&scene);
    CHECK(rc == 0, "the block builds: %s", err);
    if (rc) return;
    fc_instability r;
    const double t = run_until_unstable(&w, 0.2 * shipped_scene_share, &r);
    CHECK(t < 0.0, "a 1 cm block without particle_radius: no alarm, but %s at t = %g: %s", r.check, t, r.message);
    fc_world_free(&w);
}

static void test_non_finite_is_caught(void)
{
    fc_world w;
    static const char *const coarse[] = {COARSE, NULL};
    if (load(&w, "dam_break", coarse)) { CHECK(0, "dam_break loads"); return; }
    w.particles.field[FC_VY][7] = NAN;
    fc_world_stats s;
    fc_world_stats_compute(&w, &s);
    fc_instability r;
    CHECK(fc_world_check_stability(&w, &s, &r) == 1 && strcmp(r.check, "non_finite") == 0, "a NaN velocity is caught");
    fc_world_free(&w);
}

/* Sum over particles of id-weighted positions: the same set of particles at the same places. */
static double position_signature(const fc_world *w)
{
    double sum = 0.0;
    for (size_t i = 0; i < w->particles.count; i++)
        sum += (w->particles.id[i] % 97 + 1) * ((double)w->particles.field[FC_PX][i] + 3.0 * w->particles.field[FC_PY][i] +
                                                7.0 * w->particles.field[FC_PZ][i]);
    return sum;
}

static void test_checkpoint_restores_the_state(void)
{
    fc_world w;
    static const char *const coarse[] = {COARSE, NULL};
    if (load(&w, "fountain", coarse)) { CHECK(0, "fountain loads"); return; }
    for (int i = 0; i < 100; i++) fc_world_step(&w);
    fc_checkpoint c = {0};
    CHECK(fc_checkpoint_take(&c, &w) == 0, "a checkpoint is taken");
    const double time = w.time, signature = position_signature(&w);
    const size_t count = w.particles.count;
    const uint32_t next_id = w.particles.next_id;
    const double gravity = w.params.gravity_y;
    const fc_thermal_contact floor = w.walls[2];
    w.params.gravity_y = 50.0;
    w.walls[2] = (fc_thermal_contact){400.0f, 5000.0f}; /* a walls_update after the checkpoint */
    for (int i = 0; i < 200; i++) fc_world_step(&w);
    CHECK(w.particles.count != count || position_signature(&w) != signature, "the world moved on");
    CHECK(fc_checkpoint_restore(&c, &w) == 0, "the checkpoint is put back");
    CHECK(w.time == time && w.particles.count == count, "time %g and count %zu are back (%g, %zu)", time, count, w.time,
          w.particles.count);
    CHECK(position_signature(&w) == signature, "every particle is back where it was");
    CHECK(w.params.gravity_y == gravity, "the parameters are back");
    CHECK(w.walls[2].temperature == floor.temperature && w.walls[2].heat_transfer == floor.heat_transfer,
          "the walls' thermal contact is back (%g K, %g W/(m^2 K))", w.walls[2].temperature, w.walls[2].heat_transfer);
    CHECK(w.particles.next_id >= next_id, "ids emitted since are not given again (next id %u >= %u)",
          (unsigned)w.particles.next_id, (unsigned)next_id);
    CHECK(fc_world_step(&w) == FC_STEP_DONE, "the world steps on");
    fc_checkpoint_free(&c);
    fc_world_free(&w);
}

static void test_interrupted_step_moves_nothing(void)
{
    static const char *const solvers[] = {"sph", "pbf"};
    static const char *const coarse[] = {COARSE, NULL};
    for (int k = 0; k < 2; k++) {
        fc_world w;
        if (load(&w, "dam_break", coarse)) { CHECK(0, "dam_break loads"); return; }
        char err[256];
        fc_world_switch_solver(&w, solvers[k], err, sizeof err);
        for (int i = 0; i < 20; i++) fc_world_step(&w);
        /* a jet due to emit at every step: a step the host retries while a reset waits must not
         * emit again each time (layers piled on one spot blew worlds up) */
        const fc_object jet = fc_emitter_row((float[]){1.2f, 0.7f, 0.3f}, (float[]){0.0f, -1.0f, 0.0f}, 0.03f, 1.0f, 1e5f, 0);
        CHECK(fc_world_add_object(&w, &jet) >= 0, "%s: the jet is added", solvers[k]);
        atomic_int interrupt;
        atomic_init(&interrupt, 1);
        w.interrupt = &interrupt;
        const double time = w.time, signature = position_signature(&w);
        const size_t count = w.particles.count;
        CHECK(fc_world_step(&w) == FC_STEP_INTERRUPTED, "%s: the step ends early", solvers[k]);
        for (int retry = 0; retry < 50; retry++) fc_world_step(&w);
        CHECK(w.time == time, "%s: the clock did not move", solvers[k]);
        CHECK(w.particles.count == count, "%s: 51 interrupted steps emitted nothing (%zu particles, were %zu)", solvers[k],
              w.particles.count, count);
        CHECK(fabs(position_signature(&w) - signature) <= 1e-9 * fabs(signature), "%s: no particle moved", solvers[k]);
        atomic_store(&interrupt, 0);
        CHECK(fc_world_step(&w) == FC_STEP_DONE && w.time > time, "%s: the next step runs", solvers[k]);
        CHECK(w.particles.count > count, "%s: and it emits (%zu particles)", solvers[k], w.particles.count);
        fc_world_free(&w);
    }
}

/* The step a world would take next, and which condition bound it, must be `want` and `bound`. */
static void check_next_dt(fc_world *w, const char *what, double want, fc_dt_bound bound)
{
    fc_step_limit limit;
    fc_world_choose_dt(w, &limit);
    CHECK(fabs(limit.dt - want) <= 1e-9 * want && limit.bound == bound, "%s: dt %g s bound by %s (want %g s by %s)", what,
          limit.dt, fc_dt_bound_name(limit.bound), want, fc_dt_bound_name(bound));
    CHECK(fc_world_step(w) == FC_STEP_DONE && w->last_dt == limit.dt && w->last_dt_bound == limit.bound,
          "%s: the step taken is that one (%g s, %s)", what, w->last_dt, fc_dt_bound_name(w->last_dt_bound));
}

static void test_adaptive_step_conditions(void)
{
    fc_world w;
    /* at rest, h = 0.02 m, c = 20 m/s: the acoustic condition 0.4 h / c = 0.4 ms, below time_step's 0.5 ms */
    if (load(&w, "dam_break_2d", NULL) == 0) {
        check_next_dt(&w, "dam_break_2d at rest", 0.4 * 0.02 / 20.0, FC_DT_ACOUSTIC);
        /* a particle at 5 m/s: 0.4 h / (c + 5) */
        w.particles.field[FC_VX][3] = 5.0f;
        fc_step_limit limit;
        fc_world_choose_dt(&w, &limit);
        CHECK(fabs(limit.dt - 0.4 * 0.02 / 25.0) < 1e-9 && limit.bound == FC_DT_ACOUSTIC,
              "sound and flow together: 0.4 h / (c + |v|max) = %g s, got %g s", 0.4 * 0.02 / 25.0, limit.dt);
        /* the force condition with the acceleration of a step: 0.25 sqrt(h / |a|max) */
        limit = (fc_step_limit){1.0, FC_DT_MAXIMUM};
        fc_wcsph_limit_dt(&w, 0.0, 1e5, &limit);
        CHECK(fabs(limit.dt - 0.25 * sqrt(0.02 / 1e5)) < 1e-12 && limit.bound == FC_DT_FORCE,
              "|a| 1e5 m/s^2: the force condition 0.25 sqrt(h / |a|) = %g s, got %g s by %s", 0.25 * sqrt(0.02 / 1e5),
              limit.dt, fc_dt_bound_name(limit.bound));
        fc_world_free(&w);
    }
    /* nu = mu / rho0 = 1 m^2/s: the viscous condition 0.125 h^2 / nu = 50 us */
    static const char *const syrup[] = {"rest_density=100", "viscosity=100", NULL};
    if (load(&w, "dam_break_2d", syrup) == 0) {
        check_next_dt(&w, "a syrup of nu = 1 m^2/s", 0.125 * 0.02 * 0.02 / 1.0, FC_DT_VISCOUS);
        fc_world_free(&w);
    }
    /* calm and coarse (h = 0.08 m: 1.6 ms acoustic): time_step's cap */
    static const char *const coarse[] = {COARSE, NULL};
    if (load(&w, "dam_break", coarse) == 0) {
        check_next_dt(&w, "coarse dam break at rest", 5e-4, FC_DT_MAXIMUM);
        w.params.adaptive_time_step = 0;
        w.params.time_step = 0.004;
        check_next_dt(&w, "a fixed step", 0.004, FC_DT_FIXED);
        fc_world_free(&w);
    }
    /* PBF: the velocity condition alone, cfl_number h / |v|max (h = 0.04 m, 10 m/s: 1.6 ms < 2 ms) */
    if (load(&w, "dam_break_pbf", NULL) == 0) {
        check_next_dt(&w, "pbf at rest", 2e-3, FC_DT_MAXIMUM);
        for (size_t i = 0; i < w.particles.count; i++) w.particles.field[FC_VY][i] = 0.0f;
        w.particles.field[FC_VY][5] = -10.0f;
        check_next_dt(&w, "pbf, a particle at 10 m/s", 0.4 * 0.04 / 10.0, FC_DT_VELOCITY);
        fc_world_free(&w);
    }
}

int main(int argc, char **argv)
{
    if (check_short_run(argc, argv)) shipped_scene_share = 0.2;
    test_adaptive_step_conditions();
    test_non_finite_is_caught();
    test_interrupted_step_moves_nothing();
    test_checkpoint_restores_the_state();
    test_blow_ups_are_caught();
    test_shipped_scenes_raise_no_alarm();
    test_spacing_without_radius();
    return check_summary("test_stability");
}
