/* A world's recent past: checkpoints every simulated second and after objects or walls changed
 * (three kept), the blow-up watch after each step, and rewinding to a checkpoint that keeps what the
 * user did since (PROTOCOL.md, `rewind` and `unstable`). */
#ifndef FC_HISTORY_H
#define FC_HISTORY_H

#include <cjson/cJSON.h>

#include "core/checkpoint.h"
#include "core/stability.h"
#include "message.h"

#define FC_HISTORY_CHECKPOINTS 3
#define FC_HISTORY_INTERVAL_S 1.0 /* simulated seconds between checkpoints */
#define FC_HISTORY_MARGIN_S 0.5   /* rewinding an unstable world skips checkpoints this close to the blow-up */
#define FC_HISTORY_CHANGE_GAP_S 0.25 /* wall seconds at least between checkpoints after changes (a slider's
                                        stream of updates copies the particles four times a second at most) */

typedef struct fc_world_history {
    fc_checkpoint checkpoint[FC_HISTORY_CHECKPOINTS];
    int after_change[FC_HISTORY_CHECKPOINTS]; /* taken just after objects or walls changed: a rewind may
                                                 go back to it however close to the blow-up */
    double next_checkpoint;     /* simulated time of the next one */
    int change_due;             /* objects or walls changed: a checkpoint after the next stable step */
    double last_change_checkpoint; /* wall time (monotonic s) of the last checkpoint after a change */
    int changed_while_unstable; /* objects or walls changed after the blow-up: a rewind keeps them */
    fc_stability_watch watch;
    int unstable;               /* the world blew up (or its solver failed) and waits for rewind */
    fc_instability why;
    double unstable_time;
} fc_world_history;

/* Forgets every checkpoint and the blow-up, then takes a checkpoint of w (a new or rebuilt world). */
void fc_history_restart(fc_world_history *hist, fc_world *w);
/* After a step: 1 when the world has just become unstable (hist->why says why); otherwise a
 * checkpoint is taken when one is due. The statistics the check computed go to *stats (may be
 * NULL; untouched while the world is unstable, when nothing is checked). */
int fc_history_after_step(fc_world_history *hist, fc_world *w, fc_world_stats *stats);
/* Objects or walls of the world changed (a command): the first stable step after it takes a
 * checkpoint, so that a rewind does not drop them; after a blow-up, the rewind keeps them instead. */
void fc_history_objects_changed(fc_world_history *hist);
/* The solver failed: the world is unstable with check "solver_failed". */
void fc_history_solver_failed(fc_world_history *hist, const fc_world *w);
/* Puts w back to a checkpoint: with seconds < 0, the newest taken at least FC_HISTORY_MARGIN_S
 * before the blow-up or just after objects or walls changed before it (the newest, when the world
 * is stable; when the blow-up's fix needs the state from before the trouble built up,
 * fc_instability.rewind_to_change, the newest taken after a change, which the checkpoints every
 * second do not push out); else the newest at least seconds before w's time (the oldest when none is that old).
 * Particles, clock, objects and walls go back; the parameters set since stay as they are now, and
 * so do objects and walls changed after the blow-up. Newer checkpoints are forgotten, the blow-up
 * too. 0 with *back = simulated seconds gone back and, when report is not NULL, what the rewind
 * kept and put back added to it ("kept": the parameters set since, as `set` names them, with their
 * values; "objects": the ids it removed and restored, whether it put the walls back, or that it
 * kept them); or -1 with err (w unchanged). */
int fc_history_rewind(fc_world_history *hist, fc_world *w, double seconds, double *back, cJSON *report,
                      fc_message_error *err);
/* The time rewind without seconds would go back to, or -1 when there is no checkpoint. */
double fc_history_rewind_target(const fc_world_history *hist);
/* {"check", "message", "cause", "time", "rewind_to"} of the blow-up. */
cJSON *fc_history_unstable_json(const fc_world_history *hist);
void fc_history_free(fc_world_history *hist);

#endif
