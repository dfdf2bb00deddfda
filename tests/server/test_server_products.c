/* Server over real sockets: products beside the particle frames (PROTOCOL.md 6). A client that names
 * the census gets it, made on its worker thread from the newest snapshot and deliberately slow here
 * (FLUIDCAST_TEST_PRODUCT_DELAY): the worker skips the publications it is too busy for, the world's
 * step rate with it stays at least 80% of the rate without it, and what it says agrees with the
 * particles (every particle counted once, the centre of mass inside the bounds and falling from where
 * the block started). A census-only client gets no frames; an unknown product is refused. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "frame_format.h"
#include "test_env.h"

static test_env env;

#define DELAY_S 0.2
#define WINDOW_MS 3000
#define MAX_ROUNDS 3

/* Rounds of rate windows: three, or one in the sanitizer builds (FC_TEST_RATES_UNCHECKED), whose step
 * rates say nothing of the product's cost and are not compared. */
static int rounds = MAX_ROUNDS, rates_checked = 1;

typedef struct census {
    unsigned version, dimensions, fluids;
    uint32_t world, sequence, particles;
    double time;
    uint32_t count[16];
    float centre[16][3], lo[16][3], hi[16][3];
} census;

/* The peer's newest census message decoded; 0, or -1 when it is not one. */
static int read_census(const peer *p, census *c)
{
    const uint8_t *d = p->last_product;
    if (p->last_product_len < 32 || memcmp(d, "FCCS", 4) != 0) return -1;
    c->version = d[4], c->dimensions = d[5], c->fluids = fc_get_u16(d + 6);
    c->world = fc_get_u32(d + 8), c->sequence = fc_get_u32(d + 16), c->particles = fc_get_u32(d + 20);
    c->time = fc_get_f64(d + 24);
    if (c->fluids < 1 || c->fluids > 16 || p->last_product_len != 32 + 40 * (size_t)c->fluids) return -1;
    for (unsigned f = 0; f < c->fluids; f++) {
        const uint8_t *o = d + 32 + 40 * f;
        c->count[f] = fc_get_u32(o);
        for (int a = 0; a < 3; a++)
            c->centre[f][a] = fc_get_f32(o + 4 + 4 * a), c->lo[f][a] = fc_get_f32(o + 16 + 4 * a),
            c->hi[f][a] = fc_get_f32(o + 28 + 4 * a);
    }
    return 0;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Subscribes with these products; 1 when acked with exactly `applied` (a JSON array's text). */
static int subscribe_products(peer *p, const char *products, const char *applied)
{
    char extra[200];
    snprintf(extra, sizeof extra, "\"products\":%s,\"max_fps\":30", products);
    cJSON *r = peer_subscribe(p, 1, extra);
    char *got = cJSON_PrintUnformatted(jget(r, "applied.products"));
    int ok = jtype_is(r, "ack") && got && strcmp(got, applied) == 0;
    CHECK(ok, "subscribe with products %s is acked with %s: %s", products, applied, jtext(r));
    free(got);
    cJSON_Delete(r);
    return ok;
}

/* The census agrees with the world: every particle counted once, the centre inside the bounds and the
 * bounds inside the tank (small_tank: 0.6 x 0.5 x 0.4 m). */
static void check_census_content(const census *c, double particles)
{
    CHECK(c->version == 1 && c->dimensions == 3 && c->world == 1 && c->fluids == 1,
          "census: version 1, 3D, world 1, one fluid (%u, %u, %u, %u)", c->version, c->dimensions, c->world, c->fluids);
    CHECK(c->particles == (uint32_t)particles && c->count[0] == c->particles,
          "census: %u particles, %u of the fluid, as the state says %g", c->particles, c->count[0], particles);
    const float tank[3] = {0.6f, 0.5f, 0.4f};
    int inside = 1;
    for (int a = 0; a < 3; a++)
        inside &= c->lo[0][a] >= -1e-3f && c->hi[0][a] <= tank[a] + 1e-3f && c->lo[0][a] <= c->centre[0][a] &&
                  c->centre[0][a] <= c->hi[0][a];
    CHECK(inside, "census: centre (%g, %g, %g) within bounds (%g..%g, %g..%g, %g..%g) within the tank", c->centre[0][0],
          c->centre[0][1], c->centre[0][2], c->lo[0][0], c->hi[0][0], c->lo[0][1], c->hi[0][1], c->lo[0][2], c->hi[0][2]);
}

/* Rounds with and without the census, alternating; the median step rate with it at least 80% of
 * the one without (a census on its worker must not slow the world; a faster round with it is the
 * busy machine's noise, as is a slower one by a few percent). */
static void check_rates_and_census(peer *p)
{
    double without[MAX_ROUNDS], with[MAX_ROUNDS];
    long messages = 0, frames = 0;
    census first = {0}, last = {0};
    for (int r = 0; r < rounds; r++) {
        if (!subscribe_products(p, "[\"particles\"]", "[\"particles\"]")) return;
        peer_steps_per_second(p, 500);
        without[r] = peer_steps_per_second(p, WINDOW_MS);
        if (!subscribe_products(p, "[\"particles\",\"census\"]", "[\"particles\",\"census\"]")) return;
        long products_before = p->products, frames_before = p->follow.frames;
        peer_steps_per_second(p, 500);
        census c;
        if (r == 0) { /* the first census of this subscription, to compare the last one with */
            for (int64_t end = ws_now_ms() + 2000; p->products == products_before && ws_now_ms() < end;) peer_pump(p, 50);
            CHECK(read_census(p, &first) == 0, "a census arrives within 2.5 s of subscribing (%ld messages)",
                  p->products - products_before);
        }
        with[r] = peer_steps_per_second(p, WINDOW_MS);
        messages += p->products - products_before, frames += p->follow.frames - frames_before;
        CHECK(read_census(p, &c) == 0, "round %d: the newest product message is a census (%zu bytes)", r,
              p->last_product_len);
        last = c;
        printf("round %d: %.0f steps/s without the census, %.0f with it\n", r, without[r], with[r]);
    }
    const double rate_without = median(without, rounds), rate_with = median(with, rounds);
    printf("census: %ld messages and %ld frames in %d windows of %.1f s; medians %.0f and %.0f steps/s\n", messages,
           frames, rounds, (WINDOW_MS + 500) / 1000.0, rate_without, rate_with);
    if (rates_checked)
        CHECK(rate_without > 0 && rate_with >= 0.8 * rate_without,
              "the step rate with the slow census (%.0f/s) is at least 80%% of the rate without it (%.0f/s)", rate_with,
              rate_without);
    else
        printf("a sanitizer build: the step rates are not compared\n");
    /* a make takes DELAY_S: a worker that waited for every publication (30 a second) would fall behind */
    const double seconds = rounds * (WINDOW_MS + 500) / 1000.0, most = seconds / DELAY_S + rounds;
    CHECK(messages >= seconds / DELAY_S / 3 && messages <= most,
          "the busy worker skips publications: %ld census messages in %.1f s (at most %.0f), %ld frames", messages,
          seconds, most, frames);
    CHECK(frames > 2 * messages, "frames keep their own rate beside the slow product: %ld frames, %ld census", frames,
          messages);
    check_census_content(&last, jnum(p->state, "particles"));
    CHECK(last.sequence > first.sequence && last.time > first.time, "the census follows the world: sequence %u then %u",
          first.sequence, last.sequence);
    /* the block slumps within the first second; by the first census it may have settled (or, where
     * the world steps slowly, under ThreadSanitizer, barely started), so the first census need only
     * be at or below the start, the last a centimetre below it and not above the first */
    CHECK(first.centre[0][1] <= 0.151f && last.centre[0][1] < 0.14f && last.centre[0][1] > 0.02f &&
              last.centre[0][1] <= first.centre[0][1] + 0.005f,
          "the slumping block's centre of mass falls from where it started (0.15 m) and stays down: y %.3f m at "
          "%.2f s, %.3f m at %.2f s",
          first.centre[0][1], first.time, last.centre[0][1], last.time);
}

/* A client that wants the census only: census messages, no frames. An unknown product: refused, the
 * subscription as it was. */
static void check_census_only_and_refusal(int port)
{
    peer q;
    if (expect_hello(&q, port, "census-only", NULL, NULL) != 0) return;
    if (subscribe_products(&q, "[\"census\"]", "[\"census\"]")) {
        peer_pump(&q, 2000);
        CHECK(q.products >= 3 && q.follow.frames == 0 && q.binaries == q.products,
              "a census-only subscriber gets census messages (%ld) and no frames (%ld of %ld binaries)", q.products,
              q.follow.frames, q.binaries);
        cJSON *r = peer_subscribe(&q, 1, "\"products\":[\"particles\",\"mesh\"]");
        CHECK(is_error(r, "bad_value", "products[1]") && jstr_has(r, "message", "census"),
              "an unknown product is refused, naming it and the products: %s", jtext(r));
        cJSON_Delete(r);
        long products = q.products, binaries = q.binaries;
        peer_pump(&q, 1000);
        CHECK(q.products > products && q.binaries - binaries == q.products - products,
              "after the refusal the census subscription is as it was (%ld more census, %ld more binaries)",
              q.products - products, q.binaries - binaries);
    }
    peer_close(&q);
}

int main(int argc, char **argv)
{
    test_env_init(&env, argc, argv);
    if (!test_rates_checked()) rounds = 1, rates_checked = 0;
    char delay[32];
    snprintf(delay, sizeof delay, "%g", DELAY_S);
    setenv("FLUIDCAST_TEST_PRODUCT_DELAY", delay, 1);
    server_process server;
    if (test_server_start(&server, &env, "--port", "0", "--scene", test_scene(&env, "small_tank"), "--fast", "--threads", "1",
                          NULL) != 0) {
        CHECK(0, "the server starts");
        return check_summary("test_server_products");
    }
    peer watcher;
    if (expect_hello(&watcher, server.port, "watcher", NULL, NULL) == 0) check_rates_and_census(&watcher);
    peer_close(&watcher);
    check_census_only_and_refusal(server.port);
    CHECK(test_server_stop(&server) == 0, "the server exits 0");
    return check_summary("test_server_products");
}
