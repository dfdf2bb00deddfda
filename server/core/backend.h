/* Where a world steps: the backend choice (auto, cpu, cuda) and what decides it. */
#ifndef FC_BACKEND_H
#define FC_BACKEND_H

#include <stddef.h>

typedef enum fc_backend {
    FC_BACKEND_AUTO, /* CUDA when a usable device exists and the solvers run there, else the CPU */
    FC_BACKEND_CPU,
    FC_BACKEND_CUDA,
} fc_backend;

/* What a choice came to: FC_BACKEND_CPU or FC_BACKEND_CUDA, the device's name (the CPU's model, or
 * the GPU's), and a sentence saying why (for the startup line and the logs). */
typedef struct fc_backend_choice {
    fc_backend kind;
    fc_backend asked; /* what was asked for: auto gives way to the CPU for a solver without device steps */
    char device[256];
    char why[600];
} fc_backend_choice;

/* "auto", "cpu" or "cuda"; anything else is refused with "expected one of auto, cpu, cuda, got 'X'". */
int fc_backend_parse(const char *name, fc_backend *out, char *err, size_t errlen);

const char *fc_backend_name(fc_backend b);

/* The CPU's model name from /proc/cpuinfo, or "CPU". */
void fc_backend_cpu_name(char *out, size_t len);

/* What the backend `asked` gives on this machine and build. Returns 0, or -1 when cuda was asked
 * for and cannot be used: out->why then names the reason (a build without CUDA, no driver, no
 * device) and out->kind is FC_BACKEND_CPU. auto takes a usable GPU, but not the cuda-host build's shim
 * device (the CPU running the kernel sources as loops, for tests): --backend cuda takes that. */
int fc_backend_resolve(fc_backend asked, fc_backend_choice *out);

#endif
