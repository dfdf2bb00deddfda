/* Connection slots (PROTOCOL.md section 1, "Slots"): no client can hog the server by connecting and
 * saying nothing. Every accepted connection is half-open for its address until it completes an HTTP
 * request or its WebSocket says hello, and one address has at most FC_HALF_OPEN_PER_ADDRESS of them;
 * libwebsockets closes a connection whose request is not complete within FC_HANDSHAKE_TIMEOUT_S
 * (info.timeout_secs) and the tick closes a WebSocket without hello after FC_HELLO_TIMEOUT_S
 * (1008). A full server makes room for a new WebSocket by closing the oldest one that has not said
 * hello (1013), so silent sockets cannot keep a token holder's handshake out, and refuses it with
 * 1013 only when every open one said hello; a token holder's hello then takes the slot of the
 * oldest watcher. Everything here runs on the network thread. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "net/net.h"

/* ---- addresses ---------------------------------------------------------------------------------- */

/* The address as 16 bytes (IPv4 as ::ffff:a.b.c.d, so that both spellings count as one); 0, or -1
 * for another family (a Unix socket: not limited). */
static int address_key(const struct sockaddr_storage *a, unsigned char key[16])
{
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (a->ss_family == AF_INET) {
        memcpy(key, mapped, 12);
        memcpy(key + 12, &((const struct sockaddr_in *)a)->sin_addr, 4);
        return 0;
    }
    if (a->ss_family == AF_INET6) {
        memcpy(key, &((const struct sockaddr_in6 *)a)->sin6_addr, 16);
        return 0;
    }
    return -1;
}

static fc_connection *find_connection(fc_server *s, const struct lws *wsi)
{
    for (int i = 0; i < s->connection_count; i++)
        if (s->connections[i].wsi == wsi) return &s->connections[i];
    return NULL;
}

static int half_open_from(const fc_server *s, const unsigned char key[16])
{
    int n = 0;
    for (int i = 0; i < s->connection_count; i++)
        n += s->connections[i].half_open && memcmp(s->connections[i].address, key, 16) == 0;
    return n;
}

int fc_slots_filter_connection(fc_server *s, const struct lws_filter_network_conn_args *a)
{
    unsigned char key[16];
    if (!a || address_key(&a->cli_addr, key) != 0) return 0;
    if (half_open_from(s, key) < FC_HALF_OPEN_PER_ADDRESS) return 0;
    s->metrics.refused_address++;
    return 1; /* libwebsockets closes the socket at once */
}

void fc_slots_accepted(fc_server *s, struct lws *wsi)
{
    struct sockaddr_storage a;
    socklen_t len = sizeof a;
    unsigned char key[16];
    if (getpeername(lws_get_socket_fd(wsi), (struct sockaddr *)&a, &len) != 0 || address_key(&a, key) != 0) return;
    if (s->connection_count == s->connection_cap) {
        int cap = s->connection_cap ? 2 * s->connection_cap : 64;
        fc_connection *grown = realloc(s->connections, (size_t)cap * sizeof *grown);
        if (!grown) return; /* not counted: the limit is a protection, not a condition of service */
        s->connections = grown, s->connection_cap = cap;
    }
    fc_connection *r = &s->connections[s->connection_count++];
    r->wsi = wsi;
    memcpy(r->address, key, 16);
    r->half_open = 1;
}

void fc_slots_half_open(fc_server *s, struct lws *wsi, int half_open)
{
    fc_connection *r = find_connection(s, wsi);
    if (r) r->half_open = half_open;
}

void fc_slots_destroyed(fc_server *s, struct lws *wsi)
{
    fc_connection *r = find_connection(s, wsi);
    if (r) *r = s->connections[--s->connection_count];
}

void fc_slots_free(fc_server *s)
{
    free(s->connections);
    s->connections = NULL;
    s->connection_count = s->connection_cap = 0;
}

/* ---- WebSocket sessions ------------------------------------------------------------------------- */

int fc_slots_make_room(fc_server *s)
{
    if (s->session_count < s->options.max_clients + FC_RESERVED_SLOTS) return 0;
    fc_session *oldest_silent = NULL;
    for (fc_session *o = s->sessions; o; o = o->next)
        if (!o->said_hello && !o->closing && !o->end_code && (!oldest_silent || o->opened_at < oldest_silent->opened_at))
            oldest_silent = o;
    if (!oldest_silent) return -1;
    s->metrics.evicted++;
    fc_session_end(oldest_silent, FC_CLOSE_TRY_AGAIN_LATER, "a newer connection needed this slot; say hello sooner",
                   NULL);
    return 0;
}

int fc_slots_admit(fc_session *c, int control)
{
    fc_server *s = c->server;
    if (c->said_hello) return 0; /* a second hello keeps its slot */
    int admitted = 0;
    fc_session *oldest_watcher = NULL;
    for (fc_session *o = s->sessions; o; o = o->next) {
        if (o == c || !o->said_hello || o->closing || o->end_code) continue;
        admitted++;
        if (!o->control && (!oldest_watcher || o->id < oldest_watcher->id)) oldest_watcher = o;
    }
    if (admitted >= s->options.max_clients) {
        if (!control || !oldest_watcher) {
            s->metrics.refused_full++;
            fc_session_end(c, FC_CLOSE_TRY_AGAIN_LATER, "the server is full; try again later", "full");
            return -1;
        }
        s->metrics.evicted++;
        fc_session_end(oldest_watcher, FC_CLOSE_TRY_AGAIN_LATER,
                       "a client with the token needed this slot; try again later", "evicted");
    }
    fc_slots_half_open(s, c->wsi, 0);
    return 0;
}

void fc_slots_tick(fc_server *s)
{
    double now = fc_host_now();
    for (fc_session *c = s->sessions; c; c = c->next)
        if (!c->said_hello && !c->closing && !c->end_code && now - c->opened_at >= FC_HELLO_TIMEOUT_S) {
            s->metrics.hello_timeouts++;
            fc_session_end(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, "expected hello within 5 s", NULL);
        }
}
