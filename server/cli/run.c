/* The run command: load a scene, apply --set, step the world with progress, stats and PLY export. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_max_threads(void) { return 1; }
static void omp_set_num_threads(int n) { (void)n; }
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/scene.h"
#include "core/scene_list.h"
#include "core/solver.h"
#include "core/world.h"
#include "host/history.h"

enum { MAX_THREADS = 4096, MAX_REWINDS = 5 };
#define DOMAIN_SLACK 1e-4f /* m: float rounding at the walls */

/* What follows a blow-up (--on-blowup). */
typedef enum { ON_BLOWUP_STOP, ON_BLOWUP_REWIND, ON_BLOWUP_CONTINUE } on_blowup;

typedef struct run_args {
    const char *scene, *solver, *export_dir, *stats_path, *backend, *on_blowup_name;
    fc_opt_list sets;
    long steps, every, threads;
    double time;
    int quiet, help, fixed_step;
    on_blowup on_blowup;
} run_args;

/* What the loop measured. */
typedef struct run_record {
    double *step_ms;
    size_t count, capacity;
    double total_ms;        /* wall time inside fc_world_step */
    double particle_steps;  /* particles summed over steps */
    double neighbours_sum;  /* mean neighbours summed over the steps whose stats were computed */
    size_t neighbour_samples;
    size_t frames;
} run_record;

typedef struct run_state {
    const run_args *args;
    fc_world world;
    fc_world_history history;  /* the server's blow-up watch and checkpoints (host/history.h) */
    int blowups, rewinds;      /* blow-ups seen, rewinds made (--on-blowup) */
    fc_instability last_blowup;
    char tried[1024];          /* --on-blowup rewind: each rewind's check and the values it set */
    double dt_sum;             /* simulated time in the steps recorded, for the mean dt */
    FILE *stats;
    fc_progress progress;
    run_record rec;
    fc_backend_choice backend; /* where it steps and why (fc_cli_backend) */
    char err[1024];
} run_state;

void fc_cli_run_usage(FILE *out)
{
    fputs("  fluidcast run --scene FILE|NAME (--steps N | --time T) [options]\n"
          "      Runs a scene without the server and prints a summary on stdout.\n"
          "      --scene FILE|NAME  a scene file, or the name of a shipped scene (fluidcast scenes)\n"
          "      --set NAME=VALUE   overrides a parameter of the scene; repeatable (fluidcast params);\n"
          "                         FLUID.NAME=VALUE sets one fluid's (--set water.viscosity=1)\n"
          "      --solver NAME      runs the scene with this solver instead of its own (sph, pbf)\n"
          "      --steps N          runs N time steps\n"
          "      --time T           runs until T simulated seconds\n"
          "      --export DIR       writes PLY frames DIR/frame_NNNNNN.ply (created if missing) ...\n"
          "      --every K          ... after every K-th step, and the initial state as frame 0\n"
          "      --stats FILE       writes one JSON object per step (JSON lines)\n"
          "      --threads N        OpenMP threads (default: all cores, or OMP_NUM_THREADS)\n"
          "      --backend B        auto (default), cpu or cuda: where it steps; cuda exits 1 with the\n"
          "                         reason when it cannot be used\n"
          "      --fixed-step       every step is time_step long (adaptive_time_step off); by default\n"
          "                         each step is the longest the solver's stability conditions allow\n"
          "      --on-blowup WHAT   what follows when the stability watch fires (the server's checks):\n"
          "                         stop (default: exit status 3, the summary says why), rewind (back\n"
          "                         to the last checkpoint with the suggested values, which stay set;\n"
          "                         at most 5 times, and it stops when nothing new is suggested) or\n"
          "                         continue (report it and run on; exit status 3 at the end)\n"
          "      --quiet            no progress on stderr\n",
          out);
}

/* ---- arguments ---- */

static int parse_on_blowup(const char *name, on_blowup *out)
{
    static const char *const names[] = {"stop", "rewind", "continue"};
    for (int i = 0; i < 3; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (on_blowup)i;
            return 0;
        }
    return -1;
}

static int check_args(run_args *a, char *err, size_t errlen)
{
    char why[300];
    on_blowup parsed = ON_BLOWUP_STOP;
    if (!a->scene) snprintf(err, errlen, "--scene FILE|NAME is required");
    else if (a->solver && !fc_solver_lookup(a->solver, why, sizeof why)) snprintf(err, errlen, "--solver: %s", why);
    else if (a->steps && a->time > 0.0) snprintf(err, errlen, "--steps and --time exclude each other; give one");
    else if (!a->steps && !(a->time > 0.0)) snprintf(err, errlen, "one of --steps N or --time T is required");
    else if (a->every && !a->export_dir) snprintf(err, errlen, "--every needs --export DIR");
    else if (a->export_dir && !a->every) snprintf(err, errlen, "--export needs --every K");
    else if (a->export_dir && !a->export_dir[0]) snprintf(err, errlen, "--export: empty directory name");
    else if (a->threads > MAX_THREADS) snprintf(err, errlen, "--threads: at most %d, got %ld", MAX_THREADS, a->threads);
    else if (a->on_blowup_name && parse_on_blowup(a->on_blowup_name, &parsed))
        snprintf(err, errlen, "--on-blowup: expected one of stop, rewind, continue, got '%s'", a->on_blowup_name);
    else {
        a->on_blowup = parsed;
        return 0;
    }
    return -1;
}

static int parse_args(int argc, char **argv, run_args *a, char *err, size_t errlen)
{
    fc_opt opts[] = {
        {"--scene", FC_OPT_TEXT, &a->scene, 0},      {"--set", FC_OPT_LIST, &a->sets, 0},
        {"--solver", FC_OPT_TEXT, &a->solver, 0},
        {"--steps", FC_OPT_COUNT, &a->steps, 0},     {"--time", FC_OPT_NUMBER, &a->time, 0},
        {"--export", FC_OPT_TEXT, &a->export_dir, 0}, {"--every", FC_OPT_COUNT, &a->every, 0},
        {"--stats", FC_OPT_TEXT, &a->stats_path, 0}, {"--threads", FC_OPT_COUNT, &a->threads, 0},
        {"--quiet", FC_OPT_FLAG, &a->quiet, 0},      {"--help", FC_OPT_FLAG, &a->help, 0},
        {"--backend", FC_OPT_TEXT, &a->backend, 0},
        {"--fixed-step", FC_OPT_FLAG, &a->fixed_step, 0}, {"--on-blowup", FC_OPT_TEXT, &a->on_blowup_name, 0},
        {"-h", FC_OPT_FLAG, &a->help, 0},
    };
    if (fc_opts_parse(opts, sizeof opts / sizeof opts[0], argc, argv, err, errlen)) return -1;
    return a->help ? 0 : check_args(a, err, errlen);
}

/* ---- scene ---- */

static int apply_sets(fc_scene *scene, const fc_opt_list *sets)
{
    char err[1024];
    for (size_t i = 0; i < sets->count; i++) {
        if (fc_param_assign_scoped(&scene->params, scene->fluids, scene->fluid_count, sets->items[i], err, sizeof err) == 0)
            continue;
        fprintf(stderr, "fluidcast run: --set %s: %s\n", sets->items[i], err);
        return FC_EXIT_USAGE;
    }
    return FC_EXIT_OK;
}

/* Resolves and parses the scene, applies every --set, builds the world; returns an exit status. */
static int load_world(const run_args *a, fc_backend_choice *backend, fc_world *w)
{
    char path[4096], err[1024];
    if (fc_scene_resolve(a->scene, path, sizeof path) != 0) {
        const char *dir = getenv("FLUIDCAST_SCENES_DIR");
        char near[300];
        fprintf(stderr, "fluidcast run: --scene: scene '%s' not found%s (no such file, and no such scene in %s)\n",
                a->scene, fc_scene_did_you_mean(a->scene, near, sizeof near), dir && dir[0] ? dir : FLUIDCAST_SCENES_DIR);
        return FC_EXIT_USAGE;
    }
    fc_scene scene;
    if (fc_scene_parse_file(&scene, path, err, sizeof err) != 0) {
        fprintf(stderr, "fluidcast run: %s\n", err);
        return FC_EXIT_FAILURE;
    }
    if (a->solver && strcmp(a->solver, scene.solver) != 0) { /* checked in check_args; its own step */
        snprintf(scene.solver, sizeof scene.solver, "%s", a->solver);
        fc_solver_fit_time_step(fc_solver_find(a->solver), &scene.params);
    }
    fc_solver_fit_backend(fc_solver_find(scene.solver), backend);
    scene.backend = backend->kind;
    if (a->fixed_step) scene.params.adaptive_time_step = 0;
    int status = apply_sets(&scene, &a->sets);
    if (status == FC_EXIT_OK && fc_scene_instantiate(&scene, w, err, sizeof err) != 0) {
        fprintf(stderr, "fluidcast run: %s\n", err);
        status = FC_EXIT_FAILURE;
    }
    fc_scene_free(&scene);
    return status;
}

/* ---- outputs ---- */

/* mkdir -p: creates every missing directory of path. */
static int make_dirs(const char *path, char *err, size_t errlen)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        snprintf(err, errlen, "--export: path too long");
        return -1;
    }
    for (char *c = buf + 1;; c++) {
        char saved = *c;
        if (saved != '/' && saved != '\0') continue;
        *c = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "--export: cannot create %.900s: %s", buf, strerror(errno));
            return -1;
        }
        *c = saved;
        if (!saved) break;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "--export: %s is not a directory", path);
        return -1;
    }
    return 0;
}

static int open_outputs(run_state *s)
{
    const run_args *a = s->args;
    if (a->export_dir && make_dirs(a->export_dir, s->err, sizeof s->err)) return -1;
    if (a->stats_path && !(s->stats = fopen(a->stats_path, "w"))) {
        snprintf(s->err, sizeof s->err, "--stats: cannot open %s: %s", a->stats_path, strerror(errno));
        return -1;
    }
    return 0;
}

static int close_outputs(run_state *s)
{
    if (!s->stats) return 0;
    int failed = ferror(s->stats) | (fclose(s->stats) != 0);
    s->stats = NULL;
    if (!failed) return 0;
    if (!s->err[0]) snprintf(s->err, sizeof s->err, "--stats: writing %s failed", s->args->stats_path);
    return -1;
}

/* A JSON number, or null where JSON has none (NaN, infinity). */
static void json_field(FILE *f, const char *key, double value, const char *after)
{
    if (isfinite(value)) fprintf(f, "\"%s\":%.9g%s", key, value, after);
    else fprintf(f, "\"%s\":null%s", key, after);
}

static void write_stats_line(FILE *f, const fc_world *w, double wall_ms, const fc_world_stats *st)
{
    fprintf(f, "{\"step\":%llu,", (unsigned long long)w->step_count);
    json_field(f, "time", w->time, ",");
    json_field(f, "dt", w->last_dt, ",");
    fprintf(f, "\"dt_bound\":\"%s\",", fc_dt_bound_name(w->last_dt_bound));
    json_field(f, "wall_ms", wall_ms, ",");
    fprintf(f, "\"particles\":%zu,", st->particles);
    json_field(f, "max_speed", st->max_speed, ",");
    json_field(f, "rms_speed", st->rms_speed, st->solver_stat_count ? "," : "}\n");
    /* the solver's own statistics (the SPH family's density errors, neighbours, heat and air) */
    for (int i = 0; i < st->solver_stat_count; i++)
        json_field(f, st->solver_stat[i].name, st->solver_stat[i].value, i + 1 < st->solver_stat_count ? "," : "}\n");
}

static int export_frame(run_state *s)
{
    fc_world *w = &s->world;
    if (!s->args->export_dir || w->step_count % (uint64_t)s->args->every != 0) return 0;
    fc_world_sync_to_host(w, FC_SYNC_ALL);
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/frame_%06llu.ply", s->args->export_dir, (unsigned long long)w->step_count);
    if (fc_ply_write_file(path, &w->particles, w->time, err, sizeof err) != 0) {
        snprintf(s->err, sizeof s->err, "--export: %s", err);
        return -1;
    }
    s->rec.frames++;
    return 0;
}

/* ---- the loop ---- */

static int finished(const run_args *a, const fc_world *w)
{
    if (a->steps) return w->step_count >= (uint64_t)a->steps;
    return w->time >= a->time * (1.0 - 1e-9); /* summed dt may fall a rounding error short */
}

static int record_step(run_record *r, double ms, size_t particles)
{
    if (r->count == r->capacity) {
        size_t capacity = r->capacity ? 2 * r->capacity : 1024;
        double *grown = realloc(r->step_ms, capacity * sizeof *grown);
        if (!grown) return -1;
        r->step_ms = grown, r->capacity = capacity;
    }
    r->step_ms[r->count++] = ms;
    r->total_ms += ms;
    r->particle_steps += (double)particles;
    return 0;
}

/* The values a blow-up suggests, as --set would write them, into out. */
static void format_suggested(const fc_instability *r, char *out, size_t outlen)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < r->suggested_count && used < outlen; i++) {
        const fc_param_desc *d = fc_param_find(r->suggested[i].name);
        const double v = r->suggested[i].value;
        used += (size_t)snprintf(out + used, outlen - used, "%s--set %s=", i ? " " : "", r->suggested[i].name);
        if (used >= outlen) break;
        if (d && d->type == FC_PARAM_BOOL) used += (size_t)snprintf(out + used, outlen - used, "%s", v != 0.0 ? "true" : "false");
        else used += (size_t)snprintf(out + used, outlen - used, "%g", v);
    }
}

static void report_blowup(const run_state *s, const char *then)
{
    const fc_instability *r = &s->history.why;
    char values[256];
    format_suggested(r, values, sizeof values);
    fprintf(stderr,
            "fluidcast run: the world blew up at t = %.6g s (step %llu), check '%s': %s\n"
            "  likely cause: %s\n%s%s%s  %s\n",
            s->world.time, (unsigned long long)s->world.step_count, r->check, r->message, r->cause,
            values[0] ? "  suggested: " : "", values, values[0] ? "\n" : "", then);
}

/* The blow-up's suggested values as "a=b c=d" into out, and *changes: how many differ from the
 * world's. 0, or -1 with s->err when one names no parameter. */
static int suggested_values(run_state *s, char *out, size_t outlen, int *changes)
{
    const fc_instability *why = &s->history.why;
    size_t used = 0;
    out[0] = '\0';
    *changes = 0;
    for (int i = 0; i < why->suggested_count; i++) {
        const fc_param_desc *d = fc_param_find(why->suggested[i].name);
        if (!d) {
            snprintf(s->err, sizeof s->err, "--on-blowup rewind: the suggested %s: unknown parameter", why->suggested[i].name);
            return -1;
        }
        char shown[64];
        fc_param_format_value(d, why->suggested[i].value, shown, sizeof shown);
        const double now = d->flags & FC_PARAM_FLUID ? fc_fluids_common_value(s->world.fluids, s->world.fluid_count, d)
                                                     : fc_param_get(&s->world.params, d);
        if (now != why->suggested[i].value) (*changes)++; /* NAN (fluids that differ) too */
        if (used < outlen) used += (size_t)snprintf(out + used, outlen - used, "%s%s=%s", i ? " " : "", d->name, shown);
    }
    return 0;
}

/* Puts the world back to the last checkpoint before the blow-up with its suggested values (what the
 * viewer's one click does; they stay set, as parameters set since a checkpoint stay over a rewind).
 * 0, or -1 with s->err. */
static int rewind_with_suggestions(run_state *s)
{
    fc_world *w = &s->world;
    const fc_instability why = s->history.why;
    fc_message_error err;
    double back;
    memset(&err, 0, sizeof err);
    if (fc_history_rewind(&s->history, w, -1.0, &back, NULL, &err)) {
        snprintf(s->err, sizeof s->err, "--on-blowup rewind: %s", err.message);
        return -1;
    }
    for (int i = 0; i < why.suggested_count; i++) {
        const fc_param_desc *d = fc_param_find(why.suggested[i].name);
        char msg[256];
        if (fc_param_set_scoped(&w->params, w->fluids, w->fluid_count, d, NULL, why.suggested[i].value, msg, sizeof msg) == 0)
            continue; /* a fluid-scoped one: every fluid's, as the unscoped name of a `set` */
        snprintf(s->err, sizeof s->err, "--on-blowup rewind: the suggested %s: %s", why.suggested[i].name, msg);
        return -1;
    }
    fc_world_host_changed(w, FC_CHANGED_PARAMS);
    return 0;
}

/* --on-blowup rewind: rewinds with the suggested values, or stops saying what it tried when they
 * are all set already (the same run would blow up the same way) or after MAX_REWINDS. */
static int follow_with_rewind(run_state *s)
{
    char values[256], then[sizeof s->tried + 200];
    int changes;
    if (suggested_values(s, values, sizeof values, &changes)) return -1;
    const char *tried = s->tried[0] ? s->tried : "nothing";
    if (!changes) {
        snprintf(then, sizeof then, "the run stops: the checks suggest nothing it has not set already, so it would "
                 "blow up the same way again; rewinds tried %s", tried);
    } else if (s->rewinds >= MAX_REWINDS) {
        snprintf(then, sizeof then, "the run stops: it blew up again after %d rewinds, which tried %s", MAX_REWINDS, tried);
    } else {
        const size_t used = strlen(s->tried);
        snprintf(s->tried + used, sizeof s->tried - used, "%sat t = %.4g s (%s) %s", used ? "; " : "", s->world.time,
                 s->history.why.check, values);
        report_blowup(s, "going back to the last checkpoint with the suggested values, which stay set (--on-blowup rewind)");
        s->rewinds++;
        return rewind_with_suggestions(s);
    }
    report_blowup(s, then);
    return -1;
}

static int follow_blowup(run_state *s);

/* The blow-up watch of the server after every step (host/history.h: its checks, and a checkpoint
 * every simulated second); --stats writes the statistics it computed. 0: go on; -1: the run ends
 * (s->err says why unless the world stopped unstable). */
static int watch_step(run_state *s, double wall_ms)
{
    fc_world *w = &s->world;
    fc_world_stats st;
    const int blew_up = fc_history_after_step(&s->history, w, &st);
    const double neighbours = fc_world_stat(&st, "mean_neighbours");
    if (!isnan(neighbours)) s->rec.neighbours_sum += neighbours, s->rec.neighbour_samples++;
    if (s->stats) write_stats_line(s->stats, w, wall_ms, &st);
    return blew_up ? follow_blowup(s) : 0;
}

/* What --on-blowup says after the watch fired or the solver failed (s->history.why). 0: go on; -1:
 * the run ends. */
static int follow_blowup(run_state *s)
{
    s->blowups++;
    s->last_blowup = s->history.why;
    switch (s->args->on_blowup) {
    case ON_BLOWUP_STOP:
        report_blowup(s, "the run stops (--on-blowup stop; rewind or continue choose otherwise)");
        return -1;
    case ON_BLOWUP_REWIND: return follow_with_rewind(s);
    case ON_BLOWUP_CONTINUE:
        if (strcmp(s->history.why.check, "solver_failed") == 0) {
            report_blowup(s, "the run stops: a failed step cannot be continued from");
            return -1;
        }
        if (s->blowups <= 3) report_blowup(s, "running on (--on-blowup continue); the summary counts further ones");
        s->history.unstable = 0; /* watch on: the next blow-up is counted again */
        s->history.watch.strikes = 0;
        return 0;
    }
    return 0;
}

static int run_loop(run_state *s)
{
    fc_world *w = &s->world;
    if (s->args->export_dir && fc_world_compute_density(w)) { /* frame 0 shows the real densities */
        snprintf(s->err, sizeof s->err, "out of memory computing the initial densities");
        return -1;
    }
    if (export_frame(s)) return -1;
    fc_history_restart(&s->history, w);
    while (!finished(s->args, w)) {
        double start = fc_wall_seconds();
        int failed = fc_world_step(w);
        double ms = 1e3 * (fc_wall_seconds() - start);
        if (failed) { /* out of memory, or a state it cannot step (piled-up particles): a blow-up */
            fc_history_solver_failed(&s->history, w);
            if (follow_blowup(s)) return -1;
            continue;
        }
        if (record_step(&s->rec, ms, w->particles.count)) {
            snprintf(s->err, sizeof s->err, "out of memory recording step times");
            return -1;
        }
        s->dt_sum += w->last_dt;
        if (watch_step(s, ms) || export_frame(s)) return -1;
        fc_progress_update(&s->progress, w->step_count, w->time, s->rec.total_ms, w->particles.count);
    }
    return 0;
}

/* ---- summary ---- */

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *values, size_t count)
{
    if (!count) return 0.0;
    double *sorted = malloc(count * sizeof *sorted);
    if (!sorted) return NAN;
    memcpy(sorted, values, count * sizeof *sorted);
    qsort(sorted, count, sizeof *sorted, compare_doubles);
    double m = count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
    free(sorted);
    return m;
}

/* How many particles are outside the container (by more than a rounding error). */
static size_t count_outside(fc_world *w)
{
    fc_world_sync_to_host(w, FC_SYNC_POSITION);
    const float *x[3] = {w->particles.field[FC_PX], w->particles.field[FC_PY], w->particles.field[FC_PZ]};
    size_t outside = 0;
    for (size_t i = 0; i < w->particles.count; i++)
        for (int a = 0; a < 3; a++)
            if (!(x[a][i] >= w->domain_lo[a] - DOMAIN_SLACK && x[a][i] <= w->domain_hi[a] + DOMAIN_SLACK)) {
                outside++;
                break;
            }
    return outside;
}

static void print_summary(run_state *s, double wall_seconds)
{
    fc_world *w = &s->world;
    const run_record *r = &s->rec;
    printf("scene            %s (solver %s, %d threads)\n", w->name, w->solver->name, omp_get_max_threads());
    printf("backend          %s on %s: %s\n", fc_backend_name(s->backend.kind), s->backend.device, s->backend.why);
    printf("steps            %zu\n", r->count);
    printf("simulated time   %.6g s\n", w->time);
    printf("particles        %zu\n", w->particles.count);
    const size_t outside = count_outside(w);
    if (outside) printf("domain           %zu particles outside the container\n", outside);
    else printf("domain           every particle inside the container\n");
    printf("wall time        %.3f s (%.3f s in steps)\n", wall_seconds, 1e-3 * r->total_ms);
    printf("median step      %.3f ms\n", median(r->step_ms, r->count));
    double rate = r->total_ms > 0 ? r->particle_steps / (1e-3 * r->total_ms) : 0.0;
    double neighbours = r->neighbour_samples ? r->neighbours_sum / (double)r->neighbour_samples : 0.0;
    printf("throughput       %.4g particle-steps/s\n", rate);
    printf("mean neighbours  %.2f (averaged over the steps)\n", neighbours);
    printf("time step        mean %.4g ms (%s), last %.4g ms bound by %s\n",
           r->count ? 1e3 * s->dt_sum / (double)r->count : 0.0,
           w->params.adaptive_time_step ? "adaptive" : "fixed", 1e3 * w->last_dt, fc_dt_bound_name(w->last_dt_bound));
    printf("per simulated s  %.4g wall s in steps\n", s->dt_sum > 0.0 ? 1e-3 * r->total_ms / s->dt_sum : 0.0);
    if (!s->blowups) printf("stability        no blow-up\n");
    else if (s->history.unstable)
        printf("stability        BLEW UP at t = %.6g s (check %s); stopped\n", s->history.unstable_time,
               s->last_blowup.check);
    else if (s->args->on_blowup == ON_BLOWUP_REWIND)
        printf("stability        %d blow-up(s), the last check %s; rewound each time, setting %s\n", s->blowups,
               s->last_blowup.check, s->tried);
    else
        printf("stability        %d blow-up(s), the last check %s; ran on (exit status 3: the results are not to be "
               "trusted)\n", s->blowups, s->last_blowup.check);
    if (s->args->export_dir) printf("frames           %zu in %s\n", r->frames, s->args->export_dir);
    if (s->args->stats_path) printf("stats            %s\n", s->args->stats_path);
}

/* ---- the command ---- */

static int usage_error(const char *err)
{
    fprintf(stderr, "fluidcast run: %s\nRun 'fluidcast run --help' for usage.\n", err);
    return FC_EXIT_USAGE;
}

static int simulate(run_state *s)
{
    const run_args *a = s->args;
    fc_world *w = &s->world;
    if (open_outputs(s)) return -1;
    if (!a->quiet)
        fprintf(stderr, "fluidcast run: %s: %zu particles, solver %s, dt %s %g s, %d threads\n", w->name,
                w->particles.count, w->solver->name, w->params.adaptive_time_step ? "adaptive up to" : "fixed at",
                w->params.time_step, omp_get_max_threads());
    double start = fc_wall_seconds();
    fc_progress_start(&s->progress, stderr, !a->quiet, a->steps > 0 ? (uint64_t)a->steps : 0, a->time);
    int failed = run_loop(s);
    fc_progress_finish(&s->progress);
    failed |= close_outputs(s);
    const int unstable = failed && !s->err[0] && s->history.unstable;
    if (!failed || unstable) print_summary(s, fc_wall_seconds() - start);
    const int ran_on_blowups = !failed && s->blowups && a->on_blowup == ON_BLOWUP_CONTINUE;
    return unstable || ran_on_blowups ? FC_EXIT_UNSTABLE : failed;
}

int fc_cli_run(int argc, char **argv)
{
    run_args a = {0};
    char err[512];
    if (parse_args(argc, argv, &a, err, sizeof err) != 0) {
        fc_opt_list_free(&a.sets);
        return usage_error(err);
    }
    if (a.help) {
        fc_opt_list_free(&a.sets);
        fputs("Usage:\n", stdout);
        fc_cli_run_usage(stdout);
        return FC_EXIT_OK;
    }
    run_state s = {.args = &a};
    const int chosen = fc_cli_backend("run", a.backend ? a.backend : "auto", &s.backend);
    if (chosen != FC_EXIT_OK) {
        fc_opt_list_free(&a.sets);
        return chosen;
    }
    if (a.threads) omp_set_num_threads((int)a.threads);
    int status = load_world(&a, &s.backend, &s.world);
    if (status == FC_EXIT_OK) {
        const int outcome = simulate(&s);
        if (outcome == FC_EXIT_UNSTABLE) status = outcome;
        else if (outcome != 0) fprintf(stderr, "fluidcast run: %s\n", s.err), status = FC_EXIT_FAILURE;
    }
    fc_history_free(&s.history);
    if (s.stats) fclose(s.stats);
    free(s.rec.step_ms);
    fc_world_free(&s.world);
    fc_opt_list_free(&a.sets);
    return status;
}
