/* The particle fields registry (core/particle_fields.def): this test is built with one field more,
 * declared once in tests/extra_particle_field.def (-DFC_EXTRA_PARTICLE_FIELDS, and the protocol's
 * attribute list one longer, -DFC_EXTRA_ATTRIBUTE), and sees that field made at a particle's birth,
 * kept with its particle through sorting, compaction, copies and checkpoints, exported as a PLY
 * property and streamed as a frame attribute, with no other code knowing of it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli/cli.h"
#include "core/checkpoint.h"
#include "core/sources.h"
#include "core/world.h"
#include "frame_decoder.h"
#include "frame_encoder.h"
#include "host/snapshot.h"

#ifndef FC_EXTRA_PARTICLE_FIELDS
#error "test_particle_fields is built with the extra field (tests/CMakeLists.txt)"
#endif

/* The tag a particle is given from its id, so that any reordering shows. */
static float tag_of(uint32_t id) { return (float)(id % 200u); }

static int tags_follow_ids(const fc_particles *p)
{
    for (size_t i = 0; i < p->count; i++)
        if (p->field[FC_TEST_TAG][i] != tag_of(p->id[i])) return 0;
    return 1;
}

static void test_declared(void)
{
    const fc_field_desc *f = fc_field_find("test_tag");
    CHECK(FC_FIELD_COUNT == 8 && f == &fc_fields[FC_FIELD_COUNT - 1] && f->column == FC_TEST_TAG &&
              FC_COLUMN_COUNT == FC_TEST_TAG + 1,
          "the extra field comes last in the registry, with a column of its own");
    CHECK(fc_field_streamed_as("test_tag") == f && strcmp(fc_attribute_names[FC_ATTR_EXTRA], "test_tag") == 0,
          "it streams as the extra attribute");
    fc_particle rec;
    fc_particle_defaults(&rec);
    CHECK(rec.TEST_TAG == 7.0f && rec.TEMPERATURE == 293.15f && rec.FLUID == 0, "a record starts at the registry's defaults");
}

/* A started SPH world with a block of fluid, every particle tagged by its id. */
static int build(fc_world *w)
{
    char err[256];
    fc_world_init(w);
    for (int a = 0; a < 3; a++) w->domain_hi[a] = 0.3f;
    const float lo[3] = {0, 0, 0}, hi[3] = {0.2f, 0.16f, 0.2f}, v[3] = {0, 0, 0};
    if (fc_world_fill_box(w, lo, hi, v, 0) <= 0 || fc_world_start(w, err, sizeof err)) return -1;
    CHECK(w->particles.field[FC_TEST_TAG][0] == 7.0f, "a filled particle has the field's default");
    for (size_t i = 0; i < w->particles.count; i++) w->particles.field[FC_TEST_TAG][i] = tag_of(w->particles.id[i]);
    return 0;
}

static void test_moves_with_particles(fc_world *w)
{
    fc_particles *p = &w->particles;
    size_t n = p->count;
    uint32_t *order = malloc(n * sizeof *order);
    for (size_t i = 0; i < n; i++) order[i] = (uint32_t)(n - 1 - i);
    fc_particles_permute(p, order);
    free(order);
    CHECK(p->id[0] == n - 1 && tags_follow_ids(p), "permuted (reversed): the tag follows its particle");
    for (int s = 0; s < 5; s++) fc_world_step(w); /* the solver sorts the particles by grid cell */
    CHECK(tags_follow_ids(p), "sorted by the solver over 5 steps: the tag follows its particle");

    fc_checkpoint c = {0};
    CHECK(fc_checkpoint_take(&c, w) == 0, "checkpoint taken");
    uint8_t *keep = malloc(p->count);
    for (size_t i = 0; i < p->count; i++) keep[i] = p->id[i] % 3u != 0;
    size_t before = p->count, removed = fc_particles_compact(p, keep);
    free(keep);
    int none_left = 1;
    for (size_t i = 0; i < p->count; i++) none_left &= p->id[i] % 3u != 0;
    CHECK(removed > 0 && p->count == before - removed && none_left && tags_follow_ids(p),
          "compacted (%zu of %zu removed): the others keep their tags", removed, before);
    CHECK(fc_checkpoint_restore(&c, w) == 0 && p->count == before && tags_follow_ids(p),
          "a checkpoint put back brings the removed particles back with their tags");
    fc_checkpoint_free(&c);

    /* a per-particle flag in a registry column (a method's: air deletion, FLIP reseeding) removes
     * exactly the flagged particles; the others keep their order and tags */
    CHECK(fc_checkpoint_take(&c, w) == 0, "checkpoint taken again");
    uint32_t *kept_ids = malloc(p->count * sizeof *kept_ids);
    size_t kept_count = 0;
    for (size_t i = 0; i < p->count; i++) {
        p->field[FC_TEST_TAG][i] = p->id[i] % 3u == 0 ? 1.0f : 0.0f;
        if (p->id[i] % 3u != 0) kept_ids[kept_count++] = p->id[i];
    }
    const uint64_t removed_before = w->removed_total;
    const long flagged = fc_world_remove_flagged(w, FC_TEST_TAG);
    int unflagged_left = p->count == kept_count, in_order = 1;
    for (size_t i = 0; i < p->count && unflagged_left; i++) {
        unflagged_left &= p->field[FC_TEST_TAG][i] == 0.0f;
        in_order &= p->id[i] == kept_ids[i];
    }
    free(kept_ids);
    CHECK(flagged == (long)removed && p->count == before - removed && unflagged_left && in_order &&
              w->removed_total == removed_before + removed,
          "fc_world_remove_flagged takes the %ld flagged particles (%zu expected), the rest stay", flagged, removed);
    CHECK(fc_checkpoint_restore(&c, w) == 0 && p->count == before && tags_follow_ids(p), "and the checkpoint puts them back");
    fc_checkpoint_free(&c);

    const fc_object e = fc_emitter_row((float[]){0.15f, 0.25f, 0.15f}, (float[]){0, -1, 0}, 0.03f, 0.5f, 1e5f, 0);
    fc_world_add_object(w, &e);
    size_t added = fc_emitters_step(w, 1e-3);
    int born_default = added > 0;
    for (size_t i = p->count - added; i < p->count; i++) born_default &= p->field[FC_TEST_TAG][i] == 7.0f;
    CHECK(born_default, "%zu emitted particles are born with the field's default", added);
    for (size_t i = p->count - added; i < p->count; i++) p->field[FC_TEST_TAG][i] = tag_of(p->id[i]);
}

static uint32_t get_u32(const uint8_t *b) { return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }

static void test_exported(const fc_world *w)
{
    char header[2048];
    fc_ply_header(header, sizeof header, w->particles.count, 0.0);
    CHECK(strstr(header, "property float temperature\nproperty uchar flags\nproperty uchar submerged\nproperty float test_tag\nend_header\n") != NULL,
          "the PLY header lists the field last: %s", header);
    const size_t record = fc_ply_record_bytes();
    CHECK(record == 4 + 7 * 4 + 1 + 4 + 1 + 1 + 4, "a PLY record is %zu bytes", record);
    size_t n = w->particles.count < 64 ? w->particles.count : 64;
    uint8_t *out = malloc(n * record);
    fc_ply_encode(out, &w->particles, 0, n);
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        uint32_t id = get_u32(out + i * record), bits = get_u32(out + i * record + record - 4);
        float tag;
        memcpy(&tag, &bits, sizeof tag);
        ok &= id == w->particles.id[i] && tag == tag_of(id) && out[i * record + 32] == w->particles.u8[FC_FLUID][i];
    }
    free(out);
    CHECK(ok, "each PLY record ends with its particle's tag");
}

static void test_streamed(fc_world *w)
{
    fc_snapshot_buffer buffer = {0};
    fc_snapshot snap;
    const uint32_t attributes = 1u << FC_ATTR_EXTRA | 1u << FC_ATTR_FLUID;
    CHECK(fc_snapshot_take(&buffer, w, attributes, 0, 1, &snap) == 0, "snapshot taken");
    int in_order = snap.attribute[FC_ATTR_EXTRA] != NULL;
    for (size_t i = 0; in_order && i < snap.count; i++) in_order &= snap.attribute[FC_ATTR_EXTRA][i] == tag_of(snap.id[i]);
    CHECK(in_order, "the snapshot carries the tag of each particle, in id order");

    fc_stream_config config = {.world = 1, .epoch = 1, .bits = 16, .tier = 1, .attributes = attributes};
    memcpy(config.lo, w->domain_lo, sizeof config.lo);
    memcpy(config.hi, w->domain_hi, sizeof config.hi);
    for (int a = 0; a < FC_ATTR_COUNT; a++) fc_snapshot_attribute_range(w, (fc_attribute)a, &config.attr_lo[a], &config.attr_hi[a]);
    CHECK(config.attr_lo[FC_ATTR_EXTRA] == 0.0f && config.attr_hi[FC_ATTR_EXTRA] == 255.0f, "its range is the registry's");
    char err[256] = "";
    fc_frame_encoder *enc = fc_frame_encoder_new(&config, err, sizeof err);
    fc_frame_decoder *dec = fc_frame_decoder_new(0);
    fc_bytes frame = {0};
    int decoded = enc && dec && fc_frame_encoder_push(enc, &snap, &frame, err, sizeof err) == FC_CODEC_OK &&
                  fc_frame_decode(dec, frame.data, frame.size, err, sizeof err) == FC_CODEC_OK;
    CHECK(decoded, "a frame with the attribute encodes and decodes: %s", err);
    if (decoded) {
        const fc_particle_state *s = fc_frame_decoder_particles(dec);
        int same = s->count == snap.count && (s->attributes & (1u << FC_ATTR_EXTRA));
        for (size_t i = 0; same && i < s->count; i++) same &= s->attr[FC_ATTR_EXTRA][i] == (uint8_t)tag_of(s->id[i]);
        CHECK(same, "the decoded frame holds every particle's tag");
    }
    fc_bytes_free(&frame);
    fc_frame_encoder_free(enc);
    fc_frame_decoder_free(dec);
    fc_snapshot_buffer_free(&buffer);
}

int main(void)
{
    test_declared();
    fc_world w;
    if (build(&w)) {
        CHECK(0, "the test world builds");
        return check_summary("test_particle_fields");
    }
    test_moves_with_particles(&w);
    test_exported(&w);
    test_streamed(&w);
    fc_world_free(&w);
    return check_summary("test_particle_fields");
}
