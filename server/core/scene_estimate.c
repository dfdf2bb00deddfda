/* A scene's size before anything is built: its fluid particles counted on the lattices its blocks
 * fill, less what colliders and earlier blocks take, and what its method answers for them. */
#include "core/budget.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "core/colliders.h"
#include "core/scene.h"
#include "core/solver.h"

#define PI 3.14159265358979323846

/* Distance checks an estimate may spend counting the fluid that colliders cut away; beyond, the
 * rest is left in, so the estimate stays above what is built. */
#define CUT_WORK_LIMIT 16e6

/* The index ranges [first, last] of l's points within [lo, hi] (one more on each side: the points'
 * float rounding), clamped to the lattice; how many points they hold. */
static double lattice_range(const fc_lattice *l, const float lo[3], const float hi[3], long first[3], long last[3])
{
    double count = 1.0;
    for (int a = 0; a < 3; a++) {
        first[a] = (long)fmax(0.0, ceil(((double)lo[a] - l->start[a]) / l->spacing) - 1.0);
        last[a] = (long)fmin(l->n[a] - 1.0, floor(((double)hi[a] - l->start[a]) / l->spacing) + 1.0);
        count *= last[a] >= first[a] ? (double)(last[a] - first[a] + 1) : 0.0;
    }
    return count;
}

/* Where a collider's points within `clearance` can be: a sphere's or box's bounds grown by it,
 * anywhere for a plane. */
static void near_bounds(const fc_shape *c, float clearance, float lo[3], float hi[3])
{
    for (int a = 0; a < 3; a++) {
        float extent = (c->kind == FC_SHAPE_BOX ? c->half[a] : c->radius) + clearance;
        lo[a] = c->kind == FC_SHAPE_PLANE ? -FLT_MAX : c->center[a] - extent;
        hi[a] = c->kind == FC_SHAPE_PLANE ? FLT_MAX : c->center[a] + extent;
    }
}

/* Shapes a fill keeps its lattice points away from: within clearance of one (0: inside it). */
typedef struct excluders {
    const fc_shape *shape;
    size_t count;
    float clearance;
} excluders;

/* The points of a block's lattice l (inside `inside` unless NULL) that the fill leaves out for
 * being near one of `cut` (each counted at the first it is near) and that are clear of every shape
 * of `counted` (left out already). *work counts the distance checks spent; past CUT_WORK_LIMIT
 * none are counted (0). */
static double cut_away(const fc_lattice *l, const fc_shape *inside, excluders cut, excluders counted, double *work)
{
    const fc_shape *c = cut.shape;
    const float s = l->spacing;
    long first[3], last[3];
    float lo[3], hi[3];
    double need = 0.0;
    for (size_t k = 0; k < cut.count; k++) {
        near_bounds(&c[k], cut.clearance, lo, hi);
        need += lattice_range(l, lo, hi, first, last) * (double)(k + 2 + counted.count);
    }
    if (*work + need > CUT_WORK_LIMIT) return 0.0;
    *work += need;
    double removed = 0.0;
    for (size_t k = 0; k < cut.count; k++) {
        near_bounds(&c[k], cut.clearance, lo, hi);
        if (lattice_range(l, lo, hi, first, last) == 0.0) continue;
        for (long z = first[2]; z <= last[2]; z++)
            for (long y = first[1]; y <= last[1]; y++)
                for (long x = first[0]; x <= last[0]; x++) {
                    float p[3] = {l->start[0] + (float)x * s, l->start[1] + (float)y * s, l->start[2] + (float)z * s};
                    if ((inside && !fc_shape_contains(inside, p)) || !fc_shape_near(&c[k], p, cut.clearance) ||
                        !fc_shapes_clear_of(c, k, cut.clearance, p) ||
                        !fc_shapes_clear_of(counted.shape, counted.count, counted.clearance, p))
                        continue;
                    removed += 1.0;
                }
    }
    return removed;
}

/* The index range [*first, *last] of the points of row (j, k) of l that shape c holds (own: as the
 * fill's block holds its points, fc_shape_contains; else as an earlier block excludes them,
 * fc_shape_near at clearance 0); empty when *first > *last. The span comes from c's chord along x,
 * widened by a spacing, then narrowed with the fill's own test at its ends, so it is exact. */
static void row_span(const fc_lattice *l, long j, long k, const fc_shape *c, int own, long *first, long *last)
{
    const float s = l->spacing;
    float p[3] = {0.0f, l->start[1] + (float)j * s, l->start[2] + (float)k * s};
    double half = 0.0;
    *first = 0, *last = l->n[0] - 1;
    if (c->kind == FC_SHAPE_SPHERE) {
        const double dy = (double)p[1] - c->center[1], dz = (double)p[2] - c->center[2], reach = (double)c->radius + s;
        if (dy * dy + dz * dz > reach * reach) return (void)(*first = 1, *last = 0);
        half = sqrt(reach * reach - dy * dy - dz * dz);
    } else if (c->kind == FC_SHAPE_BOX && !c->rotated) {
        if (fabs((double)p[1] - c->center[1]) > (double)c->half[1] + s || fabs((double)p[2] - c->center[2]) > (double)c->half[2] + s)
            return (void)(*first = 1, *last = 0);
        half = (double)c->half[0] + s;
    } else {
        half = INFINITY; /* any other shape: the whole row, narrowed point by point */
    }
    if (isfinite(half)) {
        *first = (long)fmax(0.0, ceil(((double)c->center[0] - half - l->start[0]) / s));
        *last = (long)fmin(l->n[0] - 1.0, floor(((double)c->center[0] + half - l->start[0]) / s));
    }
    for (; *first <= *last; ++*first) { /* the shapes are convex: what holds the ends holds between */
        p[0] = l->start[0] + (float)*first * s;
        if (own ? fc_shape_contains(c, p) : fc_shape_near(c, p, 0.0f)) break;
    }
    for (; *last >= *first; --*last) {
        p[0] = l->start[0] + (float)*last * s;
        if (own ? fc_shape_contains(c, p) : fc_shape_near(c, p, 0.0f)) break;
    }
}

static int by_first(const void *a, const void *b)
{
    const long x = ((const long *)a)[0], y = ((const long *)b)[0];
    return (x > y) - (x < y);
}

/* The points of block lattice l (inside `self` unless NULL) that one of the earlier blocks holds,
 * which the fill leaves out: row by row, the union of the blocks' spans (exact, and in rows times
 * blocks, not points times blocks: 64 copies of one block cost what one does). */
static double held_by_earlier(const fc_lattice *l, const fc_shape *self, excluders earlier)
{
    long spans[FC_SCENE_MAX_BLOCKS][2];
    double held = 0.0;
    for (long k = 0; k < l->n[2]; k++)
        for (long j = 0; j < l->n[1]; j++) {
            long lo = 0, hi = l->n[0] - 1;
            if (self) row_span(l, j, k, self, 1, &lo, &hi);
            size_t n = 0;
            for (size_t e = 0; lo <= hi && e < earlier.count && e < FC_SCENE_MAX_BLOCKS; e++) {
                row_span(l, j, k, &earlier.shape[e], 0, &spans[n][0], &spans[n][1]);
                spans[n][0] = spans[n][0] > lo ? spans[n][0] : lo, spans[n][1] = spans[n][1] < hi ? spans[n][1] : hi;
                if (spans[n][0] <= spans[n][1]) n++;
            }
            qsort(spans, n, sizeof spans[0], by_first);
            long end = lo; /* one past the union so far */
            for (size_t e = 0; e < n; e++) {
                const long from = spans[e][0] > end ? spans[e][0] : end;
                if (spans[e][1] >= from) held += (double)(spans[e][1] - from + 1), end = spans[e][1] + 1;
            }
        }
    return held;
}

void fc_scene_estimate_size(const fc_scene *scene, fc_scene_estimate *out)
{
    const fc_params *p = &scene->params;
    const int dims = scene->dimensions == 2 ? 2 : 3;
    const double s = p->particle_spacing, cell = dims == 2 ? s * s : s * s * s;
    double fluid = 0.0, work = 0.0;
    fc_shape solids[FC_SCENE_MAX_SOLIDS]; /* the colliders' shapes (a scene with more is refused before it is built) */
    const size_t solid_count = fc_objects_shapes(&scene->objects, FC_OBJECT_COLLIDER, solids, FC_SCENE_MAX_SOLIDS);
    const excluders colliders = {solids, solid_count, (float)fc_params_particle_radius(p)};
    fc_shape blocks[FC_SCENE_MAX_BLOCKS]; /* a block fills what the blocks before it left empty (scene.c) */
    for (size_t i = 0; i < scene->block_count && i < FC_SCENE_MAX_BLOCKS; i++) {
        const fc_scene_block *b = &scene->blocks[i];
        fc_scene_block_shape(b, &blocks[i]);
        const excluders earlier = {blocks, i, 0.0f};
        fc_lattice l;
        fc_shape *self = &blocks[i]; /* after this block's count, an excluder in the plane (as in the fill) */
        /* what earlier blocks hold, then what is near a collider of the rest */
        if (b->kind == FC_SHAPE_BOX) { /* the lattice's points exactly, less those left out */
            fc_lattice_of_box(&l, b->min, b->max, (float)s, dims);
            fluid += (double)l.n[0] * l.n[1] * l.n[2] - held_by_earlier(&l, NULL, earlier) -
                     cut_away(&l, NULL, colliders, earlier, &work);
        } else {
            fc_lattice_of_sphere(&l, b->center, b->radius, (float)s, dims);
            double measure = dims == 2 ? PI * pow(b->radius, 2) : 4.0 / 3.0 * PI * pow(b->radius, 3);
            fluid += fmax(0.0, measure / cell - held_by_earlier(&l, self, earlier) - cut_away(&l, self, colliders, earlier, &work));
        }
        if (dims == 2) fc_shape_in_plane(self);
    }
    fluid = fmin(fluid, (double)p->max_particles);
    const fc_solver *solver = fc_solver_find(scene->solver);
    const fc_cost_query q = {.params = p, .dims = dims, .fluid = fluid, .lo = scene->domain_min, .hi = scene->domain_max,
                             .solids = solids, .solid_count = solid_count};
    const fc_method_cost c = fc_solver_cost(solver, &q);
    out->fluid = fluid;
    out->structures = c.structures;
    out->structures_name = solver && solver->structures_name ? solver->structures_name : "";
    out->cost = c.cost;
}
