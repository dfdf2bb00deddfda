/* A small JSON Schema (draft 2020-12) interpreter: load-time keyword check, then validation with a
 * clear message for the first failure. See json_schema.h for the supported subset. */
#include "json_schema.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_MAX_SEGMENTS 40 /* instance nesting the validator follows */
#define REF_MAX_NESTING 64   /* schema recursion ($ref, allOf, then) per instance level */

struct fc_schema {
    cJSON *doc;
};

/* ------------------------------------------------------------------------------------------
 * Loading: every keyword must be one we implement, with a well-formed value.
 * ------------------------------------------------------------------------------------------ */

typedef struct {
    const fc_schema *s;
    char *err;
    size_t errlen;
} load_ctx;

static int load_fail(load_ctx *c, const char *loc, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(c->err, c->errlen, "schema %s: %s", loc, what);
    return -1;
}

static int is_type_name(const char *t)
{
    static const char *const names[] = {"null", "boolean", "object", "array", "number", "integer", "string"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(t, names[i]) == 0)
            return 1;
    return 0;
}

static int is_count(const cJSON *v)
{
    return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= INT_MAX &&
           v->valuedouble == floor(v->valuedouble);
}

static int load_check(load_ctx *c, const cJSON *node, const char *loc, int depth);

static int load_check_child(load_ctx *c, const cJSON *node, const char *loc, const char *key, int depth)
{
    char sub[512];
    if (snprintf(sub, sizeof sub, "%s/%s", loc, key) >= (int)sizeof sub)
        return load_fail(c, loc, "the location of '%.32s' inside it is over %zu characters long", key, sizeof sub - 1);
    return load_check(c, node, sub, depth + 1);
}

static int load_check_keyword(load_ctx *c, const cJSON *parent, const cJSON *kw, const char *loc, int depth)
{
    const char *k = kw->string;
    char sub[512];
    if (snprintf(sub, sizeof sub, "%s/%s", loc, k) >= (int)sizeof sub)
        return load_fail(c, loc, "the location of '%.32s' inside it is over %zu characters long", k, sizeof sub - 1);
    if (!strcmp(k, "$schema") || !strcmp(k, "$id") || !strcmp(k, "$comment") || !strcmp(k, "title") ||
        !strcmp(k, "description"))
        return cJSON_IsString(kw) ? 0 : load_fail(c, sub, "expected a string");
    if (!strcmp(k, "default") || !strcmp(k, "examples"))
        return 0;
    if (!strcmp(k, "$defs") || !strcmp(k, "properties")) {
        if (!cJSON_IsObject(kw))
            return load_fail(c, sub, "expected an object of schemas");
        for (const cJSON *m = kw->child; m; m = m->next)
            if (load_check_child(c, m, sub, m->string, depth) < 0)
                return -1;
        return 0;
    }
    if (!strcmp(k, "$ref")) {
        if (!cJSON_IsString(kw) || !fc_schema_resolve(c->s, kw->valuestring))
            return load_fail(c, sub, "expected a reference #/$defs/NAME to an existing definition");
        return 0;
    }
    if (!strcmp(k, "allOf")) {
        if (!cJSON_IsArray(kw) || !kw->child)
            return load_fail(c, sub, "expected a non-empty array of schemas");
        int i = 0;
        for (const cJSON *m = kw->child; m; m = m->next, i++) {
            char idx[16];
            snprintf(idx, sizeof idx, "%d", i);
            if (load_check_child(c, m, sub, idx, depth) < 0)
                return -1;
        }
        return 0;
    }
    if (!strcmp(k, "if") || !strcmp(k, "then")) {
        const char *other = k[0] == 'i' ? "then" : "if";
        if (!cJSON_GetObjectItemCaseSensitive(parent, other))
            return load_fail(c, sub, "needs \"%s\" beside it (else is not supported)", other);
        return load_check(c, kw, sub, depth + 1);
    }
    if (!strcmp(k, "propertyNames") || !strcmp(k, "items"))
        return load_check(c, kw, sub, depth + 1);
    if (!strcmp(k, "additionalProperties")) {
        if (cJSON_IsFalse(kw))
            return 0;
        return cJSON_IsObject(kw) ? load_check(c, kw, sub, depth + 1)
                                  : load_fail(c, sub, "expected false or a schema");
    }
    if (!strcmp(k, "type")) {
        if (cJSON_IsString(kw))
            return is_type_name(kw->valuestring) ? 0 : load_fail(c, sub, "unknown type \"%s\"", kw->valuestring);
        if (!cJSON_IsArray(kw) || !kw->child)
            return load_fail(c, sub, "expected a type name or a non-empty array of them");
        for (const cJSON *m = kw->child; m; m = m->next)
            if (!cJSON_IsString(m) || !is_type_name(m->valuestring))
                return load_fail(c, sub, "expected type names");
        return 0;
    }
    if (!strcmp(k, "const"))
        return 0;
    if (!strcmp(k, "enum"))
        return cJSON_IsArray(kw) && kw->child ? 0 : load_fail(c, sub, "expected a non-empty array");
    if (!strcmp(k, "minimum") || !strcmp(k, "maximum") || !strcmp(k, "exclusiveMinimum") ||
        !strcmp(k, "exclusiveMaximum"))
        return cJSON_IsNumber(kw) && isfinite(kw->valuedouble) ? 0 : load_fail(c, sub, "expected a finite number");
    if (!strcmp(k, "minLength") || !strcmp(k, "maxLength") || !strcmp(k, "minItems") || !strcmp(k, "maxItems") ||
        !strcmp(k, "minProperties") || !strcmp(k, "maxProperties"))
        return is_count(kw) ? 0 : load_fail(c, sub, "expected a non-negative integer");
    if (!strcmp(k, "pattern")) {
        if (!cJSON_IsString(kw) || fc_schema_pattern_match(kw->valuestring, "") < 0)
            return load_fail(c, sub, "expected a pattern of the supported subset (^...$, literals, [classes], "
                                     "quantifiers ? * + {n} {n,} {n,m})");
        return 0;
    }
    if (!strcmp(k, "required")) {
        if (!cJSON_IsArray(kw))
            return load_fail(c, sub, "expected an array of names");
        for (const cJSON *m = kw->child; m; m = m->next)
            if (!cJSON_IsString(m))
                return load_fail(c, sub, "expected an array of names");
        return 0;
    }
    if (!strcmp(k, "uniqueItems"))
        return cJSON_IsBool(kw) ? 0 : load_fail(c, sub, "expected true or false");
    return load_fail(c, loc, "unsupported keyword \"%s\" (the validator implements only the subset in json_schema.h)",
                     k);
}

static int load_check(load_ctx *c, const cJSON *node, const char *loc, int depth)
{
    if (depth > 64)
        return load_fail(c, loc, "nested too deeply");
    if (!cJSON_IsObject(node))
        return load_fail(c, loc, "expected a schema object (boolean schemas are not supported)");
    for (const cJSON *kw = node->child; kw; kw = kw->next)
        if (load_check_keyword(c, node, kw, loc, depth) < 0)
            return -1;
    return 0;
}

fc_schema *fc_schema_load(const char *text, char *err, size_t errlen)
{
    fc_schema *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const char *end = NULL;
    s->doc = cJSON_ParseWithOpts(text, &end, 1);
    if (!s->doc) {
        snprintf(err, errlen, "schema: not valid JSON near byte %ld", end ? (long)(end - text) : -1L);
        free(s);
        return NULL;
    }
    load_ctx c = {s, err, errlen};
    if (load_check(&c, s->doc, "#", 0) < 0) {
        fc_schema_free(s);
        return NULL;
    }
    return s;
}

void fc_schema_free(fc_schema *s)
{
    if (!s)
        return;
    cJSON_Delete(s->doc);
    free(s);
}

const cJSON *fc_schema_document(const fc_schema *s)
{
    return s->doc;
}

const cJSON *fc_schema_resolve(const fc_schema *s, const char *ref)
{
    if (strcmp(ref, "#") == 0)
        return s->doc;
    if (strncmp(ref, "#/$defs/", 8) != 0 || strchr(ref + 8, '/') || strchr(ref + 8, '~'))
        return NULL;
    const cJSON *defs = cJSON_GetObjectItemCaseSensitive(s->doc, "$defs");
    const cJSON *d = defs ? cJSON_GetObjectItemCaseSensitive(defs, ref + 8) : NULL;
    return cJSON_IsObject(d) ? d : NULL;
}

/* ------------------------------------------------------------------------------------------
 * Validation.
 * ------------------------------------------------------------------------------------------ */

typedef struct {
    const fc_schema *s;
    fc_schema_error *err; /* NULL while evaluating an "if" or when the caller wants no details */
    int depth;
    const char *key[PATH_MAX_SEGMENTS]; /* member name, or NULL for an array index */
    int index[PATH_MAX_SEGMENTS];
    int naming; /* validating a member name (propertyNames) */
} vctx;

size_t fc_schema_utf8_cut(const char *s, size_t len)
{
    size_t start = len, back = 0;
    while (start > 0 && back < 4 && ((unsigned char)s[start - 1] & 0xC0) == 0x80)
        start--, back++;
    if (start == 0)
        return len;
    unsigned char lead = (unsigned char)s[start - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return (need > 1 && back + 1 < need) ? start - 1 : len;
}

static void format_path(const vctx *c, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < c->depth && len < n; i++) {
        char seg[96];
        if (c->key[i]) {
            /* member names come from the client: shorten them and mask control characters */
            size_t k = 0;
            if (i > 0)
                seg[k++] = '.';
            for (const unsigned char *p = (const unsigned char *)c->key[i]; *p && k < 64; p++)
                seg[k++] = (*p < 0x20 || *p == 0x7f) ? '?' : (char)*p;
            k = fc_schema_utf8_cut(seg, k);
            seg[k] = '\0';
        } else {
            snprintf(seg, sizeof seg, "[%d]", c->index[i]);
        }
        int w = snprintf(out + len, n - len, "%s", seg);
        if (w < 0 || (size_t)w >= n - len) {
            snprintf(out + (n > 4 ? n - 4 : 0), n > 4 ? 4 : n, "...");
            return;
        }
        len += (size_t)w;
    }
}

static int fail(vctx *c, fc_schema_fail kind, const char *fmt, ...)
{
    if (!c->err)
        return 0;
    c->err->fail = kind;
    format_path(c, c->err->path, sizeof c->err->path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err->message, sizeof c->err->message, fmt, ap);
    va_end(ap);
    return 0;
}

static int push_key(vctx *c, const char *key)
{
    if (c->depth >= PATH_MAX_SEGMENTS)
        return fail(c, FC_SCHEMA_TOO_COMPLEX, "nested deeper than %d levels", PATH_MAX_SEGMENTS);
    c->key[c->depth] = key;
    c->index[c->depth++] = -1;
    return 1;
}

static int push_index(vctx *c, int i)
{
    if (c->depth >= PATH_MAX_SEGMENTS)
        return fail(c, FC_SCHEMA_TOO_COMPLEX, "nested deeper than %d levels", PATH_MAX_SEGMENTS);
    c->key[c->depth] = NULL;
    c->index[c->depth++] = i;
    return 1;
}

static void format_number(double v, char *out, size_t n)
{
    if (!isfinite(v)) {
        snprintf(out, n, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        return;
    }
    snprintf(out, n, "%.15g", v);
    if (strtod(out, NULL) != v)
        snprintf(out, n, "%.17g", v);
}

/* A short quoted copy of a client's string: at most 40 bytes, control characters masked. */
static void format_string(const char *s, char *out, size_t n)
{
    size_t k = 0, len = strlen(s);
    out[k++] = '"';
    for (size_t i = 0; i < len && k + 5 < n && i < 40; i++)
        out[k++] = ((unsigned char)s[i] < 0x20 || s[i] == '"' || s[i] == '\\') ? '?' : s[i];
    k = fc_schema_utf8_cut(out, k);
    if (len > 40)
        out[k++] = '.', out[k++] = '.', out[k++] = '.';
    out[k++] = '"';
    out[k] = '\0';
}

/* "got ..." text for a value. */
static void describe(const cJSON *v, char *out, size_t n)
{
    if (cJSON_IsNull(v))
        snprintf(out, n, "null");
    else if (cJSON_IsTrue(v))
        snprintf(out, n, "true");
    else if (cJSON_IsFalse(v))
        snprintf(out, n, "false");
    else if (cJSON_IsNumber(v))
        format_number(v->valuedouble, out, n);
    else if (cJSON_IsString(v))
        format_string(v->valuestring, out, n);
    else if (cJSON_IsArray(v)) {
        int count = cJSON_GetArraySize(v);
        snprintf(out, n, "an array of %d element%s", count, count == 1 ? "" : "s");
    } else if (cJSON_IsObject(v))
        snprintf(out, n, "an object");
    else
        snprintf(out, n, "an invalid value");
}

static const char *type_phrase(const char *t)
{
    if (!strcmp(t, "null"))
        return "null";
    if (!strcmp(t, "boolean"))
        return "a boolean";
    if (!strcmp(t, "object"))
        return "an object";
    if (!strcmp(t, "array"))
        return "an array";
    if (!strcmp(t, "integer"))
        return "an integer";
    if (!strcmp(t, "number"))
        return "a number";
    return "a string";
}

static int type_matches(const char *t, const cJSON *v)
{
    if (!strcmp(t, "null"))
        return cJSON_IsNull(v);
    if (!strcmp(t, "boolean"))
        return cJSON_IsBool(v);
    if (!strcmp(t, "object"))
        return cJSON_IsObject(v);
    if (!strcmp(t, "array"))
        return cJSON_IsArray(v);
    if (!strcmp(t, "number"))
        return cJSON_IsNumber(v);
    if (!strcmp(t, "integer"))
        return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble);
    return cJSON_IsString(v);
}

static int check(vctx *c, const cJSON *sch, const cJSON *v, int nest);

static int check_type(vctx *c, const cJSON *type, const cJSON *v)
{
    char got[96], want[128] = "";
    if (cJSON_IsString(type)) {
        if (type_matches(type->valuestring, v))
            return 1;
        snprintf(want, sizeof want, "%s", type_phrase(type->valuestring));
    } else {
        for (const cJSON *t = type->child; t; t = t->next) {
            if (type_matches(t->valuestring, v))
                return 1;
            size_t len = strlen(want);
            snprintf(want + len, sizeof want - len, "%s%s", len ? (t->next ? ", " : " or ") : "",
                     type_phrase(t->valuestring));
        }
    }
    describe(v, got, sizeof got);
    return fail(c, FC_SCHEMA_TYPE, "expected %s, got %s", want, got);
}

/* "an integer" when the schema's type says integer (and not number), else "a number". */
static const char *number_word(const cJSON *sch)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(sch, "type");
    int integer = 0, number = 0;
    if (cJSON_IsString(t))
        integer = !strcmp(t->valuestring, "integer"), number = !strcmp(t->valuestring, "number");
    else if (cJSON_IsArray(t))
        for (const cJSON *m = t->child; m; m = m->next)
            integer |= !strcmp(m->valuestring, "integer"), number |= !strcmp(m->valuestring, "number");
    return integer && !number ? "an integer" : "a number";
}

static int check_range(vctx *c, const cJSON *sch, const cJSON *v)
{
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(sch, "minimum");
    const cJSON *mx = cJSON_GetObjectItemCaseSensitive(sch, "maximum");
    const cJSON *xmn = cJSON_GetObjectItemCaseSensitive(sch, "exclusiveMinimum");
    const cJSON *xmx = cJSON_GetObjectItemCaseSensitive(sch, "exclusiveMaximum");
    double x = v->valuedouble;
    if ((!mn || x >= mn->valuedouble) && (!mx || x <= mx->valuedouble) && (!xmn || x > xmn->valuedouble) &&
        (!xmx || x < xmx->valuedouble))
        return 1;
    char lo[48] = "", hi[48] = "", got[48], range[160];
    const cJSON *l = xmn ? xmn : mn, *h = xmx ? xmx : mx;
    if (l)
        format_number(l->valuedouble, lo, sizeof lo);
    if (h)
        format_number(h->valuedouble, hi, sizeof hi);
    if (l && h && !xmn && !xmx)
        snprintf(range, sizeof range, "from %s to %s", lo, hi);
    else if (l && h)
        snprintf(range, sizeof range, "%s %s and %s %s", xmn ? "above" : "of at least", lo, xmx ? "below" : "at most",
                 hi);
    else if (l)
        snprintf(range, sizeof range, "%s %s", xmn ? "above" : "of at least", lo);
    else
        snprintf(range, sizeof range, "%s %s", xmx ? "below" : "of at most", hi);
    format_number(x, got, sizeof got);
    return fail(c, FC_SCHEMA_RANGE, "expected %s %s, got %s", number_word(sch), range, got);
}

static size_t utf8_length(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* "1 to 64 entries", "at most 4 elements", "exactly 3 elements", "at least 1 entry" */
static void count_phrase(const cJSON *mn, const cJSON *mx, const char *one, const char *many, char *out, size_t n)
{
    if (mn && mx && mn->valuedouble == mx->valuedouble)
        snprintf(out, n, "exactly %.0f %s", mn->valuedouble, mn->valuedouble == 1 ? one : many);
    else if (mn && mx)
        snprintf(out, n, "%.0f to %.0f %s", mn->valuedouble, mx->valuedouble, many);
    else if (mn)
        snprintf(out, n, "at least %.0f %s", mn->valuedouble, mn->valuedouble == 1 ? one : many);
    else
        snprintf(out, n, "at most %.0f %s", mx->valuedouble, mx->valuedouble == 1 ? one : many);
}

static int check_string(vctx *c, const cJSON *sch, const cJSON *v)
{
    const char *what = c->naming ? "a name" : "a string";
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(sch, "minLength");
    const cJSON *mx = cJSON_GetObjectItemCaseSensitive(sch, "maxLength");
    const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(sch, "pattern");
    char got[96];
    if (mn || mx) {
        double len = (double)utf8_length(v->valuestring);
        if ((mn && len < mn->valuedouble) || (mx && len > mx->valuedouble)) {
            char want[64];
            count_phrase(mn, mx, "character", "characters", want, sizeof want);
            if (len == 0)
                return fail(c, FC_SCHEMA_LENGTH, "expected %s of %s, got an empty string", what, want);
            describe(v, got, sizeof got);
            return fail(c, FC_SCHEMA_LENGTH, "expected %s of %s, got %.0f characters: %s", what, want, len, got);
        }
    }
    if (pattern && fc_schema_pattern_match(pattern->valuestring, v->valuestring) != 1) {
        describe(v, got, sizeof got);
        return fail(c, FC_SCHEMA_PATTERN, "expected %s matching %s, got %s", what, pattern->valuestring, got);
    }
    return 1;
}

static int check_object(vctx *c, const cJSON *sch, const cJSON *v, int nest)
{
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(sch, "properties");
    const cJSON *extra = cJSON_GetObjectItemCaseSensitive(sch, "additionalProperties");
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(sch, "propertyNames");
    const cJSON *required = cJSON_GetObjectItemCaseSensitive(sch, "required");
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(sch, "minProperties");
    const cJSON *mx = cJSON_GetObjectItemCaseSensitive(sch, "maxProperties");

    if (cJSON_IsFalse(extra)) {
        for (const cJSON *m = v->child; m; m = m->next) {
            if (props && cJSON_GetObjectItemCaseSensitive(props, m->string))
                continue;
            char known[256] = "";
            for (const cJSON *p = props ? props->child : NULL; p; p = p->next) {
                size_t len = strlen(known);
                snprintf(known + len, sizeof known - len, "%s%s", len ? ", " : "", p->string);
            }
            if (!push_key(c, m->string))
                return 0;
            return fail(c, FC_SCHEMA_ADDITIONAL, "unknown field (expected %s%s)", known[0] ? "one of " : "no fields",
                        known);
        }
    }
    for (const cJSON *r = required ? required->child : NULL; r; r = r->next) {
        if (cJSON_GetObjectItemCaseSensitive(v, r->valuestring))
            continue;
        if (!push_key(c, r->valuestring))
            return 0;
        return fail(c, FC_SCHEMA_REQUIRED, "required field is missing");
    }
    if (mn || mx) {
        double count = (double)cJSON_GetArraySize(v);
        if ((mn && count < mn->valuedouble) || (mx && count > mx->valuedouble)) {
            char want[64];
            count_phrase(mn, mx, "entry", "entries", want, sizeof want);
            return fail(c, FC_SCHEMA_PROPERTY_COUNT, "expected an object of %s, got %.0f", want, count);
        }
    }
    for (const cJSON *m = v->child; m; m = m->next) {
        const cJSON *sub = props ? cJSON_GetObjectItemCaseSensitive(props, m->string) : NULL;
        if (!sub && cJSON_IsObject(extra))
            sub = extra;
        if (!names && !sub)
            continue;
        if (!push_key(c, m->string))
            return 0;
        if (names) {
            cJSON name = {0};
            name.type = cJSON_String;
            name.valuestring = m->string;
            c->naming = 1;
            int ok = check(c, names, &name, nest + 1);
            c->naming = 0;
            if (!ok)
                return 0;
        }
        if (sub && !check(c, sub, m, nest + 1))
            return 0;
        c->depth--;
    }
    return 1;
}

static int check_array(vctx *c, const cJSON *sch, const cJSON *v, int nest)
{
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(sch, "items");
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(sch, "minItems");
    const cJSON *mx = cJSON_GetObjectItemCaseSensitive(sch, "maxItems");
    const cJSON *unique = cJSON_GetObjectItemCaseSensitive(sch, "uniqueItems");
    double count = (double)cJSON_GetArraySize(v);
    if ((mn && count < mn->valuedouble) || (mx && count > mx->valuedouble)) {
        char want[64];
        count_phrase(mn, mx, "element", "elements", want, sizeof want);
        return fail(c, FC_SCHEMA_ITEM_COUNT, "expected an array of %s, got %.0f", want, count);
    }
    int i = 0;
    for (const cJSON *e = v->child; items && e; e = e->next, i++) {
        if (!push_index(c, i) || !check(c, items, e, nest + 1))
            return 0;
        c->depth--;
    }
    /* quadratic, but every uniqueItems array of the schema has a small maxItems, checked above */
    if (cJSON_IsTrue(unique)) {
        i = 0;
        for (const cJSON *e = v->child; e; e = e->next, i++) {
            int j = 0;
            for (const cJSON *f = v->child; f != e; f = f->next, j++) {
                if (!cJSON_Compare(e, f, 1))
                    continue;
                char got[96];
                describe(e, got, sizeof got);
                if (!push_index(c, i))
                    return 0;
                return fail(c, FC_SCHEMA_UNIQUE, "%s repeats element [%d]; elements must be unique", got, j);
            }
        }
    }
    return 1;
}

static int check_choice(vctx *c, const cJSON *sch, const cJSON *v)
{
    const cJSON *cst = cJSON_GetObjectItemCaseSensitive(sch, "const");
    const cJSON *en = cJSON_GetObjectItemCaseSensitive(sch, "enum");
    char got[96], want[96];
    if (cst && !cJSON_Compare(v, cst, 1)) {
        describe(cst, want, sizeof want);
        describe(v, got, sizeof got);
        return fail(c, FC_SCHEMA_CONST, "expected %s, got %s", want, got);
    }
    if (en) {
        char list[320] = "";
        for (const cJSON *e = en->child; e; e = e->next) {
            if (cJSON_Compare(v, e, 1))
                return 1;
            size_t len = strlen(list);
            describe(e, want, sizeof want);
            snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", want);
        }
        describe(v, got, sizeof got);
        return fail(c, FC_SCHEMA_ENUM, "expected one of %s, got %s", list, got);
    }
    return 1;
}

static int check(vctx *c, const cJSON *sch, const cJSON *v, int nest)
{
    const cJSON *kw;
    char got[96];
    if (nest > REF_MAX_NESTING)
        return fail(c, FC_SCHEMA_TOO_COMPLEX, "the schema recurses deeper than %d levels", REF_MAX_NESTING);
    if ((kw = cJSON_GetObjectItemCaseSensitive(sch, "$ref")) &&
        !check(c, fc_schema_resolve(c->s, kw->valuestring), v, nest + 1))
        return 0;
    if (cJSON_IsNumber(v) && !isfinite(v->valuedouble)) {
        describe(v, got, sizeof got);
        return fail(c, FC_SCHEMA_TYPE, "expected a finite number, got %s", got);
    }
    if ((kw = cJSON_GetObjectItemCaseSensitive(sch, "type")) && !check_type(c, kw, v))
        return 0;
    if (!check_choice(c, sch, v))
        return 0;
    if (cJSON_IsNumber(v) && !check_range(c, sch, v))
        return 0;
    if (cJSON_IsString(v) && !check_string(c, sch, v))
        return 0;
    if (cJSON_IsObject(v) && !check_object(c, sch, v, nest))
        return 0;
    if (cJSON_IsArray(v) && !check_array(c, sch, v, nest))
        return 0;
    if ((kw = cJSON_GetObjectItemCaseSensitive(sch, "allOf")))
        for (const cJSON *s = kw->child; s; s = s->next)
            if (!check(c, s, v, nest + 1))
                return 0;
    if ((kw = cJSON_GetObjectItemCaseSensitive(sch, "if"))) {
        fc_schema_error *saved = c->err;
        int saved_depth = c->depth;
        c->err = NULL;
        int matched = check(c, kw, v, nest + 1);
        c->err = saved;
        c->depth = saved_depth;
        if (matched && !check(c, cJSON_GetObjectItemCaseSensitive(sch, "then"), v, nest + 1))
            return 0;
    }
    return 1;
}

int fc_schema_validate(const fc_schema *s, const cJSON *subschema, const cJSON *instance, fc_schema_error *err)
{
    vctx c = {.s = s, .err = err};
    if (err) {
        err->fail = FC_SCHEMA_OK;
        err->path[0] = err->message[0] = '\0';
    }
    return check(&c, subschema ? subschema : s->doc, instance, 0);
}
