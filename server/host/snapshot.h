/* A world's particles in increasing id order, with the 8-bit attributes streams ask for: the
 * input of every stream's frame encoder (one snapshot per published frame, shared by all). */
#ifndef FC_SNAPSHOT_H
#define FC_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "core/solver.h"
#include "core/world.h"
#include "frame_encoder.h"

typedef struct fc_snapshot_buffer {
    size_t capacity;
    uint32_t *id, *order, *sort_id, *sort_order; /* order: particle index of the i-th smallest id */
    float *position[3];
    float *attribute[FC_ATTR_COUNT];
    /* the solver's quantized snapshot (fc_store_kind.frame_snapshot) */
    size_t q_capacity;
    uint32_t *q_id;
    uint64_t q_id_stamp; /* the solver's stamp of the ids in q_id (fc_frame_request.id_stamp) */
    size_t bytes_copied; /* what the last quantized snapshot moved from the solver's memory */
    uint16_t *q[FC_SNAPSHOT_MAX_QUANTIZED][3];
    uint8_t *attribute_q[FC_ATTR_COUNT];
} fc_snapshot_buffer;

void fc_snapshot_buffer_free(fc_snapshot_buffer *s);

/* Fills s from the world and points out at it: ids sorted, positions, and the attributes whose
 * bit is set in `attributes`. A solver that keeps the particles elsewhere (a GPU) and can quantize
 * there (fc_store_kind.frame_snapshot) gives the positions quantized for each position bits b whose
 * bit is set in `bits` (bit b; the frame's bounds are the domain) and the attributes as 8 bits, so
 * only those cross to the host; otherwise the particles are brought up to date from the solver
 * (fc_world_sync_to_host) and taken as floats. Either gives the same frames. 0, or -1 when out of
 * memory. */
int fc_snapshot_take(fc_snapshot_buffer *s, fc_world *w, uint32_t attributes, uint32_t bits, uint32_t sequence,
                     fc_snapshot *out);

/* The range an attribute is quantized in (PROTOCOL.md 4.2), for this world. */
void fc_snapshot_attribute_range(const fc_world *w, fc_attribute a, float *lo, float *hi);

#endif
