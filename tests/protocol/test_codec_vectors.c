/* Frame codec test vectors (protocol/vectors): re-encodes each text input to the expected bytes and decodes them back; --write regenerates them. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "frame_decoder.h"
#include "frame_encoder.h"
#include "particle_stream.h"

#include <dirent.h>
#include <string.h>

enum { MAX_FRAMES = 16 };

/* One vector: a stream and its snapshots, as in protocol/vectors/README.md. */
typedef struct {
    char name[64];
    fc_stream_config config;
    int attribute_order[FC_ATTR_COUNT], attribute_count;
    int frames;
    char kind[MAX_FRAMES][8]; /* key, delta or resync */
    particle_stream snap[MAX_FRAMES];
    uint32_t sequence[MAX_FRAMES];
} vector;

/* ---- writing --------------------------------------------------------------------------- */

static void write_bytes(const char *path, const fc_bytes *b)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->data, 1, b->size, f) != b->size) fprintf(stderr, "cannot write %s\n", path), exit(1);
    fclose(f);
}

/* Encodes the vector; with dir, writes NAME.txt and NAME.NNN.bin there; else compares with them. */
static void encode_vector(const vector *v, const char *dir, bool write)
{
    char err[256], path[4096];
    fc_frame_encoder *e = fc_frame_encoder_new(&v->config, err, sizeof err);
    CHECK(e != NULL, "%s: config: %s", v->name, err);
    if (!e) return;
    FILE *text = NULL;
    if (write) {
        snprintf(path, sizeof path, "%s/%s.txt", dir, v->name);
        text = fopen(path, "w");
        const fc_stream_config *c = &v->config;
        fprintf(text, "# fluidcast frame test vector %s (protocol/vectors/README.md)\n", v->name);
        fprintf(text, "stream %u %u %u %u %.9g %.9g %.9g %.9g %.9g %.9g\n", c->world, c->epoch, c->bits, c->tier,
                c->lo[0], c->lo[1], c->lo[2], c->hi[0], c->hi[1], c->hi[2]);
        for (int k = 0; k < v->attribute_count; k++) {
            int a = v->attribute_order[k];
            fprintf(text, "attribute %s %.9g %.9g\n", fc_attribute_names[a], c->attr_lo[a], c->attr_hi[a]);
        }
    }
    fc_bytes frame = {0};
    for (int f = 0; f < v->frames; f++) {
        const particle_stream *s = &v->snap[f];
        fc_snapshot snap = stream_snapshot(s);
        snap.sequence = v->sequence[f];
        snap.time = v->sequence[f] / 30.0;
        fc_codec_status st = strcmp(v->kind[f], "resync") == 0 ? fc_frame_encoder_key(e, &frame)
                                                                 : fc_frame_encoder_push(e, &snap, &frame, err, sizeof err);
        CHECK(st == FC_CODEC_OK, "%s frame %d: %s", v->name, f, err);
        snprintf(path, sizeof path, "%s/%s.%03d.bin", dir, v->name, f);
        if (write) {
            write_bytes(path, &frame);
            fprintf(text, "frame %u %.17g %zu %s %s.%03d.bin\n", snap.sequence, snap.time, s->count, v->kind[f], v->name, f);
            for (size_t i = 0; i < s->count; i++) {
                fprintf(text, "%u %.9g %.9g %.9g", s->id[i], s->pos[0][i], s->pos[1][i], s->pos[2][i]);
                for (int k = 0; k < v->attribute_count; k++) fprintf(text, " %.9g", s->attr[v->attribute_order[k]][i]);
                fputc('\n', text);
            }
            continue;
        }
        FILE *expected = fopen(path, "rb");
        CHECK(expected != NULL, "%s: missing %s", v->name, path);
        if (!expected) continue;
        uint8_t *bytes = malloc(frame.size + 1);
        size_t got = fread(bytes, 1, frame.size + 1, expected);
        fclose(expected);
        CHECK(got == frame.size && memcmp(bytes, frame.data, frame.size) == 0,
              "%s frame %d: the encoder's %zu bytes differ from the vector's %zu", v->name, f, frame.size, got);
        free(bytes);
    }
    if (text) fclose(text);
    fc_bytes_free(&frame);
    fc_frame_encoder_free(e);
}

/* ---- reading --------------------------------------------------------------------------- */

static int attribute_index(const char *name)
{
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        if (strcmp(name, fc_attribute_names[a]) == 0) return a;
    return -1;
}

static bool read_vector(const char *path, vector *v)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    memset(v, 0, sizeof *v);
    char line[1024], word[32], file[128];
    fc_stream_config *c = &v->config;
    particle_stream *s = NULL;
    size_t remaining = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        if (remaining > 0) {
            size_t i = s->count++;
            int used = 0;
            ok = sscanf(line, "%u %f %f %f%n", &s->id[i], &s->pos[0][i], &s->pos[1][i], &s->pos[2][i], &used) == 4;
            for (int k = 0; k < v->attribute_count && ok; k++) {
                int more = 0;
                ok = sscanf(line + used, "%f%n", &s->attr[v->attribute_order[k]][i], &more) == 1;
                used += more;
            }
            remaining--;
        } else if (sscanf(line, "stream %u %u %u %u %f %f %f %f %f %f", &c->world, &c->epoch, &c->bits, &c->tier, &c->lo[0],
                          &c->lo[1], &c->lo[2], &c->hi[0], &c->hi[1], &c->hi[2]) == 10) {
        } else if (sscanf(line, "attribute %31s", word) == 1) {
            int a = attribute_index(word);
            ok = a >= 0 && sscanf(line, "attribute %*s %f %f", &c->attr_lo[a], &c->attr_hi[a]) == 2;
            if (ok) c->attributes |= 1u << a, v->attribute_order[v->attribute_count++] = a;
        } else {
            double time;
            size_t count;
            ok = v->frames < MAX_FRAMES && sscanf(line, "frame %u %lf %zu %7s %127s", &v->sequence[v->frames], &time,
                                                   &count, v->kind[v->frames], file) == 5;
            if (!ok) break;
            s = &v->snap[v->frames++];
            stream_init(s, 1, 0, c->lo, c->hi);
            stream_reserve(s, count + 1);
            remaining = count;
        }
    }
    fclose(f);
    return ok && remaining == 0 && v->frames > 0;
}

/* Decodes the vector's files in order (a resync frame also starts a late decoder) and compares
 * each frame with the text: ids exactly, coordinates within half a step of the clamped input. */
static void decode_vector(const vector *v, const char *dir)
{
    char err[256], path[4096];
    fc_frame_decoder *main_decoder = fc_frame_decoder_new(0), *late = NULL;
    const fc_stream_config *c = &v->config;
    for (int f = 0; f < v->frames; f++) {
        snprintf(path, sizeof path, "%s/%s.%03d.bin", dir, v->name, f);
        FILE *file = fopen(path, "rb");
        if (!file) continue; /* reported by encode_vector */
        uint8_t bytes[1 << 16];
        size_t size = fread(bytes, 1, sizeof bytes, file);
        fclose(file);
        bool resync = strcmp(v->kind[f], "resync") == 0;
        if (resync) late = late ? late : fc_frame_decoder_new(0);
        fc_frame_decoder *decoders[2] = {resync ? late : main_decoder, resync ? NULL : late};
        for (int k = 0; k < 2 && decoders[k]; k++) {
            fc_codec_status st = fc_frame_decode(decoders[k], bytes, size, err, sizeof err);
            CHECK(st == FC_CODEC_OK, "%s frame %d decoder %d: %s", v->name, f, k, err);
            const fc_particle_state *p = fc_frame_decoder_particles(decoders[k]);
            const particle_stream *s = &v->snap[f];
            CHECK(p->count == s->count, "%s frame %d: %zu particles, expected %zu", v->name, f, p->count, s->count);
            int off = 0;
            for (size_t i = 0; i < s->count && i < p->count; i++) {
                off += p->id[i] != s->id[i];
                for (int a = 0; a < 3; a++) {
                    double step = ((double)c->hi[a] - c->lo[a]) / ((1u << c->bits) - 1);
                    double x = s->pos[a][i] < c->lo[a] ? c->lo[a] : s->pos[a][i] > c->hi[a] ? c->hi[a] : s->pos[a][i];
                    off += fabs(c->lo[a] + p->q[a][i] * step - x) > 0.5 * step * (1 + 1e-9);
                }
            }
            CHECK(off == 0, "%s frame %d: %d ids or coordinates differ from the text", v->name, f, off);
        }
    }
    fc_frame_decoder_free(main_decoder);
    fc_frame_decoder_free(late);
}

/* ---- the vectors ----------------------------------------------------------------------- */

static void set_particle(particle_stream *s, size_t i, uint32_t id, float x, float y, float z)
{
    s->id[i] = id, s->pos[0][i] = x, s->pos[1][i] = y, s->pos[2][i] = z;
}

/* Copies the stream's particles into v's next frame. */
static void add_frame(vector *v, const particle_stream *s, const char *kind)
{
    int f = v->frames++;
    snprintf(v->kind[f], sizeof v->kind[f], "%s", kind);
    v->sequence[f] = f == 0 ? 0 : v->sequence[f - 1] + (strcmp(kind, "resync") ? v->config.tier : 0);
    particle_stream *copy = &v->snap[f];
    stream_init(copy, 1, 0, s->lo, s->hi);
    stream_reserve(copy, s->count + 1);
    copy->count = s->count;
    memcpy(copy->id, s->id, s->count * 4);
    for (int a = 0; a < 3; a++) memcpy(copy->pos[a], s->pos[a], s->count * 4);
    for (int a = 0; a < FC_ATTR_COUNT; a++) memcpy(copy->attr[a], s->attr[a], s->count * 4);
}

/* Hand-made: 6 particles in a 12-bit stream; motion, deaths, a birth between survivors, a
 * stray outside the bounds, a late joiner's key frame. */
static void make_basic(vector *v)
{
    *v = (vector){.name = "basic_12bit", .config = {.world = 1, .epoch = 1, .bits = 12, .tier = 1,
                                                    .lo = {0, 0, 0}, .hi = {2, 1, 0.5f}}};
    const float lo[3] = {0, 0, 0}, hi[3] = {2, 1, 0.5f};
    particle_stream s;
    stream_init(&s, 1, 0, lo, hi);
    stream_reserve(&s, 16);
    s.count = 6;
    for (size_t i = 0; i < 6; i++) set_particle(&s, i, (uint32_t)(2 * i + 1), 0.1f + 0.3f * i, 0.5f, 0.25f);
    add_frame(v, &s, "key");
    for (size_t i = 0; i < 6; i++) s.pos[1][i] -= 0.01f * i, s.pos[0][i] += 0.002f;
    add_frame(v, &s, "delta");
    /* ids 3 and 9 die, id 4 is born between survivors */
    set_particle(&s, 0, 1, 0.11f, 0.49f, 0.25f);
    set_particle(&s, 1, 4, 1.0f, 0.9f, 0.1f);
    set_particle(&s, 2, 5, 0.72f, 0.47f, 0.25f);
    set_particle(&s, 3, 7, 1.01f, 0.45f, 0.26f);
    set_particle(&s, 4, 11, 1.61f, 0.43f, 0.24f);
    s.count = 5;
    add_frame(v, &s, "delta");
    add_frame(v, &s, "resync");
    s.pos[0][4] = 2.5f; /* leaves the bounds: clamped to 2 */
    s.pos[2][0] = -1.0f;
    for (size_t i = 0; i < 5; i++) s.pos[1][i] -= 0.02f;
    add_frame(v, &s, "delta");
    stream_free(&s);
}

/* Generated: a stream with attributes, births and deaths every frame. */
static void make_generated(vector *v, const char *name, unsigned bits, unsigned tier, uint32_t attributes,
                           size_t count, double death, double birth, int frames, double jump, bool flat_z)
{
    const float lo[3] = {-0.5f, 0, 0}, hi[3] = {0.5f, 1.5f, flat_z ? 0.0f : 0.75f};
    particle_stream s;
    stream_init(&s, bits * 31 + tier, count, lo, hi);
    s.death_rate = death, s.birth_rate = birth;
    *v = (vector){.config = stream_config(&s, bits, tier, attributes)};
    snprintf(v->name, sizeof v->name, "%s", name);
    for (int a = 0; a < FC_ATTR_COUNT; a++)
        if (attributes >> a & 1) v->attribute_order[v->attribute_count++] = a;
    for (int f = 0; f < frames; f++) {
        add_frame(v, &s, f == 0 ? "key" : "delta");
        if (f == 2) add_frame(v, &s, "resync");
        stream_advance(&s);
        for (size_t i = 0; i < s.count; i += 7) /* some particles jump: large residuals, escapes */
            s.pos[1][i] = (float)(lo[1] + (hi[1] - lo[1]) * stream_random(&s) * jump + s.pos[1][i] * (1 - jump));
    }
    stream_free(&s);
}

static void make_vectors(vector *v, int *n)
{
    make_basic(&v[0]);
    make_generated(&v[1], "attributes_16bit", 16, 2,
                   (1u << FC_ATTR_SPEED) | (1u << FC_ATTR_DENSITY) | (1u << FC_ATTR_FLUID), 50, 0.05, 4, 6, 0.0, false);
    make_generated(&v[2], "blocks_10bit", 10, 4, 1u << FC_ATTR_TEMPERATURE, 200, 0.02, 10, 5, 1.0, false);
    make_generated(&v[3], "empty_start_14bit", 14, 1, 0, 0, 0.3, 12, 5, 0.0, false);
    make_generated(&v[4], "flat_z_12bit", 12, 1, 1u << FC_ATTR_SPEED, 150, 0.03, 6, 5, 0.0, true);
    *n = 5;
}

static void free_vector(vector *v)
{
    for (int f = 0; f < v->frames; f++) stream_free(&v->snap[f]);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write") == 0) {
        vector v[5];
        int n;
        make_vectors(v, &n);
        for (int k = 0; k < n; k++) encode_vector(&v[k], argv[2], true), free_vector(&v[k]);
        return check_summary("test_codec_vectors --write");
    }
    if (argc != 2) return fprintf(stderr, "usage: test_codec_vectors DIR | --write DIR\n"), 2;
    DIR *d = opendir(argv[1]);
    CHECK(d != NULL, "cannot open %s", argv[1]);
    int vectors = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".txt") != 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        static vector v;
        bool ok = read_vector(path, &v);
        CHECK(ok, "%s: unreadable vector", path);
        if (!ok) continue;
        snprintf(v.name, sizeof v.name, "%.*s", (int)(len - 4), e->d_name);
        encode_vector(&v, argv[1], false);
        decode_vector(&v, argv[1]);
        free_vector(&v);
        vectors++;
    }
    if (d) closedir(d);
    CHECK(vectors >= 4, "%d vectors found in %s", vectors, argv[1]);
    return check_summary("test_codec_vectors");
}
