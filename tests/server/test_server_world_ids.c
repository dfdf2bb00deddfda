/* Server over real sockets: a create_world refused by the world's build (over the budget, an
 * uploaded scene the parser refuses) uses up no world id; the next good one gets the next id
 * (issue 40 C). */
#include <stdio.h>

#include "expect.h"
#include "test_env.h"

static test_env env;

#define GOOD_WORLD "{\"type\":\"create_world\",\"scene\":\"water_drop\",\"values\":{\"particle_spacing\":0.04," \
                   "\"smoothing_radius\":0.08}}"

/* A good create_world: CHECKs its ack names world id. */
static void expect_world_id(peer *p, int id)
{
    cJSON *ack = expect_ack(p, GOOD_WORLD);
    CHECK(jnum(ack, "applied.world") == id, "the next good create_world gets world id %d: %s", id, jtext(ack));
    cJSON_Delete(ack);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--threads", "1",
                          "--max-particles", "200000", NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_world_ids");
    }
    peer p;
    if (expect_hello(&p, server.port, "creator", NULL, "control") == 0) {
        expect_error(&p, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"values\":{\"particle_spacing\":0.008,"
                         "\"smoothing_radius\":0.016}}",
                     "over_budget", NULL);
        expect_world_id(&p, 2);
        expect_error(&p, "{\"type\":\"create_world\",\"scene\":{\"name\":\"no_domain\"}}", "bad_value", "scene.domain");
        expect_error(&p, "{\"type\":\"create_world\",\"scene\":\"dam_break\",\"values\":{\"particle_spacing\":0.008,"
                         "\"smoothing_radius\":0.016}}",
                     "over_budget", NULL);
        expect_world_id(&p, 3);
        cJSON *worlds = peer_request(&p, "{\"type\":\"list_worlds\"}", PEER_TIMEOUT_MS);
        const cJSON *list = jget(worlds, "worlds");
        CHECK(cJSON_GetArraySize(list) == 3 && jnum(cJSON_GetArrayItem(list, 1), "id") + jnum(cJSON_GetArrayItem(list, 2), "id") == 5,
              "the worlds are 1, 2 and 3: %s", jtext(worlds));
        cJSON_Delete(worlds);
    }
    peer_close(&p);
    CHECK(test_server_stop(&server) == 0, "the server exits 0");
    return check_summary("test_server_world_ids");
}
