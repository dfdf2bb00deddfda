/* The room's address: what the viewer's room link and QR code show (serve --public-url, else an
 * address of this host that others can reach), the check of --public-url, and the presenter's URL. */
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/server.h"

#define MAX_PUBLIC_URL_CHARS 512

const char *fc_room_source_name(fc_room_source source)
{
    switch (source) {
    case FC_ROOM_PUBLIC_URL: return "public_url";
    case FC_ROOM_INTERFACE: return "interface";
    default: return "loopback";
    }
}

/* Characters a URL's path may hold as typed (RFC 3986 pchar and '/', '%' for escapes). */
static int path_char(char c)
{
    return isalnum((unsigned char)c) || strchr("-._~!$&'()*+,;=:@/%", c) != NULL;
}

int fc_public_url_check(const char *url, char *out, size_t outlen, char *err, size_t errlen)
{
    const char *expected = "expected http://HOST[:PORT][/PATH] or https://..., the address the room opens";
    size_t len = strlen(url);
    if (len == 0 || len > MAX_PUBLIC_URL_CHARS) {
        snprintf(err, errlen, "%s (at most %d characters), got %zu characters", expected, MAX_PUBLIC_URL_CHARS, len);
        return -1;
    }
    const char *host = strncmp(url, "http://", 7) == 0 ? url + 7 : strncmp(url, "https://", 8) == 0 ? url + 8 : NULL;
    if (!host) {
        snprintf(err, errlen, "%s, got '%s' (no http:// or https://)", expected, url);
        return -1;
    }
    const char *p = host;
    if (*p == '[') { /* an IPv6 literal */
        p++;
        while (isxdigit((unsigned char)*p) || *p == ':' || *p == '.') p++;
        if (*p != ']' || p == host + 1) {
            snprintf(err, errlen, "%s, got '%s' (the IPv6 address in [ ] is not closed or not an address)", expected, url);
            return -1;
        }
        p++;
    } else {
        while (isalnum((unsigned char)*p) || *p == '-' || *p == '.') p++;
        if (p == host) {
            snprintf(err, errlen, "%s, got '%s' (no host name)", expected, url);
            return -1;
        }
    }
    if (*p == ':') {
        const char *digits = ++p;
        long port = 0;
        while (isdigit((unsigned char)*p) && p - digits < 6) port = port * 10 + (*p++ - '0');
        if (p == digits || port < 1 || port > 65535) {
            snprintf(err, errlen, "%s, got '%s' (the port must be a number from 1 to 65535)", expected, url);
            return -1;
        }
    }
    if (*p && *p != '/') {
        snprintf(err, errlen, "%s, got '%s' ('%c' after the host)", expected, url, *p);
        return -1;
    }
    for (const char *q = p; *q; q++)
        if (!path_char(*q)) {
            snprintf(err, errlen, "%s, got '%s' (the path holds '%c'; no query, fragment or spaces: the viewer adds "
                                  "?world=N)", expected, url, isprint((unsigned char)*q) ? *q : '?');
            return -1;
        }
    if (snprintf(out, outlen, "%s%s", url, len && url[len - 1] == '/' ? "" : "/") >= (int)outlen) {
        snprintf(err, errlen, "%s: too long", expected);
        return -1;
    }
    return 0;
}

/* The first IPv4 address of an interface that is up and not loopback, into text; 0 or -1. */
static int first_interface_address(char *text, size_t textlen)
{
    struct ifaddrs *list = NULL;
    if (getifaddrs(&list) != 0) return -1;
    int found = -1;
    for (struct ifaddrs *a = list; a && found; a = a->ifa_next) {
        if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
        if (!(a->ifa_flags & IFF_UP) || (a->ifa_flags & IFF_LOOPBACK)) continue;
        const struct sockaddr_in *in = (const struct sockaddr_in *)a->ifa_addr;
        if (inet_ntop(AF_INET, &in->sin_addr, text, (socklen_t)textlen)) found = 0;
    }
    freeifaddrs(list);
    return found;
}

static int is_loopback_host(const char *host)
{
    return strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0 || strcmp(host, "localhost") == 0;
}

fc_room_source fc_room_url(const char *public_url, const char *bind, int port, char *out, size_t outlen)
{
    if (public_url && public_url[0]) {
        snprintf(out, outlen, "%s", public_url);
        return FC_ROOM_PUBLIC_URL;
    }
    char address[INET6_ADDRSTRLEN] = "";
    const int wildcard = strcmp(bind, "0.0.0.0") == 0 || strcmp(bind, "::") == 0;
    fc_room_source source = FC_ROOM_LOOPBACK;
    if (wildcard && first_interface_address(address, sizeof address) == 0) {
        source = FC_ROOM_INTERFACE;
    } else if (!wildcard && !is_loopback_host(bind)) {
        snprintf(address, sizeof address, "%.*s", (int)sizeof address - 1, bind);
        source = FC_ROOM_INTERFACE;
    } else {
        snprintf(address, sizeof address, "127.0.0.1");
    }
    const int ipv6 = strchr(address, ':') != NULL;
    snprintf(out, outlen, "http://%s%s%s:%d/", ipv6 ? "[" : "", address, ipv6 ? "]" : "", port);
    return source;
}

void fc_presenter_url(const char *room_url, const char *token, char *out, size_t outlen)
{
    size_t n = (size_t)snprintf(out, outlen, "%s", room_url);
    if (!token || n >= outlen) return;
    n += (size_t)snprintf(out + n, outlen - n, "?token=");
    for (const unsigned char *c = (const unsigned char *)token; *c && n + 4 < outlen; c++) /* percent-encoded */
        n += (size_t)(isalnum(*c) || strchr("-._~", *c) ? snprintf(out + n, outlen - n, "%c", *c)
                                                         : snprintf(out + n, outlen - n, "%%%02X", *c));
}
