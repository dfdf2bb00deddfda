/* /metrics lookups for the server tests. */
#define _POSIX_C_SOURCE 200809L
#include "metrics_text.h"
#include "server_process.h"

#include <stdlib.h>
#include <string.h>

char *metrics_fetch(int port)
{
    http_response r;
    if (http_get(port, "/metrics", 15000, &r) != 0 || r.status != 200) {
        http_response_free(&r);
        return NULL;
    }
    char *body = r.body;
    r.body = NULL;
    http_response_free(&r);
    return body;
}

int metric_get(const char *text, const char *series, double *value)
{
    size_t n = strlen(series);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (strncmp(line, series, n) != 0 || line[n] != ' ') continue;
        char *end;
        *value = strtod(line + n + 1, &end);
        return end > line + n + 1 ? 0 : -1;
    }
    return -1;
}

double metric_or(const char *text, const char *series, double fallback)
{
    double v;
    return metric_get(text, series, &v) == 0 ? v : fallback;
}

/* 1 when the line (up to its newline) is `NAME[{LABELS}] NUMBER [TIMESTAMP]`. */
static int sample_line(const char *line, size_t len)
{
    size_t name = strspn(line, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:");
    if (name == 0 || name >= len) return 0;
    const char *p = line + name;
    if (*p == '{') {
        const char *close = memchr(p, '}', len - name);
        if (!close) return 0;
        p = close + 1;
    }
    if (*p != ' ') return 0;
    char *end;
    strtod(p + 1, &end);
    return end > p + 1 && (end == line + len || *end == ' ');
}

const char *metrics_bad_line(const char *text)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        if (len && line[0] != '#' && !sample_line(line, len)) return line;
        line += len + (line[len] == '\n');
    }
    return NULL;
}
