/* A world's frame streams: demand from the network thread, encoding once per stream on the world
 * thread, newest frames published as shared blobs (PROTOCOL.md section 5). */
#include "host/streams.h"

#include <stdio.h>
#include <string.h>

int fc_stream_tier_index(unsigned tier)
{
    switch (tier) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    default: return -1;
    }
}

unsigned fc_stream_tier_of_index(int index)
{
    return 1u << index;
}

static fc_stream *stream_at(fc_streams *s, unsigned bits, unsigned tier)
{
    return &s->stream[bits - FC_FRAME_MIN_BITS][fc_stream_tier_index(tier)];
}

#define FOR_EACH_STREAM(s, st, bits, tier)                                                                        \
    for (unsigned bits = FC_FRAME_MIN_BITS; bits <= FC_FRAME_MAX_BITS; bits++)                                    \
        for (unsigned tier = 1; tier <= FC_FRAME_MAX_TIER; tier *= 2)                                             \
            for (fc_stream *st = stream_at((s), bits, tier); st; st = NULL)

int fc_streams_init(fc_streams *s)
{
    memset(s, 0, sizeof *s);
    return pthread_mutex_init(&s->lock, NULL) ? -1 : 0;
}

static void drop_encoder(fc_stream *st)
{
    fc_frame_encoder_free(st->encoder);
    st->encoder = NULL;
    st->has_state = 0;
}

void fc_streams_free(fc_streams *s)
{
    FOR_EACH_STREAM(s, st, bits, tier) {
        drop_encoder(st);
        fc_blob_unref(st->newest);
        fc_blob_unref(st->newest_key);
    }
    fc_bytes_free(&s->scratch);
    pthread_mutex_destroy(&s->lock);
}

void fc_streams_set_demands(fc_streams *s, const fc_stream_demands *d)
{
    pthread_mutex_lock(&s->lock);
    FOR_EACH_STREAM(s, st, bits, tier)
        st->demand = d->of[bits - FC_FRAME_MIN_BITS][fc_stream_tier_index(tier)];
    pthread_mutex_unlock(&s->lock);
}

void fc_streams_want_key(fc_streams *s, unsigned bits, unsigned tier)
{
    pthread_mutex_lock(&s->lock);
    stream_at(s, bits, tier)->key_wanted = 1;
    s->key_wanted = 1;
    pthread_mutex_unlock(&s->lock);
}

void fc_streams_newest(fc_streams *s, unsigned bits, unsigned tier, fc_blob **newest, fc_blob **newest_key)
{
    pthread_mutex_lock(&s->lock);
    fc_stream *st = stream_at(s, bits, tier);
    *newest = fc_blob_ref(st->newest);
    *newest_key = fc_blob_ref(st->newest_key);
    pthread_mutex_unlock(&s->lock);
}

int fc_streams_watched(fc_streams *s)
{
    uint32_t attributes, bits;
    fc_streams_wanted(s, &attributes, &bits);
    return bits != 0;
}

int fc_streams_key_wanted(fc_streams *s)
{
    pthread_mutex_lock(&s->lock);
    int wanted = s->key_wanted;
    pthread_mutex_unlock(&s->lock);
    return wanted;
}

void fc_streams_wanted(fc_streams *s, uint32_t *attributes, uint32_t *bits_wanted)
{
    *attributes = *bits_wanted = 0;
    pthread_mutex_lock(&s->lock);
    FOR_EACH_STREAM(s, st, bits, tier)
        if (st->demand.subscribers > 0) *attributes |= st->demand.attributes, *bits_wanted |= 1u << bits;
    pthread_mutex_unlock(&s->lock);
}

/* The configuration the stream needs now: the world's epoch and bounds, at least the attributes
 * its subscribers want. */
static fc_stream_config wanted_config(const fc_stream *st, unsigned bits, unsigned tier, uint32_t attributes,
                                      const fc_stream_source *src, const fc_snapshot *snap)
{
    fc_stream_config c;
    memset(&c, 0, sizeof c);
    c.world = src->world;
    c.epoch = src->epoch;
    c.bits = bits;
    c.tier = tier;
    memcpy(c.lo, src->lo, sizeof c.lo);
    memcpy(c.hi, src->hi, sizeof c.hi);
    /* keep carrying what the stream carries: dropping an attribute would restart the chain */
    c.attributes = attributes | (st->encoder && st->config.epoch == src->epoch ? st->config.attributes : 0);
    /* a subscriber that asked for an attribute after the snapshot was taken gets it next time */
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        if (snap->count && !snap->attribute[a] && !snap->attribute_q[a]) c.attributes &= ~(1u << a);
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        if (c.attributes & (1u << a)) c.attr_lo[a] = src->attr_lo[a], c.attr_hi[a] = src->attr_hi[a];
    return c;
}

static int same_config(const fc_stream_config *a, const fc_stream_config *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* A new blob with the bytes of a frame, marked with its kind, sequence and reference. */
static fc_blob *frame_blob(const fc_bytes *frame)
{
    fc_blob *b = fc_blob_new(frame->data, frame->size);
    if (!b) return NULL;
    b->key = frame->data[FC_HDR_KIND] == FC_FRAME_KEY;
    b->sequence = fc_get_u32(frame->data + FC_HDR_SEQUENCE);
    b->reference = fc_get_u32(frame->data + FC_HDR_REFERENCE);
    return b;
}

/* Encodes one stream's frame (and a key frame when one is wanted and the frame is a delta). */
static int encode_stream(fc_stream *st, const fc_stream_config *config, int key_wanted, const fc_snapshot *snap,
                         fc_bytes *out, fc_blob **frame, fc_blob **key, char *err, size_t errlen)
{
    *frame = *key = NULL;
    if (!st->encoder || !same_config(&st->config, config)) {
        drop_encoder(st);
        st->encoder = fc_frame_encoder_new(config, err, errlen);
        if (!st->encoder) return -1;
        st->config = *config;
    }
    if (fc_frame_encoder_push(st->encoder, snap, out, err, errlen) != FC_CODEC_OK) return -1;
    st->has_state = 1;
    st->last_sequence = snap->sequence;
    *frame = frame_blob(out);
    if (*frame && (*frame)->key) *key = fc_blob_ref(*frame);
    else if (*frame && key_wanted && fc_frame_encoder_key(st->encoder, out) == FC_CODEC_OK) *key = frame_blob(out);
    if (!*frame || (key_wanted && !*key)) {
        snprintf(err, errlen, "out of memory while encoding a frame");
        return -1;
    }
    return 0;
}

int fc_streams_publish(fc_streams *s, const fc_snapshot *snap, const fc_stream_source *src, fc_publish_result *result,
                       char *err, size_t errlen)
{
    int status = 0;
    memset(result, 0, sizeof *result);
    FOR_EACH_STREAM(s, st, bits, tier) {
        pthread_mutex_lock(&s->lock);
        fc_stream_demand demand = st->demand;
        int key_wanted = st->key_wanted;
        pthread_mutex_unlock(&s->lock);
        if (demand.subscribers <= 0) {
            if (st->encoder) {
                drop_encoder(st);
                pthread_mutex_lock(&s->lock);
                fc_blob_assign(&st->newest, NULL);
                fc_blob_assign(&st->newest_key, NULL);
                pthread_mutex_unlock(&s->lock);
            }
            continue;
        }
        int due = !st->has_state || key_wanted || snap->sequence - st->last_sequence >= tier;
        if (!due) continue;
        fc_stream_config config = wanted_config(st, bits, tier, demand.attributes, src, snap);
        fc_blob *frame, *key;
        if (encode_stream(st, &config, key_wanted, snap, &s->scratch, &frame, &key, err, errlen)) {
            fc_blob_unref(frame);
            fc_blob_unref(key);
            drop_encoder(st);
            status = -1;
            continue;
        }
        result->frames += 1 + (key && key != frame);
        result->bytes += frame->len + (key && key != frame ? key->len : 0);
        if (tier == 1) result->tier1_bytes = frame->len;
        pthread_mutex_lock(&s->lock);
        fc_blob_assign(&st->newest, frame);
        fc_blob_assign(&st->newest_key, key);
        if (key) st->key_wanted = 0;
        pthread_mutex_unlock(&s->lock);
        fc_blob_unref(frame);
        fc_blob_unref(key);
    }
    pthread_mutex_lock(&s->lock);
    s->key_wanted = 0;
    FOR_EACH_STREAM(s, st, bits, tier) s->key_wanted |= st->key_wanted && st->demand.subscribers > 0;
    pthread_mutex_unlock(&s->lock);
    return status;
}
