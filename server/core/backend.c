/* The backend choice: parsing, and resolving auto/cuda against the machine's CUDA devices. */
#include "core/backend.h"

#include <stdio.h>
#include <string.h>

#ifdef FLUIDCAST_HAVE_CUDA
#include "cuda/device.h"
#endif

static const char *const NAMES[] = {"auto", "cpu", "cuda"};

int fc_backend_parse(const char *name, fc_backend *out, char *err, size_t errlen)
{
    for (int b = 0; b < 3; b++)
        if (name && strcmp(name, NAMES[b]) == 0) {
            *out = (fc_backend)b;
            return 0;
        }
    snprintf(err, errlen, "expected one of auto, cpu, cuda, got '%s'", name ? name : "");
    return -1;
}

const char *fc_backend_name(fc_backend b)
{
    return (unsigned)b < 3 ? NAMES[b] : "?";
}

/* Whether a usable CUDA device exists: 1 with its name, or 0 with the reason. */
static int cuda_usable(char *device, size_t devlen, char *why, size_t whylen)
{
#ifdef FLUIDCAST_HAVE_CUDA
    return fc_cuda_probe(device, devlen, why, whylen);
#else
    (void)device, (void)devlen;
    snprintf(why, whylen, "this build has no CUDA part (configured without nvcc, or with FLUIDCAST_CUDA=OFF)");
    return 0;
#endif
}

int fc_backend_resolve(fc_backend asked, fc_backend *chosen, char *device, size_t devlen, char *why, size_t whylen)
{
    char gpu[256] = "", reason[512] = "";
    *chosen = FC_BACKEND_CPU;
    snprintf(device, devlen, "CPU");
    if (asked == FC_BACKEND_CPU) {
        snprintf(why, whylen, "the CPU, as asked");
        return 0;
    }
    const int usable = cuda_usable(gpu, sizeof gpu, reason, sizeof reason);
    /* the solvers do not run on the GPU yet (issue 15): a device alone does not make a CUDA world */
    if (usable) snprintf(reason, sizeof reason, "CUDA device %s found, but no solver runs on the GPU yet", gpu);
    if (asked == FC_BACKEND_CUDA) {
        snprintf(why, whylen, "%s", reason);
        return -1;
    }
    snprintf(why, whylen, "the CPU (auto: %s)", reason);
    return 0;
}
