/* World helpers shared by the solver tests: start a world with a check, distance outside the domain. */
#ifndef FC_WORLD_CHECKS_H
#define FC_WORLD_CHECKS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "core/world.h"

/* fc_world_start, counted as a check. */
static inline int start(fc_world *w)
{
    char err[256] = "";
    int rc = fc_world_start(w, err, sizeof err);
    CHECK(rc == 0, "world starts: %s", err);
    return rc;
}

/* Largest distance of any particle outside the domain (0 when all are inside), NaN if any is NaN. */
static inline double outside_distance(const fc_world *w)
{
    const fc_particles *p = &w->particles;
    double worst = 0.0;
    for (size_t i = 0; i < p->count; i++)
        for (int a = 0; a < 3; a++) {
            double v = p->field[FC_PX + a][i];
            if (isnan(v)) return NAN;
            double d = fmax(w->domain_lo[a] - v, v - w->domain_hi[a]);
            if (d > worst) worst = d;
        }
    return worst;
}

/* Particles whose id is not below n or appears twice: 0 when the ids are exactly 0..n-1 once each
 * (with count n). */
static inline size_t bad_ids(const fc_world *w, size_t n)
{
    uint8_t *seen = calloc(n ? n : 1, 1);
    size_t bad = 0;
    for (size_t i = 0; i < w->particles.count; i++) {
        uint32_t id = w->particles.id[i];
        if (id >= n || seen[id]++) bad++;
    }
    free(seen);
    return bad;
}

#endif
