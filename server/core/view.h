/* A scene's "view": how viewers first show it (colour mode, hidden fluids, opacity, cutaway, particle size); state.view. */
#ifndef FC_VIEW_H
#define FC_VIEW_H

#include "core/fluids.h"

/* Limits of the view's numbers (scenes/README.md "view"); the viewer's sliders use the same. */
#define FC_VIEW_OPACITY_MIN 0.05
#define FC_VIEW_SIZE_MIN 0.25
#define FC_VIEW_SIZE_MAX 4.0

typedef struct fc_view {
    char colour[16];              /* plain, speed, density, temperature, fluid; "" = none */
    unsigned hidden;              /* bit f: fluid f is hidden when the scene opens */
    double opacity[FC_MAX_FLUIDS];/* 0 = not given (opaque) */
    int cut_axis;                 /* 0 none, 1 x, 2 y, 3 z (zero-initialised: no cutaway) */
    double cut_at;                /* m, the plane's position along cut_axis */
    int cut_keep_above;           /* 1: the particles above cut_at stay, 0: those below */
    double particle_size;         /* times the drawn radius; 0 = not given (1) */
} fc_view;

#endif
