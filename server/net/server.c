/* The server: the libwebsockets context and its service loop (the network thread), the worlds,
 * the mailbox from world threads, signals and shutdown. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "host/world_json.h"
#include "net/net.h"

#define SHUTDOWN_GRACE_S 2.0   /* clients get at most this long to receive bye and the close */
#define WORLD_STOP_GRACE_S 1.0 /* worlds get this long after the signal to end their step, or are left
                                  behind in it when the server exits */
#define TICK_US (250 * 1000)   /* housekeeping: stats, tier changes, shutdown */

/* The WebSocket protocol first: it also takes upgrades that name no subprotocol. */
static const struct lws_protocols protocols[] = {
    {FC_MESSAGE_SUBPROTOCOL, fc_session_callback, sizeof(fc_session), 16384, 0, NULL, FC_FRAGMENT_BYTES},
    {"fluidcast-http", fc_http_callback, sizeof(fc_http_session), 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

/* ---- worlds ------------------------------------------------------------------------------------ */

fc_world_host *fc_server_find_world(fc_server *s, uint32_t id)
{
    for (int i = 0; i < s->world_count; i++)
        if (s->worlds[i]->id == id) return s->worlds[i];
    return NULL;
}

/* A CUDA world steps on its device: its own thread only queues work there, so it takes one
 * OpenMP thread (for the host's share: emitters, statistics) and no share of the rest. */
static int steps_on_gpu(const fc_world_host *h) { return h->spec.backend.kind == FC_BACKEND_CUDA; }

void fc_server_share_threads(fc_server *s)
{
    int cpu_worlds = 0;
    for (int i = 0; i < s->world_count; i++) cpu_worlds += !steps_on_gpu(s->worlds[i]);
    for (int i = 0; i < s->starting_count; i++) cpu_worlds += !steps_on_gpu(s->starting[i]);
    int share = cpu_worlds ? s->options.threads / cpu_worlds : s->options.threads;
    if (share < 1) share = 1;
    for (int i = 0; i < s->world_count; i++) atomic_store(&s->worlds[i]->threads, steps_on_gpu(s->worlds[i]) ? 1 : share);
    for (int i = 0; i < s->starting_count; i++)
        atomic_store(&s->starting[i]->threads, steps_on_gpu(s->starting[i]) ? 1 : share);
}

void fc_server_update_demands(fc_server *s, fc_world_host *host)
{
    fc_stream_demands d;
    int product_subscribers[FC_PRODUCT_COUNT] = {0};
    memset(&d, 0, sizeof d);
    for (fc_session *c = s->sessions; c; c = c->next)
        for (int k = 0; k < FC_SESSION_MAX_SUBSCRIPTIONS; k++) {
            const fc_subscription *sub = &c->sub[k];
            if (sub->host != host) continue;
            for (int p = 0; p < FC_PRODUCT_COUNT; p++) product_subscribers[p] += (sub->products >> p) & 1u;
            if (!(sub->products & (1u << FC_PRODUCT_PARTICLES))) continue;
            fc_stream_demand *demand = &d.of[sub->bits - FC_FRAME_MIN_BITS][fc_stream_tier_index(sub->tier)];
            demand->subscribers++;
            demand->attributes |= sub->attributes;
        }
    fc_streams_set_demands(&host->streams, &d);
    fc_products_set_demands(&host->products, product_subscribers);
}

static int subscribers_of(fc_server *s, fc_world_host *host)
{
    int n = 0;
    for (fc_session *c = s->sessions; c; c = c->next)
        for (int k = 0; k < FC_SESSION_MAX_SUBSCRIPTIONS; k++) n += c->sub[k].host == host;
    return n;
}

int fc_server_world_visible(const fc_session *c, const fc_world_host *host)
{
    return c->control || !host->net.hidden;
}

cJSON *fc_server_worlds_json(fc_server *s, int control)
{
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; i < s->world_count; i++) {
        if (!control && s->worlds[i]->net.hidden) continue;
        fc_world_info info;
        fc_world_host_info(s->worlds[i], &info);
        cJSON *w = cJSON_CreateObject();
        cJSON_AddNumberToObject(w, "id", s->worlds[i]->id);
        fc_world_info_add_summary(w, &info);
        cJSON_AddNumberToObject(w, "subscribers", subscribers_of(s, s->worlds[i]));
        cJSON_AddBoolToObject(w, "hidden", s->worlds[i]->net.hidden);
        cJSON_AddItemToArray(list, w);
    }
    return list;
}

fc_blob *fc_server_worlds_message(fc_server *s, const char *id, int control)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "worlds");
    cJSON_AddItemToObject(o, "id", id ? cJSON_CreateRaw(id) : cJSON_CreateNull()); /* the literal, as sent */
    cJSON_AddItemToObject(o, "worlds", fc_server_worlds_json(s, control));
    fc_blob *b = fc_reply_json(o);
    cJSON_Delete(o);
    return b;
}

void fc_server_broadcast_worlds(fc_server *s)
{
    for (fc_session *c = s->sessions; c; c = c->next)
        if (c->said_hello) fc_session_queue(c, fc_server_worlds_message(s, NULL, c->control));
}

/* 1 when host was in the list (and is no more). */
static int remove_from(fc_world_host **list, int *count, fc_world_host *host)
{
    for (int i = 0; i < *count; i++)
        if (list[i] == host) {
            list[i] = list[--*count];
            return 1;
        }
    return 0;
}

void fc_server_close_world(fc_server *s, fc_world_host *host)
{
    remove_from(s->worlds, &s->world_count, host);
    for (fc_session *c = s->sessions; c; c = c->next) fc_session_forget_world(c, host);
    fc_world_host_request_stop(host);
    s->closing[s->closing_count++] = host;
    fc_server_share_threads(s);
}

uint32_t fc_server_take_world_id(fc_server *s)
{
    if (!s->unused_id_count) return s->next_world_id++;
    int smallest = 0;
    for (int i = 1; i < s->unused_id_count; i++)
        if (s->unused_ids[i] < s->unused_ids[smallest]) smallest = i;
    uint32_t id = s->unused_ids[smallest];
    s->unused_ids[smallest] = s->unused_ids[--s->unused_id_count];
    return id;
}

void fc_server_give_back_world_id(fc_server *s, uint32_t id)
{
    if (s->unused_id_count < FC_WORLDS_MAX) s->unused_ids[s->unused_id_count++] = id; /* holes: fewer than starting worlds */
    for (int i = 0; i < s->unused_id_count;) { /* ids at the top go back to next_world_id: no list grows */
        if (s->unused_ids[i] + 1 != s->next_world_id) {
            i++;
            continue;
        }
        s->next_world_id--;
        s->unused_ids[i] = s->unused_ids[--s->unused_id_count];
        i = 0;
    }
}

int fc_server_world_slots_used(const fc_server *s)
{
    return s->world_count + s->starting_count + s->closing_count;
}

void fc_server_reap_worlds(fc_server *s)
{
    for (int i = 0; i < s->closing_count;) {
        fc_world_host *host = s->closing[i];
        if (!fc_world_host_finished(host)) {
            i++;
            continue;
        }
        fc_server_take_posts(s); /* what it posted before it returned, while its pointer is valid */
        s->closing[i] = s->closing[--s->closing_count];
        fc_world_host_free(host);
    }
}

/* ---- the mailbox --------------------------------------------------------------------------------- */

/* A build's progress: to the client that asked and the world's subscribers, the newest only. */
static void deliver_progress(fc_server *s, fc_post *p)
{
    for (fc_session *c = s->sessions; c; c = c->next) {
        int wanted = c->id == p->client && c->said_hello;
        for (int k = 0; !wanted && k < FC_SESSION_MAX_SUBSCRIPTIONS; k++) wanted = c->sub[k].host == p->host;
        if (wanted) fc_session_set_progress(c, p->host, p->text);
    }
}

static void deliver(fc_server *s, fc_post *p)
{
    if (p->kind == FC_POST_PROGRESS) {
        deliver_progress(s, p);
        return;
    }
    /* anything else a world posts comes after its build: the ack ends the progress events */
    for (fc_session *o = s->sessions; o && p->host; o = o->next)
        if (o->progress_host == p->host) fc_session_set_progress(o, NULL, NULL);
    fc_session *c = p->client ? fc_session_find(s, p->client) : NULL;
    fc_blob *text = p->text;
    p->text = NULL;
    if (text) fc_metrics_count_error(&s->metrics, p->error.code); /* an error reply a world thread made */
    if (p->kind == FC_POST_WORLD_FAULT) s->metrics.worlds_unstable++;
    int was_starting = p->host && remove_from(s->starting, &s->starting_count, p->host);
    if (p->kind == FC_POST_WORLD_READY && was_starting) s->worlds[s->world_count++] = p->host;
    if (c) fc_session_fill(c, p->host, text);
    else fc_blob_unref(text);
    /* the world published the state its request caused before it posted the reply: send the newest
     * state again after the reply, so the first state a client gets after an ack shows its effect */
    for (int k = 0; c && k < FC_SESSION_MAX_SUBSCRIPTIONS; k++)
        if (c->sub[k].host == p->host) c->sub[k].notice_version[FC_NOTICE_STATE] = 0;
    if (p->kind == FC_POST_WORLD_FAILED && was_starting) { /* its thread has returned or is about to */
        fc_server_give_back_world_id(s, p->host->id); /* no world had it: the next create takes it */
        fc_world_host_request_stop(p->host);
        s->closing[s->closing_count++] = p->host;
    }
    if (p->kind == FC_POST_WORLD_READY || p->kind == FC_POST_WORLD_FAILED) fc_server_share_threads(s);
    if (p->kind == FC_POST_WORLD_READY) fc_server_broadcast_worlds(s);
}

void fc_server_take_posts(fc_server *s)
{
    for (fc_post *p = fc_mailbox_take(&s->mailbox, 0), *next; p; p = next) {
        next = p->next;
        deliver(s, p);
        fc_post_free(p);
    }
}

/* Every world is asked to stop at once; shutdown waits for none of them. */
static void stop_all_worlds(fc_server *s)
{
    while (s->world_count) fc_server_close_world(s, s->worlds[0]);
    while (s->starting_count) {
        fc_world_host *h = s->starting[--s->starting_count];
        fc_world_host_request_stop(h);
        s->closing[s->closing_count++] = h;
    }
}

void fc_server_on_wake(fc_server *s)
{
    fc_server_take_posts(s);
    fc_server_reap_worlds(s);
    for (fc_session *c = s->sessions; c; c = c->next) fc_session_retry_stalled(c);
    if (atomic_load(&s->signal_seen) && !s->shutting_down) {
        s->shutting_down = 1;
        s->shutdown_started = fc_host_now();
        s->shutdown_deadline = s->shutdown_started + SHUTDOWN_GRACE_S;
        for (fc_session *c = s->sessions; c; c = c->next) c->closing = 1;
        stop_all_worlds(s);
    }
    lws_callback_on_writable_all_protocol(s->context, &protocols[0]);
}

/* ---- signals: a thread waits for them, the others block them ------------------------------------ */

typedef struct signal_watch {
    sigset_t set;
    fc_server *server;
} signal_watch;

static void *signal_thread(void *arg)
{
    signal_watch *w = arg;
    int sig = 0;
    while (sigwait(&w->set, &sig) == 0) {
        if (sig == SIGUSR1) return NULL; /* the server is done: stop waiting */
        atomic_store(&w->server->signal_seen, 1);
        lws_cancel_service(w->server->context);
    }
    return NULL;
}

/* ---- the service loop ------------------------------------------------------------------------------ */

/* Every client got its bye and close (their answers to the close are not waited for). */
static int all_said_bye(const fc_server *s)
{
    for (const fc_session *c = s->sessions; c; c = c->next)
        if (!c->close_sent) return 0;
    return 1;
}

static void tick(lws_sorted_usec_list_t *sul)
{
    fc_server *s = lws_container_of(sul, fc_server, tick);
    fc_server_reap_worlds(s);
    for (fc_session *c = s->sessions; c; c = c->next) fc_session_retry_stalled(c);
    fc_slots_tick(s);
    fc_keepalive_tick(s);
    if (s->shutting_down && (all_said_bye(s) || fc_host_now() > s->shutdown_deadline)) s->done = 1;
    lws_callback_on_writable_all_protocol(s->context, &protocols[0]);
    lws_sul_schedule(s->context, 0, &s->tick, tick, TICK_US);
}

static void wake_network(void *context)
{
    lws_cancel_service(context);
}


/* /healthz and /metrics are answered by fc_http_callback; "/" serves the built viewer, or a page
 * saying how to build it when it is missing. */
static void set_up_mounts(fc_server *s)
{
    struct lws_http_mount *mounts = s->mounts;
    memset(s->mounts, 0, sizeof s->mounts);
    static const char *const dynamic[] = {"/healthz", "/metrics"};
    for (int i = 0; i < 2; i++) {
        mounts[i].mount_next = &mounts[i + 1];
        mounts[i].mountpoint = dynamic[i];
        mounts[i].mountpoint_len = (unsigned char)strlen(dynamic[i]);
        mounts[i].origin = "fluidcast-http";
        mounts[i].origin_protocol = LWSMPRO_CALLBACK;
    }
    mounts[2].mountpoint = "/";
    mounts[2].mountpoint_len = 1;
    if (s->web_dir_ok) {
        mounts[2].origin = s->options.web_dir;
        mounts[2].origin_protocol = LWSMPRO_FILE;
        mounts[2].def = "index.html";
    } else {
        mounts[2].origin = "fluidcast-http";
        mounts[2].origin_protocol = LWSMPRO_CALLBACK;
    }
}

static int is_directory_with_index(const char *dir)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/index.html", dir ? dir : "");
    return dir && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int start_default_world(fc_server *s)
{
    fc_world_spec spec;
    memset(&spec, 0, sizeof spec);
    snprintf(spec.scene_path, sizeof spec.scene_path, "%s", s->options.scene_path);
    snprintf(spec.scene, sizeof spec.scene, "%s", s->options.scene);
    if (s->options.solver) snprintf(spec.solver, sizeof spec.solver, "%s", s->options.solver);
    spec.realtime = s->options.realtime;
    spec.fps = s->options.fps;
    spec.values = s->options.values;
    spec.budget = &s->budget;
    spec.wait_for_subscriber = s->options.wait;
    spec.loop = s->options.loop;
    spec.backend = s->options.backend;
    fc_world_host *host = fc_world_host_start(fc_server_take_world_id(s), &spec, s->options.threads, &s->mailbox, 0, NULL);
    if (!host) {
        fprintf(stderr, "fluidcast serve: cannot start the world thread\n");
        return -1;
    }
    for (;;) { /* wait for the scene to load (the network thread does not run yet) */
        fc_post *p = fc_mailbox_take(&s->mailbox, 1.0);
        for (fc_post *next; p; p = next) {
            next = p->next;
            int kind = p->kind;
            if (kind == FC_POST_WORLD_FAILED && p->text)
                fprintf(stderr, "fluidcast serve: %s\n", p->error.code ? p->error.message : "scene failed");
            fc_post_free(p);
            if (kind == FC_POST_WORLD_FAILED) {
                fc_world_host_stop(host);
                return -1;
            }
            if (kind == FC_POST_WORLD_READY) {
                s->worlds[s->world_count++] = host;
                return 0;
            }
        }
    }
}

/* The server whose libwebsockets context is being created: libwebsockets 4.1's log callback takes
 * no context of its own, so this is the one way from it to the server (NULL otherwise). */
static fc_server *creating_context;

/* Keeps the first error libwebsockets reports while the context is created, without its time stamp. */
static void keep_lws_line(int level, const char *line)
{
    (void)level;
    char *first = creating_context ? creating_context->lws_first_line : NULL;
    if (!first || first[0]) return;
    const size_t size = sizeof creating_context->lws_first_line;
    const char *text = strstr(line, "E: ");
    snprintf(first, size, "%s", text ? text + 3 : line);
    size_t len = strlen(first);
    while (len && (first[len - 1] == '\n' || first[len - 1] == '\r')) first[--len] = '\0';
}

/* 16 hex digits that differ between two starts of the server (welcome.server.instance). */
static void new_instance(char *out, size_t outlen)
{
    uint64_t bits = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(&bits, sizeof bits, 1, f) != 1) { /* no urandom: the clock and the process */
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        bits = ((uint64_t)now.tv_sec * 1000000007u) ^ (uint64_t)now.tv_nsec ^ ((uint64_t)getpid() << 32);
    }
    if (f) fclose(f);
    snprintf(out, outlen, "%016llx", (unsigned long long)bits);
}

static void print_banner(fc_server *s, int port)
{
    fc_world_info info;
    fc_world_host_info(s->worlds[0], &info);
    const char *host = s->options.bind;
    int ipv6 = strchr(host, ':') != NULL;
    if (strcmp(host, "0.0.0.0") == 0 || strcmp(host, "::") == 0) host = "localhost";
    char budget[32], bytes[32];
    printf("fluidcast %s: world 1 '%s' (%s, %zu particles, %d threads; budget %s particles and %s for all worlds)\n",
           FLUIDCAST_VERSION, info.name, info.solver, info.particles, s->options.threads,
           fc_format_count(s->budget.limit.particles, budget, sizeof budget),
           fc_format_bytes(s->budget.limit.bytes, bytes, sizeof bytes));
    printf("fluidcast: backend %s on %s: %s\n", fc_backend_name(s->options.backend.kind), s->options.backend.device,
           s->options.backend.why);
    printf("fluidcast: open http://%s%s%s:%d/ in a browser%s\n", ipv6 && host == s->options.bind ? "[" : "", host,
           ipv6 && host == s->options.bind ? "]" : "", port,
           s->options.token ? " (controllers add ?token=... to the URL)" : "");
    char presenter[1400];
    fc_presenter_url(s->room_url, s->options.token, presenter, sizeof presenter);
    printf("fluidcast: presenter: %s%s\n", presenter, s->options.token ? " (controls: keep it to yourself)" : "");
    printf("fluidcast: room: %s%s\n", s->room_url,
           s->room_source == FC_ROOM_LOOPBACK ? " (this computer only: give --public-url URL, the address the room "
                                                "reaches, e.g. a tunnel's, or --bind 0.0.0.0 --token SECRET)"
           : s->options.token                 ? " (watch only)"
                                              : "");
    if (!s->web_dir_ok)
        printf("fluidcast: the viewer is not built (%s/index.html is missing): cd web && npm ci && npm run build\n",
               s->options.web_dir);
    fflush(stdout);
}

/* Stops every world, waiting for their threads until the deadline; returns how many are still in
 * a step then (the caller exits without them). */
static int shut_down(fc_server *s, double deadline)
{
    stop_all_worlds(s);
    for (;;) {
        for (int i = 0; i < s->closing_count;)
            if (fc_world_host_finished(s->closing[i])) {
                fc_world_host_free(s->closing[i]);
                s->closing[i] = s->closing[--s->closing_count];
            } else {
                i++;
            }
        if (!s->closing_count || fc_host_now() >= deadline) return s->closing_count;
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

/* What serving needs before any world: the message checks, the signals (blocked in every thread
 * started from here, taken by the signal thread), the mailbox, the budget and the scenes list.
 * 0, or -1 after saying why. */
static int prepare(fc_server *s, const fc_server_options *options, signal_watch *watch)
{
    s->options = *options;
    s->next_world_id = 1;
    fc_keepalive_init(s);
    s->web_dir_ok = is_directory_with_index(options->web_dir);
    char err[256];
    if (fc_message_init(err, sizeof err)) {
        fprintf(stderr, "fluidcast serve: %s\n", err);
        return -1;
    }
    sigemptyset(&watch->set);
    sigaddset(&watch->set, SIGINT);
    sigaddset(&watch->set, SIGTERM);
    sigaddset(&watch->set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &watch->set, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (fc_mailbox_init(&s->mailbox)) return -1;
    if (fc_budget_init(&s->budget, (double)options->max_particles, options->max_bytes)) return -1;
    s->scenes_json = fc_json_scenes();
    return 0;
}

/* The libwebsockets context in s->context, listening: the port it listens on, or -1 after saying
 * in one line why it cannot. */
static int start_listening(fc_server *s)
{
    const fc_server_options *options = &s->options;
    creating_context = s;
    lws_set_log_level(LLL_ERR, keep_lws_line); /* while listening starts: its failure is said in one line */
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    set_up_mounts(s);
    info.port = options->port;
    info.iface = options->bind;
    info.protocols = protocols;
    info.mounts = s->mounts;
    info.user = s;
    /* No LWS_SERVER_OPTION_VALIDATE_UTF8: it closes the connection (1007), while the protocol answers
     * invalid UTF-8 with bad_json and keeps it (fc_message_parse checks UTF-8 itself). */
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6 * !strchr(options->bind, ':');
    info.count_threads = 1;
    /* sessions, the slots before hello, and room for HTTP and half-open connections (slots.c) */
    info.fd_limit_per_thread = (unsigned)(options->max_clients + FC_RESERVED_SLOTS + 4 * FC_HALF_OPEN_PER_ADDRESS);
    info.timeout_secs = FC_HANDSHAKE_TIMEOUT_S; /* accept to complete request (and other waits) */
    info.timeout_secs_ah_idle = FC_HANDSHAKE_TIMEOUT_S; /* a request's headers, from their first byte */
    info.max_http_header_data = FC_HTTP_HEADER_BUFFER;
    info.retry_and_idle_policy = fc_keepalive_lws_policy(); /* keepalive.c pings and hangs up instead */
    info.token_limits = fc_http_token_limits(); /* long headers are cut, then answered 431 (http.c) */
    s->context = lws_create_context(&info);
    lws_set_log_level(LLL_ERR, lwsl_emit_stderr);
    creating_context = NULL;
    /* an error while listening starts (an interface that does not exist: libwebsockets would wait
     * for it) is a failure too, said in one line */
    if (!s->context || s->lws_first_line[0]) {
        fprintf(stderr, "fluidcast serve: cannot listen on %s port %d (%s): check --bind, or choose another port with "
                        "--port N (--port 0: any free one)\n",
                options->bind, options->port, s->lws_first_line[0] ? s->lws_first_line : "libwebsockets gave no reason");
        if (s->context) lws_context_destroy(s->context);
        s->context = NULL;
        return -1;
    }
    struct lws_vhost *vhost = lws_get_vhost_by_name(s->context, "default");
    return vhost ? lws_get_vhost_listen_port(vhost) : options->port;
}

/* Serves on port until a signal, then stops the worlds and the context: the exit status. Does not
 * return when a world is left mid-step (its thread still uses what it holds). */
static int serve(fc_server *s, signal_watch *watch, int port)
{
    fc_mailbox_set_wake(&s->mailbox, wake_network, s->context);
    pthread_t watcher;
    int watching = pthread_create(&watcher, NULL, signal_thread, watch) == 0;
    s->room_source = fc_room_url(s->options.public_url, s->options.bind, port, s->room_url, sizeof s->room_url);
    new_instance(s->instance, sizeof s->instance);
    print_banner(s, port);
    lws_sul_schedule(s->context, 0, &s->tick, tick, TICK_US);
    lws_cancel_service(s->context); /* deliver what the world posted before the loop ran */
    while (!s->done && lws_service(s->context, 0) >= 0) {}
    fc_mailbox_set_wake(&s->mailbox, NULL, NULL);
    /* the worlds were asked to stop with the signal; those still in a step after WORLD_STOP_GRACE_S
     * (or once the clients are served) are left behind */
    int abandoned = shut_down(s, fmax(fc_host_now(), s->shutdown_started + WORLD_STOP_GRACE_S));
    lws_context_destroy(s->context);
    if (watching) {
        pthread_kill(watcher, SIGUSR1);
        pthread_join(watcher, NULL);
    }
    if (abandoned) { /* their threads still use the worlds: exit without freeing what they hold */
        printf("fluidcast: stopped (%d world%s left mid-step)\n", abandoned, abandoned == 1 ? "" : "s");
        fflush(NULL);
        _exit(0);
    }
    printf("fluidcast: stopped\n");
    return 0;
}

/* What prepare and the worlds hold, given back. */
static void release(fc_server *s)
{
    shut_down(s, INFINITY);
    for (fc_post *p = fc_mailbox_take(&s->mailbox, 0), *next; p; p = next) {
        next = p->next;
        fc_post_free(p);
    }
    fc_mailbox_free(&s->mailbox);
    fc_budget_free(&s->budget);
    fc_slots_free(s);
    cJSON_Delete(s->scenes_json);
    fc_message_cleanup();
}

/* The server's life in s (zeroed): prepare, check the port, build the first world, listen, serve
 * until a signal, release; the exit status. */
static int run(fc_server *s, const fc_server_options *options)
{
    signal_watch watch = {.server = s};
    if (prepare(s, options, &watch)) return 1;
    int status = 1;
    char err[256];
    if (fc_listen_check(options->bind, options->port, err, sizeof err)) { /* before the world is built */
        fprintf(stderr, "fluidcast serve: %s\n", err);
    } else if (start_default_world(s) == 0) {
        const int port = start_listening(s);
        if (port >= 0) status = serve(s, &watch, port);
    }
    release(s);
    return status;
}

int fc_server_run(const fc_server_options *options)
{
    fc_server *s = calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "fluidcast serve: out of memory\n");
        return 1;
    }
    int status = run(s, options);
    free(s);
    return status;
}
