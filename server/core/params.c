/* The parameter table built from params.def, and the one set of rules for reading values. */
#include "core/params.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/did_you_mean.h"
#include "core/fluids.h"
#include "core/limits.h"

const fc_param_desc fc_param_table[] = {
#define FC_PARAM(type, name, unit, lo, hi, def, solvers, flags, label, help, desc) \
    {#name, FC_PARAM_##type, unit, lo, hi, def, solvers, flags, label, help, desc, offsetof(fc_params, name)},
#define FC_FLUID_PARAM(type, name, unit, lo, hi, def, solvers, flags, label, help, desc) \
    {#name, FC_PARAM_##type, unit, lo, hi, def, solvers, flags, label, help, desc, offsetof(fc_fluid, name)},
#include "core/params.def"
#undef FC_FLUID_PARAM
#undef FC_PARAM
};
const size_t fc_param_count = sizeof fc_param_table / sizeof fc_param_table[0];

static const char *param_name_at(size_t i, const void *list)
{
    (void)list;
    return fc_param_table[i].name;
}

const char *fc_param_did_you_mean(const char *typed, char *out, size_t outlen)
{
    return fc_did_you_mean(typed, param_name_at, NULL, fc_param_count, out, outlen);
}

const fc_param_desc *fc_param_find(const char *name)
{
    for (size_t i = 0; i < fc_param_count; i++)
        if (strcmp(fc_param_table[i].name, name) == 0) return &fc_param_table[i];
    return NULL;
}

const char *fc_param_type_name(fc_param_type type)
{
    switch (type) {
    case FC_PARAM_FLOAT: return "float";
    case FC_PARAM_INT: return "int";
    case FC_PARAM_BOOL: return "bool";
    case FC_PARAM_ENUM: return "enum";
    }
    return "?";
}

static double *float_slot(fc_params *p, const fc_param_desc *d) { return (double *)((char *)p + d->offset); }
static int *int_slot(fc_params *p, const fc_param_desc *d) { return (int *)((char *)p + d->offset); }

double fc_param_get(const fc_params *p, const fc_param_desc *d)
{
    if (d->flags & FC_PARAM_FLUID) return NAN;
    const char *base = (const char *)p + d->offset;
    if (d->type == FC_PARAM_FLOAT) return *(const double *)base;
    return *(const int *)base;
}

void fc_params_defaults(fc_params *p)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < fc_param_count; i++) {
        const fc_param_desc *d = &fc_param_table[i];
        if (d->flags & FC_PARAM_FLUID) continue; /* the fluids' (fc_fluid_defaults) */
        if (d->type == FC_PARAM_FLOAT) *float_slot(p, d) = d->def;
        else *int_slot(p, d) = (int)d->def;
    }
}

int fc_param_enum_index(const fc_param_desc *d, const char *choice)
{
    size_t len = strlen(choice);
    int index = 0;
    for (const char *s = d->unit; *s; index++) {
        const char *bar = strchr(s, '|');
        size_t n = bar ? (size_t)(bar - s) : strlen(s);
        if (n == len && strncmp(s, choice, n) == 0) return index;
        if (!bar) break;
        s = bar + 1;
    }
    return -1;
}

/* The name of choice `index` into out (empty when out of range). */
static void enum_choice(const fc_param_desc *d, int index, char *out, size_t outlen)
{
    const char *s = d->unit;
    for (int i = 0; i < index && s; i++) {
        s = strchr(s, '|');
        if (s) s++;
    }
    size_t n = 0;
    if (s) {
        const char *bar = strchr(s, '|');
        n = bar ? (size_t)(bar - s) : strlen(s);
    }
    if (n >= outlen) n = outlen ? outlen - 1 : 0;
    if (outlen) {
        if (s) memcpy(out, s, n);
        out[n] = '\0';
    }
}

int fc_param_check_number(const fc_param_desc *d, const char *shown, double value, char *err, size_t errlen)
{
    if (!isfinite(value)) {
        snprintf(err, errlen, "parameter '%s': value must be a finite number", shown);
        return -1;
    }
    if (d->type != FC_PARAM_FLOAT && value != floor(value)) {
        snprintf(err, errlen, "parameter '%s': expected %s, got %g", shown,
                 d->type == FC_PARAM_INT ? "an integer" : d->type == FC_PARAM_BOOL ? "true or false" : "a choice",
                 value);
        return -1;
    }
    if (d->type == FC_PARAM_FLOAT && (d->flags & FC_PARAM_ABOVE_MIN)) {
        const fc_limit l = fc_param_limit(d);
        char why[160];
        if (fc_limit_check(&l, value, NULL, why, sizeof why) == 0) return 0;
        snprintf(err, errlen, "parameter '%s': %s", shown, why);
        return -1;
    }
    if (value < d->min || value > d->max) {
        if (d->type == FC_PARAM_ENUM)
            snprintf(err, errlen, "parameter '%s': expected one of %s", shown, d->unit);
        else
            snprintf(err, errlen, "parameter '%s': %g is out of range [%g, %g]%s%s", shown, value, d->min,
                     d->max, d->unit[0] ? " " : "", d->unit);
        return -1;
    }
    return 0;
}

int fc_param_set_number(fc_params *p, const fc_param_desc *d, double value, char *err, size_t errlen)
{
    if (d->flags & FC_PARAM_FLUID) {
        snprintf(err, errlen, "parameter '%s' has a fluid scope: its values are the fluids'", d->name);
        return -1;
    }
    if (fc_param_check_number(d, d->name, value, err, errlen)) return -1;
    if (d->type == FC_PARAM_FLOAT) *float_slot(p, d) = value;
    else *int_slot(p, d) = (int)value;
    return 0;
}

int fc_param_parse(const fc_param_desc *d, const char *text, double *value, char *err, size_t errlen)
{
    if (d->type == FC_PARAM_ENUM) {
        int index = fc_param_enum_index(d, text);
        if (index < 0) {
            snprintf(err, errlen, "parameter '%s': expected one of %s, got '%s'", d->name, d->unit, text);
            return -1;
        }
        *value = index;
        return 0;
    }
    if (d->type == FC_PARAM_BOOL) {
        if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0) return *value = 1, 0;
        if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0) return *value = 0, 0;
        snprintf(err, errlen, "parameter '%s': expected true or false, got '%s'", d->name, text);
        return -1;
    }
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE) {
        snprintf(err, errlen, "parameter '%s': expected %s, got '%s'", d->name,
                 d->type == FC_PARAM_INT ? "an integer" : "a number", text);
        return -1;
    }
    if (fc_param_check_number(d, d->name, v, err, errlen)) return -1;
    *value = v;
    return 0;
}

int fc_param_set_text(fc_params *p, const fc_param_desc *d, const char *text, char *err, size_t errlen)
{
    double value;
    return fc_param_parse(d, text, &value, err, errlen) ? -1 : fc_param_set_number(p, d, value, err, errlen);
}

void fc_param_format_value(const fc_param_desc *d, double v, char *out, size_t outlen)
{
    switch (d->type) {
    case FC_PARAM_ENUM: enum_choice(d, (int)v, out, outlen); break;
    case FC_PARAM_BOOL: snprintf(out, outlen, "%s", v != 0 ? "true" : "false"); break;
    case FC_PARAM_INT: snprintf(out, outlen, "%d", (int)v); break;
    case FC_PARAM_FLOAT: snprintf(out, outlen, "%g", v); break;
    }
}

void fc_param_format(const fc_params *p, const fc_param_desc *d, char *out, size_t outlen)
{
    fc_param_format_value(d, fc_param_get(p, d), out, outlen);
}

double fc_params_smoothing_radius(const fc_params *p)
{
    return p->smoothing_radius > 0.0 ? p->smoothing_radius : p->smoothing_ratio * p->particle_spacing;
}

double fc_params_particle_radius(const fc_params *p)
{
    return p->particle_radius > 0.0 ? p->particle_radius : 0.5 * p->particle_spacing;
}

double fc_params_particle_margin(const fc_params *p)
{
    const double fifth = 0.2 * fc_params_particle_radius(p);
    return p->particle_margin > 0.0 ? p->particle_margin : fifth < 0.001 ? fifth : 0.001;
}

void fc_params_resolve_smoothing(fc_params *p)
{
    p->smoothing_radius = fc_params_smoothing_radius(p);
    p->smoothing_ratio = p->smoothing_radius / p->particle_spacing;
}

int fc_params_check(const fc_params *p, char *err, size_t errlen)
{
    const double radius = fc_params_particle_radius(p);
    if (p->particle_margin >= radius && p->particle_margin > 0.0) {
        snprintf(err, errlen, "parameter 'particle_margin' (%g m) must be below 'particle_radius' (%g m%s)",
                 p->particle_margin, radius, p->particle_radius > 0.0 ? "" : ", half the particle spacing");
        return -1;
    }
    return 0;
}
