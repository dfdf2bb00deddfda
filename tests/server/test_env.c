/* Shared set-up of the server tests. */
#define _POSIX_C_SOURCE 200809L
#include "test_env.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void test_env_init(test_env *e, int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s FLUIDCAST_BINARY TESTS_SERVER_DIR [SCHEMA_EXAMPLES_DIR]\n", argv[0]);
        exit(2);
    }
    e->fluidcast = argv[1];
    e->dir = argv[2];
    e->examples = argc > 3 ? argv[3] : NULL;
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);
}

const char *test_scene(const test_env *e, const char *name)
{
    static char buf[4][1024];
    static int next;
    char *out = buf[next++ & 3];
    snprintf(out, sizeof buf[0], "%s/scenes/%s.json", e->dir, name);
    return out;
}

int test_server_start(server_process *s, const test_env *e, ...)
{
    const char *args[48];
    int n = 0;
    va_list ap;
    va_start(ap, e);
    for (const char *a; n < 47 && (a = va_arg(ap, const char *));) args[n++] = a;
    va_end(ap);
    args[n] = NULL;
    return server_start(s, e->fluidcast, args);
}

int test_server_stop(server_process *s)
{
    return server_stop(s, SIGTERM, SERVER_STOP_TIMEOUT_MS);
}

int test_rates_checked(void)
{
    return getenv("FC_TEST_RATES_UNCHECKED") == NULL;
}
