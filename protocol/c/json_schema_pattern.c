/* The anchored regular-expression subset of the schema's "pattern" keyword (json_schema.h):
 * ^ atom* $, an atom is an ASCII literal or a [class] with ranges, optionally quantified. */
#include "json_schema.h"

#include <limits.h>
#include <string.h>

typedef struct {
    const char *cls; /* class body between [ and ], or NULL for a literal */
    size_t cls_len;
    char literal;
    long min, max;
    const char *next; /* first character after the atom and its quantifier */
} pattern_atom;

static int is_pattern_special(char c)
{
    return c != '\0' && strchr("\\.[](){}|?*+^$", c) != NULL;
}

/* Reads one (possibly escaped) class member character; returns the position after it or NULL. */
static const char *class_char(const char *p, char *out)
{
    if (*p == '\\') {
        if (p[1] == '\0' || !strchr("\\]-^[", p[1]))
            return NULL;
        *out = p[1];
        return p + 2;
    }
    if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f || *p == '[' || *p == ']')
        return NULL;
    *out = *p;
    return p + 1;
}

/* Walks a class body; with ch >= 0 returns 1 when ch is a member. Returns -1 when malformed. */
static int class_scan(const char *body, size_t len, int ch)
{
    const char *p = body, *end = body + len;
    int found = 0;
    if (len == 0 || *p == '^')
        return -1; /* empty and negated classes are outside the subset */
    while (p < end) {
        char lo, hi;
        p = class_char(p, &lo);
        if (!p || p > end)
            return -1;
        hi = lo;
        if (p < end - 1 && *p == '-') {
            p = class_char(p + 1, &hi);
            if (!p || p > end || hi < lo)
                return -1;
        }
        if (ch >= lo && ch <= hi)
            found = 1;
    }
    return found;
}

static const char *parse_count(const char *p, long *v)
{
    if (*p < '0' || *p > '9')
        return NULL;
    *v = 0;
    while (*p >= '0' && *p <= '9') {
        *v = *v * 10 + (*p - '0');
        if (*v > 100000)
            return NULL;
        p++;
    }
    return p;
}

/* Parses the atom at p (not at the closing $). 0, or -1 when outside the subset. */
static int parse_atom(const char *p, pattern_atom *a)
{
    a->cls = NULL;
    if (*p == '[') {
        const char *q = p + 1;
        while (*q && *q != ']')
            q += (*q == '\\' && q[1]) ? 2 : 1;
        if (*q != ']')
            return -1;
        a->cls = p + 1;
        a->cls_len = (size_t)(q - (p + 1));
        if (class_scan(a->cls, a->cls_len, -1) < 0)
            return -1;
        p = q + 1;
    } else if (*p == '\\') {
        if (!is_pattern_special(p[1]) && p[1] != '-' && p[1] != '/')
            return -1;
        a->literal = p[1];
        p += 2;
    } else {
        if (*p == '\0' || is_pattern_special(*p) || (unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
            return -1;
        a->literal = *p++;
    }
    a->min = a->max = 1;
    if (*p == '?') {
        a->min = 0, p++;
    } else if (*p == '*') {
        a->min = 0, a->max = LONG_MAX, p++;
    } else if (*p == '+') {
        a->max = LONG_MAX, p++;
    } else if (*p == '{') {
        if (!(p = parse_count(p + 1, &a->min)))
            return -1;
        a->max = a->min;
        if (*p == ',') {
            p++;
            a->max = LONG_MAX;
            if (*p != '}' && (!(p = parse_count(p, &a->max)) || a->max < a->min))
                return -1;
        }
        if (*p++ != '}')
            return -1;
    }
    if (*p == '?' || *p == '*' || *p == '+' || *p == '{')
        return -1; /* lazy or doubled quantifiers */
    a->next = p;
    return 0;
}

static int atom_matches(const pattern_atom *a, unsigned char c)
{
    if (a->cls)
        return c < 0x80 && class_scan(a->cls, a->cls_len, c) == 1;
    return c == (unsigned char)a->literal;
}

static int match_sequence(const char *p, const char *end, const unsigned char *s, const unsigned char *s_end)
{
    pattern_atom a;
    if (p == end)
        return s == s_end;
    if (parse_atom(p, &a) < 0)
        return 0;
    long n = 0;
    while (n < a.max && s + n < s_end && atom_matches(&a, s[n]))
        n++;
    for (long k = n; k >= a.min; k--)
        if (match_sequence(a.next, end, s + k, s_end))
            return 1;
    return 0;
}

int fc_schema_pattern_match(const char *pattern, const char *text)
{
    size_t len = strlen(pattern);
    if (len < 2 || pattern[0] != '^' || pattern[len - 1] != '$' || (len >= 3 && pattern[len - 2] == '\\'))
        return -1;
    const char *end = pattern + len - 1;
    for (const char *p = pattern + 1; p < end;) {
        pattern_atom a;
        if (parse_atom(p, &a) < 0 || a.next > end)
            return -1;
        p = a.next;
    }
    return match_sequence(pattern + 1, end, (const unsigned char *)text,
                          (const unsigned char *)text + strlen(text));
}
