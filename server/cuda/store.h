/* The CUDA store (core/store.h): a world's particles on a CUDA device between steps, and what a
 * method's device steps ask of it. */
#ifndef FC_CUDA_STORE_H
#define FC_CUDA_STORE_H

#include "core/store.h"
#include "cuda/device_store.h"

/* The device store of w's CUDA store kind; NULL when w has none, or a device call failed (every
 * step then fails). A method's device data (the SPH family's, cuda/sph_device.h) works on its
 * particles. */
fc_device_store *fc_cuda_store_device(const fc_world *w);

/* A method's device call ran in w's store: the host arrays are behind now; failed (with what and
 * the device's words in why, reported once) marks the store failed. */
void fc_cuda_store_stepped(fc_world *w, int failed, const char *what, const char *why);

/* The density sums of the motion statistics just computed in the store (fc_store_kind.motion_stats
 * adds them up in the same pass), handed on once: 1 with *out filled, 0 when there are none. */
int fc_cuda_store_take_sums(const fc_world *w, fc_cuda_stats *out);

/* Reports a device call that failed for world w ("fluidcast: world 'NAME' on the GPU: what: why"). */
void fc_cuda_store_report(const fc_world *w, const char *what, const char *why);

#endif
