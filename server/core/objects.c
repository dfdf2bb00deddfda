/* The object table: rows added, removed, found, counted and copied. */
#include "core/objects.h"

#include <stdlib.h>
#include <string.h>

const char *const fc_wall_names[6] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};

const char *fc_object_kind_name(fc_object_kind kind)
{
    static const char *const names[FC_OBJECT_KIND_COUNT] = {"collider", "sink", "emitter"};
    return kind < FC_OBJECT_KIND_COUNT ? names[kind] : "object";
}

int fc_objects_add(fc_objects *t, const fc_object *row)
{
    fc_object *grown = realloc(t->rows, (t->count + 1) * sizeof *grown);
    if (!grown) return -1;
    t->rows = grown;
    size_t at = t->count; /* a collider goes after the last collider, any other row last */
    if (row->kind == FC_OBJECT_COLLIDER)
        for (at = 0; at < t->count && t->rows[at].kind == FC_OBJECT_COLLIDER;) at++;
    memmove(&t->rows[at + 1], &t->rows[at], (t->count - at) * sizeof *t->rows);
    t->rows[at] = *row;
    t->rows[at].id = t->next_id;
    t->count++;
    return t->next_id++;
}

int fc_objects_remove(fc_objects *t, int id)
{
    for (size_t i = 0; i < t->count; i++) {
        if (t->rows[i].id != id) continue;
        memmove(&t->rows[i], &t->rows[i + 1], (t->count - i - 1) * sizeof *t->rows);
        t->count--;
        return 0;
    }
    return -1;
}

fc_object *fc_objects_find(const fc_objects *t, int id, fc_object_kind kind)
{
    for (size_t i = 0; i < t->count; i++)
        if (t->rows[i].id == id && t->rows[i].kind == kind) return &t->rows[i];
    return NULL;
}

fc_object *fc_objects_next(const fc_objects *t, fc_object_kind kind, const fc_object *after)
{
    for (size_t i = after ? (size_t)(after - t->rows) + 1 : 0; i < t->count; i++)
        if (t->rows[i].kind == kind) return &t->rows[i];
    return NULL;
}

size_t fc_objects_count(const fc_objects *t, fc_object_kind kind)
{
    size_t n = 0;
    for (size_t i = 0; i < t->count; i++) n += t->rows[i].kind == kind;
    return n;
}

size_t fc_objects_movable_colliders(const fc_objects *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->count; i++)
        n += t->rows[i].kind == FC_OBJECT_COLLIDER && t->rows[i].shape.kind != FC_SHAPE_PLANE;
    return n;
}

int fc_objects_copy(fc_objects *dst, const fc_objects *src)
{
    fc_object *rows = realloc(dst->rows, (src->count ? src->count : 1) * sizeof *rows);
    if (!rows) return -1;
    if (src->count) memcpy(rows, src->rows, src->count * sizeof *rows);
    dst->rows = rows;
    dst->count = src->count;
    dst->next_id = src->next_id;
    return 0;
}

size_t fc_objects_shapes(const fc_objects *t, fc_object_kind kind, fc_shape *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < t->count && n < max; i++)
        if (t->rows[i].kind == kind) out[n++] = t->rows[i].shape;
    return n;
}

void fc_objects_free(fc_objects *t)
{
    free(t->rows);
    memset(t, 0, sizeof *t);
}
