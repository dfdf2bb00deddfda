/* A frame's snapshot asked of a solver that keeps the particles elsewhere (a GPU): plain data for C and CUDA. */
#ifndef FC_FRAME_REQUEST_H
#define FC_FRAME_REQUEST_H

#include <stddef.h>
#include <stdint.h>

/* A frame's snapshot taken where the particles live (fc_store_kind.frame_snapshot): the ids in increasing
 * order, the positions quantized for each stream's bits in the frame's bounds, and the streamed
 * fields quantized to 8 bits, into the host arrays given (count entries each). The quantization is
 * the encoder's (fc_quantize, protocol/c/frame_format.h), so the frames are those of the host's
 * floats. */
enum { FC_FRAME_MAX_POSITION_SETS = 4, FC_FRAME_MAX_FIELDS = 8 };
typedef struct fc_frame_field {
    int column;       /* the registry column (its first, for a vector: streamed as the magnitude) */
    int components;   /* 1 or 3 */
    int is_u8;        /* an 8-bit column */
    float lo, hi;     /* the attribute's range */
    uint8_t *q;       /* out */
} fc_frame_field;
typedef struct fc_frame_request {
    size_t count;                 /* particles: the host's count */
    float lo[3], hi[3];           /* the frame's bounds */
    int position_sets;
    unsigned bits[FC_FRAME_MAX_POSITION_SETS];
    uint16_t *q[FC_FRAME_MAX_POSITION_SETS][3]; /* out */
    int field_count;
    fc_frame_field fields[FC_FRAME_MAX_FIELDS];
    uint32_t *id;                 /* out: increasing */
    /* in: the stamp of the ids `id` holds already (0: none); out: the stamp of the ids it holds now.
     * The solver writes the ids only when the set of particles changed since that stamp (stamps are
     * unique in the process), so a frame of an unchanged set moves no ids. */
    uint64_t id_stamp;
    size_t bytes_copied;          /* out: bytes that crossed to the host for this snapshot */
} fc_frame_request;

#endif
