/* Budgets: a scene's size estimated from its shapes, and reservations against a shared limit. */
#define _POSIX_C_SOURCE 200809L
#include "core/budget.h"

#include "core/colliders.h"
#include "core/scene.h"
#include "core/solver.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define PI 3.14159265358979323846

double fc_step_work(const fc_solver *s, const fc_params *p, int dims)
{
    return s && s->step_work ? fmax(1.0, s->step_work(p, dims)) : 1.0;
}

/* The query for world w's container and colliders (and `added`, when not NULL). */
static fc_method_cost world_cost(const fc_world *w, const fc_params *p, const fc_solver *s, double fluid,
                                 const fc_shape *added)
{
    fc_shape solids[FC_WORLD_MAX_COLLIDERS + 1];
    size_t count = w->collider_count < FC_WORLD_MAX_COLLIDERS ? w->collider_count : FC_WORLD_MAX_COLLIDERS;
    if (count) memcpy(solids, w->colliders, count * sizeof *solids);
    if (added) solids[count++] = *added;
    const fc_cost_query q = {.params = p, .dims = w->dimensions, .fluid = fluid, .lo = w->domain_lo, .hi = w->domain_hi,
                             .solids = solids, .solid_count = count};
    return fc_solver_cost(s, &q);
}

fc_cost fc_world_cost_with(const fc_world *w, const fc_params *p, const fc_solver *s, double fluid)
{
    return world_cost(w, p, s, fluid, NULL).cost;
}

fc_cost fc_world_cost(const fc_world *w, double fluid)
{
    return fc_world_cost_with(w, &w->params, w->solver, fluid);
}

fc_cost fc_world_cost_adding(const fc_world *w, const fc_shape *added, double *added_structures)
{
    const double fluid = (double)w->particles.count;
    const fc_method_cost with = world_cost(w, &w->params, w->solver, fluid, added);
    *added_structures = with.structures - world_cost(w, &w->params, w->solver, fluid, NULL).structures;
    return with.cost;
}


/* Distance checks an estimate may spend counting the fluid that colliders cut away; beyond, the
 * rest is left in, so the estimate stays above what is built. */
#define CUT_WORK_LIMIT 16e6

/* The index ranges [first, last] of l's points within [lo, hi] (one more on each side: the points'
 * float rounding), clamped to the lattice; how many points they hold. */
static double lattice_range(const fc_lattice *l, const float lo[3], const float hi[3], long first[3], long last[3])
{
    double count = 1.0;
    for (int a = 0; a < 3; a++) {
        first[a] = (long)fmax(0.0, ceil(((double)lo[a] - l->start[a]) / l->spacing) - 1.0);
        last[a] = (long)fmin(l->n[a] - 1.0, floor(((double)hi[a] - l->start[a]) / l->spacing) + 1.0);
        count *= last[a] >= first[a] ? (double)(last[a] - first[a] + 1) : 0.0;
    }
    return count;
}

/* Where a collider's points within `clearance` can be: a sphere's or box's bounds grown by it,
 * anywhere for a plane. */
static void near_bounds(const fc_shape *c, float clearance, float lo[3], float hi[3])
{
    for (int a = 0; a < 3; a++) {
        float extent = (c->kind == FC_SHAPE_BOX ? c->half[a] : c->radius) + clearance;
        lo[a] = c->kind == FC_SHAPE_PLANE ? -FLT_MAX : c->center[a] - extent;
        hi[a] = c->kind == FC_SHAPE_PLANE ? FLT_MAX : c->center[a] + extent;
    }
}

/* Shapes a fill keeps its lattice points away from: within clearance of one (0: inside it). */
typedef struct excluders {
    const fc_shape *shape;
    size_t count;
    float clearance;
} excluders;

/* The points of a block's lattice l (inside `inside` unless NULL) that the fill leaves out for
 * being near one of `cut` (each counted at the first it is near) and that are clear of every shape
 * of `counted` (left out already). *work counts the distance checks spent; past CUT_WORK_LIMIT
 * none are counted (0). */
static double cut_away(const fc_lattice *l, const fc_shape *inside, excluders cut, excluders counted, double *work)
{
    const fc_shape *c = cut.shape;
    const float s = l->spacing;
    long first[3], last[3];
    float lo[3], hi[3];
    double need = 0.0;
    for (size_t k = 0; k < cut.count; k++) {
        near_bounds(&c[k], cut.clearance, lo, hi);
        need += lattice_range(l, lo, hi, first, last) * (double)(k + 2 + counted.count);
    }
    if (*work + need > CUT_WORK_LIMIT) return 0.0;
    *work += need;
    double removed = 0.0;
    for (size_t k = 0; k < cut.count; k++) {
        near_bounds(&c[k], cut.clearance, lo, hi);
        if (lattice_range(l, lo, hi, first, last) == 0.0) continue;
        for (long z = first[2]; z <= last[2]; z++)
            for (long y = first[1]; y <= last[1]; y++)
                for (long x = first[0]; x <= last[0]; x++) {
                    float p[3] = {l->start[0] + (float)x * s, l->start[1] + (float)y * s, l->start[2] + (float)z * s};
                    if ((inside && !fc_shape_contains(inside, p)) || !fc_shape_near(&c[k], p, cut.clearance) ||
                        !fc_point_clear_of(c, k, cut.clearance, p) ||
                        !fc_point_clear_of(counted.shape, counted.count, counted.clearance, p))
                        continue;
                    removed += 1.0;
                }
    }
    return removed;
}

void fc_scene_estimate_size(const fc_scene *scene, fc_scene_estimate *out)
{
    const fc_params *p = &scene->params;
    const int dims = scene->dimensions == 2 ? 2 : 3;
    const double s = p->particle_spacing, cell = dims == 2 ? s * s : s * s * s;
    double fluid = 0.0, work = 0.0;
    const excluders colliders = {scene->colliders, scene->collider_count, (float)p->particle_radius}, none = {NULL, 0, 0.0f};
    fc_shape blocks[FC_SCENE_MAX_BLOCKS]; /* a block fills what the blocks before it left empty (scene.c) */
    for (size_t i = 0; i < scene->block_count && i < FC_SCENE_MAX_BLOCKS; i++) {
        const fc_scene_block *b = &scene->blocks[i];
        fc_scene_block_shape(b, &blocks[i]);
        const excluders earlier = {blocks, i, 0.0f};
        fc_lattice l;
        fc_shape *self = &blocks[i]; /* after this block's count, an excluder in the plane (as in the fill) */
        if (b->kind == FC_SHAPE_BOX) { /* the lattice's points exactly, less those cut away */
            fc_lattice_of_box(&l, b->min, b->max, (float)s, dims);
            fluid += (double)l.n[0] * l.n[1] * l.n[2] - cut_away(&l, NULL, colliders, none, &work) -
                     cut_away(&l, NULL, earlier, colliders, &work);
        } else {
            fc_lattice_of_sphere(&l, b->center, b->radius, (float)s, dims);
            double measure = dims == 2 ? PI * pow(b->radius, 2) : 4.0 / 3.0 * PI * pow(b->radius, 3);
            fluid += fmax(0.0, measure / cell - cut_away(&l, self, colliders, none, &work) -
                                   cut_away(&l, self, earlier, colliders, &work));
        }
        if (dims == 2) fc_shape_in_plane(self);
    }
    fluid = fmin(fluid, (double)p->max_particles);
    const fc_solver *solver = fc_solver_find(scene->solver);
    const fc_cost_query q = {.params = p, .dims = dims, .fluid = fluid, .lo = scene->domain_min, .hi = scene->domain_max,
                             .solids = scene->colliders, .solid_count = scene->collider_count};
    const fc_method_cost c = fc_solver_cost(solver, &q);
    out->fluid = fluid;
    out->structures = c.structures;
    out->structures_name = solver && solver->structures_name ? solver->structures_name : "";
    out->cost = c.cost;
}

int fc_budget_init(fc_budget *b, double particles, double bytes)
{
    memset(b, 0, sizeof *b);
    b->limit.particles = particles;
    b->limit.bytes = bytes;
    if (pthread_mutex_init(&b->lock, NULL)) return -1;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    int failed = pthread_cond_init(&b->released, &attr);
    pthread_condattr_destroy(&attr);
    if (failed) pthread_mutex_destroy(&b->lock);
    return failed ? -1 : 0;
}

void fc_budget_free(fc_budget *b)
{
    pthread_cond_destroy(&b->released);
    pthread_mutex_destroy(&b->lock);
}

void fc_budget_closing(fc_budget *b, int delta)
{
    pthread_mutex_lock(&b->lock);
    b->closing += delta;
    if (delta < 0) pthread_cond_broadcast(&b->released);
    pthread_mutex_unlock(&b->lock);
}

int fc_budget_wait_closing(fc_budget *b, double seconds)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += (time_t)seconds;
    until.tv_nsec += (long)((seconds - floor(seconds)) * 1e9);
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&b->lock);
    const int any = b->closing > 0;
    while (b->closing > 0 && pthread_cond_timedwait(&b->released, &b->lock, &until) == 0) {}
    pthread_mutex_unlock(&b->lock);
    return any;
}

static void move_reservation(fc_budget *b, fc_cost *held, fc_cost want)
{
    b->used.particles += want.particles - held->particles;
    b->used.bytes += want.bytes - held->bytes;
    *held = want;
}

int fc_budget_try_change(fc_budget *b, fc_cost *held, fc_cost want, char *why, size_t whylen)
{
    pthread_mutex_lock(&b->lock);
    double free_particles = b->limit.particles - (b->used.particles - held->particles);
    double free_bytes = b->limit.bytes - (b->used.bytes - held->bytes);
    int fits = want.particles <= free_particles && want.bytes <= free_bytes;
    if (fits) move_reservation(b, held, want);
    pthread_mutex_unlock(&b->lock);
    if (!fits && why && whylen) {
        char n1[32], n2[32], b1[32], b2[32];
        snprintf(why, whylen, "%s particles and %s are free of the server's %s particles and %s",
                 fc_format_count(fmax(0.0, free_particles), n1, sizeof n1), fc_format_bytes(fmax(0.0, free_bytes), b1, sizeof b1),
                 fc_format_count(b->limit.particles, n2, sizeof n2), fc_format_bytes(b->limit.bytes, b2, sizeof b2));
    }
    return fits ? 0 : -1;
}

void fc_budget_set(fc_budget *b, fc_cost *held, fc_cost want)
{
    pthread_mutex_lock(&b->lock);
    move_reservation(b, held, want);
    pthread_mutex_unlock(&b->lock);
}

fc_cost fc_budget_free_now(fc_budget *b)
{
    pthread_mutex_lock(&b->lock);
    fc_cost c = {b->limit.particles - b->used.particles, b->limit.bytes - b->used.bytes};
    pthread_mutex_unlock(&b->lock);
    return c;
}

const char *fc_format_count(double n, char *buf, size_t len)
{
    if (n >= 1e6) snprintf(buf, len, "%.3g M", n / 1e6);
    else if (n >= 1e4) snprintf(buf, len, "%.0f k", n / 1e3);
    else snprintf(buf, len, "%.0f", n);
    return buf;
}

const char *fc_format_bytes(double bytes, char *buf, size_t len)
{
    if (bytes >= 1e9) snprintf(buf, len, "%.3g GB", bytes / 1e9);
    else if (bytes >= 1e6) snprintf(buf, len, "%.3g MB", bytes / 1e6);
    else snprintf(buf, len, "%.0f kB", bytes / 1e3);
    return buf;
}
