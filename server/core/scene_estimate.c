/* A scene's size before anything is built: its fluid particles counted on the lattices its blocks
 * fill, less what colliders and earlier blocks take, and what its method answers for them. */
#include "core/budget.h"

#include <float.h>
#include <math.h>

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

void fc_scene_estimate_size(const fc_scene *scene, fc_scene_estimate *out)
{
    const fc_params *p = &scene->params;
    const int dims = scene->dimensions == 2 ? 2 : 3;
    const double s = p->particle_spacing, cell = dims == 2 ? s * s : s * s * s;
    double fluid = 0.0, work = 0.0;
    fc_shape solids[FC_SCENE_MAX_SOLIDS]; /* the colliders' shapes (a scene with more is refused before it is built) */
    const size_t solid_count = fc_objects_shapes(&scene->objects, FC_OBJECT_COLLIDER, solids, FC_SCENE_MAX_SOLIDS);
    const excluders colliders = {solids, solid_count, (float)fc_params_particle_radius(p)}, none = {NULL, 0, 0.0f};
    fc_shape blocks[FC_SCENE_MAX_BLOCKS]; /* a block fills what the blocks before it left empty (scene.c) */
    for (size_t i = 0; i < scene->block_count && i < FC_SCENE_MAX_BLOCKS; i++) {
        const fc_scene_block *b = &scene->blocks[i];
        fc_scene_block_shape(b, &blocks[i]);
        const excluders earlier = {blocks, i, 0.0f};
        fc_lattice l;
        fc_shape *self = &blocks[i]; /* after this block's count, an excluder in the plane (as in the fill) */
        if (b->kind == FC_SHAPE_BOX) { /* the lattice's points exactly, less those cut away */
            fc_lattice_of_box(&l, b->min, b->max, (float)s, dims);
            fluid += (double)l.n[0] * l.n[1] * l.n[2] - cut_away(&l, NULL, colliders, none, &work) -
                     cut_away(&l, NULL, earlier, colliders, &work);
        } else {
            fc_lattice_of_sphere(&l, b->center, b->radius, (float)s, dims);
            double measure = dims == 2 ? PI * pow(b->radius, 2) : 4.0 / 3.0 * PI * pow(b->radius, 3);
            fluid += fmax(0.0, measure / cell - cut_away(&l, self, colliders, none, &work) -
                                   cut_away(&l, self, earlier, colliders, &work));
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
