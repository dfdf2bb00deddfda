/* Heat against physics: conduction between two half-blocks follows the error-function solution of
 * the heat equation, conduction keeps the total heat sum m c T of a moving fluid, the step respects
 * the thermal stability condition, nothing changes temperature with conduction off, and a warm
 * blob of fluid that expands rises through the cold fluid around it (Cleary and Monaghan 1999). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "world_checks.h"
#include "core/scene.h"

/* Two half-blocks of one fluid, 280 K and 360 K, meeting at x = 0.2 m in a 2D tank without gravity
 * (so nothing moves): alpha = 1e-3 m^2/s. */
static const char *const HALVES =
    "{\"name\": \"halves_2d\", \"dimensions\": 2, \"solver\": \"sph\","
    " \"domain\": {\"min\": [0, 0], \"max\": [0.4, 0.2]},"
    " \"parameters\": {\"particle_spacing\": 0.01, \"particle_radius\": 0.005, \"gravity_y\": 0,"
    "                  \"heat_conduction\": \"cleary_monaghan\"},"
    " \"fluids\": [{\"name\": \"cold\", \"temperature\": 280, \"thermal_diffusivity\": 0.001, \"thermal_expansion\": 0},"
    "            {\"name\": \"hot\", \"temperature\": 360, \"thermal_diffusivity\": 0.001, \"thermal_expansion\": 0}],"
    " \"fluid\": [{\"type\": \"box\", \"min\": [0, 0], \"max\": [0.2, 0.2], \"fluid\": \"cold\"},"
    "           {\"type\": \"box\", \"min\": [0.2, 0], \"max\": [0.4, 0.2], \"fluid\": \"hot\"}]}";

/* A cold column and a lower warm one side by side collapse in a 3D tank: the fluid moves, splashes
 * and mixes while heat flows; two fluids of different specific heats, the warm one expanding. */
static const char *const COLLAPSE = FLUIDCAST_TESTS_DIR "/scenes/warm_cold_collapse.json";

/* Cold water over a warm blob at the bottom of a 2D tank; the blob's fluid expands 3e-3 per kelvin,
 * so at 60 K above the water it is 18% lighter. Insulating (no conduction): only buoyancy acts. */
static const char *const WARM_BLOB =
    "{\"name\": \"warm_blob_2d\", \"dimensions\": 2, \"solver\": \"sph\","
    " \"domain\": {\"min\": [0, 0], \"max\": [0.3, 0.35]},"
    " \"parameters\": {\"particle_spacing\": 0.01, \"particle_radius\": 0.005},"
    " \"fluids\": [{\"name\": \"water\", \"temperature\": 290, \"thermal_expansion\": 0.003},"
    "            {\"name\": \"warm\", \"temperature\": 290, \"thermal_expansion\": 0.003}],"
    " \"fluid\": [{\"type\": \"box\", \"min\": [0, 0], \"max\": [0.11, 0.3], \"fluid\": \"water\"},"
    "           {\"type\": \"box\", \"min\": [0.19, 0], \"max\": [0.3, 0.3], \"fluid\": \"water\"},"
    "           {\"type\": \"box\", \"min\": [0.11, 0.08], \"max\": [0.19, 0.3], \"fluid\": \"water\"},"
    "           {\"type\": \"box\", \"min\": [0.11, 0], \"max\": [0.19, 0.08], \"fluid\": \"warm\"}]}";

/* Water at 290 K in a 2D tank whose floor is held at 330 K (heat_transfer 2,000 W/(m^2 K)); the
 * water expands 3e-3 per kelvin, so the warmed layer is lighter than the water above it. */
static const char *const HOT_FLOOR =
    "{\"name\": \"hot_floor_2d\", \"dimensions\": 2, \"solver\": \"sph\","
    " \"domain\": {\"min\": [0, 0], \"max\": [0.3, 0.25]},"
    " \"walls\": {\"y_min\": {\"temperature\": 330, \"heat_transfer\": 2000}},"
    " \"parameters\": {\"particle_spacing\": 0.01, \"particle_radius\": 0.005, \"heat_conduction\": \"cleary_monaghan\"},"
    " \"fluids\": [{\"name\": \"water\", \"temperature\": 290, \"thermal_diffusivity\": 0.0002, \"thermal_expansion\": 0.003}],"
    " \"fluid\": [{\"type\": \"box\", \"min\": [0, 0], \"max\": [0.3, 0.2]}]}";

/* The scene in `json` (or in the file `json` names when it ends in .json) built and started into w;
 * on failure (counted as a check) w holds nothing to free. */
static int load(fc_world *w, const char *json, const char *name, const char *solver)
{
    fc_scene scene;
    char err[512] = "";
    const size_t len = strlen(json);
    const int file = len > 5 && !strcmp(json + len - 5, ".json");
    if (file ? fc_scene_parse_file(&scene, json, err, sizeof err) : fc_scene_parse_string(&scene, json, name, err, sizeof err)) {
        CHECK(0, "%s parses: %s", name, err);
        return -1;
    }
    if (solver) snprintf(scene.solver, sizeof scene.solver, "%s", solver);
    const int rc = fc_scene_instantiate(&scene, w, err, sizeof err); /* frees w when it fails */
    fc_scene_free(&scene);
    CHECK(rc == 0, "%s builds: %s", name, err);
    if (rc) return rc;
    if (start(w)) {
        fc_world_free(w);
        return -1;
    }
    return 0;
}

/* Steps until time t (or n steps when t <= 0); 0, or -1 when a step failed. */
static int run(fc_world *w, double t, int n)
{
    for (int s = 0; t > 0.0 ? w->time < t : s < n; s++)
        if (fc_world_step(w) != 0) {
            CHECK(0, "step %d of %s succeeds", s, w->name);
            return -1;
        }
    return 0;
}

static double total_heat(fc_world *w)
{
    fc_world_stats st;
    fc_world_stats_compute(w, &st);
    return fc_world_stat(&st, "total_heat");
}

/* T(x, t) = (T1 + T2) / 2 + (T2 - T1) / 2 erf((x - x0) / (2 sqrt(alpha t))) for two half-spaces;
 * the tank's walls are insulating and far enough (0.2 m against 2 sqrt(alpha t) = 0.045 m at 0.5 s) that
 * the half-space solution holds. Column means of the particles' temperatures against it. */
static void test_error_function_profile(const char *solver, double seconds)
{
    fc_world w;
    if (load(&w, HALVES, "halves_2d", solver)) return;
    if (run(&w, seconds, 0)) {
        fc_world_free(&w);
        return;
    }
    const double alpha = 1e-3, x0 = 0.2, cold = 280.0, hot = 360.0, spacing = 0.01;
    enum { COLUMNS = 40 };
    double sum[COLUMNS] = {0}, count[COLUMNS] = {0};
    const fc_particles *p = &w.particles;
    for (size_t i = 0; i < p->count; i++) {
        const int c = (int)floor(p->field[FC_PX][i] / spacing);
        if (c < 0 || c >= COLUMNS) continue;
        sum[c] += p->field[FC_TEMPERATURE][i], count[c]++;
    }
    double worst = 0.0, middle_slope = 0.0;
    for (int c = 0; c < COLUMNS; c++) {
        if (!count[c]) continue;
        const double x = (c + 0.5) * spacing;
        const double exact = 0.5 * (cold + hot) + 0.5 * (hot - cold) * erf((x - x0) / (2.0 * sqrt(alpha * w.time)));
        worst = fmax(worst, fabs(sum[c] / count[c] - exact) / (hot - cold));
        if (c == 20) middle_slope = sum[c] / count[c] - sum[c - 1] / count[c - 1];
    }
    printf("%s: erf profile at t = %.3f s: largest column error %.2f%% of the temperature difference, "
           "%.2f K between the two middle columns\n",
           solver, w.time, 100.0 * worst, middle_slope);
    CHECK(worst < 0.05, "the profile matches the error function within 5%% of T2 - T1 (%.2f%%)", 100.0 * worst);
    CHECK(middle_slope > 1.0, "heat has crossed the middle (%.2f K between the middle columns)", middle_slope);
    fc_world_free(&w);
}

/* Without walls that heat, conduction only moves heat between particles: sum m c T keeps through
 * 1,000 steps of a collapsing, splashing pair of columns, to a tolerance set against the heat that
 * had to move (sum m c |T - T_mean|), not against the absolute heat in kelvin. */
static void test_conservation(const char *solver, int short_run)
{
    fc_world w;
    if (load(&w, COLLAPSE, "warm_cold_collapse", solver)) return;
    const double before = total_heat(&w);
    double spread = 0.0; /* sum m c |T - T_mean|: the heat that conduction could move */
    {
        const fc_particles *p = &w.particles;
        double mass_heat = 0.0, capacity = 0.0;
        for (size_t i = 0; i < p->count; i++) {
            const int f = p->u8[FC_FLUID][i];
            const double mc = w.fluid_mass[f] * w.fluids[f].specific_heat;
            mass_heat += mc * p->field[FC_TEMPERATURE][i], capacity += mc;
        }
        const double mean = mass_heat / capacity;
        for (size_t i = 0; i < p->count; i++) {
            const int f = p->u8[FC_FLUID][i];
            spread += w.fluid_mass[f] * w.fluids[f].specific_heat * fabs(p->field[FC_TEMPERATURE][i] - mean);
        }
    }
    const int steps = short_run ? 200 : 1000;
    if (!run(&w, 0.0, steps)) {
        const double after = total_heat(&w);
        double sum[2] = {0.0, 0.0}, n[2] = {0.0, 0.0};
        float coldest = 1e9f, warmest = 0.0f;
        for (size_t i = 0; i < w.particles.count; i++) {
            const float t = w.particles.field[FC_TEMPERATURE][i];
            const int f = w.particles.u8[FC_FLUID][i];
            coldest = fminf(coldest, t), warmest = fmaxf(warmest, t);
            sum[f] += t, n[f]++;
        }
        printf("%s: conservation over %d steps (%.3f s): total heat %.9g -> %.9g J (relative %.2g; %.2g of the "
               "heat to even out); temperatures %.2f to %.2f K, the fluids' means %.3f and %.3f K\n",
               solver, steps, w.time, before, after, fabs(after - before) / before, fabs(after - before) / spread, coldest,
               warmest, sum[0] / n[0], sum[1] / n[1]);
        CHECK(fabs(after - before) < 1e-3 * before, "total heat within 0.1%% over %d steps", steps);
        CHECK(fabs(after - before) < 1e-4 * spread, "total heat kept to 1e-4 of the heat to even out");
        CHECK(coldest >= 280.0f - 1e-3f && warmest <= 340.0f + 1e-3f,
              "no particle leaves the range of the initial temperatures (%.3f to %.3f K)", coldest, warmest);
        CHECK(sum[0] / n[0] > 280.01 && sum[1] / n[1] < 339.99, "heat has moved from the warm fluid to the cold");
    }
    fc_world_free(&w);
}

/* The adaptive step keeps to 0.1 h^2 / alpha: at alpha = 0.1 m^2/s and h = 2 cm, 0.4 ms, below the
 * acoustic condition at a 10 m/s speed of sound (0.8 ms). With conduction off it does not bind. */
static void test_thermal_condition(void)
{
    fc_world w;
    if (load(&w, HALVES, "halves_2d", NULL)) return;
    char err[256];
    CHECK(fc_param_assign_scoped(&w.params, w.fluids, w.fluid_count, "speed_of_sound=10", err, sizeof err) == 0 &&
              fc_param_assign_scoped(&w.params, w.fluids, w.fluid_count, "hot.thermal_diffusivity=0.1", err, sizeof err) == 0,
          "the diffusivity and the speed of sound can be set: %s", err);
    if (!run(&w, 0.0, 3)) {
        const double limit = 0.1 * 0.02 * 0.02 / 0.1;
        CHECK(w.last_dt_bound == FC_DT_THERMAL && fabs(w.last_dt - limit) < 1e-9,
              "the thermal condition bounds the step at %.3g s (%s, %.3g s)", limit, fc_dt_bound_name(w.last_dt_bound),
              w.last_dt);
    }
    CHECK(fc_param_assign_scoped(&w.params, w.fluids, w.fluid_count, "heat_conduction=none", err, sizeof err) == 0,
          "conduction can be turned off live: %s", err);
    if (!run(&w, 0.0, 3))
        CHECK(w.last_dt_bound != FC_DT_THERMAL, "without conduction the thermal condition does not bind (%s)",
              fc_dt_bound_name(w.last_dt_bound));
    fc_world_free(&w);
}

/* With heat_conduction none no temperature changes, however different the neighbours. */
static void test_conduction_off(void)
{
    fc_world w;
    if (load(&w, HALVES, "halves_2d", NULL)) return;
    char err[256];
    fc_param_assign_scoped(&w.params, w.fluids, w.fluid_count, "heat_conduction=none", err, sizeof err);
    if (!run(&w, 0.0, 200)) {
        size_t changed = 0;
        for (size_t i = 0; i < w.particles.count; i++) {
            const float t = w.particles.field[FC_TEMPERATURE][i];
            changed += !(t == 280.0f || t == 360.0f);
        }
        CHECK(changed == 0, "no temperature changes without conduction (%zu changed)", changed);
    }
    fc_world_free(&w);
}

/* Thermal expansion makes warm fluid buoyant: a blob 60 K warmer than the water around it (so 18%
 * lighter at rest) rises from the floor; the same blob at the water's temperature stays down. */
static double blob_rise(const char *solver, double blob_temperature, double seconds)
{
    fc_world w;
    if (load(&w, WARM_BLOB, "warm_blob_2d", solver)) return NAN;
    fc_particles *p = &w.particles;
    for (size_t i = 0; i < p->count; i++)
        if (p->u8[FC_FLUID][i] == 1) p->field[FC_TEMPERATURE][i] = (float)blob_temperature;
    double rise = NAN;
    if (!run(&w, seconds, 0)) {
        double sum = 0.0, n = 0.0;
        for (size_t i = 0; i < p->count; i++)
            if (p->u8[FC_FLUID][i] == 1) sum += p->field[FC_PY][i], n++;
        rise = sum / n - 0.04; /* the blob's centre started 4 cm up */
    }
    fc_world_free(&w);
    return rise;
}

static void test_warm_fluid_rises(const char *solver, int short_run)
{
    const double seconds = short_run ? 0.6 : 1.5;
    const double warm = blob_rise(solver, 350.0, seconds), same = blob_rise(solver, 290.0, seconds);
    printf("%s: after %.1f s the warm blob's centre rose %.3f m, the blob at the water's temperature %.3f m\n", solver,
           seconds, warm, same);
    CHECK(warm > (short_run ? 0.02 : 0.06), "the warm blob rises (%.3f m)", warm);
    CHECK(fabs(same) < 0.01, "a blob at the water's temperature stays where it is (%.3f m)", same);
}

/* The heat a hot floor gives the water at first is Newton's h L (T_wall - T): 2,000 W/(m^2 K) along
 * 0.3 m at 40 K is 24 kW per metre of depth; after 0.2 s the first layer has warmed only a few
 * kelvin, so the mean rate stays within 10% of it. */
static void test_hot_floor_flux(void)
{
    fc_world w;
    if (load(&w, HOT_FLOOR, "hot_floor_2d", NULL)) return;
    const double before = total_heat(&w), start = w.time;
    if (!run(&w, 0.2, 0)) {
        const double rate = (total_heat(&w) - before) / (w.time - start), newton = 2000.0 * 0.3 * 40.0;
        printf("hot floor: %.0f W/m into the water over the first %.2f s, Newton's law %.0f W/m\n", rate, w.time, newton);
        CHECK(fabs(rate / newton - 1.0) < 0.1, "the floor heats at h L (T_wall - T) within 10%% (%.0f W/m)", rate);
    }
    fc_world_free(&w);
}

/* A 2D tank of water over a hot block (350 K) lying on the floor in the middle, with the strongest
 * heat transfer, the water thin (0.1 Pa s), conducting little (2e-5 m^2/s) and expanding 1e-2 per
 * kelvin, so that the shell of water the block heats is light enough to leave it; the far wall is
 * cold (280 K). */
static const char *const HEATER = FLUIDCAST_TESTS_DIR "/scenes/heater_2d.json";

/* The share of the heat the heater gave (the excess over 290 K; the cold wall's deficit left out)
 * that sits more than one block height above the block's top, y > 0.06 m, after `seconds`, with
 * the water expanding as it warms or (expansion 0) not. By conduction alone heat spreads about
 * sqrt(alpha t), 1.3 cm in 8 s, so little gets there; a plume carries it up in bursts whose timing
 * follows the roundings (the flow is close to chaotic), so the share is read late enough that a
 * burst more or less does not decide it. */
static double heat_share_above(double expansion, double seconds)
{
    fc_world w;
    if (load(&w, HEATER, "heater_2d", NULL)) return NAN;
    char err[256], assignment[64];
    snprintf(assignment, sizeof assignment, "water.thermal_expansion=%g", expansion);
    if (fc_param_assign_scoped(&w.params, w.fluids, w.fluid_count, assignment, err, sizeof err) || run(&w, seconds, 0)) {
        fc_world_free(&w);
        return NAN;
    }
    double heat = 0.0, above = 0.0;
    for (size_t i = 0; i < w.particles.count; i++) {
        const double excess = w.particles.field[FC_TEMPERATURE][i] - 290.0;
        if (excess <= 0.0) continue;
        heat += excess;
        if (w.particles.field[FC_PY][i] > 0.06) above += excess;
    }
    fc_world_free(&w);
    return above / heat;
}

/* A hot base makes the water above it rise: with thermal expansion the warmed water carries the
 * heat up in a plume, more than twice as much of it as conduction alone (expansion 0) spreads that
 * high in the same time (the plume rises in bursts a few seconds apart, whose timing follows the
 * build's roundings: the builds for other CPUs differ by one burst or two). */
static void test_heater_convects(int short_run)
{
    const double seconds = short_run ? 3.0 : 8.0;
    const double convected = heat_share_above(0.01, seconds), conducted = heat_share_above(0.0, seconds);
    printf("heater after %.1f s: %.1f%% of its heat above 0.06 m with expansion, %.1f%% by conduction alone\n", seconds,
           100.0 * convected, 100.0 * conducted);
    CHECK(convected > 2.0 * conducted && convected > (short_run ? 0.05 : 0.12),
          "warmed water rises: %.1f%% of the heat above 0.06 m against %.1f%% by conduction", 100.0 * convected,
          100.0 * conducted);
}

int main(int argc, char **argv)
{
    const int short_run = check_short_run(argc, argv);
    static const char *const solvers[] = {"sph", "pbf"};
    for (int s = 0; s < 2; s++) {
        test_error_function_profile(solvers[s], short_run ? 0.25 : 0.5);
        test_conservation(solvers[s], short_run);
    }
    /* PBF moves every particle alike whatever its mass or volume (issue 23 item 2: its mass
     * weighting is still to come), so a lighter blob has nothing to lift it there yet */
    test_warm_fluid_rises("sph", short_run);
    test_thermal_condition();
    test_conduction_off();
    test_hot_floor_flux();
    test_heater_convects(short_run);
    return check_summary("test_heat");
}
