/* The server's counters and their Prometheus text exposition (GET /metrics). */
#ifndef FC_METRICS_H
#define FC_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "host/world_host.h"
#include "message.h"

typedef struct fc_metrics {
    uint64_t frames_sent, bytes_sent, frames_skipped, commands;
    uint64_t errors[FC_ERR_COUNT];
    uint64_t connections_total;
    uint64_t clients_dropped;    /* closed 1008: replies not read, or too many requests pending */
    uint64_t worlds_unstable;    /* blow-ups caught (world_host.c) */
    /* slots (slots.c) and HTTP limits (http.c) */
    uint64_t refused_full, refused_address, evicted, hello_timeouts, http_414, http_431;
    uint64_t ping_timeouts;      /* closed 1008: a ping unanswered (keepalive.c) */
} fc_metrics;

/* Counts an error reply by the code it names (codes without a name are not counted). */
void fc_metrics_count_error(fc_metrics *m, fc_error_code code);

/* Writes the exposition into a malloc'd string (*len its length); NULL when out of memory. */
char *fc_metrics_render(const fc_metrics *m, int clients, fc_world_host *const *worlds, int world_count,
                        size_t *len);

/* The process's resident memory in bytes (/proc/self/statm), 0 when unknown. */
uint64_t fc_process_rss_bytes(void);

#endif
