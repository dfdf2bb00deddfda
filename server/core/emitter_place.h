/* The defaults of a new emitter (emitter_add without a place or a rate): above the fluid's surface, a
 * rate for the world's dimensions, and when its emitters fill a closed container. */
#ifndef FC_EMITTER_PLACE_H
#define FC_EMITTER_PLACE_H

#include "core/world.h"

#define FC_EMITTER_DEFAULT_SPEED 1.5        /* m/s: a jet that falls, not one that sprays */
#define FC_EMITTER_DEFAULT_RADIUS 2.5       /* particle spacings: five particles across */

/* Where a new emitter of this radius goes: over the column with the most free height between the
 * fluid's top (or the floor, or a collider's top) and the lid, below the lid by two spacings and
 * the larger of two radii and a tenth of the domain's height (at most half that free height), and
 * with a speed of sound c no higher over what is under it than a jet of this speed falls from to
 * meet it below Mach 0.1 (v^2 + 2 g dh <= (0.1 c)^2, at least two spacings); aimed down along
 * gravity (-y without gravity) into that free space. "Up" is against gravity's largest component. */
typedef struct fc_emitter_place {
    float position[3], direction[3];
    int up;          /* the axis that points up, 0..2 */
    float below;     /* where the free space under the nozzle ends along `up` (fluid top, floor or solid), m */
    float room;      /* the free height of that column, m (below 2 spacings: no free space anywhere) */
} fc_emitter_place;

/* Reads the particles' positions (brought to the host). */
void fc_emitter_default_place(fc_world *w, float radius, float speed, fc_emitter_place *out);

/* A continuous jet's rate, particles/s: one layer of the disc per spacing travelled, speed v, spacing
 * s: 2 r v / s^2 for a 2D segment of 2r, pi r^2 v / s^3 for a 3D disc. */
double fc_emitter_default_rate(const fc_world *w, double radius, double speed);

/* A new emitter row with the defaults of what emitter_add may leave out: radius
 * FC_EMITTER_DEFAULT_RADIUS spacings, speed FC_EMITTER_DEFAULT_SPEED, fluid 0 at its temperature.
 * The caller puts the fields it was given on it, then calls fc_emitter_complete. */
fc_object fc_emitter_default_row(const fc_world *w);
/* Completes e for what was not given: its place (fc_emitter_default_place for its radius) when
 * has_position is 0, aimed down when has_direction is 0, the continuous rate for its radius and
 * speed when has_rate is 0. *place is the place chosen (valid when has_position is 0). */
void fc_emitter_complete(fc_world *w, fc_object *e, int has_position, int has_direction, int has_rate,
                         fc_emitter_place *place);

/* How the container fills: its free volume (the domain less its particles, s^dims each, and its
 * spheres and boxes), the emitters' total rate, and the seconds until they fill it; INFINITY when
 * a sink takes fluid out or nothing is emitted. */
typedef struct fc_fill_estimate {
    double free_volume; /* m^3 (2D: m^2) */
    double rate;        /* particles/s, every emitter */
    double seconds;     /* free_volume / (rate s^dims) */
} fc_fill_estimate;
void fc_emitters_fill_estimate(const fc_world *w, fc_fill_estimate *out);

#endif
