/* Starting, watching and stopping the fluidcast server for the tests, plus plain HTTP GET. */
#define _GNU_SOURCE
#include "server_process.h"
#include "ws_client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) continue;
}

/* Exit status as the header describes: the code, 128 + signal, or -1. */
static int decode_status(int wstatus)
{
    if (WIFEXITED(wstatus)) return WEXITSTATUS(wstatus);
    if (WIFSIGNALED(wstatus)) return 128 + WTERMSIG(wstatus);
    return -1;
}

/* fork + exec with stdin from /dev/null, stdout and stderr onto the given fds (-1: inherit); the
 * child dies with the test. */
static pid_t spawn(const char *const *argv, int out_fd, int err_fd)
{
    pid_t pid = fork();
    if (pid != 0) return pid;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    if (out_fd >= 0) dup2(out_fd, 1);
    if (err_fd >= 0) dup2(err_fd, 2);
    execv(argv[0], (char *const *)argv);
    _exit(127);
}

/* ---- the server's stdout -------------------------------------------------------------------- */

/* The port of the first http://HOST:PORT/ in text, or 0. */
static int find_port(const char *text)
{
    regex_t re;
    regmatch_t m[2];
    int port = 0;
    if (regcomp(&re, "http://[^/ ]+:([0-9]+)/", REG_EXTENDED) != 0) return 0;
    if (regexec(&re, text, 2, m, 0) == 0) port = atoi(text + m[1].rm_so);
    regfree(&re);
    return port;
}

static void forward_lines(char *buf, size_t *len)
{
    char *start = buf, *nl;
    while ((nl = memchr(start, '\n', (size_t)(buf + *len - start)))) {
        printf("[server] %.*s\n", (int)(nl - start), start);
        start = nl + 1;
    }
    *len -= (size_t)(start - buf);
    memmove(buf, start, *len);
    if (*len > 4096) printf("[server] %.*s\n", (int)*len, buf), *len = 0;
    fflush(stdout);
}

static void *drain_stdout(void *arg)
{
    server_process *s = arg;
    char buf[8192];
    size_t len = 0;
    for (;;) {
        ssize_t n = read(s->out_fd, buf + len, sizeof buf - 1 - len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        len += (size_t)n;
        buf[len] = '\0';
        pthread_mutex_lock(&s->lock);
        if (!s->port && (s->port = find_port(buf))) pthread_cond_broadcast(&s->found);
        pthread_mutex_unlock(&s->lock);
        forward_lines(buf, &len);
    }
    if (len) printf("[server] %.*s\n", (int)len, buf);
    pthread_mutex_lock(&s->lock);
    s->stdout_ended = 1;
    pthread_cond_broadcast(&s->found);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static int wait_for_port(server_process *s, int timeout_ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    pthread_mutex_lock(&s->lock);
    while (!s->port && !s->stdout_ended)
        if (pthread_cond_timedwait(&s->found, &s->lock, &until) == ETIMEDOUT) break;
    int port = s->port;
    pthread_mutex_unlock(&s->lock);
    return port;
}

int server_start(server_process *s, const char *binary, const char *const *args)
{
    const char *argv[64] = {binary, "serve"};
    int n = 2;
    for (; args && args[n - 2] && n < 63; n++) argv[n] = args[n - 2];
    argv[n] = NULL;
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->found, NULL);
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) return perror("pipe"), -1;
    fflush(NULL);
    s->pid = spawn(argv, pipefd[1], -1);
    close(pipefd[1]);
    s->out_fd = pipefd[0];
    if (s->pid < 0) return perror("fork"), close(s->out_fd), -1;
    s->drain_running = pthread_create(&s->drain, NULL, drain_stdout, s) == 0;
    if (s->drain_running && wait_for_port(s, SERVER_START_TIMEOUT_MS) > 0) return 0;
    fprintf(stderr, "server_start: no http://HOST:PORT/ line from '%s serve' within %d ms (alive: %d)\n", binary,
            SERVER_START_TIMEOUT_MS, server_alive(s));
    server_stop(s, SIGKILL, 5000);
    return -1;
}

long server_rss_kib(const server_process *s)
{
    char path[64], line[256];
    long kib = -1;
    snprintf(path, sizeof path, "/proc/%d/status", (int)s->pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
    fclose(f);
    return kib;
}

int server_alive(server_process *s)
{
    if (s->reaped) return 0;
    int wstatus;
    pid_t r = waitpid(s->pid, &wstatus, WNOHANG);
    if (r == s->pid) s->reaped = 1, s->status = decode_status(wstatus);
    return !s->reaped;
}

static void finish_drain(server_process *s)
{
    if (s->drain_running) pthread_join(s->drain, NULL), s->drain_running = 0;
    if (s->out_fd >= 0) close(s->out_fd), s->out_fd = -1;
}

int server_stop(server_process *s, int sig, int timeout_ms)
{
    if (sig && server_alive(s)) kill(s->pid, sig);
    int64_t deadline = ws_now_ms() + timeout_ms;
    while (server_alive(s) && ws_now_ms() < deadline) sleep_ms(20);
    int result = s->status;
    if (!s->reaped) {
        fprintf(stderr, "server_stop: pid %d still running after %d ms: killed with SIGKILL\n", (int)s->pid, timeout_ms);
        kill(s->pid, SIGKILL);
        waitpid(s->pid, NULL, 0);
        s->reaped = 1, result = -1;
    }
    finish_drain(s);
    return result;
}

/* ---- running a command to completion --------------------------------------------------------- */

typedef struct {
    int fd;
    char *data;
    size_t len, cap;
} capture;

/* Reads what fd has into c; 0 at EOF (fd closed), 1 otherwise. */
static int capture_read(capture *c)
{
    if (c->len + 4096 + 1 > c->cap) {
        c->cap = (c->cap ? c->cap * 2 : 8192) + 4096;
        c->data = realloc(c->data, c->cap);
    }
    ssize_t n = read(c->fd, c->data + c->len, c->cap - c->len - 1);
    if (n < 0 && errno == EINTR) return 1;
    if (n <= 0) return close(c->fd), c->fd = -1, 0;
    c->len += (size_t)n;
    return 1;
}

static void capture_pump(capture cap[2], int64_t deadline)
{
    while ((cap[0].fd >= 0 || cap[1].fd >= 0) && ws_now_ms() < deadline) {
        struct pollfd p[2] = {{cap[0].fd, POLLIN, 0}, {cap[1].fd, POLLIN, 0}};
        if (poll(p, 2, 100) <= 0) continue;
        for (int i = 0; i < 2; i++)
            if (p[i].revents) capture_read(&cap[i]);
    }
}

static void capture_give(capture *c, char **out)
{
    if (c->fd >= 0) close(c->fd);
    if (!c->data) c->data = calloc(1, 1);
    else c->data[c->len] = '\0';
    if (out) *out = c->data;
    else free(c->data);
}

int run_capture(const char *const *argv, int timeout_ms, char **out, char **err)
{
    int po[2], pe[2];
    if (pipe2(po, O_CLOEXEC) != 0) return -1;
    if (pipe2(pe, O_CLOEXEC) != 0) return close(po[0]), close(po[1]), -1;
    fflush(NULL);
    server_process s = {.out_fd = -1};
    s.pid = spawn(argv, po[1], pe[1]);
    close(po[1]), close(pe[1]);
    capture cap[2] = {{po[0], NULL, 0, 0}, {pe[0], NULL, 0, 0}};
    int64_t deadline = ws_now_ms() + timeout_ms;
    if (s.pid > 0) capture_pump(cap, deadline);
    capture_give(&cap[0], out);
    capture_give(&cap[1], err);
    if (s.pid < 0) return -1;
    int64_t left = deadline - ws_now_ms();
    return server_stop(&s, 0, left > 0 ? (int)left : 0);
}

/* ---- HTTP ----------------------------------------------------------------------------------------- */

int http_header(const http_response *r, const char *name, char *out, size_t outlen)
{
    size_t nlen = strlen(name);
    for (const char *line = r->head ? strstr(r->head, "\r\n") : NULL; line; line = strstr(line + 2, "\r\n")) {
        const char *p = line + 2;
        if (strncasecmp(p, name, nlen) != 0 || p[nlen] != ':') continue;
        p += nlen + 1;
        p += strspn(p, " \t");
        size_t n = strcspn(p, "\r\n");
        if (n >= outlen) n = outlen - 1;
        memcpy(out, p, n);
        out[n] = '\0';
        return 0;
    }
    return -1;
}

/* Removes chunked transfer encoding in place; 0, or -1 when the chunks are incomplete. */
static int dechunk(char *body, size_t *len)
{
    size_t in = 0, out = 0;
    for (;;) {
        char *end;
        unsigned long n = strtoul(body + in, &end, 16);
        char *crlf = strstr(end, "\r\n");
        if (end == body + in || !crlf) return -1;
        in = (size_t)(crlf + 2 - body);
        if (n == 0) break;
        if (in + n + 2 > *len) return -1;
        memmove(body + out, body + in, n);
        out += n, in += n + 2;
    }
    body[out] = '\0';
    *len = out;
    return 0;
}

/* Splits the raw answer into head and body; 0, or -1 when it is incomplete. */
static int parse_response(char *raw, size_t len, http_response *r)
{
    char *sep = strstr(raw, "\r\n\r\n"), value[64];
    if (!sep || sscanf(raw, "HTTP/1.%*d %d", &r->status) != 1) return -1;
    *sep = '\0';
    r->head = strdup(raw);
    r->body_len = len - (size_t)(sep + 4 - raw);
    r->body = malloc(r->body_len + 1);
    memcpy(r->body, sep + 4, r->body_len);
    r->body[r->body_len] = '\0';
    if (http_header(r, "Transfer-Encoding", value, sizeof value) == 0 && strcasestr(value, "chunked"))
        return dechunk(r->body, &r->body_len);
    if (http_header(r, "Content-Length", value, sizeof value) == 0 && strtoul(value, NULL, 10) != r->body_len) return -1;
    return 0;
}

/* 1 when raw holds a whole answer by its Content-Length or final chunk (else read until EOF). */
static int response_complete(const char *raw, size_t len)
{
    const char *sep = strstr(raw, "\r\n\r\n");
    if (!sep) return 0;
    size_t head = (size_t)(sep - raw), body = len - head - 4;
    for (const char *p = raw; p && p < sep; p = strstr(p + 2, "\r\n")) {
        if (strncasecmp(p, "\r\nContent-Length:", 17) == 0) return body >= strtoul(p + 17, NULL, 10);
        if (strncasecmp(p, "\r\nTransfer-Encoding:", 20) == 0)
            return body >= 5 && memcmp(raw + len - 5, "0\r\n\r\n", 5) == 0;
    }
    return 0;
}

int http_get(int port, const char *path, int timeout_ms, http_response *r)
{
    char req[2048];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", path, port);
    return http_request_raw(port, req, (size_t)n, timeout_ms, r);
}

int http_request_raw(int port, const char *req, size_t n, int timeout_ms, http_response *r)
{
    memset(r, 0, sizeof *r);
    int64_t deadline = ws_now_ms() + timeout_ms;
    int fd = ws_tcp_connect(port, 0, timeout_ms);
    if (fd < 0) return -1;
    capture cap = {fd, NULL, 0, 0};
    int ok = ws_write_all(fd, req, n, timeout_ms) == 0;
    while (ok && cap.fd >= 0 && ws_fd_wait(fd, POLLIN, deadline) > 0 && capture_read(&cap)) {
        cap.data[cap.len] = '\0';
        if (response_complete(cap.data, cap.len)) break;
    }
    if (cap.fd >= 0) close(cap.fd);
    int rc = ok && cap.data ? (cap.data[cap.len] = '\0', parse_response(cap.data, cap.len, r)) : -1;
    free(cap.data);
    return rc;
}

void http_response_free(http_response *r)
{
    free(r->head);
    free(r->body);
    memset(r, 0, sizeof *r);
}
