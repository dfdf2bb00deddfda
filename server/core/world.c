/* World lifecycle and the step: solve, remove, emit; its store and method; filling shapes with fluid; stats. */
#include "core/world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

#include "core/colliders.h"
#include "core/particle_stats.h"
#include "core/build_progress.h"
#include "core/solver.h"
#include "core/sources.h"
#include "core/store.h"

/* The method's state and the store's go (the particles stay in the host arrays, synced first). */
static void stop_method(fc_world *w)
{
    fc_world_sync_to_host(w, FC_SYNC_ALL);
    if (w->solver_state) fc_world_steps(w)->destroy(w->solver_state);
    w->solver_state = NULL;
    if (w->store_state) w->store->destroy(w->store_state);
    w->store_state = NULL;
}

void fc_world_init(fc_world *w)
{
    memset(w, 0, sizeof *w);
    fc_params_defaults(&w->params);
    fc_fluid_defaults(&w->fluids[0], 0);
    w->fluid_count = 1;
    fc_particles_init(&w->particles);
    for (int a = 0; a < 3; a++) w->domain_lo[a] = 0.0f, w->domain_hi[a] = 1.0f;
    w->dimensions = 3;
    w->backend = FC_BACKEND_CPU;
    w->solver = &fc_solver_sph;
    w->objects.next_id = 1;
    snprintf(w->name, sizeof w->name, "world");
}

void fc_world_free(fc_world *w)
{
    if (w->budget) fc_budget_set(w->budget, &w->budget_held, (fc_cost){0.0, 0.0});
    if (w->solver) stop_method(w);
    fc_particles_free(&w->particles);
    fc_objects_free(&w->objects);
    memset(w, 0, sizeof *w);
}

int fc_world_set_solver(fc_world *w, const char *name, char *err, size_t errlen)
{
    const fc_solver *s = fc_solver_lookup(name, err, errlen);
    if (!s) return -1;
    if (w->backend == FC_BACKEND_CUDA && !s->on_device) {
        snprintf(err, errlen, "solver '%s' does not run on the GPU yet (sph does); use the CPU backend for it", s->name);
        return -1;
    }
    w->solver = s;
    return 0;
}

/* Lays the grid over the domain, one cell of the method's length scale beyond it, when the solver
 * needs it (its own structures it builds when it starts). */
static int build_solver_needs(fc_world *w, char *err, size_t errlen)
{
    if (!(w->solver->needs & FC_NEEDS_GRID)) return 0;
    float lo[3], hi[3];
    const float h = (float)fc_solver_length_scale(w->solver, &w->params);
    for (int a = 0; a < 3; a++) lo[a] = w->domain_lo[a] - h, hi[a] = w->domain_hi[a] + h;
    if (w->dimensions == 2) lo[2] = -0.5f * h, hi[2] = 0.5f * h; /* one cell deep around z = 0 */
    return fc_grid_geom_init(&w->grid_geom, lo, hi, h, err, errlen);
}

int fc_world_switch_solver(fc_world *w, const char *name, char *err, size_t errlen)
{
    const fc_solver *previous = w->solver, *next = fc_solver_find(name);
    if (next && next != previous) fc_world_sync_to_host(w, FC_SYNC_ALL); /* the next one starts from them */
    if (fc_world_set_solver(w, name, err, errlen)) return -1;
    if (w->solver == previous || !w->solver_state) return 0; /* not started: fc_world_start starts it */
    const fc_method_steps *previous_steps = w->store ? previous->on_device : &previous->on_host;
    float previous_mass[FC_MAX_FLUIDS];
    memcpy(previous_mass, w->fluid_mass, sizeof previous_mass);
    char why[512] = "";
    void *state = NULL;
    /* a grid the old one went without, or cells of another length */
    int missing = (w->solver->needs & ~previous->needs) != 0 ||
                  fc_solver_length_scale(w->solver, &w->params) != fc_solver_length_scale(previous, &w->params);
    if (fc_solver_check_params(w->solver, &w->params, why, sizeof why) ||
        (missing && build_solver_needs(w, why, sizeof why)) || fc_world_steps(w)->init(w, &state, why, sizeof why)) {
        snprintf(err, errlen, "%s cannot start: %s", w->solver->name, why[0] ? why : "out of memory");
        w->solver = previous;
        memcpy(w->fluid_mass, previous_mass, sizeof previous_mass);
        return -2;
    }
    previous_steps->destroy(w->solver_state); /* the store, and the particles in it, stay */
    w->solver_state = state;
    fc_solver_fit_time_step(w->solver, &w->params);
    return 0;
}

int fc_world_add_object(fc_world *w, const fc_object *row)
{
    fc_object o = *row;
    fc_world_shape_in_plane(w, &o.shape);
    if (o.kind == FC_OBJECT_EMITTER && !(o.emitter.temperature > 0.0f) && o.emitter.fluid >= 0 &&
        o.emitter.fluid < w->fluid_count)
        o.emitter.temperature = (float)w->fluids[o.emitter.fluid].temperature; /* what it emits unless told */
    const int id = fc_objects_add(&w->objects, &o);
    if (id >= 0 && o.kind == FC_OBJECT_COLLIDER) fc_world_host_changed(w, FC_CHANGED_COLLIDERS);
    return id;
}

int fc_world_add_collider(fc_world *w, const fc_shape *shape)
{
    const fc_object row = fc_collider_row(shape);
    return fc_world_add_object(w, &row);
}

fc_object fc_collider_row(const fc_shape *shape) { return (fc_object){.kind = FC_OBJECT_COLLIDER, .shape = *shape}; }

fc_object fc_sink_row(const fc_shape *shape) { return (fc_object){.kind = FC_OBJECT_SINK, .shape = *shape}; }

fc_object fc_emitter_row(const float position[3], const float direction[3], float radius, float speed, float rate,
                         int fluid)
{
    fc_object o = {.kind = FC_OBJECT_EMITTER, .shape = {.kind = FC_SHAPE_DISC, .radius = radius},
                   .emitter = {.speed = speed, .rate = rate, .fluid = fluid}};
    for (int a = 0; a < 3; a++) o.shape.center[a] = position[a], o.shape.normal[a] = direction[a];
    return o;
}

int fc_world_remove_object(fc_world *w, int id)
{
    const fc_object *o = fc_objects_find(&w->objects, id, FC_OBJECT_COLLIDER);
    if (o) {
        fc_objects_remove(&w->objects, id);
        fc_world_host_changed(w, FC_CHANGED_COLLIDERS);
        return 0;
    }
    return fc_objects_remove(&w->objects, id);
}

void fc_world_object_moved(fc_world *w, const fc_object *o)
{
    if (o->kind == FC_OBJECT_COLLIDER) fc_world_host_changed(w, FC_CHANGED_COLLIDERS);
}

void fc_world_derive_masses(fc_world *w, double rest_volume)
{
    for (int f = 0; f < w->fluid_count; f++) w->fluid_mass[f] = (float)(w->fluids[f].rest_density * rest_volume);
}

/* The lattice's points that `inside` contains (NULL: all), that none of the `excluded_count` shapes
 * `excluded` contains and that are clear of the world's colliders, up to max_particles, as
 * particles of fluid `fluid`. Reports its layers (in 2D its rows) to w->build_progress as the part
 * [from, to] of the fluid phase. */
static long fill_lattice(fc_world *w, const fc_lattice *l, const float v[3], const fc_shape *inside,
                         const fc_shape *excluded, size_t excluded_count, int fluid, double from, double to)
{
    fc_particle rec;
    const float s = l->spacing, clearance = (float)fc_params_particle_radius(&w->params);
    long added = 0;
    for (int k = 0; k < l->n[2]; k++)
        for (int j = 0; j < l->n[1]; j++) {
            if (w->build_progress && (l->n[2] == 1 || j == 0))
                fc_build_progress_report(w->build_progress, FC_BUILD_FLUID,
                                         from + (to - from) * (l->n[2] == 1 ? (double)j / l->n[1] : (double)k / l->n[2]));
            for (int i = 0; i < l->n[0]; i++) {
                float p[3] = {l->start[0] + (float)i * s, l->start[1] + (float)j * s, l->start[2] + (float)k * s};
                if (inside && !fc_shape_contains(inside, p)) continue;
                if (!fc_shapes_clear_of(excluded, excluded_count, 0.0f, p)) continue;
                if (!fc_point_clear_of(&w->objects, clearance, p)) continue;
                if (w->particles.count >= (size_t)w->params.max_particles) return added;
                fc_world_particle(w, fluid, p, v, &rec);
                if (fc_particles_add(&w->particles, &rec) < 0) return -1;
                added++;
            }
        }
    if (added) fc_world_host_changed(w, FC_CHANGED_ADDED);
    return added;
}

long fc_world_fill_box_except(fc_world *w, const float lo[3], const float hi[3], const float v[3], int fluid,
                              const fc_shape *excluded, size_t excluded_count, double from, double to)
{
    fc_lattice l;
    fc_lattice_of_box(&l, lo, hi, (float)w->params.particle_spacing, w->dimensions);
    return fill_lattice(w, &l, v, NULL, excluded, excluded_count, fluid, from, to);
}

long fc_world_fill_sphere_except(fc_world *w, const float center[3], float radius, const float v[3], int fluid,
                                 const fc_shape *excluded, size_t excluded_count, double from, double to)
{
    fc_shape sphere = {.kind = FC_SHAPE_SPHERE, .radius = radius};
    memcpy(sphere.center, center, sizeof sphere.center);
    if (w->dimensions == 2) sphere.center[2] = 0.0f; /* a disc in the plane */
    fc_lattice l;
    fc_lattice_of_sphere(&l, center, radius, (float)w->params.particle_spacing, w->dimensions);
    return fill_lattice(w, &l, v, &sphere, excluded, excluded_count, fluid, from, to);
}

long fc_world_fill_box(fc_world *w, const float lo[3], const float hi[3], const float v[3], int fluid)
{
    return fc_world_fill_box_except(w, lo, hi, v, fluid, NULL, 0, 0.0, 1.0);
}

long fc_world_fill_sphere(fc_world *w, const float center[3], float radius, const float v[3], int fluid)
{
    return fc_world_fill_sphere_except(w, center, radius, v, fluid, NULL, 0, 0.0, 1.0);
}

long fc_world_cut_away(fc_world *w, const fc_shape *collider)
{
    fc_particles *p = &w->particles;
    if (p->count == 0) return 0;
    uint8_t *keep = malloc(p->count);
    if (!keep) return -1;
    fc_world_sync_to_host(w, FC_SYNC_ALL); /* compaction moves every field */
    const float clearance = (float)fc_params_particle_radius(&w->params);
    const long n = (long)p->count;
    long removed = 0;
#pragma omp parallel for schedule(static) reduction(+ : removed)
    for (long i = 0; i < n; i++) {
        float x[3] = {p->field[FC_PX][i], p->field[FC_PY][i], p->field[FC_PZ][i]};
        keep[i] = !fc_shape_near(collider, x, clearance);
        removed += !keep[i];
    }
    if (removed) fc_particles_compact(p, keep);
    free(keep);
    w->removed_total += (uint64_t)removed;
    if (removed) fc_world_host_changed(w, FC_CHANGED_REMOVED);
    return removed;
}

int fc_world_start(fc_world *w, char *err, size_t errlen)
{
    fc_params_resolve_smoothing(&w->params);
    if (fc_solver_check_params(w->solver, &w->params, err, errlen) ||
        fc_fluids_check_params(&w->params, w->fluids, w->fluid_count, err, errlen))
        return -1;
    int built = build_solver_needs(w, err, errlen);
    if (built) return built;
    stop_method(w); /* a restarted solver starts from its predecessor's particles */
    if (!w->store) w->store = fc_store_for(w->backend); /* one chosen before (a test's) is kept */
    if (w->store && w->store->create(w, &w->store_state, err, errlen)) {
        w->store = NULL;
        return -1;
    }
    return fc_world_steps(w)->init(w, &w->solver_state, err, errlen); /* it reports its phases (build_progress.h) */
}

int fc_world_compute_density(fc_world *w)
{
    const fc_method_steps *steps = fc_world_steps(w);
    if (!w->solver_state || !steps->density) return 0;
    return steps->density(w, w->solver_state);
}

void fc_world_choose_dt(const fc_world *w, fc_step_limit *limit)
{
    limit->dt = w->params.time_step;
    limit->bound = w->params.adaptive_time_step ? FC_DT_MAXIMUM : FC_DT_FIXED;
    const fc_method_steps *steps = fc_world_steps(w);
    if (w->params.adaptive_time_step && steps->limit_dt && w->solver_state) steps->limit_dt(w, w->solver_state, limit);
}

int fc_world_step(fc_world *w)
{
    fc_step_limit limit;
    fc_world_choose_dt(w, &limit);
    const double dt = limit.dt;
    w->step_failure[0] = '\0';
    int status = fc_world_steps(w)->step(w, w->solver_state, dt);
    if (status != FC_STEP_DONE) return status;
    /* after the step, not before: a step interrupted (and retried) must not emit its layers again */
    fc_objects_step(w, dt);
    w->time += dt;
    w->last_dt = dt;
    w->last_dt_bound = limit.bound;
    w->step_count++;
    return 0;
}

void fc_world_release_memory(fc_world *w)
{
    const fc_method_steps *steps = fc_world_steps(w);
    if (w->solver_state && steps->release) steps->release(w, w->solver_state);
#ifdef __GLIBC__
    malloc_trim(0); /* freed heap pages, not only the mapped blocks, go back to the system */
#endif
}

/* The solver's own statistics into s, each with the solver's name. */
static void solver_stats(const fc_world *w, fc_world_stats *s)
{
    s->solver_stat_count = 0;
    const fc_method_steps *steps = fc_world_steps(w);
    if (!w->solver_state || !steps->stats) return;
    s->solver_stat_count = steps->stats(w, w->solver_state, s->solver_stat, FC_WORLD_MAX_SOLVER_STATS);
    for (int i = 0; i < s->solver_stat_count; i++) s->solver_stat[i].solver = w->solver->name;
}

void fc_world_temperature_span(const fc_world *w, float *lo, float *hi)
{
    for (int f = 0; f < w->fluid_count; f++) {
        *lo = fminf(*lo, (float)w->fluids[f].temperature);
        *hi = fmaxf(*hi, (float)w->fluids[f].temperature);
    }
    for (size_t k = 0; k < w->objects.count; k++) {
        const fc_object *o = &w->objects.rows[k];
        const float t = o->kind == FC_OBJECT_EMITTER ? o->emitter.temperature
                        : o->kind == FC_OBJECT_COLLIDER && o->thermal.heat_transfer > 0.0f ? o->thermal.temperature
                                                                                          : 0.0f;
        if (t > 0.0f) *lo = fminf(*lo, t), *hi = fmaxf(*hi, t);
    }
    for (int side = 0; side < 6; side++)
        if (w->walls[side].heat_transfer > 0.0f)
            *lo = fminf(*lo, w->walls[side].temperature), *hi = fmaxf(*hi, w->walls[side].temperature);
}

void fc_world_stats_compute(fc_world *w, fc_world_stats *s)
{
    if (w->store_state && w->store->motion_stats && w->store->motion_stats(w, w->store_state, s) == 0) {
        solver_stats(w, s); /* where the particles are: nothing crosses to the host */
        return;
    }
    fc_world_sync_to_host(w, FC_SYNC_STATS);
    const fc_particles *p = &w->particles;
    const float *vx = p->field[FC_VX], *vy = p->field[FC_VY], *vz = p->field[FC_VZ];
    const float *px = p->field[FC_PX], *py = p->field[FC_PY], *pz = p->field[FC_PZ];
    const long n = (long)p->count;
    double max_speed2 = 0.0, sum_speed2 = 0.0;
    int nan = 0;
#pragma omp parallel for schedule(static) reduction(max : max_speed2) reduction(+ : sum_speed2) reduction(| : nan)
    for (long i = 0; i < n; i++) {
        double speed2;
        if (!fc_motion_sample(px[i], py[i], pz[i], vx[i], vy[i], vz[i], &speed2)) nan = 1;
        else sum_speed2 += speed2, max_speed2 = speed2 > max_speed2 ? speed2 : max_speed2;
    }
    s->particles = p->count;
    s->max_speed = sqrt(max_speed2);
    s->rms_speed = n ? sqrt(sum_speed2 / (double)n) : 0.0;
    s->has_nan = nan;
    solver_stats(w, s);
}

double fc_world_stat(const fc_world_stats *s, const char *name)
{
    for (int i = 0; i < s->solver_stat_count; i++)
        if (strcmp(s->solver_stat[i].name, name) == 0) return s->solver_stat[i].value;
    return NAN;
}
