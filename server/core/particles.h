/* Particles as a structure of arrays with a persistent id: grow, append, remove, permute. */
#ifndef FC_PARTICLES_H
#define FC_PARTICLES_H

#include <stddef.h>
#include <stdint.h>

/* Per-particle float fields. Every operation below moves all of them together with the id,
 * so a solver that adds a field here gets sorting, emission and removal for free. */
enum {
    FC_PX, FC_PY, FC_PZ,      /* position, m */
    FC_VX, FC_VY, FC_VZ,      /* velocity, m/s */
    FC_DENSITY,               /* kg/m^3, written by the solver */
    FC_FIELD_COUNT
};

typedef struct fc_particles {
    size_t count, capacity;
    uint32_t *id;                     /* persistent, never reused within a world */
    float *field[FC_FIELD_COUNT];
    uint32_t next_id;
    /* scratch for permutation, same capacity */
    float *scratch;
    uint32_t *scratch_id;
} fc_particles;

void fc_particles_init(fc_particles *p);
void fc_particles_free(fc_particles *p);

/* Makes room for at least `capacity` particles; returns 0 or -1 when out of memory. */
int fc_particles_reserve(fc_particles *p, size_t capacity);

/* Appends one particle with a fresh id at rest; returns its index or -1 when out of memory. */
long fc_particles_add(fc_particles *p, float x, float y, float z, float vx, float vy, float vz);

/* Makes dst hold the particles of src (count, ids and every field; dst keeps its own next_id and
 * scratch). 0, or -1 when out of memory (dst unchanged). */
int fc_particles_copy(fc_particles *dst, const fc_particles *src);

/* Removes particles whose keep[i] is 0, keeping the order of the others; returns how many went. */
size_t fc_particles_compact(fc_particles *p, const uint8_t *keep);

/* Reorders every array so that new index i holds old index order[i]. */
void fc_particles_permute(fc_particles *p, const uint32_t *order);

#endif
