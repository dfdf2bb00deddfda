/* Keepalive (PROTOCOL.md section 1, "Keepalive"): the server pings a WebSocket client that has not
 * answered a ping for FC_PING_INTERVAL_S and closes one that leaves a ping unanswered for
 * FC_PING_TIMEOUT_S with 1008 and a reason, counted in /metrics. libwebsockets' own validity pings
 * would hang up without a close frame and uncounted, so its policy is set past any session's life
 * (fc_keepalive_lws_policy) and the pings are sent here. Everything here runs on the network thread. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"

const lws_retry_bo_t *fc_keepalive_lws_policy(void)
{
    static const lws_retry_bo_t never = {.secs_since_valid_ping = 65534, .secs_since_valid_hangup = 65535};
    return &never;
}

/* FLUIDCAST_TEST_PING = "INTERVAL:TIMEOUT" (seconds) shortens both for tests. */
void fc_keepalive_init(fc_server *s)
{
    s->ping_interval_s = FC_PING_INTERVAL_S;
    s->ping_timeout_s = FC_PING_TIMEOUT_S;
    const char *test = getenv("FLUIDCAST_TEST_PING");
    double interval, timeout;
    if (test && sscanf(test, "%lf:%lf", &interval, &timeout) == 2 && interval > 0 && timeout > 0) {
        s->ping_interval_s = interval;
        s->ping_timeout_s = timeout;
    }
    snprintf(s->ping_timeout_reason, sizeof s->ping_timeout_reason, "no answer to a ping within %g s",
             s->ping_timeout_s);
}

void fc_keepalive_start(fc_session *c)
{
    c->alive_at = fc_host_now();
    c->ping_sent_at = 0.0;
}

void fc_keepalive_pong(fc_session *c)
{
    c->alive_at = fc_host_now();
    c->ping_sent_at = 0.0;
}

void fc_keepalive_tick(fc_server *s)
{
    const double now = fc_host_now();
    for (fc_session *c = s->sessions; c; c = c->next) {
        if (c->closing || c->end_code) continue; /* leaving anyway */
        if (c->ping_sent_at > 0.0 && now - c->ping_sent_at >= s->ping_timeout_s) {
            s->metrics.ping_timeouts++;
            fc_session_end(c, LWS_CLOSE_STATUS_POLICY_VIOLATION, s->ping_timeout_reason, NULL);
        } else if (c->ping_sent_at == 0.0 && now - c->alive_at >= s->ping_interval_s) {
            c->ping_due = 1;
            lws_callback_on_writable(c->wsi);
        }
    }
}

int fc_keepalive_write_ping(fc_session *c)
{
    if (!c->ping_due) return 0;
    static const char payload[] = "fluidcast";
    unsigned char frame[LWS_PRE + sizeof payload];
    memcpy(frame + LWS_PRE, payload, sizeof payload - 1);
    if (lws_write(c->wsi, frame + LWS_PRE, sizeof payload - 1, LWS_WRITE_PING) < (int)(sizeof payload - 1)) return -1;
    c->ping_due = 0;
    c->ping_sent_at = fc_host_now();
    return 1;
}
