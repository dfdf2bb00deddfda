/* --backend of run and serve: one parse, one resolution, one message for each outcome. */
#include <stdio.h>

#include "cli/cli.h"
#include "core/backend.h"

int fc_cli_backend(const char *command, const char *arg, char *line, size_t linelen)
{
    char err[200], device[256], why[600];
    fc_backend asked, chosen;
    if (fc_backend_parse(arg, &asked, err, sizeof err)) {
        fprintf(stderr, "fluidcast %s: --backend: %s\nRun 'fluidcast --help' for usage.\n", command, err);
        return FC_EXIT_USAGE;
    }
    if (fc_backend_resolve(asked, &chosen, device, sizeof device, why, sizeof why)) {
        fprintf(stderr, "fluidcast %s: --backend cuda: %s; use --backend cpu or auto\n", command, why);
        return FC_EXIT_FAILURE;
    }
    snprintf(line, linelen, "%s: %s", fc_backend_name(chosen), why);
    return FC_EXIT_OK;
}
