/* The command-line program's pieces: option parsing, the run command, progress output, PLY export. */
#ifndef FC_CLI_H
#define FC_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/backend.h"
#include "core/particles.h"

/* Exit statuses of the program. */
/* FC_EXIT_UNSTABLE: `run` stopped because the world blew up (--on-blowup stop, or rewind out of
 * things to try), or ran on over blow-ups (--on-blowup continue). */
enum { FC_EXIT_OK = 0, FC_EXIT_FAILURE = 1, FC_EXIT_USAGE = 2, FC_EXIT_UNSTABLE = 3 };

/* ---- options.c: "--name value", "--name=value", flags, repeated options, strict numbers ---- */

typedef enum {
    FC_OPT_FLAG,   /* no value; target: int, set to 1 */
    FC_OPT_TEXT,   /* target: const char *, pointing into argv */
    FC_OPT_LIST,   /* repeatable; target: fc_opt_list */
    FC_OPT_COUNT,  /* positive integer; target: long */
    FC_OPT_NUMBER  /* positive finite number; target: double */
} fc_opt_kind;

typedef struct fc_opt_list {
    const char **items; /* pointing into argv */
    size_t count;
} fc_opt_list;

typedef struct fc_opt {
    const char *name;  /* with the dashes: "--steps" */
    fc_opt_kind kind;
    void *target;
    int seen;          /* set by the parser */
} fc_opt;

/* Parses argv[0..argc) (the words after the command) against opts. Positional words, unknown
 * options, missing values, repeats of non-list options and bad numbers are errors; err then
 * names the option or word. Returns 0 or -1. Free lists with fc_opt_list_free either way. */
int fc_opts_parse(fc_opt *opts, size_t count, int argc, char **argv, char *err, size_t errlen);
void fc_opt_list_free(fc_opt_list *list);

/* Strict parsing of a whole word: digits only (no sign, spaces or suffix), greater than zero. */
int fc_parse_count(const char *text, long *out);
/* Strict parsing of a finite number greater than zero ("0.5", "1e-3"; no sign, spaces or suffix). */
int fc_parse_positive(const char *text, double *out);

/* ---- backend_choice.c: --backend auto|cpu|cuda of run and serve ---- */

/* Resolves --backend `arg` (core/backend.h) for the command `command` ("run", "serve"): returns
 * FC_EXIT_OK with the choice in out; FC_EXIT_USAGE for a name that is not a backend, and
 * FC_EXIT_FAILURE when cuda was asked for and cannot be used, each after printing why on stderr. */
int fc_cli_backend(const char *command, const char *arg, fc_backend_choice *out);

/* ---- run.c: the run command ---- */

void fc_cli_run_usage(FILE *out);
/* argv holds the words after "run"; returns the exit status. */
int fc_cli_run(int argc, char **argv);

/* ---- serve.c: the serve command (the server) ---- */

void fc_cli_serve_usage(FILE *out);
/* argv holds the words after "serve"; returns the exit status. */
int fc_cli_serve(int argc, char **argv);

/* ---- progress.c: a progress bar (terminal) or a line every 10% (pipe, file) ---- */

typedef struct fc_progress {
    FILE *out;
    int enabled, tty;
    uint64_t total_steps;     /* 0: the run is bounded by total_time instead */
    double total_time;        /* simulated seconds */
    double start, last_draw;  /* monotonic wall seconds */
    int last_tenth;           /* plain mode: the last 10% mark printed */
    uint64_t last_step;       /* at the last draw, for ms/step over the interval */
    double last_step_ms;
    double ms_per_step;
    /* the latest update, redrawn by fc_progress_finish */
    uint64_t step;
    double sim_time, step_ms_total;
    size_t particles;
} fc_progress;

/* Starts a progress display on out; disabled when enabled is 0 (--quiet). */
void fc_progress_start(fc_progress *p, FILE *out, int enabled, uint64_t total_steps, double total_time);
/* After a step: step number, simulated time, summed wall time of all steps so far, particles. */
void fc_progress_update(fc_progress *p, uint64_t step, double sim_time, double step_ms_total, size_t particles);
/* Draws the final state and ends the bar's line. */
void fc_progress_finish(fc_progress *p);
/* The line as drawn at wall time `now`, without line control: "[####......] STATUS" on a terminal,
 * "progress: STATUS" otherwise. At most 79 characters (an 80-column terminal), the ETA included. */
void fc_progress_format(const fc_progress *p, double now, char *out, size_t outlen);

/* Monotonic wall clock in seconds. */
double fc_wall_seconds(void);

/* ---- ply.c: particles as binary little-endian PLY ---- */

/* Bytes of one vertex record: uint id, then every column of the particle fields registry in
 * order (float x y z vx vy vz density, uchar fluid, float temperature). */
size_t fc_ply_record_bytes(void);

/* Writes the header for `count` vertices at simulated time `time` into buf (NUL-terminated);
 * returns its length, or the length it needs when buflen is too small (as snprintf). */
size_t fc_ply_header(char *buf, size_t buflen, size_t count, double time);
/* Encodes particles [first, first + count) as little-endian records into out
 * (count * fc_ply_record_bytes() bytes), whatever the host byte order. */
void fc_ply_encode(uint8_t *out, const fc_particles *p, size_t first, size_t count);
/* Header and records to a stream; 0, or -1 when writing failed. */
int fc_ply_write(FILE *f, const fc_particles *p, double time);
/* The same into a file, written under a temporary name and renamed into place, so a reader
 * never sees half a frame. 0, or -1 with err. */
int fc_ply_write_file(const char *path, const fc_particles *p, double time, char *err, size_t errlen);

#endif
