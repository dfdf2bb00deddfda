/* Scene files (scenes/README.md): JSON parsed into a description, then built into a world. */
#ifndef FC_SCENE_H
#define FC_SCENE_H

#include <stddef.h>

#include "core/world.h"

/* A block of fluid: a box [min, max] or a sphere, filled at particle_spacing. */
typedef struct fc_scene_block {
    fc_shape_kind kind;       /* FC_SHAPE_BOX or FC_SHAPE_SPHERE */
    float min[3], max[3];     /* box */
    float center[3], radius;  /* sphere */
    float velocity[3];
    int fluid;                /* index into the scene's fluids */
} fc_scene_block;

/* The most fluid blocks a scene may have (a document with more is refused): blocks that overlap are
 * merged (a block fills only what the blocks before it left empty), which costs a check against
 * each earlier block per point. */
enum { FC_SCENE_MAX_BLOCKS = 64 };
/* Colliders a scene may have, planes included (a world's movable ones are fewer, FC_WORLD_MAX_COLLIDERS). */
enum { FC_SCENE_MAX_SOLIDS = 64 };

/* A block as a shape (box: centre and half extents; sphere): what fills and estimates test. */
void fc_scene_block_shape(const fc_scene_block *b, fc_shape *out);

typedef struct fc_scene {
    char name[64];
    char description[256];
    char solver[32];
    fc_backend backend;       /* where its world steps: FC_BACKEND_CUDA, or the CPU (anything else); not in
                                 the file, the caller's choice (--backend, create_world) */
    fc_params params;         /* defaults overridden by the file's "parameters" */
    fc_fluid fluid_values;    /* the fluid-scoped values of its "parameters": what a fluid leaves out */
    fc_fluid fluids[FC_MAX_FLUIDS]; /* the file's "fluids", or one made of fluid_values */
    int fluid_count;
    int dimensions;           /* 3, or 2: every vector's z is 0, the domain's z range [0, 0] */
    fc_view view;             /* "view": how viewers show the scene when it opens */
    float domain_min[3], domain_max[3];
    fc_thermal_contact walls[6]; /* "walls": the container's heated or cooled sides (fc_world.walls) */
    fc_scene_block *blocks;
    size_t block_count;
    fc_objects objects;       /* the file's colliders, then emitters, then sinks, as rows of the world's table */
} fc_scene;

/* Parses a scene. Errors read "SOURCE: key.path: what was expected" and leave *scene empty.
 * Returns 0 or -1. */
int fc_scene_parse_file(fc_scene *scene, const char *path, char *err, size_t errlen);
int fc_scene_parse_string(fc_scene *scene, const char *json, const char *source, char *err, size_t errlen);
/* A scene document a client uploaded (JSON text), with the same checks: the source in errors is
 * "uploaded scene" and the name without a "name" key "uploaded"; on error key_path also gets the
 * key path of the offending value ("fluid[0].min[1]"; "" for the document as a whole). */
int fc_scene_parse_upload(fc_scene *scene, const char *json, char *err, size_t errlen, char *key_path,
                          size_t key_path_len);
void fc_scene_free(fc_scene *scene);

/* Builds a fresh world from the scene (fc_world_init, objects, fluid blocks, fc_world_start).
 * On failure the world is freed, err says why, and the result is -1, or FC_BUILD_OUT_OF_MEMORY
 * when memory ran out. */
int fc_scene_instantiate(const fc_scene *scene, fc_world *w, char *err, size_t errlen);
/* The same, reporting how far it got to progress (NULL: nowhere) at the natural points of the
 * build: each fluid block, each layer of boundary samples, their volumes, the solver's start. */
struct fc_build_progress;
int fc_scene_instantiate_progress(const fc_scene *scene, fc_world *w, const struct fc_build_progress *progress, char *err,
                                  size_t errlen);

/* Resolves a scene argument: an existing file path as is, else NAME or NAME.json in the shipped
 * scenes directory (FLUIDCAST_SCENES_DIR, overridable by the environment variable of that name).
 * Writes the path into out; 0 when found. */
int fc_scene_resolve(const char *arg, char *out, size_t outlen);

#endif
