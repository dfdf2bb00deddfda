/* The census product (PROTOCOL.md 6): each fluid's count, centre of mass (equal masses within a
 * fluid) and bounds, from a product input. */
#include "host/census.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

#include "core/fluids.h"
#include "frame_format.h"

typedef struct fluid_tally {
    uint32_t count;
    double sum[3];
    float lo[3], hi[3];
} fluid_tally;

size_t fc_census_make(const fc_product_input *in, uint8_t *out, char *err, size_t errlen)
{
    const size_t bytes = FC_CENSUS_HEADER_BYTES + (size_t)FC_CENSUS_FLUID_BYTES * (size_t)in->fluid_count;
    if (in->fluid_count < 1 || in->fluid_count > FC_MAX_FLUIDS || bytes > FC_PRODUCT_MAX_BYTES) {
        snprintf(err, errlen, "census: %d fluids (1 to %d)", in->fluid_count, FC_MAX_FLUIDS);
        return 0;
    }
    fluid_tally tally[FC_MAX_FLUIDS];
    for (int f = 0; f < in->fluid_count; f++) {
        memset(&tally[f], 0, sizeof tally[f]);
        for (int a = 0; a < 3; a++) tally[f].lo[a] = FLT_MAX, tally[f].hi[a] = -FLT_MAX;
    }
    for (size_t i = 0; i < in->count; i++) {
        if (in->fluid[i] >= in->fluid_count) continue;
        fluid_tally *t = &tally[in->fluid[i]];
        const float p[3] = {in->x[i], in->y[i], in->z[i]};
        t->count++;
        for (int a = 0; a < 3; a++) {
            t->sum[a] += p[a];
            if (p[a] < t->lo[a]) t->lo[a] = p[a];
            if (p[a] > t->hi[a]) t->hi[a] = p[a];
        }
    }
    memcpy(out, "FCCS", 4);
    out[4] = FC_CENSUS_VERSION;
    out[5] = (uint8_t)in->dimensions;
    fc_put_u16(out + 6, (uint16_t)in->fluid_count);
    fc_put_u32(out + 8, in->world);
    fc_put_u32(out + 12, in->epoch);
    fc_put_u32(out + 16, in->sequence);
    fc_put_u32(out + 20, (uint32_t)in->count);
    fc_put_f64(out + 24, in->time);
    for (int f = 0; f < in->fluid_count; f++) {
        uint8_t *o = out + FC_CENSUS_HEADER_BYTES + FC_CENSUS_FLUID_BYTES * f;
        const fluid_tally *t = &tally[f];
        fc_put_u32(o, t->count);
        for (int a = 0; a < 3; a++) {
            fc_put_f32(o + 4 + 4 * a, t->count ? (float)(t->sum[a] / t->count) : 0.0f);
            fc_put_f32(o + 16 + 4 * a, t->count ? t->lo[a] : 0.0f);
            fc_put_f32(o + 28 + 4 * a, t->count ? t->hi[a] : 0.0f);
        }
    }
    return bytes;
}
