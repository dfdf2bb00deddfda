/* Budgets: what worlds cost (their method answers, core/solver.h) and reservations against a shared limit. */
#define _POSIX_C_SOURCE 200809L
#include "core/budget.h"

#include "core/scene.h"
#include "core/solver.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The query for world w's container and colliders (and `added`, when not NULL). */
static fc_method_cost world_cost(const fc_world *w, const fc_params *p, const fc_solver *s, double fluid,
                                 const fc_shape *added)
{
    fc_shape solids[FC_SCENE_MAX_SOLIDS + 1];
    size_t count = fc_objects_shapes(&w->objects, FC_OBJECT_COLLIDER, solids, FC_SCENE_MAX_SOLIDS);
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

int fc_world_reserve_fluid(fc_world *w, size_t fluid)
{
    if (!w->budget) return 0;
    fc_cost want = fc_world_cost(w, (double)fluid);
    if (want.particles <= w->budget_held.particles && want.bytes <= w->budget_held.bytes) return 0;
    return fc_budget_try_change(w->budget, &w->budget_held, want, NULL, 0);
}

fc_cost fc_world_cost_adding(const fc_world *w, const fc_shape *added, double *added_structures)
{
    const double fluid = (double)w->particles.count;
    const fc_method_cost with = world_cost(w, &w->params, w->solver, fluid, added);
    *added_structures = with.structures - world_cost(w, &w->params, w->solver, fluid, NULL).structures;
    return with.cost;
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

/* bytes in GB, MB or kB with `digits` significant digits (kB: whole ones, at least). */
static const char *bytes_with_digits(double bytes, int digits, char *buf, size_t len)
{
    if (bytes >= 1e9) snprintf(buf, len, "%.*g GB", digits, bytes / 1e9);
    else if (bytes >= 1e6) snprintf(buf, len, "%.*g MB", digits, bytes / 1e6);
    else snprintf(buf, len, "%.*f kB", digits > 3 ? digits - 3 : 0, bytes / 1e3);
    return buf;
}

const char *fc_format_bytes(double bytes, char *buf, size_t len)
{
    return bytes_with_digits(bytes, 3, buf, len);
}

void fc_format_bytes_apart(double a, double b, char *abuf, char *bbuf, size_t len)
{
    for (int digits = 3; digits <= 6; digits++)
        if (strcmp(bytes_with_digits(a, digits, abuf, len), bytes_with_digits(b, digits, bbuf, len)) != 0) return;
    if (a == b) return; /* the same figure, rightly printed alike */
    snprintf(abuf, len, "%.0f bytes", a);
    snprintf(bbuf, len, "%.0f bytes", b);
}
