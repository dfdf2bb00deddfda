/* What command_read.c (the network thread's) and command_apply.c (the world thread's) share: errors
 * about values, the request noted in an error, and the float fields of an emitter. */
#ifndef FC_COMMAND_PARTS_H
#define FC_COMMAND_PARTS_H

#include <stddef.h>

#include "core/limits.h"
#include "host/command.h"

/* err says "out of memory" (internal); returns -1. */
int fc_command_out_of_memory(fc_message_error *err);

/* err names field "values.NAME" (NAME: fc_param_value_name) with code and the formatted text; -1. */
int fc_param_value_error(fc_message_error *err, fc_error_code code, const fc_param_value *v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* not_live: value v can only be given when the world is built (reset, load_scene); -1. */
int fc_param_not_live(fc_message_error *err, const fc_param_value *v);

/* err echoes the request (id and type) whatever goes wrong next. */
void fc_command_note_request(const fc_command *cmd, fc_message_error *err);

/* The float fields of an emitter that emitter_add and emitter_update carry. */
typedef struct fc_emitter_member {
    const char *name;
    unsigned bit;
    size_t offset; /* into an emitter's fc_object row */
    int components;
    fc_object_field limit; /* its range (core/limits.h), or FC_OBJECT_FIELD_COUNT: the schema's alone */
} fc_emitter_member;
enum { FC_EMITTER_MEMBER_COUNT = 6 };
extern const fc_emitter_member fc_emitter_members[FC_EMITTER_MEMBER_COUNT];
static inline float *fc_emitter_slot(fc_object *e, const fc_emitter_member *m)
{
    return (float *)((char *)e + m->offset);
}

static inline const float *fc_emitter_field(const fc_object *e, const fc_emitter_member *m)
{
    return (const float *)((const char *)e + m->offset);
}

#endif
