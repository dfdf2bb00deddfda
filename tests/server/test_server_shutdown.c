/* Server over real sockets: SIGTERM and SIGINT with clients connected. Each client gets a bye
 * message as its last one and a close with code 1001; the server exits 0 (under ASan a leak makes
 * the exit status non-zero, which fails this test on purpose). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>

#include "expect.h"
#include "test_env.h"

static test_env env;

typedef struct {
    int bye, after_bye; /* a bye came; messages that came after it */
    int close_code;
} farewell;

/* Reads until the server closes (or 20 s pass). */
static farewell read_until_closed(peer *p)
{
    farewell f = {0, 0, -1};
    ws_message m;
    for (int64_t deadline = ws_now_ms() + 20000; ws_now_ms() < deadline;) {
        ws_status st = ws_recv(p->ws, 200, &m);
        if (st == WS_CLOSED || st == WS_ERROR) break;
        if (st != WS_OK) continue;
        f.after_bye += f.bye;
        cJSON *msg = m.opcode == WS_OP_TEXT ? cJSON_Parse((const char *)m.data) : NULL;
        if (jtype_is(msg, "bye")) {
            f.bye = 1;
            CHECK(jstr_is(msg, "reason", "shutdown") && cJSON_IsNull(jget(msg, "id")) && jstr(msg, "message"),
                  "%s: bye has reason shutdown, id null and a message: %s", p->name, jtext(msg));
        }
        cJSON_Delete(msg);
    }
    f.close_code = ws_close_code(p->ws);
    return f;
}

static void check_farewell(peer *p, int want_bye)
{
    farewell f = read_until_closed(p);
    if (want_bye) CHECK(f.bye && f.after_bye == 0, "%s: a bye is the last message (bye %d, %d after it)", p->name, f.bye, f.after_bye);
    CHECK(f.close_code == 1001, "%s: the server closes with code 1001 (got %d)", p->name, f.close_code);
}

static void check_shutdown(int sig, const char *signame)
{
    server_process s;
    if (test_server_start(&s, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), NULL) != 0) {
        CHECK(0, "the server starts");
        return;
    }
    peer subscriber = {0}, idle = {0}, silent = {0};
    int ok = expect_subscriber(&subscriber, s.port, "subscriber", "") == 0 &&
             expect_hello(&idle, s.port, "idle", NULL, "control") == 0 && peer_connect(&silent, s.port, "no hello") == 0;
    CHECK(ok, "%s: three clients connect", signame);
    if (ok) {
        peer_pump_frames(&subscriber, 3, 30000);
        kill(s.pid, sig);
        check_farewell(&subscriber, 1);
        check_farewell(&idle, 1);
        check_farewell(&silent, 0);
    }
    int status = server_stop(&s, 0, SERVER_STOP_TIMEOUT_MS);
    CHECK(status == 0, "%s: the server exits 0 (status %d)", signame, status);
    ws_client *late = ws_connect(s.port, "fluidcast.v1", 2000);
    CHECK(late == NULL, "%s: after the exit nothing listens on port %d", signame, s.port);
    ws_free(late);
    peer_close(&subscriber);
    peer_close(&idle);
    peer_close(&silent);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    check_shutdown(SIGTERM, "SIGTERM");
    check_shutdown(SIGINT, "SIGINT");
    return check_summary("test_server_shutdown");
}
