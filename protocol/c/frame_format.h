/* Binary particle frame layout of PROTOCOL.md section 4: constants, header offsets, status codes. */
#ifndef FC_FRAME_FORMAT_H
#define FC_FRAME_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum {
    FC_FRAME_VERSION = 1,
    FC_FRAME_HEADER_BYTES = 80,
    FC_FRAME_SECTION_ENTRY_BYTES = 16,
    FC_FRAME_MAX_SECTIONS = 16,
    FC_FRAME_MIN_BITS = 10,
    FC_FRAME_MAX_BITS = 16,
    FC_FRAME_MAX_TIER = 8,
    FC_FRAME_KEY = 0,
    FC_FRAME_DELTA = 1,
};

#define FC_FRAME_MAGIC "FCPF"
#define FC_FRAME_DEFAULT_MAX_PARTICLES (1u << 24)

/* Header field offsets (PROTOCOL.md 4.5). */
enum {
    FC_HDR_MAGIC = 0,
    FC_HDR_VERSION = 4,
    FC_HDR_KIND = 5,
    FC_HDR_BITS = 6,
    FC_HDR_TIER = 7,
    FC_HDR_WORLD = 8,
    FC_HDR_EPOCH = 12,
    FC_HDR_SEQUENCE = 16,
    FC_HDR_REFERENCE = 20,
    FC_HDR_TIME = 24,
    FC_HDR_COUNT = 32,
    FC_HDR_REF_COUNT = 36,
    FC_HDR_BORN = 40,
    FC_HDR_DIED = 44,
    FC_HDR_LO = 48,
    FC_HDR_HI = 60,
    FC_HDR_CHECKSUM = 72,
    FC_HDR_SECTIONS = 76,
    FC_HDR_FLAGS = 78,
};

/* Section types (PROTOCOL.md 4.6); attribute sections are FC_SECTION_ATTRIBUTE + fc_attribute. */
enum {
    FC_SECTION_IDS = 1,
    FC_SECTION_POSITIONS = 2,
    FC_SECTION_VELOCITIES = 3,
    FC_SECTION_ATTRIBUTE = 16,
};

/* Optional 8-bit per-particle attributes, in section order. */
typedef enum {
    FC_ATTR_SPEED,
    FC_ATTR_DENSITY,
    FC_ATTR_TEMPERATURE,
    FC_ATTR_FLUID,
#ifdef FC_EXTRA_ATTRIBUTE
    FC_ATTR_EXTRA, /* a test build's fifth attribute, named FC_EXTRA_ATTRIBUTE (tests/CMakeLists.txt) */
#endif
    FC_ATTR_COUNT
} fc_attribute;

extern const char *const fc_attribute_names[FC_ATTR_COUNT]; /* "speed", "density", ... */

/* Result of encoding or decoding a frame. */
typedef enum {
    FC_CODEC_OK = 0,
    FC_CODEC_NEED_KEY,  /* a delta frame that does not apply to the decoder's state */
    FC_CODEC_CORRUPT,   /* malformed frame (PROTOCOL.md 4.7) */
    FC_CODEC_BAD_INPUT, /* encoder: invalid snapshot or configuration */
    FC_CODEC_NO_MEMORY,
} fc_codec_status;

const char *fc_codec_status_name(fc_codec_status status);

/* A growable byte buffer that frames are written into. */
typedef struct {
    uint8_t *data;
    size_t size, capacity;
} fc_bytes;

int fc_bytes_reserve(fc_bytes *b, size_t capacity);
void fc_bytes_free(fc_bytes *b);

/* Little-endian access, byte by byte, so frames are the same on any host. */
static inline uint32_t fc_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint16_t fc_get_u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline void fc_put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}
static inline void fc_put_u16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static inline float fc_get_f32(const uint8_t *p)
{
    uint32_t u = fc_get_u32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline void fc_put_f32(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    fc_put_u32(p, u);
}
static inline double fc_get_f64(const uint8_t *p)
{
    uint64_t u = (uint64_t)fc_get_u32(p) | (uint64_t)fc_get_u32(p + 4) << 32;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
static inline void fc_put_f64(uint8_t *p, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    fc_put_u32(p, (uint32_t)u);
    fc_put_u32(p + 4, (uint32_t)(u >> 32));
}

/* Zigzag: 0, -1, 1, -2 ... as 0, 1, 2, 3 ... */
static inline uint32_t fc_zigzag(int32_t r) { return ((uint32_t)r << 1) ^ (uint32_t)(r >> 31); }
static inline int32_t fc_unzigzag(uint32_t z) { return (int32_t)(z >> 1) ^ -(int32_t)(z & 1); }

/* Host and device (a CUDA source quantizes a frame's snapshot on the GPU, server/cuda/device_store.cu). */
#ifdef __CUDACC__
#define FC_FRAME_HD __host__ __device__
#else
#define FC_FRAME_HD
#endif

/* Quantization of PROTOCOL.md 4.2: q = clamp(floor((x - lo) * scale + 0.5), 0, max_q) in f64,
 * scale = max_q / (hi - lo); NaN gives 0. Written without branches so that loops vectorize. Each
 * operation rounds on its own (on the device the _rn intrinsics forbid FMA contraction), so the GPU
 * gives the CPU's bits. */
static inline FC_FRAME_HD uint32_t fc_quantize(float x, float lo, double scale, uint32_t max_q)
{
#ifdef __CUDA_ARCH__
    double t = __dadd_rn(__dmul_rn(__dsub_rn((double)x, (double)lo), scale), 0.5);
#else
    double t = ((double)x - (double)lo) * scale + 0.5;
#endif
    t = t >= 0.0 ? t : 0.0;
    t = t <= (double)max_q ? t : (double)max_q;
    return (uint32_t)(int32_t)t; /* t >= 0: truncation is floor */
}

/* The scale of fc_quantize for the range [lo, hi] and max_q (0 for a flat range: everything is 0). */
static inline FC_FRAME_HD double fc_quantize_scale(float lo, float hi, uint32_t max_q)
{
    return hi > lo ? (double)max_q / ((double)hi - lo) : 0.0;
}

/* One particle's term of the checksum (PROTOCOL.md 4.8). */
static inline uint32_t fc_checksum_term(uint32_t id, uint32_t qx, uint32_t qy, uint32_t qz)
{
    return (id * 0x9E3779B1u) ^ (qx * 0x85EBCA77u) ^ (qy * 0xC2B2AE3Du) ^ (qz * 0x27D4EB2Fu);
}

#endif
