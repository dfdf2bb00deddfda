/* The fluidcast program: dispatches the subcommands help, params, scenes and run. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/params.h"
#include "core/params_json.h"
#include "core/scene.h"
#include "core/scene_list.h"
#include "core/solver.h"

static void usage(FILE *out)
{
    fputs("fluidcast " FLUIDCAST_VERSION ": a particle fluid simulator\n"
          "\n"
          "Usage:\n"
          "  fluidcast help | --help | -h\n"
          "      Prints this text.\n"
          "  fluidcast params [--json]\n"
          "      Lists every parameter: type, unit or choices, range, default, when it may change,\n"
          "      the solvers that read it, description. --json prints the same as JSON, with a\n"
          "      label and plain-language help for each.\n"
          "  fluidcast scenes\n"
          "      Lists the shipped scenes with their descriptions.\n",
          out);
    fc_cli_run_usage(out);
    fc_cli_serve_usage(out);
    fputs("\n"
          "Exit status: 0 success, 1 failure (invalid scene, failed step, non-finite values, I/O),\n"
          "2 invalid command line.\n"
          "Environment: FLUIDCAST_SCENES_DIR overrides the shipped scenes directory\n"
          "  (" FLUIDCAST_SCENES_DIR ").\n",
          out);
}

static int usage_error(const char *command, const char *err)
{
    fprintf(stderr, "fluidcast%s%s: %s\nRun 'fluidcast --help' for usage.\n", command ? " " : "",
            command ? command : "", err);
    return FC_EXIT_USAGE;
}

/* ---- params ---- */

enum { COL_NAME, COL_TYPE, COL_UNIT, COL_MIN, COL_MAX, COL_DEFAULT, COL_WHEN, COL_SOLVERS, COL_DESC, COL_COUNT };
static const char *const column_titles[COL_COUNT] = {"name", "type",    "unit/choices", "min",        "max",
                                                     "default", "when", "solvers",      "description"};

/* "all", or the names of the registered solvers whose bit is in the mask, comma-separated. */
static void solver_names(uint32_t mask, char *out, size_t outlen)
{
    size_t used = 0;
    out[0] = '\0';
    if (mask == FC_SOLVER_ALL) {
        snprintf(out, outlen, "all");
        return;
    }
    for (int i = 0; fc_solvers[i] && used < outlen; i++)
        if (mask & fc_solvers[i]->param_bit)
            used += (size_t)snprintf(out + used, outlen - used, "%s%s", used ? "," : "", fc_solvers[i]->name);
}

static int has_range(const fc_param_desc *d)
{
    return d->type == FC_PARAM_FLOAT || d->type == FC_PARAM_INT;
}

/* One cell of the text table; row NULL gives the title. */
static void param_cell(const fc_param_desc *d, const fc_params *defaults, int col, char *out, size_t outlen)
{
    if (!d) {
        snprintf(out, outlen, "%s", column_titles[col]);
        return;
    }
    switch (col) {
    case COL_NAME: snprintf(out, outlen, "%s", d->name); break;
    case COL_TYPE: snprintf(out, outlen, "%s", fc_param_type_name(d->type)); break;
    case COL_UNIT: snprintf(out, outlen, "%s", d->unit[0] ? d->unit : "-"); break;
    case COL_MIN: has_range(d) ? snprintf(out, outlen, "%.10g", d->min) : snprintf(out, outlen, "-"); break;
    case COL_MAX: has_range(d) ? snprintf(out, outlen, "%.10g", d->max) : snprintf(out, outlen, "-"); break;
    case COL_DEFAULT: fc_param_format_value(d, d->flags & FC_PARAM_FLUID ? d->def : fc_param_get(defaults, d), out, outlen); break;
    case COL_WHEN: snprintf(out, outlen, "%s", d->flags & FC_PARAM_LIVE ? "live" : "init"); break;
    case COL_SOLVERS: solver_names(d->solvers, out, outlen); break;
    case COL_DESC: snprintf(out, outlen, "%s", d->description); break;
    }
}

/* Row -1 is the title, rows 0.. the parameters. */
static const fc_param_desc *param_row(long row)
{
    return row < 0 ? NULL : &fc_param_table[row];
}

/* One pass over the table: measures column widths (print 0) or prints aligned rows (print 1). */
static void params_table_pass(const fc_params *defaults, int width[COL_COUNT], int print)
{
    char cell[512];
    for (long row = -1; row < (long)fc_param_count; row++)
        for (int col = 0; col < COL_COUNT; col++) {
            param_cell(param_row(row), defaults, col, cell, sizeof cell);
            int len = (int)strlen(cell);
            if (!print && len > width[col]) width[col] = len;
            else if (print && col == COL_DESC) printf("%s\n", cell);
            else if (print) printf("%-*s  ", width[col], cell);
        }
}

static void print_params_text(const fc_params *defaults)
{
    int width[COL_COUNT] = {0};
    params_table_pass(defaults, width, 0);
    params_table_pass(defaults, width, 1);
}

static int print_params_json(void)
{
    cJSON *root = cJSON_CreateObject();
    char *text = NULL;
    if (root && !fc_json_attach(root, "version", cJSON_CreateString(FLUIDCAST_VERSION)) &&
        !fc_json_attach(root, "parameters", fc_params_json_table()))
        text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) {
        fprintf(stderr, "fluidcast params: out of memory\n");
        return FC_EXIT_FAILURE;
    }
    puts(text);
    cJSON_free(text);
    return FC_EXIT_OK;
}

static int cmd_params(int argc, char **argv)
{
    int json = 0, help = 0;
    char err[256];
    fc_opt opts[] = {{"--json", FC_OPT_FLAG, &json, 0}, {"--help", FC_OPT_FLAG, &help, 0}, {"-h", FC_OPT_FLAG, &help, 0}};
    if (fc_opts_parse(opts, sizeof opts / sizeof opts[0], argc, argv, err, sizeof err))
        return usage_error("params", err);
    if (help) {
        usage(stdout);
        return FC_EXIT_OK;
    }
    if (json) return print_params_json();
    fc_params defaults;
    fc_params_defaults(&defaults);
    print_params_text(&defaults);
    return FC_EXIT_OK;
}

/* ---- scenes ---- */

/* Prints "name  description" for one scene; 0, or -1 after reporting a parse error. */
static int print_scene(const char *dir, const char *name, int width)
{
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    fc_scene scene;
    if (fc_scene_parse_file(&scene, path, err, sizeof err) != 0) {
        fprintf(stderr, "fluidcast scenes: %s\n", err);
        return -1;
    }
    printf("%-*s  %s\n", width, name, scene.description);
    fc_scene_free(&scene);
    return 0;
}

static int cmd_scenes(int argc, char **argv)
{
    int help = 0;
    char err[256];
    fc_opt opts[] = {{"--help", FC_OPT_FLAG, &help, 0}, {"-h", FC_OPT_FLAG, &help, 0}};
    if (fc_opts_parse(opts, sizeof opts / sizeof opts[0], argc, argv, err, sizeof err))
        return usage_error("scenes", err);
    if (help) {
        usage(stdout);
        return FC_EXIT_OK;
    }
    const char *dir = fc_scenes_dir();
    size_t count = 0;
    char **names = fc_scene_list(dir, &count);
    if (!names) {
        fprintf(stderr, "fluidcast scenes: cannot read the scenes directory %s: %s\n", dir, strerror(errno));
        return FC_EXIT_FAILURE;
    }
    int width = 0, failed = 0;
    for (size_t i = 0; i < count; i++)
        if ((int)strlen(names[i]) > width) width = (int)strlen(names[i]);
    for (size_t i = 0; i < count; i++) failed |= print_scene(dir, names[i], width) != 0;
    fc_scene_list_free(names, count);
    if (!count) fprintf(stderr, "fluidcast scenes: no scene files (*.json) in %s\n", dir);
    return failed || !count ? FC_EXIT_FAILURE : FC_EXIT_OK;
}

/* ---- dispatch ---- */

static int cmd_help(int argc, char **argv)
{
    (void)argc, (void)argv;
    usage(stdout);
    return FC_EXIT_OK;
}

static int cmd_version(int argc, char **argv)
{
    (void)argc, (void)argv;
    puts("fluidcast " FLUIDCAST_VERSION);
    return FC_EXIT_OK;
}

static const struct {
    const char *name;
    int (*run)(int argc, char **argv); /* the words after the command */
} commands[] = {
    {"help", cmd_help},     {"--help", cmd_help},       {"-h", cmd_help},     {"params", cmd_params},
    {"scenes", cmd_scenes}, {"run", fc_cli_run}, {"serve", fc_cli_serve},        {"--version", cmd_version}, {"version", cmd_version},
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return FC_EXIT_USAGE;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 2, argv + 2);
    char err[256];
    snprintf(err, sizeof err, "unknown %s '%s'", argv[1][0] == '-' ? "option" : "command", argv[1]);
    return usage_error(NULL, err);
}
