/* Progress reports of a world's build (build_progress.h). */
#include "core/build_progress.h"

static const char *const phase_names[FC_BUILD_PHASES] = {
    [FC_BUILD_FLUID] = "filling fluid",
    [FC_BUILD_BOUNDARY] = "sampling boundary",
    [FC_BUILD_VOLUMES] = "weighing boundary samples",
    [FC_BUILD_SOLVER] = "starting the solver",
};

void fc_build_progress_report(const fc_build_progress *p, fc_build_phase phase, double fraction)
{
    if (!p || !p->report || phase < 0 || phase >= FC_BUILD_PHASES) return;
    if (!(fraction >= 0.0)) fraction = 0.0;
    if (fraction > 1.0) fraction = 1.0;
    p->report(p->ctx, phase_names[phase], (double)phase + fraction, (double)FC_BUILD_PHASES);
}
