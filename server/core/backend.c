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

/* The CPU's model name from /proc/cpuinfo, or "CPU". */
void fc_backend_cpu_name(char *out, size_t len)
{
    snprintf(out, len, "CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        const char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon) continue;
        colon++;
        while (*colon == ' ' || *colon == '\t') colon++;
        snprintf(out, len, "%.*s", (int)strcspn(colon, "\n"), colon);
        break;
    }
    fclose(f);
}

int fc_backend_resolve(fc_backend asked, fc_backend_choice *out)
{
    char gpu[256] = "", reason[512] = "";
    out->kind = FC_BACKEND_CPU;
    out->asked = asked;
    fc_backend_cpu_name(out->device, sizeof out->device);
    if (asked == FC_BACKEND_CPU) {
        snprintf(out->why, sizeof out->why, "the CPU, as asked");
        return 0;
    }
    const int usable = cuda_usable(gpu, sizeof gpu, reason, sizeof reason);
#ifdef FLUIDCAST_CUDA_HOST
    if (usable && asked == FC_BACKEND_AUTO) { /* the shim is no GPU: auto keeps the CPU's own solvers */
        snprintf(out->why, sizeof out->why, "the CPU (auto: this build's CUDA part is the host shim, %s; "
                 "--backend cuda runs the kernels through it)", gpu);
        return 0;
    }
#endif
    if (usable) {
        out->kind = FC_BACKEND_CUDA;
        snprintf(out->device, sizeof out->device, "%s", gpu);
        snprintf(out->why, sizeof out->why, "CUDA device %s (%s)", gpu,
                 asked == FC_BACKEND_CUDA ? "as asked" : "auto: a usable GPU");
        return 0;
    }
    if (asked == FC_BACKEND_CUDA) {
        snprintf(out->why, sizeof out->why, "%s", reason);
        return -1;
    }
    snprintf(out->why, sizeof out->why, "the CPU (auto: %s)", reason);
    return 0;
}
