/* The shipped scenes directory and the scene names in it (fluidcast scenes, the server's welcome). */
#ifndef FC_SCENE_LIST_H
#define FC_SCENE_LIST_H

#include <stddef.h>

/* FLUIDCAST_SCENES_DIR from the environment when set and not empty, else the built-in one. */
const char *fc_scenes_dir(void);

/* The names (without .json) of the scene files in dir, sorted; an empty list is a valid result.
 * NULL with errno set when the directory cannot be read or memory runs out. */
char **fc_scene_list(const char *dir, size_t *count);
void fc_scene_list_free(char **names, size_t count);

/* " (did you mean 'NAME'?)" with the shipped scene nearest to typed (its directory and ".json"
 * left out), or "" when none is near: out, for "no such scene" messages. */
const char *fc_scene_did_you_mean(const char *typed, char *out, size_t outlen);

#endif
