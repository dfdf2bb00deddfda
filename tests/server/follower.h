/* Follows one world's particle frames as a client must (PROTOCOL.md 4.7, 5): decodes every binary
 * frame with fc_frame_decoder, counts what decoded, and asks for a key frame on need_key. */
#ifndef FC_TEST_FOLLOWER_H
#define FC_TEST_FOLLOWER_H

#include <stdint.h>

#include "frame_decoder.h"
#include "ws_client.h"

typedef struct {
    fc_frame_decoder *dec;
    uint32_t world;
    long frames;          /* frames that decoded (FC_CODEC_OK) */
    long key_frames, deltas;
    long need_key, corrupt, no_memory;
    long wrong_world;     /* decoded frames of another world */
    long other_binary;    /* binary messages without the FCPF magic */
    long key_requests;    /* key_request messages sent */
    int first_kind;       /* kind of the first FCPF frame received, -1 before */
    int awaiting_key;     /* a key_request was sent and no frame decoded since */
    uint32_t last_count;  /* particles of the last decoded frame */
    double last_time;     /* simulated time of the last decoded frame */
    double max_time;
    unsigned last_bits;
    uint32_t last_attributes; /* bit a: attribute a (FC_ATTR_*) was in the last decoded frame */
    uint32_t last_epoch, last_sequence;
    long bytes;           /* bytes of all binary messages */
    char last_error[256];
} frame_follower;

/* 0, or -1 when out of memory. */
int follower_init(frame_follower *f, uint32_t world);
void follower_free(frame_follower *f);
/* Decodes one binary message; on need_key sends key_request on ws (once until a frame decodes). */
void follower_feed(frame_follower *f, ws_client *ws, const uint8_t *data, size_t len);

#endif
