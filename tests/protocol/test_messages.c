/* Control-message validation: every schema example through fc_message_parse (verdict, code, field,
 * message), the transport limits, unterminated input, and the schema interpreter's own rules. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json_schema.h"
#include "message.h"

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

/* Parses exactly len bytes from a heap buffer of that size (no terminating NUL), so that ASan
 * catches any read past len. */
static int parse_exact(const char *text, size_t len, fc_message_error *err)
{
    char *copy = malloc(len ? len : 1);
    memcpy(copy, text, len);
    cJSON *msg = NULL;
    int rc = fc_message_parse(copy, len, err, &msg);
    free(copy);
    if (rc == 0 && (!msg || err->code != FC_ERR_NONE))
        rc = -2;
    if (rc != 0 && msg)
        rc = -3;
    cJSON_Delete(msg);
    return rc;
}

/* Every file of examples/valid passes; returns how many were checked. */
static int check_valid_examples(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/valid", dir);
    DIR *d = opendir(path);
    CHECK(d != NULL, "cannot open %s", path);
    if (!d)
        return 0;
    int count = 0;
    struct dirent *e;
    int seen[FC_MSG_TYPE_COUNT] = {0};
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".json"))
            continue;
        snprintf(path, sizeof path, "%s/valid/%s", dir, e->d_name);
        size_t len;
        char *text = read_file(path, &len);
        CHECK(text != NULL, "read %s", path);
        if (!text)
            continue;
        fc_message_error err;
        cJSON *msg = NULL;
        int rc = fc_message_parse(text, len, &err, &msg);
        CHECK(rc == 0 && msg, "valid/%s is accepted: got %s (%s)", e->d_name, fc_error_code_name(err.code),
              err.message);
        if (msg) {
            fc_message_type t = fc_message_type_of(msg);
            CHECK(t != FC_MSG_TYPE_COUNT, "valid/%s has a known type", e->d_name);
            if (t != FC_MSG_TYPE_COUNT)
                seen[t] = 1;
        }
        cJSON_Delete(msg);
        free(text);
        count++;
    }
    closedir(d);
    for (int t = 0; t < FC_MSG_TYPE_COUNT; t++)
        CHECK(seen[t], "a valid example of %s exists", fc_message_type_name(t));
    return count;
}

/* Every file of examples/invalid is rejected with the code, field and message expected_errors.json
 * gives it, and every entry of expected_errors.json has its file. */
static int check_invalid_examples(const char *dir)
{
    char path[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/expected_errors.json", dir);
    char *index_text = read_file(path, &len);
    CHECK(index_text != NULL, "read %s", path);
    cJSON *index = index_text ? cJSON_Parse(index_text) : NULL;
    free(index_text);
    CHECK(cJSON_IsObject(index), "%s is a JSON object", path);
    if (!index)
        return 0;

    int count = 0, codes_seen[FC_ERR_COUNT] = {0};
    snprintf(path, sizeof path, "%s/invalid", dir);
    DIR *d = opendir(path);
    CHECK(d != NULL, "cannot open %s", path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(index, e->d_name);
        CHECK(want != NULL, "invalid/%s has an entry in expected_errors.json", e->d_name);
        if (!want)
            continue;
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(want, "code");
        const cJSON *field = cJSON_GetObjectItemCaseSensitive(want, "field");
        const cJSON *message = cJSON_GetObjectItemCaseSensitive(want, "message");
        fc_error_code want_code = cJSON_IsString(code) ? fc_error_code_from_name(code->valuestring) : FC_ERR_NONE;
        CHECK(want_code != FC_ERR_NONE, "invalid/%s: expected code is a documented one", e->d_name);
        CHECK(cJSON_IsNull(field) || cJSON_IsString(field), "invalid/%s: field is a string or null", e->d_name);
        const char *want_field = cJSON_IsString(field) ? field->valuestring : "";

        snprintf(path, sizeof path, "%s/invalid/%s", dir, e->d_name);
        char *text = read_file(path, &len);
        CHECK(text != NULL, "read %s", path);
        if (!text)
            continue;
        fc_message_error err;
        int rc = parse_exact(text, len, &err);
        CHECK(rc == -1, "invalid/%s is rejected (rc %d)", e->d_name, rc);
        CHECK(err.code == want_code, "invalid/%s: code %s, expected %s (%s)", e->d_name, fc_error_code_name(err.code),
              fc_error_code_name(want_code), err.message);
        CHECK(strcmp(err.field, want_field) == 0, "invalid/%s: field '%s', expected '%s' (%s)", e->d_name, err.field,
              want_field, err.message);
        CHECK(cJSON_IsString(message) && strstr(err.message, message->valuestring),
              "invalid/%s: message '%s' should contain '%s'", e->d_name, err.message,
              cJSON_IsString(message) ? message->valuestring : "(no message in the index)");
        /* every message with a field starts with that field */
        if (want_field[0])
            CHECK(strncmp(err.message, want_field, strlen(want_field)) == 0 && err.message[strlen(want_field)] == ':',
                  "invalid/%s: message '%s' starts with the field", e->d_name, err.message);
        if (want_code > 0 && want_code < FC_ERR_COUNT)
            codes_seen[want_code] = 1;
        free(text);
        count++;
    }
    if (d)
        closedir(d);
    for (const cJSON *entry = index->child; entry; entry = entry->next) {
        snprintf(path, sizeof path, "%s/invalid/%s", dir, entry->string);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL, "expected_errors.json entry %s has its file", entry->string);
        if (f)
            fclose(f);
    }
    const fc_error_code schema_codes[] = {FC_ERR_BAD_JSON,    FC_ERR_TOO_LARGE,     FC_ERR_TOO_DEEP,
                                          FC_ERR_BAD_MESSAGE, FC_ERR_UNKNOWN_TYPE,  FC_ERR_MISSING_FIELD,
                                          FC_ERR_UNKNOWN_FIELD, FC_ERR_BAD_VALUE, FC_ERR_DUPLICATE_FIELD};
    for (size_t i = 0; i < sizeof schema_codes / sizeof schema_codes[0]; i++)
        CHECK(codes_seen[schema_codes[i]], "an invalid example expects %s", fc_error_code_name(schema_codes[i]));
    cJSON_Delete(index);
    return count;
}

static void expect(const char *text, size_t len, fc_error_code code, const char *field, const char *what)
{
    fc_message_error err;
    int rc = parse_exact(text, len, &err);
    CHECK(rc == -1 && err.code == code, "%s: expected %s, got rc %d %s (%s)", what, fc_error_code_name(code), rc,
          fc_error_code_name(err.code), err.message);
    CHECK(strcmp(err.field, field) == 0, "%s: field '%s', expected '%s'", what, err.field, field);
}

static void expect_ok(const char *text, size_t len, const char *what)
{
    fc_message_error err;
    int rc = parse_exact(text, len, &err);
    CHECK(rc == 0, "%s: accepted, got %s (%s)", what, fc_error_code_name(err.code), err.message);
}

static void check_limits(void)
{
    /* size: exactly the limit passes the size check, one byte more is too_large */
    size_t n = FC_MESSAGE_MAX_BYTES;
    char *big = malloc(n + 1);
    const char *head = "{\"type\": \"list_worlds\"}";
    memset(big, ' ', n + 1);
    memcpy(big, head, strlen(head));
    expect_ok(big, n, "65536 bytes (JSON and spaces)");
    expect(big, n + 1, FC_ERR_TOO_LARGE, "", "65537 bytes");
    free(big);

    /* depth: 16 levels pass the depth check (then fail the schema), 17 are too_deep */
    char deep[128];
    for (int levels = 16; levels <= 17; levels++) {
        int k = 0;
        for (int i = 0; i < levels; i++)
            deep[k++] = '[';
        for (int i = 0; i < levels; i++)
            deep[k++] = ']';
        expect(deep, (size_t)k, levels == 16 ? FC_ERR_BAD_MESSAGE : FC_ERR_TOO_DEEP, "",
               levels == 16 ? "16 nested arrays" : "17 nested arrays");
    }
    /* brackets inside strings do not count */
    char quoted[160];
    snprintf(quoted, sizeof quoted, "{\"type\": \"hello\", \"client\": \"%s\"}", "[[[[[[[[[[[[[[[[[[[[{{{{");
    expect_ok(quoted, strlen(quoted), "brackets inside a string");

    /* numbers: 63 characters parse, 64 do not */
    char num[160];
    snprintf(num, sizeof num, "{\"type\": \"step\", \"world\": 1, \"frames\": 1.%061d}", 0);
    expect_ok(num, strlen(num), "a 63-character number");
    snprintf(num, sizeof num, "{\"type\": \"step\", \"world\": 1, \"frames\": 1.%062d}", 0);
    expect(num, strlen(num), FC_ERR_TOO_LARGE, "", "a 64-character number");

    /* unterminated input: the byte after len is never looked at */
    const char *msg = "{\"type\": \"pause\", \"world\": 1}";
    expect_ok(msg, strlen(msg), "a message without a NUL after it");
    expect(msg, strlen(msg) - 1, FC_ERR_BAD_JSON, "", "a message cut one byte short");
    char with_tail[64];
    snprintf(with_tail, sizeof with_tail, "%s, \"x\": 1}", msg);
    expect_ok(with_tail, strlen(msg), "len stops before trailing bytes");

    /* embedded NUL, invalid UTF-8, empty */
    const char nul[] = "{\"type\": \"hello\", \"client\": \"a\0b\"}";
    expect(nul, sizeof nul - 1, FC_ERR_BAD_JSON, "", "an embedded NUL");
    const char *past = "{\"type\": \"hello\", \"client\": \"\xf5\x80\x80\x80\"}";
    expect(past, strlen(past), FC_ERR_BAD_JSON, "", "UTF-8 past U+10FFFF");
    const char *cut = "{\"type\": \"hello\", \"client\": \"\xe2\x82\"}";
    expect(cut, strlen(cut), FC_ERR_BAD_JSON, "", "a truncated UTF-8 sequence");
    expect("", 0, FC_ERR_BAD_JSON, "", "an empty message");
    expect(" \n", 2, FC_ERR_BAD_JSON, "", "only whitespace");
    const char *ctl = "{\"type\":\x01\"list_worlds\"}";
    expect(ctl, strlen(ctl), FC_ERR_BAD_JSON, "", "a control character between tokens");

    /* a valid id is echoed and the request named even when the message is rejected */
    fc_message_error err;
    const char *bad = "{\"type\": \"subscribe\", \"id\": \"r-7\", \"world\": 1, \"max_fps\": 500}";
    parse_exact(bad, strlen(bad), &err);
    CHECK(strcmp(err.id, "\"r-7\"") == 0 && strcmp(err.request, "subscribe") == 0, "id %s and request %s echoed",
          err.id, err.request);
    CHECK(strcmp(err.message, "max_fps: expected a number from 1 to 120, got 500") == 0, "message: %s", err.message);
    const char *bad_id = "{\"type\": \"pause\", \"id\": -4, \"world\": 1}";
    parse_exact(bad_id, strlen(bad_id), &err);
    CHECK(strcmp(err.id, "null") == 0 && strcmp(err.request, "pause") == 0, "an invalid id is not echoed: %s",
          err.id);
    const char *num_id = "{\"type\": \"pause\", \"id\": 9007199254740991, \"world\": 0}";
    parse_exact(num_id, strlen(num_id), &err);
    CHECK(strcmp(err.id, "9007199254740991") == 0, "a large integer id is echoed exactly: %s", err.id);

    /* long unknown member names are shortened in the field, at a character boundary */
    char longkey[400];
    snprintf(longkey, sizeof longkey, "{\"type\": \"pause\", \"world\": 1, \"%s\": 1}",
             "x\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
             "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
             "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9x");
    parse_exact(longkey, strlen(longkey), &err);
    CHECK(err.code == FC_ERR_UNKNOWN_FIELD && strlen(err.field) <= 64 && fc_schema_utf8_cut(err.field, strlen(err.field)) == strlen(err.field),
          "long key shortened to whole characters: '%s'", err.field);
}

/* The id of an accepted message, as fc_message_note_request gives it to replies; "" on rejection. */
static const char *noted_id(const char *text, char out[400])
{
    fc_message_error err;
    cJSON *msg = NULL;
    out[0] = '\0';
    if (fc_message_parse(text, strlen(text), &err, &msg) == 0) {
        fc_message_note_request(msg, &err);
        snprintf(out, 400, "%s", err.id);
    }
    cJSON_Delete(msg);
    return out;
}

/* Ids come back as the very bytes of their literal (PROTOCOL.md 2.1): integers up to 2^63 - 1,
 * other spellings of an integer, strings with escapes; above 2^63 - 1 is bad_value on id. */
static void check_exact_ids(void)
{
    static const char *const literals[] = {
        "0", "7", "9007199254740991", "9007199254740993", "9223372036854775807", "2.0", "1e3", "9.223372036854775807e18",
        "922337203685477580.7e1", "92233720368547758070e-1", "\"r-7\"", "\"a\\u0041\\\"b\\/\\n\"", "\"\\ud83d\\ude00 caf\\u00e9\"", "\"\xc3\xa9t\xc3\xa9\"",
    };
    char msg[256], id[400];
    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++) {
        snprintf(msg, sizeof msg, "{\"type\": \"list_worlds\", \"id\": %s}", literals[i]);
        CHECK(strcmp(noted_id(msg, id), literals[i]) == 0, "id %s is echoed exactly, got '%s'", literals[i], id);
        snprintf(msg, sizeof msg, "{\"id\"  :\t%s , \"type\": \"pause\", \"world\": 3}", literals[i]);
        CHECK(strcmp(noted_id(msg, id), literals[i]) == 0, "id %s first and spaced is echoed exactly, got '%s'", literals[i],
              id);
    }
    /* the member's name may be escaped; nested "id" members are not the request's */
    CHECK(strcmp(noted_id("{\"type\": \"list_worlds\", \"\\u0069d\": 12}", id), "12") == 0, "an escaped name: %s", id);
    CHECK(strcmp(noted_id("{\"type\": \"set\", \"world\": 1, \"values\": {\"id\": 5, \"x\": \"id\"}, \"id\": 6}", id), "6") == 0,
          "the top-level id, not a nested one: %s", id);
    CHECK(strcmp(noted_id("{\"type\": \"list_worlds\"}", id), "null") == 0, "no id: %s", id);

    static const char *const too_large[] = {"9223372036854775808", "18446744073709551616", "9.3e18", "1e19",
                                            "9223372036854775807.5", "92233720368547758080e-1"};
    for (size_t i = 0; i < sizeof too_large / sizeof too_large[0]; i++) {
        fc_message_error err;
        snprintf(msg, sizeof msg, "{\"type\": \"list_worlds\", \"id\": %s}", too_large[i]);
        char want[200];
        snprintf(want, sizeof want, "id: expected an integer from 0 to 9223372036854775807, got %s", too_large[i]);
        int rc = parse_exact(msg, strlen(msg), &err);
        CHECK(rc == -1 && err.code == FC_ERR_BAD_VALUE && strcmp(err.field, "id") == 0 && strcmp(err.message, want) == 0 &&
                  strcmp(err.id, "null") == 0,
              "id %s: bad_value on id, not echoed: %s %s '%s' (id %s)", too_large[i], fc_error_code_name(err.code), err.field,
              err.message, err.id);
    }
    /* an id past 2^63 - 1 in a message with another fault: the reply echoes no id */
    fc_message_error err;
    const char *both = "{\"type\": \"subscribe\", \"id\": 9223372036854775808, \"world\": 1, \"max_fps\": 500}";
    parse_exact(both, strlen(both), &err);
    CHECK(strcmp(err.id, "null") == 0, "an out-of-range id is never echoed: %s", err.id);
    const char *other = "{\"type\": \"subscribe\", \"id\": 9223372036854775807, \"world\": 1, \"max_fps\": 500}";
    parse_exact(other, strlen(other), &err);
    CHECK(err.code == FC_ERR_BAD_VALUE && strcmp(err.field, "max_fps") == 0 && strcmp(err.id, "9223372036854775807") == 0,
          "a rejected message echoes its id exactly: %s %s", err.field, err.id);
    const char *negative = "{\"type\": \"list_worlds\", \"id\": -1}";
    parse_exact(negative, strlen(negative), &err);
    CHECK(err.code == FC_ERR_BAD_VALUE && strcmp(err.message, "id: expected an integer from 0 to 9223372036854775807, got -1") == 0,
          "a negative id: %s", err.message);

    /* a 64-character string id of escapes whose literal does not fit err.id is echoed re-escaped */
    char escapes[1024] = "{\"type\": \"list_worlds\", \"id\": \"";
    for (int i = 0; i < 64; i++) strcat(escapes, "\\ud83d\\ude00");
    strcat(escapes, "\"}");
    noted_id(escapes, id);
    cJSON *echoed = cJSON_Parse(id);
    CHECK(cJSON_IsString(echoed) && strlen(echoed->valuestring) == 64 * 4, "a long escaped id comes back as the same string (%zu bytes)",
          strlen(id));
    cJSON_Delete(echoed);
}

static void check_schema_interpreter(void)
{
    char err[512];
    const char *refused[] = {
        "{\"type\": \"object\", \"patternProperties\": {}}",
        "{\"oneOf\": [{\"type\": \"string\"}]}",
        "{\"properties\": {\"a\": {\"format\": \"email\"}}}",
        "{\"$ref\": \"#/$defs/missing\"}",
        "{\"if\": {\"type\": \"string\"}}",
        "{\"pattern\": \"[a-z]+\"}",       /* not anchored */
        "{\"pattern\": \"^(a|b)$\"}",      /* groups */
        "{\"pattern\": \"^a.b$\"}",        /* dot */
        "{\"pattern\": \"^[^a]$\"}",       /* negated class */
        "{\"pattern\": \"^a+?$\"}",        /* lazy */
        "{\"minLength\": -1}",
        "{\"type\": \"float\"}",
        "{\"additionalProperties\": true}",
        "true",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        err[0] = '\0';
        fc_schema *s = fc_schema_load(refused[i], err, sizeof err);
        CHECK(s == NULL && err[0], "schema %s is refused at load (%s)", refused[i], err);
        fc_schema_free(s);
    }
    fc_schema *s = fc_schema_load("{\"oneOf\": []}", err, sizeof err);
    CHECK(s == NULL && strstr(err, "unsupported keyword \"oneOf\""), "the refusal names the keyword: %s", err);
    fc_schema_free(s);

    struct {
        const char *pattern, *text;
        int match;
    } patterns[] = {
        {"^[a-z][a-z0-9_]{0,47}$", "viscosity", 1},     {"^[a-z][a-z0-9_]{0,47}$", "Viscosity", 0},
        {"^[a-z][a-z0-9_]{0,47}$", "", 0},              {"^[a-z][a-z0-9_]{0,2}$", "abc", 1},
        {"^[a-z][a-z0-9_]{0,2}$", "abcd", 0},           {"^[A-Za-z0-9_][A-Za-z0-9_.-]*$", "dam_break.json", 1},
        {"^[A-Za-z0-9_][A-Za-z0-9_.-]*$", "../x", 0},   {"^[A-Za-z0-9_][A-Za-z0-9_.-]*$", "a/b", 0},
        {"^a*ab$", "aaab", 1},                          {"^x\\.y?z+$", "x.zz", 1},
        {"^x\\.y?z+$", "xyzz", 0},                      {"^[a-z]+$", "caf\xc3\xa9", 0},
        {"^[a-z]{2,}$", "a", 0},                        {"^[a-z]{2,}$", "ab", 1},
    };
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
        CHECK(fc_schema_pattern_match(patterns[i].pattern, patterns[i].text) == patterns[i].match,
              "pattern %s on '%s' gives %d", patterns[i].pattern, patterns[i].text, patterns[i].match);

    /* the protocol schema itself loads, and its type list matches message.c's */
    CHECK(fc_message_init(err, sizeof err) == 0, "embedded schema loads: %s", err);
    for (int t = 0; t < FC_MSG_TYPE_COUNT; t++) {
        int control = fc_message_needs_control((fc_message_type)t);
        int watch_ok = t == FC_MSG_HELLO || t == FC_MSG_LIST_WORLDS || t == FC_MSG_SUBSCRIBE ||
                       t == FC_MSG_UNSUBSCRIBE || t == FC_MSG_KEY_REQUEST || t == FC_MSG_PICK;
        CHECK(control == !watch_ok, "%s needs the control role: %d", fc_message_type_name((fc_message_type)t),
              control);
    }
    for (int c = 1; c < FC_ERR_COUNT; c++)
        CHECK((int)fc_error_code_from_name(fc_error_code_name((fc_error_code)c)) == c, "code %d round-trips", c);

    fc_message_error e = {0};
    snprintf(e.id, sizeof e.id, "7");
    fc_message_error_set(&e, FC_ERR_UNKNOWN_WORLD, "world", "no world %d (open worlds: %s)", 9, "1, 2");
    CHECK(e.code == FC_ERR_UNKNOWN_WORLD && !strcmp(e.field, "world") &&
              !strcmp(e.message, "world: no world 9 (open worlds: 1, 2)") && !strcmp(e.id, "7"),
          "fc_message_error_set: %s", e.message);
}

/* --verdicts: one message per line on stdin, "ok" or "CODE FIELD" per line on stdout (for the
 * differential test in check_schema_examples.py). */
static int print_verdicts(void)
{
    static char line[1 << 17];
    while (fgets(line, sizeof line, stdin)) {
        size_t len = strcspn(line, "\n");
        fc_message_error err;
        cJSON *msg = NULL;
        if (fc_message_parse(line, len, &err, &msg) == 0)
            printf("ok\n");
        else
            printf("%s %s\n", fc_error_code_name(err.code), err.field);
        cJSON_Delete(msg);
    }
    fc_message_cleanup();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--verdicts") == 0)
        return print_verdicts();
    const char *dir = argc > 1 ? argv[1] : "protocol/schema/examples";
    check_schema_interpreter();
    int valid = check_valid_examples(dir);
    int invalid = check_invalid_examples(dir);
    CHECK(valid >= 19, "at least one valid example per message type: %d", valid);
    CHECK(invalid >= 40, "at least 40 invalid examples: %d", invalid);
    check_limits();
    check_exact_ids();
    printf("test_messages: %d valid and %d invalid examples\n", valid, invalid);
    fc_message_cleanup();
    return check_summary("test_messages");
}
