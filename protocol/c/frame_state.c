/* Storage of the per-particle stream state, shared by the frame encoder and decoder. */
#include "frame_state.h"

#include <stdlib.h>

const char *const fc_attribute_names[FC_ATTR_COUNT] = {"speed", "density", "temperature", "fluid",
#ifdef FC_EXTRA_ATTRIBUTE
                                                       FC_EXTRA_ATTRIBUTE
#endif
};

const char *fc_codec_status_name(fc_codec_status status)
{
    switch (status) {
    case FC_CODEC_OK: return "ok";
    case FC_CODEC_NEED_KEY: return "need_key";
    case FC_CODEC_CORRUPT: return "corrupt";
    case FC_CODEC_BAD_INPUT: return "bad_input";
    case FC_CODEC_NO_MEMORY: return "no_memory";
    }
    return "unknown";
}

int fc_bytes_reserve(fc_bytes *b, size_t capacity)
{
    if (capacity <= b->capacity) return 0;
    uint8_t *data = realloc(b->data, capacity);
    if (!data) return -1;
    b->data = data;
    b->capacity = capacity;
    return 0;
}

void fc_bytes_free(fc_bytes *b)
{
    free(b->data);
    *b = (fc_bytes){0};
}

static int grow(void **array, size_t n, size_t element_size)
{
    void *p = realloc(*array, (n ? n : 1) * element_size);
    if (!p) return -1;
    *array = p;
    return 0;
}

int fc_particle_state_reserve(fc_particle_state *s, size_t n)
{
    if (n <= s->capacity && s->id) return 0;
    size_t capacity = n > s->capacity * 5 / 4 ? n : s->capacity * 5 / 4;
    int failed = grow((void **)&s->id, capacity, sizeof *s->id);
    for (int a = 0; a < 3; a++) {
        failed |= grow((void **)&s->q[a], capacity, sizeof *s->q[a]);
        failed |= grow((void **)&s->v[a], capacity, sizeof *s->v[a]);
    }
    for (int a = 0; a < FC_ATTR_COUNT; a++) failed |= grow((void **)&s->attr[a], capacity, 1);
    if (failed) return -1; /* the arrays that grew are kept; capacity stays at the old size */
    s->capacity = capacity;
    return 0;
}

void fc_particle_state_free(fc_particle_state *s)
{
    free(s->id);
    for (int a = 0; a < 3; a++) free(s->q[a]), free(s->v[a]);
    for (int a = 0; a < FC_ATTR_COUNT; a++) free(s->attr[a]);
    *s = (fc_particle_state){0};
}

void fc_particle_state_swap(fc_particle_state *a, fc_particle_state *b)
{
    fc_particle_state t = *a;
    *a = *b;
    *b = t;
}

uint32_t fc_particle_state_checksum(const fc_particle_state *s)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < s->count; i++)
        sum += fc_checksum_term(s->id[i], s->q[0][i], s->q[1][i], s->q[2][i]);
    return sum;
}
