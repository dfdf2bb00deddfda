/* What every server test shares: its arguments (the fluidcast binary, this directory, the schema
 * examples), the test scenes, and starting and stopping a server. */
#ifndef FC_TEST_ENV_H
#define FC_TEST_ENV_H

#include "server_process.h"

#define SERVER_STOP_TIMEOUT_MS 30000

typedef struct {
    const char *fluidcast; /* argv[1]: the fluidcast program */
    const char *dir;       /* argv[2]: tests/server (scenes/ below it) */
    const char *examples;  /* argv[3] if given: protocol/schema/examples */
} test_env;

/* Reads argv (exits with status 2 and a usage line when they are missing) and ignores SIGPIPE. */
void test_env_init(test_env *e, int argc, char **argv);
/* The path of tests/server/scenes/NAME.json (a few rotating static buffers). */
const char *test_scene(const test_env *e, const char *name);
/* Starts `fluidcast serve` with the NULL-terminated arguments; 0 or -1. */
int test_server_start(server_process *s, const test_env *e, ...);
/* SIGTERM and the exit status (server_stop). */
int test_server_stop(server_process *s);
/* 0 when FC_TEST_RATES_UNCHECKED is set: the sanitizer builds, whose step and frame rates say nothing
 * of the product's and which run these tests beside others, keep every check but the rate comparisons. */
int test_rates_checked(void);

#endif
