/* Prometheus text format (version 0.0.4) of the server's and the worlds' counters. */
#define _POSIX_C_SOURCE 200809L
#include "net/metrics.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct text {
    char *data;
    size_t len, cap;
    int failed;
} text;

static void put(text *t, const char *fmt, ...)
{
    for (int attempt = 0; attempt < 2 && !t->failed; attempt++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->data ? t->data + t->len : NULL, t->data ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) t->failed = 1;
        else if (t->data && (size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        } else {
            size_t cap = (t->cap + (size_t)n + 1) * 2;
            char *grown = realloc(t->data, cap);
            if (!grown) t->failed = 1;
            else t->data = grown, t->cap = cap;
        }
    }
}

static void family(text *t, const char *name, const char *type, const char *help)
{
    put(t, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

uint64_t fc_process_rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long size = 0, resident = 0;
    if (!f) return 0;
    int n = fscanf(f, "%llu %llu", &size, &resident);
    fclose(f);
    return n == 2 ? (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE) : 0;
}

/* One gauge or counter per world, from its info. */
typedef double (*world_value)(const fc_world_info *);
static double steps_per_s(const fc_world_info *i) { return i->steps_per_s; }
static double step_ms(const fc_world_info *i) { return i->step_ms; }
static double particles(const fc_world_info *i) { return (double)i->particles; }
static double frames_encoded(const fc_world_info *i) { return (double)i->frames_encoded; }
static double bytes_per_frame(const fc_world_info *i) { return i->bytes_per_frame; }

static const struct {
    const char *name, *type, *help;
    world_value value;
} world_metrics[] = {
    {"fluidcast_world_steps_per_second", "gauge", "Solver steps per wall second over the last second.", steps_per_s},
    {"fluidcast_world_step_milliseconds", "gauge", "Wall time of the last solver step.", step_ms},
    {"fluidcast_world_particles", "gauge", "Particles in the world.", particles},
    {"fluidcast_world_frames_encoded_total", "counter", "Frames encoded, all streams and key frames.", frames_encoded},
    {"fluidcast_world_bytes_per_frame", "gauge", "Mean size of the frames encoded at the last publication.",
     bytes_per_frame},
};

/* A label value in the text format: backslash, double quote and newline escaped (Prometheus
 * exposition format); cut short rather than overflow out. */
static const char *label_value(const char *in, char *out, size_t len)
{
    size_t k = 0;
    for (; *in && k + 3 < len; in++) {
        if (*in == '\\' || *in == '"') out[k++] = '\\', out[k++] = *in;
        else if (*in == '\n') out[k++] = '\\', out[k++] = 'n';
        else out[k++] = *in;
    }
    out[k] = '\0';
    return out;
}

void fc_metrics_count_error(fc_metrics *m, fc_error_code code)
{
    if (code > FC_ERR_NONE && code < FC_ERR_COUNT) m->errors[code]++;
}

char *fc_metrics_render(const fc_metrics *m, int clients, fc_world_host *const *worlds, int world_count, size_t *len)
{
    text t = {0};
    family(&t, "fluidcast_clients", "gauge", "WebSocket clients connected.");
    put(&t, "fluidcast_clients %d\n", clients);
    family(&t, "fluidcast_connections_total", "counter", "WebSocket clients accepted since start.");
    put(&t, "fluidcast_connections_total %llu\n", (unsigned long long)m->connections_total);
    family(&t, "fluidcast_clients_dropped_total", "counter",
           "Clients closed with 1008 because they did not read their replies or left too many requests pending.");
    put(&t, "fluidcast_clients_dropped_total %llu\n", (unsigned long long)m->clients_dropped);
    family(&t, "fluidcast_worlds_unstable_total", "counter", "Worlds that blew up and were paused (unstable events).");
    put(&t, "fluidcast_worlds_unstable_total %llu\n", (unsigned long long)m->worlds_unstable);
    family(&t, "fluidcast_connections_refused_total", "counter",
           "Connections refused: WebSockets closed with 1013 (server full), sockets closed at accept (address limit).");
    put(&t, "fluidcast_connections_refused_total{reason=\"server_full\"} %llu\n", (unsigned long long)m->refused_full);
    put(&t, "fluidcast_connections_refused_total{reason=\"address_limit\"} %llu\n",
        (unsigned long long)m->refused_address);
    family(&t, "fluidcast_clients_evicted_total", "counter", "Watchers closed with 1013 to let a token holder in.");
    put(&t, "fluidcast_clients_evicted_total %llu\n", (unsigned long long)m->evicted);
    family(&t, "fluidcast_hello_timeouts_total", "counter", "WebSockets closed with 1008 for want of a hello.");
    put(&t, "fluidcast_hello_timeouts_total %llu\n", (unsigned long long)m->hello_timeouts);
    family(&t, "fluidcast_ping_timeouts_total", "counter", "WebSockets closed with 1008 for leaving a ping unanswered.");
    put(&t, "fluidcast_ping_timeouts_total %llu\n", (unsigned long long)m->ping_timeouts);
    family(&t, "fluidcast_http_rejected_total", "counter", "HTTP requests answered 414 (URL) or 431 (headers).");
    put(&t, "fluidcast_http_rejected_total{status=\"414\"} %llu\n", (unsigned long long)m->http_414);
    put(&t, "fluidcast_http_rejected_total{status=\"431\"} %llu\n", (unsigned long long)m->http_431);
    family(&t, "fluidcast_frames_sent_total", "counter", "Particle frames sent to clients.");
    put(&t, "fluidcast_frames_sent_total %llu\n", (unsigned long long)m->frames_sent);
    family(&t, "fluidcast_bytes_sent_total", "counter", "Bytes of WebSocket messages sent to clients.");
    put(&t, "fluidcast_bytes_sent_total %llu\n", (unsigned long long)m->bytes_sent);
    family(&t, "fluidcast_frames_skipped_total", "counter", "Frames a slow client did not get (it moved down a tier).");
    put(&t, "fluidcast_frames_skipped_total %llu\n", (unsigned long long)m->frames_skipped);
    family(&t, "fluidcast_commands_total", "counter", "Text messages received from clients.");
    put(&t, "fluidcast_commands_total %llu\n", (unsigned long long)m->commands);
    family(&t, "fluidcast_errors_total", "counter", "Error replies by code.");
    for (int code = 1; code < FC_ERR_COUNT; code++)
        if (m->errors[code])
            put(&t, "fluidcast_errors_total{code=\"%s\"} %llu\n", fc_error_code_name((fc_error_code)code),
                (unsigned long long)m->errors[code]);
    family(&t, "fluidcast_worlds", "gauge", "Worlds running.");
    put(&t, "fluidcast_worlds %d\n", world_count);
    fc_world_info info[64];
    char device_label[64][512];
    int n = world_count < 64 ? world_count : 64;
    for (int w = 0; w < n; w++) fc_world_host_info(worlds[w], &info[w]);
    for (size_t k = 0; k < sizeof world_metrics / sizeof world_metrics[0]; k++) {
        family(&t, world_metrics[k].name, world_metrics[k].type, world_metrics[k].help);
        for (int w = 0; w < n; w++)
            put(&t, "%s{world=\"%u\"} %.6g\n", world_metrics[k].name, (unsigned)worlds[w]->id,
                world_metrics[k].value(&info[w]));
    }
    family(&t, "fluidcast_world_info", "gauge", "Where each world steps: its backend and device (always 1).");
    for (int w = 0; w < n; w++)
        put(&t, "fluidcast_world_info{world=\"%u\",backend=\"%s\",device=\"%s\"} 1\n", (unsigned)worlds[w]->id,
            info[w].backend, label_value(info[w].device, device_label[w], sizeof device_label[w]));
    family(&t, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
    put(&t, "process_resident_memory_bytes %llu\n", (unsigned long long)fc_process_rss_bytes());
    if (t.failed) {
        free(t.data);
        return NULL;
    }
    *len = t.len;
    return t.data;
}
