/* Typed commands built from validated client messages on the network thread, their values read
 * against the parameter table (PROTOCOL.md 2.2); command_apply.c applies them. */
#include "host/command_parts.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/params_json.h"
#include "core/solver.h"
#include "host/world_json.h"

static const cJSON *member(const cJSON *object, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(object, name);
}

int fc_command_out_of_memory(fc_message_error *err)
{
    fc_message_error_set(err, FC_ERR_INTERNAL, NULL, "out of memory");
    return -1;
}

/* ---- errors about one parameter value: field "values.NAME" ---------------------------------- */

void fc_param_value_name(const fc_param_value *v, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s%s%s", v->fluid, v->fluid[0] ? "." : "", v->desc->name);
}

int fc_param_value_error(fc_message_error *err, fc_error_code code, const fc_param_value *v, const char *fmt, ...)
{
    char field[sizeof err->field], text[sizeof err->message], name[128];
    fc_param_value_name(v, name, sizeof name);
    snprintf(field, sizeof field, "values.%s", name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fc_message_error_set(err, code, field, "%s", text);
    return -1;
}

int fc_param_not_live(fc_message_error *err, const fc_param_value *v)
{
    char name[128];
    fc_param_value_name(v, name, sizeof name);
    return fc_param_value_error(err, FC_ERR_NOT_LIVE, v,
                       "%s is set when the world is built; send it with reset or load_scene", name);
}

/* ---- reading the fields of a validated message ---------------------------------------------- */

static double number_or(const cJSON *object, const char *name, double fallback)
{
    const cJSON *v = member(object, name);
    return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

/* A number (components 1) or a vector (3) into floats; what is absent reads as 0. */
static void read_floats(const cJSON *v, float *out, int components)
{
    for (int a = 0; a < components; a++) out[a] = 0.0f;
    if (components == 1 && cJSON_IsNumber(v)) out[0] = (float)v->valuedouble;
    int a = 0;
    for (const cJSON *e = cJSON_IsArray(v) ? v->child : NULL; e && a < components; e = e->next, a++)
        out[a] = cJSON_IsNumber(e) ? (float)e->valuedouble : 0.0f;
}

static void string_or_empty(const cJSON *object, const char *name, char *out, size_t outlen)
{
    const cJSON *v = member(object, name);
    snprintf(out, outlen, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

/* ---- parameter values ------------------------------------------------------------------------ */

/* " Pa s" after a range; nothing for dimensionless ("1") or unitless parameters. */
static const char *unit_suffix(const fc_param_desc *d, char *out, size_t outlen)
{
    int shown = d->unit[0] && strcmp(d->unit, "1") != 0;
    snprintf(out, outlen, "%s%s", shown ? " " : "", shown ? d->unit : "");
    return out;
}

/* What the parameter takes, for messages: "a number from 0 to 100 Pa s", "one of tait, linear". */
static void describe_expected(const fc_param_desc *d, char *out, size_t outlen)
{
    char unit[64];
    switch (d->type) {
    case FC_PARAM_FLOAT:
    case FC_PARAM_INT:
        snprintf(out, outlen, "%s from %.10g to %.10g%s", d->type == FC_PARAM_INT ? "an integer" : "a number", d->min,
                 d->max, unit_suffix(d, unit, sizeof unit));
        return;
    case FC_PARAM_BOOL: snprintf(out, outlen, "true or false"); return;
    case FC_PARAM_ENUM: {
        size_t used = (size_t)snprintf(out, outlen, "one of ");
        for (const char *c = d->unit; *c && used + 3 < outlen; c++) {
            if (*c == '|') out[used++] = ',', out[used++] = ' ';
            else out[used++] = *c;
        }
        out[used < outlen ? used : outlen - 1] = '\0';
        return;
    }
    }
}

/* The JSON value as a number for the table (bools 0/1, enums the choice's index) when its type
 * and range fit the parameter; 0, or -1. */
static int table_number(const fc_param_desc *d, const cJSON *v, double *number)
{
    switch (d->type) {
    case FC_PARAM_FLOAT:
    case FC_PARAM_INT:
        if (!cJSON_IsNumber(v)) return -1;
        *number = v->valuedouble;
        return fc_param_check_number(d, d->name, *number, NULL, 0) ? -1 : 0; /* the table's own rule */
    case FC_PARAM_BOOL:
        if (!cJSON_IsBool(v)) return -1;
        *number = cJSON_IsTrue(v) ? 1.0 : 0.0;
        return 0;
    case FC_PARAM_ENUM: {
        int index = cJSON_IsString(v) ? fc_param_enum_index(d, v->valuestring) : -1;
        *number = index;
        return index < 0 ? -1 : 0;
    }
    }
    return -1;
}

static int bad_table_value(fc_message_error *err, const fc_param_value *pv, const cJSON *v)
{
    char expected[256];
    if ((pv->desc->flags & FC_PARAM_ABOVE_MIN) && cJSON_IsNumber(v)) { /* the limit's words say what narrowing did */
        const fc_limit l = fc_param_limit(pv->desc);
        fc_limit_check(&l, v->valuedouble, NULL, expected, sizeof expected);
        return fc_param_value_error(err, FC_ERR_BAD_VALUE, pv, "%s", expected);
    }
    describe_expected(pv->desc, expected, sizeof expected);
    char *got = cJSON_PrintUnformatted(v);
    fc_param_value_error(err, FC_ERR_BAD_VALUE, pv, "expected %s, got %s", expected, got ? got : "another value");
    free(got);
    return -1;
}

/* One entry of a values object: a known name, live when live_only, a value of the table's type
 * and range. */
static int read_value(const cJSON *v, int live_only, fc_param_value *out, fc_message_error *err)
{
    const fc_param_desc *d;
    char why[256];
    if (fc_param_split(v->string, &d, out->fluid, why, sizeof why)) {
        char field[sizeof err->field];
        snprintf(field, sizeof field, "values.%s", v->string);
        const char *dot = strchr(v->string, '.');
        char near[96];
        if (!d)
            fc_message_error_set(err, FC_ERR_UNKNOWN_PARAMETER, field,
                                 "no parameter '%s' in the table%s (welcome.parameters, fluidcast params)", v->string,
                                 fc_param_did_you_mean(dot ? dot + 1 : v->string, near, sizeof near));
        else
            fc_message_error_set(err, FC_ERR_UNKNOWN_PARAMETER, field, "%s", why);
        return -1;
    }
    out->desc = d;
    if (live_only && !(d->flags & FC_PARAM_LIVE)) return fc_param_not_live(err, out);
    return table_number(d, v, &out->number) ? bad_table_value(err, out, v) : 0;
}

/* A values object (absent: none), checked in the order of its members. */
static int read_values(const cJSON *values, int live_only, fc_param_values *out, fc_message_error *err)
{
    out->count = 0;
    for (const cJSON *v = cJSON_IsObject(values) ? values->child : NULL; v; v = v->next) {
        if (out->count == FC_COMMAND_MAX_VALUES) {
            fc_message_error_set(err, FC_ERR_BAD_VALUE, "values", "expected at most %d entries",
                                 FC_COMMAND_MAX_VALUES);
            return -1;
        }
        if (read_value(v, live_only, &out->item[out->count], err)) return -1;
        out->count++;
    }
    return 0;
}

/* ---- emitter fields -------------------------------------------------------------------------- */

/* The float fields of an emitter that emitter_add and emitter_update carry. */
const fc_emitter_member fc_emitter_members[FC_EMITTER_MEMBER_COUNT] = {
    {"position", FC_EMITTER_HAS_POSITION, offsetof(fc_object, shape.center), 3, FC_OBJECT_FIELD_COUNT},
    {"direction", FC_EMITTER_HAS_DIRECTION, offsetof(fc_object, shape.normal), 3, FC_OBJECT_FIELD_COUNT},
    {"radius", FC_EMITTER_HAS_RADIUS, offsetof(fc_object, shape.radius), 1, FC_FIELD_EMITTER_RADIUS},
    {"speed", FC_EMITTER_HAS_SPEED, offsetof(fc_object, emitter.speed), 1, FC_FIELD_EMITTER_SPEED},
    {"rate", FC_EMITTER_HAS_RATE, offsetof(fc_object, emitter.rate), 1, FC_FIELD_EMITTER_RATE},
    {"temperature", FC_EMITTER_HAS_TEMPERATURE, offsetof(fc_object, emitter.temperature), 1, FC_FIELD_TEMPERATURE},
};

/* object.name (a number, or an array of `components` numbers) into floats, each within the field's
 * limit after narrowing (fc_object_field_check, as a scene document's); bad_value naming
 * "object.name" or "object.name[i]" ("name" when object is ""). */
static int read_limited(const cJSON *v, const char *object, const char *name, fc_object_field limit, float *out,
                        int components, fc_message_error *err)
{
    read_floats(v, out, components);
    const cJSON *e = cJSON_IsArray(v) ? v->child : v;
    for (int a = 0; e && a < components; e = cJSON_IsArray(v) ? e->next : NULL, a++) {
        char why[192], field[sizeof err->field];
        if (!cJSON_IsNumber(e) || fc_object_field_check(limit, e->valuedouble, &out[a], why, sizeof why) == 0) continue;
        int used = snprintf(field, sizeof field, "%s%s%s", object, object[0] ? "." : "", name);
        if (cJSON_IsArray(v) && used > 0 && (size_t)used < sizeof field) snprintf(field + used, sizeof field - (size_t)used, "[%d]", a);
        fc_message_error_set(err, FC_ERR_BAD_VALUE, field, "%s", why);
        return -1;
    }
    return 0;
}

/* An emitter's fields ("emitter" of emitter_add, "changes" of emitter_update: `name`). */
static int read_emitter_fields(const cJSON *object, const char *name, fc_emitter_fields *f, fc_message_error *err)
{
    memset(f, 0, sizeof *f);
    for (int i = 0; i < FC_EMITTER_MEMBER_COUNT; i++) {
        const fc_emitter_member *m = &fc_emitter_members[i];
        const cJSON *v = member(object, m->name);
        if (!v) continue;
        f->has |= m->bit;
        if (m->limit == FC_OBJECT_FIELD_COUNT) read_floats(v, fc_emitter_slot(&f->value, m), m->components);
        else if (read_limited(v, name, m->name, m->limit, fc_emitter_slot(&f->value, m), m->components, err)) return -1;
    }
    if (member(object, "fluid")) {
        f->has |= FC_EMITTER_HAS_FLUID;
        f->fluid = (int)number_or(object, "fluid", 0.0);
    }
    return 0;
}

/* A solid's "temperature" and "heat_transfer" (schema-valid; object NULL: none came), `name` in errors. */
static int read_thermal_fields(const cJSON *object, const char *name, fc_thermal_fields *f, fc_message_error *err)
{
    memset(f, 0, sizeof *f);
    if (!object) return 0;
    const cJSON *temperature = member(object, "temperature"), *transfer = member(object, "heat_transfer");
    if (temperature) f->has |= FC_THERMAL_HAS_TEMPERATURE;
    if (transfer) f->has |= FC_THERMAL_HAS_HEAT_TRANSFER;
    return (temperature && read_limited(temperature, name, "temperature", FC_FIELD_TEMPERATURE, &f->value.temperature, 1, err)) ||
                   (transfer && read_limited(transfer, name, "heat_transfer", FC_FIELD_HEAT_TRANSFER, &f->value.heat_transfer, 1, err))
               ? -1
               : 0;
}

/* collider_add's "collider" (schema-valid: shape and position, radius or half_extents). */
static int read_collider_fields(const cJSON *object, fc_command *cmd, fc_message_error *err)
{
    fc_shape *s = &cmd->u.collider_add.shape;
    const cJSON *shape = member(object, "shape"), *radius = member(object, "radius"), *half = member(object, "half_extents"),
                *rotation = member(object, "rotation");
    s->kind = cJSON_IsString(shape) && strcmp(shape->valuestring, "box") == 0 ? FC_SHAPE_BOX : FC_SHAPE_SPHERE;
    read_floats(member(object, "position"), s->center, 3);
    cmd->u.collider_add.has = (radius ? FC_COLLIDER_HAS_RADIUS : 0u) | (half ? FC_COLLIDER_HAS_HALF_EXTENTS : 0u) |
                              (rotation ? FC_COLLIDER_HAS_ROTATION : 0u);
    return read_limited(radius, "collider", "radius", FC_FIELD_SOLID_SIZE, &s->radius, 1, err) ||
                   read_limited(half, "collider", "half_extents", FC_FIELD_SOLID_SIZE, s->half, 3, err) ||
                   read_limited(rotation, "collider", "rotation", FC_FIELD_ROTATION, cmd->u.collider_add.rotation, 3, err) ||
                   read_thermal_fields(object, "collider", &cmd->u.collider_add.thermal, err)
               ? -1
               : 0;
}

/* walls_update's "walls" (schema-valid: the six names, each with thermal fields). */
static int read_walls(const cJSON *walls, fc_command *cmd, fc_message_error *err)
{
    for (int side = 0; side < 6; side++) {
        char name[32];
        snprintf(name, sizeof name, "walls.%s", fc_wall_names[side]);
        if (read_thermal_fields(member(walls, fc_wall_names[side]), name, &cmd->u.walls_update.walls[side], err)) return -1;
    }
    return 0;
}

/* ---- building a command ---------------------------------------------------------------------- */

static int read_load(const cJSON *message, fc_message_type type, fc_command *cmd, fc_message_error *err)
{
    const cJSON *scene = member(message, "scene");
    if (cJSON_IsObject(scene) && !(cmd->u.load.document = cJSON_PrintUnformatted(scene)))
        return fc_command_out_of_memory(err);
    string_or_empty(message, "scene", cmd->u.load.scene, sizeof cmd->u.load.scene);
    string_or_empty(message, "name", cmd->u.load.name, sizeof cmd->u.load.name);
    string_or_empty(message, "solver", cmd->u.load.solver, sizeof cmd->u.load.solver);
    string_or_empty(message, "backend", cmd->u.load.backend, sizeof cmd->u.load.backend);
    const cJSON *realtime = member(message, "realtime");
    cmd->u.load.realtime = type == FC_MSG_CREATE_WORLD ? !cJSON_IsFalse(realtime) : 0;
    return read_values(member(message, "values"), 0, &cmd->u.load.values, err);
}

/* The union's part for the message's type. */
static int read_fields(const cJSON *message, fc_command *cmd, fc_message_error *err)
{
    switch (cmd->type) {
    case FC_MSG_SET: return read_values(member(message, "values"), 1, &cmd->u.set.values, err);
    case FC_MSG_EMITTER_ADD: return read_emitter_fields(member(message, "emitter"), "emitter", &cmd->u.emitter_add.emitter, err);
    case FC_MSG_EMITTER_UPDATE:
        cmd->u.emitter_update.emitter = (int)number_or(message, "emitter", 0.0);
        return read_emitter_fields(member(message, "changes"), "changes", &cmd->u.emitter_update.changes, err);
    case FC_MSG_EMITTER_REMOVE: cmd->u.emitter_remove.emitter = (int)number_or(message, "emitter", 0.0); return 0;
    case FC_MSG_COLLIDER_MOVE:
        cmd->u.collider_move.collider = (int)number_or(message, "collider", 0.0);
        read_floats(member(message, "position"), cmd->u.collider_move.position, 3);
        read_floats(member(message, "velocity"), cmd->u.collider_move.velocity, 3);
        read_floats(member(message, "angular_velocity"), cmd->u.collider_move.angular_velocity, 3);
        cmd->u.collider_move.has = member(message, "rotation") ? FC_COLLIDER_HAS_ROTATION : 0u;
        return read_limited(member(message, "rotation"), "", "rotation", FC_FIELD_ROTATION, cmd->u.collider_move.rotation, 3, err);
    case FC_MSG_COLLIDER_ADD: return read_collider_fields(member(message, "collider"), cmd, err);
    case FC_MSG_COLLIDER_REMOVE: cmd->u.collider_remove.collider = (int)number_or(message, "collider", 0.0); return 0;
    case FC_MSG_COLLIDER_UPDATE:
        cmd->u.collider_update.collider = (int)number_or(message, "collider", 0.0);
        return read_thermal_fields(member(message, "changes"), "changes", &cmd->u.collider_update.changes, err);
    case FC_MSG_WALLS_UPDATE: return read_walls(member(message, "walls"), cmd, err);
    case FC_MSG_PICK: read_floats(member(message, "position"), cmd->u.pick.position, 3); return 0;
    case FC_MSG_STEP: cmd->u.step.frames = (int)number_or(message, "frames", 1.0); return 0;
    case FC_MSG_RESET:
    case FC_MSG_LOAD_SCENE:
    case FC_MSG_CREATE_WORLD: return read_load(message, cmd->type, cmd, err);
    case FC_MSG_SET_SOLVER:
        string_or_empty(message, "solver", cmd->u.set_solver.solver, sizeof cmd->u.set_solver.solver);
        return 0;
    case FC_MSG_REWIND: cmd->u.rewind.seconds = number_or(message, "seconds", -1.0); return 0;
    default: return 0; /* hello, list_worlds, subscribe, ...: the network layer reads them itself */
    }
}

/* err echoes the request (id and type) whatever goes wrong next. */
void fc_command_note_request(const fc_command *cmd, fc_message_error *err)
{
    const char *type = fc_message_type_name(cmd->type);
    err->code = FC_ERR_NONE;
    err->field[0] = err->message[0] = '\0';
    snprintf(err->id, sizeof err->id, "%s", cmd->id);
    snprintf(err->request, sizeof err->request, "%s", type ? type : "");
}

int fc_command_from_message(const cJSON *message, uint64_t client, fc_command *cmd, fc_message_error *err)
{
    memset(cmd, 0, sizeof *cmd);
    cmd->type = fc_message_type_of(message);
    cmd->client = client;
    fc_message_note_request(message, err); /* the id as JSON text, integers in full */
    snprintf(cmd->id, sizeof cmd->id, "%s", err->id);
    cmd->world = (uint32_t)number_or(message, "world", 0.0);
    fc_command_note_request(cmd, err);
    return read_fields(message, cmd, err);
}

void fc_command_free(fc_command *cmd)
{
    if (!cmd) return;
    if (cmd->type == FC_MSG_RESET || cmd->type == FC_MSG_LOAD_SCENE || cmd->type == FC_MSG_CREATE_WORLD)
        free(cmd->u.load.document);
    free(cmd);
}
