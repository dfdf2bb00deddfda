/* Server benchmark client (issue 4): N watchers on one poll() thread, /metrics and /proc samples, command-to-effect latency. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "ws_client.h"

#define FRAME_HEADER_BYTES 80
#define MAX_CLIENTS 1000
#define CONNECT_TIMEOUT_MS 5000
#define SUBSCRIBE_TIMEOUT_US 20000000
#define TRIAL_TIMEOUT_US 3000000
#define TRIAL_GAP_US 300000
#define SKIP_CHUNK (256 * 1024)
#define MAX_TRIALS 1000
#define TRIAL_FRAMES 64

/* One WebSocket connection and the state of the incremental frame parser. */
typedef struct conn {
    ws_client *ws;
    int fd, open;
    int in_payload;             /* 0: reading a WebSocket frame header, 1: its payload */
    uint8_t head[14];
    size_t head_have, head_need;
    uint64_t left;              /* payload bytes of the current WebSocket frame still to read */
    int frame_op, fin, msg_op;  /* opcode and FIN of the frame; opcode of the message in progress */
    char *text;
    size_t text_len, text_cap;
    uint8_t ctl[128];
    size_t ctl_len;
    uint8_t fh[FRAME_HEADER_BYTES]; /* the particle frame header (the only part decoded) */
    size_t fh_have;
    long frames, keys;
    uint32_t count, max_count, tier;
    int subscribed;
} conn;

typedef struct bench bench;
typedef void (*text_fn)(bench *, conn *, const char *);
typedef void (*frame_fn)(bench *, conn *);

/* The latency trial in progress (watched by the first connection). The ack of a world's request
 * carries `sequence`: the first snapshot that reflects the request (PROTOCOL.md 2.3). */
typedef struct trial {
    char add_id[32], remove_id[32];
    int64_t sent_us, ack_us, effect_us, remove_ack_us;
    uint32_t baseline, first_after_ack;
    uint32_t seq[TRIAL_FRAMES], count[TRIAL_FRAMES]; /* frames received since the command was sent */
    int frames;
    double command_seq; /* the newest snapshot encoded before the command: ack.sequence - 1 */
    int command_known;
    int acked, first_seen, emitter, removed;
} trial;

struct bench {
    int port, n;
    conn *c;
    text_fn on_text;
    frame_fn on_frame;
    int64_t state_first_us, state_last_us; /* state messages of connection 0 (step counter) */
    double state_first_step, state_last_step;
    int measuring;
    trial t;
    char scratch[SKIP_CHUNK];
};

static int64_t now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static uint32_t get_u32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* ---- HTTP and /proc -------------------------------------------------------------------------- */

/* GET path on 127.0.0.1:port into out (headers and body, NUL-terminated); 0 or -1. */
static int http_get(int port, const char *path, char *out, size_t cap)
{
    int fd = ws_tcp_connect(port, 0, 2000);
    if (fd < 0) return -1;
    char req[256];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", path);
    size_t len = 0;
    int64_t deadline = ws_now_ms() + 2000;
    if (ws_write_all(fd, req, (size_t)n, 2000)) return close(fd), -1;
    for (;;) {
        char *body = len ? strstr(out, "\r\n\r\n") : NULL;
        const char *cl = body ? strcasestr(out, "content-length:") : NULL;
        if (cl && len >= (size_t)(body + 4 - out) + strtoul(cl + 15, NULL, 10)) break;
        if (len + 1 >= cap || ws_fd_wait(fd, POLLIN, deadline) <= 0) return close(fd), -1;
        ssize_t r = recv(fd, out + len, cap - 1 - len, 0);
        if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (r <= 0) break;
        len += (size_t)r;
        out[len] = '\0';
    }
    close(fd);
    return len ? 0 : -1;
}

/* The value of a metric line "NAME VALUE" (NAME with its labels); -1 when absent. */
static double metric(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, name)); p += n)
        if ((p == text || p[-1] == '\n') && p[n] == ' ') return strtod(p + n + 1, NULL);
    return -1.0;
}

typedef struct metrics {
    double steps_per_s, frames_sent, frames_skipped, bytes_sent;
} metrics;

static int read_metrics(int port, metrics *m)
{
    static char text[1 << 16];
    if (http_get(port, "/metrics", text, sizeof text)) return -1;
    m->steps_per_s = metric(text, "fluidcast_world_steps_per_second{world=\"1\"}");
    m->frames_sent = metric(text, "fluidcast_frames_sent_total");
    m->frames_skipped = metric(text, "fluidcast_frames_skipped_total");
    m->bytes_sent = metric(text, "fluidcast_bytes_sent_total");
    return 0;
}

/* utime + stime in seconds of a process (tid 0) or one of its threads. */
static double cpu_seconds(pid_t pid, pid_t tid)
{
    char path[64], line[1024];
    if (tid) snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)pid, (int)tid);
    else snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1.0;
    size_t len = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[len] = '\0';
    char *p = strrchr(line, ')');
    unsigned long long utime = 0, stime = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
        return -1.0;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

/* Busy CPU seconds of the whole machine, all cores (/proc/stat: everything but idle and iowait). */
static double machine_busy_seconds(void)
{
    unsigned long long v[8] = {0};
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return -1.0;
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    if (n != 8) return -1.0;
    return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / (double)sysconf(_SC_CLK_TCK);
}

static double own_cpu_seconds(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + 1e-6 * (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

/* ---- the WebSocket reader: headers parsed, text kept, binary payload discarded past 80 bytes --- */

static void message_done(bench *b, conn *c)
{
    if (c->msg_op == WS_OP_TEXT) {
        c->text[c->text_len] = '\0';
        if (b->on_text) b->on_text(b, c, c->text);
    } else if (c->fh_have == FRAME_HEADER_BYTES && memcmp(c->fh, "FCPF", 4) == 0) {
        c->frames++;
        c->keys += c->fh[5] == 0;
        c->tier = c->fh[7];
        c->count = get_u32(c->fh + 32);
        if (c->count > c->max_count) c->max_count = c->count;
        if (b->on_frame) b->on_frame(b, c);
    }
    c->msg_op = 0;
}

static void frame_done(bench *b, conn *c)
{
    c->in_payload = 0;
    c->head_have = 0;
    c->head_need = 2;
    if (c->frame_op == WS_OP_PING) ws_send_frame_raw(c->ws, WS_OP_PONG, 1, c->ctl, c->ctl_len);
    else if (c->frame_op == WS_OP_CLOSE) c->open = 0;
    else if (c->frame_op < 8 && c->fin) message_done(b, c);
}

/* A complete WebSocket frame header: where its payload goes. -1 on a protocol error. */
static int frame_start(conn *c)
{
    unsigned len7 = c->head[1] & 0x7f;
    c->left = len7 < 126 ? len7 : 0;
    for (size_t i = 2; i < c->head_need; i++) c->left = c->left << 8 | c->head[i];
    c->frame_op = c->head[0] & 0x0f;
    c->fin = c->head[0] >> 7;
    c->ctl_len = 0;
    if (c->frame_op >= 8) return c->left <= sizeof c->ctl ? 0 : -1;
    if (c->frame_op != WS_OP_CONTINUATION) {
        c->msg_op = c->frame_op;
        c->text_len = c->fh_have = 0;
    }
    if (c->msg_op == WS_OP_TEXT && c->text_len + c->left + 1 > c->text_cap) {
        size_t cap = (c->text_len + c->left + 1) * 2;
        char *grown = realloc(c->text, cap);
        if (!grown) return -1;
        c->text = grown, c->text_cap = cap;
    }
    return c->msg_op ? 0 : -1;
}

/* Reads header bytes; 1 when something was read, 0 when the socket is empty, -1 on an end. */
static int read_head(conn *c)
{
    ssize_t r = recv(c->fd, c->head + c->head_have, c->head_need - c->head_have, MSG_DONTWAIT);
    if (r <= 0) return r < 0 && (errno == EAGAIN || errno == EINTR) ? 0 : -1;
    c->head_have += (size_t)r;
    if (c->head_have == 2) {
        if (c->head[1] & 0x80) return -1; /* a server never masks */
        unsigned len7 = c->head[1] & 0x7f;
        c->head_need = 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0);
    }
    if (c->head_have == c->head_need) {
        if (frame_start(c)) return -1;
        c->in_payload = 1;
    }
    return 1;
}

/* Reads payload bytes into the place the message type asks for (MSG_TRUNC discards the rest). */
static int read_payload(bench *b, conn *c)
{
    void *dst = b->scratch;
    size_t want = c->left < SKIP_CHUNK ? (size_t)c->left : SKIP_CHUNK;
    int flags = MSG_DONTWAIT;
    if (c->frame_op >= 8) dst = c->ctl + c->ctl_len;
    else if (c->msg_op == WS_OP_TEXT) dst = c->text + c->text_len;
    else if (c->fh_have < FRAME_HEADER_BYTES) {
        dst = c->fh + c->fh_have;
        if (want > FRAME_HEADER_BYTES - c->fh_have) want = FRAME_HEADER_BYTES - c->fh_have;
    } else flags |= MSG_TRUNC;
    ssize_t r = want ? recv(c->fd, dst, want, flags) : 0;
    if (want && r <= 0) return r < 0 && (errno == EAGAIN || errno == EINTR) ? 0 : -1;
    if (c->frame_op >= 8) c->ctl_len += (size_t)r;
    else if (c->msg_op == WS_OP_TEXT) c->text_len += (size_t)r;
    else if (dst == c->fh + c->fh_have) c->fh_have += (size_t)r;
    c->left -= (uint64_t)r;
    if (c->left == 0) frame_done(b, c);
    return 1;
}

/* Reads everything the socket holds now. */
static void conn_read(bench *b, conn *c)
{
    for (int r = 1; r > 0 && c->open;) {
        r = c->in_payload ? read_payload(b, c) : read_head(c);
        if (r < 0) c->open = 0;
    }
}

/* Polls every open connection until the deadline, handing complete messages to the callbacks. */
static void pump(bench *b, int64_t until_us)
{
    static struct pollfd fds[MAX_CLIENTS];
    static conn *who[MAX_CLIENTS];
    for (int64_t now = now_us(); now < until_us; now = now_us()) {
        int k = 0;
        for (int i = 0; i < b->n; i++)
            if (b->c[i].open) fds[k] = (struct pollfd){b->c[i].fd, POLLIN, 0}, who[k++] = &b->c[i];
        int wait_ms = (int)((until_us - now + 999) / 1000);
        int ready = poll(fds, (nfds_t)k, wait_ms);
        for (int i = 0; ready > 0 && i < k; i++)
            if (fds[i].revents) conn_read(b, who[i]);
    }
}

/* ---- sessions -------------------------------------------------------------------------------- */

static int conn_open(conn *c, int port)
{
    memset(c, 0, sizeof *c);
    ws_options o = {.port = port, .subprotocol = "fluidcast.v1", .timeout_ms = CONNECT_TIMEOUT_MS};
    ws_handshake hs;
    c->ws = ws_open(&o, &hs);
    if (!c->ws) return fprintf(stderr, "serve_bench: %s\n", hs.error), -1;
    if (ws_buffered(c->ws)) return fprintf(stderr, "serve_bench: data before hello\n"), -1;
    c->fd = ws_fd(c->ws);
    c->open = 1;
    c->head_need = 2;
    return 0;
}

static void conn_close(conn *c)
{
    ws_free(c->ws);
    free(c->text);
    c->ws = NULL, c->text = NULL, c->open = 0;
}

static int send_json(conn *c, cJSON *o)
{
    char *text = cJSON_PrintUnformatted(o);
    int rc = text ? ws_send_text(c->ws, text) : -1;
    free(text);
    cJSON_Delete(o);
    return rc;
}

static int send_hello_subscribe(conn *c)
{
    cJSON *hello = cJSON_CreateObject(), *sub = cJSON_CreateObject();
    cJSON_AddStringToObject(hello, "type", "hello");
    cJSON_AddStringToObject(hello, "client", "fluidcast serve_bench");
    cJSON_AddStringToObject(sub, "type", "subscribe");
    cJSON_AddStringToObject(sub, "id", "sub");
    cJSON_AddNumberToObject(sub, "world", 1);
    return send_json(c, hello) || send_json(c, sub) ? -1 : 0;
}

/* type, id and request of a reply; the parsed object (NULL when not JSON) for the caller to free. */
static cJSON *reply(const char *text, const char **type, const char **id)
{
    cJSON *o = cJSON_Parse(text);
    *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "type"));
    *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "id"));
    if (!*type) *type = "";
    if (!*id) *id = "";
    return o;
}

/* Setup and measurement: subscribe acks for all, state step counts of connection 0. */
static void load_text(bench *b, conn *c, const char *text)
{
    if (c->subscribed && c != &b->c[0]) return; /* keep the client light: no parsing */
    const char *type, *id;
    cJSON *o = reply(text, &type, &id);
    if (strcmp(type, "ack") == 0 && strcmp(id, "sub") == 0) c->subscribed = 1;
    if (strcmp(type, "error") == 0) fprintf(stderr, "serve_bench: %s\n", text);
    if (strcmp(type, "state") == 0 && b->measuring) {
        double step = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "step"));
        if (!b->state_first_us) b->state_first_us = now_us(), b->state_first_step = step;
        b->state_last_us = now_us(), b->state_last_step = step;
    }
    cJSON_Delete(o);
}

static int all_subscribed(const bench *b)
{
    for (int i = 0; i < b->n; i++)
        if (!b->c[i].subscribed) return 0;
    return 1;
}

/* Connects n clients (all handshakes first, so none falls behind), then hello + subscribe. */
static int connect_all(bench *b)
{
    for (int i = 0; i < b->n; i++)
        if (conn_open(&b->c[i], b->port)) return -1;
    for (int i = 0; i < b->n; i++)
        if (send_hello_subscribe(&b->c[i])) return fprintf(stderr, "serve_bench: send failed\n"), -1;
    int64_t deadline = now_us() + SUBSCRIBE_TIMEOUT_US;
    while (!all_subscribed(b) && now_us() < deadline) pump(b, now_us() + 10000);
    if (!all_subscribed(b)) return fprintf(stderr, "serve_bench: not every subscribe was acknowledged\n"), -1;
    return 0;
}

/* ---- the load measurement -------------------------------------------------------------------- */

typedef struct sample {
    int64_t us;
    double net_cpu, proc_cpu, own_cpu, machine_cpu;
    metrics m;
    long frames[MAX_CLIENTS];
} sample;

static int take_sample(bench *b, pid_t pid, sample *s)
{
    s->us = now_us();
    s->net_cpu = cpu_seconds(pid, pid); /* the network thread is the process's main thread */
    s->proc_cpu = cpu_seconds(pid, 0);
    s->own_cpu = own_cpu_seconds();
    s->machine_cpu = machine_busy_seconds();
    for (int i = 0; i < b->n; i++) s->frames[i] = b->c[i].frames;
    return read_metrics(b->port, &s->m) || s->net_cpu < 0 || s->proc_cpu < 0 || s->machine_cpu < 0 ? -1 : 0;
}

/* Prints one line of key=value results of the measurement between samples a and z. */
static void print_load(const bench *b, const sample *a, const sample *z, double steps_per_s)
{
    double secs = 1e-6 * (double)(z->us - a->us), mean = 0.0, min = b->n ? 1e30 : 0.0;
    int tier1 = 0;
    /* what the rest of the machine used meanwhile: a check that nothing else competed */
    double other = (z->machine_cpu - a->machine_cpu) - (z->proc_cpu - a->proc_cpu) - (z->own_cpu - a->own_cpu);
    for (int i = 0; i < b->n; i++) {
        double f = (double)(z->frames[i] - a->frames[i]) / secs;
        mean += f / b->n;
        if (f < min) min = f;
        tier1 += b->c[i].tier == 1;
    }
    double state_rate = b->state_last_us > b->state_first_us
                            ? (b->state_last_step - b->state_first_step) * 1e6 / (double)(b->state_last_us - b->state_first_us)
                            : -1.0;
    printf("clients=%d seconds=%.2f steps_per_s=%.2f state_steps_per_s=%.2f frames_per_client_s=%.2f "
           "frames_per_client_s_min=%.2f frames_sent=%.0f frames_skipped=%.0f mbytes_per_s=%.1f net_cpu_pct=%.1f "
           "proc_cpu_pct=%.1f bench_cpu_pct=%.1f other_cpu_pct=%.1f tier1_clients=%d\n",
           b->n, secs, steps_per_s, state_rate, mean, min, z->m.frames_sent - a->m.frames_sent,
           z->m.frames_skipped - a->m.frames_skipped, (z->m.bytes_sent - a->m.bytes_sent) / secs / 1e6,
           100.0 * (z->net_cpu - a->net_cpu) / secs, 100.0 * (z->proc_cpu - a->proc_cpu) / secs,
           100.0 * (z->own_cpu - a->own_cpu) / secs, 100.0 * (other > 0.0 ? other : 0.0) / secs, tier1);
}

/* Warms up, then samples the steps/s gauge once a second for the measured seconds. */
static int measure_load(bench *b, pid_t pid, double warmup_s, int measure_s)
{
    static sample a, z;
    pump(b, now_us() + (int64_t)(warmup_s * 1e6));
    b->measuring = 1;
    if (take_sample(b, pid, &a)) return fprintf(stderr, "serve_bench: cannot read /metrics or /proc\n"), -1;
    double sum = 0.0;
    for (int s = 1; s <= measure_s; s++) {
        pump(b, a.us + (int64_t)s * 1000000);
        metrics m;
        if (read_metrics(b->port, &m)) return fprintf(stderr, "serve_bench: cannot read /metrics\n"), -1;
        sum += m.steps_per_s;
    }
    if (take_sample(b, pid, &z)) return fprintf(stderr, "serve_bench: cannot read /metrics or /proc\n"), -1;
    b->measuring = 0;
    print_load(b, &a, &z, sum / measure_s);
    return 0;
}

/* ---- command-to-effect latency --------------------------------------------------------------- */

static void latency_text(bench *b, conn *c, const char *text)
{
    trial *t = &b->t;
    const char *type, *id;
    cJSON *o = reply(text, &type, &id);
    if (strcmp(type, "error") == 0) fprintf(stderr, "serve_bench: %s\n", text);
    if (strcmp(type, "ack") == 0 && strcmp(id, t->add_id) == 0 && !t->acked) {
        const cJSON *sequence = cJSON_GetObjectItemCaseSensitive(o, "sequence");
        t->command_known = cJSON_IsNumber(sequence);
        t->command_seq = cJSON_GetNumberValue(sequence) - 1;
        cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "applied"), "emitter");
        t->emitter = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "id"));
        t->ack_us = now_us();
        t->acked = 1;
    }
    if (strcmp(type, "ack") == 0 && strcmp(id, t->remove_id) == 0) t->removed = 1, t->remove_ack_us = now_us();
    (void)c;
    cJSON_Delete(o);
}

static void latency_frame(bench *b, conn *c)
{
    trial *t = &b->t;
    if (!t->sent_us) return;
    if (t->acked && !t->first_seen) t->first_seen = 1, t->first_after_ack = c->count;
    if (t->frames < TRIAL_FRAMES) t->seq[t->frames] = get_u32(c->fh + 16), t->count[t->frames++] = c->count;
    if (c->count > t->baseline && !t->effect_us) t->effect_us = now_us();
}

/* 1 when the first frame encoded after the command (sequence above the command's state) shows the rise. */
static int encoded_reflected(const trial *t)
{
    for (int i = 0; t->command_known && i < t->frames; i++)
        if (t->seq[i] > t->command_seq) return t->count[i] > t->baseline;
    return 0;
}

static int send_emitter(conn *c, const trial *t, int add, double rate)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", add ? "emitter_add" : "emitter_remove");
    cJSON_AddStringToObject(o, "id", add ? t->add_id : t->remove_id);
    cJSON_AddNumberToObject(o, "world", 1);
    if (!add) {
        cJSON_AddNumberToObject(o, "emitter", t->emitter);
        return send_json(c, o);
    }
    /* one particle per layer, in the empty half of the tank, shooting down: ~1.5 particles per step */
    const double position[3] = {1.8, 1.2, 0.5}, direction[3] = {0, -1, 0};
    cJSON *e = cJSON_AddObjectToObject(o, "emitter");
    cJSON_AddItemToObject(e, "position", cJSON_CreateDoubleArray(position, 3));
    cJSON_AddItemToObject(e, "direction", cJSON_CreateDoubleArray(direction, 3));
    cJSON_AddNumberToObject(e, "radius", 0.005);
    cJSON_AddNumberToObject(e, "speed", 1.0);
    cJSON_AddNumberToObject(e, "rate", rate);
    return send_json(c, o);
}

typedef struct latency {
    double ack_ms[MAX_TRIALS], effect_ms[MAX_TRIALS];
    int done, reflected, encoded_reflected, effect_before_ack;
    uint32_t start_count, end_count;
} latency;

/* One trial: emitter_add, wait for the ack and the rise, emitter_remove, wait for its ack. */
static int run_trial(bench *b, int k, double rate, latency *L)
{
    conn *c = &b->c[0];
    trial *t = &b->t;
    memset(t, 0, sizeof *t);
    snprintf(t->add_id, sizeof t->add_id, "add-%d", k);
    snprintf(t->remove_id, sizeof t->remove_id, "remove-%d", k);
    t->baseline = c->max_count;
    t->sent_us = now_us();
    if (send_emitter(c, t, 1, rate)) return -1;
    while ((!t->acked || !t->effect_us) && c->open && now_us() < t->sent_us + TRIAL_TIMEOUT_US)
        pump(b, now_us() + 1000);
    if (!t->acked) return fprintf(stderr, "serve_bench: trial %d: no ack\n", k), -1;
    if (t->emitter > 0 && send_emitter(c, t, 0, 0)) return -1;
    int64_t deadline = now_us() + TRIAL_TIMEOUT_US;
    while (!t->removed && c->open && now_us() < deadline) pump(b, now_us() + 1000);
    if (!t->effect_us) return fprintf(stderr, "serve_bench: trial %d: no effect seen\n", k), 0;
    L->ack_ms[L->done] = 1e-3 * (double)(t->ack_us - t->sent_us);
    L->effect_ms[L->done++] = 1e-3 * (double)(t->effect_us - t->sent_us);
    L->reflected += t->first_seen && t->first_after_ack > t->baseline;
    L->encoded_reflected += encoded_reflected(t);
    L->effect_before_ack += t->effect_us < t->ack_us;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    if (n == 0) return -1.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void print_latency(latency *L, int trials, double fps, double other_pct)
{
    double interval_ms = 1e3 / fps;
    double ack_med = median(L->ack_ms, L->done), ack_max = L->done ? L->ack_ms[L->done - 1] : -1;
    double eff_med = median(L->effect_ms, L->done), eff_max = L->done ? L->effect_ms[L->done - 1] : -1;
    printf("trials=%d effect_seen=%d reflected=%d encoded_reflected=%d effect_before_ack=%d ack_ms_median=%.1f ack_ms_max=%.1f "
           "effect_ms_median=%.1f effect_ms_max=%.1f effect_intervals_median=%.2f effect_intervals_max=%.2f "
           "particles_added=%u other_cpu_pct=%.1f\n",
           trials, L->done, L->reflected, L->encoded_reflected, L->effect_before_ack, ack_med, ack_max, eff_med, eff_max,
           eff_med / interval_ms, eff_max / interval_ms, L->end_count - L->start_count, other_pct);
}

/* CPU seconds of everything but the server and this program, for the "other processes" check. */
static double other_cpu_seconds(pid_t pid)
{
    return machine_busy_seconds() - cpu_seconds(pid, 0) - own_cpu_seconds();
}

/* trials emitter_add / emitter_remove pairs from connection 0, TRIAL_GAP_US apart. */
static int measure_latency(bench *b, pid_t pid, int trials, double rate, double fps)
{
    static latency L;
    double other0 = other_cpu_seconds(pid);
    int64_t t0 = now_us();
    conn *c = &b->c[0];
    b->on_text = latency_text;
    b->on_frame = latency_frame;
    memset(&b->t, 0, sizeof b->t);
    pump(b, now_us() + TRIAL_GAP_US);
    L.start_count = c->max_count;
    for (int k = 1; k <= trials; k++) {
        if (run_trial(b, k, rate, &L) || !c->open) return -1;
        /* emission stopped: the newest frame is the new baseline; the jitter varies the phase against the steps */
        pump(b, now_us() + TRIAL_GAP_US + (int64_t)(k * 7919 % 100) * 1000);
    }
    L.end_count = c->max_count;
    double other = other_cpu_seconds(pid) - other0;
    print_latency(&L, trials, fps, 100.0 * (other > 0.0 ? other : 0.0) / (1e-6 * (double)(now_us() - t0)));
    return 0;
}

/* ---- main ------------------------------------------------------------------------------------ */

static int usage(void)
{
    fprintf(stderr,
            "usage: serve_bench PORT SERVER_PID CLIENTS WARMUP_S MEASURE_S [TRIALS RATE FPS]\n"
            "  Connects CLIENTS watchers of world 1 on 127.0.0.1:PORT, warms up, measures for MEASURE_S seconds\n"
            "  and prints one line of key=value results; with TRIALS > 0 (CLIENTS >= 1) then runs TRIALS\n"
            "  emitter_add/emitter_remove pairs (RATE particles/s) from the first client and prints the\n"
            "  command-to-effect latency in ms and in frame intervals (1/FPS).\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 9) return usage();
    static bench b;
    b.port = atoi(argv[1]);
    pid_t pid = (pid_t)atoi(argv[2]);
    b.n = atoi(argv[3]);
    double warmup = atof(argv[4]);
    int measure_s = atoi(argv[5]), trials = argc == 9 ? atoi(argv[6]) : 0;
    double rate = argc == 9 ? atof(argv[7]) : 0.0, fps = argc == 9 ? atof(argv[8]) : 30.0;
    if (b.port <= 0 || pid <= 0 || b.n < 0 || b.n > MAX_CLIENTS || measure_s < 1 || measure_s > 600 ||
        !(warmup >= 0 && warmup <= 600) || trials < 0 || trials > MAX_TRIALS || (trials && (b.n < 1 || !(fps > 0))))
        return usage();
    b.c = calloc((size_t)(b.n ? b.n : 1), sizeof *b.c);
    if (!b.c) return 1;
    b.on_text = load_text;
    int rc = connect_all(&b) || measure_load(&b, pid, warmup, measure_s);
    if (!rc && trials) rc = measure_latency(&b, pid, trials, rate, fps);
    fflush(stdout);
    for (int i = 0; i < b.n; i++) conn_close(&b.c[i]);
    free(b.c);
    return rc ? 1 : 0;
}
