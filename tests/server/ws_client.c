/* The test WebSocket client: handshake, masked frames out, reassembled messages in, poll() timeouts. */
#define _GNU_SOURCE
#include "ws_client.h"
#include "sha1.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define WS_MAX_MESSAGE (256u << 20) /* a server message above this is treated as a protocol error */
#define WS_WRITE_TIMEOUT_MS 20000

struct ws_client {
    int fd;
    uint8_t *in;                  /* raw bytes read from the socket */
    size_t in_pos, in_len, in_cap;
    uint8_t *msg;                 /* the message being reassembled (or the last one returned) */
    size_t msg_len, msg_cap;
    int msg_opcode;               /* opcode of the message in progress, 0 when none */
    int returned;                 /* msg holds a message already handed out */
    int state;                    /* WS_OK while open, else the sticky WS_CLOSED or WS_ERROR */
    int close_code, close_sent;
    char close_reason[128];
    char error[256];
    long pings, pongs;
    int pings_unanswered;         /* ws_answer_pings(c, 0): pings are counted, not answered */
    uint64_t rng;
};

int64_t ws_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void set_error(ws_client *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
    c->state = WS_ERROR;
}

static uint32_t next_random(ws_client *c)
{
    c->rng ^= c->rng << 13, c->rng ^= c->rng >> 7, c->rng ^= c->rng << 17;
    return (uint32_t)(c->rng >> 16);
}

int ws_fd_wait(int fd, short events, int64_t deadline)
{
    for (;;) {
        int64_t left = deadline - ws_now_ms();
        struct pollfd p = {fd, events, 0};
        int r = poll(&p, 1, left > 0 ? (int)left : 0);
        if (r > 0) return 1;
        if (r == 0) return 0;
        if (errno != EINTR) return -1;
    }
}

int ws_write_all(int fd, const void *data, size_t len, int timeout_ms)
{
    const uint8_t *p = data;
    int64_t deadline = ws_now_ms() + timeout_ms;
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n > 0) {
            p += n, len -= (size_t)n;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (ws_fd_wait(fd, POLLOUT, deadline) <= 0) return -1;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            return -1;
        }
    }
    return 0;
}

int ws_tcp_connect(int port, int rcvbuf, int timeout_ms)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (rcvbuf > 0) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0) return fd;
    int err = 0;
    socklen_t errlen = sizeof err;
    if (errno != EINPROGRESS || ws_fd_wait(fd, POLLOUT, ws_now_ms() + timeout_ms) <= 0 ||
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &errlen) != 0 || err != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int reserve(uint8_t **buf, size_t *cap, size_t need)
{
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 65536;
    while (n < need) n *= 2;
    uint8_t *p = realloc(*buf, n);
    if (!p) return -1;
    *buf = p, *cap = n;
    return 0;
}

/* Reads what the socket has (waiting until the deadline for something): 1 read, 0 timeout, -1 end. */
static int fill(ws_client *c, int64_t deadline)
{
    if (c->in_pos > 0 && c->in_pos == c->in_len) c->in_pos = c->in_len = 0;
    if (c->in_pos > c->in_cap / 2) {
        memmove(c->in, c->in + c->in_pos, c->in_len - c->in_pos);
        c->in_len -= c->in_pos, c->in_pos = 0;
    }
    if (reserve(&c->in, &c->in_cap, c->in_len + 65536) != 0) return set_error(c, "out of memory"), -1;
    for (;;) {
        ssize_t n = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, 0);
        if (n > 0) {
            c->in_len += (size_t)n;
            return 1;
        }
        if (n == 0) return -1;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return set_error(c, "recv: %s", strerror(errno)), -1;
        int r = ws_fd_wait(c->fd, POLLIN, deadline);
        if (r <= 0) return r < 0 ? (set_error(c, "poll: %s", strerror(errno)), -1) : 0;
    }
}

/* ---- handshake ---------------------------------------------------------------------------- */

/* The value of header name in an HTTP head (NUL-terminated), copied into out; 0 or -1 if absent. */
static int header_value(const char *head, const char *name, char *out, size_t outlen)
{
    size_t nlen = strlen(name);
    for (const char *line = strstr(head, "\r\n"); line && line[2]; line = strstr(line + 2, "\r\n")) {
        const char *p = line + 2;
        if (strncasecmp(p, name, nlen) != 0 || p[nlen] != ':') continue;
        p += nlen + 1;
        while (*p == ' ' || *p == '\t') p++;
        size_t n = strcspn(p, "\r\n");
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t')) n--;
        if (n >= outlen) n = outlen - 1;
        memcpy(out, p, n);
        out[n] = '\0';
        return 0;
    }
    return -1;
}

static int send_upgrade(ws_client *c, const ws_options *o, const char *key)
{
    char req[1024], proto[160] = "";
    if (o->subprotocol) snprintf(proto, sizeof proto, "Sec-WebSocket-Protocol: %s\r\n", o->subprotocol);
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n",
                     o->path ? o->path : "/", o->port, key, proto);
    return ws_write_all(c->fd, (const uint8_t *)req, (size_t)n, o->timeout_ms);
}

/* Reads the answer's head into c->in (NUL-terminated), leaving any frames after it buffered. */
static int read_head(ws_client *c, int64_t deadline, char **head)
{
    for (;;) {
        if (reserve(&c->in, &c->in_cap, c->in_len + 1) != 0) return -1;
        c->in[c->in_len] = '\0';
        char *end = strstr((char *)c->in, "\r\n\r\n");
        if (end) {
            *end = '\0';
            *head = (char *)c->in;
            c->in_pos = (size_t)(end + 4 - (char *)c->in);
            return 0;
        }
        if (c->in_len > 16384 || fill(c, deadline) <= 0) return -1;
    }
}

/* 1 when chosen is one of the comma-separated names of list. */
static int offered(const char *list, const char *chosen)
{
    size_t n = strlen(chosen);
    for (const char *p = list; n && *p; p += strspn(p, ", ")) {
        size_t len = strcspn(p, ", ");
        if (len == n && strncmp(p, chosen, n) == 0) return 1;
        p += len;
    }
    return 0;
}

static int check_answer(const char *head, const char *key, const ws_options *o, ws_handshake *hs)
{
    char value[256], accept[32];
    if (sscanf(head, "HTTP/1.1 %d", &hs->status) != 1) return snprintf(hs->error, sizeof hs->error, "no HTTP status line"), -1;
    if (hs->status != 101) return snprintf(hs->error, sizeof hs->error, "HTTP status %d, expected 101", hs->status), -1;
    if (header_value(head, "Upgrade", value, sizeof value) != 0 || strcasecmp(value, "websocket") != 0)
        return snprintf(hs->error, sizeof hs->error, "no 'Upgrade: websocket'"), -1;
    if (header_value(head, "Connection", value, sizeof value) != 0 || !strcasestr(value, "upgrade"))
        return snprintf(hs->error, sizeof hs->error, "no 'Connection: Upgrade'"), -1;
    ws_accept_value(key, accept);
    if (header_value(head, "Sec-WebSocket-Accept", value, sizeof value) != 0 || strcmp(value, accept) != 0)
        return snprintf(hs->error, sizeof hs->error, "Sec-WebSocket-Accept '%.100s', expected '%s'", value, accept), -1;
    if (header_value(head, "Sec-WebSocket-Protocol", hs->protocol, sizeof hs->protocol) != 0) hs->protocol[0] = '\0';
    if (o->subprotocol && !offered(o->subprotocol, hs->protocol))
        return snprintf(hs->error, sizeof hs->error, "subprotocol '%s', expected one of '%s'", hs->protocol, o->subprotocol), -1;
    if (!o->subprotocol && hs->protocol[0])
        return snprintf(hs->error, sizeof hs->error, "subprotocol '%s' chosen though none was offered", hs->protocol), -1;
    return 0;
}

static ws_client *client_new(int fd)
{
    ws_client *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->fd = fd;
    c->close_code = -1;
    c->rng = ((uint64_t)ws_now_ms() << 20) ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)c ^ 0x9E3779B97F4A7C15ull;
    return c;
}

ws_client *ws_open(const ws_options *o, ws_handshake *hs)
{
    ws_handshake local;
    if (!hs) hs = &local;
    memset(hs, 0, sizeof *hs);
    int fd = ws_tcp_connect(o->port, o->rcvbuf, o->timeout_ms);
    if (fd < 0) return snprintf(hs->error, sizeof hs->error, "connect to port %d failed", o->port), NULL;
    ws_client *c = client_new(fd);
    if (!c) return close(fd), NULL;
    uint8_t nonce[16];
    char key[32], *head = NULL;
    for (int i = 0; i < 16; i++) nonce[i] = (uint8_t)next_random(c);
    base64_encode(nonce, sizeof nonce, key);
    if (send_upgrade(c, o, key) != 0 || read_head(c, ws_now_ms() + o->timeout_ms, &head) != 0) {
        snprintf(hs->error, sizeof hs->error, "no complete handshake answer within %d ms", o->timeout_ms);
        return ws_free(c), NULL;
    }
    if (check_answer(head, key, o, hs) != 0) return ws_free(c), NULL;
    return c;
}

ws_client *ws_connect(int port, const char *subprotocol, int timeout_ms)
{
    ws_options o = {.port = port, .subprotocol = subprotocol, .timeout_ms = timeout_ms};
    return ws_open(&o, NULL);
}

void ws_free(ws_client *c)
{
    if (!c) return;
    close(c->fd);
    free(c->in);
    free(c->msg);
    free(c);
}

/* ---- sending ------------------------------------------------------------------------------ */

int ws_send_bytes_raw(ws_client *c, const void *bytes, size_t len)
{
    return ws_write_all(c->fd, bytes, len, WS_WRITE_TIMEOUT_MS);
}

static int send_frame(ws_client *c, int opcode, int fin, const void *payload, size_t len, int masked)
{
    uint8_t head[14], bit = masked ? 0x80 : 0;
    size_t h = 0;
    head[h++] = (uint8_t)((fin ? 0x80 : 0) | (opcode & 0x0f));
    if (len < 126) {
        head[h++] = (uint8_t)(bit | len);
    } else if (len <= 0xffff) {
        head[h++] = bit | 126;
        head[h++] = (uint8_t)(len >> 8), head[h++] = (uint8_t)len;
    } else {
        head[h++] = bit | 127;
        for (int i = 7; i >= 0; i--) head[h++] = (uint8_t)((uint64_t)len >> (8 * i));
    }
    uint8_t key[4] = {0, 0, 0, 0};
    if (masked) {
        uint32_t mask = next_random(c);
        for (int i = 0; i < 4; i++) head[h++] = key[i] = (uint8_t)(mask >> (8 * i));
    }
    uint8_t *frame = malloc(h + len + 1);
    if (!frame) return -1;
    memcpy(frame, head, h);
    for (size_t i = 0; i < len; i++) frame[h + i] = ((const uint8_t *)payload)[i] ^ key[i & 3];
    int rc = ws_send_bytes_raw(c, frame, h + len);
    free(frame);
    return rc;
}

int ws_send_frame_raw(ws_client *c, int opcode, int fin, const void *payload, size_t len)
{
    return send_frame(c, opcode, fin, payload, len, 1);
}

int ws_send_frame_unmasked(ws_client *c, int opcode, int fin, const void *payload, size_t len)
{
    return send_frame(c, opcode, fin, payload, len, 0);
}

int ws_send_close_raw(ws_client *c, const void *payload, size_t len)
{
    c->close_sent = 1;
    return send_frame(c, WS_OP_CLOSE, 1, payload, len, 1);
}

int ws_send_text_len(ws_client *c, const void *text, size_t len) { return ws_send_frame_raw(c, WS_OP_TEXT, 1, text, len); }
int ws_send_text(ws_client *c, const char *text) { return ws_send_text_len(c, text, strlen(text)); }
int ws_send_binary(ws_client *c, const void *data, size_t len) { return ws_send_frame_raw(c, WS_OP_BINARY, 1, data, len); }

/* ---- receiving ---------------------------------------------------------------------------- */

typedef struct {
    int fin, opcode;
    const uint8_t *payload;
    size_t len;
} ws_frame;

/* Takes one complete frame from the buffer: 1 taken, 0 incomplete, -1 a protocol error. */
static int take_frame(ws_client *c, ws_frame *f)
{
    const uint8_t *p = c->in + c->in_pos;
    size_t avail = c->in_len - c->in_pos, h = 2;
    if (avail < 2) return 0;
    f->fin = p[0] >> 7, f->opcode = p[0] & 0x0f;
    if (p[0] & 0x70) return set_error(c, "reserved bits set in a server frame (0x%02x)", p[0]), -1;
    if (p[1] & 0x80) return set_error(c, "a masked server frame"), -1;
    uint64_t len = p[1] & 0x7f;
    if (len >= 126) {
        size_t extra = len == 126 ? 2 : 8;
        if (avail < 2 + extra) return 0;
        len = 0;
        for (size_t i = 0; i < extra; i++) len = len << 8 | p[2 + i];
        h += extra;
    }
    if (len > WS_MAX_MESSAGE) return set_error(c, "a server frame of %llu bytes", (unsigned long long)len), -1;
    if (avail < h + len) return 0;
    f->payload = p + h, f->len = (size_t)len;
    c->in_pos += h + (size_t)len;
    return 1;
}

static int handle_close(ws_client *c, const ws_frame *f)
{
    c->close_code = f->len >= 2 ? (f->payload[0] << 8 | f->payload[1]) : 1005;
    size_t rlen = f->len > 2 ? f->len - 2 : 0;
    if (rlen >= sizeof c->close_reason) rlen = sizeof c->close_reason - 1;
    memcpy(c->close_reason, f->payload + (f->len > 2 ? 2 : 0), rlen);
    c->close_reason[rlen] = '\0';
    if (!c->close_sent) {
        uint8_t echo[2] = {(uint8_t)(c->close_code >> 8), (uint8_t)c->close_code};
        ws_send_frame_raw(c, WS_OP_CLOSE, 1, echo, c->close_code == 1005 ? 0 : 2);
        c->close_sent = 1;
    }
    c->state = WS_CLOSED;
    return WS_CLOSED;
}

/* Ping, pong or close; returns WS_OK to go on, or the final status. */
static int handle_control(ws_client *c, const ws_frame *f)
{
    if (!f->fin || f->len > 125) return set_error(c, "control frame 0x%x fragmented or longer than 125", f->opcode), WS_ERROR;
    if (f->opcode == WS_OP_CLOSE) return handle_close(c, f);
    if (f->opcode == WS_OP_PING) {
        c->pings++;
        if (!c->pings_unanswered && ws_send_frame_raw(c, WS_OP_PONG, 1, f->payload, f->len) != 0) return set_error(c, "pong failed"), WS_ERROR;
    } else if (f->opcode == WS_OP_PONG) {
        c->pongs++;
    } else {
        return set_error(c, "unknown opcode 0x%x", f->opcode), WS_ERROR;
    }
    return WS_OK;
}

/* Adds a data frame to the message in progress; 1 when the message is complete, 0 to go on, -1. */
static int add_data(ws_client *c, const ws_frame *f)
{
    if (f->opcode == WS_OP_CONTINUATION && !c->msg_opcode) return set_error(c, "continuation without a message"), -1;
    if (f->opcode != WS_OP_CONTINUATION && c->msg_opcode) return set_error(c, "new message inside a fragmented one"), -1;
    if (f->opcode != WS_OP_CONTINUATION) c->msg_opcode = f->opcode, c->msg_len = 0;
    if (c->msg_len + f->len > WS_MAX_MESSAGE) return set_error(c, "a server message above %u bytes", WS_MAX_MESSAGE), -1;
    if (reserve(&c->msg, &c->msg_cap, c->msg_len + f->len + 1) != 0) return set_error(c, "out of memory"), -1;
    if (f->len) memcpy(c->msg + c->msg_len, f->payload, f->len);
    c->msg_len += f->len;
    return f->fin;
}

/* Processes buffered frames: WS_OK with m filled, WS_TIMEOUT when more bytes are needed, or final. */
static ws_status process_buffer(ws_client *c, ws_message *m)
{
    ws_frame f;
    int r;
    while ((r = take_frame(c, &f)) == 1) {
        if (f.opcode >= 8) {
            int s = handle_control(c, &f);
            if (s != WS_OK) return (ws_status)s;
            continue;
        }
        if (f.opcode > WS_OP_BINARY) return set_error(c, "unknown opcode 0x%x", f.opcode), WS_ERROR;
        int done = add_data(c, &f);
        if (done < 0) return WS_ERROR;
        if (done) {
            c->msg[c->msg_len] = '\0';
            *m = (ws_message){c->msg_opcode, c->msg, c->msg_len};
            c->msg_opcode = 0, c->returned = 1;
            return WS_OK;
        }
    }
    return r < 0 ? WS_ERROR : WS_TIMEOUT;
}

ws_status ws_recv(ws_client *c, int timeout_ms, ws_message *m)
{
    int64_t deadline = ws_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    *m = (ws_message){0, NULL, 0};
    if (c->returned) c->returned = 0, c->msg_len = 0;
    while (c->state == WS_OK) {
        ws_status s = process_buffer(c, m);
        if (s != WS_TIMEOUT) return s;
        int r = fill(c, deadline);
        if (r == 0) return WS_TIMEOUT;
        if (r < 0 && c->state == WS_OK) c->state = WS_CLOSED; /* the connection ended without a close frame */
    }
    return (ws_status)c->state;
}

int ws_close(ws_client *c, int code, int timeout_ms)
{
    if (!c) return -1;
    if (c->state == WS_OK && !c->close_sent) {
        uint8_t payload[2] = {(uint8_t)(code >> 8), (uint8_t)code};
        ws_send_frame_raw(c, WS_OP_CLOSE, 1, payload, code ? 2 : 0);
        c->close_sent = 1;
    }
    int64_t deadline = ws_now_ms() + timeout_ms;
    ws_message m;
    while (c->state == WS_OK && ws_now_ms() < deadline) ws_recv(c, (int)(deadline - ws_now_ms()), &m);
    int result = c->close_code;
    ws_free(c);
    return result;
}

int ws_close_code(const ws_client *c) { return c->close_code; }
int ws_is_open(const ws_client *c) { return c->state == WS_OK; }
const char *ws_close_reason(const ws_client *c) { return c->close_reason; }
const char *ws_error(const ws_client *c) { return c->error[0] ? c->error : "no error"; }
int ws_fd(const ws_client *c) { return c->fd; }
size_t ws_buffered(const ws_client *c) { return c->in_len - c->in_pos; }
long ws_pongs_received(const ws_client *c) { return c->pongs; }
long ws_pings_received(const ws_client *c) { return c->pings; }
void ws_answer_pings(ws_client *c, int answer) { c->pings_unanswered = !answer; }
