/* The serve command: checks its options, then runs the server (server/net/server.c). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli/cli.h"
#include "core/budget.h"
#include "core/scene.h"
#include "core/scene_list.h"
#include "core/solver.h"
#include "net/server.h"

enum { MAX_CLIENTS = 10000, MAX_TOKEN_CHARS = 256, MAX_FPS = 120, MAX_PARTICLES = 1000000000 };
#define MIN_LOOP_S 0.1     /* --loop: a rebuild every few steps at most */
#define MAX_LOOP_S 86400.0 /* a simulated day */

void fc_cli_serve_usage(FILE *out)
{
    fputs("  fluidcast serve [--scene NAME|FILE] [--port 8080] [--bind 127.0.0.1] [--backend auto|cpu|cuda]\n"
          "                  [--threads N] [--fps 30] [--token SECRET] [--max-clients 256] [--max-worlds 8]\n"
          "                  [--open] [--fast] [--set NAME=VALUE]... [--solver sph|pbf] [--web DIR]\n"
          "                  [--max-particles N] [--no-wait] [--loop SECONDS] [--public-url URL]\n"
          "      Serves the viewer, /healthz, /metrics and the WebSocket protocol (protocol/PROTOCOL.md)\n"
          "      on one port, with the scene (default dam_break) as world 1. --port 0 picks a free port.\n"
          "      World 1 waits at t = 0, paused, until a client subscribes to it, then plays; --no-wait\n"
          "      starts it at once. --loop SECONDS: world 1 is rebuilt from its scene every SECONDS of\n"
          "      simulated time (0.1 to 86400; for unattended screens).\n"
          "      The startup lines print the presenter's URL (with ?token= under --token) and the room's.\n"
          "      --public-url URL: the address the room reaches the server at (a tunnel's, a reverse\n"
          "      proxy's: http(s)://HOST[:PORT][/PATH]); room links and their QR code show it. Without it\n"
          "      they show this host's network address (with --bind 0.0.0.0 or another address), or\n"
          "      127.0.0.1, which the viewer says only this computer opens.\n"
          "      --token: only clients that present it may control; the others watch. Binding to an\n"
          "      address other than loopback needs --token, or --open to allow anyone to control.\n"
          "      --backend: where the worlds step: auto (the GPU when a usable CUDA device exists and the\n"
          "      solvers run there, else the CPU; the startup line says which and why), cpu, or cuda\n"
          "      (exit status 1 with the reason when it cannot be used).\n"
          "      --solver: world 1 runs with this solver instead of its scene's.\n"
          "      --fast: world 1 steps as fast as it can instead of following the wall clock.\n"
          "      --fps: frames published per second and world, at most (1-120).\n"
          "      --threads: OpenMP threads, divided between the worlds (default: cores - 1, leaving\n"
          "      one core to the network thread).\n"
          "      --web: the built viewer (default web/dist of the source tree; FLUIDCAST_WEB_DIR).\n"
          "      --max-particles: particles (fluid and boundary) of all worlds together; requests that\n"
          "      would need more are refused (over_budget). Default: what --threads step in about 2 s,\n"
          "      within half the memory available at start.\n",
          out);
}

typedef struct serve_args {
    const char *scene, *solver, *port, *bind, *backend, *token, *web, *public_url;
    long threads, max_clients, max_worlds, max_particles;
    double fps, loop;
    int open, fast, help, no_wait;
    fc_opt_list sets;
} serve_args;

static int usage_error(const char *err)
{
    fprintf(stderr, "fluidcast serve: %s\nRun 'fluidcast --help' for usage.\n", err);
    return FC_EXIT_USAGE;
}

static int is_loopback(const char *address)
{
    return strncmp(address, "127.", 4) == 0 || strcmp(address, "::1") == 0 || strcmp(address, "localhost") == 0;
}

/* "0".."65535", digits only. */
static int parse_port(const char *text, int *port)
{
    char *end;
    if (!text[0] || strspn(text, "0123456789") != strlen(text) || strlen(text) > 5) return -1;
    long value = strtol(text, &end, 10);
    if (value > 65535) return -1;
    *port = (int)value;
    return 0;
}

/* --set NAME=VALUE (or FLUID.NAME=VALUE) as a checked parameter value; whether the fluid exists is
 * checked when the world is built from the scene. */
static int parse_set(const char *assignment, fc_param_values *values, char *err, size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    char name[128], why[256];
    if (!eq || eq == assignment || (size_t)(eq - assignment) >= sizeof name) {
        snprintf(err, errlen, "--set %s: expected NAME=VALUE", assignment);
        return -1;
    }
    snprintf(name, sizeof name, "%.*s", (int)(eq - assignment), assignment);
    fc_param_value v = {0};
    if (fc_param_split(name, &v.desc, v.fluid, why, sizeof why)) {
        snprintf(err, errlen, "--set %s: %s", assignment, why);
        return -1;
    }
    if (fc_param_parse(v.desc, eq + 1, &v.number, why, sizeof why)) {
        snprintf(err, errlen, "--set %s: %s", assignment, why);
        return -1;
    }
    if (values->count == FC_COMMAND_MAX_VALUES) {
        snprintf(err, errlen, "--set: at most %d values", FC_COMMAND_MAX_VALUES);
        return -1;
    }
    values->item[values->count++] = v;
    return 0;
}

/* One core fewer than the machine has (at least one): the network thread gets a core of its own,
 * so that the solver's threads never wait for a descheduled one (bench/RESULTS.md, "Server"). */
static int default_threads(void)
{
#ifdef _OPENMP
    int cores = omp_get_num_procs();
    return cores > 1 ? cores - 1 : 1;
#else
    return 1;
#endif
}

/* Half the memory available now (MemAvailable of /proc/meminfo, else half the physical memory). */
static double memory_budget_bytes(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    double kib = 0.0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kib) == 1) break;
    if (f) fclose(f);
    if (kib > 0.0) return 0.5 * kib * 1024.0;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? 0.5 * (double)pages * (double)page : 1e9;
}

/* Particles that `threads` threads step in about STEP_TARGET_S: PBF with 4 iterations, the slower
 * solver, takes about 1 us per particle and thread (bench/RESULTS.md, "PBF": 47 ms for 100k with
 * 2 threads), 1.25 with its boundary and a margin ("Budgets"). */
#define STEP_TARGET_S 2.0
#define SECONDS_PER_PARTICLE_STEP 1.25e-6
/* The bytes one more fluid particle of the default solver with the default parameters takes. */
static double bytes_per_particle(void)
{
    fc_params p;
    fc_params_defaults(&p);
    const float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {1.0f, 1.0f, 1.0f};
    fc_cost_query q = {.params = &p, .dims = 3, .fluid = 0.0, .lo = lo, .hi = hi};
    const fc_solver *s = fc_solver_find("sph");
    const double without = fc_solver_cost(s, &q).cost.bytes;
    q.fluid = 1.0;
    return fc_solver_cost(s, &q).cost.bytes - without;
}

static long default_particle_budget(int threads, double memory_bytes)
{
    double by_time = STEP_TARGET_S * (threads > 0 ? threads : 1) / SECONDS_PER_PARTICLE_STEP;
    double by_memory = memory_bytes / bytes_per_particle();
    return (long)(by_time < by_memory ? by_time : by_memory);
}

/* Checks every option into o; an exit status (FC_EXIT_OK to go on). */
/* The scene as worlds and state show it: a file's name without directory and ".json". */
static const char *scene_name(const char *arg, char *name, size_t namelen)
{
    const char *slash = strrchr(arg, '/');
    const char *base = slash ? slash + 1 : arg;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0) len -= 5;
    snprintf(name, namelen, "%.*s", (int)len, base);
    return name;
}

/* url_out: room for the checked --public-url (FC_PUBLIC_URL_BYTES). */
#define FC_PUBLIC_URL_BYTES 520
static int check_options(serve_args *a, fc_server_options *o, char *path, size_t pathlen, char *name, size_t namelen,
                         char *url_out)
{
    char err[1200];
    if (fc_scene_resolve(a->scene, path, pathlen)) {
        char near[300];
        snprintf(err, sizeof err, "--scene %s: no such scene file or shipped scene%s (fluidcast scenes lists them)",
                 a->scene, fc_scene_did_you_mean(a->scene, near, sizeof near));
        return usage_error(err);
    }
    o->scene_path = path;
    o->scene = scene_name(a->scene, name, namelen);
    char why[300];
    if (a->solver && !fc_solver_lookup(a->solver, why, sizeof why)) {
        snprintf(err, sizeof err, "--solver: %s", why);
        return usage_error(err);
    }
    o->solver = a->solver;
    if (parse_port(a->port, &o->port)) return usage_error("--port: expected a number from 0 to 65535");
    const int backend = fc_cli_backend("serve", a->backend, &o->backend);
    if (backend != FC_EXIT_OK) return backend;
    if (a->fps > MAX_FPS) return usage_error("--fps: expected a number from 1 to 120");
    if (a->fps < 1) return usage_error("--fps: expected a number from 1 to 120");
    if (a->loop != 0.0 && (a->loop < MIN_LOOP_S || a->loop > MAX_LOOP_S)) {
        snprintf(err, sizeof err, "--loop: expected simulated seconds from %g to %g, got %g", MIN_LOOP_S, MAX_LOOP_S,
                 a->loop);
        return usage_error(err);
    }
    if (a->max_clients > MAX_CLIENTS) return usage_error("--max-clients: expected at most 10000");
    if (a->max_worlds > FC_WORLDS_MAX) return usage_error("--max-worlds: expected at most 64");
    if (a->threads > 4096) return usage_error("--threads: expected at most 4096");
    if (a->max_particles > MAX_PARTICLES) return usage_error("--max-particles: expected at most 1000000000");
    if (a->token && (!a->token[0] || strlen(a->token) > MAX_TOKEN_CHARS))
        return usage_error("--token: expected 1 to 256 characters");
    if (!is_loopback(a->bind) && !a->token && !a->open)
        return usage_error("--bind to an address other than loopback lets anyone on the network control the "
                           "worlds: give --token SECRET (controllers present it), or --open to allow it");
    if (a->public_url) {
        char why[1100];
        if (fc_public_url_check(a->public_url, url_out, FC_PUBLIC_URL_BYTES, why, sizeof why)) {
            snprintf(err, sizeof err, "--public-url: %s", why);
            return usage_error(err);
        }
        o->public_url = url_out;
    }
    memset(&o->values, 0, sizeof o->values);
    for (size_t i = 0; i < a->sets.count; i++)
        if (parse_set(a->sets.items[i], &o->values, err, sizeof err)) return usage_error(err);
    o->bind = a->bind;
    o->token = a->token;
    o->max_clients = (int)a->max_clients;
    o->max_worlds = (int)a->max_worlds;
    o->threads = (int)a->threads;
    o->max_bytes = memory_budget_bytes();
    o->max_particles = a->max_particles ? a->max_particles : default_particle_budget(o->threads, o->max_bytes);
    o->fps = a->fps;
    o->realtime = !a->fast;
    o->wait = !a->no_wait;
    o->loop = a->loop;
    o->web_dir = a->web;
    return FC_EXIT_OK;
}

int fc_cli_serve(int argc, char **argv)
{
    const char *web_env = getenv("FLUIDCAST_WEB_DIR");
    serve_args a = {.scene = "dam_break", .port = "8080", .bind = "127.0.0.1", .backend = "auto",
                    .web = web_env && web_env[0] ? web_env : FLUIDCAST_WEB_DIR, .threads = default_threads(),
                    .max_clients = 256, .max_worlds = 8, .fps = 30.0};
    fc_opt opts[] = {
        {"--scene", FC_OPT_TEXT, &a.scene, 0},         {"--port", FC_OPT_TEXT, &a.port, 0},
        {"--bind", FC_OPT_TEXT, &a.bind, 0},           {"--backend", FC_OPT_TEXT, &a.backend, 0},
        {"--threads", FC_OPT_COUNT, &a.threads, 0},    {"--fps", FC_OPT_NUMBER, &a.fps, 0},
        {"--token", FC_OPT_TEXT, &a.token, 0},         {"--max-clients", FC_OPT_COUNT, &a.max_clients, 0},
        {"--max-worlds", FC_OPT_COUNT, &a.max_worlds, 0}, {"--open", FC_OPT_FLAG, &a.open, 0},
        {"--max-particles", FC_OPT_COUNT, &a.max_particles, 0},
        {"--fast", FC_OPT_FLAG, &a.fast, 0},           {"--set", FC_OPT_LIST, &a.sets, 0},
        {"--web", FC_OPT_TEXT, &a.web, 0},             {"--solver", FC_OPT_TEXT, &a.solver, 0},
        {"--no-wait", FC_OPT_FLAG, &a.no_wait, 0},     {"--loop", FC_OPT_NUMBER, &a.loop, 0},
        {"--public-url", FC_OPT_TEXT, &a.public_url, 0},
        {"--help", FC_OPT_FLAG, &a.help, 0},
        {"-h", FC_OPT_FLAG, &a.help, 0}};
    char err[256], path[4096], name[260], public_url[FC_PUBLIC_URL_BYTES];
    int status;
    fc_server_options o;
    memset(&o, 0, sizeof o);
    if (fc_opts_parse(opts, sizeof opts / sizeof opts[0], argc, argv, err, sizeof err)) {
        status = usage_error(err);
    } else if (a.help) {
        fc_cli_serve_usage(stdout);
        status = FC_EXIT_OK;
    } else {
        status = check_options(&a, &o, path, sizeof path, name, sizeof name, public_url);
        if (status == FC_EXIT_OK) status = fc_server_run(&o);
    }
    fc_opt_list_free(&a.sets);
    return status;
}
