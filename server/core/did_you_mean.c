/* "Did you mean": the edit distance and the nearest known name (did_you_mean.h). */
#define _POSIX_C_SOURCE 200809L
#include "core/did_you_mean.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COMPARED_CHARS 128 /* names are short: longer input is compared by its first 128 characters */

size_t fc_edit_distance(const char *a, const char *b)
{
    size_t n = strnlen(a, MAX_COMPARED_CHARS), m = strnlen(b, MAX_COMPARED_CHARS);
    size_t row[MAX_COMPARED_CHARS + 1]; /* distances from a's first i characters to b's first j */
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t above = row[j];
            size_t best = diagonal + (a[i - 1] != b[j - 1]);
            if (above + 1 < best) best = above + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[m];
}

const char *fc_name_in_array(size_t i, const void *list)
{
    return ((const char *const *)list)[i];
}

const char *fc_nearest_name(const char *typed, fc_name_at name_at, const void *list, size_t count)
{
    size_t len = strlen(typed), allowed = len / 3 > 1 ? len / 3 : 1;
    const char *nearest = NULL;
    size_t best = allowed + 1;
    for (size_t i = 0; i < count; i++) {
        const char *name = name_at(i, list);
        if (!name || strcmp(name, typed) == 0) continue;
        size_t d = fc_edit_distance(typed, name);
        if (d < best && d < len) {
            best = d;
            nearest = name;
        }
    }
    return nearest;
}

const char *fc_did_you_mean(const char *typed, fc_name_at name_at, const void *list, size_t count, char *out,
                            size_t outlen)
{
    const char *nearest = fc_nearest_name(typed, name_at, list, count);
    if (outlen) out[0] = '\0';
    if (nearest) snprintf(out, outlen, " (did you mean '%s'?)", nearest);
    return out;
}
