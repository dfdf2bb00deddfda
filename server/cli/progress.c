/* Run progress on stderr: an updating bar on a terminal, a plain line every 10% otherwise. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"

#include <math.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

enum { BAR_WIDTH = 10 };
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

/* "12s", "3:07", "1:02:03", "4d 07h" or ">999d": at most 8 characters. */
static void format_duration(char *out, size_t outlen, double seconds)
{
    double capped = isfinite(seconds) && seconds > 0 ? fmin(seconds, 1e9) : 0.0;
    long s = lround(capped);
    if (s < 60) snprintf(out, outlen, "%lds", s);
    else if (s < 3600) snprintf(out, outlen, "%ld:%02ld", s / 60, s % 60);
    else if (s < 100 * 3600) snprintf(out, outlen, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else if (s < 1000 * 86400) snprintf(out, outlen, "%ldd %02ldh", s / 86400, s / 3600 % 24);
    else snprintf(out, outlen, ">999d");
}

/* A number in at most `width` characters (5 or more): the most significant digits that fit. */
static void format_number(char *out, size_t outlen, double value, int width)
{
    for (int digits = width; digits > 1; digits--) {
        if (snprintf(out, outlen, "%.*g", digits, value) <= width) return;
    }
    snprintf(out, outlen, "%.0e", value);
}

/* A count in at most 5 characters: exact below 100000, else "123k", "1.23M", "45.6G". */
static void format_count(char *out, size_t outlen, uint64_t n)
{
    static const char suffix[] = "kMGTPE";
    if (n < 100000) {
        snprintf(out, outlen, "%llu", (unsigned long long)n);
        return;
    }
    double v = (double)n / 1e3;
    int k = 0;
    while (v >= 999.5 && k < 5) v /= 1e3, k++;
    snprintf(out, outlen, "%.3g%c", v, suffix[k]);
}

/* Mean wall time per step since the previous draw (kept when no step passed since). */
static void update_rate(fc_progress *p)
{
    if (p->step > p->last_step)
        p->ms_per_step = (p->step_ms_total - p->last_step_ms) / (double)(p->step - p->last_step);
    p->last_step = p->step;
    p->last_step_ms = p->step_ms_total;
}

/* The progress text without line control, shared by the bar and the plain lines: at most 66
 * characters, whatever the numbers. The run's bound is shown (steps, or simulated time), the
 * other is in the summary. */
static void format_status(const fc_progress *p, char *out, size_t outlen, double f, double now)
{
    char done[32], total[32], ms[32], particles[32], eta[32], bound[80];
    if (p->total_steps) {
        format_count(done, sizeof done, p->step);
        format_count(total, sizeof total, p->total_steps);
        snprintf(bound, sizeof bound, "step %s/%s", done, total); /* <= 16 */
    } else {
        format_number(done, sizeof done, p->sim_time, 6);
        format_number(total, sizeof total, p->total_time, 7);
        snprintf(bound, sizeof bound, "t %s/%s s", done, total); /* <= 18 */
    }
    format_number(ms, sizeof ms, p->ms_per_step, 5);
    format_count(particles, sizeof particles, p->particles);
    double elapsed = now - p->start;
    format_duration(eta, sizeof eta, f > 0.0 ? elapsed * (1.0 - f) / f : 0.0);
    snprintf(out, outlen, "%3.0f%% %s %s ms/step %s particles ETA %s", 100.0 * f, bound, ms, particles,
             f > 0.0 ? eta : "?");
}

void fc_progress_format(const fc_progress *p, double now, char *out, size_t outlen)
{
    char status[256], bar[BAR_WIDTH + 1];
    double f = fraction_done(p);
    format_status(p, status, sizeof status, f, now);
    if (!p->tty) {
        snprintf(out, outlen, "progress: %s", status);
        return;
    }
    int filled = (int)(f * BAR_WIDTH);
    for (int i = 0; i < BAR_WIDTH; i++) bar[i] = i < filled ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    snprintf(out, outlen, "[%s] %s", bar, status);
}

/* Width of the terminal behind out (80 when unknown). */
static int terminal_columns(FILE *out)
{
    struct winsize ws;
    if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > BAR_WIDTH + 20) return ws.ws_col;
    return 80;
}

static void draw(fc_progress *p, double now)
{
    char line[320];
    update_rate(p);
    fc_progress_format(p, now, line, sizeof line);
    /* one line that fits the terminal, or \r would return to a wrapped line's second half */
    if (p->tty) fprintf(p->out, "\r%.*s\033[K", terminal_columns(p->out) - 1, line);
    else fprintf(p->out, "%s\n", line);
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
        if (now - p->last_draw >= REDRAW_SECONDS) draw(p, now);
        return;
    }
    int tenth = (int)floor(f * 10.0 + 1e-9);
    if (tenth > p->last_tenth) {
        p->last_tenth = tenth;
        draw(p, now);
    }
}

void fc_progress_finish(fc_progress *p)
{
    if (!p->enabled || !p->tty) return;
    if (p->step != p->last_step) draw(p, fc_wall_seconds());
    fputc('\n', p->out);
    fflush(p->out);
}
