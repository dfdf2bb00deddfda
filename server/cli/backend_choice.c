/* --backend of run and serve: one parse, one resolution, one message for each outcome. */
#include <stdio.h>

#include "cli/cli.h"

int fc_cli_backend(const char *command, const char *arg, fc_backend_choice *out)
{
    char err[200];
    fc_backend asked;
    if (fc_backend_parse(arg, &asked, err, sizeof err)) {
        fprintf(stderr, "fluidcast %s: --backend: %s\nRun 'fluidcast --help' for usage.\n", command, err);
        return FC_EXIT_USAGE;
    }
    if (fc_backend_resolve(asked, out)) {
        fprintf(stderr, "fluidcast %s: --backend cuda: %s; use --backend cpu or auto\n", command, out->why);
        return FC_EXIT_FAILURE;
    }
    return FC_EXIT_OK;
}
