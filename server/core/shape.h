/* A solid shape (box, sphere, plane): colliders, sinks and the container's planes; plain data for C and CUDA. */
#ifndef FC_SHAPE_H
#define FC_SHAPE_H

typedef enum { FC_SHAPE_BOX, FC_SHAPE_SPHERE, FC_SHAPE_PLANE } fc_shape_kind;

/* A solid shape. The fluid stays outside boxes and spheres and on the normal's side of a plane. */
typedef struct fc_shape {
    fc_shape_kind kind;
    int id;            /* a collider's id in its world (fc_world_add_collider), else 0 */
    float center[3];   /* box, sphere */
    float half[3];     /* box half extents */
    float radius;      /* sphere */
    float normal[3];   /* plane: unit normal, pointing into the fluid */
    float offset;      /* plane: normal . x = offset on the plane */
    float velocity[3]; /* m/s, a moving collider's (collider_move); the collision response uses it */
} fc_shape;

#endif
