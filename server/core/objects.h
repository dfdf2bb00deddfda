/* The world's objects in one table: colliders, sinks and emitters as rows of a kind, a posed shape and the kind's properties. */
#ifndef FC_OBJECTS_H
#define FC_OBJECTS_H

#include <stddef.h>

#include "core/shape.h"

/* What an object is. The kinds run their step hooks in this order after a solver's step
 * (fc_objects_step, core/sources.c): sinks take particles, then emitters add theirs. Heat
 * sources and rigid bodies come next as kinds of their own. */
typedef enum { FC_OBJECT_COLLIDER, FC_OBJECT_SINK, FC_OBJECT_EMITTER, FC_OBJECT_KIND_COUNT } fc_object_kind;

/* Objects one world may have at once: movable colliders (spheres and boxes; planes are walls) and
 * emitters; a request for more is refused with over_budget. */
enum { FC_WORLD_MAX_EMITTERS = 64, FC_WORLD_MAX_COLLIDERS = 16 };

/* An emitter's flow: layers of particles shot from its disc (the row's shape: centre, radius,
 * and normal, the unit direction; in 2D a segment in the plane). */
typedef struct fc_emitter {
    float speed;    /* m/s */
    float rate;     /* particles per second */
    float temperature; /* K, of the particles it emits (fc_world_add_object: its fluid's when 0) */
    double pending; /* particles owed but not yet emitted */
    int fluid;      /* index of the fluid emitted in the world's fluids */
} fc_emitter;

/* A solid's thermal contact with the fluid: Newton's law of cooling, a heat flux heat_transfer
 * (T_solid - T) per area of the surface the fluid touches (core/collide.h's fc_contact_heat).
 * heat_transfer 0: an insulating solid, whatever its temperature. */
typedef struct fc_thermal_contact {
    float temperature;   /* K */
    float heat_transfer; /* W/(m^2 K) */
} fc_thermal_contact;

/* A solid given a temperature and no heat_transfer takes this one, about that of water moving past
 * a heater; no solid takes more than the maximum. */
#define FC_HEAT_TRANSFER_DEFAULT 1000.0f
#define FC_HEAT_TRANSFER_MAX 1e5f
/* The container walls' names, in fc_world.walls' order (2D worlds have the first four). */
extern const char *const fc_wall_names[6];

/* One object: its id in the world, its kind, its posed shape (position, orientation, linear and
 * angular velocity, core/shape.h) and the kind's properties. */
typedef struct fc_object {
    int id;
    fc_object_kind kind;
    fc_shape shape;
    fc_emitter emitter;         /* FC_OBJECT_EMITTER */
    fc_thermal_contact thermal; /* FC_OBJECT_COLLIDER: a heater or a cold plate */
} fc_object;

/* The rows, colliders first: the collision code, run for every particle in every step, reads them as
 * one run (fc_collision.colliders) however many emitters and sinks follow. Each kind's rows stay in
 * the order they were added (the boundary sampling meets the colliders in that order); ids come
 * from one counter. */
typedef struct fc_objects {
    fc_object *rows;
    size_t count;
    int next_id;
} fc_objects;

/* The fluid's force on one solid (id: an object's, or 0 for the container's walls) and its torque
 * about the solid's centre (the container's: the origin): N and N m, in a 2D world per metre of
 * depth. What a method sums on the solid's surface (fc_solver.object_loads), for rigid bodies. */
typedef struct fc_object_load {
    int id;
    double force[3], torque[3];
} fc_object_load;

/* The kind's name in scenes, messages and state ("collider", "sink", "emitter"). */
const char *fc_object_kind_name(fc_object_kind kind);

/* Appends a copy of row with a fresh id; returns the id, or -1 when out of memory. */
int fc_objects_add(fc_objects *t, const fc_object *row);
/* Removes the row with this id; 0, or -1 when there is none. */
int fc_objects_remove(fc_objects *t, int id);
/* The row with this id and kind, or NULL. */
fc_object *fc_objects_find(const fc_objects *t, int id, fc_object_kind kind);
/* The next row of this kind after `after` (NULL: the first), or NULL. */
fc_object *fc_objects_next(const fc_objects *t, fc_object_kind kind, const fc_object *after);
/* Rows of this kind. */
size_t fc_objects_count(const fc_objects *t, fc_object_kind kind);
/* Colliders a client may move and remove: spheres and boxes. */
size_t fc_objects_movable_colliders(const fc_objects *t);
/* dst becomes a copy of src (its memory reused); 0, or -1 when out of memory (dst unchanged). */
int fc_objects_copy(fc_objects *dst, const fc_objects *src);
/* The shapes of up to max rows of this kind into out, in row order; returns how many. */
size_t fc_objects_shapes(const fc_objects *t, fc_object_kind kind, fc_shape *out, size_t max);
void fc_objects_free(fc_objects *t);

/* Each row of `kind` in t, as o (an fc_object pointer declared by the loop). */
#define FC_FOR_EACH_OBJECT(t, kind, o) \
    for (fc_object *o = fc_objects_next((t), (kind), NULL); o; o = fc_objects_next((t), (kind), o))

#endif
