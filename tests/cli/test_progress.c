/* The progress line of `fluidcast run` fits an 80-column terminal, ETA included, whatever the numbers. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "cli/cli.h"

/* A progress at `step` of `total_steps` (0: bounded by total_time) after `elapsed` wall seconds. */
static fc_progress progress_at(int tty, uint64_t step, uint64_t total_steps, double sim_time, double total_time,
                               double ms_per_step, size_t particles)
{
    fc_progress p;
    memset(&p, 0, sizeof p);
    p.enabled = 1, p.tty = tty, p.total_steps = total_steps, p.total_time = total_time, p.step = step;
    p.sim_time = sim_time, p.ms_per_step = ms_per_step, p.particles = particles;
    return p;
}

static void check_line(const fc_progress *p, double elapsed, const char *const *want, const char *what)
{
    char line[512];
    fc_progress_format(p, elapsed, line, sizeof line);
    printf("%-28s %2zu | %s\n", what, strlen(line), line);
    CHECK(strlen(line) <= 79, "%s: %zu characters, at most 79: '%s'", what, strlen(line), line);
    CHECK(strstr(line, "ETA ") != NULL, "%s: the ETA is on the line: '%s'", what, line);
    CHECK(strncmp(line, p->tty ? "[" : "progress: ", p->tty ? 1 : 10) == 0, "%s: starts as a %s line: '%s'", what,
          p->tty ? "bar" : "plain", line);
    for (int i = 0; want && want[i]; i++) CHECK(strstr(line, want[i]) != NULL, "%s: has '%s': '%s'", what, want[i], line);
}

int main(void)
{
    for (int tty = 0; tty <= 1; tty++) {
        /* a small run: exact numbers */
        fc_progress small = progress_at(tty, 500, 1000, 0.25, 0, 1.2345, 22500);
        const char *small_want[] = {" 50%", "step 500/1000", "1.234 ms/step", "22500 particles", "ETA 12s", NULL};
        check_line(&small, 12.0, small_want, tty ? "small, terminal" : "small, plain");
        /* the longest: a billion steps, a billion particles, a slow step, an ETA of years */
        fc_progress big = progress_at(tty, 1234567, 999999999, 12345.678, 0, 98765.4, 1234567890);
        const char *big_want[] = {"step 1.23M/1G", "98765 ms/step", "1.23G particles", "ETA >999d", NULL};
        check_line(&big, 1e6, big_want, tty ? "huge, terminal" : "huge, plain");
        fc_progress almost = progress_at(tty, 999999998, 999999999, 1e7, 0, 99999.9, 999999999);
        check_line(&almost, 3.6e5 * 99, NULL, tty ? "almost done, terminal" : "almost done, plain");
        /* bounded by simulated time: the time is the bound shown */
        fc_progress timed = progress_at(tty, 123456789, 0, 123456.789, 1234567.89, 0.0123, 99999);
        const char *timed_want[] = {"t 123457/1234568 s", "0.012 ms/step", "99999 particles", NULL};
        check_line(&timed, 7200.0, timed_want, tty ? "time-bounded, terminal" : "time-bounded, plain");
        /* every field at its widest: 6-character times, a 5-character step time and count, 8-character ETA */
        fc_progress widest = progress_at(tty, 1, 0, 999999, 1499999.1, 12345, 123456);
        const char *widest_want[] = {"t 999999/1499999 s", "12345 ms/step", "123k particles", NULL};
        check_line(&widest, 3.6e5 * 0.5 - 1, widest_want, tty ? "widest, terminal" : "widest, plain");
        fc_progress tiny = progress_at(tty, 3, 0, 0.0015, 0.005, 250.0, 100001);
        const char *tiny_want[] = {" 30%", "t 0.0015/0.005 s", "250 ms/step", "100k particles", NULL};
        check_line(&tiny, 1.0, tiny_want, tty ? "time-bounded small, terminal" : "time-bounded small, plain");
        fc_progress start = progress_at(tty, 0, 10, 0, 0, 0, 10);
        const char *start_want[] = {"  0%", "ETA ?", NULL};
        check_line(&start, 0.0, start_want, tty ? "at the start, terminal" : "at the start, plain");
        /* a run of 100 h and more: days and hours */
        fc_progress days = progress_at(tty, 1, 100, 0, 0, 1, 1);
        const char *days_want[] = {"ETA 41d 06h", NULL};
        check_line(&days, 36000.0, days_want, tty ? "days, terminal" : "days, plain");
    }
    return check_summary("test_progress");
}
