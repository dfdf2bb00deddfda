/* Emitters (discs of particles shot along a direction; in 2D segments) and sinks (regions that remove particles). */
#include "core/sources.h"

#include <math.h>
#include <stdlib.h>

#include "core/colliders.h"
#include "core/emission.h"
#include "core/solver.h"
#include "core/store.h"

/* Two unit vectors perpendicular to d (unit) and to each other; in 2D t1 is d turned a quarter
 * turn in the plane z = 0 (t2 is then unused). */
static void disc_basis(const float d[3], float t1[3], float t2[3], int dims)
{
    if (dims == 2) {
        float len = sqrtf(d[0] * d[0] + d[1] * d[1]);
        t1[0] = len > 0.0f ? -d[1] / len : 1.0f, t1[1] = len > 0.0f ? d[0] / len : 0.0f, t1[2] = 0.0f;
        t2[0] = t2[1] = t2[2] = 0.0f;
        return;
    }
    float helper[3] = {0.0f, 0.0f, 0.0f};
    helper[fabsf(d[1]) < 0.9f ? 1 : 0] = 1.0f;
    t1[0] = d[1] * helper[2] - d[2] * helper[1];
    t1[1] = d[2] * helper[0] - d[0] * helper[2];
    t1[2] = d[0] * helper[1] - d[1] * helper[0];
    float len = sqrtf(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    for (int a = 0; a < 3; a++) t1[a] /= len;
    t2[0] = d[1] * t1[2] - d[2] * t1[1];
    t2[1] = d[2] * t1[0] - d[0] * t1[2];
    t2[2] = d[0] * t1[1] - d[1] * t1[0];
}

/* Calls emit for each lattice point (u, v) of the disc, u^2 + v^2 <= r^2, or in 2D of the segment
 * (v = 0, |u| <= r); returns the count. */
static size_t for_each_disc_point(float radius, float spacing, int dims, void (*emit)(float u, float v, void *),
                                  void *ctx)
{
    int n = (int)floorf(radius / spacing), nj = dims == 2 ? 0 : n;
    size_t count = 0;
    for (int i = -n; i <= n; i++)
        for (int j = -nj; j <= nj; j++) {
            float u = (float)i * spacing, v = (float)j * spacing;
            if (u * u + v * v > radius * radius * (1.0f + 1e-5f)) continue;
            if (emit) emit(u, v, ctx);
            count++;
        }
    return count;
}

size_t fc_emitter_layer_size(const fc_object *emitter, float spacing, int dims)
{
    return for_each_disc_point(emitter->shape.radius, spacing, dims, NULL, NULL);
}

/* A particle of emitter e at p moving at vel: its fluid's record at the emitter's temperature (a row
 * put in the table without fc_world_add_object and without one: the fluid's). */
static void emitted_particle(fc_world *w, const fc_object *e, const float p[3], const float vel[3], fc_particle *rec)
{
    fc_world_particle(w, e->emitter.fluid, p, vel, rec);
    if (e->emitter.temperature > 0.0f) rec->TEMPERATURE = e->emitter.temperature;
}

typedef struct emission {
    fc_world *w;
    const fc_object *e; /* the emitter's row: its disc and flow */
    float t1[3], t2[3], base[3]; /* base: the disc's centre moved as far as it travelled since due */
    float (*points)[2];          /* with a store that emits itself: the layer's (u, v), collected */
    size_t point_count;
    int failed;
} emission;

static void collect_point(float u, float v, void *ctx)
{
    emission *em = ctx;
    em->points[em->point_count][0] = u, em->points[em->point_count][1] = v;
    em->point_count++;
}

_Static_assert((int)FC_COLUMN_COUNT <= (int)FC_EMISSION_MAX_COLUMNS, "an emission carries every registry column");

/* The layer appended in the store (fc_store_kind.emit): 1 when done, 0 when the host arrays are
 * the store or it has no emit (the host places the layer), -1 on failure. */
static int emit_in_store(emission *em, size_t layer, float spacing)
{
    fc_world *w = em->w;
    const fc_object *e = em->e;
    if (!w->store_state || !w->store->emit) return 0;
    fc_particles *p = &w->particles;
    if (fc_particles_reserve(p, p->count + layer)) return -1; /* room for the sync that brings them back */
    em->points = malloc(layer * sizeof *em->points);
    if (!em->points) return -1;
    em->point_count = 0;
    for_each_disc_point(e->shape.radius, spacing, w->dimensions, collect_point, em);
    fc_emission out = {.count = em->point_count, .first_id = p->next_id, .points = (const float(*)[2])em->points,
                       .dimensions = w->dimensions};
    fc_particle rec;
    const float zero[3] = {0.0f, 0.0f, 0.0f};
    float vel[3];
    for (int a = 0; a < 3; a++) vel[a] = e->emitter.speed * e->shape.normal[a];
    emitted_particle(w, e, zero, vel, &rec);
    for (int a = 0; a < 3; a++)
        out.base[a] = em->base[a], out.t1[a] = em->t1[a], out.t2[a] = em->t2[a], out.velocity[a] = rec.VELOCITY[a];
    out.column_count = FC_COLUMN_COUNT;
    for (int c = 0; c < FC_COLUMN_COUNT; c++) {
        out.column[c] = 0;
        fc_particle_column_bytes(&rec, c, &out.column[c]);
    }
    const int failed = w->store->emit(w, w->store_state, &out);
    free(em->points);
    if (failed) return -1;
    p->count += out.count;
    p->next_id += (uint32_t)out.count;
    return 1;
}

static void emit_particle(float u, float v, void *ctx)
{
    emission *em = ctx;
    const fc_object *e = em->e;
    float p[3], vel[3];
    fc_emitter_point(em->base, em->t1, em->t2, u, v, p);
    for (int a = 0; a < 3; a++) vel[a] = e->emitter.speed * e->shape.normal[a];
    fc_particle rec;
    emitted_particle(em->w, e, p, vel, &rec);
    if (fc_particles_add(&em->w->particles, &rec) < 0) em->failed = 1;
}

size_t fc_emitters_step(fc_world *w, double dt)
{
    const float spacing = (float)w->params.particle_spacing;
    size_t added = 0;
    FC_FOR_EACH_OBJECT(&w->objects, FC_OBJECT_EMITTER, row) {
        fc_emitter *e = &row->emitter;
        const fc_shape *disc = &row->shape;
        size_t layer = fc_emitter_layer_size(row, spacing, w->dimensions);
        e->pending += (double)e->rate * dt;
        while (e->pending >= (double)layer) {
            if (w->particles.count + layer > (size_t)w->params.max_particles ||
                fc_world_reserve_fluid(w, w->particles.count + layer)) {
                e->pending = (double)layer; /* full, or the server's budget is: wait, owing one emission */
                break;
            }
            emission em = {.w = w, .e = row};
            disc_basis(disc->normal, em.t1, em.t2, w->dimensions);
            /* the layer was due (pending - layer) / rate seconds ago: place it that far along */
            double late = e->rate > 0.0f ? (e->pending - (double)layer) / (double)e->rate : 0.0;
            const float advance = (float)(late * e->speed);
            for (int a = 0; a < 3; a++) em.base[a] = disc->center[a] + advance * disc->normal[a];
            const int in_store = emit_in_store(&em, layer, spacing);
            if (in_store < 0) return added;
            if (!in_store) for_each_disc_point(disc->radius, spacing, w->dimensions, emit_particle, &em);
            if (em.failed) return added;
            e->pending -= (double)layer;
            added += layer;
        }
    }
    w->emitted_total += added;
    return added;
}

/* The sinks applied in the store (fc_store_kind.remove_inside): how many
 * went, or -1 when it cannot. */
static long sinks_apply_in_store(fc_world *w)
{
    if (!w->store_state || !w->store->remove_inside) return -1;
    const size_t count = fc_objects_count(&w->objects, FC_OBJECT_SINK);
    fc_shape *shapes = malloc(count * sizeof *shapes);
    if (!shapes) return -1;
    fc_objects_shapes(&w->objects, FC_OBJECT_SINK, shapes, count);
    const long removed = w->store->remove_inside(w, w->store_state, shapes, count);
    free(shapes);
    if (removed > 0) {
        w->particles.count -= (size_t)removed;
        w->removed_total += (uint64_t)removed;
    }
    return removed;
}

size_t fc_sinks_apply(fc_world *w)
{
    if (!fc_objects_next(&w->objects, FC_OBJECT_SINK, NULL) || w->particles.count == 0) return 0;
    const long in_store = sinks_apply_in_store(w);
    if (in_store >= 0) return (size_t)in_store;
    fc_world_sync_to_host(w, FC_SYNC_ALL); /* compaction moves every field */
    fc_particles *p = &w->particles;
    uint8_t *keep = malloc(p->count);
    if (!keep) return 0;
    const long n = (long)p->count;
    long removed = 0;
#pragma omp parallel for schedule(static) reduction(+ : removed)
    for (long i = 0; i < n; i++) {
        float x[3] = {p->field[FC_PX][i], p->field[FC_PY][i], p->field[FC_PZ][i]};
        keep[i] = 1;
        for (const fc_object *sink = fc_objects_next(&w->objects, FC_OBJECT_SINK, NULL); sink && keep[i];
             sink = fc_objects_next(&w->objects, FC_OBJECT_SINK, sink))
            if (fc_shape_contains(&sink->shape, x)) keep[i] = 0, removed++;
    }
    if (removed) fc_particles_compact(p, keep);
    free(keep);
    w->removed_total += (uint64_t)removed;
    if (removed) fc_world_host_changed(w, FC_CHANGED_REMOVED);
    return (size_t)removed;
}

static void sinks_step(fc_world *w, double dt)
{
    (void)dt;
    fc_sinks_apply(w);
}

static void emitters_step(fc_world *w, double dt)
{
    if (fc_emitters_step(w, dt)) fc_world_host_changed(w, FC_CHANGED_ADDED);
}

/* Each kind's step hook (NULL: the kind does nothing as the world steps; a collider moves only
 * when told, collider_move). Rigid bodies will advance here with the world. */
static void (*const step_hooks[FC_OBJECT_KIND_COUNT])(fc_world *w, double dt) = {
    [FC_OBJECT_SINK] = sinks_step,
    [FC_OBJECT_EMITTER] = emitters_step,
};

void fc_objects_step(fc_world *w, double dt)
{
    for (int kind = 0; kind < FC_OBJECT_KIND_COUNT; kind++)
        if (step_hooks[kind] && fc_objects_next(&w->objects, (fc_object_kind)kind, NULL)) step_hooks[kind](w, dt);
}
