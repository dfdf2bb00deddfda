/* Building a world for a server within its budget (world_build.h). */
#include "host/world_build.h"

#include <stdio.h>
#include <math.h>
#include <string.h>

#include "core/build_progress.h"
#include "core/scene.h"
#include "core/solver.h"

/* Reserves what the scene will take in place of *held (the world it replaces, 0 for a new one);
 * over_budget, with the estimate and what is free, when it does not fit. */
static int reserve_scene(fc_budget *b, const fc_scene *scene, fc_cost *held, fc_message_error *err)
{
    if (!b) return 0;
    fc_scene_estimate e;
    fc_scene_estimate_size(scene, &e);
    char why[256], fluid[32], structures[96] = "", count[32], bytes[32];
    if (fc_budget_try_change(b, held, e.cost, why, sizeof why) == 0) return 0;
    /* a world closed just before may still be giving its reservation back (its step ending) */
    if (fc_budget_wait_closing(b, FC_BUDGET_CLOSING_WAIT_S) && fc_budget_try_change(b, held, e.cost, why, sizeof why) == 0)
        return 0;
    const double work = e.cost.particles / fmax(1.0, e.fluid + e.structures);
    char steps[160] = "";
    if (work > 1.0 + 1e-9)
        snprintf(steps, sizeof steps, ", whose steps cost %.3g times as much per particle as the budget's measure "
                 "(solver_iterations, smoothing_ratio)", work);
    if (e.structures > 0.0)
        snprintf(structures, sizeof structures, " and %s %s", fc_format_count(e.structures, count, sizeof count),
                 e.structures_name);
    fc_message_error_set(err, FC_ERR_OVER_BUDGET, NULL,
                         "the scene '%s' would take about %s fluid particles%s and %s%s; %s "
                         "(--max-particles); use a larger particle_spacing or a smaller scene",
                         scene->name, fc_format_count(e.fluid, fluid, sizeof fluid), structures,
                         fc_format_bytes(e.cost.bytes, bytes, sizeof bytes), steps, why);
    return -1;
}

/* A scene's emitters and colliders pass the checks of emitter_add and collider_add (their limits
 * included) against the world it would build, before anything is built. */
static int check_scene_objects(const fc_scene *scene, fc_budget *budget, fc_message_error *err)
{
    fc_world probe; /* what the checks read of a world: its domain, fluids, parameters and budget */
    memset(&probe, 0, sizeof probe);
    probe.params = scene->params;
    probe.fluid_count = scene->fluid_count;
    probe.dimensions = scene->dimensions;
    memcpy(probe.domain_lo, scene->domain_min, sizeof probe.domain_lo);
    memcpy(probe.domain_hi, scene->domain_max, sizeof probe.domain_hi);
    probe.budget = budget;
    const size_t emitters = fc_objects_count(&scene->objects, FC_OBJECT_EMITTER);
    if (emitters > FC_WORLD_MAX_EMITTERS) {
        fc_message_error_set(err, FC_ERR_OVER_BUDGET, "scene.emitters", "a world has at most %d emitters; the scene has %zu",
                             FC_WORLD_MAX_EMITTERS, emitters);
        return -1;
    }
    char object[64];
    size_t index[FC_OBJECT_KIND_COUNT] = {0}; /* the row's place in its scene list */
    for (size_t i = 0; i < scene->objects.count; i++) {
        const fc_object *o = &scene->objects.rows[i];
        const size_t k = index[o->kind]++;
        if (o->kind == FC_OBJECT_EMITTER) {
            snprintf(object, sizeof object, "scene.emitters[%zu]", k);
            if (fc_check_emitter(&probe, o, object, err)) return -1;
        } else if (o->kind == FC_OBJECT_COLLIDER) {
            snprintf(object, sizeof object, "scene.colliders[%zu]", k);
            if (fc_check_collider(&probe, &o->shape, object, err)) return -1;
        }
    }
    const size_t movable = fc_objects_movable_colliders(&scene->objects);
    if (movable > FC_WORLD_MAX_COLLIDERS) {
        fc_message_error_set(err, FC_ERR_OVER_BUDGET, "scene.colliders",
                             "a world has at most %d spheres and boxes (welcome.limits.max_colliders); the scene has %zu",
                             FC_WORLD_MAX_COLLIDERS, movable);
        return -1;
    }
    return 0;
}

/* The scene file at path, or the uploaded document; bad_value naming the offending key. */
static int parse_scene(const char *path, const char *document, fc_scene *scene, fc_message_error *err)
{
    char msg[1024], key_path[128], field[sizeof err->field];
    if (!document) {
        if (fc_scene_parse_file(scene, path, msg, sizeof msg) == 0) return 0;
        fc_message_error_set(err, FC_ERR_BAD_VALUE, "scene", "%s", msg);
        return -1;
    }
    if (fc_scene_parse_upload(scene, document, msg, sizeof msg, key_path, sizeof key_path) == 0) return 0;
    snprintf(field, sizeof field, "scene%s%s", key_path[0] ? "." : "", key_path);
    /* "uploaded scene: fluid[0].min: expected ..." reads "scene.fluid[0].min: expected ..." */
    char prefix[sizeof key_path + 32];
    snprintf(prefix, sizeof prefix, "uploaded scene: %s%s", key_path, key_path[0] ? ": " : "");
    size_t skip = strncmp(msg, prefix, strlen(prefix)) == 0 ? strlen(prefix) : 0;
    fc_message_error_set(err, FC_ERR_BAD_VALUE, field, "%s", msg + skip);
    return -1;
}

int fc_world_build(const char *path, const char *document, const fc_param_values *values, const char *solver,
                   fc_backend_choice *backend, fc_budget *budget, fc_cost *held, const fc_build_progress *progress, fc_world *out,
                   fc_message_error *err)
{
    char msg[1024];
    fc_scene scene;
    if (parse_scene(path, document, &scene, err)) return -1;
    /* the solver that will run (unknown: the general rules only, and the error below) */
    const fc_solver *runs = fc_solver_find(solver && solver[0] ? solver : scene.solver);
    int failed = 0;
    if (solver && solver[0]) {
        char why[300];
        if (!fc_solver_lookup(solver, why, sizeof why)) {
            fc_message_error_set(err, FC_ERR_UNKNOWN_SOLVER, "solver", "%s", why);
            failed = 1;
        } else if (strcmp(solver, scene.solver) != 0) { /* another solver than the scene's: its own step */
            snprintf(scene.solver, sizeof scene.solver, "%s", solver);
            fc_solver_fit_time_step(runs, &scene.params);
        }
    }
    failed = failed || (values && fc_param_values_apply(&scene.params, scene.fluids, scene.fluid_count, runs, values, 1, err));
    if (backend) { /* auto gives way to the CPU for a solver without device steps (fc_solver_fit_backend) */
        fc_solver_fit_backend(fc_solver_find(scene.solver), backend);
        scene.backend = backend->kind;
    }
    const fc_cost before = *held;
    fc_cost reserved = before;
    failed = failed || fc_check_max_particles(budget, values, err) || check_scene_objects(&scene, budget, err) ||
             reserve_scene(budget, &scene, &reserved, err);
    int built = failed ? -1 : fc_scene_instantiate_progress(&scene, out, progress, msg, sizeof msg);
    if (!failed && !built && fc_world_compute_density(out)) { /* the first frames show real densities */
        fc_world_free(out);
        snprintf(msg, sizeof msg, "out of memory computing the initial densities");
        built = FC_BUILD_OUT_OF_MEMORY;
    }
    if (!failed && built == FC_BUILD_OUT_OF_MEMORY) {
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL, "%s", msg);
    } else if (!failed && built) {
        fc_message_error_set(err, FC_ERR_BAD_VALUE, values && values->count ? "values" : "scene", "%s", msg);
    } else if (!failed && budget) { /* the reservation now belongs to the new world, at its real size */
        out->budget = budget;
        out->budget_held = reserved;
        fc_budget_set(budget, &out->budget_held, fc_world_cost(out, (double)out->particles.count));
        *held = (fc_cost){0.0, 0.0};
    }
    if (!failed && built && budget) fc_budget_set(budget, &reserved, before); /* the old world keeps its own */
    fc_scene_free(&scene);
    return failed || built ? -1 : 0;
}
