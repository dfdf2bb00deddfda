/* A small shared argument parser: flags, options with values, repeated options, strict numbers. */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whole-word checks shared by both number parsers: non-empty, no leading sign or space. */
static int starts_like_number(const char *text)
{
    return text[0] == '.' || isdigit((unsigned char)text[0]);
}

int fc_parse_count(const char *text, long *out)
{
    for (const char *c = text; *c; c++)
        if (!isdigit((unsigned char)*c)) return -1;
    if (!starts_like_number(text)) return -1;
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno == ERANGE || *end != '\0' || value <= 0) return -1;
    *out = value;
    return 0;
}

int fc_parse_positive(const char *text, double *out)
{
    if (!starts_like_number(text) || strpbrk(text, "xX")) return -1; /* no hexadecimal */
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    if (errno == ERANGE || *end != '\0' || !isfinite(value) || value <= 0.0) return -1;
    *out = value;
    return 0;
}

static fc_opt *find_opt(fc_opt *opts, size_t count, const char *name, size_t len)
{
    for (size_t i = 0; i < count; i++)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0) return &opts[i];
    return NULL;
}

static int list_append(fc_opt_list *list, const char *item)
{
    const char **grown = realloc(list->items, (list->count + 1) * sizeof *grown);
    if (!grown) return -1;
    list->items = grown;
    list->items[list->count++] = item;
    return 0;
}

/* Stores one value for an option that takes one; err names the option when it is unusable. */
static int store_value(fc_opt *o, const char *value, char *err, size_t errlen)
{
    switch (o->kind) {
    case FC_OPT_FLAG: break;
    case FC_OPT_TEXT: *(const char **)o->target = value; return 0;
    case FC_OPT_LIST:
        if (list_append(o->target, value) == 0) return 0;
        snprintf(err, errlen, "%s: out of memory", o->name);
        return -1;
    case FC_OPT_COUNT:
        if (fc_parse_count(value, o->target) == 0) return 0;
        snprintf(err, errlen, "%s: expected a positive integer, got '%s'", o->name, value);
        return -1;
    case FC_OPT_NUMBER:
        if (fc_parse_positive(value, o->target) == 0) return 0;
        snprintf(err, errlen, "%s: expected a positive number, got '%s'", o->name, value);
        return -1;
    }
    return 0;
}

int fc_opts_parse(fc_opt *opts, size_t count, int argc, char **argv, char *err, size_t errlen)
{
    for (int i = 0; i < argc; i++) {
        const char *word = argv[i];
        if (strncmp(word, "-", 1) != 0 || strcmp(word, "-") == 0) {
            snprintf(err, errlen, "unexpected argument '%s'", word);
            return -1;
        }
        const char *eq = strchr(word, '=');
        size_t len = eq ? (size_t)(eq - word) : strlen(word);
        fc_opt *o = find_opt(opts, count, word, len);
        if (!o) {
            snprintf(err, errlen, "unknown option '%.*s'", (int)len, word);
            return -1;
        }
        if (o->seen && o->kind != FC_OPT_LIST) {
            snprintf(err, errlen, "%s: given more than once", o->name);
            return -1;
        }
        o->seen = 1;
        if (o->kind == FC_OPT_FLAG) {
            if (eq) {
                snprintf(err, errlen, "%s: takes no value", o->name);
                return -1;
            }
            *(int *)o->target = 1;
            continue;
        }
        const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!value) {
            snprintf(err, errlen, "%s: missing value", o->name);
            return -1;
        }
        if (store_value(o, value, err, errlen)) return -1;
    }
    return 0;
}

void fc_opt_list_free(fc_opt_list *list)
{
    free(list->items);
    list->items = NULL;
    list->count = 0;
}
