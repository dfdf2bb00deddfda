/* The per-particle state that a stream's encoder and decoder share (PROTOCOL.md 4.3). */
#ifndef FC_FRAME_STATE_H
#define FC_FRAME_STATE_H

#include "frame_format.h"

#include <stdbool.h>

/* Particles of the last frame of a stream, in increasing id order. */
typedef struct {
    size_t count, capacity;
    uint32_t *id;
    uint16_t *q[3];                /* quantized position per axis */
    int32_t *v[3];                 /* q minus the previous frame's q (0 for a newborn) */
    uint8_t *attr[FC_ATTR_COUNT];  /* allocated for every attribute; meaningful if in `attributes` */
    uint32_t attributes;           /* bit a: attribute a is carried */
    float attr_lo[FC_ATTR_COUNT], attr_hi[FC_ATTR_COUNT];
} fc_particle_state;

/* Room for n particles (contents are kept only up to count). Returns 0 or -1 (out of memory). */
int fc_particle_state_reserve(fc_particle_state *s, size_t n);
void fc_particle_state_free(fc_particle_state *s);
void fc_particle_state_swap(fc_particle_state *a, fc_particle_state *b);

/* The frame checksum of PROTOCOL.md 4.8. */
uint32_t fc_particle_state_checksum(const fc_particle_state *s);

#endif
