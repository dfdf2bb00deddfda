/* fluidcast serve: one port for the viewer's files, /healthz, /metrics and the WebSocket
 * protocol; worlds on their own threads; clients watched over by one network thread. */
#ifndef FC_SERVER_H
#define FC_SERVER_H

#include "core/backend.h"
#include "host/command.h"

#define FC_WORLDS_MAX 64 /* worlds one server runs at most (--max-worlds) */

typedef struct fc_server_options {
    const char *scene_path;  /* the default world's scene file */
    const char *scene;       /* its name as given */
    const char *solver;      /* NULL: the scene's solver */
    int port;                /* 0: any free port */
    const char *bind;        /* address to listen on */
    const char *token;       /* NULL: every client may control */
    int max_clients, max_worlds;
    int threads;             /* OpenMP threads shared by all worlds */
    long max_particles;      /* the particle budget of all worlds together, fluid and boundary */
    double max_bytes;        /* the memory budget of all worlds together */
    double fps;              /* frames published per second and world, at most */
    int realtime;            /* the default world follows the wall clock */
    int wait;                /* the default world waits at t = 0 for its first subscriber */
    double loop;             /* > 0: the default world is rebuilt every `loop` simulated seconds */
    const char *web_dir;     /* the built viewer (web/dist) */
    const char *public_url;  /* NULL: none given; else what room links show (checked, ends in '/') */
    fc_backend_choice backend; /* where the worlds step unless create_world asks otherwise (--backend) */
    fc_param_values values;  /* --set, on top of the scene's */
} fc_server_options;

/* Runs until SIGINT or SIGTERM; returns the process exit status (0 after a clean shutdown). */
int fc_server_run(const fc_server_options *options);

/* listen.c: 0 when the server can listen on bind:port (port 0 and names that are no address are
 * left to libwebsockets), else -1 with one line for people in err (the port is busy: --port). */
int fc_listen_check(const char *bind, int port, char *err, size_t errlen);

/* room_url.c: where the room reaches the server, as welcome.room tells the viewer. */
typedef enum { FC_ROOM_PUBLIC_URL, FC_ROOM_INTERFACE, FC_ROOM_LOOPBACK } fc_room_source;
/* "public_url", "interface" or "loopback". */
const char *fc_room_source_name(fc_room_source source);
/* 0 when url is a usable --public-url (http:// or https://, a host, an optional :port and path; no
 * query, fragment or spaces), copied to out with a '/' at its end; else -1 with why in err. */
int fc_public_url_check(const char *url, char *out, size_t outlen, char *err, size_t errlen);
/* The room's URL for a server listening on bind:port: public_url when given (FC_ROOM_PUBLIC_URL);
 * else bind when it is an address other than loopback, or for 0.0.0.0 and :: the first IPv4
 * address of an interface that is up and not loopback (getifaddrs; FC_ROOM_INTERFACE); else
 * http://127.0.0.1:PORT/, which only this computer opens (FC_ROOM_LOOPBACK). */
fc_room_source fc_room_url(const char *public_url, const char *bind, int port, char *out, size_t outlen);
/* room_url with ?token=TOKEN (percent-encoded) when token is not NULL: the presenter's link. */
void fc_presenter_url(const char *room_url, const char *token, char *out, size_t outlen);

#endif
