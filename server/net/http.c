/* Plain HTTP on the server's port: /healthz, /metrics, and a page saying how to build the viewer
 * when web/dist is missing (the built viewer itself is served by a libwebsockets file mount). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "net/net.h"

static const char not_built_page[] =
    "<!doctype html><html><head><meta charset=\"utf-8\"><title>fluidcast</title></head><body>"
    "<h1>fluidcast</h1><p>The server runs, but the viewer is not built.</p>"
    "<p>Build it with <code>cd web &amp;&amp; npm ci &amp;&amp; npm run build</code> and restart the server "
    "(or give <code>--web DIR</code>).</p>"
    "<p><a href=\"/healthz\">/healthz</a> &middot; <a href=\"/metrics\">/metrics</a></p></body></html>\n";

/* Sends the headers now and keeps the body for the writable callback. 0, or -1 to close. */
static int respond(struct lws *wsi, fc_http_session *h, unsigned status, const char *type, const char *body,
                   size_t len, int owned)
{
    unsigned char buf[LWS_PRE + 512], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
    h->body = owned ? (char *)body : malloc(len + 1);
    if (!h->body) return -1;
    if (!owned) memcpy(h->body, body, len);
    h->len = len;
    if (lws_add_http_common_headers(wsi, status, type, len, &p, end) ||
        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, (const unsigned char *)"no-store", 8, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    lws_callback_on_writable(wsi);
    return 0;
}

static int route(struct lws *wsi, fc_http_session *h)
{
    fc_server *s = lws_context_user(lws_get_context(wsi));
    char uri[256] = "";
    if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0) {
        static const char text[] = "only GET is served here\n";
        return respond(wsi, h, HTTP_STATUS_METHOD_NOT_ALLOWED, "text/plain", text, sizeof text - 1, 0);
    }
    lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI);
    char *query = strchr(uri, '?');
    if (query) *query = '\0';
    if (strcmp(uri, "/healthz") == 0) return respond(wsi, h, HTTP_STATUS_OK, "text/plain", "ok\n", 3, 0);
    if (strcmp(uri, "/metrics") == 0) {
        size_t len = 0;
        char *text = fc_metrics_render(&s->metrics, s->session_count, s->worlds, s->world_count, &len);
        if (!text) return -1;
        return respond(wsi, h, HTTP_STATUS_OK, "text/plain; version=0.0.4; charset=utf-8", text, len, 1);
    }
    if (!s->web_dir_ok && (strcmp(uri, "/") == 0 || strcmp(uri, "/index.html") == 0))
        return respond(wsi, h, HTTP_STATUS_OK, "text/html; charset=utf-8", not_built_page, sizeof not_built_page - 1, 0);
    static const char missing[] = "not found\n";
    return respond(wsi, h, HTTP_STATUS_NOT_FOUND, "text/plain", missing, sizeof missing - 1, 0);
}

/* ---- request limits ---------------------------------------------------------------------------- */

const struct lws_token_limits *fc_http_token_limits(void)
{
    static struct lws_token_limits limits;
    if (!limits.token_limit[0])
        for (int t = 0; t < WSI_TOKEN_COUNT; t++) limits.token_limit[t] = FC_HTTP_MAX_HEADER + 1;
    return &limits;
}

/* The tokens that hold the request's path (one per method) and its query arguments. */
static int is_url_token(int t)
{
    static const int url[] = {WSI_TOKEN_GET_URI,   WSI_TOKEN_POST_URI,   WSI_TOKEN_OPTIONS_URI,   WSI_TOKEN_PATCH_URI,
                              WSI_TOKEN_PUT_URI,   WSI_TOKEN_DELETE_URI, WSI_TOKEN_HEAD_URI,      WSI_TOKEN_HTTP_URI_ARGS};
    for (size_t i = 0; i < sizeof url / sizeof url[0]; i++)
        if (t == url[i]) return 1;
    return 0;
}

/* Answers status with a short text and asks libwebsockets to close; -1. */
static int refuse_request(struct lws *wsi, unsigned status, const char *title, const char *text)
{
    unsigned char buf[LWS_PRE + 512];
    char *p = (char *)buf + LWS_PRE;
    int n = snprintf(p, 512,
                     "HTTP/1.1 %u %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %zu\r\n"
                     "Cache-Control: no-store\r\nConnection: close\r\n\r\n%s",
                     status, title, strlen(text), text);
    if (n > 0 && n < 512) lws_write(wsi, (unsigned char *)p, (size_t)n, LWS_WRITE_HTTP);
    return -1;
}

int fc_http_check_request(struct lws *wsi)
{
    fc_server *s = lws_context_user(lws_get_context(wsi));
    long url = 0, headers = 0, longest = 0;
    for (int t = 0; t < _WSI_TOKEN_CLIENT_SENT_PROTOCOLS; t++) {
        int n = lws_hdr_total_length(wsi, (enum lws_token_indexes)t);
        if (n <= 0) continue;
        if (is_url_token(t)) {
            url += n;
        } else {
            headers += n;
            if (n > longest) longest = n;
        }
    }
    /* a value cut at its token limit (FC_HTTP_MAX_HEADER + 1) is longer than the limit, as sent */
    if (url > FC_HTTP_MAX_URL) {
        s->metrics.http_414++;
        return refuse_request(wsi, 414, "URI Too Long", "the URL is longer than 4096 bytes\n");
    }
    if (longest > FC_HTTP_MAX_HEADER || headers > FC_HTTP_MAX_HEADERS) {
        s->metrics.http_431++;
        return refuse_request(wsi, 431, "Request Header Fields Too Large",
                              "a header is longer than 4096 bytes, or all of them longer than 8192\n");
    }
    return 0;
}

int fc_http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    fc_http_session *h = user;
    switch (reason) {
    case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return fc_session_callback(wsi, reason, NULL, in, len); /* the checks all requests get */
    case LWS_CALLBACK_HTTP:
        return route(wsi, h) ? -1 : 0;
    case LWS_CALLBACK_HTTP_WRITEABLE: {
        if (!h || !h->body) break;
        unsigned char *buf = malloc(LWS_PRE + h->len);
        if (!buf) return -1;
        memcpy(buf + LWS_PRE, h->body, h->len);
        int n = lws_write(wsi, buf + LWS_PRE, h->len, LWS_WRITE_HTTP_FINAL);
        free(buf);
        free(h->body);
        h->body = NULL;
        if (n < (int)h->len) return -1;
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    }
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
    case LWS_CALLBACK_CLOSED_HTTP:
        if (h) free(h->body), h->body = NULL;
        break;
    default: break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}
