/* Reading the server's /metrics (Prometheus text format) in the tests. */
#ifndef FC_TEST_METRICS_TEXT_H
#define FC_TEST_METRICS_TEXT_H

/* GET /metrics: the body (malloc'd) when the status is 200, else NULL. */
char *metrics_fetch(int port);
/* The value of the series written exactly as in the text ("fluidcast_clients",
 * "fluidcast_world_particles{world=\"1\"}"); 0, or -1 when there is no such line. */
int metric_get(const char *text, const char *series, double *value);
/* metric_get, or fallback when the series is absent. */
double metric_or(const char *text, const char *series, double fallback);
/* The first line that is neither a comment, empty, nor `series value` with a number; NULL when all
 * are well-formed. Returns a pointer into text. */
const char *metrics_bad_line(const char *text);

#endif
