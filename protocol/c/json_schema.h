/* A small JSON Schema (draft 2020-12) interpreter for exactly the keywords the protocol's schema uses. */
#ifndef FC_JSON_SCHEMA_H
#define FC_JSON_SCHEMA_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Supported keywords (fc_schema_load refuses a schema that uses any other):
 *   applicators  $ref (only "#/$defs/NAME"), allOf, if + then, properties, additionalProperties
 *                (false or a schema), propertyNames, items (one schema for every element)
 *   assertions   type (a name or an array of names), const, enum, minimum, maximum,
 *                exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern (anchored
 *                ^...$, ASCII literals, [classes] with ranges, quantifiers ? * + {n} {n,} {n,m}),
 *                required, minProperties, maxProperties, minItems, maxItems, uniqueItems
 *   annotations  $schema, $id, $defs, $comment, title, description, default, examples
 * Numbers must be finite whatever the schema says (cJSON turns 1e999 into infinity). */

typedef enum {
    FC_SCHEMA_OK = 0,
    FC_SCHEMA_TYPE,           /* type (also: a number that is not finite) */
    FC_SCHEMA_CONST,          /* const */
    FC_SCHEMA_ENUM,           /* enum */
    FC_SCHEMA_RANGE,          /* minimum, maximum, exclusiveMinimum, exclusiveMaximum */
    FC_SCHEMA_LENGTH,         /* minLength, maxLength (counted in code points) */
    FC_SCHEMA_PATTERN,        /* pattern */
    FC_SCHEMA_ITEM_COUNT,     /* minItems, maxItems */
    FC_SCHEMA_UNIQUE,         /* uniqueItems */
    FC_SCHEMA_PROPERTY_COUNT, /* minProperties, maxProperties */
    FC_SCHEMA_REQUIRED,       /* required: the path names the missing member */
    FC_SCHEMA_ADDITIONAL,     /* additionalProperties: false: the path names the unknown member */
    FC_SCHEMA_TOO_COMPLEX,    /* the instance nests deeper than the validator's path stack */
} fc_schema_fail;

typedef struct fc_schema_error {
    fc_schema_fail fail;
    char path[160];    /* instance path such as emitter.position[1]; "" for the root */
    char message[512]; /* what was expected and what was found, without the path */
} fc_schema_error;

typedef struct fc_schema fc_schema;

/* Parses a schema and checks that it uses only supported keywords with well-formed values and
 * that every $ref resolves. Returns NULL with the reason in err (naming the schema location). */
fc_schema *fc_schema_load(const char *text, char *err, size_t errlen);
void fc_schema_free(fc_schema *s);

/* The schema document, and the subschema a reference "#" or "#/$defs/NAME" names (or NULL). */
const cJSON *fc_schema_document(const fc_schema *s);
const cJSON *fc_schema_resolve(const fc_schema *s, const char *ref);

/* Validates instance against subschema (NULL: the whole schema). Returns 1 when valid; 0 with
 * the first failure (in the order: $ref, type, const/enum, range, length, pattern, unknown
 * members, required members, member count, members in document order, item count, items,
 * uniqueness, allOf, if/then) in err, which may be NULL. */
int fc_schema_validate(const fc_schema *s, const cJSON *subschema, const cJSON *instance, fc_schema_error *err);

/* The anchored pattern subset on its own: 1 when text matches, 0 when not, -1 for a pattern
 * outside the subset. */
int fc_schema_pattern_match(const char *pattern, const char *text);

/* The length of s[0..len) without a UTF-8 sequence cut off at its end (for shortened texts). */
size_t fc_schema_utf8_cut(const char *s, size_t len);

#endif
