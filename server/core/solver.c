/* The registry of solvers. */
#include "core/solver.h"

#include <string.h>

const fc_solver *const fc_solvers[] = {&fc_solver_sph, &fc_solver_pbf, NULL};

const fc_solver *fc_solver_find(const char *name)
{
    for (int i = 0; fc_solvers[i]; i++)
        if (strcmp(fc_solvers[i]->name, name) == 0) return fc_solvers[i];
    return NULL;
}
