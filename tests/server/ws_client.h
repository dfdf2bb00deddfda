/* A small blocking WebSocket client (RFC 6455) over a TCP socket to 127.0.0.1, for the server tests:
 * every read and write waits with poll() and a timeout, so no test can hang on the network. */
#ifndef FC_TEST_WS_CLIENT_H
#define FC_TEST_WS_CLIENT_H

#include <stddef.h>
#include <stdint.h>

enum { WS_OP_CONTINUATION = 0, WS_OP_TEXT = 1, WS_OP_BINARY = 2, WS_OP_CLOSE = 8, WS_OP_PING = 9, WS_OP_PONG = 10 };

typedef enum {
    WS_OK = 0,      /* a complete text or binary message */
    WS_TIMEOUT = 1, /* none within the time; the connection is intact */
    WS_CLOSED = 2,  /* the server closed (ws_close_code says how) */
    WS_ERROR = -1   /* a protocol violation by the server or a socket error (ws_error says which) */
} ws_status;

/* A received message: data is NUL-terminated (the NUL is not counted in len) and stays valid until
 * the next ws_recv on the same client. */
typedef struct {
    int opcode; /* WS_OP_TEXT or WS_OP_BINARY */
    const uint8_t *data;
    size_t len;
} ws_message;

typedef struct {
    int port;
    const char *path;        /* NULL: "/" */
    const char *subprotocol; /* offered in Sec-WebSocket-Protocol ("a, b" offers two); NULL offers none */
    int timeout_ms;          /* for the TCP connect and the handshake */
    int rcvbuf;              /* > 0: SO_RCVBUF set before connecting (a small one fills fast) */
} ws_options;

/* What the handshake gave, also when it failed. */
typedef struct {
    int status;        /* HTTP status of the answer, 0 when none came */
    char protocol[64]; /* the Sec-WebSocket-Protocol the server chose, "" when none */
    char error[256];   /* why ws_open failed */
} ws_handshake;

typedef struct ws_client ws_client;

/* Connects and upgrades; checks 101, Upgrade, Connection, Sec-WebSocket-Accept and that the chosen
 * subprotocol is the one offered. NULL on failure (hs, which may be NULL, says why). */
ws_client *ws_open(const ws_options *options, ws_handshake *hs);
/* ws_open on "/" with the defaults. */
ws_client *ws_connect(int port, const char *subprotocol, int timeout_ms);
/* Closes the socket without a close handshake and frees the client (NULL is fine). */
void ws_free(ws_client *c);

/* Sends one masked frame (any opcode, FIN or not, any payload length); 0 or -1. */
int ws_send_frame_raw(ws_client *c, int opcode, int fin, const void *payload, size_t len);
/* The same without the mask (a client must mask every frame: RFC 6455 5.1); 0 or -1. */
int ws_send_frame_unmasked(ws_client *c, int opcode, int fin, const void *payload, size_t len);
/* Sends a close frame with this exact payload (any code, any bytes, also 1 byte) and remembers that
 * it was sent, so that the server's close is not answered again; 0 or -1. */
int ws_send_close_raw(ws_client *c, const void *payload, size_t len);
int ws_send_text(ws_client *c, const char *text);
int ws_send_text_len(ws_client *c, const void *text, size_t len);
int ws_send_binary(ws_client *c, const void *data, size_t len);
/* Writes the bytes on the socket as they are (no framing); 0 or -1. */
int ws_send_bytes_raw(ws_client *c, const void *bytes, size_t len);

/* The next complete data message within timeout_ms (0: only what is already there). Answers pings
 * with pongs and the server's close with a close, reassembles fragments. After WS_CLOSED or
 * WS_ERROR every later call returns the same. */
ws_status ws_recv(ws_client *c, int timeout_ms, ws_message *m);

/* Sends a close frame with code (0: none), waits up to timeout_ms for the server's close, and
 * returns the server's close code (as ws_close_code), then frees the client. */
int ws_close(ws_client *c, int code, int timeout_ms);

/* The server's close code: 1005 for a close frame without one, -1 when the connection ended
 * without a close frame (or has not ended). */
int ws_close_code(const ws_client *c);
/* 1 while neither side has ended the connection and no error happened. */
int ws_is_open(const ws_client *c);
const char *ws_close_reason(const ws_client *c);
const char *ws_error(const ws_client *c);
int ws_fd(const ws_client *c);
/* Bytes of server data already read from the socket but not yet returned as messages. */
size_t ws_buffered(const ws_client *c);
long ws_pongs_received(const ws_client *c);
/* answer 0: the client stops answering pings (a peer that went away); 1: answers again. */
void ws_answer_pings(ws_client *c, int answer);
long ws_pings_received(const ws_client *c);

/* Milliseconds of a monotonic clock. */
int64_t ws_now_ms(void);

/* Socket helpers, also for plain HTTP: a non-blocking TCP connection to 127.0.0.1:port (rcvbuf > 0
 * sets SO_RCVBUF first; -1 on failure or timeout); waiting for poll events until a ws_now_ms()
 * deadline (1 ready, 0 timeout, -1 error); writing everything within a time (0 or -1). */
int ws_tcp_connect(int port, int rcvbuf, int timeout_ms);
int ws_fd_wait(int fd, short events, int64_t deadline);
int ws_write_all(int fd, const void *data, size_t len, int timeout_ms);

#endif
