/* The particle and memory budget a server's worlds share, and what a scene would cost before it
 * is built: each world holds a reservation that covers its particles (fluid and boundary). */
#ifndef FC_BUDGET_H
#define FC_BUDGET_H

#include <pthread.h>
#include <stddef.h>

struct fc_scene;
struct fc_world;

/* Particles (fluid and a method's structures, counted by their step work) and the bytes they take. */
typedef struct fc_cost {
    double particles, bytes;
} fc_cost;

/* A scene's size, estimated from its shapes before anything is allocated. */
typedef struct fc_scene_estimate {
    double fluid;      /* particles its fluid blocks hold, less those colliders cut away, at most max_particles */
    double structures; /* its method's own (the SPH family's boundary samples; fc_method_cost) */
    const char *structures_name; /* what they are, for messages */
    fc_cost cost;      /* both, with their memory */
} fc_scene_estimate;

/* Shared by the worlds of one server; every call takes the lock, none waits for anything else. */
typedef struct fc_budget {
    pthread_mutex_t lock;
    pthread_cond_t released; /* signalled when a closing world gave its reservation back */
    fc_cost limit;     /* the whole server's */
    fc_cost used;      /* reserved by worlds, together */
    int closing;       /* closed worlds whose threads have not given their reservation back yet */
} fc_budget;

/* Bytes every particle takes whatever the method: its fields, the grid's order, and the three
 * checkpoints (host/history.h); a method adds its own (fc_solver.cost). */
#define FC_BYTES_PER_PARTICLE (160.0 + 3.0 * 36.0)
/* The cost of world w with `fluid` particles: what its method answers (fc_solver.cost) for its
 * parameters, container and colliders. */
fc_cost fc_world_cost(const struct fc_world *w, double fluid);
/* The same with parameters p and solver s instead of the world's (a `set` or `set_solver` asks). */
struct fc_solver;
struct fc_params;
fc_cost fc_world_cost_with(const struct fc_world *w, const struct fc_params *p, const struct fc_solver *s, double fluid);
/* The same with one more collider, `added` (collider_add asks); *added_structures gets what the
 * collider adds to the method's structures (fc_method_cost.structures: its boundary samples). */
struct fc_shape;
fc_cost fc_world_cost_adding(const struct fc_world *w, const struct fc_shape *added, double *added_structures);

/* A scene's fluid particles from its shapes, and what its solver answers for them. */
void fc_scene_estimate_size(const struct fc_scene *scene, fc_scene_estimate *out);

int fc_budget_init(fc_budget *b, double particles, double bytes);
void fc_budget_free(fc_budget *b);
/* Replaces the reservation *held with want when the server's limit allows it (counting what
 * *held already reserves). 0, or -1 with why ("N particles and B bytes are free ...") and
 * nothing changed. */
int fc_budget_try_change(fc_budget *b, fc_cost *held, fc_cost want, char *why, size_t whylen);
/* A world was closed (+1: its thread will give its reservation back) or its thread gave it back (-1). */
void fc_budget_closing(fc_budget *b, int delta);
/* Waits up to seconds while closed worlds still hold reservations; 1 when it waited for any (a
 * request refused meanwhile may be tried again), 0 when none was closing. */
int fc_budget_wait_closing(fc_budget *b, double seconds);
#define FC_BUDGET_CLOSING_WAIT_S 5.0 /* how long a build over budget waits for closing worlds */
/* Replaces *held with want whatever the limit (a release, or a size already built). */
void fc_budget_set(fc_budget *b, fc_cost *held, fc_cost want);
/* What is free now, for messages. */
fc_cost fc_budget_free_now(fc_budget *b);

/* "2.1 M" / "350 k" / "900" particles and "1.2 GB" / "35 MB" for messages. */
const char *fc_format_count(double n, char *buf, size_t len);
const char *fc_format_bytes(double bytes, char *buf, size_t len);
/* Two byte counts for one message ("need A, more than B"), with the digits that tell them apart:
 * 16.02 MB and 16 MB where %.3g would print 16 MB twice; exact bytes when they differ by less. */
void fc_format_bytes_apart(double a, double b, char *abuf, char *bbuf, size_t len);

#endif
