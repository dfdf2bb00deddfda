/* Immutable, reference-counted byte buffers shared between world threads and the network thread. */
#include "host/blob.h"

#include <stdlib.h>
#include <string.h>

fc_blob *fc_blob_new(const void *data, size_t len)
{
    fc_blob *b = malloc(sizeof *b + len + 1);
    if (!b) return NULL;
    atomic_init(&b->refs, 1);
    b->len = len;
    b->sequence = b->reference = 0;
    b->key = 0;
    if (len) memcpy(b->data, data, len);
    b->data[len] = 0; /* text blobs are also C strings */
    return b;
}

fc_blob *fc_blob_ref(fc_blob *b)
{
    if (b) atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
    return b;
}

void fc_blob_unref(fc_blob *b)
{
    if (b && atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) == 1) free(b);
}

void fc_blob_assign(fc_blob **slot, fc_blob *b)
{
    fc_blob *old = *slot;
    *slot = fc_blob_ref(b);
    fc_blob_unref(old);
}
