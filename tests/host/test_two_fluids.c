/* The two-fluid scene (scenes/two_fluids.json, issue 14): it builds with its two fluids, streams
 * the fluid attribute (each particle's fluid index, through encoder and decoder), and its more
 * viscous block spreads measurably slower than the other in the same tank, while the same scene
 * with equal viscosities spreads alike on both sides; set on water.viscosity changes only water,
 * and a bad fluid name is refused with nothing changed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/scene.h"
#include "frame_decoder.h"
#include "frame_encoder.h"
#include "host/command.h"
#include "host/snapshot.h"
#include "message.h"

enum { WATER = 0, HONEY = 1 };
#define TANK 1.6 /* the tank's length; water starts at x = 0, honey at x = TANK, each 0.3 m wide */

static int build(fc_world *w, const char *set)
{
    char path[4096], err[1024];
    fc_scene s;
    if (fc_scene_resolve("two_fluids", path, sizeof path) || fc_scene_parse_file(&s, path, err, sizeof err)) {
        CHECK(0, "two_fluids parses: %s", err);
        return -1;
    }
    int rc = set ? fc_param_assign_scoped(&s.params, s.fluids, s.fluid_count, set, err, sizeof err) : 0;
    rc = rc || fc_scene_instantiate(&s, w, err, sizeof err);
    fc_scene_free(&s);
    CHECK(rc == 0, "two_fluids builds%s%s: %s", set ? " with " : "", set ? set : "", err);
    return rc ? -1 : 0;
}

/* How far each block's front has run from its wall: water's rightmost particle, honey's leftmost. */
static void fronts(const fc_world *w, double *water, double *honey)
{
    const fc_particles *p = &w->particles;
    *water = 0.0, *honey = 0.0;
    for (size_t i = 0; i < p->count; i++) {
        double x = p->field[FC_PX][i];
        if (p->u8[FC_FLUID][i] == WATER) *water = fmax(*water, x);
        else *honey = fmax(*honey, TANK - x);
    }
}

static void test_streams_fluid(fc_world *w)
{
    size_t of[2] = {0, 0};
    for (size_t i = 0; i < w->particles.count; i++) of[w->particles.u8[FC_FLUID][i] != 0]++;
    CHECK(w->fluid_count == 2 && of[0] == 4500 && of[1] == 4500, "4,500 particles of each fluid: %zu, %zu", of[0], of[1]);
    fc_snapshot_buffer buffer = {0};
    fc_snapshot snap;
    fc_stream_config config = {.world = 1, .epoch = 1, .bits = 12, .tier = 1, .attributes = 1u << FC_ATTR_FLUID};
    memcpy(config.lo, w->domain_lo, sizeof config.lo);
    memcpy(config.hi, w->domain_hi, sizeof config.hi);
    fc_snapshot_attribute_range(w, FC_ATTR_FLUID, &config.attr_lo[FC_ATTR_FLUID], &config.attr_hi[FC_ATTR_FLUID]);
    char err[256] = "";
    fc_frame_encoder *enc = fc_frame_encoder_new(&config, err, sizeof err);
    fc_frame_decoder *dec = fc_frame_decoder_new(0);
    fc_bytes frame = {0};
    int ok = fc_snapshot_take(&buffer, w, config.attributes, 0, 1, &snap) == 0 && enc && dec &&
             fc_frame_encoder_push(enc, &snap, &frame, err, sizeof err) == FC_CODEC_OK &&
             fc_frame_decode(dec, frame.data, frame.size, err, sizeof err) == FC_CODEC_OK;
    CHECK(ok, "a frame with the fluid attribute encodes and decodes: %s", err);
    if (ok) {
        const fc_particle_state *s = fc_frame_decoder_particles(dec);
        size_t honey = 0, left_is_water = 1;
        for (size_t i = 0; i < s->count; i++) {
            honey += s->attr[FC_ATTR_FLUID][i] == HONEY;
            double x = w->domain_lo[0] + s->q[0][i] * (w->domain_hi[0] - w->domain_lo[0]) / 4095.0;
            left_is_water &= (s->attr[FC_ATTR_FLUID][i] == WATER) == (x < 0.5 * TANK);
        }
        CHECK(s->count == 9000 && honey == 4500 && left_is_water,
              "the stream says which particles are honey (%zu) and they are the right-hand block", honey);
    }
    fc_bytes_free(&frame);
    fc_frame_encoder_free(enc);
    fc_frame_decoder_free(dec);
    fc_snapshot_buffer_free(&buffer);
}

/* set through the command path, as a client sends it; 0 or -1 with err. */
static int set(fc_world *w, const char *values, fc_message_error *err)
{
    char text[256];
    snprintf(text, sizeof text, "{\"type\": \"set\", \"world\": 1, \"values\": %s}", values);
    cJSON *msg = NULL, *applied = cJSON_CreateObject();
    fc_command cmd;
    int rc = fc_message_parse(text, strlen(text), err, &msg) || fc_command_from_message(msg, 1, &cmd, err) ||
                     fc_command_apply_to_world(w, &cmd, applied, err)
                 ? -1
                 : 0;
    cJSON_Delete(msg);
    cJSON_Delete(applied);
    return rc;
}

static void test_set_one_fluid(fc_world *w)
{
    fc_message_error err;
    const double honey = w->fluids[HONEY].viscosity;
    CHECK(set(w, "{\"water.viscosity\": 0.5}", &err) == 0 && w->fluids[WATER].viscosity == 0.5 &&
              w->fluids[HONEY].viscosity == honey,
          "set water.viscosity changes water's only: %s", err.message);
    fc_params before = w->params;
    fc_fluid fluids[FC_MAX_FLUIDS];
    memcpy(fluids, w->fluids, sizeof fluids);
    CHECK(set(w, "{\"honey.viscosity\": 3, \"watr.viscosity\": 2}", &err) == -1 && err.code == FC_ERR_UNKNOWN_PARAMETER &&
              strcmp(err.field, "values.watr.viscosity") == 0 && strstr(err.message, "this world has water, honey"),
          "a bad fluid name is refused naming the fluids: %s", err.message);
    CHECK(memcmp(&before, &w->params, sizeof before) == 0 && memcmp(fluids, w->fluids, sizeof fluids) == 0,
          "and nothing changed, the good value sent with it included");
    CHECK(set(w, "{\"water.viscosity\": 1}", &err) == 0, "water back to 1 Pa s");
}

/* Runs `seconds`; the distances the fronts ran from their blocks' inner faces (0.3 m from the walls). */
static void spread(fc_world *w, double seconds, double *water, double *honey)
{
    while (w->time < seconds && fc_world_step(w) == FC_STEP_DONE) {}
    fronts(w, water, honey);
    *water -= 0.3, *honey -= 0.3;
}

int main(void)
{
    fc_world w;
    if (build(&w, NULL) == 0) {
        test_streams_fluid(&w);
        test_set_one_fluid(&w);
        double water, honey;
        spread(&w, 0.3, &water, &honey);
        printf("two_fluids at t = %.2f s: water's front ran %.3f m, honey's (40x as viscous) %.3f m\n", w.time, water,
               honey);
        CHECK(water > 0.1, "the water collapses: its front ran %.3f m", water);
        CHECK(honey < 0.7 * water, "the honey spreads measurably slower: %.3f m against water's %.3f m", honey, water);
        fc_world_free(&w);
    }
    if (build(&w, "honey.viscosity=1") == 0) { /* the control: both fluids alike */
        double water, honey;
        spread(&w, 0.3, &water, &honey);
        printf("two_fluids with honey at 1 Pa s: fronts ran %.3f m and %.3f m\n", water, honey);
        CHECK(fabs(water - honey) < 0.1 * water, "with equal viscosities both sides spread alike: %.3f m, %.3f m", water,
              honey);
        fc_world_free(&w);
    }
    return check_summary("test_two_fluids");
}
