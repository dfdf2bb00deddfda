/* What the parts of a world's thread share (world_host.c, world_step.c, world_publish.c,
 * world_requests.c): each runs on the world's own thread unless it says otherwise. */
#ifndef FC_WORLD_HOST_PARTS_H
#define FC_WORLD_HOST_PARTS_H

#include "host/world_host.h"

/* ---- world_publish.c ---- */
/* 1 when some client follows the world's frames. */
int fc_host_watched(fc_world_host *h);
/* Takes a snapshot and encodes it into every stream that is due; nothing when no one watches. */
void fc_host_publish_frame(fc_world_host *h);
/* The state message goes out now, or as soon as the burst window allows (fc_host_state_due_in). */
void fc_host_publish_state(fc_world_host *h);
void fc_host_request_state(fc_world_host *h);
/* Seconds until a requested state may go out (0: now), or -1 when none is due. */
double fc_host_state_due_in(const fc_world_host *h, double now);
/* Makes o the newest notice of its kind (takes it) and wakes the network thread; or withdraws it. */
void fc_host_publish_notice(fc_world_host *h, fc_notice kind, cJSON *o);
void fc_host_withdraw_notice(fc_world_host *h, fc_notice kind);

/* ---- world_step.c ---- */
/* The rates start again from now (after a pause, a load, a rewind). */
void fc_host_restart_clocks(fc_world_host *h);
/* The world is stable again (rewound, rebuilt, resumed): the unstable event is withdrawn. */
void fc_host_clear_unstable(fc_world_host *h);
/* One step: 0 done, 1 interrupted, -1 failed or unstable (the world then paused itself). */
int fc_host_step_once(fc_world_host *h);
/* A `step` request (PROTOCOL.md 2.2): it ends between two solver steps when another request to
 * its world has waited FC_STEP_YIELD_S (at the end of a frame when one ends sooner), and after
 * FC_STEP_WALL_LIMIT_S of wall time, so that one request never holds a world. */
#define FC_STEP_YIELD_S 0.1
#define FC_STEP_WALL_LIMIT_S 5.0
typedef struct fc_step_run {
    int frames;          /* whole frames stepped */
    const char *stopped; /* why it ended early: "request", "time_limit", "unstable", "closing"; NULL: it did not */
} fc_step_run;
/* Steps up to frames whole frames, publishing after each. */
fc_step_run fc_host_step_frames(fc_world_host *h, int frames);

/* ---- world_requests.c ---- */
/* Builds the world of its spec before the loop starts (and answers create_world); 0 or -1. */
int fc_host_load_initial_world(fc_world_host *h);
/* reset and load_scene (and --loop's rebuild): a new world from a scene; 0, or -1 with err. */
int fc_host_apply_load(fc_world_host *h, const fc_command *cmd, cJSON *applied, fc_message_error *err);
/* Applies a command and posts its ack or error to the client; frees cmd. */
void fc_host_run_command(fc_world_host *h, fc_command *cmd);

/* ---- world_host.c ---- */
/* Tests stand long steps and builds in with FLUIDCAST_TEST_STEP_DELAY / FLUIDCAST_TEST_BUILD_DELAY
 * = "SCENE:SECONDS" (variable): the seconds for scene, else 0. */
double fc_host_test_delay(const char *variable, const char *scene);

#endif
