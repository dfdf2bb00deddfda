/* Is a world blowing up? A cheap check of its state after a step, and the likely cause read
 * from its parameters, so that a server can pause it and say what to change. */
#ifndef FC_STABILITY_H
#define FC_STABILITY_H

#include <stddef.h>

#include "core/world.h"

/* A parameter value that should make the world stable again (a `set` can apply it). */
typedef struct fc_suggestion {
    const char *name; /* a parameter of the table (params.def) */
    double value;     /* bools as 0 / 1 */
} fc_suggestion;
enum { FC_STABILITY_MAX_SUGGESTED = 4 };

typedef struct fc_instability {
    const char *check;   /* "non_finite", "speed", "solver_failed", a method's own ("mach", "compression"); NULL: stable */
    char message[320];   /* what was seen, with figures */
    char cause[480];     /* the likely cause and what to change */
    fc_suggestion suggested[FC_STABILITY_MAX_SUGGESTED]; /* the change the cause advises */
    int suggested_count;
    int rewind_to_change; /* the fix needs the state from before what built the trouble up (thermal expansion
                             since a wall or collider was heated): a rewind goes back to the newest checkpoint
                             taken after objects or walls changed, when one is kept (host/history.h) */
} fc_instability;

/* A world is unstable when a check fails on FC_STABILITY_STRIKES steps in a row (a NaN at once):
 * a single fast particle in a splash is not a blow-up, a blow-up does not heal. */
enum { FC_STABILITY_STRIKES = 10 };
typedef struct fc_stability_watch {
    int strikes;
} fc_stability_watch;

/* Checks the state after a step (fc_world_stats_compute's stats) and counts strikes; 1 with r
 * filled when the world is unstable. */
int fc_stability_watch_step(fc_stability_watch *watch, const fc_world *w, const fc_world_stats *s, fc_instability *r);

/* Checks the stats of the state after a step (fc_world_stats_compute); 0 when it looks sound,
 * else 1 with r filled:
 *   non_finite   a position or velocity is NaN or infinite;
 *   speed        the fastest particle moves more than the method's length scale per step (CFL
 *                v dt/h > 1, fc_solver.length_scale: the SPH family's smoothing radius), or the bulk
 *                flow (RMS speed) is faster than falling through the whole domain, the emitters and
 *                the colliders together could make it (twice sqrt(2 |g| L) + their speeds + 1 m/s; a
 *                lone particle thrown out of a splash is not a blow-up);
 *   then the method's own checks (fc_solver.check_stability: the SPH family's mach and compression). */
int fc_world_check_stability(const fc_world *w, const fc_world_stats *s, fc_instability *r);

/* Fills r for a solver step that failed. */
void fc_instability_solver_failed(const fc_world *w, fc_instability *r);

/* The likely cause, from the parameters, into r->cause, and the values that change it into
 * r->suggested: a fixed step (adaptive_time_step off) too long for the acoustic CFL number c dt / h
 * (0.4) or for gravity (dt > 0.25 sqrt(h / |g|)), flows faster than a tenth of the speed of sound,
 * or (none of these) the step against the fastest particle. s may be NULL. */
void fc_stability_explain(const fc_world *w, const fc_world_stats *s, fc_instability *r);

#endif
