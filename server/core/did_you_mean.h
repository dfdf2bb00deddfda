/* "Did you mean": the known name nearest to a mistyped one (edit distance), for the error messages
 * of scene and parameter names on the command line, in scene files and in the protocol. */
#ifndef FC_DID_YOU_MEAN_H
#define FC_DID_YOU_MEAN_H

#include <stddef.h>

/* Levenshtein distance between a and b: the fewest insertions, deletions and substitutions of one
 * character that turn a into b. */
size_t fc_edit_distance(const char *a, const char *b);

/* The i-th name of a list (NULL: skip it). */
typedef const char *(*fc_name_at)(size_t i, const void *list);
/* name_at for a plain array of strings. */
const char *fc_name_in_array(size_t i, const void *list);

/* The name of the list nearest to typed when it is near enough to be a slip of the keyboard (at most
 * a third of typed's length away, and at least one character; the first of equals), else NULL. */
const char *fc_nearest_name(const char *typed, fc_name_at name_at, const void *list, size_t count);

/* " (did you mean 'NAME'?)" with the nearest name, or "" when none is near: out, for messages. */
const char *fc_did_you_mean(const char *typed, fc_name_at name_at, const void *list, size_t count, char *out,
                            size_t outlen);

#endif
