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

/* One snapshot of a world, particles in strictly increasing id order. */
typedef struct {
    uint32_t sequence;
    double time;
    size_t count;
    const uint32_t *id;
    const float *position[3];
    const float *attribute[FC_ATTR_COUNT]; /* required for every attribute the stream carries */
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
