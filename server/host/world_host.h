/* A world on its own thread: applies queued commands between steps, steps (as fast as allowed
 * or following the wall clock), and publishes its products (frame streams and the others) and its state. */
#ifndef FC_WORLD_HOST_H
#define FC_WORLD_HOST_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "core/backend.h"
#include "core/world.h"
#include "host/blob.h"
#include "host/command.h"
#include "host/history.h"
#include "host/products.h"
#include "host/replies.h"
#include "host/snapshot.h"
#include "host/streams.h"

/* How a world starts: a scene file, with optional name, solver and parameter values. */
typedef struct fc_world_spec {
    char scene_path[4096];
    const char *document;  /* an uploaded scene as JSON text instead of scene_path (create_world; copied by
                              fc_world_host_start, NULL: the file) */
    char scene[260];       /* as the client named it, shown in worlds and state */
    char name[256];        /* "" = the scene's; up to 63 characters of UTF-8 */
    char solver[36];       /* "" = the scene's */
    int realtime;          /* 1: simulated time never runs ahead of the wall clock */
    double fps;            /* frames published per wall second, at most */
    fc_budget *budget;     /* the server's particle budget, shared by its worlds (NULL: none) */
    fc_param_values values;
    int wait_for_subscriber; /* 1: waits at t = 0, paused, until its first subscriber (serve's world) */
    double loop;           /* > 0: rebuilt from its scene each time simulated time reaches this (s) */
    fc_backend_choice backend; /* where it steps (kind and device; a zeroed one reads as the CPU) */
} fc_world_spec;

/* What the network thread may read of a world at any time (under the host's lock). */
typedef struct fc_world_info {
    char name[256], scene[260], solver[36];
    char backend[8], device[256]; /* "cpu" or "cuda", and the device's name */
    int paused, realtime;
    int waiting;                 /* paused until the first subscriber (fc_world_spec.wait_for_subscriber) */
    double time, step_ms, steps_per_s;
    double dt;                   /* s, the last step's length (fc_world.last_dt) ... */
    char dt_bound[16];           /* ... and what bounded it (fc_dt_bound_name) */
    double realtime_factor;      /* simulated seconds per wall second over the last second */
    double max_speed;            /* m/s, fluid particles, after the last step */
    double density_error;        /* mean |rho / rho0 - 1| of the fluid particles; < 0: none */
    int solver_stat_count;       /* the solver's statistics after the last step, its name on each */
    fc_solver_stat solver_stat[FC_WORLD_MAX_SOLVER_STATS];
    uint64_t step;
    size_t particles;
    uint64_t frames_encoded;     /* all streams, key frames included */
    double bytes_per_frame;      /* of the last publication, per frame encoded */
    uint32_t sequence, epoch;
} fc_world_info;

/* Messages every subscriber gets in their newest version only (never a queue): the state, and
 * the unstable event of a world that blew up. */
typedef enum { FC_NOTICE_STATE, FC_NOTICE_UNSTABLE, FC_NOTICE_COUNT } fc_notice;

/* What the network thread keeps of a world (server/net/); the world thread never touches it. */
typedef struct fc_world_net {
    int hidden;                  /* set_world: left out of watchers' worlds lists, watchers cannot subscribe */
    /* the camera relay (net/camera.c) */
    uint64_t camera_client;      /* the controller whose camera is broadcast (0: none) */
    fc_blob *camera;             /* the newest camera message relayed to the subscribers */
    uint64_t camera_version;     /* grows with each relay */
    uint64_t camera_sender;      /* who sent camera: it is not relayed back to them */
    int camera_active;           /* camera moves the broadcast (0: it ended it) */
    fc_blob *camera_pending;     /* newer than camera, waiting for the relay cap (newest wins) */
    uint64_t pending_sender;
    int pending_active;
    double camera_relayed_at;    /* fc_host_now() of the last relay */
} fc_world_net;

/* States a world sends at once after requests within a second; beyond, requests share one. */
enum { FC_STATE_BURST = 4 };

typedef struct fc_world_host {
    uint32_t id;
    fc_mailbox *mailbox;
    fc_streams streams;          /* particle frames: shared with the network thread (own lock) */
    fc_products products;        /* the other products, each on its worker (own locks) */
    atomic_int threads;          /* OpenMP threads this world may use */
    atomic_uint_fast64_t published; /* publications so far: the network thread compares */
    atomic_uint_fast64_t notice_version[FC_NOTICE_COUNT]; /* grows with each new notice */
    atomic_int interrupt;        /* a stop, reset, load or rewind waits: the step may end early */
    atomic_int finished;         /* the thread returned: fc_world_host_free will not wait */
    atomic_int camera_broadcast; /* state.camera_broadcast, set by the network thread */
    atomic_int state_wanted;     /* the network thread changed what the state says: publish it */

    pthread_t thread;
    int thread_started;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    /* under lock */
    fc_command *queue[256];
    unsigned queue_head, queue_count;
    int stop;
    int closing_counted;         /* the stop counted in the budget's closing worlds (fc_budget_closing) */
    int budget_given;            /* the thread is giving its reservation back: a stop now is not counted */
    fc_world_info info;
    fc_blob *notice[FC_NOTICE_COUNT]; /* the newest of each (NULL: none yet) */

    /* the world thread's own */
    fc_world_spec spec;
    uint64_t create_client;      /* who asked for create_world (0: the command line) */
    char create_id[400];
    fc_world world;
    char *scene_document;        /* the uploaded scene the world was loaded from (NULL: spec.scene_path) */
    int world_ready;
    int paused;
    int paused_by_fault;         /* paused by a blow-up, not a person: a rebuild (reset, load_scene) plays again */
    int waiting;                 /* paused at t = 0 until a subscriber or pause/resume/step ends it */
    uint32_t epoch, sequence;
    fc_snapshot_buffer snapshot;
    double anchor_wall, anchor_sim; /* realtime: the wall clock and simulated time at resume */
    double next_publish, last_publish, next_state, last_state, rate_start;
    int state_due;               /* a changed state waits for the burst window (world_host.c) */
    double recent_states[FC_STATE_BURST]; /* when the last FC_STATE_BURST states went out */
    unsigned recent_state_next;
    uint64_t rate_steps;
    double rate_time;            /* the simulated time at rate_start */
    int omp_threads;
    int publish_after_step;      /* a request changed the world: publish after the next step */
    fc_world_history history;    /* checkpoints and the blow-up watch */
    double test_step_delay_s;    /* tests only: each step of this world also sleeps this long */
    double pick_window_start;    /* picks answered since then, within a second */
    int picks_in_window;

    fc_world_net net;            /* the network thread's own */
} fc_world_host;

/* Starts a world thread that loads the spec's scene, then posts FC_POST_WORLD_READY (with the
 * ack of create_world for client, if client is not 0) or FC_POST_WORLD_FAILED (with the error)
 * to the mailbox. NULL when out of memory or no thread could start. */
fc_world_host *fc_world_host_start(uint32_t id, const fc_world_spec *spec, int threads, fc_mailbox *mailbox,
                                   uint64_t client, const char *request_id);

/* Queues a command (takes ownership). -1 when the queue is full (the caller answers internal). */
int fc_world_host_post(fc_world_host *h, fc_command *cmd);
/* Wakes the world thread: a client waits for a key frame. */
void fc_world_host_wake(fc_world_host *h);
/* The network thread changed state.camera_broadcast: the world publishes its state again. */
void fc_world_host_set_camera_broadcast(fc_world_host *h, int broadcasting);
/* A consistent copy of the world's info. */
void fc_world_host_info(fc_world_host *h, fc_world_info *info);
/* A new reference to the newest notice of that kind (NULL: none). */
fc_blob *fc_world_host_notice(fc_world_host *h, fc_notice kind);
/* Asks the thread to end: it stops after its current step (which may end between its phases,
 * fc_world_interrupted) and wakes the mailbox when it has returned. Never waits. */
void fc_world_host_request_stop(fc_world_host *h);
/* 1 once the thread has returned (or never started): fc_world_host_free is then immediate. */
int fc_world_host_finished(fc_world_host *h);
/* Joins the thread (waits for it unless finished) and frees everything. */
void fc_world_host_free(fc_world_host *h);
/* fc_world_host_request_stop, then fc_world_host_free: waits for the current step. */
void fc_world_host_stop(fc_world_host *h);

/* Adds what `worlds` and `state` both say of a world: name, scene, solver, paused, waiting,
 * realtime, particles. */
void fc_world_info_add_summary(cJSON *o, const fc_world_info *info);
/* "dt" (s, the last step's; null before any) and "dt_bound" (what bounded it: time_step, fixed,
 * acoustic, velocity, viscous, force; null before any step) into o: state and stats. */
void fc_world_info_add_dt(cJSON *o, const fc_world_info *info);

/* Monotonic wall clock, seconds. */
double fc_host_now(void);

#endif
