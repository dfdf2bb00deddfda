/* The object table's posed shapes against geometry and physics: a rotated box's distance and
 * normal, Euler angles in and out, a rotated box collider that keeps falling water out (SPH and
 * PBF), and boundary samples that follow a moved and turned collider without being sampled again,
 * with the volumes a full weighing gives; colliders lead the object table whatever else is added. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "world_checks.h"
#include "core/colliders.h"
#include "core/kernels.h"
#include "core/scene.h"
#include "core/solver.h"
#include "solvers/boundary.h"
#include "solvers/sph_family.h"

#define SQRT_HALF 0.70710678118654752440
#define ROTATED_BOX_SCENE FLUIDCAST_TESTS_DIR "/scenes/rotated_box.json"

/* A box turned 90 degrees about z is the box with x and y half extents swapped; turned 45 degrees
 * it reaches where the axis-aligned one did not, and its faces' normals turn with it. */
static void test_rotated_box_geometry(void)
{
    const fc_shape plain = {.kind = FC_SHAPE_BOX, .center = {1, 2, 3}, .half = {0.4f, 0.1f, 0.2f}};
    fc_shape turned = plain, swapped = plain;
    float q[4], n[3], m[3];
    fc_quaternion_from_degrees((float[]){0, 0, 90}, q);
    fc_shape_set_orientation(&turned, q);
    swapped.half[0] = 0.1f, swapped.half[1] = 0.4f;
    double worst = 0.0;
    for (int i = 0; i < 1000; i++) { /* points around the box */
        const float p[3] = {1.0f + 0.9f * sinf(0.37f * (float)i), 2.0f + 0.9f * cosf(0.53f * (float)i),
                            3.0f + 0.5f * sinf(0.71f * (float)i)};
        float d1 = fc_shape_distance(&turned, p, n), d2 = fc_shape_distance(&swapped, p, m);
        worst = fmax(worst, fabs(d1 - d2) + fabs(n[0] - m[0]) + fabs(n[1] - m[1]) + fabs(n[2] - m[2]));
    }
    CHECK(worst < 1e-5, "turned 90 degrees about z it is the swapped box: worst difference %g", worst);
    fc_quaternion_from_degrees((float[]){0, 0, 45}, q);
    fc_shape_set_orientation(&turned, q);
    /* 0.13 m above the centre: outside the axis-aligned box (top at 0.1), inside the turned one,
     * whose local y there is 0.13 cos 45 = 0.092 < 0.1 and local x 0.092 < 0.4 */
    const float above[3] = {1.0f, 2.13f, 3.0f};
    float d = fc_shape_distance(&plain, above, n);
    const float d_turned = fc_shape_distance(&turned, above, m);
    CHECK(fabsf(d - 0.03f) < 1e-5f, "0.13 m above the centre is 0.03 m above the axis-aligned box: %g", d);
    CHECK(d_turned < 0.0f && fabsf(d_turned - (0.13f * (float)SQRT_HALF - 0.1f)) < 1e-5f,
          "45 degrees about z: 0.13 m above the centre is %g m inside (expected %g)", d_turned,
          0.13f * (float)SQRT_HALF - 0.1f);
    /* 0.05 m off the face local +y, whose normal is the turned y axis (-sin 45, cos 45, 0) */
    const float off_face[3] = {1.0f - 0.15f * (float)SQRT_HALF, 2.0f + 0.15f * (float)SQRT_HALF, 3.0f};
    d = fc_shape_distance(&turned, off_face, n);
    CHECK(fabsf(d - 0.05f) < 1e-5f && fabsf(n[0] + (float)SQRT_HALF) < 1e-5f && fabsf(n[1] - (float)SQRT_HALF) < 1e-5f &&
              fabsf(n[2]) < 1e-6f,
          "0.05 m off the turned face: distance %g, normal (%g, %g, %g)", d, n[0], n[1], n[2]);
    /* Euler angles round trip (x, then y, then z) */
    const float degrees[3] = {20.0f, -35.0f, 70.0f};
    float back[3];
    fc_quaternion_from_degrees(degrees, q);
    fc_shape_set_orientation(&turned, q);
    fc_shape_rotation_degrees(&turned, back);
    CHECK(fabsf(back[0] - 20.0f) < 1e-3f && fabsf(back[1] + 35.0f) < 1e-3f && fabsf(back[2] - 70.0f) < 1e-3f,
          "Euler angles come back: %g %g %g", back[0], back[1], back[2]);
    float extent[3];
    fc_quaternion_from_degrees((float[]){0, 0, 90}, q);
    fc_shape_set_orientation(&turned, q);
    fc_shape_extent(&turned, extent);
    CHECK(fabsf(extent[0] - 0.1f) < 1e-6f && fabsf(extent[1] - 0.4f) < 1e-6f && fabsf(extent[2] - 0.2f) < 1e-6f,
          "its bounding box turns with it: %g %g %g", extent[0], extent[1], extent[2]);
}

/* Scenes give a box's rotation as [x, y, z] degrees, a 2D scene as one number about z; a wrong
 * one is refused naming its key. */
static void test_scene_rotations(void)
{
    fc_scene scene;
    char err[512] = "";
    const char *flat = "{\"dimensions\": 2, \"domain\": {\"min\": [0, 0], \"max\": [1, 1]}, \"colliders\": [{\"type\": "
                       "\"box\", \"center\": [0.5, 0.5], \"half_extents\": [0.2, 0.05], \"rotation\": 30}]}";
    if (fc_scene_parse_string(&scene, flat, "flat.json", err, sizeof err) == 0) {
        const fc_object *box = fc_objects_next(&scene.objects, FC_OBJECT_COLLIDER, NULL);
        float degrees[3];
        fc_shape_rotation_degrees(&box->shape, degrees);
        CHECK(box->shape.rotated && fabsf(degrees[2] - 30.0f) < 1e-3f && fabsf(degrees[0]) < 1e-4f &&
                  fabsf(degrees[1]) < 1e-4f,
              "a 2D scene's rotation 30 turns the box about z: %g %g %g", degrees[0], degrees[1], degrees[2]);
        fc_scene_free(&scene);
    } else {
        CHECK(0, "the 2D scene with a turned box parses: %s", err);
    }
    const char *wrong = "{\"domain\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1]}, \"colliders\": [{\"type\": \"box\", "
                        "\"center\": [0.5, 0.5, 0.5], \"half_extents\": [0.2, 0.05, 0.1], \"rotation\": [10, 20]}]}";
    CHECK(fc_scene_parse_string(&scene, wrong, "wrong.json", err, sizeof err) == -1 &&
              strstr(err, "colliders[0].rotation") != NULL,
          "a 3D rotation of two numbers is refused on its key: %s", err);
    const char *sphere = "{\"domain\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1]}, \"colliders\": [{\"type\": \"sphere\", "
                         "\"center\": [0.5, 0.5, 0.5], \"radius\": 0.1, \"rotation\": [10, 20, 0]}]}";
    CHECK(fc_scene_parse_string(&scene, sphere, "sphere.json", err, sizeof err) == -1 && strstr(err, "rotation") != NULL,
          "a sphere's rotation is an unknown key: %s", err);
}

static int load(fc_world *w, const char *solver)
{
    fc_scene scene;
    char err[512] = "";
    if (fc_scene_parse_file(&scene, ROTATED_BOX_SCENE, err, sizeof err)) {
        CHECK(0, "the rotated box scene parses: %s", err);
        return -1;
    }
    snprintf(scene.solver, sizeof scene.solver, "%s", solver);
    const int rc = fc_scene_instantiate(&scene, w, err, sizeof err);
    fc_scene_free(&scene);
    CHECK(rc == 0, "the rotated box scene builds with %s: %s", solver, err);
    if (rc == 0) fc_solver_fit_time_step(w->solver, &w->params); /* PBF's longer step, as a switch to it gives */
    return rc;
}

/* The fluid's deepest point inside the world's first collider (negative: inside), over every particle. */
static double deepest_inside(const fc_world *w, const fc_shape *box)
{
    double deepest = INFINITY;
    float n[3];
    for (size_t i = 0; i < w->particles.count; i++) {
        const float p[3] = {w->particles.field[FC_PX][i], w->particles.field[FC_PY][i], w->particles.field[FC_PZ][i]};
        deepest = fmin(deepest, fc_shape_distance(box, p, n));
    }
    return deepest;
}

/* Water falls 0.16 m onto the turned box: no particle centre ever gets inside it, and some water
 * runs off below its top (the box turns the flow aside rather than holding it). */
static void test_rotated_box_keeps_fluid_out(const char *solver)
{
    fc_world w;
    if (load(&w, solver)) return;
    const fc_object *box = fc_objects_next(&w.objects, FC_OBJECT_COLLIDER, NULL);
    CHECK(box && box->shape.rotated, "%s: the scene's box is rotated", solver);
    if (!box) return fc_world_free(&w);
    double deepest = INFINITY;
    int steps = 0;
    while (w.time < 0.4 && steps < 4000) {
        if (fc_world_step(&w) != FC_STEP_DONE) break;
        steps++;
        if (steps % 10 == 0) deepest = fmin(deepest, deepest_inside(&w, &box->shape));
    }
    size_t below = 0;
    for (size_t i = 0; i < w.particles.count; i++) below += w.particles.field[FC_PY][i] < 0.12f;
    printf("%s rotated box: %d steps to t = %.3f s, deepest particle %.4f m from the box's surface, %zu of %zu below "
           "it\n", solver, steps, w.time, deepest, below, w.particles.count);
    CHECK(w.time >= 0.4, "%s: 0.4 s stepped (t = %g)", solver, w.time);
    CHECK(deepest > 0.0, "%s: no particle centre gets inside the turned box (deepest %g m)", solver, deepest);
    CHECK(below > w.particles.count / 10, "%s: the water runs off it to the floor (%zu particles below)", solver, below);
    CHECK(outside_distance(&w) == 0.0, "%s: every particle in the domain", solver);
    fc_world_free(&w);
}

/* Emitters and sinks added before a collider do not come between the colliders: the collision
 * code reads the first collider_count rows as solids, so a collider added after them still pushes a
 * point out, no emitter is taken for a solid, and each kind keeps the order and ids it was added with. */
static void test_colliders_lead_the_table(void)
{
    fc_world w;
    if (load(&w, "sph")) return;
    const int box = fc_objects_next(&w.objects, FC_OBJECT_COLLIDER, NULL)->id;
    const float down[3] = {0.0f, -1.0f, 0.0f};
    int emitters[3];
    for (int e = 0; e < 3; e++) {
        const float at[3] = {0.1f + 0.1f * (float)e, 0.55f, 0.15f};
        const fc_object row = fc_emitter_row(at, down, 0.02f, 1.0f, 0.0f, 0);
        emitters[e] = fc_world_add_object(&w, &row);
    }
    const fc_shape drain = {.kind = FC_SHAPE_SPHERE, .center = {0.5f, 0.05f, 0.15f}, .radius = 0.03f};
    const fc_object sink = fc_sink_row(&drain);
    const int sink_id = fc_world_add_object(&w, &sink);
    const fc_shape ball = {.kind = FC_SHAPE_SPHERE, .center = {0.1f, 0.45f, 0.15f}, .radius = 0.04f};
    const int ball_id = fc_world_add_collider(&w, &ball);
    CHECK(fc_world_remove_object(&w, emitters[1]) == 0, "an emitter is removed");

    const fc_object *rows = w.objects.rows;
    CHECK(w.objects.count == 5 && rows[0].id == box && rows[1].id == ball_id && rows[2].id == emitters[0] &&
              rows[3].id == emitters[2] && rows[4].id == sink_id,
          "the rows: the two colliders in the order added, then the other rows in the order added (%zu rows)",
          w.objects.count);
    fc_collision c;
    fc_collision_init(&c, &w, FC_WALLS_CLAMP, 1);
    CHECK(c.collider_count == 2 && c.colliders[0].id == box && c.colliders[1].id == ball_id,
          "the collision sees the box and the ball (%zu colliders)", c.collider_count);
    float n[3], x[3] = {0.1f, 0.47f, 0.15f}, v[3] = {0.0f, -1.0f, 0.0f};
    const float before = fc_shape_distance(&ball, x, n);
    fc_collide_point(&c, x, v);
    const float after = fc_shape_distance(&ball, x, n);
    CHECK(before < 0.0f && after > before && v[1] > -1.0f,
          "a point inside the ball added after the emitters is pushed out (%g -> %g m) and slowed (v_y %g)", before,
          after, v[1]);
    float under_emitter[3] = {0.1f, 0.549f, 0.15f}, still[3] = {0.0f, 0.0f, 0.0f};
    fc_collide_point(&c, under_emitter, still);
    CHECK(under_emitter[1] == 0.549f && still[1] == 0.0f, "a point at an emitter's disc is left alone (y %g)",
          under_emitter[1]);
    fc_world_free(&w);
}

/* Akinci et al. 2012's volume of sample i over every sample, by brute force: min(V0, 1 / sum W). */
static double brute_volume(const fc_boundary *b, size_t i, double h, double poly6, double rest_volume)
{
    const double h2 = h * h;
    double sum = 0.0;
    for (size_t j = 0; j < b->count; j++) {
        const double dx = b->x[i] - b->x[j], dy = b->y[i] - b->y[j], dz = b->z[i] - b->z[j];
        const double r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < h2) sum += (h2 - r2) * (h2 - r2) * (h2 - r2);
    }
    return fmin(1.0 / (poly6 * sum), rest_volume);
}

/* Distance of v from the nearest lattice coordinate lo + (k + 1/2) s. */
static double off_lattice(double v, double lo, double s)
{
    const double k = (v - lo) / s - 0.5;
    return fabs(k - round(k)) * s;
}

/* A box collider moved and turned by a collider_move's worth of change: its samples follow it
 * (same count, each the lattice point it was sampled at carried by the move), the container's
 * stay as they were, and every volume is what a full weighing of the new positions gives. */
static void test_samples_follow_a_move(void)
{
    fc_world w;
    if (load(&w, "sph")) return;
    const fc_boundary *b = fc_sph_family_boundary(&w);
    fc_object *box = fc_objects_next(&w.objects, FC_OBJECT_COLLIDER, NULL);
    if (!b || !box) {
        CHECK(0, "the world has a boundary and a box");
        return fc_world_free(&w);
    }
    const size_t count = b->count;
    size_t own = 0;
    double container_sum = 0.0;
    for (size_t i = 0; i < b->count; i++) {
        if (b->owner[i]) own++;
        else container_sum += 3.0 * b->x[i] + 5.0 * b->y[i] + 7.0 * b->z[i];
    }
    const fc_shape before = box->shape;
    float q[4];
    box->shape.center[0] += 0.05f, box->shape.center[1] += 0.03f;
    fc_quaternion_from_degrees((float[]){0, 10, 45}, q);
    fc_shape_set_orientation(&box->shape, q);
    fc_world_object_moved(&w, box);
    CHECK(fc_world_step(&w) == FC_STEP_DONE, "a step after the move");
    b = fc_sph_family_boundary(&w);
    size_t own_after = 0, off = 0;
    double container_after = 0.0, worst_lattice = 0.0;
    const double s = w.params.particle_spacing;
    for (size_t i = 0; i < b->count; i++) {
        if (!b->owner[i]) {
            container_after += 3.0 * b->x[i] + 5.0 * b->y[i] + 7.0 * b->z[i];
            continue;
        }
        own_after++;
        /* back through the move: x = c' + R' l, so the old place is c + R l */
        const float x[3] = {b->x[i], b->y[i], b->z[i]};
        double rel[3] = {x[0] - box->shape.center[0], x[1] - box->shape.center[1], x[2] - box->shape.center[2]}, l[3], old[3];
        for (int a = 0; a < 3; a++)
            l[a] = rel[0] * box->shape.axes[a][0] + rel[1] * box->shape.axes[a][1] + rel[2] * box->shape.axes[a][2];
        for (int a = 0; a < 3; a++)
            old[a] = before.center[a] + l[0] * before.axes[0][a] + l[1] * before.axes[1][a] + l[2] * before.axes[2][a];
        for (int a = 0; a < 3; a++) worst_lattice = fmax(worst_lattice, off_lattice(old[a], w.domain_lo[a], s));
        off += off_lattice(x[0], w.domain_lo[0], s) > 1e-3 * s;
    }
    printf("moved box: %zu samples of %zu, worst %.2e m off the lattice when carried back, %zu off it where they are\n",
           own_after, b->count, worst_lattice, off);
    CHECK(b->count == count && own_after == own, "no sampling again: %zu samples (were %zu), the box's %zu (were %zu)",
          b->count, count, own_after, own);
    CHECK(worst_lattice < 1e-5, "each of the box's samples is a lattice point carried by the move (worst %g m)",
          worst_lattice);
    CHECK(off > own / 2, "they are not on the lattice where they are now (%zu of %zu off it)", off, own);
    CHECK(fabs(container_after - container_sum) <= 1e-9 * fabs(container_sum), "the container's samples stay");
    const float h = (float)w.params.smoothing_radius;
    const double poly6 = fc_poly6_coefficient(h, w.dimensions), v0 = fc_sph_rest_volume(&w);
    double worst = 0.0;
    for (size_t i = 0; i < b->count; i++)
        worst = fmax(worst, fabs(b->volume[i] / brute_volume(b, i, h, poly6, v0) - 1.0));
    CHECK(worst < 1e-5, "every volume is the full weighing's after the move (worst relative difference %.2e)", worst);
    fc_world_free(&w);
}

int main(void)
{
    test_rotated_box_geometry();
    test_scene_rotations();
    test_rotated_box_keeps_fluid_out("sph");
    test_rotated_box_keeps_fluid_out("pbf");
    test_samples_follow_a_move();
    test_colliders_lead_the_table();
    return check_summary("test_objects");
}
