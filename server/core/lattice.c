/* Where particles go, and the 2D rules in one place (a 2D world lives in the plane z = 0): the
 * lattices fluid blocks fill, a particle's record, the gravity particles feel, shapes in the plane. */
#include "core/world.h"

#include <math.h>
#include <string.h>

/* In a 2D world a shape is its section by the plane z = 0: a sphere is a circle there, a box a
 * rectangle (it reaches through the plane: its z faces are never the nearest), a plane a line (its
 * normal in the plane; a normal with no part in the plane is left as it is). */
void fc_world_shape_in_plane(const fc_world *w, fc_shape *s)
{
    if (w->dimensions == 2) fc_shape_in_plane(s);
}

void fc_shape_in_plane(fc_shape *s)
{
    s->center[2] = 0.0f;
    s->velocity[2] = 0.0f;
    if (s->kind == FC_SHAPE_BOX) s->half[2] = FC_WORLD_THROUGH_PLANE;
    if (s->kind == FC_SHAPE_PLANE || s->kind == FC_SHAPE_DISC) { /* a disc faces along the plane */
        float len = sqrtf(s->normal[0] * s->normal[0] + s->normal[1] * s->normal[1]);
        if (len > 0.0f) {
            if (s->kind == FC_SHAPE_PLANE) s->offset /= len; /* the line of the plane's points at z = 0: n . x = offset */
            s->normal[0] /= len, s->normal[1] /= len, s->normal[2] = 0.0f;
        }
    }
}

/* Points at spacing s from lo to hi, centred so the margins on both sides match. */
static void lattice_between(fc_lattice *l, const float lo[3], const float hi[3], float s)
{
    l->spacing = s;
    for (int a = 0; a < 3; a++) {
        float extent = hi[a] - lo[a];
        l->n[a] = extent >= 0.0f ? (int)floorf(extent / s + 1e-4f) + 1 : 0;
        l->start[a] = lo[a] + 0.5f * (extent - (float)(l->n[a] - 1) * s);
    }
}

/* A 2D world's lattices lie in the plane z = 0. */
static void flatten_lattice(fc_lattice *l, int dims)
{
    if (dims == 2) l->n[2] = 1, l->start[2] = 0.0f;
}

void fc_lattice_of_box(fc_lattice *l, const float lo[3], const float hi[3], float s, int dims)
{
    /* n particles per axis each own a cell of width s: place them s/2 in from the box faces */
    float inner_lo[3], inner_hi[3];
    for (int a = 0; a < 3; a++) inner_lo[a] = lo[a] + 0.5f * s, inner_hi[a] = hi[a] - 0.5f * s;
    for (int a = 0; a < 3; a++)
        if (inner_hi[a] < inner_lo[a]) inner_lo[a] = inner_hi[a] = 0.5f * (lo[a] + hi[a]);
    lattice_between(l, inner_lo, inner_hi, s);
    flatten_lattice(l, dims);
}

void fc_lattice_of_sphere(fc_lattice *l, const float center[3], float radius, float s, int dims)
{
    float lo[3], hi[3];
    for (int a = 0; a < 3; a++) lo[a] = center[a] - radius, hi[a] = center[a] + radius;
    lattice_between(l, lo, hi, s);
    flatten_lattice(l, dims);
}

void fc_world_gravity(const fc_world *w, float g[3])
{
    g[0] = (float)w->params.gravity_x, g[1] = (float)w->params.gravity_y;
    g[2] = w->dimensions == 2 ? 0.0f : (float)w->params.gravity_z;
}

void fc_world_particle(const fc_world *w, int fluid, const float x[3], const float v[3], fc_particle *rec)
{
    fc_particle_defaults(rec);
    memcpy(rec->POSITION, x, sizeof rec->POSITION);
    memcpy(rec->VELOCITY, v, sizeof rec->VELOCITY);
    if (w->dimensions == 2) rec->POSITION[2] = rec->VELOCITY[2] = 0.0f; /* the plane z = 0 */
    rec->FLUID = (uint8_t)fluid;
    rec->TEMPERATURE = (float)w->fluids[fluid].temperature;
}
