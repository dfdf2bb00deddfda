/* The defaults of a new emitter: a place above the fluid's surface, a rate for the world's dimensions, and the container's fill time. */
#include "core/emitter_place.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/collide.h"
#include "core/solver.h"

#define COLUMNS_MAX 32 /* columns across each horizontal axis at most */
#define PI 3.14159265358979323846

/* The axis gravity pulls along most, and its sign (+1: up is +axis); -y without gravity. */
static int up_axis(const fc_world *w, int *sign)
{
    float g[3];
    fc_world_gravity(w, g);
    int up = 1;
    for (int a = 0; a < 3; a++)
        if (fabsf(g[a]) > fabsf(g[up])) up = a;
    *sign = g[up] > 0.0f ? -1 : 1;
    return up;
}

/* Whether a sphere or box (or a plane) comes within `reach` of x. */
static int solid_near(const fc_world *w, const float x[3], float reach)
{
    float normal[3];
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_COLLIDER, o)
    if (fc_shape_distance(&o->shape, x, normal) < reach) return 1;
    return 0;
}

void fc_emitter_default_place(fc_world *w, float radius, float speed, fc_emitter_place *out)
{
    const float s = (float)w->params.particle_spacing, reach = radius + s;
    int sign;
    const int up = up_axis(w, &sign);
    int across[2], n[2] = {1, 1}, count = 0; /* the horizontal axes (a 2D world: one) and their columns */
    for (int a = 0; a < 3; a++)
        if (a != up && !(w->dimensions == 2 && a == 2)) across[count++] = a;
    float cell[2] = {1.0f, 1.0f};
    for (int k = 0; k < count; k++) {
        const float extent = w->domain_hi[across[k]] - w->domain_lo[across[k]];
        cell[k] = fmaxf(reach, extent / COLUMNS_MAX);
        n[k] = extent > 0.0f ? (int)ceilf(extent / cell[k]) : 1;
        if (n[k] < 1) n[k] = 1;
        if (n[k] > COLUMNS_MAX) n[k] = COLUMNS_MAX;
    }
    /* heights along `up` (sign * coordinate): the floor, the ceiling and the fluid's top per column */
    const float floor_h = sign > 0 ? w->domain_lo[up] : -w->domain_hi[up];
    const float ceiling_h = sign > 0 ? w->domain_hi[up] : -w->domain_lo[up];
    float top[COLUMNS_MAX][COLUMNS_MAX];
    for (int i = 0; i < COLUMNS_MAX; i++)
        for (int j = 0; j < COLUMNS_MAX; j++) top[i][j] = floor_h;
    fc_world_sync_to_host(w, FC_SYNC_POSITION);
    const fc_particles *p = &w->particles;
    for (size_t i = 0; i < p->count; i++) {
        int c[2] = {0, 0};
        for (int k = 0; k < count; k++) {
            const float x = p->field[FC_PX + across[k]][i] - w->domain_lo[across[k]];
            c[k] = (int)floorf(x / cell[k]);
            c[k] = c[k] < 0 ? 0 : (c[k] >= n[k] ? n[k] - 1 : c[k]);
        }
        const float h = sign * p->field[FC_PX + up][i] + 0.5f * s; /* a particle fills half a spacing above it */
        if (h > top[c[0]][c[1]]) top[c[0]][c[1]] = h; /* NaN compares false */
    }
    const float highest = ceiling_h - 2.0f * s; /* the nozzle keeps two spacings from the lid */
    const float drop = fmaxf(2.0f * radius, 0.1f * (ceiling_h - floor_h)); /* and hangs this far under it */
    /* and, in a weakly compressible model (a speed of sound c), no higher over what is under it than a jet
     * falls from and still meets it below Mach 0.1: v^2 + 2 g dh <= (0.1 c)^2 (Monaghan 1992) */
    float g3[3];
    fc_world_gravity(w, g3);
    const double g = sqrt((double)g3[0] * g3[0] + (double)g3[1] * g3[1] + (double)g3[2] * g3[2]);
    const double c = w->solver && w->solver->sound_speed ? w->solver->sound_speed(&w->params) : 0.0;
    const float fall = c > 0.0 && g > 0.0 ? (float)fmax((0.01 * c * c - (double)speed * speed) / (2.0 * g), 2.0 * s)
                                          : INFINITY;
    float centre[3], best_room = -INFINITY, best_distance = INFINITY;
    for (int a = 0; a < 3; a++) centre[a] = 0.5f * (w->domain_lo[a] + w->domain_hi[a]);
    *out = (fc_emitter_place){.up = up};
    for (int a = 0; a < 3; a++) out->position[a] = centre[a];
    out->position[up] = sign * highest;
    out->below = sign * floor_h;
    for (int i = 0; i < n[0]; i++)
        for (int j = 0; j < n[1]; j++) {
            float x[3] = {centre[0], centre[1], centre[2]};
            const int c[2] = {i, j};
            for (int k = 0; k < count; k++) { /* the column's centre, the disc kept off the side walls */
                const int a = across[k];
                const float lo = w->domain_lo[a] + reach, hi = w->domain_hi[a] - reach;
                const float at = w->domain_lo[a] + (c[k] + 0.5f) * cell[k];
                x[a] = lo > hi ? centre[a] : fminf(fmaxf(at, lo), hi);
            }
            float under = floor_h; /* the fluid's top under the disc: every column it overlaps */
            for (int ii = 0; ii < n[0]; ii++)
                for (int jj = 0; jj < n[1]; jj++) {
                    const int cc[2] = {ii, jj};
                    int overlaps = 1;
                    for (int k = 0; k < count; k++) {
                        const float lo = w->domain_lo[across[k]] + cc[k] * cell[k];
                        overlaps &= x[across[k]] + reach > lo && x[across[k]] - reach < lo + cell[k];
                    }
                    if (overlaps) under = fmaxf(under, top[ii][jj]);
                }
            float h = highest; /* down from the lid to the first solid within reach, or the fluid */
            x[up] = sign * h;
            while (h > under && !solid_near(w, x, reach)) h -= 0.5f * s, x[up] = sign * h;
            const float blocked = fmaxf(h, under), room = highest - blocked;
            float distance = 0.0f;
            for (int k = 0; k < count; k++) distance += fabsf(x[across[k]] - centre[across[k]]);
            if (room > best_room + 0.5f * s || (room > best_room - 0.5f * s && distance < best_distance)) {
                best_room = fmaxf(room, best_room), best_distance = distance;
                for (int a = 0; a < 3; a++) out->position[a] = x[a];
                out->position[up] =
                    sign * (room > 0.0f ? fminf(highest - fminf(0.5f * room, drop), blocked + fall) : highest);
                out->below = sign * blocked;
                out->room = room > 0.0f ? room : 0.0f;
            }
        }
    out->direction[up] = (float)-sign;
    if (w->dimensions == 2) out->position[2] = 0.0f;
}

fc_object fc_emitter_default_row(const fc_world *w)
{
    fc_object e = {.kind = FC_OBJECT_EMITTER, .shape = {.kind = FC_SHAPE_DISC}};
    e.shape.radius = (float)(FC_EMITTER_DEFAULT_RADIUS * w->params.particle_spacing);
    e.emitter.speed = (float)FC_EMITTER_DEFAULT_SPEED;
    return e;
}

void fc_emitter_complete(fc_world *w, fc_object *e, int has_position, int has_direction, int has_rate,
                         fc_emitter_place *place)
{
    if (!has_position || !has_direction) fc_emitter_default_place(w, e->shape.radius, e->emitter.speed, place);
    if (!has_position) memcpy(e->shape.center, place->position, sizeof e->shape.center);
    if (!has_direction) memcpy(e->shape.normal, place->direction, sizeof e->shape.normal);
    if (!has_rate) e->emitter.rate = (float)fc_emitter_default_rate(w, e->shape.radius, e->emitter.speed);
}

double fc_emitter_default_rate(const fc_world *w, double radius, double speed)
{
    const double s = w->params.particle_spacing;
    return w->dimensions == 2 ? 2.0 * radius * speed / (s * s) : PI * radius * radius * speed / (s * s * s);
}

void fc_emitters_fill_estimate(const fc_world *w, fc_fill_estimate *out)
{
    const int dims = w->dimensions == 2 ? 2 : 3;
    const double particle = pow(w->params.particle_spacing, dims);
    double room = 1.0;
    for (int a = 0; a < dims; a++) room *= (double)w->domain_hi[a] - w->domain_lo[a];
    room -= (double)w->particles.count * particle;
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_COLLIDER, o) {
        if (o->shape.kind == FC_SHAPE_SPHERE)
            room -= dims == 2 ? PI * o->shape.radius * o->shape.radius : 4.0 / 3.0 * PI * pow(o->shape.radius, 3);
        else if (o->shape.kind == FC_SHAPE_BOX)
            room -= 4.0 * o->shape.half[0] * o->shape.half[1] * (dims == 2 ? 1.0 : 2.0 * o->shape.half[2]);
    }
    out->free_volume = fmax(room, 0.0);
    out->rate = 0.0;
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_EMITTER, e) out->rate += e->emitter.rate;
    const int drained = fc_objects_count(&w->objects, FC_OBJECT_SINK) > 0;
    out->seconds = drained || !(out->rate > 0.0) ? INFINITY : out->free_volume / (out->rate * particle);
}
