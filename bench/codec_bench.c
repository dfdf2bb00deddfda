/* Frame codec benchmark: bytes per particle and encode/decode ns per particle on a recorded dam break, and a comparison of entropy coders. */
#define _POSIX_C_SOURCE 200809L
#include "frame_decoder.h"
#include "frame_encoder.h"
#include "rice.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

typedef struct {
    size_t count;
    double time;
    uint32_t *id;
    float *pos[3], *speed, *density;
} recorded_frame;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static const recorded_frame *sort_frame;
static int by_id(const void *a, const void *b)
{
    uint32_t x = sort_frame->id[*(const uint32_t *)a], y = sort_frame->id[*(const uint32_t *)b];
    return (x > y) - (x < y);
}

/* Reads a PLY frame of the headless runner, in id order: id, x, y, z, vx, vy, vz and density found by
 * name among the header's properties (the registry exports more, fluid and temperature among them). */
static int load_ply(const char *path, recorded_frame *f)
{
    static const char *const wanted[8] = {"id", "x", "y", "z", "vx", "vy", "vz", "density"};
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    char line[256], type[32], name[64];
    size_t count = 0, stride = 0, offset[8] = {0};
    int found = 0;
    f->time = 0;
    while (fgets(line, sizeof line, file) && strcmp(line, "end_header\n") != 0) {
        sscanf(line, "element vertex %zu", &count);
        sscanf(line, "comment time %lf", &f->time);
        if (sscanf(line, "property %31s %63s", type, name) != 2) continue;
        for (int k = 0; k < 8; k++)
            if (!strcmp(name, wanted[k])) offset[k] = stride, found |= 1 << k;
        stride += !strcmp(type, "uchar") || !strcmp(type, "char") ? 1 : !strcmp(type, "double") ? 8 : 4;
    }
    if (found != 255 || !stride) return fclose(file), -1;
    uint8_t *raw = malloc(count * stride);
    if (fread(raw, stride, count, file) != count) return fclose(file), free(raw), -1;
    fclose(file);
    f->count = count;
    f->id = malloc(count * 4);
    for (int a = 0; a < 3; a++) f->pos[a] = malloc(count * 4);
    f->speed = malloc(count * 4), f->density = malloc(count * 4);
    uint32_t *order = malloc(count * 4);
    for (size_t i = 0; i < count; i++) {
        memcpy(&f->id[i], raw + stride * i + offset[0], 4);
        order[i] = (uint32_t)i;
    }
    sort_frame = f;
    qsort(order, count, 4, by_id);
    uint32_t *ids = malloc(count * 4);
    for (size_t k = 0; k < count; k++) {
        const uint8_t *r = raw + stride * order[k];
        float v[8];
        for (int c = 1; c < 8; c++) memcpy(&v[c], r + offset[c], 4);
        ids[k] = f->id[order[k]];
        for (int a = 0; a < 3; a++) f->pos[a][k] = v[1 + a];
        f->speed[k] = sqrtf(v[4] * v[4] + v[5] * v[5] + v[6] * v[6]);
        f->density[k] = v[7];
    }
    free(f->id);
    f->id = ids;
    free(order), free(raw);
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static size_t load_frames(const char *dir, size_t max_frames, recorded_frame **out)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".ply") == 0) {
            names = realloc(names, (n + 1) * sizeof *names);
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    if (n > max_frames) n = max_frames;
    recorded_frame *frames = calloc(n, sizeof *frames);
    char path[4096];
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (load_ply(path, &frames[i])) fprintf(stderr, "codec_bench: cannot read %s\n", path), exit(1);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    *out = frames;
    return n;
}

static fc_snapshot snapshot_of(const recorded_frame *f, uint32_t sequence)
{
    fc_snapshot s = {.sequence = sequence, .time = f->time, .count = f->count, .id = f->id};
    for (int a = 0; a < 3; a++) s.position[a] = f->pos[a];
    s.attribute[FC_ATTR_SPEED] = f->speed;
    s.attribute[FC_ATTR_DENSITY] = f->density;
    return s;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_double);
    return n ? v[n / 2] : 0;
}

typedef struct {
    float lo[3], hi[3];
    const char *out_dir; /* where the 16-bit stream is written for the JS benchmark */
} bench_options;

/* Encodes and decodes the whole sequence as one stream; prints one result line. */
static void run_stream(const recorded_frame *frames, size_t n, unsigned bits, uint32_t attributes,
                       const bench_options *o, const char *label)
{
    char err[256];
    fc_stream_config c = {.world = 1, .epoch = 1, .bits = bits, .tier = 1, .attributes = attributes,
                          .attr_lo = {0, 800}, .attr_hi = {5, 1200}};
    for (int a = 0; a < 3; a++) c.lo[a] = o->lo[a], c.hi[a] = o->hi[a];
    fc_frame_encoder *e = fc_frame_encoder_new(&c, err, sizeof err);
    fc_frame_decoder *d = fc_frame_decoder_new(0);
    if (!e || !d) fprintf(stderr, "codec_bench: %s\n", err), exit(1);
    fc_bytes *encoded = calloc(n, sizeof *encoded), key = {0}, work = {0};
    double *encode_ns = calloc(n, sizeof(double)), *decode_ns = calloc(n, sizeof(double));
    double delta_bytes = 0, delta_particles = 0, key_bytes = 0, key_particles = 0, worst_delta = 0;
    for (size_t f = 0; f < n; f++) {
        fc_snapshot s = snapshot_of(&frames[f], (uint32_t)f);
        double t0 = now_ns();
        /* into one reused buffer, as the server does; the copy kept for decoding is not timed */
        if (fc_frame_encoder_push(e, &s, &work, err, sizeof err)) fprintf(stderr, "%s\n", err), exit(1);
        encode_ns[f] = (now_ns() - t0) / s.count;
        fc_bytes_reserve(&encoded[f], work.size);
        memcpy(encoded[f].data, work.data, work.size);
        encoded[f].size = work.size;
        if (f > 0) {
            delta_bytes += encoded[f].size, delta_particles += s.count;
            double per = encoded[f].size / (double)s.count;
            if (per > worst_delta) worst_delta = per;
        }
        if (f % 100 == 0) { /* key frames a joining client would get, through the sequence */
            fc_frame_encoder_key(e, &key);
            key_bytes += key.size, key_particles += s.count;
        }
    }
    for (size_t f = 0; f < n; f++) {
        double t0 = now_ns();
        if (fc_frame_decode(d, encoded[f].data, encoded[f].size, err, sizeof err))
            fprintf(stderr, "decode frame %zu: %s\n", f, err), exit(1);
        decode_ns[f] = (now_ns() - t0) / frames[f].count;
    }
    printf("| %s | %u | %.3f | %.3f | %.3f | %.2f | %.2f |\n", label, bits, key_bytes / key_particles,
           delta_bytes / delta_particles, worst_delta, median(encode_ns + 1, n - 1), median(decode_ns + 1, n - 1));
    if (o->out_dir && bits == 16 && attributes == 0) {
        char path[4096];
        for (size_t f = 0; f < n; f++) {
            snprintf(path, sizeof path, "%s/frame_%06zu.bin", o->out_dir, f);
            FILE *file = fopen(path, "wb");
            if (!file || fwrite(encoded[f].data, 1, encoded[f].size, file) != encoded[f].size)
                fprintf(stderr, "cannot write %s\n", path), exit(1);
            fclose(file);
        }
    }
    for (size_t f = 0; f < n; f++) fc_bytes_free(&encoded[f]);
    free(encoded), free(encode_ns), free(decode_ns);
    fc_bytes_free(&key), fc_bytes_free(&work);
    fc_frame_encoder_free(e);
    fc_frame_decoder_free(d);
}

/* ---- entropy coder comparison on the position residuals ---------------------------------- */

static double order0_entropy_bits(const uint32_t *z, size_t n)
{
    /* residuals beyond 2^20 are rare: count them in one overflow bucket at 32 bits each */
    enum { LIMIT = 1 << 20 };
    uint32_t *histogram = calloc(LIMIT + 1, 4);
    for (size_t i = 0; i < n; i++) histogram[z[i] < LIMIT ? z[i] : LIMIT]++;
    double bits = 0;
    for (size_t v = 0; v <= LIMIT; v++)
        if (histogram[v]) bits -= histogram[v] * log2((double)histogram[v] / n);
    bits += histogram[LIMIT] * 32.0;
    free(histogram);
    return bits;
}

static double bitpack_bits(const uint32_t *z, size_t n)
{
    double bits = 0;
    for (size_t start = 0; start < n; start += 64) {
        size_t count = n - start < 64 ? n - start : 64;
        uint32_t all = 0;
        for (size_t i = 0; i < count; i++) all |= z[start + i];
        bits += 8 + count * (all ? 32 - __builtin_clz(all) : 0);
    }
    return bits;
}

/* Zigzag values as byte planes: the low bytes of all values, then the next bytes... */
static size_t byte_planes(const uint32_t *z, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 3; b++) out[b * n + i] = (uint8_t)(z[i] >> (8 * b));
    return 3 * n;
}

enum { CODERS = 7 };
static const char *const coder_names[CODERS] = {
    "order-0 entropy (bound)", "Rice, k per 64 (ours)", "bit packing, width per 64",
    "byte planes + zstd -1", "byte planes + zstd -9", "byte planes + libdeflate 1", "byte planes + libdeflate 9"};

static void compare_coders(const recorded_frame *frames, size_t n, unsigned bits, const bench_options *o)
{
    double total_bits[CODERS] = {0}, total_ns[CODERS] = {0}, particles = 0;
    int available[CODERS] = {1, 1, 1, 0, 0, 0, 0};
#ifdef HAVE_ZSTD
    available[3] = available[4] = 1;
#endif
#ifdef HAVE_LIBDEFLATE
    available[5] = available[6] = 1;
    struct libdeflate_compressor *deflate1 = libdeflate_alloc_compressor(1), *deflate9 = libdeflate_alloc_compressor(9);
#endif
    uint32_t max_q = (1u << bits) - 1;
    size_t most = 0;
    for (size_t f = 0; f < n; f++) most = frames[f].count > most ? frames[f].count : most;
    uint32_t *z = malloc(most * 4);
    int32_t *q[3][3]; /* frame f-2, f-1, f per axis, by id; the recording keeps all particles */
    for (int t = 0; t < 3; t++)
        for (int a = 0; a < 3; a++) q[t][a] = malloc(most * 4);
    uint8_t *planes = malloc(3 * most), *packed = malloc(fc_rice_bound(most) + 8 * most + 1024);
    for (size_t f = 2; f < n; f += 5) {
        if (frames[f].count != frames[f - 2].count || frames[f].count != frames[f - 1].count) continue;
        size_t count = frames[f].count;
        for (int t = 0; t < 3; t++)
            for (int a = 0; a < 3; a++) {
                double scale = max_q / ((double)o->hi[a] - o->lo[a]);
                for (size_t i = 0; i < count; i++) q[t][a][i] = (int32_t)fc_quantize(frames[f - 2 + t].pos[a][i], o->lo[a], scale, max_q);
            }
        particles += count;
        for (int a = 0; a < 3; a++) {
            for (size_t i = 0; i < count; i++) z[i] = fc_zigzag(q[2][a][i] - 2 * q[1][a][i] + q[0][a][i]);
            double t0 = now_ns();
            total_bits[0] += order0_entropy_bits(z, count);
            t0 = now_ns();
            total_bits[1] += 8.0 * fc_rice_encode(z, count, packed);
            total_ns[1] += now_ns() - t0;
            t0 = now_ns();
            total_bits[2] += bitpack_bits(z, count);
            total_ns[2] += now_ns() - t0;
            size_t plane_bytes = byte_planes(z, count, planes);
            (void)plane_bytes;
#ifdef HAVE_ZSTD
            for (int level = 0; level < 2; level++) {
                t0 = now_ns();
                size_t size = ZSTD_compress(packed, fc_rice_bound(most) + 8 * most, planes, plane_bytes, level ? 9 : 1);
                total_ns[3 + level] += now_ns() - t0 + 0;
                total_bits[3 + level] += 8.0 * size;
            }
#endif
#ifdef HAVE_LIBDEFLATE
            for (int level = 0; level < 2; level++) {
                t0 = now_ns();
                size_t size = libdeflate_deflate_compress(level ? deflate9 : deflate1, planes, plane_bytes, packed,
                                                          fc_rice_bound(most) + 8 * most);
                total_ns[5 + level] += now_ns() - t0;
                total_bits[5 + level] += 8.0 * size;
            }
#endif
        }
    }
    for (int k = 0; k < CODERS; k++) {
        if (!available[k]) {
            printf("| %s | %u | (library not installed) | |\n", coder_names[k], bits);
            continue;
        }
        if (k == 0) printf("| %s | %u | %.3f | - |\n", coder_names[k], bits, total_bits[k] / 8 / particles);
        else printf("| %s | %u | %.3f | %.2f |\n", coder_names[k], bits, total_bits[k] / 8 / particles, total_ns[k] / particles);
    }
#ifdef HAVE_LIBDEFLATE
    libdeflate_free_compressor(deflate1), libdeflate_free_compressor(deflate9);
#endif
    free(z), free(planes), free(packed);
    for (int t = 0; t < 3; t++)
        for (int a = 0; a < 3; a++) free(q[t][a]);
}

int main(int argc, char **argv)
{
    if (argc < 8) {
        fprintf(stderr, "usage: codec_bench DIR LOX LOY LOZ HIX HIY HIZ [OUT_DIR]\n"
                        "  DIR holds the PLY frames of bench/record_dam_break.sh; OUT_DIR receives the\n"
                        "  16-bit stream as frame_NNNNNN.bin for bench/decode_bench.mjs\n");
        return 2;
    }
    bench_options o = {.out_dir = argc > 8 ? argv[8] : NULL};
    for (int a = 0; a < 3; a++) o.lo[a] = strtof(argv[2 + a], NULL), o.hi[a] = strtof(argv[5 + a], NULL);
    recorded_frame *frames;
    size_t n = load_frames(argv[1], 100000, &frames);
    if (n < 3) return fprintf(stderr, "codec_bench: fewer than 3 frames in %s\n", argv[1]), 1;
    printf("frames %zu, particles %zu\n\n", n, frames[0].count);
    printf("| stream | bits | key B/particle | delta B/particle (mean) | delta B/particle (worst frame) | encode ns/particle (median) | decode ns/particle (median) |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (unsigned bits = 16; bits >= 12; bits -= 4) {
        run_stream(frames, n, bits, 0, &o, "positions");
        run_stream(frames, n, bits, 1u << FC_ATTR_SPEED, &o, "positions + speed");
    }
    printf("\n| coder of the position residuals (every 5th frame) | bits | B/particle | ns/particle |\n|---|---|---|---|\n");
    for (unsigned bits = 16; bits >= 12; bits -= 4) compare_coders(frames, n, bits, &o);
    return 0;
}
