/* Control messages (PROTOCOL.md sections 1-3): limits, error codes, and parsing plus schema
 * validation of a client's text message. */
#ifndef FC_MESSAGE_H
#define FC_MESSAGE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#define FC_MESSAGE_SUBPROTOCOL "fluidcast.v1"
#define FC_MESSAGE_PROTOCOL_VERSION 1
#define FC_MESSAGE_MAX_BYTES 65536     /* a text message after reassembly */
#define FC_MESSAGE_MAX_DEPTH 16        /* nested objects and arrays, the message itself is 1 */
#define FC_MESSAGE_MAX_NUMBER_CHARS 63 /* cJSON 1.7.15 copies at most 63 characters of a number */
#define FC_MESSAGE_RATE_PER_S 100      /* messages per second and client */

/* Every error code of PROTOCOL.md section 3, in its table's order. */
typedef enum {
    FC_ERR_NONE = 0,
    FC_ERR_BAD_JSON,
    FC_ERR_TOO_LARGE,
    FC_ERR_TOO_DEEP,
    FC_ERR_DUPLICATE_FIELD,
    FC_ERR_BAD_MESSAGE,
    FC_ERR_UNKNOWN_TYPE,
    FC_ERR_MISSING_FIELD,
    FC_ERR_UNKNOWN_FIELD,
    FC_ERR_BAD_VALUE,
    FC_ERR_NOT_READY,
    FC_ERR_FORBIDDEN,
    FC_ERR_RATE_LIMITED,
    FC_ERR_UNKNOWN_WORLD,
    FC_ERR_UNKNOWN_PARAMETER,
    FC_ERR_NOT_LIVE,
    FC_ERR_UNKNOWN_EMITTER,
    FC_ERR_UNKNOWN_COLLIDER,
    FC_ERR_UNKNOWN_SCENE,
    FC_ERR_UNKNOWN_SOLVER,
    FC_ERR_NOT_SUBSCRIBED,
    FC_ERR_WORLD_LIMIT,
    FC_ERR_OVER_BUDGET,
    FC_ERR_INTERNAL,
    FC_ERR_COUNT
} fc_error_code;

/* "bad_json", ...; NULL for FC_ERR_NONE or out of range. */
const char *fc_error_code_name(fc_error_code code);
/* The code with that name, or FC_ERR_NONE. */
fc_error_code fc_error_code_from_name(const char *name);

/* Every client message type (the schema's "type" enum; fc_message_init checks they agree). */
typedef enum {
    FC_MSG_HELLO,
    FC_MSG_LIST_WORLDS,
    FC_MSG_SUBSCRIBE,
    FC_MSG_UNSUBSCRIBE,
    FC_MSG_KEY_REQUEST,
    FC_MSG_SET,
    FC_MSG_EMITTER_ADD,
    FC_MSG_EMITTER_UPDATE,
    FC_MSG_EMITTER_REMOVE,
    FC_MSG_COLLIDER_MOVE,
    FC_MSG_COLLIDER_ADD,
    FC_MSG_COLLIDER_UPDATE,
    FC_MSG_COLLIDER_REMOVE,
    FC_MSG_WALLS_UPDATE,
    FC_MSG_PICK,
    FC_MSG_PAUSE,
    FC_MSG_RESUME,
    FC_MSG_STEP,
    FC_MSG_RESET,
    FC_MSG_LOAD_SCENE,
    FC_MSG_CREATE_WORLD,
    FC_MSG_CLOSE_WORLD,
    FC_MSG_SET_SOLVER,
    FC_MSG_REWIND,
    FC_MSG_CAMERA,
    FC_MSG_SET_WORLD,
    FC_MSG_TYPE_COUNT
} fc_message_type;

const char *fc_message_type_name(fc_message_type type);
/* The type of a validated message (its "type" member), or FC_MSG_TYPE_COUNT. */
fc_message_type fc_message_type_of(const cJSON *message);
/* 1 when the message needs the control role (PROTOCOL.md 2.1). */
int fc_message_needs_control(fc_message_type type);

/* What went wrong with a message: the reply's error fields and what it echoes. */
typedef struct fc_message_error {
    fc_error_code code;
    char field[160];   /* JSON path such as values.viscosity or emitter.position[1]; "" sends null */
    char message[640]; /* "field: what was expected, got what" */
    char id[400];      /* the request's id as JSON text when it was valid, else "null" */
    char request[32];  /* the request's type when it was a known one, else "" */
} fc_message_error;

/* Fills err (field may be NULL or ""); the message is "field: " followed by the formatted text.
 * For the server's own checks (unknown_world, ...); keeps err->id and err->request. */
void fc_message_error_set(fc_message_error *err, fc_error_code code, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Loads the schema compiled into the library (once; thread-safe). 0, or -1 with the reason in
 * err. fc_message_parse calls it itself; call it at start-up to fail early. */
int fc_message_init(char *err, size_t errlen);
/* Frees the loaded schema (at exit, after the last fc_message_parse). */
void fc_message_cleanup(void);

/* Checks one text message of len bytes (text need not be NUL-terminated; no byte past len is
 * read): size, UTF-8, nesting depth and number length, then JSON syntax, duplicate members, the
 * schema, and an integer id above 2^63 - 1 (bad_value). Returns 0 with the parsed message in *out
 * (free with cJSON_Delete), or -1 with *out NULL and err filled (id and request filled as far as
 * the message got). In *out the "id" member, when there is one, is a cJSON Raw item holding the
 * id's literal text as sent ("2.0", "\"a\\u0041\""), so that replies echo it byte for byte
 * (a string id whose literal is longer than fc_message_error.id can hold stays a string). */
int fc_message_parse(const char *text, size_t len, fc_message_error *err, cJSON **out);

/* Fills err->id (the message's id as JSON text: the literal as sent for a message from
 * fc_message_parse, else exact for integers up to 2^53 - 1; "null" when absent or invalid) and
 * err->request (its type's name) from a parsed message. Replies put err->id in with
 * cJSON_CreateRaw, never cJSON_Parse (which would round a large integer to 15 digits). */
void fc_message_note_request(const cJSON *message, fc_message_error *err);

#endif
