/* CHECKs shared by the server tests: a request answered with an ack, or with a given error.
 * A header of static functions so that the CHECK counters are those of the test that includes it. */
#ifndef FC_TEST_EXPECT_H
#define FC_TEST_EXPECT_H

#include "check.h"
#include "peer.h"

/* Sends json as a request; CHECKs that the reply is an ack of its type and returns it (caller frees). */
static inline cJSON *expect_ack(peer *p, const char *json)
{
    cJSON *r = peer_request(p, json, PEER_TIMEOUT_MS);
    cJSON *req = cJSON_Parse(json);
    CHECK(jtype_is(r, "ack") && jstr_is(r, "request", jstr(req, "type")) && cJSON_IsObject(jget(r, "applied")),
          "%s: acked with applied, got %s", json, jtext(r));
    cJSON_Delete(req);
    return r;
}

/* Sends json as a request; CHECKs that the reply is error code with field (as is_error). */
static inline void expect_error(peer *p, const char *json, const char *code, const char *field)
{
    cJSON *r = peer_request(p, json, PEER_TIMEOUT_MS);
    CHECK(is_error(r, code, field) && jstr(r, "message") && *jstr(r, "message"), "%s: error %s (field %s), got %s", json,
          code, field ? field : "null", jtext(r));
    cJSON_Delete(r);
}

/* Connects and says hello (with token unless NULL); CHECKs the welcome and its role. 0 or -1. */
static inline int expect_hello(peer *p, int port, const char *name, const char *token, const char *role)
{
    if (peer_connect(p, port, name) != 0) {
        CHECK(0, "%s: connects", name);
        return -1;
    }
    cJSON *w = peer_hello(p, token);
    int ok = jtype_is(w, "welcome") && (!role || jstr_is(w, "role", role));
    CHECK(ok, "%s: hello gets a welcome with role %s: %s", name, role ? role : "any", jtext(w));
    cJSON_Delete(w);
    return ok ? 0 : -1;
}

/* expect_hello, then a subscription to world 1 with extra options; 0 or -1. */
static inline int expect_subscriber(peer *p, int port, const char *name, const char *extra)
{
    if (expect_hello(p, port, name, NULL, NULL) != 0) return -1;
    cJSON *r = peer_subscribe(p, 1, extra);
    int ok = jtype_is(r, "ack");
    CHECK(ok, "%s: subscribe to world 1 is acked: %s", name, jtext(r));
    cJSON_Delete(r);
    return ok ? 0 : -1;
}

#endif
