/* SHA-1 (FIPS 180-4) and base64 for the test WebSocket client's handshake check. */
#include "sha1.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    uint32_t h[5];
    uint8_t block[64];
    size_t used;
    uint64_t total;
} sha1_ctx;

static uint32_t rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

static void sha1_block(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 80; i++) w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) f = (b & c) | (~b & d), k = 0x5A827999;
        else if (i < 40) f = b ^ c ^ d, k = 0x6ED9EBA1;
        else if (i < 60) f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
        else f = b ^ c ^ d, k = 0xCA62C1D6;
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d, d = c, c = rol(b, 30), b = a, a = t;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

static void sha1_update(sha1_ctx *c, const uint8_t *p, size_t len)
{
    c->total += len;
    while (len) {
        size_t n = 64 - c->used < len ? 64 - c->used : len;
        memcpy(c->block + c->used, p, n);
        c->used += n, p += n, len -= n;
        if (c->used == 64) sha1_block(c->h, c->block), c->used = 0;
    }
}

void sha1_digest(const void *data, size_t len, uint8_t digest[20])
{
    sha1_ctx c = {{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0}, {0}, 0, 0};
    sha1_update(&c, data, len);
    uint64_t bits = c.total * 8;
    uint8_t pad[72] = {0x80};
    size_t padlen = (c.used < 56 ? 56 : 120) - c.used;
    for (int i = 0; i < 8; i++) pad[padlen + i] = (uint8_t)(bits >> (56 - 8 * i));
    sha1_update(&c, pad, padlen + 8);
    for (int i = 0; i < 20; i++) digest[i] = (uint8_t)(c.h[i / 4] >> (24 - 8 * (i % 4)));
}

char *base64_encode(const uint8_t *data, size_t len, char *out)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < len ? (uint32_t)data[i + 1] << 8 : 0) |
                     (i + 2 < len ? data[i + 2] : 0);
        out[o++] = abc[v >> 18 & 63];
        out[o++] = abc[v >> 12 & 63];
        out[o++] = i + 1 < len ? abc[v >> 6 & 63] : '=';
        out[o++] = i + 2 < len ? abc[v & 63] : '=';
    }
    out[o] = '\0';
    return out;
}

void ws_accept_value(const char *key, char out[32])
{
    char joined[128];
    uint8_t digest[20];
    int n = snprintf(joined, sizeof joined, "%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key);
    sha1_digest(joined, n > 0 ? (size_t)n : 0, digest);
    base64_encode(digest, sizeof digest, out);
}
