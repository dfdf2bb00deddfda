/* The convex hull of a particle cloud, its area and volume, and Wadell's sphericity from them. */
#ifndef FC_CONVEX_HULL_H
#define FC_CONVEX_HULL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    int v[3]; /* corners, counter-clockwise seen from outside */
} hull_face;

typedef struct {
    double area, volume;
    int faces; /* 0 when the points span no volume */
} hull_measure;

/* Six times the signed volume of the tetrahedron a b c d: positive when d is on the side that
 * a b c, counter-clockwise, faces. Exact on the snapped integer coordinates (differences of at most
 * HULL_SNAP < 2^17, so every product fits in 64 bits): near-coplanar points cannot make the hull
 * inconsistent. */
static inline int64_t hull_orient(const int64_t *a, const int64_t *b, const int64_t *c, const int64_t *d)
{
    const int64_t u0 = b[0] - a[0], u1 = b[1] - a[1], u2 = b[2] - a[2];
    const int64_t v0 = c[0] - a[0], v1 = c[1] - a[1], v2 = c[2] - a[2];
    const int64_t w0 = d[0] - a[0], w1 = d[1] - a[1], w2 = d[2] - a[2];
    return w0 * (u1 * v2 - u2 * v1) + w1 * (u2 * v0 - u0 * v2) + w2 * (u0 * v1 - u1 * v0);
}

#define HULL_SNAP 100000.0 /* grid steps across the cloud's largest extent */

/* The incremental hull (each point outside the current hull replaces the faces it sees by a fan
 * from their horizon) on the points snapped to a grid of 1/HULL_SNAP of the cloud's extent, then
 * area = sum of the faces' areas and volume = sum of the tetrahedra from an inside point. A point in
 * a face's plane counts as inside it. O(points x faces): for the tests' clouds of some thousands.
 * faces is 0 (and area and volume 0) when the points span no volume or memory ran out. */
static inline hull_measure convex_hull_measure(const double (*x)[3], int n)
{
    hull_measure m = {0.0, 0.0, 0};
    if (n < 4) return m;
    double lo[3] = {x[0][0], x[0][1], x[0][2]}, extent = 0.0;
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) lo[a] = fmin(lo[a], x[i][a]);
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) extent = fmax(extent, x[i][a] - lo[a]);
    if (!(extent > 0.0)) return m;
    const double step = extent / HULL_SNAP;
    int64_t(*q)[3] = malloc((size_t)n * sizeof *q);
    if (!q) return m;
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) q[i][a] = llround((x[i][a] - lo[a]) / step);
    int t[4] = {0, 0, 0, 0}; /* a first tetrahedron: two far points, the farthest from their line, from their plane */
    double best = 0.0;
    for (int i = 1; i < n; i++) {
        double d2 = 0.0;
        for (int a = 0; a < 3; a++) d2 += pow((double)(q[i][a] - q[0][a]), 2);
        if (d2 > best) best = d2, t[1] = i;
    }
    best = 0.0;
    for (int i = 0; i < n; i++) {
        double c2 = 0.0;
        for (int a = 0; a < 3; a++) {
            const int b = (a + 1) % 3, c = (a + 2) % 3;
            c2 += pow((double)(q[t[1]][b] - q[0][b]) * (double)(q[i][c] - q[0][c]) -
                          (double)(q[t[1]][c] - q[0][c]) * (double)(q[i][b] - q[0][b]), 2);
        }
        if (c2 > best) best = c2, t[2] = i;
    }
    int64_t most = 0;
    for (int i = 0; i < n; i++) {
        const int64_t o = hull_orient(q[0], q[t[1]], q[t[2]], q[i]);
        if ((o < 0 ? -o : o) > (most < 0 ? -most : most)) most = o, t[3] = i;
    }
    if (most == 0) { /* flat: no volume */
        free(q);
        return m;
    }
    if (most > 0) { /* the base must face away from the fourth corner */
        const int s = t[1];
        t[1] = t[2], t[2] = s;
    }
    const int cap = 4 * n + 8;
    hull_face *face = malloc((size_t)cap * sizeof *face);
    int *edge = malloc((size_t)cap * 6 * sizeof *edge), *seen = malloc((size_t)cap * sizeof *seen), count = 4;
    if (!face || !edge || !seen) { /* out of memory: no hull (faces 0) */
        free(q), free(face), free(edge), free(seen);
        return m;
    }
    face[0] = (hull_face){{t[0], t[1], t[2]}}, face[1] = (hull_face){{t[0], t[3], t[1]}};
    face[2] = (hull_face){{t[1], t[3], t[2]}}, face[3] = (hull_face){{t[2], t[3], t[0]}};
    for (int i = 0; i < n; i++) {
        int visible = 0;
        for (int f = 0; f < count; f++)
            visible += (seen[f] = hull_orient(q[face[f].v[0]], q[face[f].v[1]], q[face[f].v[2]], q[i]) > 0);
        if (!visible) continue;
        int edges = 0; /* the directed edges of the visible faces; the horizon's have no reverse among them */
        for (int f = 0; f < count; f++)
            if (seen[f])
                for (int k = 0; k < 3; k++) edge[2 * edges] = face[f].v[k], edge[2 * edges + 1] = face[f].v[(k + 1) % 3], edges++;
        int kept = 0;
        for (int f = 0; f < count; f++)
            if (!seen[f]) face[kept++] = face[f];
        count = kept;
        for (int e = 0; e < edges; e++) {
            int reversed = 0;
            for (int o = 0; o < edges && !reversed; o++)
                reversed = edge[2 * o] == edge[2 * e + 1] && edge[2 * o + 1] == edge[2 * e];
            if (!reversed && count < cap) face[count++] = (hull_face){{edge[2 * e], edge[2 * e + 1], i}};
        }
    }
    double inside[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < 4; k++)
        for (int a = 0; a < 3; a++) inside[a] += 0.25 * x[t[k]][a];
    for (int f = 0; f < count; f++) {
        const double *a = x[face[f].v[0]], *b = x[face[f].v[1]], *c = x[face[f].v[2]];
        const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        const double cr[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        m.area += 0.5 * sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]);
        m.volume += (cr[0] * (a[0] - inside[0]) + cr[1] * (a[1] - inside[1]) + cr[2] * (a[2] - inside[2])) / 6.0;
    }
    m.faces = count;
    free(q), free(face), free(edge), free(seen);
    return m;
}

/* Wadell's (1935) sphericity: the area of the sphere of the body's volume over the body's area:
 * 1 for a ball, 0.806 for a cube. */
static inline double wadell_sphericity(hull_measure m)
{
    return m.area > 0.0 ? cbrt(3.14159265358979323846) * pow(6.0 * m.volume, 2.0 / 3.0) / m.area : 0.0;
}

#endif
