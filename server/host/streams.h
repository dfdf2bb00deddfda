/* A world's frame streams (PROTOCOL.md section 5): one per position bits and rate tier in use,
 * each encoded once per frame by the world thread, whatever the number of its viewers. The
 * network thread says which streams are wanted and takes their newest frames. */
#ifndef FC_STREAMS_H
#define FC_STREAMS_H

#include <pthread.h>
#include <stdint.h>

#include "frame_encoder.h"
#include "host/blob.h"

enum {
    FC_STREAM_BITS_CHOICES = FC_FRAME_MAX_BITS - FC_FRAME_MIN_BITS + 1,
    FC_STREAM_TIERS = 4 /* tiers 1, 2, 4, 8 */
};

/* What the network thread wants of one stream. */
typedef struct fc_stream_demand {
    int subscribers;
    uint32_t attributes; /* union of the subscribers' attributes */
} fc_stream_demand;

typedef struct fc_stream_demands {
    fc_stream_demand of[FC_STREAM_BITS_CHOICES][FC_STREAM_TIERS];
} fc_stream_demands;

typedef struct fc_stream {
    /* under the lock */
    fc_stream_demand demand;
    int key_wanted;     /* a client waits for a key frame */
    fc_blob *newest;    /* the newest frame, delta or key */
    fc_blob *newest_key; /* a key frame at newest's sequence, or NULL */
    /* the world thread's own */
    fc_frame_encoder *encoder;
    fc_stream_config config;
    uint32_t last_sequence;
    int has_state;
} fc_stream;

typedef struct fc_streams {
    pthread_mutex_t lock;
    fc_stream stream[FC_STREAM_BITS_CHOICES][FC_STREAM_TIERS];
    int key_wanted; /* some stream's key_wanted is set */
    fc_bytes scratch; /* the world thread's encoding buffer */
} fc_streams;

/* Everything a stream's configuration takes from its world at a publication. */
typedef struct fc_stream_source {
    uint32_t world, epoch;
    float lo[3], hi[3];
    float attr_lo[FC_ATTR_COUNT], attr_hi[FC_ATTR_COUNT];
} fc_stream_source;

/* What one publication encoded, for the metrics. */
typedef struct fc_publish_result {
    unsigned frames;       /* frames encoded, key frames included */
    size_t bytes;          /* their total size */
    size_t tier1_bytes;    /* size of the newest tier-1 frame of the finest bits in use, or 0 */
} fc_publish_result;

int fc_streams_init(fc_streams *s);
void fc_streams_free(fc_streams *s);

/* Tier 1, 2, 4, 8 as index 0..3 and back. */
int fc_stream_tier_index(unsigned tier);
unsigned fc_stream_tier_of_index(int index);

/* ---- the network thread ---- */

/* Replaces the demand of every stream (counted over all subscriptions of the world). */
void fc_streams_set_demands(fc_streams *s, const fc_stream_demands *d);
/* Asks for a key frame on a stream; the caller wakes the world thread. */
void fc_streams_want_key(fc_streams *s, unsigned bits, unsigned tier);
/* New references to the stream's newest frame and its key frame (each may be NULL). */
void fc_streams_newest(fc_streams *s, unsigned bits, unsigned tier, fc_blob **newest, fc_blob **newest_key);

/* ---- the world thread ---- */

/* 1 when some stream has subscribers. */
int fc_streams_watched(fc_streams *s);
/* 1 when a client waits for a key frame. */
int fc_streams_key_wanted(fc_streams *s);
/* What the streams with subscribers want of a snapshot: the attributes they carry (snapshots need
 * only these) and their position bits, bit b set for b bits (a device quantizes the snapshot for
 * each, fc_snapshot_take). */
void fc_streams_wanted(fc_streams *s, uint32_t *attributes, uint32_t *bits);
/* Encodes the snapshot into every wanted stream that is due (tier snapshots since its last
 * frame, or a key frame wanted) and publishes the frames. 0, or -1 when encoding failed (out of
 * memory; err says why), leaving the streams that failed without a frame. */
int fc_streams_publish(fc_streams *s, const fc_snapshot *snap, const fc_stream_source *src, fc_publish_result *result,
                       char *err, size_t errlen);

#endif
