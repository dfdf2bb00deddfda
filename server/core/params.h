/* The parameter table (params.def) as C: a struct of values, descriptors, parsing and validation. */
#ifndef FC_PARAMS_H
#define FC_PARAMS_H

#include <stddef.h>
#include <stdint.h>

/* Solvers, as bits, so a parameter can say which solvers read it. */
enum {
    FC_SOLVER_SPH = 1u << 0,
    FC_SOLVER_PBF = 1u << 1,
    FC_SOLVER_ALL = 0xffffffffu
};

typedef enum { FC_PARAM_FLOAT, FC_PARAM_INT, FC_PARAM_BOOL, FC_PARAM_ENUM } fc_param_type;
/* FC_PARAM_FLUID: the parameter has a fluid scope: each fluid of a world has its own value
 * (core/fluids.h), named "FLUID.NAME"; the unscoped name sets every fluid's.
 * FC_PARAM_ABOVE_MIN: min itself is refused; a value must exceed it, also once narrowed to a float
 * (core/limits.h: a temperature of 1e-300 K is 0 K in a particle). */
enum { FC_PARAM_LIVE = 1, FC_PARAM_INIT = 2, FC_PARAM_FLUID = 4, FC_PARAM_DERIVED = 8, FC_PARAM_ABOVE_MIN = 16 };

enum { FC_EOS_TAIT = 0, FC_EOS_LINEAR = 1 };
/* viscosity_model: each solver's own (WCSPH Mueller 2003, PBF none besides its XSPH), none, or
 * Mueller 2003's viscosity with each fluid's mu for either solver. */
enum { FC_VISCOSITY_SOLVER = 0, FC_VISCOSITY_NONE = 1, FC_VISCOSITY_MUELLER2003 = 2 };

/* One value per parameter without a fluid scope (those are stored in each fluid, core/fluids.h);
 * ints, bools and enums are stored as integers. */
typedef struct fc_params {
#define FC_PARAM_FIELD_FLOAT(name) double name;
#define FC_PARAM_FIELD_INT(name) int name;
#define FC_PARAM_FIELD_BOOL(name) int name;
#define FC_PARAM_FIELD_ENUM(name) int name;
#define FC_PARAM(type, name, unit, lo, hi, def, solvers, flags, label, help, desc) FC_PARAM_FIELD_##type(name)
#define FC_FLUID_PARAM(...) /* stored in each fluid (core/fluids.h) */
#include "core/params.def"
#undef FC_FLUID_PARAM
#undef FC_PARAM
} fc_params;

typedef struct fc_param_desc {
    const char *name;
    fc_param_type type;
    const char *unit;        /* for enums: the choices, "a|b" */
    double min, max, def;
    uint32_t solvers;
    int flags;
    const char *label;       /* short human name ("Time step") */
    const char *help;        /* plain-language help: what it does, what raising it does */
    const char *description;
    size_t offset;           /* into fc_params, or for a fluid-scoped parameter into fc_fluid */
} fc_param_desc;

extern const fc_param_desc fc_param_table[];
extern const size_t fc_param_count;
/* " (did you mean 'NAME'?)" with the table's name nearest to typed, or "" when none is near: out. */
const char *fc_param_did_you_mean(const char *typed, char *out, size_t outlen);

const fc_param_desc *fc_param_find(const char *name);
const char *fc_param_type_name(fc_param_type type);

/* All parameters at their defaults. */
void fc_params_defaults(fc_params *p);

/* Numeric value of a parameter without a fluid scope (enums and bools as 0, 1, ...); NAN for one
 * with a fluid scope (its values are the fluids', core/fluids.h). */
double fc_param_get(const fc_params *p, const fc_param_desc *d);
/* Parses text ("0.5", "12", "true", "tait") as parameter d's type and checks its range into *value;
 * on failure err says why, naming the parameter. 0 or -1. */
int fc_param_parse(const fc_param_desc *d, const char *text, double *value, char *err, size_t errlen);
/* A value of parameter d as text (enum choice names, true/false, numbers). */
void fc_param_format_value(const fc_param_desc *d, double value, char *out, size_t outlen);

/* Checks that value fits parameter d's type and range; on failure writes why into err, naming
 * the parameter as `shown` ("viscosity", "oil.viscosity"). 0 when it fits. */
int fc_param_check_number(const fc_param_desc *d, const char *shown, double value, char *err, size_t errlen);

/* Checks type and range, then stores; on failure (also for a parameter with a fluid scope, which is
 * set on the fluids: fc_param_set_scoped) writes why into err and changes nothing. 0 on success. */
int fc_param_set_number(fc_params *p, const fc_param_desc *d, double value, char *err, size_t errlen);

/* Parses text ("0.5", "12", "true", "tait") for the parameter, then sets it as above. */
int fc_param_set_text(fc_params *p, const fc_param_desc *d, const char *text, char *err, size_t errlen);

/* "name=value" as given to --set, for a table without fluids (fluids.h has the scoped form):
 * fc_param_assign_scoped(p, NULL, 0, assignment, ...). */
int fc_param_assign(fc_params *p, const char *assignment, char *err, size_t errlen);

/* Writes the value as text (enum choice names, true/false, numbers). */
void fc_param_format(const fc_params *p, const fc_param_desc *d, char *out, size_t outlen);

/* Index of an enum choice by name, or -1. */
int fc_param_enum_index(const fc_param_desc *d, const char *choice);

/* The smoothing radius h the parameters give: smoothing_radius when it is set (above 0), else
 * smoothing_ratio * particle_spacing. */
double fc_params_smoothing_radius(const fc_params *p);
/* The collision radius in use: particle_radius, or half the particle spacing when it is 0. */
double fc_params_particle_radius(const fc_params *p);
/* The contact margin in use: particle_margin, or min(1 mm, a fifth of that radius) when it is 0. */
double fc_params_particle_margin(const fc_params *p);
/* Makes smoothing_radius the h of fc_params_smoothing_radius and smoothing_ratio h / spacing: a
 * world's parameters when it is built. */
void fc_params_resolve_smoothing(fc_params *p);

/* Checks the relations between parameters that hold for every solver (e.g. margin below radius);
 * 0 when consistent. A solver adds its own (fc_solver_check_params). */
int fc_params_check(const fc_params *p, char *err, size_t errlen);

#endif
