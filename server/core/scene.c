/* Scene files (scenes/README.md): JSON read with cJSON, checked key by key, then built into a world. */
#define _POSIX_C_SOURCE 200809L

#include "core/scene.h"
#include "core/colliders.h"
#include "core/limits.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/build_progress.h"
#include "core/solver.h"

#ifndef FLUIDCAST_SCENES_DIR
#define FLUIDCAST_SCENES_DIR "scenes"
#endif

#define SCENE_MAX_BYTES (4L * 1024 * 1024)
#define SCENE_MAX_DEPTH 32
#define PATH_LEN 128

/* ---- errors ------------------------------------------------------------------------------- */

/* Where errors go: every message reads "SOURCE: key.path: what was expected, what was found". */
typedef struct reader {
    const char *source;
    char *err;
    size_t errlen;
    const fc_scene *scene; /* the scene so far (domain, parameters) for checks that need it */
    char *key_path;        /* NULL, or where the key path of the error goes as well */
    size_t key_path_len;
} reader;

static int fail(const reader *r, const char *path, const char *fmt, ...)
{
    if (r->key_path && r->key_path_len) snprintf(r->key_path, r->key_path_len, "%s", path ? path : "");
    if (!r->err || !r->errlen) return -1;
    int used = path && path[0] ? snprintf(r->err, r->errlen, "%s: %s: ", r->source, path)
                               : snprintf(r->err, r->errlen, "%s: ", r->source);
    if (used >= 0 && (size_t)used < r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + used, r->errlen - (size_t)used, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* What was found, for the second half of a message. */
static const char *describe(const cJSON *item, char *buf, size_t len)
{
    if (!item) snprintf(buf, len, "nothing (the key is required)");
    else if (cJSON_IsString(item)) snprintf(buf, len, "the string \"%.40s\"", item->valuestring);
    else if (cJSON_IsNumber(item)) snprintf(buf, len, "the number %g", item->valuedouble);
    else if (cJSON_IsBool(item)) snprintf(buf, len, "%s", cJSON_IsTrue(item) ? "true" : "false");
    else if (cJSON_IsNull(item)) snprintf(buf, len, "null");
    else if (cJSON_IsArray(item)) {
        int n = cJSON_GetArraySize(item);
        snprintf(buf, len, "an array of %d element%s", n, n == 1 ? "" : "s");
    }
    else snprintf(buf, len, "an object");
    return buf;
}

static int fail_expected(const reader *r, const char *path, const char *expected, const cJSON *found)
{
    char what[96];
    return fail(r, path, "expected %s, found %s", expected, describe(found, what, sizeof what));
}

/* "parent.key", or "key" at the top level. */
static void child_path(char *out, const char *parent, const char *key)
{
    if (snprintf(out, PATH_LEN, "%s%s%s", parent, parent[0] ? "." : "", key) >= PATH_LEN)
        memcpy(out + PATH_LEN - 4, "...", 4); /* paths that long are cut, never overflowed */
}

/* ---- generic readers ---------------------------------------------------------------------- */

static int is_listed(const char *key, const char *const list[])
{
    for (int i = 0; list[i]; i++)
        if (strcmp(key, list[i]) == 0) return 1;
    return 0;
}

static void join_list(char *out, size_t len, const char *const list[])
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; list[i] && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "", list[i]);
}

/* Whether a member before c in its object has c's key. Callers reject unknown keys first, so
 * the number of members scanned stays small however large the object is. */
static int is_duplicate(const cJSON *obj, const cJSON *c)
{
    for (const cJSON *d = obj->child; d != c; d = d->next)
        if (strcmp(d->string, c->string) == 0) return 1;
    return 0;
}

/* Rejects keys not in `allowed` and duplicate keys. */
static int check_keys(const reader *r, const cJSON *obj, const char *path, const char *const allowed[])
{
    char sub[PATH_LEN], list[256];
    for (const cJSON *c = obj->child; c; c = c->next) {
        child_path(sub, path, c->string);
        if (!is_listed(c->string, allowed)) {
            join_list(list, sizeof list, allowed);
            return fail(r, sub, "unknown key (expected one of %s)", list);
        }
        if (is_duplicate(obj, c)) return fail(r, sub, "duplicate key");
    }
    return 0;
}

/* The member `key` of obj; when required and absent, an error. *item is NULL when absent. */
static int lookup(const reader *r, const cJSON *obj, const char *key, const char *parent, int required,
                  const char *expected, const cJSON **item)
{
    *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (*item || !required) return 0;
    char sub[PATH_LEN];
    child_path(sub, parent, key);
    return fail_expected(r, sub, expected, NULL);
}

typedef enum { NUM_ANY, NUM_NONNEGATIVE, NUM_POSITIVE } num_rule;

static const char *const rule_text[] = {"a finite number", "a number >= 0", "a number > 0"};

/* A JSON number that fits a float and obeys the rule. */
static int number_value(const reader *r, const cJSON *item, const char *path, num_rule rule, float *out)
{
    if (!cJSON_IsNumber(item)) return fail_expected(r, path, rule_text[rule], item);
    double v = item->valuedouble;
    if (!isfinite(v) || fabs(v) > FLT_MAX)
        return fail(r, path, "expected a finite number (magnitude below %g), found %g", FLT_MAX, v);
    if ((rule == NUM_NONNEGATIVE && v < 0.0) || (rule == NUM_POSITIVE && v <= 0.0))
        return fail(r, path, "expected %s, found %g", rule_text[rule], v);
    *out = (float)v;
    return 0;
}

/* obj.key as a number; absent and optional leaves *out as it was. */
static int read_number(const reader *r, const cJSON *obj, const char *key, const char *parent, int required,
                       num_rule rule, float *out)
{
    const cJSON *item;
    char sub[PATH_LEN];
    if (lookup(r, obj, key, parent, required, rule_text[rule], &item)) return -1;
    if (!item) return 0;
    child_path(sub, parent, key);
    return number_value(r, item, sub, rule, out);
}

/* A JSON number within an emitter's or collider's field limit, narrowed: the check emitter_add and
 * collider_add make (core/limits.h). */
static int field_value(const reader *r, const cJSON *item, const char *path, fc_object_field field, float *out)
{
    char why[192];
    if (!cJSON_IsNumber(item)) {
        const fc_limit l = fc_object_field_limit(field);
        return fail_expected(r, path, fc_limit_describe(&l, why, sizeof why), item);
    }
    if (fc_object_field_check(field, item->valuedouble, out, why, sizeof why)) return fail(r, path, "%s", why);
    return 0;
}

/* obj.key as field_value; absent and optional leaves *out as it was. */
static int read_field(const reader *r, const cJSON *obj, const char *key, const char *parent, int required,
                      fc_object_field field, float *out)
{
    const cJSON *item;
    char sub[PATH_LEN], expected[96];
    const fc_limit l = fc_object_field_limit(field);
    if (lookup(r, obj, key, parent, required, fc_limit_describe(&l, expected, sizeof expected), &item)) return -1;
    if (!item) return 0;
    child_path(sub, parent, key);
    return field_value(r, item, sub, field, out);
}

static int is_2d(const reader *r) { return r->scene && r->scene->dimensions == 2; }

/* obj.key as [x, y, z], each component obeying the rule, and the field's limit unless field is
 * FC_OBJECT_FIELD_COUNT; absent and optional leaves out as it was. In a 2D scene [x, y] or
 * [x, y, z]: z is checked, then ignored (0). */
static int read_vec3_field(const reader *r, const cJSON *obj, const char *key, const char *parent, int required,
                           num_rule rule, fc_object_field field, float out[3])
{
    static const char *const expected3[] = {"an array of 3 numbers", "an array of 3 numbers >= 0",
                                            "an array of 3 numbers > 0"};
    static const char *const expected2[] = {"an array of 2 (or 3) numbers", "an array of 2 (or 3) numbers >= 0",
                                            "an array of 2 (or 3) numbers > 0"};
    const char *const *expected = is_2d(r) ? expected2 : expected3;
    const cJSON *item;
    char sub[PATH_LEN];
    if (lookup(r, obj, key, parent, required, expected[rule], &item)) return -1;
    if (!item) return 0;
    child_path(sub, parent, key);
    int size = cJSON_IsArray(item) ? cJSON_GetArraySize(item) : -1;
    if (size != 3 && !(is_2d(r) && size == 2)) return fail_expected(r, sub, expected[rule], item);
    float v[3] = {0.0f, 0.0f, 0.0f};
    int a = 0;
    for (const cJSON *c = item->child; c; c = c->next, a++) {
        char what[96];
        if (!cJSON_IsNumber(c))
            return fail(r, sub, "expected %s, found %s at index %d", expected[rule], describe(c, what, sizeof what), a);
        char element[PATH_LEN + 4];
        snprintf(element, sizeof element, "%s[%c]", sub, "012"[a]);
        if (field < FC_OBJECT_FIELD_COUNT ? field_value(r, c, element, field, &v[a])
                                          : number_value(r, c, element, rule, &v[a]))
            return -1;
    }
    if (is_2d(r)) v[2] = 0.0f;
    memcpy(out, v, sizeof v);
    return 0;
}

static int read_vec3(const reader *r, const cJSON *obj, const char *key, const char *parent, int required,
                     num_rule rule, float out[3])
{
    return read_vec3_field(r, obj, key, parent, required, rule, FC_OBJECT_FIELD_COUNT, out);
}

/* obj.key as a string of at most outlen - 1 bytes; absent and optional leaves out as it was. */
static int read_string(const reader *r, const cJSON *obj, const char *key, const char *parent, int required,
                       char *out, size_t outlen)
{
    char expected[64], sub[PATH_LEN];
    snprintf(expected, sizeof expected, "a string of 1 to %zu characters", outlen - 1);
    const cJSON *item;
    if (lookup(r, obj, key, parent, required, expected, &item)) return -1;
    if (!item) return 0;
    child_path(sub, parent, key);
    if (cJSON_IsString(item) && strlen(item->valuestring) >= outlen)
        return fail(r, sub, "expected %s, found one of %zu", expected, strlen(item->valuestring));
    if (!cJSON_IsString(item) || !item->valuestring[0]) return fail_expected(r, sub, expected, item);
    memcpy(out, item->valuestring, strlen(item->valuestring) + 1);
    return 0;
}

/* obj.key (required) as one of the choices; *index is its position. */
static int read_choice(const reader *r, const cJSON *obj, const char *key, const char *parent,
                       const char *const choices[], int *index)
{
    char expected[160], sub[PATH_LEN];
    size_t used = (size_t)snprintf(expected, sizeof expected, "one of ");
    join_list(expected + used, sizeof expected - used, choices);
    const cJSON *item;
    if (lookup(r, obj, key, parent, 1, expected, &item)) return -1;
    child_path(sub, parent, key);
    for (int i = 0; cJSON_IsString(item) && choices[i]; i++)
        if (strcmp(item->valuestring, choices[i]) == 0) return *index = i, 0;
    return fail_expected(r, sub, expected, item);
}

/* Scales v to unit length; the zero vector is an error (in 2D, read_vec3 dropped z already). */
static int normalise(const reader *r, const char *parent, const char *key, float v[3])
{
    double len = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
    if (!(len > 0.0)) {
        char sub[PATH_LEN];
        child_path(sub, parent, key);
        return fail(r, sub, is_2d(r) ? "must have a non-zero x or y (a 2D scene ignores z)" : "must not be the zero vector");
    }
    for (int a = 0; a < 3; a++) v[a] = (float)(v[a] / len);
    return 0;
}

/* ---- shapes ------------------------------------------------------------------------------- */

/* "min" and "max" (required), min < max on every axis. */
static int read_min_max(const reader *r, const cJSON *obj, const char *path, float min[3], float max[3])
{
    static const char axis[] = "xyz";
    if (read_vec3(r, obj, "min", path, 1, NUM_ANY, min) || read_vec3(r, obj, "max", path, 1, NUM_ANY, max)) return -1;
    for (int a = 0; a < (is_2d(r) ? 2 : 3); a++)
        if (!(min[a] < max[a]))
            return fail(r, path, "expected min < max on every axis, found min.%c = %g >= max.%c = %g", axis[a],
                        min[a], axis[a], max[a]);
    return 0;
}

/* "center" and "radius" (both required, radius > 0). */
static int read_sphere(const reader *r, const cJSON *obj, const char *path, float center[3], float *radius)
{
    return read_vec3(r, obj, "center", path, 1, NUM_ANY, center) ||
                   read_number(r, obj, "radius", path, 1, NUM_POSITIVE, radius)
               ? -1
               : 0;
}

/* [lo, hi] must lie inside the scene's domain. */
static int check_inside(const reader *r, const char *path, const float lo[3], const float hi[3])
{
    const float *dlo = r->scene->domain_min, *dhi = r->scene->domain_max;
    for (int a = 0; a < (is_2d(r) ? 2 : 3); a++) {
        float slack = 1e-5f * (dhi[a] - dlo[a]);
        if (lo[a] >= dlo[a] - slack && hi[a] <= dhi[a] + slack) continue;
        char found[64];
        if (lo[a] == hi[a]) snprintf(found, sizeof found, "%c = %g", "xyz"[a], lo[a]);
        else snprintf(found, sizeof found, "%c from %g to %g", "xyz"[a], lo[a], hi[a]);
        return fail(r, path, "expected to lie inside the domain [%g, %g, %g]-[%g, %g, %g], found %s", dlo[0],
                    dlo[1], dlo[2], dhi[0], dhi[1], dhi[2], found);
    }
    return 0;
}

static void sphere_bounds(const float center[3], float radius, float lo[3], float hi[3])
{
    for (int a = 0; a < 3; a++) lo[a] = center[a] - radius, hi[a] = center[a] + radius;
}

static void box_from_min_max(fc_shape *s, const float min[3], const float max[3])
{
    s->kind = FC_SHAPE_BOX;
    for (int a = 0; a < 3; a++) s->center[a] = 0.5f * (min[a] + max[a]), s->half[a] = 0.5f * (max[a] - min[a]);
}

/* ---- fluids ------------------------------------------------------------------------------ */

/* obj.fluid, the name of one of the scene's fluids, as its index (absent: 0, the first). */
static int read_fluid(const reader *r, const cJSON *obj, const char *path, int *index)
{
    char name[FC_FLUID_NAME_LEN] = "", sub[PATH_LEN], names[FC_MAX_FLUIDS * FC_FLUID_NAME_LEN];
    *index = 0;
    if (read_string(r, obj, "fluid", path, 0, name, sizeof name)) return -1;
    if (!name[0]) return 0;
    *index = fc_fluid_find(r->scene->fluids, r->scene->fluid_count, name);
    if (*index >= 0) return 0;
    child_path(sub, path, "fluid");
    fc_fluid_names(r->scene->fluids, r->scene->fluid_count, names, sizeof names);
    return fail(r, sub, "no fluid named \"%s\"; the scene's fluids are %s", name, names);
}

static int read_param_value(const reader *r, const fc_param_desc *d, const cJSON *item, const char *path, double *value);

/* One element of "fluids": a name, a colour, and values of the fluid-scoped parameters; what it
 * leaves out it takes from the scene's parameters. */
static int parse_fluid(const reader *r, const cJSON *obj, const char *path, fc_fluid *f, int index)
{
    char sub[PATH_LEN], colour[16] = "";
    fc_fluid_from_template(f, &r->scene->fluid_values, index);
    f->name[0] = '\0';
    for (const cJSON *c = obj->child; c; c = c->next) {
        child_path(sub, path, c->string);
        if (is_duplicate(obj, c)) return fail(r, sub, "duplicate key");
        if (strcmp(c->string, "name") == 0 || strcmp(c->string, "colour") == 0) continue;
        const fc_param_desc *d = fc_param_find(c->string);
        double *slot = d ? fc_fluid_param_slot(f, d) : NULL;
        if (!slot) {
            char list[256] = "name, colour";
            for (size_t i = 0; i < fc_param_count; i++)
                if (fc_param_table[i].flags & FC_PARAM_FLUID)
                    snprintf(list + strlen(list), sizeof list - strlen(list), ", %s", fc_param_table[i].name);
            return fail(r, sub, "unknown key (expected one of %s)", list);
        }
        double value;
        if (read_param_value(r, d, c, sub, &value)) return -1;
        char msg[256], shown[FC_FLUID_NAME_LEN + 64];
        snprintf(shown, sizeof shown, "fluids[%d].%s", index, d->name);
        if (fc_param_check_number(d, shown, value, msg, sizeof msg)) return fail(r, sub, "%s", strstr(msg, ": ") + 2);
        *slot = value;
    }
    if (read_string(r, obj, "name", path, 1, f->name, sizeof f->name) ||
        read_string(r, obj, "colour", path, 0, colour, sizeof colour))
        return -1;
    child_path(sub, path, "name");
    if (!fc_fluid_name_valid(f->name))
        return fail(r, sub, "expected 1 to %d of the characters A-Z a-z 0-9 _ -, found \"%s\"", FC_FLUID_NAME_LEN - 1,
                    f->name);
    if (fc_fluid_find(r->scene->fluids, index, f->name) >= 0)
        return fail(r, sub, "a fluid named \"%s\" comes earlier in the list", f->name);
    child_path(sub, path, "colour");
    if (colour[0] && fc_colour_parse(colour, &f->colour)) return fail(r, sub, "expected \"#rrggbb\", found \"%s\"", colour);
    return 0;
}

/* "fluids": 1 to FC_MAX_FLUIDS of them; absent, one fluid made of the parameters. */
static int parse_fluids(const reader *r, const cJSON *root, fc_scene *s)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "fluids");
    s->fluid_count = 0;
    if (!list) {
        fc_fluid_from_template(&s->fluids[0], &s->fluid_values, 0);
        s->fluid_count = 1;
        return 0;
    }
    char expected[64];
    snprintf(expected, sizeof expected, "an array of 1 to %d fluid objects", FC_MAX_FLUIDS);
    int n = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
    if (n < 1 || n > FC_MAX_FLUIDS) return fail_expected(r, "fluids", expected, list);
    for (const cJSON *c = list->child; c; c = c->next) {
        char path[PATH_LEN];
        snprintf(path, sizeof path, "fluids[%d]", s->fluid_count);
        if (!cJSON_IsObject(c)) return fail_expected(r, path, "an object", c);
        if (parse_fluid(r, c, path, &s->fluids[s->fluid_count], s->fluid_count)) return -1;
        s->fluid_count++;
    }
    return 0;
}

/* ---- list elements ------------------------------------------------------------------------ */

static const char *const box_or_sphere[] = {"box", "sphere", NULL};

static int parse_block(const reader *r, const cJSON *obj, const char *path, void *out)
{
    static const char *const box_keys[] = {"type", "min", "max", "velocity", "fluid", NULL};
    static const char *const sphere_keys[] = {"type", "center", "radius", "velocity", "fluid", NULL};
    fc_scene_block *b = out;
    int type;
    if (read_choice(r, obj, "type", path, box_or_sphere, &type)) return -1;
    if (check_keys(r, obj, path, type == 0 ? box_keys : sphere_keys)) return -1;
    if (read_vec3(r, obj, "velocity", path, 0, NUM_ANY, b->velocity) || read_fluid(r, obj, path, &b->fluid)) return -1;
    b->kind = type == 0 ? FC_SHAPE_BOX : FC_SHAPE_SPHERE;
    if (type == 0) {
        if (read_min_max(r, obj, path, b->min, b->max)) return -1;
    } else {
        if (read_sphere(r, obj, path, b->center, &b->radius)) return -1;
        sphere_bounds(b->center, b->radius, b->min, b->max);
    }
    return check_inside(r, path, b->min, b->max);
}

/* obj.rotation (optional): a box's orientation as Euler angles in degrees about x, then y, then z
 * (three.js's 'XYZ' order); in a 2D scene one number, the turn about z. Absent: axis-aligned. */
static int read_rotation(const reader *r, const cJSON *obj, const char *path, fc_shape *s)
{
    float degrees[3] = {0.0f, 0.0f, 0.0f}, q[4];
    if (!cJSON_GetObjectItemCaseSensitive(obj, "rotation")) return 0;
    if (is_2d(r) ? read_field(r, obj, "rotation", path, 1, FC_FIELD_ROTATION, &degrees[2])
                 : read_vec3_field(r, obj, "rotation", path, 1, NUM_ANY, FC_FIELD_ROTATION, degrees))
        return -1;
    fc_quaternion_from_degrees(degrees, q);
    fc_shape_set_orientation(s, q);
    return 0;
}

/* obj.temperature and obj.heat_transfer (their limits: core/limits.h), both optional: a temperature
 * alone heats with FC_HEAT_TRANSFER_DEFAULT, a heat_transfer needs a temperature, neither leaves c
 * insulating. */
static int read_thermal(const reader *r, const cJSON *obj, const char *path, fc_thermal_contact *c)
{
    char sub[PATH_LEN];
    float temperature = 0.0f, transfer = -1.0f;
    if (read_field(r, obj, "temperature", path, 0, FC_FIELD_TEMPERATURE, &temperature) ||
        read_field(r, obj, "heat_transfer", path, 0, FC_FIELD_HEAT_TRANSFER, &transfer))
        return -1;
    child_path(sub, path, "heat_transfer");
    if (transfer >= 0.0f && temperature == 0.0f)
        return fail(r, sub, "a heat_transfer needs the solid's temperature beside it");
    c->temperature = temperature;
    c->heat_transfer = temperature > 0.0f ? (transfer >= 0.0f ? transfer : FC_HEAT_TRANSFER_DEFAULT) : 0.0f;
    return 0;
}

static int parse_collider(const reader *r, const cJSON *obj, const char *path, void *out)
{
    static const char *const types[] = {"box", "sphere", "plane", NULL};
    static const char *const box_keys[] = {"type", "center", "half_extents", "rotation", "temperature", "heat_transfer", NULL};
    static const char *const sphere_keys[] = {"type", "center", "radius", "temperature", "heat_transfer", NULL};
    static const char *const plane_keys[] = {"type", "point", "normal", "temperature", "heat_transfer", NULL};
    static const char *const *const keys[] = {box_keys, sphere_keys, plane_keys};
    fc_object *row = out;
    fc_shape *s = &row->shape;
    int type;
    row->kind = FC_OBJECT_COLLIDER;
    if (read_choice(r, obj, "type", path, types, &type) || check_keys(r, obj, path, keys[type]) ||
        read_thermal(r, obj, path, &row->thermal))
        return -1;
    if (type == 0) {
        s->kind = FC_SHAPE_BOX;
        return read_vec3(r, obj, "center", path, 1, NUM_ANY, s->center) ||
                       read_vec3_field(r, obj, "half_extents", path, 1, NUM_POSITIVE, FC_FIELD_SOLID_SIZE, s->half) ||
                       read_rotation(r, obj, path, s)
                   ? -1
                   : 0;
    }
    if (type == 1) {
        s->kind = FC_SHAPE_SPHERE;
        return read_vec3(r, obj, "center", path, 1, NUM_ANY, s->center) ||
                       read_field(r, obj, "radius", path, 1, FC_FIELD_SOLID_SIZE, &s->radius)
                   ? -1
                   : 0;
    }
    float point[3];
    s->kind = FC_SHAPE_PLANE;
    if (read_vec3(r, obj, "point", path, 1, NUM_ANY, point) || read_vec3(r, obj, "normal", path, 1, NUM_ANY, s->normal) ||
        normalise(r, path, "normal", s->normal))
        return -1;
    s->offset = s->normal[0] * point[0] + s->normal[1] * point[1] + s->normal[2] * point[2];
    return 0;
}

static int parse_emitter(const reader *r, const cJSON *obj, const char *path, void *out)
{
    static const char *const keys[] = {"position", "direction", "speed", "rate", "radius", "fluid", "temperature", NULL};
    fc_object *row = out;
    fc_shape *disc = &row->shape;
    fc_emitter *e = &row->emitter;
    row->kind = FC_OBJECT_EMITTER, disc->kind = FC_SHAPE_DISC;
    if (check_keys(r, obj, path, keys) || read_fluid(r, obj, path, &e->fluid) ||
        read_vec3(r, obj, "position", path, 1, NUM_ANY, disc->center) ||
        read_vec3(r, obj, "direction", path, 1, NUM_ANY, disc->normal) ||
        normalise(r, path, "direction", disc->normal) ||
        read_field(r, obj, "speed", path, 1, FC_FIELD_EMITTER_SPEED, &e->speed) ||
        read_field(r, obj, "rate", path, 1, FC_FIELD_EMITTER_RATE, &e->rate) ||
        read_field(r, obj, "radius", path, 1, FC_FIELD_EMITTER_RADIUS, &disc->radius) ||
        read_field(r, obj, "temperature", path, 0, FC_FIELD_TEMPERATURE, &e->temperature))
        return -1;
    char sub[PATH_LEN];
    child_path(sub, path, "position");
    return check_inside(r, sub, disc->center, disc->center);
}

static int parse_sink(const reader *r, const cJSON *obj, const char *path, void *out)
{
    static const char *const box_keys[] = {"type", "min", "max", NULL};
    static const char *const sphere_keys[] = {"type", "center", "radius", NULL};
    fc_object *k = out;
    int type;
    k->kind = FC_OBJECT_SINK;
    if (read_choice(r, obj, "type", path, box_or_sphere, &type)) return -1;
    if (check_keys(r, obj, path, type == 0 ? box_keys : sphere_keys)) return -1;
    if (type == 1) {
        k->shape.kind = FC_SHAPE_SPHERE;
        return read_sphere(r, obj, path, k->shape.center, &k->shape.radius);
    }
    float min[3], max[3];
    if (read_min_max(r, obj, path, min, max)) return -1;
    box_from_min_max(&k->shape, min, max);
    return 0;
}

typedef int (*element_parser)(const reader *r, const cJSON *obj, const char *path, void *out);

/* root.key as an array of objects, each parsed by fn into a fresh array of `size`-byte items.
 * On error nothing stays allocated. */
static int parse_list(const reader *r, const cJSON *root, const char *key, size_t size, element_parser fn,
                      void **items, size_t *count)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, key);
    *items = NULL, *count = 0;
    if (!list) return 0;
    if (!cJSON_IsArray(list)) return fail_expected(r, key, "an array of objects", list);
    size_t n = (size_t)cJSON_GetArraySize(list);
    if (n == 0) return 0;
    unsigned char *array = calloc(n, size);
    if (!array) return fail(r, key, "out of memory");
    size_t i = 0;
    for (const cJSON *c = list->child; c; c = c->next, i++) {
        char path[PATH_LEN];
        snprintf(path, sizeof path, "%s[%zu]", key, i);
        if (!cJSON_IsObject(c) ? fail_expected(r, path, "an object", c) : fn(r, c, path, array + i * size)) {
            free(array);
            return -1;
        }
    }
    *items = array, *count = n;
    return 0;
}

/* ---- top level ---------------------------------------------------------------------------- */

/* The parameter message without its "parameter 'name': " prefix (the key path names it). */
static int fail_param(const reader *r, const char *path, const fc_param_desc *d, const char *msg)
{
    char prefix[96];
    int n = snprintf(prefix, sizeof prefix, "parameter '%s': ", d->name);
    if (n > 0 && strncmp(msg, prefix, (size_t)n) == 0) msg += n;
    return fail(r, path, "%s", msg);
}

/* "one of a, b" from the enum's "a|b". */
static void enum_choices(const fc_param_desc *d, char *out, size_t len)
{
    size_t used = (size_t)snprintf(out, len, "one of ");
    for (const char *u = d->unit; *u && used + 3 < len; u++) {
        if (*u == '|') out[used++] = ',', out[used++] = ' ';
        else out[used++] = *u;
    }
    out[used] = '\0';
}

/* A parameter's value as JSON gives it: an enum's name, true or false, or a number. */
static int read_param_value(const reader *r, const fc_param_desc *d, const cJSON *item, const char *path, double *value)
{
    char expected[96];
    if (d->type == FC_PARAM_ENUM) {
        enum_choices(d, expected, sizeof expected);
        int index = cJSON_IsString(item) ? fc_param_enum_index(d, item->valuestring) : -1;
        if (index < 0) return fail_expected(r, path, expected, item);
        *value = index;
    } else if (d->type == FC_PARAM_BOOL) {
        if (!cJSON_IsBool(item)) return fail_expected(r, path, "true or false", item);
        *value = cJSON_IsTrue(item) ? 1.0 : 0.0;
    } else {
        if (!cJSON_IsNumber(item))
            return fail_expected(r, path, d->type == FC_PARAM_INT ? "an integer" : "a number", item);
        *value = item->valuedouble;
    }
    return 0;
}

static int set_parameter(const reader *r, fc_params *p, fc_fluid *fluid_values, const cJSON *item, const char *path)
{
    const fc_param_desc *d = fc_param_find(item->string);
    char near[96];
    if (!d)
        return fail(r, path, "unknown parameter%s (`fluidcast params` lists them)",
                    fc_param_did_you_mean(item->string, near, sizeof near));
    char msg[256];
    double value;
    if (read_param_value(r, d, item, path, &value)) return -1;
    if (d->flags & FC_PARAM_FLUID) { /* every fluid's value, unless the fluid gives its own */
        if (fc_param_check_number(d, d->name, value, msg, sizeof msg)) return fail_param(r, path, d, msg);
        *fc_fluid_param_slot(fluid_values, d) = value;
        return 0;
    }
    if (fc_param_set_number(p, d, value, msg, sizeof msg)) return fail_param(r, path, d, msg);
    return 0;
}

static int parse_parameters(const reader *r, const cJSON *root, fc_scene *s)
{
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, "parameters");
    if (!obj) return 0;
    if (!cJSON_IsObject(obj)) return fail_expected(r, "parameters", "an object of name: value", obj);
    for (const cJSON *c = obj->child; c; c = c->next) {
        char path[PATH_LEN];
        child_path(path, "parameters", c->string);
        if (set_parameter(r, &s->params, &s->fluid_values, c, path)) return -1;
        if (is_duplicate(obj, c)) return fail(r, path, "duplicate key");
    }
    return 0;
}

static int parse_domain(const reader *r, const cJSON *root, fc_scene *s)
{
    static const char *const keys[] = {"min", "max", NULL};
    const char *expected = "an object {\"min\": [x, y, z], \"max\": [x, y, z]}";
    const cJSON *obj;
    if (lookup(r, root, "domain", "", 1, expected, &obj)) return -1;
    if (!cJSON_IsObject(obj)) return fail_expected(r, "domain", expected, obj);
    if (check_keys(r, obj, "domain", keys)) return -1;
    return read_min_max(r, obj, "domain", s->domain_min, s->domain_max);
}

/* "dimensions": 2 or 3 (default 3); before anything that reads a vector. */
static int parse_dimensions(const reader *r, const cJSON *root, fc_scene *s)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, "dimensions");
    s->dimensions = 3;
    if (!item) return 0;
    if (!cJSON_IsNumber(item) || (item->valuedouble != 2.0 && item->valuedouble != 3.0))
        return fail_expected(r, "dimensions", "the number 2 or 3", item);
    s->dimensions = (int)item->valuedouble;
    return 0;
}

static int parse_solver(const reader *r, const cJSON *root, fc_scene *s)
{
    if (read_string(r, root, "solver", "", 0, s->solver, sizeof s->solver)) return -1;
    char why[300];
    if (fc_solver_lookup(s->solver, why, sizeof why)) return 0;
    return fail(r, "solver", "%s", why);
}

/* "walls": {"y_min": {"temperature", "heat_transfer"}, ...} (optional): the container's sides that
 * heat or cool the fluid (read_thermal); a 2D scene has no z_min, z_max. */
static int parse_walls(const reader *r, const cJSON *root, fc_scene *s)
{
    static const char *const keys3[] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max", NULL};
    static const char *const keys2[] = {"x_min", "x_max", "y_min", "y_max", NULL};
    static const char *const side_keys[] = {"temperature", "heat_transfer", NULL};
    const cJSON *walls = cJSON_GetObjectItemCaseSensitive(root, "walls");
    if (!walls) return 0;
    if (!cJSON_IsObject(walls))
        return fail_expected(r, "walls", "an object such as {\"y_min\": {\"temperature\": 350}}", walls);
    if (check_keys(r, walls, "walls", is_2d(r) ? keys2 : keys3)) return -1;
    for (int side = 0; side < (is_2d(r) ? 4 : 6); side++) {
        const cJSON *wall = cJSON_GetObjectItemCaseSensitive(walls, fc_wall_names[side]);
        char sub[PATH_LEN];
        child_path(sub, "walls", fc_wall_names[side]);
        if (!wall) continue;
        if (!cJSON_IsObject(wall)) return fail_expected(r, sub, "an object such as {\"temperature\": 350}", wall);
        if (check_keys(r, wall, sub, side_keys) || read_thermal(r, wall, sub, &s->walls[side])) return -1;
    }
    return 0;
}

/* A fluid of the scene named by the string item (path for errors) as its index in *index. */
static int view_fluid(const reader *r, const cJSON *item, const char *path, int *index)
{
    char names[FC_MAX_FLUIDS * FC_FLUID_NAME_LEN];
    if (!cJSON_IsString(item)) return fail_expected(r, path, "the name of one of the scene's fluids", item);
    *index = fc_fluid_find(r->scene->fluids, r->scene->fluid_count, item->valuestring);
    if (*index >= 0) return 0;
    fc_fluid_names(r->scene->fluids, r->scene->fluid_count, names, sizeof names);
    return fail(r, path, "no fluid named \"%.40s\"; the scene's fluids are %s", item->valuestring, names);
}

/* view.hide: ["water", ...], fluids not drawn when the scene opens (not every one). */
static int parse_view_hide(const reader *r, const cJSON *view, fc_view *v)
{
    const cJSON *hide = cJSON_GetObjectItemCaseSensitive(view, "hide");
    if (!hide) return 0;
    if (!cJSON_IsArray(hide)) return fail_expected(r, "view.hide", "an array of fluid names such as [\"water\"]", hide);
    int i = 0, f = 0;
    for (const cJSON *c = hide->child; c; c = c->next, i++) {
        char path[PATH_LEN];
        snprintf(path, sizeof path, "view.hide[%d]", i);
        if (view_fluid(r, c, path, &f)) return -1;
        v->hidden |= 1u << f;
    }
    if (r->scene->fluid_count > 0 && v->hidden == (1u << r->scene->fluid_count) - 1u)
        return fail(r, "view.hide", "hides every fluid of the scene; leave at least one shown");
    return 0;
}

/* view.opacity: {"water": 0.3}, a fluid drawn see-through (FC_VIEW_OPACITY_MIN to 1). */
static int parse_view_opacity(const reader *r, const cJSON *view, fc_view *v)
{
    const cJSON *opacity = cJSON_GetObjectItemCaseSensitive(view, "opacity");
    if (!opacity) return 0;
    if (!cJSON_IsObject(opacity)) return fail_expected(r, "view.opacity", "an object such as {\"water\": 0.3}", opacity);
    for (const cJSON *c = opacity->child; c; c = c->next) {
        char path[PATH_LEN];
        int f = 0;
        child_path(path, "view.opacity", c->string);
        cJSON key = {.type = cJSON_String, .valuestring = c->string};
        if (view_fluid(r, &key, path, &f)) return -1;
        if (is_duplicate(opacity, c)) return fail(r, path, "duplicate key");
        if (!cJSON_IsNumber(c) || !(c->valuedouble >= FC_VIEW_OPACITY_MIN && c->valuedouble <= 1.0))
            return fail_expected(r, path, "a number from 0.05 to 1 (1: opaque)", c);
        v->opacity[f] = c->valuedouble;
    }
    return 0;
}

/* view.cutaway: {"axis": "z", "at": 0.1, "keep": "below"}, a plane across the domain; the
 * particles beyond it are not drawn. */
static int parse_view_cutaway(const reader *r, const cJSON *view, fc_view *v)
{
    static const char *const keys[] = {"axis", "at", "keep", NULL};
    static const char *const axes3[] = {"x", "y", "z", NULL}, *const axes2[] = {"x", "y", NULL};
    static const char *const sides[] = {"below", "above", NULL};
    const cJSON *cut = cJSON_GetObjectItemCaseSensitive(view, "cutaway");
    if (!cut) return 0;
    if (!cJSON_IsObject(cut))
        return fail_expected(r, "view.cutaway", "an object such as {\"axis\": \"z\", \"at\": 0.1}", cut);
    if (check_keys(r, cut, "view.cutaway", keys)) return -1;
    int axis, keep = 0;
    if (read_choice(r, cut, "axis", "view.cutaway", is_2d(r) ? axes2 : axes3, &axis)) return -1;
    const cJSON *at_item;
    if (lookup(r, cut, "at", "view.cutaway", 1, "a position in metres", &at_item)) return -1;
    if (!cJSON_IsNumber(at_item)) return fail_expected(r, "view.cutaway.at", "a position in metres", at_item);
    const double at = at_item->valuedouble;
    const float lo = r->scene->domain_min[axis], hi = r->scene->domain_max[axis];
    if (!(at > lo && at < hi))
        return fail(r, "view.cutaway.at", "expected a position inside the domain along %c (%g to %g m), found %g",
                    "xyz"[axis], lo, hi, at);
    if (cJSON_GetObjectItemCaseSensitive(cut, "keep") && read_choice(r, cut, "keep", "view.cutaway", sides, &keep))
        return -1;
    v->cut_axis = axis + 1;
    v->cut_at = at;
    v->cut_keep_above = keep;
    return 0;
}

/* "view" (optional): how viewers show the scene when it opens (scenes/README.md): the colour mode,
 * hidden fluids, see-through fluids, a cutaway and the particles' drawn size. After the domain and
 * the fluids, which it names. */
static int parse_view(const reader *r, const cJSON *root, fc_scene *s)
{
    static const char *const keys[] = {"colour", "hide", "opacity", "cutaway", "particle_size", NULL};
    static const char *const modes[] = {"plain", "speed", "density", "temperature", "fluid", NULL};
    const cJSON *view = cJSON_GetObjectItemCaseSensitive(root, "view");
    if (!view) return 0;
    if (!cJSON_IsObject(view)) return fail_expected(r, "view", "an object such as {\"colour\": \"fluid\"}", view);
    if (check_keys(r, view, "view", keys)) return -1;
    const cJSON *colour = cJSON_GetObjectItemCaseSensitive(view, "colour");
    if (colour && (!cJSON_IsString(colour) || !is_listed(colour->valuestring, modes)))
        return fail_expected(r, "view.colour", "one of plain, speed, density, temperature, fluid", colour);
    if (colour) snprintf(s->view.colour, sizeof s->view.colour, "%s", colour->valuestring);
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(view, "particle_size");
    if (size && (!cJSON_IsNumber(size) || !(size->valuedouble >= FC_VIEW_SIZE_MIN && size->valuedouble <= FC_VIEW_SIZE_MAX)))
        return fail_expected(r, "view.particle_size", "a number from 0.25 to 4 (times the drawn radius)", size);
    if (size) s->view.particle_size = size->valuedouble;
    return parse_view_hide(r, view, &s->view) || parse_view_opacity(r, view, &s->view) ||
                   parse_view_cutaway(r, view, &s->view)
               ? -1
               : 0;
}

/* The source's base name without its extension: "scenes/dam_break.json" -> "dam_break". */
static void default_name(char *out, size_t outlen, const char *source)
{
    const char *base = strrchr(source, '/');
    base = base ? base + 1 : source;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    snprintf(out, outlen, "%.*s", (int)(n < outlen ? n : outlen - 1), base);
    if (!out[0]) snprintf(out, outlen, "scene");
}

static int parse_root(const reader *r, const cJSON *root, fc_scene *s)
{
    static const char *const keys[] = {"name", "description", "dimensions", "solver", "view", "domain", "walls", "parameters",
                                       "fluids", "fluid", "colliders", "emitters", "sinks", NULL};
    void *items;
    if (!cJSON_IsObject(root)) return fail_expected(r, "", "a JSON object at the top level", root);
    if (check_keys(r, root, "", keys)) return -1;
    if (read_string(r, root, "name", "", 0, s->name, sizeof s->name) ||
        read_string(r, root, "description", "", 0, s->description, sizeof s->description) ||
        parse_dimensions(r, root, s) || parse_solver(r, root, s) || parse_domain(r, root, s) ||
        parse_walls(r, root, s) ||
        parse_parameters(r, root, s) || parse_fluids(r, root, s) || parse_view(r, root, s))
        return -1;
    if (parse_list(r, root, "fluid", sizeof *s->blocks, parse_block, &items, &s->block_count)) return -1;
    s->blocks = items;
    if (s->block_count > FC_SCENE_MAX_BLOCKS) {
        char why[160];
        snprintf(why, sizeof why, "at most %d fluid blocks, found %zu (blocks that overlap merge into one fluid region)",
                 FC_SCENE_MAX_BLOCKS, s->block_count);
        return fail(r, "fluid", why);
    }
    static const struct {
        const char *key;
        element_parser parse;
    } object_lists[] = {{"colliders", parse_collider}, {"emitters", parse_emitter}, {"sinks", parse_sink}};
    for (size_t l = 0; l < sizeof object_lists / sizeof object_lists[0]; l++) {
        size_t count;
        if (parse_list(r, root, object_lists[l].key, sizeof(fc_object), object_lists[l].parse, &items, &count)) return -1;
        if (l == 0 && count > FC_SCENE_MAX_SOLIDS) {
            free(items);
            char why[96];
            snprintf(why, sizeof why, "at most %d colliders, found %zu", FC_SCENE_MAX_SOLIDS, count);
            return fail(r, "colliders", why);
        }
        const fc_object *rows = items;
        for (size_t i = 0; i < count; i++)
            if (fc_objects_add(&s->objects, &rows[i]) < 0) {
                free(items);
                return fail(r, object_lists[l].key, "out of memory");
            }
        free(items);
    }
    return 0;
}

/* ---- text --------------------------------------------------------------------------------- */

static void line_column(const char *text, const char *at, int *line, int *column)
{
    *line = 1, *column = 1;
    for (const char *c = text; c < at && *c; c++) {
        if (*c == '\n') ++*line, *column = 1;
        else ++*column;
    }
}

/* Rejects nesting deeper than SCENE_MAX_DEPTH before cJSON recurses into it. */
static int check_depth(const reader *r, const char *text)
{
    int depth = 0, in_string = 0;
    for (const char *c = text; *c; c++) {
        if (in_string) {
            if (*c == '\\' && c[1]) c++;
            else if (*c == '"') in_string = 0;
        } else if (*c == '"') {
            in_string = 1;
        } else if (*c == '{' || *c == '[') {
            if (++depth > SCENE_MAX_DEPTH) {
                int line, column;
                line_column(text, c, &line, &column);
                return fail(r, "", "line %d, column %d: expected at most %d levels of nesting, found more",
                            line, column, SCENE_MAX_DEPTH);
            }
        } else if (*c == '}' || *c == ']') {
            depth--;
        }
    }
    return 0;
}

static int fail_syntax(const reader *r, const char *text, const char *at)
{
    int line, column;
    if (!at) at = text + strlen(text);
    line_column(text, at, &line, &column);
    char near[32];
    size_t n = 0;
    while (at[n] && at[n] != '\n' && at[n] != '\r' && n + 1 < sizeof near) n++;
    memcpy(near, at, n);
    near[n] = '\0';
    if (!n) return fail(r, "", "line %d, column %d: expected more JSON, found the end of the text", line, column);
    return fail(r, "", "line %d, column %d: expected valid JSON, found \"%s\"", line, column, near);
}

/* The text into *scene, named `name` unless it says otherwise; errors through r. */
static int parse_text(fc_scene *scene, const char *json, const char *name, reader *r)
{
    memset(scene, 0, sizeof *scene);
    fc_params_defaults(&scene->params);
    fc_fluid_defaults(&scene->fluid_values, 0);
    snprintf(scene->solver, sizeof scene->solver, "sph");
    scene->dimensions = 3;
    snprintf(scene->name, sizeof scene->name, "%s", name);
    r->scene = scene;
    if (r->key_path && r->key_path_len) r->key_path[0] = '\0';
    if (check_depth(r, json)) return fc_scene_free(scene), -1;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(json, &end, 1);
    if (!root) return fail_syntax(r, json, end), fc_scene_free(scene), -1;
    int rc = parse_root(r, root, scene);
    cJSON_Delete(root);
    if (rc) fc_scene_free(scene);
    return rc;
}

int fc_scene_parse_string(fc_scene *scene, const char *json, const char *source, char *err, size_t errlen)
{
    char name[sizeof scene->name];
    default_name(name, sizeof name, source);
    reader r = {source, err, errlen, NULL, NULL, 0};
    return parse_text(scene, json, name, &r);
}

int fc_scene_parse_upload(fc_scene *scene, const char *json, char *err, size_t errlen, char *key_path,
                          size_t key_path_len)
{
    reader r = {"uploaded scene", err, errlen, NULL, key_path, key_path_len};
    return parse_text(scene, json, "uploaded", &r);
}

/* The whole file as a NUL-terminated string (at most SCENE_MAX_BYTES), or NULL with err set. */
static char *read_text(const reader *r)
{
    FILE *f = fopen(r->source, "rb");
    if (!f) return fail(r, "", "cannot open the scene file: %s", strerror(errno)), NULL;
    char *text = malloc(SCENE_MAX_BYTES + 2);
    size_t n = text ? fread(text, 1, SCENE_MAX_BYTES + 1, f) : 0;
    int bad = !text || ferror(f);
    int saved = errno;
    fclose(f);
    if (bad) fail(r, "", "cannot read the scene file: %s", text ? strerror(saved) : "out of memory");
    else if (n > SCENE_MAX_BYTES) bad = 1, fail(r, "", "expected a file of at most 4 MiB, found a larger one");
    else if (memchr(text, '\0', n)) bad = 1, fail(r, "", "expected JSON text, found a NUL byte");
    if (bad) return free(text), NULL;
    text[n] = '\0';
    return text;
}

int fc_scene_parse_file(fc_scene *scene, const char *path, char *err, size_t errlen)
{
    reader r = {path, err, errlen, NULL, NULL, 0};
    char *text = read_text(&r);
    if (!text) {
        memset(scene, 0, sizeof *scene);
        return -1;
    }
    int rc = fc_scene_parse_string(scene, text, path, err, errlen);
    free(text);
    return rc;
}

void fc_scene_free(fc_scene *scene)
{
    free(scene->blocks);
    fc_objects_free(&scene->objects);
    memset(scene, 0, sizeof *scene);
}

/* ---- building a world --------------------------------------------------------------------- */

/* Objects and fluid into a freshly initialised world; the failure's text into msg. */
void fc_scene_block_shape(const fc_scene_block *b, fc_shape *out)
{
    memset(out, 0, sizeof *out);
    out->kind = b->kind;
    if (b->kind == FC_SHAPE_SPHERE) {
        memcpy(out->center, b->center, sizeof out->center);
        out->radius = b->radius;
        return;
    }
    for (int a = 0; a < 3; a++) out->center[a] = 0.5f * (b->min[a] + b->max[a]), out->half[a] = 0.5f * (b->max[a] - b->min[a]);
}

static int populate(const fc_scene *s, fc_world *w, char *msg, size_t msglen)
{
    for (size_t i = 0; i < s->objects.count; i++)
        if (fc_world_add_object(w, &s->objects.rows[i]) < 0) return snprintf(msg, msglen, "out of memory"), -1;
    fc_shape earlier[FC_SCENE_MAX_BLOCKS]; /* a block fills what the blocks before it left empty */
    for (size_t i = 0; i < s->block_count && i < FC_SCENE_MAX_BLOCKS; i++) {
        const fc_scene_block *b = &s->blocks[i];
        const double from = (double)i / (double)s->block_count, to = (i + 1.0) / (double)s->block_count;
        long added = b->kind == FC_SHAPE_SPHERE
                         ? fc_world_fill_sphere_except(w, b->center, b->radius, b->velocity, b->fluid, earlier, i, from, to)
                         : fc_world_fill_box_except(w, b->min, b->max, b->velocity, b->fluid, earlier, i, from, to);
        fc_scene_block_shape(b, &earlier[i]);
        fc_world_shape_in_plane(w, &earlier[i]);
        if (added < 0) return snprintf(msg, msglen, "out of memory while filling fluid[%zu]", i), -1;
    }
    return 0;
}

int fc_scene_instantiate(const fc_scene *scene, fc_world *w, char *err, size_t errlen)
{
    return fc_scene_instantiate_progress(scene, w, NULL, err, errlen);
}

int fc_scene_instantiate_progress(const fc_scene *scene, fc_world *w, const fc_build_progress *progress, char *err,
                                  size_t errlen)
{
    char msg[512];
    fc_world_init(w);
    w->build_progress = progress;
    w->params = scene->params;
    fc_params_resolve_smoothing(&w->params); /* the h it builds with: given, or the ratio's */
    if (scene->fluid_count > 0) {
        memcpy(w->fluids, scene->fluids, sizeof w->fluids);
        w->fluid_count = scene->fluid_count;
    } else { /* a scene put together in code, not parsed: one fluid of its parameters */
        fc_fluid_from_template(&w->fluids[0], &scene->fluid_values, 0);
        w->fluid_count = 1;
    }
    memcpy(w->domain_lo, scene->domain_min, sizeof w->domain_lo);
    memcpy(w->domain_hi, scene->domain_max, sizeof w->domain_hi);
    memcpy(w->walls, scene->walls, sizeof w->walls);
    w->dimensions = scene->dimensions == 2 ? 2 : 3;
    snprintf(w->name, sizeof w->name, "%s", scene->name);
    w->view = scene->view;
    w->backend = scene->backend == FC_BACKEND_CUDA ? FC_BACKEND_CUDA : FC_BACKEND_CPU;
    int status = fc_world_set_solver(w, scene->solver, msg, sizeof msg);
    if (!status && populate(scene, w, msg, sizeof msg)) status = FC_BUILD_OUT_OF_MEMORY;
    if (!status) status = fc_world_start(w, msg, sizeof msg);
    w->build_progress = NULL; /* the build is over; progress belongs to the caller */
    if (status) {
        fc_world_free(w);
        if (err && errlen) snprintf(err, errlen, "%s: %s", scene->name, msg);
        return status == FC_BUILD_OUT_OF_MEMORY ? status : -1;
    }
    return 0;
}

/* ---- finding scenes ----------------------------------------------------------------------- */

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int fc_scene_resolve(const char *arg, char *out, size_t outlen)
{
    if (!outlen) return -1;
    out[0] = '\0';
    if (!arg || !arg[0]) return -1;
    if (is_file(arg)) {
        int n = snprintf(out, outlen, "%s", arg);
        return n >= 0 && (size_t)n < outlen ? 0 : -1;
    }
    const char *dir = getenv("FLUIDCAST_SCENES_DIR");
    if (!dir || !dir[0]) dir = FLUIDCAST_SCENES_DIR;
    static const char *const suffixes[] = {"", ".json"};
    for (int i = 0; i < 2; i++) {
        int n = snprintf(out, outlen, "%s/%s%s", dir, arg, suffixes[i]);
        if (n >= 0 && (size_t)n < outlen && is_file(out)) return 0;
    }
    out[0] = '\0';
    return -1;
}
