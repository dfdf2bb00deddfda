/* A posed shape (box, sphere, plane, disc): colliders, sinks, emitters' discs and the container's planes; plain data for C and CUDA. */
#ifndef FC_SHAPE_H
#define FC_SHAPE_H

typedef enum { FC_SHAPE_BOX, FC_SHAPE_SPHERE, FC_SHAPE_PLANE, FC_SHAPE_DISC } fc_shape_kind;

/* A shape with its pose. The fluid stays outside boxes and spheres and on the normal's side of a
 * plane; a disc (an emitter's) is no solid. A box's faces follow its orientation; spheres, planes
 * and discs keep theirs in their own fields. */
typedef struct fc_shape {
    fc_shape_kind kind;
    float center[3];            /* box, sphere, disc: the position */
    float half[3];              /* box half extents along its own axes */
    float radius;               /* sphere, disc */
    float normal[3];            /* plane: unit normal, pointing into the fluid; disc: the direction it faces */
    float offset;               /* plane: normal . x = offset on the plane */
    float orientation[4];       /* unit quaternion (w, x, y, z) from the shape's axes to the world's
                                   (fc_shape_set_orientation); meaningful when `rotated` */
    float axes[3][3];           /* rotated: axes[a] is the shape's axis a in world coordinates */
    int rotated;                /* 0: the shape's axes are the world's (a zeroed shape is axis-aligned) */
    float velocity[3];          /* m/s, linear (collider_move); the collision response uses it */
    float angular_velocity[3];  /* rad/s about the centre */
} fc_shape;

#endif
