/* Builds the JSON of worlds, emitters, colliders, solvers and scenes for the server's messages. */
#define _POSIX_C_SOURCE 200809L
#include "host/world_json.h"

#include "core/colliders.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/budget.h"
#include "core/params_json.h"
#include "core/scene.h"
#include "core/scene_list.h"
#include "core/solver.h"

#define FLOAT_MAX_DIGITS 9 /* FLT_DECIMAL_DIG: always enough to read back the same float */

cJSON *fc_json_float(float value)
{
    if (!isfinite(value)) return cJSON_CreateNumber(value); /* cJSON writes null */
    char text[32];
    double shortest = value;
    for (int digits = 1; digits <= FLOAT_MAX_DIGITS; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, (double)value);
        shortest = strtod(text, NULL);
        if ((float)shortest == value) break;
    }
    return cJSON_CreateNumber(shortest);
}

cJSON *fc_json_vector(const float v[3])
{
    cJSON *list = cJSON_CreateArray();
    for (int a = 0; list && a < 3; a++)
        if (fc_json_attach(list, NULL, fc_json_float(v[a]))) {
            cJSON_Delete(list);
            return NULL;
        }
    return list;
}

static cJSON *emitter_json(const fc_object *row)
{
    const fc_shape *disc = &row->shape;
    const fc_emitter *e = &row->emitter;
    cJSON *o = cJSON_CreateObject();
    if (!o || fc_json_attach(o, "id", cJSON_CreateNumber(row->id)) ||
        fc_json_attach(o, "position", fc_json_vector(disc->center)) ||
        fc_json_attach(o, "direction", fc_json_vector(disc->normal)) ||
        fc_json_attach(o, "radius", fc_json_float(disc->radius)) || fc_json_attach(o, "speed", fc_json_float(e->speed)) ||
        fc_json_attach(o, "rate", fc_json_float(e->rate)) || fc_json_attach(o, "fluid", cJSON_CreateNumber(e->fluid)) ||
        fc_json_attach(o, "temperature", fc_json_float(e->temperature))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* "temperature" and "heat_transfer" of a hot or cold solid into o; 0, or -1 out of memory. */
static int add_thermal(cJSON *o, const fc_thermal_contact *c)
{
    return fc_json_attach(o, "temperature", fc_json_float(c->temperature)) ||
           fc_json_attach(o, "heat_transfer", fc_json_float(c->heat_transfer));
}

/* A sphere or box collider: its shape, position and size, a rotated box's rotation (degrees about
 * x, then y, then z), and a hot or cold one's temperature and heat transfer. */
static cJSON *collider_json(const fc_object *row)
{
    const fc_shape *s = &row->shape;
    int sphere = s->kind == FC_SHAPE_SPHERE;
    /* a 2D world's box reaches through the plane (FC_WORLD_THROUGH_PLANE): shown as deep as it is wide */
    float half[3] = {s->half[0], s->half[1], s->half[2]}, degrees[3];
    if (half[2] >= FC_WORLD_THROUGH_PLANE) half[2] = fmaxf(half[0], half[1]);
    fc_shape_rotation_degrees(s, degrees);
    cJSON *o = cJSON_CreateObject();
    if (!o || fc_json_attach(o, "id", cJSON_CreateNumber(row->id)) ||
        fc_json_attach(o, "shape", cJSON_CreateString(sphere ? "sphere" : "box")) ||
        fc_json_attach(o, "position", fc_json_vector(s->center)) ||
        (sphere ? fc_json_attach(o, "radius", fc_json_float(s->radius))
                : fc_json_attach(o, "half_extents", fc_json_vector(half))) ||
        (s->rotated && fc_json_attach(o, "rotation", fc_json_vector(degrees))) ||
        (row->thermal.temperature > 0.0f && add_thermal(o, &row->thermal))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *fc_json_walls(const fc_thermal_contact walls[6], int dimensions)
{
    cJSON *o = cJSON_CreateObject();
    for (int side = 0; o && side < (dimensions == 2 ? 4 : 6); side++) {
        if (walls[side].temperature <= 0.0f) continue;
        cJSON *wall = cJSON_CreateObject();
        if (!wall || add_thermal(wall, &walls[side]) || fc_json_attach(o, fc_wall_names[side], wall)) {
            cJSON_Delete(wall);
            cJSON_Delete(o);
            return NULL;
        }
    }
    return o;
}

cJSON *fc_json_object(const fc_object *row)
{
    return row->kind == FC_OBJECT_EMITTER ? emitter_json(row) : collider_json(row);
}

cJSON *fc_json_param_values(const fc_params *p, const fc_fluid *fluids, int fluid_count)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; o && i < fc_param_count; i++) {
        const fc_param_desc *d = &fc_param_table[i];
        cJSON *value = d->flags & FC_PARAM_FLUID ? fc_param_number_json(d, fc_fluids_common_value(fluids, fluid_count, d))
                                                 : fc_param_value_json(p, d);
        if (fc_json_attach(o, d->name, value)) {
            cJSON_Delete(o);
            return NULL;
        }
    }
    return o;
}

/* {"name", "description"}, the entry of a solver or a scene. */
static cJSON *named_entry(const char *name, const char *description)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || fc_json_attach(o, "name", cJSON_CreateString(name)) ||
        fc_json_attach(o, "description", cJSON_CreateString(description))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *fc_json_solvers(void)
{
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; list && fc_solvers[i]; i++)
        if (fc_json_attach(list, NULL, named_entry(fc_solvers[i]->name, fc_solvers[i]->description))) {
            cJSON_Delete(list);
            return NULL;
        }
    return list;
}

/* Appends the scene's entry {name, description, particles (estimated at the start), dimensions} when
 * its file parses (a broken file is left out, not an error); 0, or -1 when out of memory. */
static int add_scene_entry(cJSON *list, const char *dir, const char *name)
{
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    fc_scene scene;
    if (fc_scene_parse_file(&scene, path, err, sizeof err) != 0) return 0;
    fc_scene_estimate size;
    fc_scene_estimate_size(&scene, &size); /* its fluid particles at the start, from its shapes */
    cJSON *entry = named_entry(name, scene.description);
    int rc = fc_json_attach(list, NULL, entry);
    if (!rc) rc = fc_json_attach(entry, "particles", cJSON_CreateNumber(round(size.fluid))) ||
                  fc_json_attach(entry, "dimensions", cJSON_CreateNumber(scene.dimensions == 2 ? 2 : 3));
    fc_scene_free(&scene);
    return rc;
}

cJSON *fc_json_scenes(void)
{
    const char *dir = fc_scenes_dir();
    size_t count = 0;
    char **names = fc_scene_list(dir, &count);
    if (!names) return NULL;
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; list && i < count; i++)
        if (add_scene_entry(list, dir, names[i])) {
            cJSON_Delete(list);
            list = NULL;
        }
    fc_scene_list_free(names, count);
    return list;
}

static cJSON *domain_json(const fc_world *w)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || fc_json_attach(o, "min", fc_json_vector(w->domain_lo)) ||
        fc_json_attach(o, "max", fc_json_vector(w->domain_hi))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* The world's objects of one kind a client sees (and can change): every emitter, the spheres and
 * boxes among the colliders (planes are walls). */
static cJSON *objects_json(const fc_world *w, fc_object_kind kind)
{
    cJSON *list = cJSON_CreateArray();
    for (const fc_object *o = fc_objects_next(&w->objects, kind, NULL); list && o; o = fc_objects_next(&w->objects, kind, o)) {
        if (o->shape.kind == FC_SHAPE_PLANE) continue;
        if (fc_json_attach(list, NULL, fc_json_object(o))) {
            cJSON_Delete(list);
            return NULL;
        }
    }
    return list;
}

cJSON *fc_json_fluids(const fc_world *w)
{
    cJSON *list = cJSON_CreateArray();
    for (int f = 0; list && f < w->fluid_count; f++) {
        fc_fluid fluid = w->fluids[f];
        char colour[8];
        fc_colour_format(fluid.colour, colour);
        cJSON *o = cJSON_CreateObject();
        int failed = fc_json_attach(list, NULL, o) || fc_json_attach(o, "name", cJSON_CreateString(fluid.name)) ||
                     fc_json_attach(o, "colour", cJSON_CreateString(colour));
        for (size_t i = 0; !failed && i < fc_param_count; i++) {
            const double *slot = fc_fluid_param_slot(&fluid, &fc_param_table[i]);
            if (slot) failed = fc_json_attach(o, fc_param_table[i].name, fc_param_number_json(&fc_param_table[i], *slot));
        }
        if (failed) {
            cJSON_Delete(list);
            return NULL;
        }
    }
    return list;
}

/* The scene's "view" as the scene says it (fluids by name, scenes/README.md), or null when it has none. */
static cJSON *view_json(const fc_world *w)
{
    const fc_view *v = &w->view;
    int opacities = 0;
    for (int f = 0; f < w->fluid_count; f++) opacities += v->opacity[f] > 0.0;
    if (!v->colour[0] && !v->hidden && !opacities && !v->cut_axis && !(v->particle_size > 0.0))
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    int failed = !o;
    if (!failed && v->colour[0]) failed = fc_json_attach(o, "colour", cJSON_CreateString(v->colour));
    if (!failed && v->hidden) {
        cJSON *hide = cJSON_CreateArray();
        failed = fc_json_attach(o, "hide", hide);
        for (int f = 0; !failed && f < w->fluid_count; f++)
            if (v->hidden & (1u << f)) failed = fc_json_attach(hide, NULL, cJSON_CreateString(w->fluids[f].name));
    }
    if (!failed && opacities) {
        cJSON *opacity = cJSON_CreateObject();
        failed = fc_json_attach(o, "opacity", opacity);
        for (int f = 0; !failed && f < w->fluid_count; f++)
            if (v->opacity[f] > 0.0) failed = fc_json_attach(opacity, w->fluids[f].name, cJSON_CreateNumber(v->opacity[f]));
    }
    if (!failed && v->cut_axis >= 1 && v->cut_axis <= 3) {
        static const char *const axes[] = {"x", "y", "z"};
        cJSON *cut = cJSON_CreateObject();
        failed = fc_json_attach(o, "cutaway", cut) || fc_json_attach(cut, "axis", cJSON_CreateString(axes[v->cut_axis - 1])) ||
                 fc_json_attach(cut, "at", cJSON_CreateNumber(v->cut_at)) ||
                 fc_json_attach(cut, "keep", cJSON_CreateString(v->cut_keep_above ? "above" : "below"));
    }
    if (!failed && v->particle_size > 0.0) failed = fc_json_attach(o, "particle_size", cJSON_CreateNumber(v->particle_size));
    if (failed) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

int fc_json_add_world_content(cJSON *state, const fc_world *w)
{
    return fc_json_attach(state, "domain", domain_json(w)) ||
                   fc_json_attach(state, "fluids", fc_json_fluids(w)) ||
                   fc_json_attach(state, "dimensions", cJSON_CreateNumber(w->dimensions)) ||
                   fc_json_attach(state, "view", view_json(w)) ||
                   fc_json_attach(state, "values", fc_json_param_values(&w->params, w->fluids, w->fluid_count)) ||
                   fc_json_attach(state, "emitters", objects_json(w, FC_OBJECT_EMITTER)) ||
                   fc_json_attach(state, "colliders", objects_json(w, FC_OBJECT_COLLIDER)) ||
                   fc_json_attach(state, "walls", fc_json_walls(w->walls, w->dimensions))
               ? -1
               : 0;
}

static int is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int fc_scene_find_shipped(const char *name, char *path, size_t pathlen)
{
    static const char suffix[] = ".json";
    const size_t suffix_len = sizeof suffix - 1, len = strlen(name);
    int base_len = (int)(len > suffix_len && strcmp(name + len - suffix_len, suffix) == 0 ? len - suffix_len : len);
    if (!pathlen) return -1;
    int n = snprintf(path, pathlen, "%s/%.*s%s", fc_scenes_dir(), base_len, name, suffix);
    if (base_len > 0 && n >= 0 && (size_t)n < pathlen && is_regular_file(path)) return 0;
    path[0] = '\0';
    return -1;
}
