/* SHA-1 and base64, just enough to check a WebSocket handshake's Sec-WebSocket-Accept (RFC 6455). */
#ifndef FC_TEST_SHA1_H
#define FC_TEST_SHA1_H

#include <stddef.h>
#include <stdint.h>

/* The 20-byte SHA-1 digest of len bytes. */
void sha1_digest(const void *data, size_t len, uint8_t digest[20]);

/* Standard base64 with padding of len bytes into out (room for 4 * ceil(len / 3) + 1); returns out. */
char *base64_encode(const uint8_t *data, size_t len, char *out);

/* base64(SHA-1(key + the RFC 6455 GUID)): the Sec-WebSocket-Accept a server must answer; out: 29+ bytes. */
void ws_accept_value(const char *key, char out[32]);

#endif
