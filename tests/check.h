/* A tiny assertion harness for the C tests: CHECK counts, main ends with check_summary(). */
#ifndef FC_CHECK_H
#define FC_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (cond) {                                                         \
            check_passed++;                                                 \
        } else {                                                            \
            check_failed++;                                                 \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

/* Prints "N passed, N failed" and gives main's exit status. */
static inline int check_summary(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

/* Whether the test was asked for its short variant (`--short`): the sanitizer builds run the long
 * physics tests so (tests/CMakeLists.txt), the Release build in full. */
static inline int check_short_run(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--short")) return 1;
    return 0;
}

#endif
