/* Builds the JSON form of the parameter table and of parameter values. */
#include "core/params_json.h"

#include <math.h>

#include <stdio.h>
#include <string.h>

#include "core/solver.h"

int fc_json_attach(cJSON *parent, const char *name, cJSON *item)
{
    if (!item) return -1;
    cJSON_bool added = name ? cJSON_AddItemToObject(parent, name, item) : cJSON_AddItemToArray(parent, item);
    if (added) return 0;
    cJSON_Delete(item);
    return -1;
}

static int has_range(const fc_param_desc *d)
{
    return d->type == FC_PARAM_FLOAT || d->type == FC_PARAM_INT;
}

cJSON *fc_param_number_json(const fc_param_desc *d, double value)
{
    char text[128];
    if (isnan(value)) return cJSON_CreateNull();
    switch (d->type) {
    case FC_PARAM_ENUM: fc_param_format_value(d, value, text, sizeof text); return cJSON_CreateString(text);
    case FC_PARAM_BOOL: return cJSON_CreateBool(value != 0);
    default: return cJSON_CreateNumber(value);
    }
}

cJSON *fc_param_value_json(const fc_params *p, const fc_param_desc *d)
{
    return fc_param_number_json(d, fc_param_get(p, d));
}

/* "a|b|c" as ["a", "b", "c"]. */
static cJSON *choices_json(const char *choices)
{
    cJSON *list = cJSON_CreateArray();
    for (const char *s = choices; list;) {
        char choice[128];
        const char *bar = strchr(s, '|');
        int n = bar ? (int)(bar - s) : (int)strlen(s);
        snprintf(choice, sizeof choice, "%.*s", n, s);
        if (fc_json_attach(list, NULL, cJSON_CreateString(choice))) break;
        if (!bar) return list;
        s = bar + 1;
    }
    cJSON_Delete(list);
    return NULL;
}

/* The names of the registered solvers whose bit is in the mask. */
static cJSON *solvers_json(uint32_t mask)
{
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; list && fc_solvers[i]; i++)
        if ((mask & fc_solvers[i]->param_bit) && fc_json_attach(list, NULL, cJSON_CreateString(fc_solvers[i]->name))) {
            cJSON_Delete(list);
            return NULL;
        }
    return list;
}

/* The members that describe the parameter's type: unit or choices, and the range. */
static int add_type_members(cJSON *o, const fc_param_desc *d)
{
    if (d->type == FC_PARAM_ENUM) return fc_json_attach(o, "choices", choices_json(d->unit));
    if (fc_json_attach(o, "unit", cJSON_CreateString(d->unit))) return -1;
    if (!has_range(d)) return 0;
    return fc_json_attach(o, "min", cJSON_CreateNumber(d->min)) || fc_json_attach(o, "max", cJSON_CreateNumber(d->max))
               ? -1
               : 0;
}

cJSON *fc_params_json_entry(const fc_param_desc *d, const fc_params *defaults)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || fc_json_attach(o, "name", cJSON_CreateString(d->name)) ||
        fc_json_attach(o, "label", cJSON_CreateString(d->label)) ||
        fc_json_attach(o, "type", cJSON_CreateString(fc_param_type_name(d->type))) || add_type_members(o, d) ||
        fc_json_attach(o, "default", d->flags & FC_PARAM_FLUID ? fc_param_number_json(d, d->def) : fc_param_value_json(defaults, d)) ||
        fc_json_attach(o, "live", cJSON_CreateBool((d->flags & FC_PARAM_LIVE) != 0)) ||
        fc_json_attach(o, "fluid_scope", cJSON_CreateBool((d->flags & FC_PARAM_FLUID) != 0)) ||
        fc_json_attach(o, "derived", cJSON_CreateBool((d->flags & FC_PARAM_DERIVED) != 0)) ||
        fc_json_attach(o, "solvers", solvers_json(d->solvers)) ||
        fc_json_attach(o, "all_solvers", cJSON_CreateBool(d->solvers == FC_SOLVER_ALL)) ||
        fc_json_attach(o, "help", cJSON_CreateString(d->help)) ||
        fc_json_attach(o, "description", cJSON_CreateString(d->description))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *fc_params_json_table(void)
{
    fc_params defaults;
    fc_params_defaults(&defaults);
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; list && i < fc_param_count; i++)
        if (fc_json_attach(list, NULL, fc_params_json_entry(&fc_param_table[i], &defaults))) {
            cJSON_Delete(list);
            return NULL;
        }
    return list;
}
