/* Lists the scene files (*.json) of the shipped scenes directory, and finds the one a mistyped name meant. */
#define _POSIX_C_SOURCE 200809L
#include "core/scene_list.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/did_you_mean.h"

#define SCENE_SUFFIX ".json"
#define SCENE_SUFFIX_LEN 5

const char *fc_scenes_dir(void)
{
    const char *dir = getenv("FLUIDCAST_SCENES_DIR");
    return dir && dir[0] ? dir : FLUIDCAST_SCENES_DIR;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_scene_file(const char *name)
{
    size_t len = strlen(name);
    return name[0] != '.' && len > SCENE_SUFFIX_LEN && strcmp(name + len - SCENE_SUFFIX_LEN, SCENE_SUFFIX) == 0;
}

/* Appends the file name without its suffix; 0, or -1 when out of memory. */
static int append_name(char ***names, size_t *count, const char *file)
{
    char **grown = realloc(*names, (*count + 1) * sizeof **names);
    if (!grown) return -1;
    *names = grown;
    char *name = strndup(file, strlen(file) - SCENE_SUFFIX_LEN);
    if (!name) return -1;
    grown[(*count)++] = name;
    return 0;
}

char **fc_scene_list(const char *dir, size_t *count)
{
    *count = 0;
    DIR *d = opendir(dir);
    if (!d) return NULL;
    char **names = calloc(1, sizeof *names); /* never NULL on success, even when empty */
    int failed = !names;
    for (struct dirent *e; !failed && (e = readdir(d));)
        if (is_scene_file(e->d_name)) failed = append_name(&names, count, e->d_name) != 0;
    closedir(d);
    if (failed) {
        fc_scene_list_free(names, *count);
        *count = 0;
        errno = ENOMEM;
        return NULL;
    }
    if (*count) qsort(names, *count, sizeof *names, compare_names);
    return names;
}

void fc_scene_list_free(char **names, size_t count)
{
    for (size_t i = 0; names && i < count; i++) free(names[i]);
    free(names);
}

const char *fc_scene_did_you_mean(const char *typed, char *out, size_t outlen)
{
    const char *slash = strrchr(typed, '/');
    char name[256];
    snprintf(name, sizeof name, "%s", slash ? slash + 1 : typed);
    size_t len = strlen(name);
    if (len > SCENE_SUFFIX_LEN && strcmp(name + len - SCENE_SUFFIX_LEN, SCENE_SUFFIX) == 0) name[len - SCENE_SUFFIX_LEN] = '\0';
    size_t count = 0;
    char **names = fc_scene_list(fc_scenes_dir(), &count);
    fc_did_you_mean(name, fc_name_in_array, names, names ? count : 0, out, outlen);
    if (names) fc_scene_list_free(names, count);
    return out;
}
