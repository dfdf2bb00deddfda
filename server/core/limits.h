/* The one check of a number sent for a float field against its range, after narrowing to float:
 * scene documents, commands and parameters answer it alike; and the ranges of emitters' and
 * colliders' fields, the same for scene documents and emitter_add / collider_add. */
#ifndef FC_LIMITS_H
#define FC_LIMITS_H

#include <stddef.h>

/* A range [min, max] (above_min: (min, max], where min itself is refused, also once the value is
 * narrowed to a float: 1e-300 > 0 but (float)1e-300 == 0). unit: "m", "K", or "" (none). */
typedef struct fc_limit {
    double min, max;
    int above_min;
    const char *unit;
} fc_limit;

/* 0, with *narrowed = (float)value (narrowed may be NULL), when value is finite, within the limit
 * and, for above_min, still above min as a float; else -1 and why, e.g. "expected a number > 0
 * and at most 10 (m), found 1e-300, which is 0 as a float". */
int fc_limit_check(const fc_limit *l, double value, float *narrowed, char *why, size_t whylen);
/* "a number > 0 and at most 10 (m)", for messages. */
const char *fc_limit_describe(const fc_limit *l, char *out, size_t outlen);

/* The number fields of emitters and colliders that have a range. The ranges are
 * protocol/schema/client.schema.json's (emitter_fields, collider_add, thermal_fields;
 * tests/host/test_command.c holds the two equal); temperatures are the fluids' (the parameter
 * `temperature`). */
typedef enum fc_object_field {
    FC_FIELD_EMITTER_RADIUS, /* m */
    FC_FIELD_EMITTER_SPEED,  /* m/s */
    FC_FIELD_EMITTER_RATE,   /* particles/s */
    FC_FIELD_SOLID_SIZE,     /* a collider's radius and each of its half_extents, m */
    FC_FIELD_ROTATION,       /* each Euler angle of a box's rotation, degrees */
    FC_FIELD_TEMPERATURE,    /* an emitter's or a solid's temperature, K */
    FC_FIELD_HEAT_TRANSFER,  /* a solid's heat transfer coefficient, W/(m^2 K) */
    FC_OBJECT_FIELD_COUNT
} fc_object_field;

fc_limit fc_object_field_limit(fc_object_field f);
/* A number parameter's range as a limit (FC_PARAM_ABOVE_MIN: above_min). */
struct fc_param_desc;
fc_limit fc_param_limit(const struct fc_param_desc *d);
/* fc_limit_check with the field's limit: what a scene document's emitters and colliders and the
 * emitter_add, emitter_update, collider_add, collider_update and walls_update commands all call. */
int fc_object_field_check(fc_object_field f, double value, float *narrowed, char *why, size_t whylen);

#endif
