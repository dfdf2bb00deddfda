/* Typed commands checked against the world and applied between two steps, on the world thread
 * (PROTOCOL.md 2.2); parameter values applied to parameters and fluids. */
#include "host/command_parts.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/colliders.h"
#include "core/emitter_place.h"
#include "core/params_json.h"
#include "core/solver.h"
#include "host/world_json.h"

#define PI 3.14159265358979323846

/* ---- applying parameter values --------------------------------------------------------------- */

/* The first of the values whose name the relation check's message quotes ('name'), or NULL. */
static const fc_param_value *first_named(const fc_param_values *values, const char *message)
{
    for (size_t i = 0; i < values->count; i++) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "'%s'", values->item[i].desc->name);
        if (strstr(message, quoted)) return &values->item[i];
    }
    return NULL;
}

int fc_param_values_apply(fc_params *p, fc_fluid *fluids, int fluid_count, const fc_solver *solver,
                          const fc_param_values *values, int allow_init, fc_message_error *err)
{
    fc_params next = *p;
    fc_fluid next_fluids[FC_MAX_FLUIDS];
    if (fluid_count > 0) memcpy(next_fluids, fluids, (size_t)fluid_count * sizeof *fluids);
    char why[512];
    for (size_t i = 0; i < values->count; i++) {
        const fc_param_value *v = &values->item[i];
        if (!allow_init && !(v->desc->flags & FC_PARAM_LIVE)) return fc_param_not_live(err, v);
        if (v->fluid[0] && fc_fluid_find(next_fluids, fluid_count, v->fluid) < 0) {
            char names[FC_MAX_FLUIDS * FC_FLUID_NAME_LEN];
            fc_fluid_names(next_fluids, fluid_count, names, sizeof names);
            return fc_param_value_error(err, FC_ERR_UNKNOWN_PARAMETER, v, "no fluid named '%s'; this world has %s", v->fluid,
                               names);
        }
        if (fc_param_set_scoped(&next, next_fluids, fluid_count, v->desc, v->fluid, v->number, why, sizeof why))
            return fc_param_value_error(err, FC_ERR_BAD_VALUE, v, "%s", why);
    }
    if (fc_solver_check_params(solver, &next, why, sizeof why) ||
        (fluid_count > 0 && fc_fluids_check_params(&next, next_fluids, fluid_count, why, sizeof why))) {
        const fc_param_value *culprit = first_named(values, why);
        if (culprit) return fc_param_value_error(err, FC_ERR_BAD_VALUE, culprit, "%s", why);
        fc_message_error_set(err, FC_ERR_BAD_VALUE, NULL, "%s", why);
        return -1;
    }
    *p = next;
    if (fluid_count > 0) memcpy(fluids, next_fluids, (size_t)fluid_count * sizeof *fluids);
    return 0;
}

cJSON *fc_param_values_json(const fc_params *p, const fc_fluid *fluids, int fluid_count, const fc_param_values *values)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; o && i < values->count; i++) {
        const fc_param_value *v = &values->item[i];
        char name[128];
        fc_param_value_name(v, name, sizeof name);
        int f = v->fluid[0] ? fc_fluid_find(fluids, fluid_count, v->fluid) : -1;
        fc_fluid copy;
        if (f >= 0) copy = fluids[f];
        cJSON *value = f >= 0                            ? fc_param_number_json(v->desc, *fc_fluid_param_slot(&copy, v->desc))
                       : v->desc->flags & FC_PARAM_FLUID ? fc_param_number_json(v->desc, fc_fluids_common_value(fluids, fluid_count, v->desc))
                                                         : fc_param_value_json(p, v->desc);
        if (fc_json_attach(o, name, value)) {
            cJSON_Delete(o);
            return NULL;
        }
    }
    return o;
}

int fc_check_max_particles(const fc_budget *b, const fc_param_values *values, fc_message_error *err)
{
    for (size_t i = 0; b && values && i < values->count; i++) {
        const fc_param_value *v = &values->item[i];
        if (strcmp(v->desc->name, "max_particles") != 0 || v->number <= b->limit.particles) continue;
        char limit[32];
        fc_message_error_set(err, FC_ERR_OVER_BUDGET, "values.max_particles",
                             "max_particles %.0f is above the server's budget of %s particles (fluid and boundary, "
                             "all worlds; --max-particles)", v->number, fc_format_count(b->limit.particles, limit, sizeof limit));
        return -1;
    }
    return 0;
}

/* ---- world checks ---------------------------------------------------------------------------- */

static int inside_domain(const fc_world *w, const float p[3])
{
    for (int a = 0; a < 3; a++)
        if (!(p[a] >= w->domain_lo[a] && p[a] <= w->domain_hi[a])) return 0;
    return 1;
}

static int outside_domain(const fc_world *w, const char *field, const float p[3], fc_message_error *err)
{
    fc_message_error_set(err, FC_ERR_BAD_VALUE, field,
                         "expected a point inside the domain [%g, %g, %g]-[%g, %g, %g] m, got [%g, %g, %g]",
                         w->domain_lo[0], w->domain_lo[1], w->domain_lo[2], w->domain_hi[0], w->domain_hi[1],
                         w->domain_hi[2], p[0], p[1], p[2]);
    return -1;
}

static double vector_length(const float v[3])
{
    return sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
}

/* "emitter.position" and so on. */
static void member_path(char *out, size_t outlen, const char *object, const char *name)
{
    snprintf(out, outlen, "%s.%s", object, name);
}

/* What the world decides about the fields given: position inside the domain, direction not zero,
 * a fluid of the world's. */
static int check_emitter_fields(const fc_world *w, const fc_emitter_fields *f, const char *object,
                                fc_message_error *err)
{
    char field[sizeof err->field];
    const fc_object *e = &f->value;
    if ((f->has & FC_EMITTER_HAS_POSITION) && !inside_domain(w, e->shape.center)) {
        member_path(field, sizeof field, object, "position");
        return outside_domain(w, field, e->shape.center, err);
    }
    if ((f->has & FC_EMITTER_HAS_DIRECTION) && !(vector_length(e->shape.normal) > 0.0)) {
        member_path(field, sizeof field, object, "direction");
        fc_message_error_set(err, FC_ERR_BAD_VALUE, field, "expected a non-zero vector, got [%g, %g, %g]",
                             e->shape.normal[0], e->shape.normal[1], e->shape.normal[2]);
        return -1;
    }
    if ((f->has & FC_EMITTER_HAS_FLUID) && (f->fluid < 0 || f->fluid >= w->fluid_count)) {
        char names[FC_MAX_FLUIDS * FC_FLUID_NAME_LEN];
        fc_fluid_names(w->fluids, w->fluid_count, names, sizeof names);
        member_path(field, sizeof field, object, "fluid");
        fc_message_error_set(err, FC_ERR_BAD_VALUE, field, "no fluid %d in this world: it has %d (%s, from 0)", f->fluid,
                             w->fluid_count, names);
        return -1;
    }
    return 0;
}

/* What the server's budget allows of an emitter (after its fields are merged): a radius within
 * half the domain's largest extent, and a rate whose second of emission fits the budget. */
static int check_emitter_size(const fc_world *w, const fc_object *e, const char *object, fc_message_error *err)
{
    char field[sizeof err->field];
    double largest = 0.0;
    for (int a = 0; a < 3; a++) largest = fmax(largest, (double)w->domain_hi[a] - w->domain_lo[a]);
    if (e->shape.radius > 0.5 * largest) {
        member_path(field, sizeof field, object, "radius");
        fc_message_error_set(err, FC_ERR_BAD_VALUE, field,
                             "expected at most %g m (half the domain's largest extent), got %g", 0.5 * largest,
                             e->shape.radius);
        return -1;
    }
    if (w->budget && e->emitter.rate > w->budget->limit.particles) {
        char limit[32];
        member_path(field, sizeof field, object, "rate");
        fc_message_error_set(err, FC_ERR_OVER_BUDGET, field,
                             "%g particles/s would not fit a second of emission into the server's budget of %s particles; "
                             "give a rate of at most %.0f", e->emitter.rate, fc_format_count(w->budget->limit.particles, limit, sizeof limit),
                             w->budget->limit.particles);
        return -1;
    }
    return 0;
}

int fc_check_emitter(const fc_world *w, const fc_object *e, const char *object, fc_message_error *err)
{
    const fc_emitter_fields every = {.has = FC_EMITTER_HAS_POSITION | FC_EMITTER_HAS_DIRECTION | FC_EMITTER_HAS_FLUID,
                                     .value = *e, .fluid = e->emitter.fluid};
    return check_emitter_fields(w, &every, object, err) || check_emitter_size(w, e, object, err) ? -1 : 0;
}

/* Copies the fields given onto e, the direction normalised (checked not zero). */
static void merge_emitter_fields(fc_object *e, const fc_emitter_fields *f)
{
    for (int i = 0; i < FC_EMITTER_MEMBER_COUNT; i++) {
        const fc_emitter_member *m = &fc_emitter_members[i];
        if (f->has & m->bit)
            memcpy(fc_emitter_slot(e, m), fc_emitter_field(&f->value, m), (size_t)m->components * sizeof(float));
    }
    if (f->has & FC_EMITTER_HAS_DIRECTION) {
        double length = vector_length(e->shape.normal);
        for (int a = 0; a < 3; a++) e->shape.normal[a] = (float)(e->shape.normal[a] / length);
    }
    if (f->has & FC_EMITTER_HAS_FLUID) e->emitter.fluid = f->fluid;
}

static int unknown_emitter(int id, fc_message_error *err)
{
    fc_message_error_set(err, FC_ERR_UNKNOWN_EMITTER, "emitter", "no emitter with id %d in this world", id);
    return -1;
}

/* A sphere or box with this id; planes cannot be moved. */
static fc_object *find_movable_collider(fc_world *w, int id)
{
    fc_object *o = fc_objects_find(&w->objects, id, FC_OBJECT_COLLIDER);
    return o && o->shape.kind != FC_SHAPE_PLANE ? o : NULL;
}

/* ---- applying world-level commands ----------------------------------------------------------- */

int fc_reserve_step_work(fc_world *w, const fc_params *p, const fc_solver *s, const char *field, fc_message_error *err)
{
    if (!w->budget) return 0;
    fc_cost want = fc_world_cost_with(w, p, s, (double)w->particles.count);
    want.particles = fmax(want.particles, w->budget_held.particles), want.bytes = fmax(want.bytes, w->budget_held.bytes);
    if (want.particles <= w->budget_held.particles && want.bytes <= w->budget_held.bytes) return 0; /* covered */
    char why[256];
    if (fc_budget_try_change(w->budget, &w->budget_held, want, why, sizeof why) == 0) return 0;
    fc_message_error_set(err, FC_ERR_OVER_BUDGET, field,
                         "steps of %s with these values would cost as much as %.3g times its %zu particles (iterations and "
                         "neighbours per particle); %s (--max-particles)",
                         s ? s->name : "its solver", fc_step_work(s, p, w->dimensions), w->particles.count, why);
    return -1;
}

static int apply_set(fc_world *w, const fc_param_values *values, cJSON *applied, fc_message_error *err)
{
    if (fc_check_max_particles(w->budget, values, err)) return -1;
    fc_params next = w->params;
    fc_fluid next_fluids[FC_MAX_FLUIDS];
    memcpy(next_fluids, w->fluids, sizeof next_fluids);
    if (fc_param_values_apply(&next, next_fluids, w->fluid_count, w->solver, values, 0, err)) return -1;
    if (fc_reserve_step_work(w, &next, w->solver, "values", err)) return -1;
    if (fc_json_attach(applied, "values", fc_param_values_json(&next, next_fluids, w->fluid_count, values)))
        return fc_command_out_of_memory(err);
    w->params = next;
    memcpy(w->fluids, next_fluids, sizeof w->fluids);
    fc_world_host_changed(w, FC_CHANGED_PARAMS);
    return 0;
}

/* The note of an emitter_add: where the server placed the emitter (position not given), and when
 * the world's emitters fill a container that no sink drains (fc_emitters_fill_estimate). */
static int emitter_add_notes(const fc_world *w, const fc_emitter_place *place, cJSON *applied)
{
    char note[600] = "";
    size_t used = 0;
    if (place) {
        const char axis = "xyz"[place->up];
        if (place->room >= 2.0f * (float)w->params.particle_spacing)
            used += (size_t)snprintf(note, sizeof note,
                                     "placed in the free space above the fluid (its surface or a solid at %c = %.3g m "
                                     "under it, %.2g m of room), pointing down. ", axis, place->below, place->room);
        else
            used += (size_t)snprintf(note, sizeof note,
                                     "there is no free space above the fluid (the container is full): placed under the "
                                     "lid at %c = %.3g m, pointing down. ", axis, place->position[place->up]);
    }
    fc_fill_estimate fill;
    fc_emitters_fill_estimate(w, &fill);
    if (isfinite(fill.seconds)) {
        if (cJSON_AddNumberToObject(applied, "fills_in", fill.seconds) == NULL) return -1;
        if (used < sizeof note)
            snprintf(note + used, sizeof note - used,
                     "The container is closed (no sink): at %.0f particles/s from its emitters its free %s of %.3g %s "
                     "is full in about %.2g s of simulated time, and then the fluid is squeezed until the world blows "
                     "up; lower the rate, remove the emitter or add a sink before then.",
                     fill.rate, w->dimensions == 2 ? "area" : "volume", fill.free_volume,
                     w->dimensions == 2 ? "m^2" : "m^3", fill.seconds);
    }
    if (note[0] && cJSON_AddStringToObject(applied, "note", note) == NULL) return -1;
    return 0;
}

/* An emitter from the fields given, the server's defaults for the others: radius 2.5 spacings,
 * speed 1.5 m/s, a place above the fluid (fc_emitter_default_place) when position is not given,
 * aimed down unless direction is, and a continuous jet's rate for the world's dimensions. */
static int apply_emitter_add(fc_world *w, const fc_emitter_fields *f, cJSON *applied, fc_message_error *err)
{
    if (check_emitter_fields(w, f, "emitter", err)) return -1;
    if (fc_objects_count(&w->objects, FC_OBJECT_EMITTER) >= FC_WORLD_MAX_EMITTERS) {
        fc_message_error_set(err, FC_ERR_OVER_BUDGET, NULL, "a world has at most %d emitters; remove one first",
                             FC_WORLD_MAX_EMITTERS);
        return -1;
    }
    fc_object e = fc_emitter_default_row(w);
    merge_emitter_fields(&e, f);
    fc_emitter_place place;
    const int placed = !(f->has & FC_EMITTER_HAS_POSITION);
    fc_emitter_complete(w, &e, !placed, (f->has & FC_EMITTER_HAS_DIRECTION) != 0, (f->has & FC_EMITTER_HAS_RATE) != 0, &place);
    if (check_emitter_size(w, &e, "emitter", err)) return -1;
    const int id = fc_world_add_object(w, &e);
    if (id < 0) return fc_command_out_of_memory(err);
    if (fc_json_attach(applied, "emitter", fc_json_object(fc_objects_find(&w->objects, id, FC_OBJECT_EMITTER))) ||
        emitter_add_notes(w, placed ? &place : NULL, applied)) {
        fc_world_remove_object(w, id);
        return fc_command_out_of_memory(err);
    }
    return 0;
}

static int apply_emitter_update(fc_world *w, int id, const fc_emitter_fields *changes, cJSON *applied,
                                fc_message_error *err)
{
    fc_object *target = fc_objects_find(&w->objects, id, FC_OBJECT_EMITTER);
    if (!target) return unknown_emitter(id, err);
    if (check_emitter_fields(w, changes, "changes", err)) return -1;
    fc_object e = *target;
    merge_emitter_fields(&e, changes);
    if (check_emitter_size(w, &e, "changes", err)) return -1;
    if (fc_json_attach(applied, "emitter", fc_json_object(&e))) return fc_command_out_of_memory(err);
    *target = e;
    return 0;
}

static int apply_emitter_remove(fc_world *w, int id, cJSON *applied, fc_message_error *err)
{
    fc_object *target = fc_objects_find(&w->objects, id, FC_OBJECT_EMITTER);
    if (!target) return unknown_emitter(id, err);
    if (fc_json_attach(applied, "emitter", cJSON_CreateNumber(id))) return fc_command_out_of_memory(err);
    fc_world_remove_object(w, id);
    return 0;
}

static int unknown_collider(int id, fc_message_error *err)
{
    fc_message_error_set(err, FC_ERR_UNKNOWN_COLLIDER, "collider",
                         "no sphere or box with id %d in this world (planes cannot be moved or removed)", id);
    return -1;
}

/* In a 2D world a rotation turns about z only: the shape stays a rectangle in the plane. */
static int check_rotation(const fc_world *w, unsigned has_rotation, const float degrees[3], const char *field,
                          fc_message_error *err)
{
    if (!has_rotation || w->dimensions != 2 || (degrees[0] == 0.0f && degrees[1] == 0.0f)) return 0;
    fc_message_error_set(err, FC_ERR_BAD_VALUE, field,
                         "a 2D world turns shapes about z only: expected [0, 0, degrees], got [%g, %g, %g]", degrees[0],
                         degrees[1], degrees[2]);
    return -1;
}

/* The box turned to `degrees` (x, then y, then z). */
static void set_rotation(fc_shape *s, const float degrees[3])
{
    float q[4];
    fc_quaternion_from_degrees(degrees, q);
    fc_shape_set_orientation(s, q);
}

static int apply_collider_move(fc_world *w, const fc_command *cmd, cJSON *applied, fc_message_error *err)
{
    const int id = cmd->u.collider_move.collider;
    const float *position = cmd->u.collider_move.position, *velocity = cmd->u.collider_move.velocity;
    const unsigned has = cmd->u.collider_move.has;
    fc_object *target = find_movable_collider(w, id);
    if (!target) return unknown_collider(id, err);
    if (!inside_domain(w, position)) return outside_domain(w, "position", position, err);
    if (check_rotation(w, has & FC_COLLIDER_HAS_ROTATION, cmd->u.collider_move.rotation, "rotation", err)) return -1;
    if ((has & FC_COLLIDER_HAS_ROTATION) && target->shape.kind != FC_SHAPE_BOX) {
        fc_message_error_set(err, FC_ERR_BAD_VALUE, "rotation", "a sphere has no rotation; only boxes turn");
        return -1;
    }
    fc_shape moved = target->shape;
    memcpy(moved.center, position, sizeof moved.center);
    memcpy(moved.velocity, velocity, sizeof moved.velocity);
    memcpy(moved.angular_velocity, cmd->u.collider_move.angular_velocity, sizeof moved.angular_velocity);
    if (has & FC_COLLIDER_HAS_ROTATION) set_rotation(&moved, cmd->u.collider_move.rotation);
    fc_world_shape_in_plane(w, &moved);
    float degrees[3];
    fc_shape_rotation_degrees(&moved, degrees);
    if (fc_json_attach(applied, "collider", cJSON_CreateNumber(id)) ||
        fc_json_attach(applied, "position", fc_json_vector(position)) ||
        fc_json_attach(applied, "velocity", fc_json_vector(velocity)) ||
        ((has & FC_COLLIDER_HAS_ROTATION) && fc_json_attach(applied, "rotation", fc_json_vector(degrees))))
        return fc_command_out_of_memory(err);
    target->shape = moved;
    fc_world_object_moved(w, target);
    return 0;
}

/* The whole shape within the domain (with the scene format's slack of 1e-5 of the extent); in a 2D
 * world its section by the plane z = 0 (fc_world_shape_in_plane), so x and y. */
static int check_collider_inside(const fc_world *w, const fc_shape *s, const char *size_field, fc_message_error *err)
{
    float extents[3];
    fc_shape_extent(s, extents);
    for (int a = 0; a < (w->dimensions == 2 ? 2 : 3); a++) {
        float extent = extents[a];
        float slack = 1e-5f * (w->domain_hi[a] - w->domain_lo[a]);
        float lo = s->center[a] - extent, hi = s->center[a] + extent;
        if (lo >= w->domain_lo[a] - slack && hi <= w->domain_hi[a] + slack) continue;
        float room = fminf(s->center[a] - w->domain_lo[a], w->domain_hi[a] - s->center[a]);
        fc_message_error_set(err, FC_ERR_BAD_VALUE, size_field,
                             "expected the collider to lie inside the domain [%g, %g, %g]-[%g, %g, %g] m; on %c it reaches "
                             "from %g to %g m (at this position at most %g m)",
                             w->domain_lo[0], w->domain_lo[1], w->domain_lo[2], w->domain_hi[0], w->domain_hi[1],
                             w->domain_hi[2], "xyz"[a], lo, hi, room);
        return -1;
    }
    return 0;
}

/* The world's budget covers what its method answers with the new collider (fc_world_cost_adding,
 * as the scene estimate asks): never lowered, raised when needed, else over_budget. */
static int reserve_collider(fc_world *w, const fc_shape *added, const char *size_field, fc_message_error *err)
{
    if (!w->budget) return 0;
    double structures = 0.0;
    fc_cost want = fc_world_cost_adding(w, added, &structures);
    want.particles = fmax(want.particles, w->budget_held.particles), want.bytes = fmax(want.bytes, w->budget_held.bytes);
    if (want.particles <= w->budget_held.particles && want.bytes <= w->budget_held.bytes) return 0; /* covered */
    char why[256], count[32];
    if (fc_budget_try_change(w->budget, &w->budget_held, want, why, sizeof why) == 0) return 0;
    fc_message_error_set(err, FC_ERR_OVER_BUDGET, size_field,
                         "a collider this size takes about %s %s; %s (--max-particles); use a smaller one",
                         fc_format_count(structures, count, sizeof count),
                         w->solver->structures_name ? w->solver->structures_name : "particles' worth of the solver's structures",
                         why);
    return -1;
}

int fc_check_collider(const fc_world *w, const fc_shape *s, const char *object, fc_message_error *err)
{
    if (s->kind == FC_SHAPE_PLANE) return 0; /* a wall across the domain, wherever its point */
    char field[sizeof err->field];
    member_path(field, sizeof field, object, "position");
    if (!inside_domain(w, s->center)) return outside_domain(w, field, s->center, err);
    member_path(field, sizeof field, object, s->kind == FC_SHAPE_SPHERE ? "radius" : "half_extents");
    return check_collider_inside(w, s, field, err);
}

/* The thermal fields that came merged into *c (the scene format's rule, scenes/README.md): a
 * temperature given to a solid that had none heats with FC_HEAT_TRANSFER_DEFAULT unless a
 * heat_transfer came too; a heat_transfer without any temperature is refused on
 * `object`.heat_transfer. 0, or -1 with *c unchanged. */
static int merge_thermal(fc_thermal_contact *c, const fc_thermal_fields *f, const char *object, fc_message_error *err)
{
    fc_thermal_contact merged = *c;
    if (f->has & FC_THERMAL_HAS_TEMPERATURE) {
        if (c->temperature <= 0.0f) merged.heat_transfer = FC_HEAT_TRANSFER_DEFAULT;
        merged.temperature = f->value.temperature;
    }
    if (f->has & FC_THERMAL_HAS_HEAT_TRANSFER) merged.heat_transfer = f->value.heat_transfer;
    if (merged.heat_transfer > 0.0f && merged.temperature <= 0.0f) {
        char field[sizeof err->field];
        member_path(field, sizeof field, object, "heat_transfer");
        fc_message_error_set(err, FC_ERR_BAD_VALUE, field,
                             "a heat_transfer needs the solid's temperature beside it (send temperature too)");
        return -1;
    }
    *c = merged;
    return 0;
}

/* A heat setting (a solid's temperature or heat_transfer) in a world without heat conduction is
 * kept but does nothing until it is on: the ack's note says so, and how. 0, or -1 out of memory. */
static int heat_off_note(const fc_world *w, unsigned given, cJSON *applied)
{
    if (!given || w->params.heat_conduction != 0) return 0;
    return cJSON_AddStringToObject(applied, "note",
                                   "heat conduction is off (Heat conduction: none), so the solids' temperatures are kept "
                                   "but heat no fluid: set heat_conduction to cleary_monaghan (the panel's Heat conduction) "
                                   "to turn it on") ? 0 : -1;
}

static int apply_collider_update(fc_world *w, const fc_command *cmd, cJSON *applied, fc_message_error *err)
{
    const int id = cmd->u.collider_update.collider;
    fc_object *target = find_movable_collider(w, id);
    if (!target) return unknown_collider(id, err);
    fc_object updated = *target;
    if (merge_thermal(&updated.thermal, &cmd->u.collider_update.changes, "changes", err)) return -1;
    if (fc_json_attach(applied, "collider", fc_json_object(&updated)) ||
        heat_off_note(w, cmd->u.collider_update.changes.has, applied))
        return fc_command_out_of_memory(err);
    *target = updated;
    return 0;
}

static int apply_walls_update(fc_world *w, const fc_command *cmd, cJSON *applied, fc_message_error *err)
{
    fc_thermal_contact walls[6];
    memcpy(walls, w->walls, sizeof walls);
    for (int side = 0; side < 6; side++) {
        const fc_thermal_fields *f = &cmd->u.walls_update.walls[side];
        char object[32];
        snprintf(object, sizeof object, "walls.%s", fc_wall_names[side]);
        if (!f->has) continue;
        if (side >= 4 && w->dimensions == 2) {
            fc_message_error_set(err, FC_ERR_BAD_VALUE, object, "a 2D world has no walls across z (x_min to y_max only)");
            return -1;
        }
        if (merge_thermal(&walls[side], f, object, err)) return -1;
    }
    unsigned given = 0;
    for (int side = 0; side < 6; side++) given |= cmd->u.walls_update.walls[side].has;
    if (fc_json_attach(applied, "walls", fc_json_walls(walls, w->dimensions)) || heat_off_note(w, given, applied))
        return fc_command_out_of_memory(err);
    memcpy(w->walls, walls, sizeof walls);
    return 0;
}

static int apply_collider_add(fc_world *w, const fc_command *cmd, cJSON *applied, fc_message_error *err)
{
    const fc_shape *s = &cmd->u.collider_add.shape;
    const int sphere = s->kind == FC_SHAPE_SPHERE;
    const char *size_field = sphere ? "collider.radius" : "collider.half_extents";
    const unsigned other = sphere ? FC_COLLIDER_HAS_HALF_EXTENTS : FC_COLLIDER_HAS_RADIUS;
    if (cmd->u.collider_add.has & other) {
        fc_message_error_set(err, FC_ERR_BAD_VALUE, sphere ? "collider.half_extents" : "collider.radius",
                             "a %s takes %s only", sphere ? "sphere" : "box", sphere ? "radius" : "half_extents");
        return -1;
    }
    if (fc_objects_movable_colliders(&w->objects) >= FC_WORLD_MAX_COLLIDERS) {
        fc_message_error_set(err, FC_ERR_OVER_BUDGET, NULL,
                             "a world has at most %d spheres and boxes (welcome.limits.max_colliders); remove one first",
                             FC_WORLD_MAX_COLLIDERS);
        return -1;
    }
    const unsigned rotated = cmd->u.collider_add.has & FC_COLLIDER_HAS_ROTATION;
    if (rotated && sphere) {
        fc_message_error_set(err, FC_ERR_BAD_VALUE, "collider.rotation", "a sphere has no rotation; only boxes turn");
        return -1;
    }
    if (check_rotation(w, rotated, cmd->u.collider_add.rotation, "collider.rotation", err)) return -1;
    fc_shape shape = {.kind = s->kind, .radius = sphere ? s->radius : 0.0f};
    memcpy(shape.center, s->center, sizeof shape.center);
    if (!sphere) memcpy(shape.half, s->half, sizeof shape.half);
    if (rotated) set_rotation(&shape, cmd->u.collider_add.rotation);
    fc_object row = fc_collider_row(&shape);
    if (merge_thermal(&row.thermal, &cmd->u.collider_add.thermal, "collider", err) ||
        fc_check_collider(w, &shape, "collider", err) || reserve_collider(w, &shape, size_field, err))
        return -1;
    int id = fc_world_add_object(w, &row);
    if (id < 0) return fc_command_out_of_memory(err);
    if (fc_json_attach(applied, "collider", fc_json_object(fc_objects_find(&w->objects, id, FC_OBJECT_COLLIDER))) ||
        heat_off_note(w, cmd->u.collider_add.thermal.has, applied) || fc_world_cut_away(w, &shape) < 0) { /* the fluid where it appears goes, as in a scene */
        fc_world_remove_object(w, id);
        return fc_command_out_of_memory(err);
    }
    return 0;
}

static int apply_collider_remove(fc_world *w, int id, cJSON *applied, fc_message_error *err)
{
    if (!find_movable_collider(w, id)) return unknown_collider(id, err);
    if (fc_json_attach(applied, "collider", cJSON_CreateNumber(id))) return fc_command_out_of_memory(err);
    fc_world_remove_object(w, id);
    return 0;
}

/* {"id", "fluid", "position", "velocity", "speed", "density", "temperature"} of particle i. */
static cJSON *picked_json(const fc_particles *p, size_t i)
{
    fc_particle rec;
    fc_particles_get(p, i, &rec);
    float x[3] = {p->field[FC_PX][i], p->field[FC_PY][i], p->field[FC_PZ][i]};
    float v[3] = {p->field[FC_VX][i], p->field[FC_VY][i], p->field[FC_VZ][i]};
    cJSON *o = cJSON_CreateObject();
    if (!o || fc_json_attach(o, "id", cJSON_CreateNumber(p->id[i])) || fc_json_attach(o, "fluid", cJSON_CreateNumber(rec.FLUID)) ||
        fc_json_attach(o, "position", fc_json_vector(x)) || fc_json_attach(o, "velocity", fc_json_vector(v)) ||
        fc_json_attach(o, "speed", fc_json_float((float)vector_length(v))) ||
        fc_json_attach(o, "density", fc_json_float(p->field[FC_DENSITY][i])) ||
        fc_json_attach(o, "temperature", fc_json_float(rec.TEMPERATURE))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* The fluid particle nearest to q (a scan of all of them), or null when there is none. */
static int apply_pick(fc_world *w, const float q[3], cJSON *applied, fc_message_error *err)
{
    fc_world_sync_to_host(w, FC_SYNC_ALL);
    const fc_particles *p = &w->particles;
    const float *x = p->field[FC_PX], *y = p->field[FC_PY], *z = p->field[FC_PZ];
    size_t best = p->count;
    double best_d2 = INFINITY;
    for (size_t i = 0; i < p->count; i++) {
        double dx = (double)x[i] - q[0], dy = (double)y[i] - q[1], dz = (double)z[i] - q[2];
        double d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < best_d2) best_d2 = d2, best = i; /* a particle at NaN is never nearer */
    }
    cJSON *particle = best < p->count ? picked_json(p, best) : cJSON_CreateNull();
    return fc_json_attach(applied, "particle", particle) ? fc_command_out_of_memory(err) : 0;
}

int fc_command_apply_to_world(fc_world *w, const fc_command *cmd, cJSON *applied, fc_message_error *err)
{
    fc_command_note_request(cmd, err);
    switch (cmd->type) {
    case FC_MSG_SET: return apply_set(w, &cmd->u.set.values, applied, err);
    case FC_MSG_EMITTER_ADD: return apply_emitter_add(w, &cmd->u.emitter_add.emitter, applied, err);
    case FC_MSG_EMITTER_UPDATE:
        return apply_emitter_update(w, cmd->u.emitter_update.emitter, &cmd->u.emitter_update.changes, applied, err);
    case FC_MSG_EMITTER_REMOVE: return apply_emitter_remove(w, cmd->u.emitter_remove.emitter, applied, err);
    case FC_MSG_COLLIDER_MOVE: return apply_collider_move(w, cmd, applied, err);
    case FC_MSG_COLLIDER_ADD: return apply_collider_add(w, cmd, applied, err);
    case FC_MSG_COLLIDER_UPDATE: return apply_collider_update(w, cmd, applied, err);
    case FC_MSG_COLLIDER_REMOVE: return apply_collider_remove(w, cmd->u.collider_remove.collider, applied, err);
    case FC_MSG_WALLS_UPDATE: return apply_walls_update(w, cmd, applied, err);
    case FC_MSG_PICK: return apply_pick(w, cmd->u.pick.position, applied, err);
    default:
        fc_message_error_set(err, FC_ERR_INTERNAL, NULL, "%s is not a request for a world's content",
                             err->request[0] ? err->request : "this message");
        return -1;
    }
}
