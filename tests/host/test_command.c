/* Typed commands: messages to commands (every world command, parameter values and their errors),
 * parameter values applied all or nothing, and set/emitter/collider requests applied to a world. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/colliders.h"
#include "core/limits.h"
#include "core/sources.h"
#include "core/world.h"
#include "host/command.h"
#include "host/world_json.h"

/* ---- helpers --------------------------------------------------------------------------------- */

/* The text through fc_message_parse (it must be schema-valid) and fc_command_from_message as
 * client 7. Returns from_message's result, or -2 when the schema refused the text. */
static int command_of(const char *text, fc_command *cmd, fc_message_error *err)
{
    cJSON *msg = NULL;
    if (fc_message_parse(text, strlen(text), err, &msg)) {
        CHECK(0, "the schema accepts %s: %s", text, err->message);
        return -2;
    }
    int rc = fc_command_from_message(msg, 7, cmd, err);
    cJSON_Delete(msg);
    return rc;
}

/* The command must be refused with this code, field and (when given) this exact message. */
static void expect_refused(const char *text, fc_error_code code, const char *field, const char *message)
{
    fc_command cmd;
    fc_message_error err;
    int rc = command_of(text, &cmd, &err);
    CHECK(rc == -1, "%s is refused (rc %d)", text, rc);
    CHECK(err.code == code, "%s: code %s, expected %s", text, fc_error_code_name(err.code), fc_error_code_name(code));
    CHECK(strcmp(err.field, field) == 0, "%s: field '%s', expected '%s'", text, err.field, field);
    if (message) CHECK(strcmp(err.message, message) == 0, "%s: message '%s', expected '%s'", text, err.message, message);
}

static double number_at(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static int vec_equals(const float v[3], float x, float y, float z)
{
    return v[0] == x && v[1] == y && v[2] == z;
}

/* The JSON array [x, y, z] equals the floats. */
static int json_vec_equals(const cJSON *v, float x, float y, float z)
{
    float f[3];
    int a = 0;
    for (const cJSON *e = cJSON_IsArray(v) ? v->child : NULL; e && a < 3; e = e->next, a++)
        f[a] = (float)e->valuedouble;
    return a == 3 && vec_equals(f, x, y, z) && cJSON_GetArraySize(v) == 3;
}

/* ---- messages to commands -------------------------------------------------------------------- */

static void test_set_values(void)
{
    fc_command cmd;
    fc_message_error err;
    int rc = command_of("{\"type\": \"set\", \"id\": \"req-1\", \"world\": 3, \"values\": {\"viscosity\": 0.25, "
                        "\"substeps\": 7.0, \"clamp_negative_pressure\": false, \"equation_of_state\": \"linear\"}}",
                        &cmd, &err);
    CHECK(rc == 0, "set is read: %s", err.message);
    CHECK(cmd.type == FC_MSG_SET && cmd.world == 3 && cmd.client == 7, "type, world, client");
    CHECK(strcmp(cmd.id, "\"req-1\"") == 0, "id as JSON text: %s", cmd.id);
    const fc_param_values *v = &cmd.u.set.values;
    CHECK(v->count == 4, "4 values, got %zu", v->count);
    if (v->count != 4) return;
    const char *names[] = {"viscosity", "substeps", "clamp_negative_pressure", "equation_of_state"};
    const double numbers[] = {0.25, 7, 0, FC_EOS_LINEAR};
    for (int i = 0; i < 4; i++)
        CHECK(strcmp(v->item[i].desc->name, names[i]) == 0 && v->item[i].number == numbers[i],
              "value %d: %s = %g, expected %s = %g", i, v->item[i].desc->name, v->item[i].number, names[i],
              numbers[i]);

    CHECK(command_of("{\"type\": \"set\", \"id\": 9007199254740991, \"world\": 1, \"values\": {\"viscosity\": 1}}",
                     &cmd, &err) == 0 && strcmp(cmd.id, "9007199254740991") == 0,
          "an integer id in full: %s", cmd.id);
    CHECK(command_of("{\"type\": \"set\", \"world\": 1, \"values\": {\"viscosity\": 1}}", &cmd, &err) == 0 &&
              strcmp(cmd.id, "null") == 0,
          "no id: null, got %s", cmd.id);
}

static void test_value_errors(void)
{
    expect_refused("{\"type\": \"set\", \"world\": 1, \"values\": {\"viscosity\": 1, \"nosuch\": 2}}",
                   FC_ERR_UNKNOWN_PARAMETER, "values.nosuch", NULL);
    expect_refused("{\"type\": \"set\", \"world\": 1, \"values\": {\"viscosity\": 500}}", FC_ERR_BAD_VALUE,
                   "values.viscosity", "values.viscosity: expected a number from 0 to 100 Pa s, got 500");
    expect_refused("{\"type\": \"set\", \"world\": 1, \"values\": {\"viscosity\": \"thick\"}}", FC_ERR_BAD_VALUE,
                   "values.viscosity", "values.viscosity: expected a number from 0 to 100 Pa s, got \"thick\"");
    expect_refused("{\"type\": \"set\", \"world\": 1, \"values\": {\"substeps\": 2.5}}", FC_ERR_BAD_VALUE,
                   "values.substeps", "values.substeps: expected an integer from 1 to 1000 steps, got 2.5");
    expect_refused("{\"type\": \"set\", \"world\": 1, \"values\": {\"substeps\": 0}}", FC_ERR_BAD_VALUE,
                   "values.substeps", NULL);
    expect_refused("{\"type\": \"set\", \"world\": 1, \"values\": {\"clamp_negative_pressure\": 1}}",
                   FC_ERR_BAD_VALUE, "values.clamp_negative_pressure",
                   "values.clamp_negative_pressure: expected true or false, got 1");
    expect_refused("{\"type\": \"set\", \"world\": 1, \"values\": {\"equation_of_state\": \"cubic\"}}",
                   FC_ERR_BAD_VALUE, "values.equation_of_state",
                   "values.equation_of_state: expected one of tait, linear, got \"cubic\"");
    expect_refused("{\"type\": \"set\", \"world\": 1, \"values\": {\"boundary_erp\": 2}}", FC_ERR_BAD_VALUE,
                   "values.boundary_erp", "values.boundary_erp: expected a number from 0 to 1, got 2");
    /* checked in the order they appear */
    expect_refused("{\"type\": \"set\", \"world\": 1, \"values\": {\"viscosity\": 500, \"nosuch\": 1}}",
                   FC_ERR_BAD_VALUE, "values.viscosity", NULL);
    expect_refused("{\"type\": \"set\", \"world\": 1, \"values\": {\"nosuch\": 1, \"viscosity\": 500}}",
                   FC_ERR_UNKNOWN_PARAMETER, "values.nosuch", NULL);
    expect_refused("{\"type\": \"set\", \"world\": 1, \"values\": {\"particle_spacing\": 0.01}}", FC_ERR_NOT_LIVE,
                   "values.particle_spacing",
                   "values.particle_spacing: particle_spacing is set when the world is built; send it with reset or "
                   "load_scene");
    expect_refused("{\"type\": \"load_scene\", \"world\": 1, \"scene\": \"dam_break\", \"values\": {\"x\": 1}}",
                   FC_ERR_UNKNOWN_PARAMETER, "values.x", NULL);

    /* the error echoes the request */
    fc_command cmd;
    fc_message_error err;
    command_of("{\"type\": \"set\", \"id\": 42, \"world\": 1, \"values\": {\"nosuch\": 1}}", &cmd, &err);
    CHECK(strcmp(err.id, "42") == 0 && strcmp(err.request, "set") == 0, "error echoes id 42 and set: %s %s", err.id,
          err.request);
}

static void test_init_values_outside_set(void)
{
    fc_command cmd;
    fc_message_error err;
    CHECK(command_of("{\"type\": \"reset\", \"world\": 2, \"values\": {\"particle_spacing\": 0.01}}", &cmd, &err) ==
                  0 &&
              cmd.type == FC_MSG_RESET && cmd.world == 2 && cmd.u.load.values.count == 1 &&
              cmd.u.load.values.item[0].number == 0.01 && cmd.u.load.scene[0] == '\0',
          "reset takes init parameters: %s", err.message);
    CHECK(command_of("{\"type\": \"reset\", \"world\": 2}", &cmd, &err) == 0 && cmd.u.load.values.count == 0,
          "reset without values");
    CHECK(command_of("{\"type\": \"load_scene\", \"id\": \"l\", \"world\": 4, \"scene\": \"water_drop.json\", "
                     "\"values\": {\"smoothing_radius\": 0.05}}",
                     &cmd, &err) == 0 &&
              cmd.type == FC_MSG_LOAD_SCENE && cmd.world == 4 && strcmp(cmd.u.load.scene, "water_drop.json") == 0 &&
              cmd.u.load.values.count == 1 && strcmp(cmd.u.load.values.item[0].desc->name, "smoothing_radius") == 0,
          "load_scene: scene and values");
    CHECK(command_of("{\"type\": \"create_world\", \"scene\": \"dam_break\", \"name\": \"Tank \\u00e9\", \"solver\": "
                     "\"sph\", \"values\": {\"viscosity\": 0.5}}",
                     &cmd, &err) == 0 &&
              cmd.type == FC_MSG_CREATE_WORLD && cmd.world == 0 && strcmp(cmd.u.load.scene, "dam_break") == 0 &&
              strcmp(cmd.u.load.name, "Tank \xc3\xa9") == 0 && strcmp(cmd.u.load.solver, "sph") == 0 &&
              cmd.u.load.realtime == 1 && cmd.u.load.values.count == 1,
          "create_world: scene, name, solver, realtime default true, values");
    CHECK(command_of("{\"type\": \"create_world\", \"scene\": \"dam_break\", \"realtime\": false}", &cmd, &err) == 0 &&
              cmd.u.load.realtime == 0 && cmd.u.load.name[0] == '\0' && cmd.u.load.solver[0] == '\0',
          "create_world: realtime false, name and solver empty");
}

static void test_object_commands(void)
{
    fc_command cmd;
    fc_message_error err;
    CHECK(command_of("{\"type\": \"emitter_add\", \"world\": 5, \"emitter\": {\"position\": [0.1, 0.2, 0.3], "
                     "\"direction\": [0, -2, 0], \"radius\": 0.05, \"speed\": 1.5, \"fluid\": 0}}",
                     &cmd, &err) == 0,
          "emitter_add is read: %s", err.message);
    const fc_emitter_fields *f = &cmd.u.emitter_add.emitter;
    CHECK(cmd.type == FC_MSG_EMITTER_ADD && cmd.world == 5, "emitter_add type and world");
    CHECK(f->has == (FC_EMITTER_HAS_POSITION | FC_EMITTER_HAS_DIRECTION | FC_EMITTER_HAS_RADIUS |
                     FC_EMITTER_HAS_SPEED | FC_EMITTER_HAS_FLUID),
          "emitter_add fields given: %#x", f->has);
    CHECK(vec_equals(f->value.shape.center, 0.1f, 0.2f, 0.3f) && vec_equals(f->value.shape.normal, 0, -2, 0) &&
              f->value.shape.radius == 0.05f && f->value.emitter.speed == 1.5f && f->fluid == 0,
          "emitter_add values (direction as sent)");

    CHECK(command_of("{\"type\": \"emitter_update\", \"world\": 5, \"emitter\": 3, \"changes\": {\"speed\": 2, "
                     "\"fluid\": 4}}",
                     &cmd, &err) == 0 &&
              cmd.u.emitter_update.emitter == 3 &&
              cmd.u.emitter_update.changes.has == (FC_EMITTER_HAS_SPEED | FC_EMITTER_HAS_FLUID) &&
              cmd.u.emitter_update.changes.value.emitter.speed == 2.0f && cmd.u.emitter_update.changes.fluid == 4,
          "emitter_update: id and the changes only");
    CHECK(command_of("{\"type\": \"emitter_remove\", \"world\": 5, \"emitter\": 8}", &cmd, &err) == 0 &&
              cmd.type == FC_MSG_EMITTER_REMOVE && cmd.u.emitter_remove.emitter == 8,
          "emitter_remove: id");
    CHECK(command_of("{\"type\": \"collider_move\", \"world\": 5, \"collider\": 2, \"position\": [1, 2, 3], "
                     "\"velocity\": [0.5, 0, -1]}",
                     &cmd, &err) == 0 &&
              cmd.u.collider_move.collider == 2 && vec_equals(cmd.u.collider_move.position, 1, 2, 3) &&
              vec_equals(cmd.u.collider_move.velocity, 0.5f, 0, -1),
          "collider_move: id, position, velocity");
    CHECK(command_of("{\"type\": \"collider_move\", \"world\": 5, \"collider\": 2, \"position\": [1, 2, 3]}", &cmd,
                     &err) == 0 &&
              vec_equals(cmd.u.collider_move.velocity, 0, 0, 0),
          "collider_move: velocity defaults to zero");
    CHECK(command_of("{\"type\": \"step\", \"world\": 6}", &cmd, &err) == 0 && cmd.u.step.frames == 1,
          "step: frames default 1");
    CHECK(command_of("{\"type\": \"step\", \"world\": 6, \"frames\": 12}", &cmd, &err) == 0 &&
              cmd.u.step.frames == 12 && cmd.world == 6,
          "step: frames 12");
    CHECK(command_of("{\"type\": \"set_solver\", \"world\": 6, \"solver\": \"sph\"}", &cmd, &err) == 0 &&
              strcmp(cmd.u.set_solver.solver, "sph") == 0,
          "set_solver: solver");
    CHECK(command_of("{\"type\": \"pause\", \"id\": \"p\", \"world\": 4294967295}", &cmd, &err) == 0 &&
              cmd.type == FC_MSG_PAUSE && cmd.world == 4294967295u && strcmp(cmd.id, "\"p\"") == 0,
          "pause: type, the largest world id, id");
    CHECK(command_of("{\"type\": \"subscribe\", \"world\": 9, \"bits\": 12}", &cmd, &err) == 0 &&
              cmd.type == FC_MSG_SUBSCRIBE && cmd.world == 9,
          "subscribe: type and world");
    CHECK(command_of("{\"type\": \"collider_add\", \"world\": 2, \"collider\": {\"shape\": \"box\", \"position\": [1, 2, 3], "
                     "\"half_extents\": [0.1, 0.2, 0.3], \"rotation\": [10, -20, 30]}}",
                     &cmd, &err) == 0 &&
              cmd.u.collider_add.has == (FC_COLLIDER_HAS_HALF_EXTENTS | FC_COLLIDER_HAS_ROTATION) &&
              vec_equals(cmd.u.collider_add.rotation, 10, -20, 30),
          "collider_add: a box's rotation in degrees");
    CHECK(command_of("{\"type\": \"hello\", \"client\": \"test\"}", &cmd, &err) == 0 && cmd.type == FC_MSG_HELLO &&
              cmd.world == 0,
          "hello: type");
}

/* ---- parameter values, all or nothing -------------------------------------------------------- */

static fc_param_values values_of(const char *name1, double v1, const char *name2, double v2)
{
    fc_param_values v = {0};
    v.item[v.count++] = (fc_param_value){.desc = fc_param_find(name1), .number = v1};
    if (name2) v.item[v.count++] = (fc_param_value){.desc = fc_param_find(name2), .number = v2};
    return v;
}

static void test_values_apply(void)
{
    fc_params p, before;
    fc_message_error err = {0};
    fc_params_defaults(&p);
    before = p;
    fc_fluid water; /* viscosity is the fluids' */
    fc_fluid_defaults(&water, 0);

    fc_param_values v = values_of("viscosity", 1.0, "particle_margin", 0.02); /* margin above the radius 0.01 (half the spacing) */
    CHECK(fc_param_values_apply(&p, &water, 1, NULL, &v, 0, &err) == -1 && err.code == FC_ERR_BAD_VALUE, "a relation fails");
    CHECK(strcmp(err.field, "values.particle_margin") == 0, "field of the entry involved: '%s'", err.field);
    CHECK(strstr(err.message, "must be below 'particle_radius'") != NULL, "the check's message: %s", err.message);
    CHECK(memcmp(&p, &before, sizeof p) == 0 && water.viscosity == 2.0, "nothing applied, viscosity included");

    p.particle_margin = 0.001; /* a margin of its own (0, the default, stays below any radius) */
    before = p;
    v = values_of("particle_radius", 0.0005, NULL, 0); /* below that margin */
    CHECK(fc_param_values_apply(&p, &water, 1, NULL, &v, 0, &err) == -1 && strcmp(err.field, "values.particle_radius") == 0,
          "radius below margin: field '%s'", err.field);
    CHECK(memcmp(&p, &before, sizeof p) == 0, "unchanged");

    v = values_of("viscosity", 0.5, "particle_spacing", 0.015);
    CHECK(fc_param_values_apply(&p, &water, 1, NULL, &v, 0, &err) == -1 && err.code == FC_ERR_NOT_LIVE &&
              strcmp(err.field, "values.particle_spacing") == 0,
          "an init parameter without allow_init: not_live (%s)", fc_error_code_name(err.code));
    CHECK(memcmp(&p, &before, sizeof p) == 0, "unchanged after not_live");
    CHECK(fc_param_values_apply(&p, &water, 1, NULL, &v, 1, &err) == 0 && water.viscosity == 0.5 && p.particle_spacing == 0.015,
          "with allow_init both apply: %s", err.message);

    v = values_of("viscosity", 1000.0, NULL, 0);
    CHECK(fc_param_values_apply(&p, &water, 1, NULL, &v, 0, &err) == -1 && err.code == FC_ERR_BAD_VALUE &&
              strcmp(err.field, "values.viscosity") == 0 && water.viscosity == 0.5,
          "out of range without from_message: bad_value, unchanged");

    v = values_of("particle_radius", 0.03, "particle_margin", 0.02);
    CHECK(fc_param_values_apply(&p, &water, 1, NULL, &v, 0, &err) == 0 && p.particle_radius == 0.03 && p.particle_margin == 0.02,
          "a consistent pair applies together: %s", err.message);

    /* trapped air needs a fluid of kind air: refused with the field named, nothing changed */
    before = p;
    v = values_of("air", 1.0, "air_offset", 0.5);
    CHECK(fc_param_values_apply(&p, &water, 1, NULL, &v, 0, &err) == -1 && err.code == FC_ERR_BAD_VALUE &&
              strcmp(err.field, "values.air") == 0 && strstr(err.message, "needs a fluid of 'kind' air") != NULL,
          "air without an air fluid: %s (%s)", err.field, err.message);
    CHECK(memcmp(&p, &before, sizeof p) == 0, "unchanged after the air refusal");
    fc_fluid two[2];
    fc_fluid_defaults(&two[0], 0), fc_fluid_defaults(&two[1], 1);
    two[1].kind = 1;
    CHECK(fc_param_values_apply(&p, two, 2, NULL, &v, 0, &err) == 0 && p.air == 1 && p.air_offset == 0.5,
          "with a fluid of kind air it applies: %s", err.message);
    /* issue 40: a reset that makes the air fluid a liquid while air is on names the field it sent */
    const fc_fluid two_before[2] = {two[0], two[1]};
    v = values_of("kind", 0.0, NULL, 0);
    CHECK(fc_param_values_apply(&p, two, 2, NULL, &v, 1, &err) == -1 && err.code == FC_ERR_BAD_VALUE &&
              strcmp(err.field, "values.kind") == 0 && memcmp(two, two_before, sizeof two) == 0,
          "kind liquid with air on: refused on values.kind, nothing changed (field '%s': %s)", err.field, err.message);
}

/* issue 40: every positive value is checked after narrowing to float, naming the field sent; the
 * ranges are the scene documents' (core/limits.h) */
static void test_narrowed_values(void)
{
    static const char *const zero_float = "found 1e-300, which is 0 as a float";
    char text[320], message[256];
    static const struct {
        const char *message, *field, *limit;
    } cases[] = {
        {"{\"type\": \"emitter_add\", \"world\": 1, \"emitter\": {\"position\": [0.1, 0.1, 0.1], \"direction\": [0, 1, 0], "
         "\"speed\": 1, \"radius\": 1e-300}}", "emitter.radius", "a number > 0 and at most 10 (m)"},
        {"{\"type\": \"emitter_add\", \"world\": 1, \"emitter\": {\"position\": [0.1, 0.1, 0.1], \"direction\": [0, 1, 0], "
         "\"speed\": 1, \"radius\": 0.02, \"temperature\": 1e-300}}", "emitter.temperature", "a number > 0 and at most 5000 (K)"},
        {"{\"type\": \"emitter_update\", \"world\": 1, \"emitter\": 1, \"changes\": {\"temperature\": 1e-300}}",
         "changes.temperature", "a number > 0 and at most 5000 (K)"},
        {"{\"type\": \"collider_add\", \"world\": 1, \"collider\": {\"shape\": \"sphere\", \"position\": [0.5, 0.5, 0.5], "
         "\"radius\": 1e-300}}", "collider.radius", "a number > 0 and at most 1e+06 (m)"},
        {"{\"type\": \"collider_add\", \"world\": 1, \"collider\": {\"shape\": \"box\", \"position\": [0.5, 0.5, 0.5], "
         "\"half_extents\": [0.1, 1e-300, 0.1]}}", "collider.half_extents[1]", "a number > 0 and at most 1e+06 (m)"},
        {"{\"type\": \"collider_add\", \"world\": 1, \"collider\": {\"shape\": \"sphere\", \"position\": [0.5, 0.5, 0.5], "
         "\"radius\": 0.1, \"temperature\": 1e-300}}", "collider.temperature", "a number > 0 and at most 5000 (K)"},
        {"{\"type\": \"collider_update\", \"world\": 1, \"collider\": 1, \"changes\": {\"temperature\": 1e-300}}",
         "changes.temperature", "a number > 0 and at most 5000 (K)"},
        {"{\"type\": \"walls_update\", \"world\": 1, \"walls\": {\"y_min\": {\"temperature\": 1e-300}}}",
         "walls.y_min.temperature", "a number > 0 and at most 5000 (K)"},
        {"{\"type\": \"reset\", \"world\": 1, \"values\": {\"temperature\": 1e-300}}", "values.temperature",
         "a number > 0 and at most 5000 (K)"},
        {"{\"type\": \"reset\", \"world\": 1, \"values\": {\"water.temperature\": 1e-300}}", "values.water.temperature",
         "a number > 0 and at most 5000 (K)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(message, sizeof message, "%s: expected %s, %s", cases[i].field, cases[i].limit, zero_float);
        expect_refused(cases[i].message, FC_ERR_BAD_VALUE, cases[i].field, message);
    }
    /* a fluid at 0 K, as solids: refused before anything is built */
    expect_refused("{\"type\": \"reset\", \"world\": 1, \"values\": {\"temperature\": 0}}", FC_ERR_BAD_VALUE,
                   "values.temperature", "values.temperature: expected a number > 0 and at most 5000 (K), found 0");
    /* the reader keeps what fits: a small radius that a float holds */
    fc_command cmd;
    fc_message_error err;
    snprintf(text, sizeof text, "{\"type\": \"collider_add\", \"world\": 1, \"collider\": {\"shape\": \"sphere\", "
                                "\"position\": [0.5, 0.5, 0.5], \"radius\": 1e-30}}");
    CHECK(command_of(text, &cmd, &err) == 0 && cmd.u.collider_add.shape.radius == 1e-30f, "1e-30 m fits a float: %s", err.message);
}

/* The ranges the server checks (core/limits.h) are the schema's, field by field: one rule, written
 * twice only because the schema is the protocol's contract. */
static void test_limits_match_schema(void)
{
    extern const char fc_client_schema_json[];
    cJSON *schema = cJSON_Parse(fc_client_schema_json);
    const cJSON *defs = cJSON_GetObjectItemCaseSensitive(schema, "$defs");
    const cJSON *emitter = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(defs, "emitter_fields"), "properties");
    const cJSON *thermal = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(defs, "thermal_fields"), "properties");
    const cJSON *collider = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
                                                    cJSON_GetObjectItemCaseSensitive(defs, "collider_add"), "properties"),
                                                "collider"),
                                                "properties");
    const struct {
        const char *what;
        const cJSON *range;
        fc_object_field field;
    } pairs[] = {
        {"emitter radius", cJSON_GetObjectItemCaseSensitive(emitter, "radius"), FC_FIELD_EMITTER_RADIUS},
        {"emitter speed", cJSON_GetObjectItemCaseSensitive(emitter, "speed"), FC_FIELD_EMITTER_SPEED},
        {"emitter rate", cJSON_GetObjectItemCaseSensitive(emitter, "rate"), FC_FIELD_EMITTER_RATE},
        {"emitter temperature", cJSON_GetObjectItemCaseSensitive(emitter, "temperature"), FC_FIELD_TEMPERATURE},
        {"solid temperature", cJSON_GetObjectItemCaseSensitive(thermal, "temperature"), FC_FIELD_TEMPERATURE},
        {"heat transfer", cJSON_GetObjectItemCaseSensitive(thermal, "heat_transfer"), FC_FIELD_HEAT_TRANSFER},
        {"collider radius", cJSON_GetObjectItemCaseSensitive(collider, "radius"), FC_FIELD_SOLID_SIZE},
        {"half extents", cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(collider, "half_extents"), "items"),
         FC_FIELD_SOLID_SIZE},
        {"rotation", cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(defs, "rotation"), "items"), FC_FIELD_ROTATION},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const fc_limit l = fc_object_field_limit(pairs[i].field);
        const cJSON *above = cJSON_GetObjectItemCaseSensitive(pairs[i].range, "exclusiveMinimum"),
                    *from = cJSON_GetObjectItemCaseSensitive(pairs[i].range, "minimum"),
                    *max = cJSON_GetObjectItemCaseSensitive(pairs[i].range, "maximum");
        const cJSON *min = l.above_min ? above : from;
        CHECK(cJSON_IsNumber(min) && cJSON_IsNumber(max) && min->valuedouble == l.min && max->valuedouble == l.max &&
                  !(l.above_min ? from : above),
              "%s: the schema's range is the server's (%g to %g, above_min %d)", pairs[i].what, l.min, l.max, l.above_min);
    }
    cJSON_Delete(schema);
}

/* ---- requests applied to a world ------------------------------------------------------------- */

typedef struct test_world {
    fc_world w;
    int sphere, plane, box;
} test_world;

/* A 0.4 m box of fluid, a sphere, a plane and a box collider. */
static int build_world(test_world *t)
{
    char err[256];
    fc_world_init(&t->w);
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {0.4f, 0.2f, 0.4f}, v0[3] = {0, 0, 0};
    for (int a = 0; a < 3; a++) t->w.domain_hi[a] = 0.4f;
    fc_shape sphere = {.kind = FC_SHAPE_SPHERE, .center = {0.2f, 0.3f, 0.2f}, .radius = 0.05f};
    fc_shape plane = {.kind = FC_SHAPE_PLANE, .normal = {0, 1, 0}, .offset = 0.0f};
    fc_shape box = {.kind = FC_SHAPE_BOX, .center = {0.1f, 0.3f, 0.1f}, .half = {0.02f, 0.03f, 0.04f}};
    t->sphere = fc_world_add_collider(&t->w, &sphere);
    t->plane = fc_world_add_collider(&t->w, &plane);
    t->box = fc_world_add_collider(&t->w, &box);
    int ok = fc_world_fill_box(&t->w, lo, hi, v0, 0) > 0 && fc_world_start(&t->w, err, sizeof err) == 0;
    CHECK(ok, "the test world starts: %s", err);
    return ok ? 0 : -1;
}

/* from_message then apply_to_world; the applied object in *applied (caller deletes). */
static int apply_text(fc_world *w, const char *text, cJSON **applied, fc_message_error *err)
{
    fc_command cmd;
    *applied = cJSON_CreateObject();
    if (command_of(text, &cmd, err)) return -2;
    return fc_command_apply_to_world(w, &cmd, *applied, err);
}

static void test_apply_set(fc_world *w)
{
    cJSON *applied;
    fc_message_error err;
    int rc = apply_text(w, "{\"type\": \"set\", \"world\": 1, \"values\": {\"viscosity\": 0.5, \"equation_of_state\": "
                           "\"linear\", \"substeps\": 3}}",
                        &applied, &err);
    CHECK(rc == 0, "set applies: %s", err.message);
    CHECK(w->fluids[0].viscosity == 0.5 && w->params.equation_of_state == FC_EOS_LINEAR && w->params.substeps == 3,
          "the world's parameters and its fluid changed");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(applied, "values");
    const cJSON *eos = cJSON_GetObjectItemCaseSensitive(values, "equation_of_state");
    CHECK(number_at(values, "viscosity") == 0.5 && number_at(values, "substeps") == 3 && cJSON_IsString(eos) &&
              strcmp(eos->valuestring, "linear") == 0 && cJSON_GetArraySize(values) == 3,
          "applied.values as stored");
    cJSON_Delete(applied);

    fc_params before = w->params;
    rc = apply_text(w, "{\"type\": \"set\", \"world\": 1, \"values\": {\"viscosity\": 3, \"particle_margin\": 0.4}}",
                    &applied, &err);
    CHECK(rc == -1 && err.code == FC_ERR_BAD_VALUE && strcmp(err.field, "values.particle_margin") == 0,
          "a relation failure is bad_value on the entry involved: %s '%s'", fc_error_code_name(err.code), err.field);
    CHECK(memcmp(&before, &w->params, sizeof before) == 0, "and the world's parameters are unchanged");
    cJSON_Delete(applied);
}

/* set on one fluid's parameter (FLUID.NAME) changes that fluid only; an unknown fluid is refused
 * naming the world's fluids, and nothing changes. */
static void test_apply_set_fluid(fc_world *w)
{
    const int count = w->fluid_count;
    fc_fluid saved[FC_MAX_FLUIDS];
    memcpy(saved, w->fluids, sizeof saved);
    w->fluids[1] = w->fluids[0];
    snprintf(w->fluids[1].name, sizeof w->fluids[1].name, "oil");
    w->fluid_count = 2;
    const double water = w->fluids[0].viscosity;
    cJSON *applied;
    fc_message_error err;
    int rc = apply_text(w, "{\"type\": \"set\", \"world\": 1, \"values\": {\"oil.viscosity\": 7.5}}", &applied, &err);
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(applied, "values");
    CHECK(rc == 0 && w->fluids[1].viscosity == 7.5 && w->fluids[0].viscosity == water,
          "set oil.viscosity changes oil's only: %s", err.message);
    CHECK(number_at(values, "oil.viscosity") == 7.5 && cJSON_GetArraySize(values) == 1, "applied under the name sent");
    cJSON_Delete(applied);

    fc_params before = w->params;
    fc_fluid fluids_before[FC_MAX_FLUIDS];
    memcpy(fluids_before, w->fluids, sizeof fluids_before);
    struct { const char *text, *field, *message; fc_error_code code; } bad[] = {
        {"{\"type\": \"set\", \"world\": 1, \"values\": {\"viscosity\": 1, \"oi1.viscosity\": 1}}", "values.oi1.viscosity",
         "values.oi1.viscosity: no fluid named 'oi1'; this world has water, oil", FC_ERR_UNKNOWN_PARAMETER},
        {"{\"type\": \"set\", \"world\": 1, \"values\": {\"water.viscosity\": 1, \"oil.viscosity\": 200}}", "values.oil.viscosity",
         NULL, FC_ERR_BAD_VALUE},
        {"{\"type\": \"set\", \"world\": 1, \"values\": {\"oil.rest_density\": 900}}", "values.oil.rest_density",
         "values.oil.rest_density: oil.rest_density is set when the world is built; send it with reset or load_scene", FC_ERR_NOT_LIVE},
        {"{\"type\": \"set\", \"world\": 1, \"values\": {\"oil.time_step\": 0.001}}", "values.oil.time_step", NULL,
         FC_ERR_UNKNOWN_PARAMETER},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        rc = apply_text(w, bad[k].text, &applied, &err);
        CHECK(rc != 0 && err.code == bad[k].code && strcmp(err.field, bad[k].field) == 0 &&
                  (!bad[k].message || strcmp(err.message, bad[k].message) == 0),
              "%s is refused: %s %s '%s'", bad[k].text, fc_error_code_name(err.code), err.field, err.message);
        CHECK(memcmp(&before, &w->params, sizeof before) == 0 && memcmp(fluids_before, w->fluids, sizeof fluids_before) == 0,
              "and nothing changed");
        cJSON_Delete(applied);
    }
    memcpy(w->fluids, saved, sizeof saved);
    w->fluid_count = count;
}

static void test_apply_emitters(fc_world *w)
{
    cJSON *applied;
    fc_message_error err;
    const int expected_id = w->objects.next_id;
    int rc = apply_text(w, "{\"type\": \"emitter_add\", \"world\": 1, \"emitter\": {\"position\": [0.2, 0.3, 0.2], "
                           "\"direction\": [0, -2, 0], \"radius\": 0.05, \"speed\": 1.5}}",
                        &applied, &err);
    const fc_object *e = fc_objects_next(&w->objects, FC_OBJECT_EMITTER, NULL);
    CHECK(rc == 0 && fc_objects_count(&w->objects, FC_OBJECT_EMITTER) == 1, "emitter_add applies: %s", err.message);
    if (fc_objects_count(&w->objects, FC_OBJECT_EMITTER) != 1) return cJSON_Delete(applied);
    double rate = 1.5 * acos(-1.0) * 0.05 * 0.05 / pow(w->params.particle_spacing, 3);
    CHECK(e->id == expected_id, "the new id %d, expected %d", e->id, expected_id);
    CHECK(vec_equals(e->shape.normal, 0, -1, 0), "direction normalised: [%g, %g, %g]", e->shape.normal[0],
          e->shape.normal[1], e->shape.normal[2]);
    CHECK(fabs(e->emitter.rate - rate) < 1e-4 * rate, "default rate %g, expected speed pi r^2 / s^3 = %g", e->emitter.rate,
          rate);
    const cJSON *json = cJSON_GetObjectItemCaseSensitive(applied, "emitter");
    CHECK(number_at(json, "id") == expected_id && number_at(json, "fluid") == 0 &&
              fabs(number_at(json, "rate") - rate) < 1e-4 * rate && number_at(json, "radius") == 0.05 &&
              number_at(json, "speed") == 1.5 &&
              json_vec_equals(cJSON_GetObjectItemCaseSensitive(json, "direction"), 0, -1, 0) &&
              json_vec_equals(cJSON_GetObjectItemCaseSensitive(json, "position"), 0.2f, 0.3f, 0.2f),
          "applied.emitter has every field");
    CHECK(e->emitter.temperature == (float)w->fluids[0].temperature &&
              fabs(number_at(json, "temperature") - w->fluids[0].temperature) < 1e-3,
          "without a temperature it emits at its fluid's, %g K: %g", w->fluids[0].temperature, e->emitter.temperature);
    cJSON_Delete(applied);

    struct { const char *text; fc_error_code code; const char *field; } refused[] = {
        {"{\"type\": \"emitter_add\", \"world\": 1, \"emitter\": {\"position\": [0.2, 0.5, 0.2], \"direction\": [0, "
         "1, 0], \"radius\": 0.05, \"speed\": 1}}",
         FC_ERR_BAD_VALUE, "emitter.position"},
        {"{\"type\": \"emitter_add\", \"world\": 1, \"emitter\": {\"position\": [0.2, 0.3, 0.2], \"direction\": [0, "
         "0, 0], \"radius\": 0.05, \"speed\": 1}}",
         FC_ERR_BAD_VALUE, "emitter.direction"},
        {"{\"type\": \"emitter_add\", \"world\": 1, \"emitter\": {\"position\": [0.2, 0.3, 0.2], \"direction\": [0, "
         "1, 0], \"radius\": 0.05, \"speed\": 1, \"fluid\": 1}}",
         FC_ERR_BAD_VALUE, "emitter.fluid"},
        {"{\"type\": \"emitter_update\", \"world\": 1, \"emitter\": 999, \"changes\": {\"speed\": 1}}",
         FC_ERR_UNKNOWN_EMITTER, "emitter"},
        {"{\"type\": \"emitter_update\", \"world\": 1, \"emitter\": 4, \"changes\": {\"speed\": 1, \"position\": [0, "
         "-0.1, 0]}}",
         FC_ERR_BAD_VALUE, "changes.position"},
        {"{\"type\": \"emitter_remove\", \"world\": 1, \"emitter\": 999}", FC_ERR_UNKNOWN_EMITTER, "emitter"},
        {"{\"type\": \"emitter_remove\", \"world\": 1, \"emitter\": 1}", FC_ERR_UNKNOWN_EMITTER, "emitter"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const fc_object kept = *e;
        const int next_id = w->objects.next_id;
        rc = apply_text(w, refused[i].text, &applied, &err);
        CHECK(rc == -1 && err.code == refused[i].code && strcmp(err.field, refused[i].field) == 0,
              "refused %zu: %s '%s', expected %s '%s'", i, fc_error_code_name(err.code), err.field,
              fc_error_code_name(refused[i].code), refused[i].field);
        CHECK(fc_objects_count(&w->objects, FC_OBJECT_EMITTER) == 1 && memcmp(&kept, e, sizeof kept) == 0 &&
                  w->objects.next_id == next_id,
              "refused %zu changes nothing", i);
        cJSON_Delete(applied);
    }

    char text[256];
    snprintf(text, sizeof text,
             "{\"type\": \"emitter_update\", \"world\": 1, \"emitter\": %d, \"changes\": {\"speed\": 2, \"direction\": "
             "[3, 0, 4]}}",
             expected_id);
    const float rate_before = e->emitter.rate;
    rc = apply_text(w, text, &applied, &err);
    cJSON_Delete(applied);
    snprintf(text, sizeof text,
             "{\"type\": \"emitter_update\", \"world\": 1, \"emitter\": %d, \"changes\": {\"temperature\": 353.15}}",
             expected_id);
    rc = rc || apply_text(w, text, &applied, &err);
    CHECK(rc == 0 && e->emitter.temperature == 353.15f &&
              fabs(number_at(cJSON_GetObjectItemCaseSensitive(applied, "emitter"), "temperature") - 353.15) < 1e-3,
          "emitter_update sets the temperature: %s", err.message);
    fc_particle hot;
    if (rc == 0) { /* a layer now carries it */
        const size_t before = w->particles.count;
        fc_object *row = fc_objects_find(&w->objects, expected_id, FC_OBJECT_EMITTER);
        row->emitter.pending = (double)fc_emitter_layer_size(row, (float)w->params.particle_spacing, w->dimensions);
        fc_emitters_step(w, 0.0); /* one layer, due now */
        CHECK(w->particles.count > before, "the emitter emits a layer (%zu new)", w->particles.count - before);
        int warm = w->particles.count > before;
        for (size_t i = before; i < w->particles.count; i++) {
            fc_particles_get(&w->particles, i, &hot);
            warm &= hot.TEMPERATURE == 353.15f && hot.FLUID == 0;
        }
        CHECK(warm, "its particles are at 353.15 K, of fluid 0");
        w->particles.count = before; /* the host arrays are this world's store */
    }
    cJSON_Delete(applied);
    snprintf(text, sizeof text,
             "{\"type\": \"emitter_update\", \"world\": 1, \"emitter\": %d, \"changes\": {\"speed\": 2, \"direction\": "
             "[3, 0, 4]}}",
             expected_id);
    rc = apply_text(w, text, &applied, &err);
    CHECK(rc == 0 && e->emitter.speed == 2.0f && vec_equals(e->shape.normal, 0.6f, 0, 0.8f) &&
              vec_equals(e->shape.center, 0.2f, 0.3f, 0.2f) && e->emitter.rate == rate_before,
          "emitter_update changes speed and direction only: %s", err.message);
    json = cJSON_GetObjectItemCaseSensitive(applied, "emitter");
    CHECK(number_at(json, "speed") == 2 && number_at(json, "id") == expected_id &&
              json_vec_equals(cJSON_GetObjectItemCaseSensitive(json, "position"), 0.2f, 0.3f, 0.2f),
          "applied.emitter holds all fields after the change");
    cJSON_Delete(applied);

    const size_t particles = w->particles.count;
    snprintf(text, sizeof text, "{\"type\": \"emitter_remove\", \"world\": 1, \"emitter\": %d}", expected_id);
    rc = apply_text(w, text, &applied, &err);
    CHECK(rc == 0 && fc_objects_count(&w->objects, FC_OBJECT_EMITTER) == 0 && w->particles.count == particles &&
              number_at(applied, "emitter") == expected_id,
          "emitter_remove removes it, particles stay, applied.emitter is the id");
    cJSON_Delete(applied);
    rc = apply_text(w, text, &applied, &err);
    CHECK(rc == -1 && err.code == FC_ERR_UNKNOWN_EMITTER, "removing it again: unknown_emitter");
    cJSON_Delete(applied);
}

static const fc_shape *collider_by_id(const fc_world *w, int id)
{
    const fc_object *o = fc_objects_find(&w->objects, id, FC_OBJECT_COLLIDER);
    return o ? &o->shape : NULL;
}

static void test_apply_collider_move(test_world *t)
{
    fc_world *w = &t->w;
    cJSON *applied;
    fc_message_error err;
    char text[256];
    CHECK(collider_by_id(w, t->sphere) && collider_by_id(w, t->plane) && collider_by_id(w, t->box),
          "every collider keeps its id");
    snprintf(text, sizeof text,
             "{\"type\": \"collider_move\", \"id\": \"m\", \"world\": 1, \"collider\": %d, \"position\": [0.25, 0.3, "
             "0.2], \"velocity\": [2, 0, -1]}",
             t->sphere);
    const uint64_t solids_before = w->solids_version;
    int rc = apply_text(w, text, &applied, &err);
    const fc_shape *s = collider_by_id(w, t->sphere);
    CHECK(rc == 0 && vec_equals(s->center, 0.25f, 0.3f, 0.2f) && vec_equals(s->velocity, 2, 0, -1) &&
              w->solids_version != solids_before,
          "collider_move moves the sphere, keeps its velocity, tells the method the solids changed: %s", err.message);
    CHECK(number_at(applied, "collider") == t->sphere &&
              json_vec_equals(cJSON_GetObjectItemCaseSensitive(applied, "position"), 0.25f, 0.3f, 0.2f) &&
              json_vec_equals(cJSON_GetObjectItemCaseSensitive(applied, "velocity"), 2, 0, -1),
          "applied: collider, position, velocity");
    cJSON_Delete(applied);

    snprintf(text, sizeof text,
             "{\"type\": \"collider_move\", \"world\": 1, \"collider\": %d, \"position\": [0.1, 0.25, 0.1]}", t->box);
    rc = apply_text(w, text, &applied, &err);
    CHECK(rc == 0 && vec_equals(collider_by_id(w, t->box)->center, 0.1f, 0.25f, 0.1f) &&
              vec_equals(collider_by_id(w, t->box)->velocity, 0, 0, 0),
          "a box moves too, velocity zero by default");
    cJSON_Delete(applied);

    const fc_shape sphere_before = *collider_by_id(w, t->sphere);
    struct { int collider; const char *position; fc_error_code code; const char *field; } refused[] = {
        {t->plane, "[0, 0.1, 0]", FC_ERR_UNKNOWN_COLLIDER, "collider"},
        {999, "[0, 0.1, 0]", FC_ERR_UNKNOWN_COLLIDER, "collider"},
        {t->sphere, "[0.2, 0.41, 0.2]", FC_ERR_BAD_VALUE, "position"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        snprintf(text, sizeof text, "{\"type\": \"collider_move\", \"world\": 1, \"collider\": %d, \"position\": %s}",
                 refused[i].collider, refused[i].position);
        rc = apply_text(w, text, &applied, &err);
        CHECK(rc == -1 && err.code == refused[i].code && strcmp(err.field, refused[i].field) == 0,
              "collider_move refused %zu: %s '%s'", i, fc_error_code_name(err.code), err.field);
        CHECK(memcmp(&sphere_before, collider_by_id(w, t->sphere), sizeof sphere_before) == 0,
              "refused %zu leaves the sphere where it was", i);
        cJSON_Delete(applied);
    }

    /* a box turns: collider_move's rotation (degrees about x, then y, then z), kept by a later move
     * without one; a sphere takes none */
    snprintf(text, sizeof text,
             "{\"type\": \"collider_move\", \"world\": 1, \"collider\": %d, \"position\": [0.1, 0.25, 0.1], "
             "\"rotation\": [0, 0, 30], \"angular_velocity\": [0, 0, 2]}",
             t->box);
    rc = apply_text(w, text, &applied, &err);
    const fc_shape *box = collider_by_id(w, t->box);
    float degrees[3];
    fc_shape_rotation_degrees(box, degrees);
    const cJSON *turned = cJSON_GetObjectItemCaseSensitive(applied, "rotation");
    CHECK(rc == 0 && box->rotated && fabsf(degrees[2] - 30.0f) < 1e-3f && fabsf(degrees[0]) < 1e-4f &&
              box->angular_velocity[2] == 2.0f && cJSON_GetArraySize(turned) == 3 &&
              fabs(cJSON_GetArrayItem(turned, 2)->valuedouble - 30.0) < 1e-3,
          "collider_move turns the box 30 degrees about z and sets its spin: %s (%g %g %g)", err.message, degrees[0],
          degrees[1], degrees[2]);
    cJSON_Delete(applied);
    snprintf(text, sizeof text,
             "{\"type\": \"collider_move\", \"world\": 1, \"collider\": %d, \"position\": [0.12, 0.25, 0.1]}", t->box);
    rc = apply_text(w, text, &applied, &err);
    fc_shape_rotation_degrees(collider_by_id(w, t->box), degrees);
    CHECK(rc == 0 && fabsf(degrees[2] - 30.0f) < 1e-3f && collider_by_id(w, t->box)->angular_velocity[2] == 0.0f,
          "a move without a rotation keeps it; the spin is the message's (none)");
    cJSON_Delete(applied);
    snprintf(text, sizeof text,
             "{\"type\": \"collider_move\", \"world\": 1, \"collider\": %d, \"position\": [0.25, 0.3, 0.2], "
             "\"rotation\": [10, 0, 0]}",
             t->sphere);
    const fc_shape sphere_now = *collider_by_id(w, t->sphere);
    rc = apply_text(w, text, &applied, &err);
    CHECK(rc == -1 && err.code == FC_ERR_BAD_VALUE && strcmp(err.field, "rotation") == 0 &&
              memcmp(&sphere_now, collider_by_id(w, t->sphere), sizeof sphere_now) == 0,
          "a sphere's rotation is refused on rotation, nothing changed: %s '%s'", fc_error_code_name(err.code), err.field);
    cJSON_Delete(applied);

    rc = apply_text(w, "{\"type\": \"pause\", \"id\": 5, \"world\": 1}", &applied, &err);
    CHECK(rc == -1 && err.code == FC_ERR_INTERNAL && strcmp(err.id, "5") == 0 && strcmp(err.request, "pause") == 0,
          "pause is not a world-content request: internal, echoing id and request");
    cJSON_Delete(applied);
}

/* A turned box is checked as turned: its corners must stay in the domain, and a 2D world turns
 * shapes about z only; a refused one adds nothing. */
static void test_rotated_collider_refusals(void)
{
    fc_world w;
    fc_world_init(&w);
    for (int a = 0; a < 3; a++) w.domain_hi[a] = 0.4f;
    cJSON *applied;
    fc_message_error err;
    /* half extents 0.15 x 0.02: axis-aligned it fits at x 0.2 +- 0.15; turned 90 degrees about z it
     * reaches 0.15 up and down from y 0.1, below the floor */
    int rc = apply_text(&w, "{\"type\": \"collider_add\", \"world\": 1, \"collider\": {\"shape\": \"box\", \"position\": "
                            "[0.2, 0.1, 0.2], \"half_extents\": [0.15, 0.02, 0.05], \"rotation\": [0, 0, 90]}}",
                        &applied, &err);
    CHECK(rc == -1 && err.code == FC_ERR_BAD_VALUE && strcmp(err.field, "collider.half_extents") == 0 &&
              w.objects.count == 0,
          "a turned box reaching below the floor is refused on its size, nothing added: %s '%s' %s",
          fc_error_code_name(err.code), err.field, err.message);
    cJSON_Delete(applied);
    fc_world_free(&w);

    fc_world_init(&w);
    w.dimensions = 2;
    w.domain_hi[0] = 1.0f, w.domain_hi[1] = 1.0f, w.domain_hi[2] = 0.0f;
    rc = apply_text(&w, "{\"type\": \"collider_add\", \"world\": 1, \"collider\": {\"shape\": \"box\", \"position\": "
                        "[0.5, 0.5, 0], \"half_extents\": [0.1, 0.1, 0.1], \"rotation\": [20, 0, 30]}}",
                    &applied, &err);
    CHECK(rc == -1 && err.code == FC_ERR_BAD_VALUE && strcmp(err.field, "collider.rotation") == 0 &&
              strstr(err.message, "about z only") && w.objects.count == 0,
          "a 2D world refuses a turn about x on collider.rotation, nothing added: %s '%s' %s",
          fc_error_code_name(err.code), err.field, err.message);
    cJSON_Delete(applied);
    rc = apply_text(&w, "{\"type\": \"collider_add\", \"world\": 1, \"collider\": {\"shape\": \"box\", \"position\": "
                        "[0.5, 0.5, 0], \"half_extents\": [0.1, 0.1, 0.1], \"rotation\": [0, 0, 30]}}",
                    &applied, &err);
    CHECK(rc == 0 && w.objects.count == 1 && w.objects.rows[0].shape.rotated, "and takes a turn about z: %s",
          err.message);
    cJSON_Delete(applied);
    fc_world_free(&w);
}

/* Hot and cold solids by command: collider_add with a temperature (the default heat transfer),
 * collider_update and walls_update, and their refusals, each changing nothing. */
static void test_thermal_commands(void)
{
    fc_world w;
    fc_world_init(&w);
    for (int a = 0; a < 3; a++) w.domain_hi[a] = 1.0f;
    cJSON *applied;
    fc_message_error err;
    int rc = apply_text(&w, "{\"type\": \"collider_add\", \"world\": 1, \"collider\": {\"shape\": \"sphere\", \"position\": "
                            "[0.5, 0.5, 0.5], \"radius\": 0.1, \"temperature\": 360}}",
                        &applied, &err);
    const cJSON *added = cJSON_GetObjectItemCaseSensitive(applied, "collider");
    CHECK(rc == 0 && w.objects.count == 1 && w.objects.rows[0].thermal.temperature == 360.0f &&
              w.objects.rows[0].thermal.heat_transfer == FC_HEAT_TRANSFER_DEFAULT && number_at(added, "temperature") == 360.0 &&
              number_at(added, "heat_transfer") == FC_HEAT_TRANSFER_DEFAULT,
          "collider_add: a temperature alone heats with the default heat transfer, and the ack says so: %s", err.message);
    const int id = w.objects.count ? w.objects.rows[0].id : -1;
    cJSON_Delete(applied);
    char text[256];
    snprintf(text, sizeof text, "{\"type\": \"collider_update\", \"world\": 1, \"collider\": %d, \"changes\": "
                                "{\"temperature\": 280, \"heat_transfer\": 5000}}", id);
    rc = apply_text(&w, text, &applied, &err);
    CHECK(rc == 0 && w.objects.rows[0].thermal.temperature == 280.0f && w.objects.rows[0].thermal.heat_transfer == 5000.0f &&
              number_at(cJSON_GetObjectItemCaseSensitive(applied, "collider"), "heat_transfer") == 5000.0,
          "collider_update makes it a cold plate: %s", err.message);
    cJSON_Delete(applied);
    snprintf(text, sizeof text, "{\"type\": \"collider_update\", \"world\": 1, \"collider\": %d, \"changes\": "
                                "{\"temperature\": 300}}", id);
    rc = apply_text(&w, text, &applied, &err);
    CHECK(rc == 0 && w.objects.rows[0].thermal.temperature == 300.0f && w.objects.rows[0].thermal.heat_transfer == 5000.0f,
          "a new temperature keeps the heat transfer it had: %s", err.message);
    cJSON_Delete(applied);
    snprintf(text, sizeof text, "{\"type\": \"collider_update\", \"world\": 1, \"collider\": %d, \"changes\": "
                                "{\"temperature\": 300}}", id + 40);
    rc = apply_text(&w, text, &applied, &err);
    CHECK(rc == -1 && err.code == FC_ERR_UNKNOWN_COLLIDER && strcmp(err.field, "collider") == 0,
          "collider_update of no collider: unknown_collider (%s '%s')", fc_error_code_name(err.code), err.field);
    cJSON_Delete(applied);

    rc = apply_text(&w, "{\"type\": \"collider_add\", \"world\": 1, \"collider\": {\"shape\": \"sphere\", \"position\": "
                        "[0.2, 0.2, 0.2], \"radius\": 0.1, \"heat_transfer\": 300}}",
                    &applied, &err);
    CHECK(rc == -1 && err.code == FC_ERR_BAD_VALUE && strcmp(err.field, "collider.heat_transfer") == 0 && w.objects.count == 1,
          "a heat transfer without a temperature is refused on collider.heat_transfer, nothing added: %s '%s' %s",
          fc_error_code_name(err.code), err.field, err.message);
    cJSON_Delete(applied);

    rc = apply_text(&w, "{\"type\": \"walls_update\", \"world\": 1, \"walls\": {\"y_min\": {\"temperature\": 340}, "
                        "\"z_max\": {\"temperature\": 280, \"heat_transfer\": 50}}}",
                    &applied, &err);
    const cJSON *walls = cJSON_GetObjectItemCaseSensitive(applied, "walls");
    CHECK(rc == 0 && w.walls[2].temperature == 340.0f && w.walls[2].heat_transfer == FC_HEAT_TRANSFER_DEFAULT &&
              w.walls[5].heat_transfer == 50.0f && w.walls[0].heat_transfer == 0.0f &&
              number_at(cJSON_GetObjectItemCaseSensitive(walls, "y_min"), "temperature") == 340.0 &&
              !cJSON_GetObjectItemCaseSensitive(walls, "x_min"),
          "walls_update heats the floor and cools the back, and the ack lists the walls that do: %s", err.message);
    cJSON_Delete(applied);
    rc = apply_text(&w, "{\"type\": \"walls_update\", \"world\": 1, \"walls\": {\"y_min\": {\"temperature\": 350}, "
                        "\"x_min\": {\"heat_transfer\": 10}}}",
                    &applied, &err);
    CHECK(rc == -1 && err.code == FC_ERR_BAD_VALUE && strcmp(err.field, "walls.x_min.heat_transfer") == 0 &&
              w.walls[2].temperature == 340.0f && w.walls[0].heat_transfer == 0.0f,
          "a wall's heat transfer without a temperature is refused, and the floor keeps 340 K: %s '%s'",
          fc_error_code_name(err.code), err.field);
    cJSON_Delete(applied);
    fc_world_free(&w);

    fc_world_init(&w);
    w.dimensions = 2;
    w.domain_hi[0] = 1.0f, w.domain_hi[1] = 1.0f, w.domain_hi[2] = 0.0f;
    rc = apply_text(&w, "{\"type\": \"walls_update\", \"world\": 1, \"walls\": {\"z_min\": {\"temperature\": 350}}}",
                    &applied, &err);
    CHECK(rc == -1 && err.code == FC_ERR_BAD_VALUE && strcmp(err.field, "walls.z_min") == 0 && w.walls[4].temperature == 0.0f,
          "a 2D world refuses a z wall: %s '%s' %s", fc_error_code_name(err.code), err.field, err.message);
    cJSON_Delete(applied);
    fc_world_free(&w);
}

static void test_apply_to_world(void)
{
    test_world t;
    if (build_world(&t)) return;
    test_apply_set(&t.w);
    test_apply_set_fluid(&t.w);
    test_apply_emitters(&t.w);
    test_apply_collider_move(&t);
    test_rotated_collider_refusals();
    char err[256];
    CHECK(fc_world_step(&t.w) == 0, "the world still steps after the changes");
    CHECK(fc_params_check(&t.w.params, err, sizeof err) == 0, "its parameters are consistent: %s", err);
    fc_world_free(&t.w);
}

/* ---- a moving collider pushes fluid ---------------------------------------------------------- */

enum { PUSH_STEPS = 10 };
static const float push_center[3] = {0.16f, 0.16f, 0.16f};
static const float push_radius = 0.06f;

/* Resting fluid without gravity filling a 0.32 m box around a sphere (the lattice is symmetric
 * about its centre), touching it: the box is filled before the sphere is added (a fill leaves out
 * the points within particle_radius of a collider), then the points inside it are removed; the
 * sphere's id in *sphere. */
static int build_immersed_sphere(fc_world *w, int *sphere)
{
    char err[256];
    fc_world_init(w);
    w->params.gravity_y = 0.0;
    for (int a = 0; a < 3; a++) w->domain_hi[a] = 0.32f;
    const float v0[3] = {0, 0, 0};
    fc_shape s = {.kind = FC_SHAPE_SPHERE, .radius = push_radius};
    memcpy(s.center, push_center, sizeof s.center);
    if (fc_world_fill_box(w, w->domain_lo, w->domain_hi, v0, 0) <= 0) return -1;
    *sphere = fc_world_add_collider(w, &s);
    uint8_t *keep = malloc(w->particles.count);
    if (!keep) return -1;
    for (size_t i = 0; i < w->particles.count; i++) {
        float x[3] = {w->particles.field[FC_PX][i], w->particles.field[FC_PY][i], w->particles.field[FC_PZ][i]};
        float n[3];
        keep[i] = fc_shape_distance(&s, x, n) > 0.0f;
    }
    fc_particles_compact(&w->particles, keep);
    free(keep);
    return fc_world_start(w, err, sizeof err);
}

/* Mean x velocity of the particles within one spacing of the sphere's surface. */
static double mean_vx_near_sphere(const fc_world *w, const fc_shape *s, size_t *count)
{
    double sum = 0.0;
    *count = 0;
    for (size_t i = 0; i < w->particles.count; i++) {
        float x[3] = {w->particles.field[FC_PX][i], w->particles.field[FC_PY][i], w->particles.field[FC_PZ][i]};
        float n[3];
        if (fc_shape_distance(s, x, n) > (float)w->params.particle_spacing) continue;
        sum += w->particles.field[FC_VX][i];
        (*count)++;
    }
    return *count ? sum / (double)*count : 0.0;
}

/* The sphere given velocity [vx, 0, 0] by collider_move (staying where it is), then PUSH_STEPS
 * steps; the mean x velocity of the fluid touching it. */
static double fluid_vx_with_sphere_velocity(double vx)
{
    fc_world w;
    int sphere = 0;
    int ok = build_immersed_sphere(&w, &sphere) == 0;
    CHECK(ok, "the immersed-sphere world starts");
    char text[256];
    snprintf(text, sizeof text,
             "{\"type\": \"collider_move\", \"world\": 1, \"collider\": %d, \"position\": [%.9g, %.9g, %.9g], "
             "\"velocity\": [%g, 0, 0]}",
             sphere, push_center[0], push_center[1], push_center[2], vx);
    cJSON *applied = NULL;
    fc_message_error err = {0};
    ok = ok && apply_text(&w, text, &applied, &err) == 0;
    cJSON_Delete(applied);
    CHECK(ok, "collider_move gives the sphere its velocity: %s", err.message);
    for (int step = 0; ok && step < PUSH_STEPS; step++) ok = fc_world_step(&w) == 0;
    CHECK(ok, "%d steps ran", PUSH_STEPS);
    size_t count = 0;
    double mean = mean_vx_near_sphere(&w, collider_by_id(&w, sphere), &count);
    printf("sphere at vx = %g m/s: %zu particles near it, mean vx %.4f m/s\n", vx, count, mean);
    CHECK(count > 100, "particles around the sphere: %zu", count);
    fc_world_free(&w);
    return mean;
}

static void test_moving_collider_pushes_fluid(void)
{
    double at_rest = fluid_vx_with_sphere_velocity(0.0);
    double moving = fluid_vx_with_sphere_velocity(1.0);
    CHECK(fabs(at_rest) < 0.01, "a sphere at rest leaves the fluid at rest: mean vx %g m/s", at_rest);
    CHECK(moving > 0.03, "a sphere moving at +1 m/s in x pushes the fluid along: mean vx %g m/s", moving);
}

int main(void)
{
    char err[256];
    if (fc_message_init(err, sizeof err)) {
        fprintf(stderr, "cannot load the message schema: %s\n", err);
        return 1;
    }
    test_set_values();
    test_value_errors();
    test_init_values_outside_set();
    test_object_commands();
    test_values_apply();
    test_narrowed_values();
    test_limits_match_schema();
    test_apply_to_world();
    test_thermal_commands();
    test_moving_collider_pushes_fluid();
    fc_message_cleanup();
    return check_summary("test_command");
}
