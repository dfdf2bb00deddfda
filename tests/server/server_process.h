/* The fluidcast server as a child process for the tests: start it, find its port, watch its memory,
 * talk plain HTTP to it, stop it with a signal and collect its exit status. */
#ifndef FC_TEST_SERVER_PROCESS_H
#define FC_TEST_SERVER_PROCESS_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

#define SERVER_START_TIMEOUT_MS 30000

typedef struct {
    pid_t pid;
    int port;
    int out_fd;            /* read end of the server's stdout */
    pthread_t drain;       /* forwards the server's stdout to ours, "[server] " first */
    int drain_running;
    pthread_mutex_t lock;
    pthread_cond_t found;  /* signalled when the port is known or stdout ended */
    int stdout_ended;
    int reaped, status;    /* status: as server_stop returns it */
} server_process;

/* Runs `binary serve ARGS...` (args: NULL-terminated), with stdout on a pipe, and waits up to
 * SERVER_START_TIMEOUT_MS for the line with http://HOST:PORT/. 0, or -1 (the reason on stderr;
 * the process is killed). */
int server_start(server_process *s, const char *binary, const char *const *args);
/* Resident memory of the server (VmRSS), KiB; -1 when unknown. */
long server_rss_kib(const server_process *s);
/* 1 while the process has not exited. */
int server_alive(server_process *s);
/* Sends sig (0: none) and waits up to timeout_ms for the exit: returns the exit status, 128 + N
 * when killed by signal N, or -1 on timeout (then the process is killed with SIGKILL and reaped). */
int server_stop(server_process *s, int sig, int timeout_ms);

/* Sleeps ms milliseconds (restarting after signals). */
void sleep_ms(int ms);

/* Runs argv[0] with argv to completion: stdout and stderr into *out and *err (malloc'd, NUL-
 * terminated; either may be NULL to discard). Exit status as server_stop, -1 on timeout. */
int run_capture(const char *const *argv, int timeout_ms, char **out, char **err);

typedef struct {
    int status;      /* HTTP status, 0 when no answer */
    char *head;      /* status line and headers */
    char *body;      /* NUL-terminated (chunked encoding removed) */
    size_t body_len;
} http_response;

/* GET of path exactly as given (no normalisation) with Connection: close. 0, or -1 when no complete
 * answer came within the time. Free with http_response_free. */
int http_get(int port, const char *path, int timeout_ms, http_response *r);
/* Sends request (len bytes, any size) as it is and reads the answer as http_get does. */
int http_request_raw(int port, const char *request, size_t len, int timeout_ms, http_response *r);
void http_response_free(http_response *r);
/* The value of header name in a response head, copied into out; 0 or -1 when absent. */
int http_header(const http_response *r, const char *name, char *out, size_t outlen);

#endif
