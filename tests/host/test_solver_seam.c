/* The backend seam (core/solver.h): a solver that keeps its own copy of the particles, as a GPU
 * solver would. The host sees its data only after fc_world_sync_to_host, and the solver sees every
 * change the host makes (emitters, sinks, a checkpoint put back, a rebuilt world, commands).
 * It needs neither grid nor boundary, so the world builds neither, and it has no h/spacing rule. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/checkpoint.h"
#include "core/solver.h"
#include "host/command.h"
#include "solvers/sph_family.h"

/* The private copy: positions and velocities of every particle, in the host's order. */
typedef struct mirror_state {
    size_t count;
    float *field[6]; /* x, y, z, vx, vy, vz */
    unsigned changes; /* FC_CHANGED_* seen since the test last cleared it */
    int uploads;
} mirror_state;

static const int MIRRORED[6] = {FC_PX, FC_PY, FC_PZ, FC_VX, FC_VY, FC_VZ};

/* Takes the host's particles from index `from` on into the private copy. */
static int upload(const fc_world *w, mirror_state *st, size_t from)
{
    const size_t n = w->particles.count;
    for (int f = 0; f < 6; f++) {
        float *grown = realloc(st->field[f], (n ? n : 1) * sizeof(float));
        if (!grown) return -1;
        st->field[f] = grown;
        if (n > from) memcpy(grown + from, w->particles.field[MIRRORED[f]] + from, (n - from) * sizeof(float));
    }
    st->count = n;
    st->uploads++;
    return 0;
}

static void mirror_destroy(void *state)
{
    mirror_state *st = state;
    for (int f = 0; f < 6; f++) free(st->field[f]);
    free(st);
}

static int mirror_init(fc_world *w, void **state, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    mirror_state *st = calloc(1, sizeof *st);
    if (!st || upload(w, st, 0)) {
        free(st);
        return -1;
    }
    *state = st;
    return 0;
}

/* Ballistic motion under gravity in the private copy only; fails when the copy lost count. */
static int mirror_step(fc_world *w, void *state, double dt)
{
    mirror_state *st = state;
    if (st->count != w->particles.count) return FC_STEP_FAILED;
    const float g[3] = {(float)w->params.gravity_x, (float)w->params.gravity_y, (float)w->params.gravity_z};
    for (size_t i = 0; i < st->count; i++)
        for (int a = 0; a < 3; a++) {
            st->field[3 + a][i] += g[a] * (float)dt;
            st->field[a][i] += st->field[3 + a][i] * (float)dt;
        }
    return FC_STEP_DONE;
}

static void mirror_sync_to_host(fc_world *w, void *state, unsigned fields)
{
    const mirror_state *st = state;
    for (int f = 0; f < 6; f++)
        if (fields & (f < 3 ? FC_SYNC_POSITION : FC_SYNC_VELOCITY))
            memcpy(w->particles.field[MIRRORED[f]], st->field[f], st->count * sizeof(float));
}

static void mirror_host_changed(fc_world *w, void *state, unsigned what)
{
    mirror_state *st = state;
    st->changes |= what;
    /* appended ones only (the host's copies of the others may be stale); all after a removal or a
     * checkpoint (the host was synced before it compacted); out of memory: step's count check fails */
    if (what & (FC_CHANGED_REMOVED | FC_CHANGED_REPLACED)) upload(w, st, 0);
    else if (what & FC_CHANGED_ADDED) upload(w, st, st->count);
}

static int mirror_stats(const fc_world *w, const void *state, fc_solver_stat *out, int max)
{
    (void)w;
    if (max < 1) return 0;
    out[0] = (fc_solver_stat){.name = "private_particles", .value = (double)((const mirror_state *)state)->count};
    return 1;
}

static const fc_solver mirror_solver = {
    .name = "mirror",
    .description = "test: ballistic particles in a private copy",
    .needs = 0,
    .init = mirror_init,
    .step = mirror_step,
    .stats = mirror_stats,
    .sync_to_host = mirror_sync_to_host,
    .host_changed = mirror_host_changed,
    .destroy = mirror_destroy,
};

static mirror_state *mirror(fc_world *w) { return w->solver_state; }

/* The FC_CHANGED_* bits the solver saw since the last call. */
static unsigned take_changes(fc_world *w)
{
    unsigned seen = mirror(w)->changes;
    mirror(w)->changes = 0;
    return seen;
}

/* 1 when the host's positions equal the private copy's. */
static int host_matches_copy(fc_world *w)
{
    const mirror_state *st = mirror(w);
    if (st->count != w->particles.count) return 0;
    for (int f = 0; f < 3; f++)
        if (st->count && memcmp(st->field[f], w->particles.field[MIRRORED[f]], st->count * sizeof(float)) != 0)
            return 0;
    return 1;
}

/* A message applied to the world as the server would; 0 when it was applied. */
static int apply_text(fc_world *w, const char *text)
{
    fc_message_error err = {0};
    cJSON *msg = NULL, *applied = cJSON_CreateObject();
    fc_command cmd;
    int rc = fc_message_parse(text, strlen(text), &err, &msg) || fc_command_from_message(msg, 7, &cmd, &err) ||
             fc_command_apply_to_world(w, &cmd, applied, &err);
    CHECK(rc == 0, "%s applies: %s", text, err.message);
    cJSON_Delete(msg);
    cJSON_Delete(applied);
    return rc;
}

/* A 1 m tank with a block of 1000 particles moving sideways, h 10 spacings (no SPH rule here). */
static int start_world(fc_world *w)
{
    char err[256] = "";
    fc_world_init(w);
    w->solver = &mirror_solver;
    w->params.particle_spacing = 0.02;
    w->params.smoothing_radius = 0.2;
    const float lo[3] = {0.1f, 0.1f, 0.1f}, hi[3] = {0.3f, 0.3f, 0.3f}, v[3] = {1.0f, 0.0f, 0.0f};
    int ok = fc_world_fill_box(w, lo, hi, v, 0) > 0 && fc_world_start(w, err, sizeof err) == 0;
    CHECK(ok, "a world of the mirror solver starts with h = 10 spacings: %s", err);
    return ok ? 0 : -1;
}

static void test_needs_nothing_built(fc_world *w)
{
    CHECK(fc_sph_family_boundary(w) == NULL, "no boundary particles for a solver outside the SPH family");
    fc_cost alone = fc_world_cost(w, (double)w->particles.count);
    CHECK(alone.particles == (double)w->particles.count && alone.bytes == FC_BYTES_PER_PARTICLE * (double)w->particles.count,
          "the budget counts its particles alone (%g particles' worth, %g bytes)", alone.particles, alone.bytes);
    CHECK(w->grid_geom.ncells == 0, "no grid geometry for a solver that needs none");
}

static void test_sync(fc_world *w)
{
    const float x0 = w->particles.field[FC_PX][0], vy0 = w->particles.field[FC_VY][0];
    CHECK(fc_world_step(w) == FC_STEP_DONE, "a step");
    CHECK(w->particles.field[FC_PX][0] == x0 && w->particles.field[FC_VY][0] == vy0,
          "before a sync the host still has the old particles");
    CHECK(mirror(w)->field[0][0] != x0, "the private copy moved");
    fc_world_sync_to_host(w, FC_SYNC_POSITION);
    CHECK(host_matches_copy(w), "after syncing positions the host has the copy's");
    CHECK(w->particles.field[FC_VY][0] == vy0, "velocities were not asked for and stay");

    CHECK(fc_world_step(w) == FC_STEP_DONE, "another step");
    fc_world_stats s;
    fc_world_stats_compute(w, &s);
    double vx = mirror(w)->field[3][0], vy = mirror(w)->field[4][0], vz = mirror(w)->field[5][0];
    CHECK(fabs(s.max_speed - sqrt(vx * vx + vy * vy + vz * vz)) < 1e-5, "stats see the copy's speed: %g",
          s.max_speed);
    CHECK(host_matches_copy(w), "statistics synced the host first");
    CHECK(s.solver_stat_count == 1 && strcmp(s.solver_stat[0].solver, "mirror") == 0 &&
              fc_world_stat(&s, "private_particles") == (double)w->particles.count,
          "the solver's statistic carries its name");
    CHECK(isnan(fc_world_stat(&s, "mean_density_error")), "no density error from a solver that has none");

    fc_world_step(w);
    fc_checkpoint c = {0};
    CHECK(fc_checkpoint_take(&c, w) == 0, "a checkpoint");
    CHECK(memcmp(c.particles.field[FC_PX], mirror(w)->field[0], w->particles.count * sizeof(float)) == 0,
          "the checkpoint holds the copy's positions");
    fc_world_step(w);
    take_changes(w);
    CHECK(fc_checkpoint_restore(&c, w) == 0, "the checkpoint goes back");
    CHECK((take_changes(w) & FC_CHANGED_REPLACED) && host_matches_copy(w), "the solver took the checkpoint's particles");
    fc_checkpoint_free(&c);
}

static void test_emit_and_sink(fc_world *w)
{
    fc_emitter e = {.position = {0.7f, 0.5f, 0.5f}, .direction = {0, -1, 0}, .speed = 1.0f, .rate = 20000.0f,
                    .radius = 0.05f};
    fc_world_add_emitter(w, &e);
    take_changes(w);
    const size_t before = w->particles.count;
    const float x0 = mirror(w)->field[0][0], vx0 = mirror(w)->field[3][0]; /* gravity is along y */
    for (int i = 0; i < 5; i++) CHECK(fc_world_step(w) == FC_STEP_DONE, "an emitting step");
    CHECK(fabsf(mirror(w)->field[0][0] - (x0 + 5.0f * (float)w->params.time_step * vx0)) < 1e-5f,
          "emitting kept the copy's own particles (the host's were stale)");
    CHECK(w->particles.count > before && (take_changes(w) & FC_CHANGED_ADDED), "emitted particles are told: %zu",
          w->particles.count);
    CHECK(mirror(w)->count == w->particles.count, "the copy has them");
    w->emitter_count = 0;

    fc_sink sink = {.shape = {.kind = FC_SHAPE_BOX, .center = {0.7f, 0.5f, 0.5f}, .half = {0.1f, 0.2f, 0.1f}}};
    fc_world_add_sink(w, &sink);
    const size_t full = w->particles.count;
    CHECK(fc_world_step(w) == FC_STEP_DONE, "a step with a sink");
    CHECK(w->particles.count < full && (take_changes(w) & FC_CHANGED_REMOVED) && host_matches_copy(w),
          "the sink's removal is told: %zu of %zu left", w->particles.count, full);
    w->sink_count = 0;
}

static void test_commands(fc_world *w)
{
    take_changes(w);
    CHECK(apply_text(w, "{\"type\": \"set\", \"world\": 1, \"values\": {\"gravity_y\": -1}}") == 0 &&
              (take_changes(w) & FC_CHANGED_PARAMS),
          "set is told");
    const size_t before = w->particles.count;
    fc_world_step(w);
    const mirror_state *st = mirror(w);
    float x[3] = {st->field[0][0], st->field[1][0], st->field[2][0]}; /* where particle 0 is now */
    char text[256];
    snprintf(text, sizeof text,
             "{\"type\": \"collider_add\", \"world\": 1, \"collider\": {\"shape\": \"sphere\", \"position\": "
             "[%.6f, %.6f, %.6f], \"radius\": 0.05}}", x[0], x[1], x[2]);
    CHECK(apply_text(w, text) == 0, "a sphere where the fluid is");
    unsigned seen = take_changes(w);
    CHECK((seen & FC_CHANGED_COLLIDERS) && (seen & FC_CHANGED_REMOVED) && w->particles.count < before &&
              host_matches_copy(w),
          "the collider and the fluid it cut away are told (%zu of %zu left)", w->particles.count, before);
    snprintf(text, sizeof text,
             "{\"type\": \"collider_move\", \"world\": 1, \"collider\": %d, \"position\": [0.8, 0.8, 0.8]}",
             w->colliders[w->collider_count - 1].id);
    CHECK(apply_text(w, text) == 0 && (take_changes(w) & FC_CHANGED_COLLIDERS), "a collider's move is told");
}

static void test_rebuild(fc_world *w)
{
    char err[256] = "";
    fc_world_step(w);
    const size_t before = w->particles.count;
    const float lo[3] = {0.5f, 0.5f, 0.5f}, hi[3] = {0.6f, 0.6f, 0.6f}, v[3] = {0, 0, 0};
    fc_world_fill_box(w, lo, hi, v, 0);
    const size_t added = w->particles.count - before;
    CHECK(added && (take_changes(w) & FC_CHANGED_ADDED) && mirror(w)->count == w->particles.count &&
              memcmp(mirror(w)->field[1] + before, w->particles.field[FC_PY] + before, added * sizeof(float)) == 0,
          "a fill into a running world is told, and the copy has the new particles");
    const float x0 = mirror(w)->field[0][0];
    CHECK(fc_world_start(w, err, sizeof err) == 0 && mirror(w)->count == w->particles.count && host_matches_copy(w),
          "a restarted world's solver starts from the host's particles: %s", err);
    CHECK(mirror(w)->field[0][0] == x0, "which the old solver synced before it went");
}

int main(void)
{
    fc_world w;
    if (start_world(&w) == 0) {
        test_needs_nothing_built(&w);
        test_sync(&w);
        test_emit_and_sink(&w);
        test_commands(&w);
        test_rebuild(&w);
    }
    fc_world_free(&w);
    return check_summary("test_solver_seam");
}
