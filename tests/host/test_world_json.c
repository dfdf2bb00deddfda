/* JSON of the server's messages: floats, emitters, parameter values and table, solvers, scenes, a
 * world's content for `state`, the scene list, and finding shipped scenes by name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/params_json.h"
#include "core/scene_list.h"
#include "host/world_json.h"

/* The item printed without spaces equals expected; deletes item. */
static void expect_json(cJSON *item, const char *expected, const char *what)
{
    char *text = item ? cJSON_PrintUnformatted(item) : NULL;
    CHECK(text && strcmp(text, expected) == 0, "%s: %s, expected %s", what, text ? text : "NULL", expected);
    free(text);
    cJSON_Delete(item);
}

static const cJSON *member(const cJSON *o, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(o, name);
}

/* The element of a list of objects whose "name" is name. */
static const cJSON *named(const cJSON *list, const char *name)
{
    for (const cJSON *e = list ? list->child : NULL; e; e = e->next) {
        const cJSON *n = member(e, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0) return e;
    }
    return NULL;
}

static void test_numbers(void)
{
    expect_json(fc_json_float(0.1f), "0.1", "0.1f in the fewest digits");
    expect_json(fc_json_float(1.0f / 3.0f), "0.33333334", "1/3 needs 8 digits");
    expect_json(fc_json_float(-9.81f), "-9.81", "negative");
    const float v[3] = {0.2f, -1.5f, 3e-7f};
    expect_json(fc_json_vector(v), "[0.2,-1.5,3e-07]", "a vector");
    fc_object e = fc_emitter_row((float[]){0.1f, 0.2f, 0.3f}, (float[]){0, -1, 0}, 0.05f, 1.5f, 250.0f, 0);
    e.id = 4, e.emitter.pending = 0.7;
    expect_json(fc_json_object(&e),
                "{\"id\":4,\"position\":[0.1,0.2,0.3],\"direction\":[0,-1,0],\"radius\":0.05,\"speed\":1.5,"
                "\"rate\":250,\"fluid\":0,\"temperature\":0}",
                "an emitter");
}

static void test_parameters(void)
{
    fc_params p;
    fc_params_defaults(&p);
    p.equation_of_state = FC_EOS_LINEAR;
    p.clamp_negative_pressure = 0;
    p.substeps = 9;
    fc_fluid fluids[2];
    fc_fluid_defaults(&fluids[0], 0);
    fc_fluid_from_template(&fluids[1], &fluids[0], 1);
    fluids[1].viscosity = 7.0;
    cJSON *values = fc_json_param_values(&p, fluids, 2);
    CHECK(cJSON_GetArraySize(values) == (int)fc_param_count, "every parameter has a value: %d of %zu",
          cJSON_GetArraySize(values), fc_param_count);
    CHECK(cJSON_IsNumber(member(values, "rest_density")) && member(values, "rest_density")->valuedouble == 1000.0 &&
              cJSON_IsNull(member(values, "viscosity")),
          "a fluid-scoped value is the fluids' when they agree (rest_density 1000), null when they differ (viscosity)");
    const cJSON *eos = member(values, "equation_of_state"), *substeps = member(values, "substeps");
    CHECK(cJSON_IsString(eos) && strcmp(eos->valuestring, "linear") == 0, "an enum as its choice name");
    CHECK(cJSON_IsFalse(member(values, "clamp_negative_pressure")), "a bool as false");
    CHECK(cJSON_IsNumber(substeps) && substeps->valuedouble == 9, "an int as a number");
    cJSON_Delete(values);

    cJSON *table = fc_params_json_table();
    CHECK(cJSON_GetArraySize(table) == (int)fc_param_count, "the table has every entry");
    const cJSON *entry = named(table, "equation_of_state");
    char *choices = entry ? cJSON_PrintUnformatted(member(entry, "choices")) : NULL;
    CHECK(choices && strcmp(choices, "[\"tait\",\"linear\"]") == 0, "enum choices: %s", choices ? choices : "NULL");
    CHECK(entry && !member(entry, "unit") && !member(entry, "min") && cJSON_IsString(member(entry, "default")) &&
              strcmp(member(entry, "default")->valuestring, "tait") == 0,
          "an enum has no unit or range, its default is a name");
    free(choices);
    entry = named(table, "viscosity");
    CHECK(entry && member(entry, "min")->valuedouble == 0 && member(entry, "max")->valuedouble == 100 &&
              strcmp(member(entry, "unit")->valuestring, "Pa s") == 0 && cJSON_IsTrue(member(entry, "live")) &&
              cJSON_IsFalse(member(entry, "all_solvers")),
          "viscosity: range, unit, live, not every solver");
    entry = named(table, "particle_spacing");
    CHECK(entry && cJSON_IsFalse(member(entry, "live")) && cJSON_IsTrue(member(entry, "all_solvers")),
          "particle_spacing is an init parameter of every solver");
    cJSON_Delete(table);
}

static void test_solvers_and_scenes(void)
{
    cJSON *solvers = fc_json_solvers();
    const cJSON *sph = named(solvers, "sph");
    CHECK(sph && cJSON_IsString(member(sph, "description")) && strlen(member(sph, "description")->valuestring) > 5,
          "solvers list sph with a description");
    cJSON_Delete(solvers);

    cJSON *scenes = fc_json_scenes();
    size_t count = 0;
    char **names = fc_scene_list(fc_scenes_dir(), &count);
    CHECK(scenes && names && count >= 4 && cJSON_GetArraySize(scenes) == (int)count,
          "one entry per scene file: %d of %zu", cJSON_GetArraySize(scenes), count);
    for (size_t i = 0; names && i + 1 < count; i++)
        CHECK(strcmp(names[i], names[i + 1]) < 0, "the scene list is sorted: %s, %s", names[i], names[i + 1]);
    const cJSON *dam = named(scenes, "dam_break");
    CHECK(dam && strstr(member(dam, "description")->valuestring, "water column") != NULL,
          "dam_break with its description");
    fc_scene_list_free(names, count);
    cJSON_Delete(scenes);

    char path[4096];
    CHECK(fc_scene_find_shipped("dam_break", path, sizeof path) == 0 && strstr(path, "/dam_break.json") &&
              strstr(path, fc_scenes_dir()) == path,
          "dam_break is found: %s", path);
    CHECK(fc_scene_find_shipped("dam_break.json", path, sizeof path) == 0 && strstr(path, "/dam_break.json"),
          "dam_break.json is found: %s", path);
    CHECK(fc_scene_find_shipped("no_such_scene", path, sizeof path) == -1 && path[0] == '\0', "an unknown name");
    CHECK(fc_scene_find_shipped("README.md", path, sizeof path) == -1, "a file that is not a scene");
    CHECK(fc_scene_find_shipped(".json", path, sizeof path) == -1, "an empty name before .json");
    CHECK(fc_scene_find_shipped("dam_break", path, 8) == -1, "a path that does not fit");
}

static void test_world_content(void)
{
    fc_world w;
    fc_world_init(&w);
    w.domain_hi[0] = 2.0f;
    fc_shape plane = {.kind = FC_SHAPE_PLANE, .normal = {0, 1, 0}};
    fc_shape sphere = {.kind = FC_SHAPE_SPHERE, .center = {0.5f, 0.5f, 0.5f}, .radius = 0.1f};
    fc_shape box = {.kind = FC_SHAPE_BOX, .center = {1.5f, 0.2f, 0.5f}, .half = {0.1f, 0.2f, 0.3f}};
    const fc_object e = fc_emitter_row((float[]){1, 0.8f, 0.5f}, (float[]){1, 0, 0}, 0.05f, 2, 10, 0);
    int ids[4] = {fc_world_add_collider(&w, &plane), fc_world_add_collider(&w, &sphere),
                  fc_world_add_object(&w, &e), fc_world_add_collider(&w, &box)};
    CHECK(ids[0] == 1 && ids[1] == 2 && ids[2] == 3 && ids[3] == 4, "ids shared between colliders and emitters");
    CHECK(fc_objects_find(&w.objects, 2, FC_OBJECT_COLLIDER) && fc_objects_find(&w.objects, 4, FC_OBJECT_COLLIDER) &&
              fc_objects_find(&w.objects, 3, FC_OBJECT_EMITTER),
          "colliders and emitters keep their ids in the one table");
    cJSON *state = cJSON_CreateObject();
    CHECK(fc_json_add_world_content(state, &w) == 0, "world content built");
    expect_json(cJSON_DetachItemFromObject(state, "domain"), "{\"min\":[0,0,0],\"max\":[2,1,1]}", "domain");
    expect_json(cJSON_DetachItemFromObject(state, "colliders"),
                "[{\"id\":2,\"shape\":\"sphere\",\"position\":[0.5,0.5,0.5],\"radius\":0.1},"
                "{\"id\":4,\"shape\":\"box\",\"position\":[1.5,0.2,0.5],\"half_extents\":[0.1,0.2,0.3]}]",
                "colliders: spheres and boxes, not planes");
    expect_json(cJSON_DetachItemFromObject(state, "emitters"),
                "[{\"id\":3,\"position\":[1,0.8,0.5],\"direction\":[1,0,0],\"radius\":0.05,\"speed\":2,\"rate\":10,"
                "\"fluid\":0,\"temperature\":293.15}]",
                "emitters");
    CHECK(cJSON_GetArraySize(member(state, "values")) == (int)fc_param_count, "values: every parameter");
    cJSON_Delete(state);
    fc_world_free(&w);
}

int main(void)
{
    test_numbers();
    test_parameters();
    test_solvers_and_scenes();
    test_world_content();
    return check_summary("test_world_json");
}
