/* Run progress on stderr: an updating bar on a terminal, a plain line every 10% otherwise. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"

#include <math.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

enum { BAR_WIDTH = 20 };
static const double REDRAW_SECONDS = 0.1; /* at most ~10 redraws a second */

double fc_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void fc_progress_start(fc_progress *p, FILE *out, int enabled, uint64_t total_steps, double total_time)
{
    *p = (fc_progress){.out = out, .enabled = enabled, .total_steps = total_steps, .total_time = total_time};
    p->tty = isatty(fileno(out));
    p->start = fc_wall_seconds();
}

static double fraction_done(const fc_progress *p)
{
    double f = p->total_steps ? (double)p->step / (double)p->total_steps : p->sim_time / p->total_time;
    return f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
}

/* "12s", "3:07" or "1:02:03". */
static void format_duration(char *out, size_t outlen, double seconds)
{
    long s = isfinite(seconds) && seconds > 0 ? lround(seconds) : 0;
    if (s < 60) snprintf(out, outlen, "%lds", s);
    else if (s < 3600) snprintf(out, outlen, "%ld:%02ld", s / 60, s % 60);
    else snprintf(out, outlen, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

/* Mean wall time per step since the previous draw (kept when no step passed since). */
static void update_rate(fc_progress *p)
{
    if (p->step > p->last_step)
        p->ms_per_step = (p->step_ms_total - p->last_step_ms) / (double)(p->step - p->last_step);
    p->last_step = p->step;
    p->last_step_ms = p->step_ms_total;
}

/* The progress text without line control, shared by the bar and the plain lines. */
static void format_status(const fc_progress *p, char *out, size_t outlen, double f, double now)
{
    char steps[48], simtime[64], eta[32];
    if (p->total_steps) snprintf(steps, sizeof steps, "%llu/%llu", (unsigned long long)p->step,
                                 (unsigned long long)p->total_steps);
    else snprintf(steps, sizeof steps, "%llu", (unsigned long long)p->step);
    if (p->total_steps) snprintf(simtime, sizeof simtime, "%.4f s", p->sim_time);
    else snprintf(simtime, sizeof simtime, "%.4f/%g s", p->sim_time, p->total_time);
    double elapsed = now - p->start;
    format_duration(eta, sizeof eta, f > 0.0 ? elapsed * (1.0 - f) / f : 0.0);
    snprintf(out, outlen, "%3.0f%%  step %s  t %s  %.2f ms/step  %zu particles  ETA %s", 100.0 * f, steps,
             simtime, p->ms_per_step, p->particles, f > 0.0 ? eta : "?");
}

/* Width of the terminal behind out (80 when unknown). */
static int terminal_columns(FILE *out)
{
    struct winsize ws;
    if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > BAR_WIDTH + 20) return ws.ws_col;
    return 80;
}

static void draw(fc_progress *p, double f, double now)
{
    char status[256], bar[BAR_WIDTH + 1];
    update_rate(p);
    format_status(p, status, sizeof status, f, now);
    if (p->tty) {
        int filled = (int)(f * BAR_WIDTH);
        for (int i = 0; i < BAR_WIDTH; i++) bar[i] = i < filled ? '#' : '.';
        bar[BAR_WIDTH] = '\0';
        /* one line that fits the terminal, or \r would return to a wrapped line's second half */
        fprintf(p->out, "\r[%s] %.*s\033[K", bar, terminal_columns(p->out) - BAR_WIDTH - 4, status);
    } else {
        fprintf(p->out, "progress: %s\n", status);
    }
    fflush(p->out);
    p->last_draw = now;
}

void fc_progress_update(fc_progress *p, uint64_t step, double sim_time, double step_ms_total, size_t particles)
{
    if (!p->enabled) return;
    p->step = step, p->sim_time = sim_time, p->step_ms_total = step_ms_total, p->particles = particles;
    double f = fraction_done(p);
    double now = fc_wall_seconds();
    if (p->tty) {
        if (now - p->last_draw >= REDRAW_SECONDS) draw(p, f, now);
        return;
    }
    int tenth = (int)floor(f * 10.0 + 1e-9);
    if (tenth > p->last_tenth) {
        p->last_tenth = tenth;
        draw(p, f, now);
    }
}

void fc_progress_finish(fc_progress *p)
{
    if (!p->enabled || !p->tty) return;
    if (p->step != p->last_step) draw(p, fraction_done(p), fc_wall_seconds());
    fputc('\n', p->out);
    fflush(p->out);
}
