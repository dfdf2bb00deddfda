/* Immutable, reference-counted byte buffers: a frame or a text message made once by a world
 * thread and sent to many clients by the network thread. */
#ifndef FC_BLOB_H
#define FC_BLOB_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Free bytes before data, so that a WebSocket library may write its frame header in front of a
 * whole message without a copy (libwebsockets needs LWS_PRE = 16). */
#define FC_BLOB_HEADROOM 32

typedef struct fc_blob {
    atomic_int refs;
    size_t len;
    uint32_t sequence;  /* frames: the snapshot's sequence number */
    uint32_t reference; /* frames: the reference of a delta, = sequence for a key frame */
    int key;            /* frames: 1 for a key frame */
    unsigned char headroom[FC_BLOB_HEADROOM];
    unsigned char data[];
} fc_blob;

/* A blob holding a copy of len bytes, with one reference; NULL when out of memory. */
fc_blob *fc_blob_new(const void *data, size_t len);
/* Takes another reference (NULL passes through). */
fc_blob *fc_blob_ref(fc_blob *b);
/* Drops a reference; the last one frees (NULL is ignored). */
void fc_blob_unref(fc_blob *b);
/* Replaces *slot's blob with b (taking a new reference to b) and drops the old one. */
void fc_blob_assign(fc_blob **slot, fc_blob *b);

#endif
