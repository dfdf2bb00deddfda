/* Particles as a structure of arrays with a persistent id: grow, append, remove, permute. The
 * fields are those of the registry (particle_fields.def); every operation here moves all of them
 * together with the id, so a field added there gets sorting, emission and removal for free. */
#ifndef FC_PARTICLES_H
#define FC_PARTICLES_H

#include <stddef.h>
#include <stdint.h>

typedef enum { FC_FIELD_F32, FC_FIELD_U8 } fc_field_type;
typedef enum { FC_WRITER_SOLVER, FC_WRITER_BIRTH } fc_field_writer;
typedef enum { FC_RANGE_FIXED, FC_RANGE_REST_DENSITY, FC_RANGE_TEMPERATURE } fc_field_range;

/* Columns: one per component of every field, in registry order (FC_POSITION + 0..2 = x, y, z). */
enum {
#define FC_FIELD_VEC(id, ...) FC_##id, FC_##id##_LAST_ = FC_##id + 2,
#define FC_FIELD(id, ...) FC_##id,
#include "core/particle_fields.def"
#undef FC_FIELD_VEC
#undef FC_FIELD
    FC_COLUMN_COUNT
};
/* The columns by component, as the solvers name them. */
enum {
    FC_PX = FC_POSITION, FC_PY = FC_POSITION + 1, FC_PZ = FC_POSITION + 2,
    FC_VX = FC_VELOCITY, FC_VY = FC_VELOCITY + 1, FC_VZ = FC_VELOCITY + 2,
};

/* Fields, in registry order. */
typedef enum {
#define FC_FIELD_VEC(id, ...) FC_FIELD_ID_##id,
#define FC_FIELD(id, ...) FC_FIELD_ID_##id,
#include "core/particle_fields.def"
#undef FC_FIELD_VEC
#undef FC_FIELD
    FC_FIELD_COUNT
} fc_field_id;

/* One particle's values of every field: what fc_particles_add appends. */
#define FC_CTYPE_F32 float
#define FC_CTYPE_U8 uint8_t
typedef struct fc_particle {
#define FC_FIELD_VEC(id, name, prefix, type, ...) FC_CTYPE_##type id[3];
#define FC_FIELD(id, name, type, ...) FC_CTYPE_##type id;
#include "core/particle_fields.def"
#undef FC_FIELD_VEC
#undef FC_FIELD
} fc_particle;

/* A field as the registry declares it. */
typedef struct fc_field_desc {
    const char *name;      /* "position", "fluid" */
    const char *ply;       /* PLY property name, or for a vector the prefix of its x, y, z */
    int components;        /* 1 or 3 */
    int column;            /* its first column */
    fc_field_type type;
    const char *unit;
    double def;            /* the default of a particle record */
    fc_field_writer writer;
    const char *stream;    /* the frame attribute carrying it (a vector: its magnitude), or NULL */
    fc_field_range range;  /* that attribute's 8-bit range: see particle_fields.def */
    double lo, hi;
    const char *description;
    size_t offset;         /* of its first component in fc_particle */
} fc_field_desc;

extern const fc_field_desc fc_fields[FC_FIELD_COUNT];

/* The field whose name is `name`, or the one that streams as attribute `name`; NULL if none. */
const fc_field_desc *fc_field_find(const char *name);
const fc_field_desc *fc_field_streamed_as(const char *attribute);
/* The field a column belongs to, and its element size in bytes. */
const fc_field_desc *fc_column_field(int column);
size_t fc_column_size(int column);

typedef struct fc_particles {
    size_t count, capacity;
    uint32_t *id;                     /* persistent, never reused within a world */
    float *field[FC_COLUMN_COUNT];    /* F32 columns (NULL for the others) */
    uint8_t *u8[FC_COLUMN_COUNT];     /* U8 columns (NULL for the others) */
    uint32_t next_id;
    /* scratch for permutation, same capacity, one per element size */
    float *scratch;
    uint8_t *scratch_u8;
    uint32_t *scratch_id;
} fc_particles;

/* Column c's array (either type). */
static inline void *fc_particles_column(const fc_particles *p, int c)
{
    return fc_column_size(c) == 1 ? (void *)p->u8[c] : (void *)p->field[c];
}

void fc_particles_init(fc_particles *p);
void fc_particles_free(fc_particles *p);

/* Makes room for at least `capacity` particles; returns 0 or -1 when out of memory. */
int fc_particles_reserve(fc_particles *p, size_t capacity);

/* A record holding every field's registry default. */
void fc_particle_defaults(fc_particle *rec);

/* Appends one particle with a fresh id and the record's values; returns its index or -1 when
 * out of memory. */
long fc_particles_add(fc_particles *p, const fc_particle *rec);
/* The bytes of column c of a record (fc_column_size of them) into out. */
void fc_particle_column_bytes(const fc_particle *rec, int c, void *out);

/* Particle i's values. */
void fc_particles_get(const fc_particles *p, size_t i, fc_particle *rec);

/* Makes dst hold the particles of src (count, ids and every field; dst keeps its own next_id and
 * scratch). 0, or -1 when out of memory (dst unchanged). */
int fc_particles_copy(fc_particles *dst, const fc_particles *src);

/* Removes particles whose keep[i] is 0, keeping the order of the others; returns how many went. */
size_t fc_particles_compact(fc_particles *p, const uint8_t *keep);

/* Reorders every array so that new index i holds old index order[i]. */
void fc_particles_permute(fc_particles *p, const uint32_t *order);

/* Bytes a particle takes in storage (id, every column, the scratch). */
size_t fc_particles_bytes_per_particle(void);

/* The largest |v| over the particles (non-finite speeds left out): the velocity conditions of the
 * adaptive step (core/time_step.h). */
double fc_particles_max_speed(const fc_particles *p);

#endif
