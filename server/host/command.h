/* A client's request for a world as a typed struct: built from a validated message on the
 * network thread, applied between two steps on the world's thread. */
#ifndef FC_COMMAND_H
#define FC_COMMAND_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/params.h"
#include "core/world.h"
#include "message.h"

#define FC_COMMAND_MAX_VALUES 64

/* Parameter values of set / reset / load_scene / create_world, checked against the table:
 * each is a known parameter and its value has the right type and lies in range. */
typedef struct fc_param_value {
    const fc_param_desc *desc;
    char fluid[FC_FLUID_NAME_LEN]; /* "water" for "water.viscosity" (a fluid-scoped parameter); "" unscoped */
    double number; /* floats and ints as numbers, bools 0/1, enums the choice's index */
} fc_param_value;

typedef struct fc_param_values {
    size_t count;
    fc_param_value item[FC_COMMAND_MAX_VALUES];
} fc_param_values;

/* Fields of emitter_add's "emitter" or emitter_update's "changes". */
enum {
    FC_EMITTER_HAS_POSITION = 1 << 0,
    FC_EMITTER_HAS_DIRECTION = 1 << 1,
    FC_EMITTER_HAS_RADIUS = 1 << 2,
    FC_EMITTER_HAS_SPEED = 1 << 3,
    FC_EMITTER_HAS_RATE = 1 << 4,
    FC_EMITTER_HAS_FLUID = 1 << 5,
    FC_EMITTER_HAS_TEMPERATURE = 1 << 6
};

typedef struct fc_emitter_fields {
    unsigned has;     /* FC_EMITTER_HAS_* */
    fc_object value;  /* an emitter's row: the fields named in has; direction as sent (not normalised yet) */
    int fluid;
} fc_emitter_fields;

/* collider_add's "collider" and collider_move: which fields came (the schema requires shape and
 * position, and radius for a sphere, half_extents for a box; rotation is optional). */
enum { FC_COLLIDER_HAS_RADIUS = 1 << 0, FC_COLLIDER_HAS_HALF_EXTENTS = 1 << 1, FC_COLLIDER_HAS_ROTATION = 1 << 2 };

/* A solid's thermal fields as sent (collider_add, collider_update's changes, walls_update's walls):
 * which came, and their values. */
enum { FC_THERMAL_HAS_TEMPERATURE = 1 << 0, FC_THERMAL_HAS_HEAT_TRANSFER = 1 << 1 };
typedef struct fc_thermal_fields {
    unsigned has; /* FC_THERMAL_HAS_* */
    fc_thermal_contact value;
} fc_thermal_fields;

typedef struct fc_command {
    fc_message_type type;
    uint64_t client;        /* the session that sent it, for the reply */
    char id[400];           /* the request's id as JSON text, "null" when absent */
    uint32_t world;         /* 0 for create_world */
    union {
        struct { fc_param_values values; } set;
        struct { fc_emitter_fields emitter; } emitter_add;
        struct { int emitter; fc_emitter_fields changes; } emitter_update;
        struct { int emitter; } emitter_remove;
        struct { int collider; unsigned has; float position[3], velocity[3], rotation[3], angular_velocity[3]; } collider_move;
        struct { unsigned has; fc_shape shape; float rotation[3]; fc_thermal_fields thermal; } collider_add; /* shape: kind,
                                                                                  center, radius or half; rotation in degrees */
        struct { int collider; fc_thermal_fields changes; } collider_update;
        struct { fc_thermal_fields walls[6]; } walls_update; /* fc_world.walls' order; has 0: unchanged */
        struct { int collider; } collider_remove;
        struct { float position[3]; } pick;
        struct { int frames; } step;
        /* reset (scene empty: the world's own), load_scene, create_world */
        struct {
            char scene[260];     /* "" when document is given */
            char *document;      /* load_scene, create_world: an uploaded scene document as JSON text (owned), else NULL */
            char name[256];      /* create_world: "" = the scene's name; up to 63 characters of UTF-8 */
            char solver[36];     /* create_world, load_scene: "" = the scene's solver */
            int realtime;        /* create_world, default 1 */
            char backend[8];     /* create_world: "auto", "cpu", "cuda", or "" = the server's (--backend) */
            fc_param_values values;
        } load;
        struct { char solver[36]; } set_solver;
        struct { double seconds; } rewind; /* < 0: to before the blow-up, or the newest checkpoint */
    } u;
} fc_command;

/* Builds the command from a message that passed fc_message_parse (schema-valid). Checks what the
 * parameter table decides: unknown_parameter, bad_value (type or range, field "values.NAME"),
 * not_live (an init parameter in set). Returns 0, or -1 with err filled; id and type are copied. */
int fc_command_from_message(const cJSON *message, uint64_t client, fc_command *cmd, fc_message_error *err);
/* Frees a command from calloc/malloc and what it owns (an uploaded scene document). NULL is fine. */
void fc_command_free(fc_command *cmd);

/* Applies the values to p and the fluids, all or nothing (a scoped value to its fluid, an unscoped
 * fluid-scoped one to every fluid, fc_param_set_scoped): then checks relations
 * (fc_solver_check_params for solver, NULL: the general rules only), giving bad_value with the
 * message of the check. A fluid name the table lacks gives unknown_parameter naming the fluids.
 * allow_init 0 refuses init parameters (not_live). */
int fc_param_values_apply(fc_params *p, fc_fluid *fluids, int fluid_count, const struct fc_solver *solver,
                          const fc_param_values *values, int allow_init,
                          fc_message_error *err);

/* {name: value as stored in p, ...} for the parameters named in values (the "values" of set's,
 * reset's and load_scene's ack). NULL when out of memory. */
cJSON *fc_param_values_json(const fc_params *p, const fc_fluid *fluids, int fluid_count, const fc_param_values *values);

/* "NAME" or "FLUID.NAME": the name a value was sent under. */
void fc_param_value_name(const fc_param_value *v, char *out, size_t outlen);

/* The checks emitter_add makes of a whole emitter: position inside w's domain, direction not zero,
 * a fluid of w's, a radius within half the domain's largest extent and a rate whose second of
 * emission fits w's budget; errors name the field under `object` ("emitter.rate"). 0 or -1. */
int fc_check_emitter(const fc_world *w, const fc_object *e, const char *object, fc_message_error *err);
/* The checks collider_add makes of a shape: its centre and whole extent inside w's domain (a
 * plane: none). 0 or -1 naming object.position, object.radius or object.half_extents. */
int fc_check_collider(const fc_world *w, const fc_shape *s, const char *object, fc_message_error *err);

/* over_budget when values raise max_particles above the server's budget b (NULL: none): the cap
 * is the server's to set (--max-particles); a world may only lower it. */
/* Makes sure w's budget covers stepping its particles with parameters p and solver s (fc_step_work:
 * iterations and neighbours cost step time as particles do); 0, or -1 with over_budget on `field`. */
struct fc_solver;
int fc_reserve_step_work(fc_world *w, const fc_params *p, const struct fc_solver *s, const char *field,
                         fc_message_error *err);

int fc_check_max_particles(const fc_budget *b, const fc_param_values *values, fc_message_error *err);

/* World-level requests on the world's thread: set, emitter_add, emitter_update, emitter_remove,
 * collider_move, collider_add, collider_update, collider_remove, walls_update, pick. Checks against the world (unknown_emitter,
 * unknown_collider, positions inside the domain, direction not zero, fluid 0, relations between
 * parameters, the collider limit and the server's budget), then applies, all or nothing. Returns 0 with the ack's "applied" members added to `applied` (PROTOCOL.md 2.2),
 * or -1 with err filled and the world unchanged. */
int fc_command_apply_to_world(fc_world *w, const fc_command *cmd, cJSON *applied, fc_message_error *err);

#endif
