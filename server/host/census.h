/* The census product: each fluid's particle count, centre of mass and bounding box (PROTOCOL.md 6),
 * made on a worker thread (products.h). */
#ifndef FC_CENSUS_H
#define FC_CENSUS_H

#include "host/products.h"

enum {
    FC_CENSUS_HEADER_BYTES = 32, /* magic, version, dimensions, fluids, world, epoch, sequence, particles, time */
    FC_CENSUS_FLUID_BYTES = 40,  /* count, centre[3], lo[3], hi[3] */
    FC_CENSUS_VERSION = 1
};

size_t fc_census_make(const fc_product_input *in, uint8_t *out, char *err, size_t errlen);

#endif
