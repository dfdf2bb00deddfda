/* JSON pieces of the server's messages (PROTOCOL.md 2.3): vectors, emitters, parameter values,
 * solvers, scenes and a world's content for `state`; and finding a shipped scene by name. */
#ifndef FC_WORLD_JSON_H
#define FC_WORLD_JSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/params.h"
#include "core/world.h"

/* A float as the JSON number with the fewest digits that reads back as the same float
 * (0.1f is 0.1, not 0.10000000149011612). NULL when out of memory. */
cJSON *fc_json_float(float value);

/* [x, y, z], each as fc_json_float. NULL when out of memory (as every builder below). */
cJSON *fc_json_vector(const float v[3]);

/* An object as messages and the state show it: an emitter {"id", "position", "direction",
 * "radius", "speed", "rate", "fluid"} (fluid: its index); a sphere or box collider {"id", "shape":
 * "sphere"|"box", "position", "radius" | "half_extents", a rotated box's "rotation" (degrees
 * about x, then y, then z), and a hot or cold one's "temperature" and "heat_transfer"}. */
cJSON *fc_json_object(const fc_object *row);
/* {"y_min": {"temperature", "heat_transfer"}, ...}: the container walls that heat or cool (those
 * with a temperature; a 2D world's first four). */
cJSON *fc_json_walls(const fc_thermal_contact walls[6], int dimensions);

/* {name: value, ...} for every parameter of the table: as stored in p, and for a fluid-scoped one
 * the value every fluid has (null when they differ: each fluid's is in "fluids"). */
cJSON *fc_json_param_values(const fc_params *p, const fc_fluid *fluids, int fluid_count);

/* [{"name", "description"}] of every solver. */
cJSON *fc_json_solvers(void);

/* [{"name", "description"}] of every scene in fc_scenes_dir() that parses, by name; NULL when
 * the directory cannot be read or memory runs out. */
cJSON *fc_json_scenes(void);

/* [{"name", "colour": "#rrggbb", and each fluid-scoped parameter's value}] of the world's fluids. */
cJSON *fc_json_fluids(const fc_world *w);

/* Adds "domain" {"min", "max"}, "fluids" (fc_json_fluids), "values", "emitters" and "colliders" (spheres and boxes only:
 * {"id", "shape", "position", "radius" | "half_extents"}) to a `state` object. 0, or -1 when out
 * of memory (state may then hold some of them). */
int fc_json_add_world_content(cJSON *state, const fc_world *w);

/* Finds a shipped scene, a name of fc_json_scenes with or without ".json" ("dam_break" or
 * "dam_break.json"): the regular file NAME.json in fc_scenes_dir(). name must already match the
 * schema's scene pattern (no '/', no leading '.'). 0 with the file's path in path, or -1 when
 * there is none (unknown_scene) or the path does not fit. */
int fc_scene_find_shipped(const char *name, char *path, size_t pathlen);

#endif
