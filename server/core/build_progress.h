/* Progress of building a world, reported at the natural points of the one build path
 * (fc_scene_instantiate_progress) to whoever waits for it: the server tells its clients. */
#ifndef FC_BUILD_PROGRESS_H
#define FC_BUILD_PROGRESS_H

/* The phases of a build, in order. A report says how far the whole build got: `done` phases
 * finished plus the fraction of the one under way, out of `total` = FC_BUILD_PHASES. */
typedef enum {
    FC_BUILD_FLUID,      /* "filling fluid": the scene's blocks on the lattice */
    FC_BUILD_BOUNDARY,   /* "sampling boundary": the skin behind the walls and colliders (a method's structures) */
    FC_BUILD_VOLUMES,    /* "weighing boundary samples": sorting them, their volumes */
    FC_BUILD_SOLVER,     /* "starting the solver" (a method without structures may not report it) */
    FC_BUILD_PHASES
} fc_build_phase;

typedef struct fc_build_progress {
    /* Called on the building thread (never from inside a parallel loop), often: throttle there. */
    void (*report)(void *ctx, const char *message, double done, double total);
    void *ctx;
} fc_build_progress;

/* Reports that the build is `fraction` (0 to 1) into `phase`; nothing when p is NULL. */
void fc_build_progress_report(const fc_build_progress *p, fc_build_phase phase, double fraction);

#endif
