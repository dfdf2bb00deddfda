/* Particles as binary little-endian PLY frames (id, position, velocity, density), for files and streams. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK_RECORDS = 256 }; /* records encoded per fwrite: 8 KiB on the stack */

/* The float fields of a record, in file order after the id. */
static const int record_fields[] = {FC_PX, FC_PY, FC_PZ, FC_VX, FC_VY, FC_VZ, FC_DENSITY};
static const char *const record_names[] = {"x", "y", "z", "vx", "vy", "vz", "density"};
enum { RECORD_FLOATS = sizeof record_fields / sizeof record_fields[0] };
_Static_assert(4 + 4 * RECORD_FLOATS == FC_PLY_RECORD_BYTES, "PLY record size");

size_t fc_ply_header(char *buf, size_t buflen, size_t count, double time)
{
    char props[256];
    size_t used = 0;
    for (size_t i = 0; i < RECORD_FLOATS; i++)
        used += (size_t)snprintf(props + used, sizeof props - used, "property float %s\n", record_names[i]);
    int n = snprintf(buf, buflen,
                     "ply\n"
                     "format binary_little_endian 1.0\n"
                     "comment time %.9g\n"
                     "element vertex %zu\n"
                     "property uint id\n"
                     "%s"
                     "end_header\n",
                     time, count, props);
    return n < 0 ? 0 : (size_t)n;
}

/* Byte by byte, so the file is little-endian on any host. */
static uint8_t *put_u32_le(uint8_t *out, uint32_t v)
{
    out[0] = (uint8_t)v;
    out[1] = (uint8_t)(v >> 8);
    out[2] = (uint8_t)(v >> 16);
    out[3] = (uint8_t)(v >> 24);
    return out + 4;
}

static uint8_t *put_f32_le(uint8_t *out, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return put_u32_le(out, bits);
}

void fc_ply_encode(uint8_t *out, const fc_particles *p, size_t first, size_t count)
{
    for (size_t i = first; i < first + count; i++) {
        out = put_u32_le(out, p->id[i]);
        for (size_t f = 0; f < RECORD_FLOATS; f++) out = put_f32_le(out, p->field[record_fields[f]][i]);
    }
}

int fc_ply_write(FILE *f, const fc_particles *p, double time)
{
    char header[1024];
    size_t len = fc_ply_header(header, sizeof header, p->count, time);
    if (len >= sizeof header || fwrite(header, 1, len, f) != len) return -1;
    uint8_t chunk[CHUNK_RECORDS * FC_PLY_RECORD_BYTES];
    for (size_t first = 0; first < p->count; first += CHUNK_RECORDS) {
        size_t n = p->count - first < CHUNK_RECORDS ? p->count - first : CHUNK_RECORDS;
        fc_ply_encode(chunk, p, first, n);
        if (fwrite(chunk, FC_PLY_RECORD_BYTES, n, f) != n) return -1;
    }
    return 0;
}

int fc_ply_write_file(const char *path, const fc_particles *p, double time, char *err, size_t errlen)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 5);
    if (!tmp) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".tmp", 5);
    FILE *f = fopen(tmp, "wb");
    int failed = !f || fc_ply_write(f, p, time) != 0;
    int saved = errno;
    if (f && fclose(f) != 0 && !failed) failed = 1, saved = errno;
    if (!failed && rename(tmp, path) != 0) failed = 1, saved = errno;
    if (failed) {
        snprintf(err, errlen, "%s: %s", f ? path : tmp, strerror(saved));
        remove(tmp);
    }
    free(tmp);
    return failed ? -1 : 0;
}
