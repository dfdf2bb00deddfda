/* Parameter table tests: defaults in range, parsing, and rejected values changing nothing. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/fluids.h"
#include "core/params.h"
#include "core/solver.h"

int main(void)
{
    fc_params p, before;
    char err[256], text[64];
    fc_params_defaults(&p);
    fc_fluid water;
    fc_fluid_defaults(&water, 0);
    for (size_t i = 0; i < fc_param_count; i++) {
        const fc_param_desc *d = &fc_param_table[i];
        const int scoped = (d->flags & FC_PARAM_FLUID) != 0;
        double v = scoped ? *fc_fluid_param_slot(&water, d) : fc_param_get(&p, d);
        CHECK(v >= d->min && v <= d->max, "%s default %g in [%g, %g]", d->name, v, d->min, d->max);
        CHECK(d->description && strlen(d->description) > 10, "%s has a description", d->name);
        /* label and help are for people: a short name and plain sentences, no citations */
        CHECK(d->label && d->label[0] && strlen(d->label) <= 32 && d->label[0] >= 'A' && d->label[0] <= 'Z',
              "%s has a short capitalised label: '%s'", d->name, d->label ? d->label : "(null)");
        CHECK(d->help && strlen(d->help) > 20 && d->help[strlen(d->help) - 1] == '.', "%s has help ending in a full stop",
              d->name);
        CHECK(d->help && !strstr(d->help, "seed") && !strstr(d->help, "eq.") && !strstr(d->help, "Bullet") &&
                  !strstr(d->help, "et al"),
              "%s help cites nothing: '%s'", d->name, d->help ? d->help : "(null)");
        CHECK(d->help && strcmp(d->help, d->description) != 0, "%s help is not the description", d->name);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(fc_param_table[j].label, d->label) != 0, "%s and %s have different labels", fc_param_table[j].name,
                  d->name);
        CHECK(fc_param_find(d->name) == d, "%s is found by name", d->name);
        /* formatting then parsing gives the same value */
        fc_param_format_value(d, v, text, sizeof text);
        double back = -1.0;
        CHECK(fc_param_parse(d, text, &back, err, sizeof err) == 0 && back == v, "%s round-trips through '%s'", d->name,
              text);
        /* a fluid-scoped value is stored once, in the fluids: fc_params has no place for it */
        fc_params copy = p;
        CHECK(scoped == (fc_param_set_number(&copy, d, v, err, sizeof err) != 0) && memcmp(&copy, &p, sizeof p) == 0,
              "%s: %s", d->name, scoped ? "fc_params refuses a fluid-scoped value" : "fc_params stores it");
        CHECK(scoped == isnan(fc_param_get(&p, d)), "%s: fc_params %s", d->name, scoped ? "reads NAN" : "reads its value");
    }
    CHECK(fc_params_check(&p, err, sizeof err) == 0, "defaults are consistent: %s", err);

    struct { const char *assignment, *expect; } bad[] = {
        {"nonsense=1", "unknown parameter 'nonsense'"},
        {"viscosity=abc", "expected a number"},
        {"viscosity=-1", "out of range"},
        {"viscosity=", "expected a number"},
        {"viscosity", "expected name=value"},
        {"=3", "expected name=value"},
        {"substeps=2.5", "expected an integer"},
        {"substeps=0", "out of range"},
        {"equation_of_state=van_der_waals", "expected one of tait|linear"},
        {"viscosity_model=stokes", "expected one of solver|none|mueller2003"},
        {"clamp_negative_pressure=maybe", "expected true or false"},
        {"time_step=nan", "finite"},
        {"time_step=1e999", "expected a number"},
        {"viscosity=0.25", "has a fluid scope and there are no fluids to set"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        before = p;
        err[0] = '\0';
        int rc = fc_param_assign(&p, bad[k].assignment, err, sizeof err);
        CHECK(rc != 0, "'%s' is rejected", bad[k].assignment);
        CHECK(strstr(err, bad[k].expect) != NULL, "'%s' error says '%s': got '%s'", bad[k].assignment, bad[k].expect,
              err);
        CHECK(memcmp(&before, &p, sizeof p) == 0, "'%s' changes nothing", bad[k].assignment);
    }

    CHECK(fc_param_assign(&p, "time_step=0.001", err, sizeof err) == 0 && p.time_step == 0.001, "float set");
    CHECK(fc_param_assign(&p, "equation_of_state=linear", err, sizeof err) == 0 && p.equation_of_state == FC_EOS_LINEAR,
          "enum set by name");
    CHECK(fc_param_assign(&p, "viscosity_model=mueller2003", err, sizeof err) == 0 &&
              p.viscosity_model == FC_VISCOSITY_MUELLER2003,
          "a term category set by name");
    CHECK(fc_param_assign(&p, "clamp_negative_pressure=false", err, sizeof err) == 0 && p.clamp_negative_pressure == 0,
          "bool set");
    CHECK(fc_param_assign(&p, "substeps=7", err, sizeof err) == 0 && p.substeps == 7, "int set");

    /* parameters with a fluid scope: each has an fc_fluid member; FLUID.NAME sets one fluid's */
    fc_params_defaults(&p);
    fc_fluid fluids[2];
    fc_fluid_defaults(&fluids[0], 0);
    fc_fluid_from_template(&fluids[1], &fluids[0], 1);
    CHECK(strcmp(fluids[0].name, "water") == 0 && fluids[0].colour == FC_FLUID_DEFAULT_COLOUR && fluids[1].colour != fluids[0].colour,
          "one fluid of the defaults is water in the default colour; the next takes another");
    snprintf(fluids[1].name, sizeof fluids[1].name, "oil");
    int scoped = 0;
    for (size_t i = 0; i < fc_param_count; i++) {
        const fc_param_desc *d = &fc_param_table[i];
        double *slot = fc_fluid_param_slot(&fluids[0], d);
        CHECK(!(d->flags & FC_PARAM_FLUID) == !slot, "%s: fluid scope %d and an fc_fluid member agree", d->name,
              (d->flags & FC_PARAM_FLUID) != 0);
        if (!slot) continue;
        scoped++;
        CHECK(*slot == d->def && fc_fluids_common_value(fluids, 2, d) == d->def, "%s: a fluid takes the table's default",
              d->name);
    }
    CHECK(scoped == 10,
          "rest_density, viscosity, temperature, thermal_diffusivity, specific_heat, thermal_expansion, polarity, "
          "surface_tension, interface_tension and kind have a fluid scope: %d",
          scoped);
    const fc_param_desc *viscosity = fc_param_find("viscosity");
    CHECK(fc_param_assign_scoped(&p, fluids, 2, "oil.viscosity=7", err, sizeof err) == 0 && fluids[1].viscosity == 7 &&
              fluids[0].viscosity == 2.0 && isnan(fc_fluids_common_value(fluids, 2, viscosity)),
          "oil.viscosity sets oil's only (the fluids now differ): %s", err);
    CHECK(fc_param_assign_scoped(&p, fluids, 2, "viscosity=3", err, sizeof err) == 0 && fluids[0].viscosity == 3 &&
              fluids[1].viscosity == 3 && fc_fluids_common_value(fluids, 2, viscosity) == 3,
          "the plain name sets every fluid's");
    struct { const char *assignment, *expect; } bad_scoped[] = {
        {"oi1.viscosity=1", "parameter 'oi1.viscosity': no fluid named 'oi1'; this world has water, oil"},
        {"oil.viscosity=200", "parameter 'oil.viscosity': 200 is out of range [0, 100] Pa s"},
        {"oil.viscosity=abc", "parameter 'oil.viscosity': expected a number"},
        {"oil.time_step=0.001", "parameter 'time_step' has no fluid scope"},
        {"oil.nonsense=1", "unknown parameter 'nonsense'"},
        {".viscosity=1", "expected FLUID.PARAMETER"},
    };
    for (size_t k = 0; k < sizeof bad_scoped / sizeof bad_scoped[0]; k++) {
        fc_params p_before = p;
        fc_fluid f_before[2];
        memcpy(f_before, fluids, sizeof f_before);
        err[0] = '\0';
        CHECK(fc_param_assign_scoped(&p, fluids, 2, bad_scoped[k].assignment, err, sizeof err) != 0 &&
                  strstr(err, bad_scoped[k].expect) != NULL,
              "'%s' is refused saying '%s': got '%s'", bad_scoped[k].assignment, bad_scoped[k].expect, err);
        CHECK(memcmp(&p_before, &p, sizeof p) == 0 && memcmp(f_before, fluids, sizeof f_before) == 0,
              "'%s' changes nothing", bad_scoped[k].assignment);
    }

    fc_params_defaults(&p);
    CHECK(p.particle_radius == 0.0 && fc_params_particle_radius(&p) == 0.5 * p.particle_spacing &&
              fc_params_particle_margin(&p) == 0.001,
          "by default the collision radius is half the spacing, and the margin 1 mm below it");
    p.particle_spacing = 0.001; /* the smallest spacing: the margin in use shrinks below the radius */
    CHECK(fc_params_check(&p, err, sizeof err) == 0 && fc_params_particle_margin(&p) < fc_params_particle_radius(&p),
          "the derived radius and margin fit the finest spacing: %s", err);
    p.particle_spacing = 0.04;
    CHECK(fc_params_particle_radius(&p) == 0.02, "the derived radius follows the spacing");
    p.particle_margin = fc_params_particle_radius(&p);
    CHECK(fc_params_check(&p, err, sizeof err) != 0 && strstr(err, "particle_margin") && strstr(err, "half the particle spacing"),
          "a margin at the derived radius is rejected, naming where the radius comes from: %s", err);
    fc_params_defaults(&p);
    p.particle_radius = 0.01;
    p.particle_margin = p.particle_radius;
    CHECK(fc_params_check(&p, err, sizeof err) != 0 && strstr(err, "particle_margin"), "margin >= radius rejected");
    fc_params_defaults(&p);
    p.smoothing_radius = 10 * p.particle_spacing; /* the SPH family's rule, not every solver's */
    CHECK(fc_params_check(&p, err, sizeof err) == 0, "the general rules leave h/spacing to the solver: %s", err);
    CHECK(fc_solver_check_params(&fc_solver_sph, &p, err, sizeof err) != 0 && strstr(err, "smoothing_radius"),
          "h/spacing ratio checked for sph");
    CHECK(fc_solver_check_params(&fc_solver_pbf, &p, err, sizeof err) != 0 && strstr(err, "smoothing_radius"),
          "h/spacing ratio checked for pbf");
    p.particle_margin = fc_params_particle_radius(&p);
    CHECK(fc_solver_check_params(NULL, &p, err, sizeof err) != 0 && strstr(err, "particle_margin"),
          "the general rules come with every solver's");
    return check_summary("test_params");
}
