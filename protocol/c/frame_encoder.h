/* Encoder of one particle frame stream (PROTOCOL.md 4): key frames, and delta frames against the previous frame. */
#ifndef FC_FRAME_ENCODER_H
#define FC_FRAME_ENCODER_H

#include "frame_state.h"

/* What fixes a stream: its frames are decodable one after the other only within it. */
typedef struct {
    uint32_t world, epoch;
    unsigned bits; /* position bits per axis, FC_FRAME_MIN_BITS..FC_FRAME_MAX_BITS */
    unsigned tier; /* 1, 2, 4 or 8: the stream carries every tier-th snapshot */
    float lo[3], hi[3];
    uint32_t attributes; /* bit a: the stream carries attribute a (fc_attribute) */
    float attr_lo[FC_ATTR_COUNT], attr_hi[FC_ATTR_COUNT];
    uint32_t max_particles; /* 0: FC_FRAME_DEFAULT_MAX_PARTICLES */
} fc_stream_config;

/* Positions quantized already (a GPU does it, server/cuda/device_store.cu): q[a] is fc_quantize of
 * position a with max_q 2^bits - 1 in the bounds [lo, hi], exactly as the encoder of a stream with
 * these bits and bounds would compute it. */
typedef struct {
    unsigned bits;
    float lo[3], hi[3];
    const uint16_t *q[3];
} fc_quantized_positions;

enum { FC_SNAPSHOT_MAX_QUANTIZED = 4 };

/* One snapshot of a world, particles in strictly increasing id order. A stream takes its positions
 * from `quantized` when a set there has its bits and bounds, else it quantizes `position`; an
 * attribute likewise from attribute_q when quantized in the stream's range, else from attribute. */
typedef struct {
    uint32_t sequence;
    double time;
    size_t count;
    const uint32_t *id;
    const float *position[3];              /* NULL when every stream finds its quantized set */
    const float *attribute[FC_ATTR_COUNT]; /* for every attribute the stream carries, unless attribute_q */
    fc_quantized_positions quantized[FC_SNAPSHOT_MAX_QUANTIZED];
    unsigned quantized_count;
    const uint8_t *attribute_q[FC_ATTR_COUNT]; /* fc_quantize to 255 in [attribute_lo, attribute_hi] */
    float attribute_lo[FC_ATTR_COUNT], attribute_hi[FC_ATTR_COUNT];
} fc_snapshot;

typedef struct fc_frame_encoder fc_frame_encoder;

/* NULL if the configuration is invalid (message in err) or memory ran out. */
fc_frame_encoder *fc_frame_encoder_new(const fc_stream_config *config, char *err, size_t errlen);
void fc_frame_encoder_free(fc_frame_encoder *e);

/* Encodes the snapshot as the stream's next frame into out (replacing its contents): a key
 * frame if it is the first, else a delta frame against the previous snapshot. A rejected
 * snapshot (FC_CODEC_BAD_INPUT, message in err) leaves the stream as it was. */
fc_codec_status fc_frame_encoder_push(fc_frame_encoder *e, const fc_snapshot *snapshot, fc_bytes *out, char *err,
                                      size_t errlen);

/* A key frame of the last snapshot pushed, carrying the stream state, so that a client that
 * decodes it can decode the next delta frame. FC_CODEC_BAD_INPUT before the first push. */
fc_codec_status fc_frame_encoder_key(fc_frame_encoder *e, fc_bytes *out);

/* Drops the state: the next push gives a key frame. */
void fc_frame_encoder_restart(fc_frame_encoder *e);

#endif
