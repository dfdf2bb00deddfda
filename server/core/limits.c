/* Ranges of sent numbers checked after narrowing to float (limits.h). */
#include "core/limits.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

#include "core/objects.h"
#include "core/params.h"

const char *fc_limit_describe(const fc_limit *l, char *out, size_t outlen)
{
    char unit[48] = "";
    if (l->unit && l->unit[0]) snprintf(unit, sizeof unit, " (%s)", l->unit);
    snprintf(out, outlen, "a number %s %g and at most %g%s", l->above_min ? ">" : ">=", l->min, l->max, unit);
    return out;
}

int fc_limit_check(const fc_limit *l, double value, float *narrowed, char *why, size_t whylen)
{
    char expected[96];
    const float f = isfinite(value) && fabs(value) <= FLT_MAX ? (float)value : NAN;
    const int in_range = isfinite(value) && (l->above_min ? value > l->min : value >= l->min) && value <= l->max;
    if (in_range && !(l->above_min && !((double)f > l->min))) {
        if (narrowed) *narrowed = f;
        return 0;
    }
    fc_limit_describe(l, expected, sizeof expected);
    if (in_range) /* lost in narrowing: a float cannot hold it above min */
        snprintf(why, whylen, "expected %s, found %g, which is %g as a float", expected, value, (double)f);
    else snprintf(why, whylen, "expected %s, found %g", expected, value);
    return -1;
}

fc_limit fc_param_limit(const fc_param_desc *d)
{
    return (fc_limit){d->min, d->max, (d->flags & FC_PARAM_ABOVE_MIN) != 0, d->unit};
}

fc_limit fc_object_field_limit(fc_object_field f)
{
    switch (f) {
    case FC_FIELD_EMITTER_RADIUS: return (fc_limit){0.0, 10.0, 1, "m"};
    case FC_FIELD_EMITTER_SPEED: return (fc_limit){0.0, 100.0, 0, "m/s"};
    case FC_FIELD_EMITTER_RATE: return (fc_limit){0.0, 1e7, 0, "particles/s"};
    case FC_FIELD_SOLID_SIZE: return (fc_limit){0.0, 1e6, 1, "m"};
    case FC_FIELD_ROTATION: return (fc_limit){-3600.0, 3600.0, 0, "degrees"};
    case FC_FIELD_TEMPERATURE: return fc_param_limit(fc_param_find("temperature")); /* the fluids' range */
    case FC_FIELD_HEAT_TRANSFER: return (fc_limit){0.0, FC_HEAT_TRANSFER_MAX, 0, "W/(m^2 K)"};
    default: return (fc_limit){NAN, NAN, 0, ""};
    }
}

int fc_object_field_check(fc_object_field f, double value, float *narrowed, char *why, size_t whylen)
{
    const fc_limit l = fc_object_field_limit(f);
    return fc_limit_check(&l, value, narrowed, why, whylen);
}
