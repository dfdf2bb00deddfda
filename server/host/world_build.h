/* Building a world for a server: a scene file with values and a solver on top, estimated against
 * the server's budget before anything is built (over_budget), errors as the protocol names them. */
#ifndef FC_WORLD_BUILD_H
#define FC_WORLD_BUILD_H

#include "core/budget.h"
#include "core/world.h"
#include "host/command.h"

/* Builds *out from the scene file at path, or from an uploaded scene document (JSON text; path
 * NULL), with values on top and, if given, another solver.
 * With a budget, the reservation of the world it replaces (*held, 0 for a new world) moves to the
 * new world, which is estimated first and refused with over_budget before anything is built; on
 * failure *held is as it was. Errors: bad_value (the scene, field "scene", or for a document
 * "scene.KEY.PATH" of the offending value; the values), unknown_solver, over_budget, internal (out
 * of memory). progress (NULL: none) hears how far the build got. 0 or -1. */
int fc_world_build(const char *path, const char *document, const fc_param_values *values, const char *solver,
                   fc_backend_choice *backend, fc_budget *budget, fc_cost *held, const struct fc_build_progress *progress, fc_world *out,
                   fc_message_error *err);

#endif
