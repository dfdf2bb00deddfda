/* The parameter table and parameter values as JSON (fluidcast params --json, the server's welcome). */
#ifndef FC_PARAMS_JSON_H
#define FC_PARAMS_JSON_H

#include <cjson/cJSON.h>

#include "core/params.h"

/* One entry of the table: name, type, unit or choices, min/max (float and int), default (taken
 * from defaults), live, solvers, all_solvers, description. NULL when out of memory. */
cJSON *fc_params_json_entry(const fc_param_desc *d, const fc_params *defaults);

/* Every entry, in table order, with the table's defaults. NULL when out of memory. */
cJSON *fc_params_json_table(void);

/* A value of parameter d as JSON: a number, true/false, or an enum's choice name; null for NAN (a
 * fluid-scoped parameter whose fluids differ). NULL when out of memory. */
cJSON *fc_param_number_json(const fc_param_desc *d, double value);
/* A parameter's value as stored in p (fc_param_get; null for a fluid-scoped one). */
cJSON *fc_param_value_json(const fc_params *p, const fc_param_desc *d);

/* Adds item to parent: as member `name` of an object, or appended to an array when name is NULL.
 * Takes ownership of item either way (deleted on failure). 0, or -1 when item is NULL or memory
 * runs out. Lets builders chain additions and check once. */
int fc_json_attach(cJSON *parent, const char *name, cJSON *item);

#endif
