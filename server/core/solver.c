/* The registry of solvers. */
#include "core/solver.h"

#include <stdio.h>
#include <string.h>

const fc_solver *const fc_solvers[] = {&fc_solver_sph, &fc_solver_pbf, NULL};

const char *fc_solver_names(char *buf, size_t buflen)
{
    size_t used = 0;
    if (buflen) buf[0] = '\0';
    for (int i = 0; fc_solvers[i] && used < buflen; i++)
        used += (size_t)snprintf(buf + used, buflen - used, "%s%s", i ? ", " : "", fc_solvers[i]->name);
    return buf;
}

void fc_solver_fit_backend(const fc_solver *s, fc_backend_choice *c)
{
    if (c->kind != FC_BACKEND_CUDA || c->asked != FC_BACKEND_AUTO || !s || s->on_device) return;
    c->kind = FC_BACKEND_CPU;
    fc_backend_cpu_name(c->device, sizeof c->device);
    snprintf(c->why, sizeof c->why, "the CPU (auto: solver '%s' does not run on the GPU yet)", s->name);
}

const fc_solver *fc_solver_find(const char *name)
{
    for (int i = 0; fc_solvers[i]; i++)
        if (strcmp(fc_solvers[i]->name, name) == 0) return fc_solvers[i];
    return NULL;
}

const fc_solver *fc_solver_lookup(const char *name, char *err, size_t errlen)
{
    const fc_solver *s = fc_solver_find(name);
    if (!s) {
        char names[256];
        snprintf(err, errlen, "expected one of %s, got '%.64s'", fc_solver_names(names, sizeof names), name);
    }
    return s;
}

int fc_solver_check_params(const fc_solver *s, const fc_params *p, char *err, size_t errlen)
{
    if (fc_params_check(p, err, errlen)) return -1;
    return s && s->check_params ? s->check_params(p, err, errlen) : 0;
}

void fc_solver_fit_time_step(const fc_solver *s, fc_params *p)
{
    const double made_for = s ? s->default_time_step : 0.0, dt = p->time_step;
    if (made_for > 0.0 && (dt < 0.5 * made_for || dt > 2.0 * made_for)) p->time_step = made_for;
}

double fc_solver_length_scale(const fc_solver *s, const fc_params *p)
{
    return s && s->length_scale ? s->length_scale(p) : p->particle_spacing;
}

const char *fc_solver_length_name(const fc_solver *s)
{
    return s && s->length_scale && s->length_name ? s->length_name : "particle spacing";
}

fc_method_cost fc_solver_cost(const fc_solver *s, const fc_cost_query *query)
{
    fc_cost_query q = *query;
    q.step_work = fc_step_work(s, q.params, q.dims);
    if (s && s->cost) return s->cost(&q);
    const fc_method_cost fluid_alone = {{q.fluid * q.step_work, q.fluid * FC_BYTES_PER_PARTICLE}, 0.0};
    return fluid_alone;
}

double fc_step_work(const fc_solver *s, const fc_params *p, int dims)
{
    return s && s->step_work ? fmax(1.0, s->step_work(p, dims)) : 1.0;
}
