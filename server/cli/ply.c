/* Particles as binary little-endian PLY frames (id and every field of the registry), for files and streams. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK_RECORDS = 256 }; /* records encoded per fwrite */

/* The PLY property of column c: "x", "vx", "density", "fluid". */
static void property_name(int c, char *out, size_t outlen)
{
    const fc_field_desc *f = fc_column_field(c);
    if (f->components == 3) snprintf(out, outlen, "%s%c", f->ply, "xyz"[c - f->column]);
    else snprintf(out, outlen, "%s", f->ply);
}

size_t fc_ply_record_bytes(void)
{
    size_t bytes = sizeof(uint32_t);
    for (int c = 0; c < FC_COLUMN_COUNT; c++) bytes += fc_column_size(c);
    return bytes;
}

size_t fc_ply_header(char *buf, size_t buflen, size_t count, double time)
{
    char props[64 * FC_COLUMN_COUNT], name[64];
    size_t used = 0;
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        property_name(c, name, sizeof name);
        used += (size_t)snprintf(props + used, sizeof props - used, "property %s %s\n",
                                 fc_column_size(c) == 1 ? "uchar" : "float", name);
    }
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
        for (int c = 0; c < FC_COLUMN_COUNT; c++) {
            if (fc_column_size(c) == 1) *out++ = p->u8[c][i];
            else out = put_f32_le(out, p->field[c][i]);
        }
    }
}

int fc_ply_write(FILE *f, const fc_particles *p, double time)
{
    char header[1024];
    size_t len = fc_ply_header(header, sizeof header, p->count, time);
    if (len >= sizeof header || fwrite(header, 1, len, f) != len) return -1;
    const size_t record = fc_ply_record_bytes();
    uint8_t chunk[CHUNK_RECORDS * (sizeof(uint32_t) + sizeof(fc_particle))]; /* at least a record each */
    for (size_t first = 0; first < p->count; first += CHUNK_RECORDS) {
        size_t n = p->count - first < CHUNK_RECORDS ? p->count - first : CHUNK_RECORDS;
        fc_ply_encode(chunk, p, first, n);
        if (fwrite(chunk, record, n, f) != n) return -1;
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
