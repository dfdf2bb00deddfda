/* Blow-up checks after a step, and their likely causes from the world's parameters. */
#include "core/stability.h"

#include "core/colliders.h"
#include "core/emitter_place.h"
#include "core/eos.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/solver.h"

#define STABLE_ACOUSTIC_CFL 0.4    /* c dt / h: Monaghan 1992 and Becker & Teschner 2007 use 0.4 */
#define STABLE_FORCE_CFL 0.25      /* dt <= 0.25 sqrt(h / |a|) (Monaghan 1992) */

static double gravity_magnitude(const fc_params *p)
{
    return sqrt(p->gravity_x * p->gravity_x + p->gravity_y * p->gravity_y + p->gravity_z * p->gravity_z);
}

static double domain_diagonal(const fc_world *w)
{
    double d2 = 0.0;
    for (int a = 0; a < 3; a++) d2 += pow((double)w->domain_hi[a] - w->domain_lo[a], 2);
    return sqrt(d2);
}

/* What gravity over the whole domain, the emitters and the moving colliders can explain. */
static double explainable_speed(const fc_world *w)
{
    double v = sqrt(2.0 * gravity_magnitude(&w->params) * domain_diagonal(w));
    double fastest_emitter = 0.0, fastest_collider = 0.0;
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_EMITTER, e) fastest_emitter = fmax(fastest_emitter, e->emitter.speed);
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_COLLIDER, o) { /* its surface's fastest point: v + |omega| reach */
        const float *c = o->shape.velocity, *spin = o->shape.angular_velocity;
        float extent[3];
        fc_shape_extent(&o->shape, extent);
        const double reach = o->shape.kind == FC_SHAPE_PLANE ? 0.0 : sqrt(extent[0] * extent[0] + extent[1] * extent[1] +
                                                                          (w->dimensions == 2 ? 0.0 : extent[2] * extent[2]));
        fastest_collider = fmax(fastest_collider, sqrt((double)c[0] * c[0] + (double)c[1] * c[1] + (double)c[2] * c[2]) +
                                                      reach * sqrt(spin[0] * spin[0] + spin[1] * spin[1] + spin[2] * spin[2]));
    }
    return 2.0 * v + fastest_emitter + fastest_collider + 1.0;
}

/* The method's length scale (the SPH family's smoothing radius, a grid's cell; fc_solver.length_scale). */
static double length_scale(const fc_world *w)
{
    return fc_solver_length_scale(w->solver, &w->params);
}

static double sound_speed(const fc_world *w)
{
    return w->solver && w->solver->sound_speed ? w->solver->sound_speed(&w->params) : 0.0;
}

/* Adds a suggested value to r (at most FC_STABILITY_MAX_SUGGESTED). */
static void suggest(fc_instability *r, const char *name, double value)
{
    if (r->suggested_count < FC_STABILITY_MAX_SUGGESTED)
        r->suggested[r->suggested_count++] = (fc_suggestion){name, value};
}

/* A value rounded to two significant digits, toward safety (down for a step, up for a speed). */
static double two_digits(double v, int up)
{
    if (!(v > 0.0)) return v;
    const double scale = pow(10.0, floor(log10(v)) - 1.0);
    return (up ? ceil(v / scale) : floor(v / scale)) * scale;
}

/* The temperatures the world's sources hold: its fluids' (each particle is born at its fluid's or
 * its emitter's), its emitters', and with heat conduction on its hot and cold walls and colliders;
 * conduction and contact only average between them. 0 when no source has a temperature. */
static int source_temperatures(const fc_world *w, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
#define TAKE(t) do { const double t_ = (t); if (t_ > 0.0) *lo = fmin(*lo, t_), *hi = fmax(*hi, t_); } while (0)
    for (int f = 0; f < w->fluid_count; f++) TAKE(w->fluids[f].temperature);
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_EMITTER, e) TAKE(e->emitter.temperature);
    if (w->params.heat_conduction) {
        for (int side = 0; side < (w->dimensions == 2 ? 4 : 6); side++)
            if (w->walls[side].heat_transfer > 0.0f) TAKE(w->walls[side].temperature);
        FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_COLLIDER, o)
        if (o->thermal.heat_transfer > 0.0f) TAKE(o->thermal.temperature);
    }
#undef TAKE
    return *lo <= *hi;
}

/* A closed container its emitters have filled (or fill within FULL_SOON_S): its fluid is squeezed. No
 * parameter fixes it, so nothing is suggested. 1 when it explained. */
#define FULL_SOON_S 1.0
static int explain_full(const fc_world *w, fc_instability *r)
{
    fc_fill_estimate fill;
    fc_emitters_fill_estimate(w, &fill);
    if (!(fill.seconds < FULL_SOON_S)) return 0;
    snprintf(r->cause, sizeof r->cause,
             "the container is full: no sink drains it, and its emitters add %.0f particles/s to the %.3g %s left (full "
             "in about %.2g s), so the fluid is squeezed; remove an emitter or lower its rate, or add a sink",
             fill.rate, fill.free_volume, w->dimensions == 2 ? "m^2" : "m^3", fill.seconds);
    return 1;
}

/* Thermal expansion as the cause: a fluid whose rest density, 1 - beta (T - T_ref) of its own over
 * the sources' temperatures, leaves [1 - HEAT_EXPANSION_SAFE, 1 + HEAT_EXPANSION_SAFE]: a weakly
 * compressible fluid holds its density within about 1%, and a particle whose rest density differs
 * from its neighbours' by tens of percent pushes them with many times the pressure of the rest
 * (the Tait equation's seventh power). Suggests the thermal_expansion that keeps every fluid
 * within the range. 1 when it explained. */
#define HEAT_EXPANSION_SAFE 0.05
static int explain_heat(const fc_world *w, fc_instability *r)
{
    double lo, hi;
    if (!source_temperatures(w, &lo, &hi)) return 0;
    double worst = 0.0, safest = INFINITY, e_lo = 1.0, e_hi = 1.0;
    int fluid = -1;
    for (int f = 0; f < w->fluid_count; f++) {
        const double beta = w->fluids[f].thermal_expansion, t_ref = w->fluids[f].temperature;
        if (!(beta > 0.0)) continue;
        const double reach = fmax(fabs(hi - t_ref), fabs(lo - t_ref)); /* the farthest from T_ref */
        const double shift = beta * reach;
        safest = fmin(safest, HEAT_EXPANSION_SAFE / reach);
        if (shift > worst) {
            worst = shift, fluid = f;
            e_lo = fmax(1.0 - beta * (hi - t_ref), 1.0 - FC_HEAT_EXPANSION_RANGE);
            e_hi = fmin(1.0 - beta * (lo - t_ref), 1.0 + FC_HEAT_EXPANSION_RANGE);
        }
    }
    if (fluid < 0 || worst <= HEAT_EXPANSION_SAFE) return 0;
    const fc_fluid *f = &w->fluids[fluid];
    const double fix = two_digits(safest, 0);
    snprintf(r->cause, sizeof r->cause,
             "heat: %s's thermal_expansion %g 1/K between the temperatures of the world's heat sources, %.4g K to "
             "%.4g K (walls, colliders, emitters; reference %.4g K), asks rest densities from %.2g to %.2g times its "
             "own, and a weakly compressible fluid holds about 1%%: set thermal_expansion to %.2g 1/K or less (rest "
             "densities within %.0f%%), or bring the hot and cold walls' temperatures closer to %.4g K",
             f->name, f->thermal_expansion, lo, hi, f->temperature, e_lo, e_hi, fix, 100.0 * HEAT_EXPANSION_SAFE,
             f->temperature);
    suggest(r, "thermal_expansion", fix);
    r->rewind_to_change = 1; /* the expanded and squeezed fluid of now would meet the new rest densities at once */
    return 1;
}

void fc_stability_explain(const fc_world *w, const fc_world_stats *s, fc_instability *r)
{
    const fc_params *p = &w->params;
    const double dt = w->last_dt > 0.0 ? w->last_dt : p->time_step, h = length_scale(w);
    const char *length = fc_solver_length_name(w->solver);
    const double g = gravity_magnitude(p), c = sound_speed(w);
    const int linear = p->equation_of_state == FC_EOS_LINEAR, fixed = !p->adaptive_time_step;
    char *out = r->cause;
    const size_t outlen = sizeof r->cause;
    r->suggested_count = 0;
    r->rewind_to_change = 0;
    const double acoustic = c * dt / h;
    if (fixed && c > 0.0 && acoustic > STABLE_ACOUSTIC_CFL) {
        char sound[96];
        if (linear) snprintf(sound, sizeof sound, "stiffness %g Pa m^3/kg (a speed of sound of %g m/s)", p->stiffness, c);
        else snprintf(sound, sizeof sound, "speed_of_sound %g m/s", c);
        snprintf(out, outlen,
                 "the fixed time_step %g s is too long for %s and a %s of %g m: the acoustic CFL number c dt / h "
                 "is %.3g, stable below about %.1f; turn adaptive_time_step back on (or use time_step %.2g s or less)",
                 dt, sound, length, h, acoustic, STABLE_ACOUSTIC_CFL, two_digits(STABLE_ACOUSTIC_CFL * h / c, 0));
        suggest(r, "adaptive_time_step", 1.0);
        return;
    }
    if (fixed && g > 0.0 && dt > STABLE_FORCE_CFL * sqrt(h / g)) {
        snprintf(out, outlen,
                 "the fixed time_step %g s is too long for gravity %g m/s^2 and a %s of %g m: keep it below "
                 "0.25 sqrt(h / |g|) = %.2g s, or turn adaptive_time_step back on", dt, g, length, h,
                 STABLE_FORCE_CFL * sqrt(h / g));
        suggest(r, "adaptive_time_step", 1.0);
        return;
    }
    if (explain_full(w, r) || explain_heat(w, r)) return;
    double expected = sqrt(2.0 * g * domain_diagonal(w));
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_EMITTER, e) expected = fmax(expected, e->emitter.speed);
    if (c > 0.0 && expected > 0.1 * c) {
        snprintf(out, outlen,
                 "flows of about %.3g m/s (gravity %g m/s^2 across the %.3g m domain, or an emitter) need a speed of "
                 "sound of 10 times that, %.3g m/s, and the model has %.3g m/s: raise %s, or lower the gravity or the "
                 "emitters' speed", expected, g, domain_diagonal(w), 10.0 * expected, c,
                 linear ? "stiffness" : "speed_of_sound");
        const double wanted = two_digits(10.0 * expected, 1);
        if (linear) suggest(r, "stiffness", two_digits(wanted * wanted, 1));
        else suggest(r, "speed_of_sound", wanted);
        return;
    }
    if (fixed) {
        snprintf(out, outlen,
                 "the fastest particle (%.3g m/s) crosses %.2g times the %s per fixed step of %g s: turn "
                 "adaptive_time_step back on, or lower time_step", s ? s->max_speed : 0.0,
                 s ? s->max_speed * dt / h : 0.0, length, dt);
        suggest(r, "adaptive_time_step", 1.0);
        return;
    }
    const double cfl = fmax(two_digits(0.5 * p->cfl_number, 0), 0.05);
    snprintf(out, outlen,
             "the fastest particle (%.3g m/s) crosses %.2g times the %s per step of %.3g s even with the adaptive step "
             "(cfl_number %g, time_step %g s): lower cfl_number to %g and time_step to %.2g s",
             s ? s->max_speed : 0.0, s ? s->max_speed * dt / h : 0.0, length, dt, p->cfl_number, p->time_step, cfl,
             two_digits(0.5 * p->time_step, 0));
    suggest(r, "cfl_number", cfl);
    suggest(r, "time_step", two_digits(0.5 * p->time_step, 0));
}

int fc_world_check_stability(const fc_world *w, const fc_world_stats *s, fc_instability *r)
{
    const fc_params *p = &w->params;
    const double dt = w->last_dt > 0.0 ? w->last_dt : p->time_step, h = length_scale(w);
    const double limit = explainable_speed(w);
    memset(r, 0, sizeof *r);
    if (s->has_nan) {
        r->check = "non_finite";
        snprintf(r->message, sizeof r->message, "a particle's position or velocity is not a finite number");
    } else if (s->max_speed * dt / h > 1.0) {
        r->check = "speed";
        snprintf(r->message, sizeof r->message,
                 "a particle moves at %.3g m/s, %.2g times the %s per step (CFL number v dt / h above 1): the "
                 "method cannot follow it", s->max_speed, s->max_speed * dt / h, fc_solver_length_name(w->solver));
    } else if (s->rms_speed > limit) {
        r->check = "speed";
        snprintf(r->message, sizeof r->message,
                 "the fluid moves at %.3g m/s (RMS), more than the %.3g m/s that gravity, emitters and colliders can "
                 "explain", s->rms_speed, limit);
    } else if (!(w->solver && w->solver->check_stability && w->solver->check_stability(w, s, r))) {
        return 0;
    }
    fc_stability_explain(w, s, r);
    return 1;
}

void fc_instability_solver_failed(const fc_world *w, fc_instability *r)
{
    memset(r, 0, sizeof *r);
    r->check = "solver_failed";
    if (w->step_failure[0]) snprintf(r->message, sizeof r->message, "%s", w->step_failure);
    else snprintf(r->message, sizeof r->message, "the %s solver failed at step %llu (out of memory, or a state it cannot step)",
             w->solver ? w->solver->name : "world's", (unsigned long long)w->step_count);
    fc_stability_explain(w, NULL, r);
}

int fc_stability_watch_step(fc_stability_watch *watch, const fc_world *w, const fc_world_stats *s, fc_instability *r)
{
    if (!fc_world_check_stability(w, s, r)) {
        watch->strikes = 0;
        return 0;
    }
    watch->strikes++;
    return strcmp(r->check, "non_finite") == 0 || watch->strikes >= FC_STABILITY_STRIKES;
}
