/* The fluids of a world: a table of at most FC_MAX_FLUIDS, each with a name, its values of the
 * parameters that have a fluid scope (FC_PARAM_FLUID in params.def: rest density, viscosity,
 * initial temperature) and a display colour. A particle's fluid is the u8 field `fluid`. */
#ifndef FC_FLUIDS_H
#define FC_FLUIDS_H

#include <stddef.h>
#include <stdint.h>

#include "core/params.h"

enum { FC_MAX_FLUIDS = 16, FC_FLUID_NAME_LEN = 32 };

/* The colour of a world's only fluid when its scene names none (#2f7fd0). */
#define FC_FLUID_DEFAULT_COLOUR 0x2f7fd0u

typedef struct fc_fluid {
    char name[FC_FLUID_NAME_LEN];
    uint32_t colour; /* 0xRRGGBB, for viewers */
    /* the parameters with a fluid scope, the only place their values are kept: one member per
     * FC_FLUID_PARAM entry of params.def, of its name and type (rest_density kg/m^3, viscosity Pa s
     * dynamic, temperature K of the particles the fluid is made of) */
#define FC_PARAM(...)
#define FC_FLUID_PARAM(type, name, unit, lo, hi, def, solvers, flags, label, help, desc) double name; /* any type */
#include "core/params.def"
#undef FC_FLUID_PARAM
#undef FC_PARAM
} fc_fluid;

/* The table's defaults of every fluid-scoped parameter, named as fluid `index` of a table that
 * names none: "water" (index 0) or "fluidN", the default colour for index 0 and a palette's for
 * the others. */
void fc_fluid_defaults(fc_fluid *f, int index);
/* Fluid `index` made of a template's values (a scene's "parameters" for every fluid), named and
 * coloured as fc_fluid_defaults names and colours it. */
void fc_fluid_from_template(fc_fluid *f, const fc_fluid *values, int index);
/* The value every fluid of the table has of fluid-scoped parameter d, or NAN when they differ (or
 * there are none): what the unscoped name reads. */
double fc_fluids_common_value(const fc_fluid *fluids, int count, const fc_param_desc *d);

/* The fluid's value of a fluid-scoped parameter, or NULL when d has no fluid scope. */
double *fc_fluid_param_slot(fc_fluid *f, const fc_param_desc *d);

/* The rules between parameters and the fluids table: air generation (air mueller2005) needs a
 * fluid of kind air. 0, or -1 with err quoting the parameter ('air'). */
int fc_fluids_check_params(const fc_params *p, const fc_fluid *fluids, int count, char *err, size_t errlen);

/* Index of the fluid named `name`, or -1. */
int fc_fluid_find(const fc_fluid *fluids, int count, const char *name);

/* "water, oil" into out. */
void fc_fluid_names(const fc_fluid *fluids, int count, char *out, size_t outlen);

/* Whether `name` may name a fluid: 1 to 31 of [A-Za-z0-9_-] (no '.': it separates the fluid from
 * the parameter in "water.viscosity"). */
int fc_fluid_name_valid(const char *name);

/* Splits "FLUID.PARAM" or "PARAM": *d the parameter (NULL when unknown), fluid the fluid's name
 * ("" when unscoped). -1 with err when the name is not of that form or names no parameter. */
int fc_param_split(const char *name, const fc_param_desc **d, char fluid[FC_FLUID_NAME_LEN], char *err, size_t errlen);

/* Sets parameter d to value: for the fluid named `fluid` (a fluid-scoped parameter only), or
 * unscoped (the world's value; for a fluid-scoped parameter every fluid's, and at least one fluid).
 * Checks type and range first; on error err names the parameter and the fluid, and nothing
 * changes. 0 or -1. */
int fc_param_set_scoped(fc_params *p, fc_fluid *fluids, int count, const fc_param_desc *d, const char *fluid,
                        double value, char *err, size_t errlen);

/* "NAME=VALUE" or "FLUID.NAME=VALUE" as given to --set, parsed as text (fc_param_set_text). */
int fc_param_assign_scoped(fc_params *p, fc_fluid *fluids, int count, const char *assignment, char *err,
                           size_t errlen);

/* "#rrggbb" into *rgb; 0, or -1 when the text is not of that form. */
int fc_colour_parse(const char *text, uint32_t *rgb);
void fc_colour_format(uint32_t rgb, char out[8]);

#endif
