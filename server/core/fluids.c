/* The fluids table: defaults, names, and parameters with a fluid scope. */
#include "core/fluids.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Colours of fluids 1, 2, ... when the scene gives none (fluid 0 takes the default colour). */
static const uint32_t palette[FC_MAX_FLUIDS] = {
    FC_FLUID_DEFAULT_COLOUR, 0xe0a030, 0x40b060, 0xc04040, 0x9060c0, 0x30b0b0, 0xd070a0, 0x808080,
    0x6080ff, 0xffc060, 0x80e080, 0xff8080, 0xc0a0ff, 0x80ffff, 0xffa0d0, 0xc0c0c0,
};

double *fc_fluid_param_slot(fc_fluid *f, const fc_param_desc *d)
{
    return d->flags & FC_PARAM_FLUID ? (double *)((char *)f + d->offset) : NULL;
}

static void name_and_colour(fc_fluid *f, int index)
{
    if (index == 0) snprintf(f->name, sizeof f->name, "water");
    else snprintf(f->name, sizeof f->name, "fluid%d", index);
    f->colour = palette[index >= 0 && index < FC_MAX_FLUIDS ? index : 0];
}

void fc_fluid_defaults(fc_fluid *f, int index)
{
    memset(f, 0, sizeof *f);
    for (size_t i = 0; i < fc_param_count; i++) {
        double *slot = fc_fluid_param_slot(f, &fc_param_table[i]);
        if (slot) *slot = fc_param_table[i].def;
    }
    name_and_colour(f, index);
}

void fc_fluid_from_template(fc_fluid *f, const fc_fluid *values, int index)
{
    *f = *values;
    name_and_colour(f, index);
}

double fc_fluids_common_value(const fc_fluid *fluids, int count, const fc_param_desc *d)
{
    if (count < 1 || !(d->flags & FC_PARAM_FLUID)) return NAN;
    fc_fluid first = fluids[0];
    const double value = *fc_fluid_param_slot(&first, d);
    for (int f = 1; f < count; f++) {
        fc_fluid other = fluids[f];
        if (*fc_fluid_param_slot(&other, d) != value) return NAN;
    }
    return value;
}

int fc_fluids_check_params(const fc_params *p, const fc_fluid *fluids, int count, char *err, size_t errlen)
{
    if (!p->air) return 0;
    for (int f = 0; f < count; f++)
        if (fluids[f].kind != 0) return 0;
    /* both names quoted: a request's error names whichever of the two it sent ('kind' or 'air') */
    snprintf(err, errlen, "'air' mueller2005 needs a fluid of 'kind' air to make bubbles of (\"kind\": \"air\" in the "
                          "scene's \"fluids\")");
    return -1;
}

int fc_fluid_find(const fc_fluid *fluids, int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (strcmp(fluids[i].name, name) == 0) return i;
    return -1;
}

void fc_fluid_names(const fc_fluid *fluids, int count, char *out, size_t outlen)
{
    size_t used = 0;
    if (outlen) snprintf(out, outlen, "%s", count ? "" : "no fluids");
    for (int i = 0; i < count && used < outlen; i++)
        used += (size_t)snprintf(out + used, outlen - used, "%s%s", i ? ", " : "", fluids[i].name);
}

int fc_fluid_name_valid(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= FC_FLUID_NAME_LEN) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

int fc_param_split(const char *name, const fc_param_desc **d, char fluid[FC_FLUID_NAME_LEN], char *err, size_t errlen)
{
    const char *dot = strchr(name, '.');
    fluid[0] = '\0';
    *d = fc_param_find(dot ? dot + 1 : name);
    if (dot) {
        size_t n = (size_t)(dot - name);
        if (n == 0 || n >= FC_FLUID_NAME_LEN) {
            snprintf(err, errlen, "'%.60s': expected FLUID.PARAMETER with a fluid name of 1 to %d characters", name,
                     FC_FLUID_NAME_LEN - 1);
            return -1;
        }
        memcpy(fluid, name, n);
        fluid[n] = '\0';
    }
    if (!*d) {
        char near[96];
        snprintf(err, errlen, "unknown parameter '%.60s'%s (fluidcast params lists them)", dot ? dot + 1 : name,
                 fc_param_did_you_mean(dot ? dot + 1 : name, near, sizeof near));
        return -1;
    }
    if (dot && !((*d)->flags & FC_PARAM_FLUID)) {
        snprintf(err, errlen, "parameter '%s' has no fluid scope: set it as '%s', not '%.60s'", (*d)->name,
                 (*d)->name, name);
        return -1;
    }
    return 0;
}

int fc_param_set_scoped(fc_params *p, fc_fluid *fluids, int count, const fc_param_desc *d, const char *fluid,
                        double value, char *err, size_t errlen)
{
    char shown[FC_FLUID_NAME_LEN + 64];
    if (fluid && fluid[0]) snprintf(shown, sizeof shown, "%s.%s", fluid, d->name);
    else snprintf(shown, sizeof shown, "%s", d->name);
    if (fc_param_check_number(d, shown, value, err, errlen)) return -1;
    if (fluid && fluid[0]) {
        int f = fc_fluid_find(fluids, count, fluid);
        if (f < 0) {
            char names[FC_MAX_FLUIDS * FC_FLUID_NAME_LEN];
            fc_fluid_names(fluids, count, names, sizeof names);
            snprintf(err, errlen, "parameter '%.100s': no fluid named '%s'; this world has %s", shown, fluid, names);
            return -1;
        }
        double *slot = fc_fluid_param_slot(&fluids[f], d);
        if (!slot) {
            snprintf(err, errlen, "parameter '%s' has no fluid scope", d->name);
            return -1;
        }
        *slot = value;
        return 0;
    }
    if (!(d->flags & FC_PARAM_FLUID)) {
        fc_param_set_number(p, d, value, err, errlen); /* checked above: cannot fail */
        return 0;
    }
    if (count < 1) {
        snprintf(err, errlen, "parameter '%s' has a fluid scope and there are no fluids to set", d->name);
        return -1;
    }
    for (int f = 0; f < count; f++) {
        double *slot = fc_fluid_param_slot(&fluids[f], d);
        if (slot) *slot = value;
    }
    return 0;
}

int fc_param_assign_scoped(fc_params *p, fc_fluid *fluids, int count, const char *assignment, char *err,
                           size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment) {
        snprintf(err, errlen, "expected name=value, got '%s'", assignment);
        return -1;
    }
    char name[128], fluid[FC_FLUID_NAME_LEN];
    size_t n = (size_t)(eq - assignment);
    if (n >= sizeof name) {
        snprintf(err, errlen, "unknown parameter '%.40s...'", assignment);
        return -1;
    }
    memcpy(name, assignment, n);
    name[n] = '\0';
    const fc_param_desc *d;
    if (fc_param_split(name, &d, fluid, err, errlen)) return -1;
    double value; /* the text as the table says, then set with its scope */
    char why[512];
    if (fc_param_parse(d, eq + 1, &value, why, sizeof why)) {
        char prefix[96]; /* "parameter 'viscosity': ..." names the fluid: "parameter 'oil.viscosity': ..." */
        int n = snprintf(prefix, sizeof prefix, "parameter '%s': ", d->name);
        const char *rest = n > 0 && strncmp(why, prefix, (size_t)n) == 0 ? why + n : why;
        snprintf(err, errlen, "parameter '%s%s%s': %s", fluid, fluid[0] ? "." : "", d->name, rest);
        return -1;
    }
    return fc_param_set_scoped(p, fluids, count, d, fluid, value, err, errlen);
}

int fc_colour_parse(const char *text, uint32_t *rgb)
{
    if (!text || text[0] != '#' || strlen(text) != 7) return -1;
    uint32_t v = 0;
    for (int i = 1; i < 7; i++) {
        char c = text[i];
        int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (digit < 0) return -1;
        v = v << 4 | (uint32_t)digit;
    }
    *rgb = v;
    return 0;
}

void fc_colour_format(uint32_t rgb, char out[8]) { snprintf(out, 8, "#%06x", (unsigned)(rgb & 0xffffffu)); }

int fc_param_assign(fc_params *p, const char *assignment, char *err, size_t errlen)
{
    return fc_param_assign_scoped(p, NULL, 0, assignment, err, errlen);
}
