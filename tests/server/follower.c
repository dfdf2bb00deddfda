/* The frame follower: fc_frame_decoder plus counters and key requests. */
#include "follower.h"

#include <stdio.h>
#include <string.h>

int follower_init(frame_follower *f, uint32_t world)
{
    memset(f, 0, sizeof *f);
    f->world = world;
    f->first_kind = -1;
    f->dec = fc_frame_decoder_new(0);
    return f->dec ? 0 : -1;
}

void follower_free(frame_follower *f)
{
    fc_frame_decoder_free(f->dec);
    f->dec = NULL;
}

static void note_decoded(frame_follower *f)
{
    const fc_frame_header *h = fc_frame_decoder_header(f->dec);
    const fc_particle_state *s = fc_frame_decoder_particles(f->dec);
    f->frames++;
    if (h->kind == FC_FRAME_KEY) f->key_frames++;
    else f->deltas++;
    if (h->world != f->world) f->wrong_world++;
    f->last_count = (uint32_t)s->count;
    f->last_time = h->time;
    if (h->time > f->max_time) f->max_time = h->time;
    f->last_bits = h->bits;
    f->last_attributes = s->attributes;
    f->last_epoch = h->epoch;
    f->last_sequence = h->sequence;
    f->awaiting_key = 0;
}

static void ask_for_key(frame_follower *f, ws_client *ws)
{
    char msg[96];
    if (f->awaiting_key || !ws) return;
    snprintf(msg, sizeof msg, "{\"type\":\"key_request\",\"world\":%u}", (unsigned)f->world);
    if (ws_send_text(ws, msg) == 0) f->key_requests++, f->awaiting_key = 1;
}

void follower_feed(frame_follower *f, ws_client *ws, const uint8_t *data, size_t len)
{
    f->bytes += (long)len;
    if (len < 4 || memcmp(data, FC_FRAME_MAGIC, 4) != 0) {
        f->other_binary++;
        return;
    }
    if (f->first_kind < 0) f->first_kind = len > FC_HDR_KIND ? data[FC_HDR_KIND] : -2;
    char err[200] = "";
    fc_codec_status st = fc_frame_decode(f->dec, data, len, err, sizeof err);
    if (st == FC_CODEC_OK) {
        note_decoded(f);
        return;
    }
    snprintf(f->last_error, sizeof f->last_error, "%s: %s", fc_codec_status_name(st), err);
    if (st == FC_CODEC_NEED_KEY) f->need_key++, ask_for_key(f, ws);
    else if (st == FC_CODEC_CORRUPT) f->corrupt++;
    else f->no_memory++;
}
