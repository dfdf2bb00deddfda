/* Scene files: every kind of error is rejected naming its key; the shipped scenes load and build. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/colliders.h"
#include "core/scene.h"
#include "core/world.h"
#include "solvers/sph_family.h"

#define DOMAIN "\"domain\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1]}"
#define FLUIDS2 "\"fluids\": [{\"name\": \"water\"}, {\"name\": \"oil\", \"viscosity\": 5}]"

/* A scene string that must fail with a message naming `key` and containing `expected`. */
typedef struct bad_case {
    const char *what;
    const char *json;
    const char *key;      /* key path, as "bad.json: KEY: " (NULL: not checked) */
    const char *expected; /* a substring of the message */
} bad_case;

static const bad_case bad_cases[] = {
    {"malformed JSON", "{\n  \"domain\": {\"min\": [0, 0, 0],\n  \"max\": [1, 1 1]}\n}", NULL, "line 3, column"},
    {"truncated JSON", "{\"domain\": {", NULL, "line 1, column"},
    {"trailing garbage", "{" DOMAIN "} x", NULL, "line 1"},
    {"top level not an object", "[1, 2, 3]", NULL, "a JSON object at the top level, found an array"},
    {"unknown top-level key", "{" DOMAIN ", \"frobnicate\": 1}", "frobnicate",
     "unknown key (expected one of name, description, dimensions, solver, view, domain, walls, parameters, fluids, fluid, colliders, emitters, sinks)"},
    {"duplicate key", "{" DOMAIN ", \"name\": \"a\", \"name\": \"b\"}", "name", "duplicate key"},
    {"missing domain", "{\"name\": \"x\"}", "domain", "found nothing"},
    {"domain not an object", "{\"domain\": [0, 1]}", "domain", "expected an object"},
    {"domain min >= max", "{\"domain\": {\"min\": [0, 1, 0], \"max\": [1, 1, 1]}}", "domain",
     "expected min < max on every axis, found min.y = 1 >= max.y = 1"},
    {"domain missing max", "{\"domain\": {\"min\": [0, 0, 0]}}", "domain.max", "expected an array of 3 numbers"},
    {"unknown key in domain", "{\"domain\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1], \"mid\": 3}}", "domain.mid",
     "unknown key (expected one of min, max)"},
    {"vector of wrong length", "{\"domain\": {\"min\": [0, 0], \"max\": [1, 1, 1]}}", "domain.min",
     "expected an array of 3 numbers, found an array of 2 elements"},
    {"vector with a string", "{\"domain\": {\"min\": [0, \"0\", 0], \"max\": [1, 1, 1]}}", "domain.min",
     "found the string \"0\" at index 1"},
    {"vector not an array", "{\"domain\": {\"min\": 0, \"max\": [1, 1, 1]}}", "domain.min",
     "expected an array of 3 numbers, found the number 0"},
    {"infinite number", "{\"domain\": {\"min\": [0, 0, 0], \"max\": [1, 1e999, 1]}}", "domain.max[1]",
     "expected a finite number"},
    {"number too large for a float", "{\"domain\": {\"min\": [0, 0, 0], \"max\": [1, 1e300, 1]}}", "domain.max[1]",
     "expected a finite number"},
    {"name not a string", "{" DOMAIN ", \"name\": 5}", "name", "expected a string"},
    {"description too long",
     "{" DOMAIN ", \"description\": \"0123456789012345678901234567890123456789012345678901234567890123456789"
     "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"
     "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789\"}",
     "description", "a string of 1 to 255 characters"},
    {"unknown parameter", "{" DOMAIN ", \"parameters\": {\"viscocity\": 1}}", "parameters.viscocity",
     "unknown parameter (did you mean 'viscosity'?)"},
    {"view colour unknown", "{" DOMAIN ", \"view\": {\"colour\": \"rainbow\"}}", "view.colour",
     "expected one of plain, speed, density, temperature, fluid"},
    {"view not an object", "{" DOMAIN ", \"view\": \"fluid\"}", "view", "expected an object"},
    {"view key misspelt", "{" DOMAIN ", \"view\": {\"color\": \"fluid\"}}", "view.color",
     "unknown key (expected one of colour, hide, opacity, cutaway, particle_size)"},
    {"view hides an unknown fluid", "{" DOMAIN ", " FLUIDS2 ", \"view\": {\"hide\": [\"wax\"]}}", "view.hide[0]",
     "no fluid named \"wax\"; the scene's fluids are water, oil"},
    {"view hides every fluid", "{" DOMAIN ", " FLUIDS2 ", \"view\": {\"hide\": [\"water\", \"oil\"]}}", "view.hide",
     "hides every fluid of the scene"},
    {"view hide not an array", "{" DOMAIN ", \"view\": {\"hide\": \"water\"}}", "view.hide", "expected an array of fluid names"},
    {"view opacity too low", "{" DOMAIN ", " FLUIDS2 ", \"view\": {\"opacity\": {\"oil\": 0}}}", "view.opacity.oil",
     "expected a number from 0.05 to 1 (1: opaque), found the number 0"},
    {"view opacity of an unknown fluid", "{" DOMAIN ", \"view\": {\"opacity\": {\"wax\": 0.5}}}", "view.opacity.wax",
     "no fluid named \"wax\""},
    {"view cutaway axis", "{" DOMAIN ", \"view\": {\"cutaway\": {\"axis\": \"w\", \"at\": 0.5}}}", "view.cutaway.axis",
     "expected one of x, y, z, found the string \"w\""},
    {"view cutaway outside the domain", "{" DOMAIN ", \"view\": {\"cutaway\": {\"axis\": \"y\", \"at\": 1.5}}}",
     "view.cutaway.at", "expected a position inside the domain along y (0 to 1 m), found 1.5"},
    {"view cutaway without at", "{" DOMAIN ", \"view\": {\"cutaway\": {\"axis\": \"y\"}}}", "view.cutaway.at",
     "expected a position in metres, found nothing"},
    {"view cutaway keep", "{" DOMAIN ", \"view\": {\"cutaway\": {\"axis\": \"y\", \"at\": 0.5, \"keep\": \"left\"}}}",
     "view.cutaway.keep", "expected one of below, above"},
    {"view cutaway along z in 2D",
     "{\"dimensions\": 2, \"domain\": {\"min\": [0, 0, 0], \"max\": [1, 1, 0]}, \"view\": {\"cutaway\": {\"axis\": \"z\", \"at\": 0}}}",
     "view.cutaway.axis", "expected one of x, y, found the string \"z\""},
    {"view particle size", "{" DOMAIN ", \"view\": {\"particle_size\": 10}}", "view.particle_size",
     "expected a number from 0.25 to 4 (times the drawn radius), found the number 10"},
    {"parameter out of range", "{" DOMAIN ", \"parameters\": {\"viscosity\": -1}}", "parameters.viscosity",
     "-1 is out of range [0, 100] Pa s"},
    {"parameter not an integer", "{" DOMAIN ", \"parameters\": {\"substeps\": 2.5}}", "parameters.substeps",
     "expected an integer"},
    {"string for a float parameter", "{" DOMAIN ", \"parameters\": {\"time_step\": \"0.001\"}}",
     "parameters.time_step", "expected a number, found the string \"0.001\""},
    {"number for a bool parameter", "{" DOMAIN ", \"parameters\": {\"clamp_negative_pressure\": 1}}",
     "parameters.clamp_negative_pressure", "expected true or false, found the number 1"},
    {"number for the enum", "{" DOMAIN ", \"parameters\": {\"equation_of_state\": 1}}",
     "parameters.equation_of_state", "expected one of tait, linear, found the number 1"},
    {"unknown enum choice", "{" DOMAIN ", \"parameters\": {\"equation_of_state\": \"ideal_gas\"}}",
     "parameters.equation_of_state", "expected one of tait, linear, found the string \"ideal_gas\""},
    {"parameters not an object", "{" DOMAIN ", \"parameters\": [1]}", "parameters", "expected an object"},
    {"duplicate parameter", "{" DOMAIN ", \"parameters\": {\"viscosity\": 1, \"viscosity\": 2}}",
     "parameters.viscosity", "duplicate key"},
    {"unknown solver", "{" DOMAIN ", \"solver\": \"flip\"}", "solver", "expected one of sph, pbf, got 'flip'"},
    {"fluid not an array", "{" DOMAIN ", \"fluid\": {}}", "fluid", "expected an array of objects"},
    {"fluid element not an object", "{" DOMAIN ", \"fluid\": [3]}", "fluid[0]", "expected an object"},
    {"unknown fluid type", "{" DOMAIN ", \"fluid\": [{\"type\": \"cone\"}]}", "fluid[0].type",
     "expected one of box, sphere, found the string \"cone\""},
    {"missing fluid type", "{" DOMAIN ", \"fluid\": [{\"min\": [0, 0, 0], \"max\": [1, 1, 1]}]}", "fluid[0].type",
     "found nothing"},
    {"fluid block outside domain",
     "{" DOMAIN ", \"fluid\": [{\"type\": \"box\", \"min\": [0, 0, 0], \"max\": [0.5, 0.5, 0.5]},"
     " {\"type\": \"box\", \"min\": [0.5, 0, 0], \"max\": [1.5, 0.5, 0.5]}]}",
     "fluid[1]", "expected to lie inside the domain"},
    {"fluid sphere outside domain",
     "{" DOMAIN ", \"fluid\": [{\"type\": \"sphere\", \"center\": [0.5, 0.05, 0.5], \"radius\": 0.1}]}", "fluid[0]",
     "expected to lie inside the domain"},
    {"fluid box min >= max",
     "{" DOMAIN ", \"fluid\": [{\"type\": \"box\", \"min\": [0.5, 0, 0], \"max\": [0.2, 0.5, 0.5]}]}", "fluid[0]",
     "expected min < max"},
    {"fluid block vector too long",
     "{" DOMAIN ", \"fluid\": [{\"type\": \"box\", \"min\": [0, 0, 0, 0], \"max\": [1, 1, 1]}]}", "fluid[0].min",
     "expected an array of 3 numbers"},
    {"negative sphere radius",
     "{" DOMAIN ", \"fluid\": [{\"type\": \"sphere\", \"center\": [0.5, 0.5, 0.5], \"radius\": -0.1}]}",
     "fluid[0].radius", "expected a number > 0, found -0.1"},
    {"unknown key in a fluid block",
     "{" DOMAIN ", \"fluid\": [{\"type\": \"box\", \"min\": [0, 0, 0], \"max\": [1, 1, 1], \"colour\": \"blue\"}]}",
     "fluid[0].colour", "unknown key (expected one of type, min, max, velocity, fluid)"},
    {"sphere keys on a box block",
     "{" DOMAIN ", \"fluid\": [{\"type\": \"box\", \"center\": [0, 0, 0], \"radius\": 1}]}", "fluid[0].center",
     "unknown key"},
    {"unknown collider type", "{" DOMAIN ", \"colliders\": [{\"type\": \"torus\"}]}", "colliders[0].type",
     "expected one of box, sphere, plane"},
    {"zero collider half extent",
     "{" DOMAIN ", \"colliders\": [{\"type\": \"box\", \"center\": [0.5, 0.5, 0.5], \"half_extents\": [0.1, 0, 0.1]}]}",
     "colliders[0].half_extents[1]", "expected a number > 0 and at most 1e+06 (m), found 0"},
    {"zero plane normal",
     "{" DOMAIN ", \"colliders\": [{\"type\": \"plane\", \"point\": [0, 0, 0], \"normal\": [0, 0, 0]}]}",
     "colliders[0].normal", "must not be the zero vector"},
    {"unknown sink type", "{" DOMAIN ", \"sinks\": [{\"type\": \"cylinder\"}]}", "sinks[0].type",
     "expected one of box, sphere"},
    {"zero sink radius", "{" DOMAIN ", \"sinks\": [{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 0}]}",
     "sinks[0].radius", "expected a number > 0"},
    {"zero emitter direction",
     "{" DOMAIN ", \"emitters\": [{\"position\": [0.5, 0.5, 0.5], \"direction\": [0, 0, 0], \"speed\": 1,"
     " \"rate\": 100, \"radius\": 0.04}]}",
     "emitters[0].direction", "must not be the zero vector"},
    {"emitter outside domain",
     "{" DOMAIN ", \"emitters\": [{\"position\": [0.5, 1.5, 0.5], \"direction\": [0, 1, 0], \"speed\": 1,"
     " \"rate\": 100, \"radius\": 0.04}]}",
     "emitters[0].position", "expected to lie inside the domain"},
    {"negative emitter rate",
     "{" DOMAIN ", \"emitters\": [{\"position\": [0.5, 0.5, 0.5], \"direction\": [0, 1, 0], \"speed\": 1,"
     " \"rate\": -5, \"radius\": 0.04}]}",
     "emitters[0].rate", "expected a number >= 0 and at most 1e+07 (particles/s), found -5"},
    {"negative emitter speed",
     "{" DOMAIN ", \"emitters\": [{\"position\": [0.5, 0.5, 0.5], \"direction\": [0, 1, 0], \"speed\": -1,"
     " \"rate\": 5, \"radius\": 0.04}]}",
     "emitters[0].speed", "expected a number >= 0 and at most 100 (m/s), found -1"},
    {"zero emitter temperature",
     "{" DOMAIN ", \"emitters\": [{\"position\": [0.5, 0.5, 0.5], \"direction\": [0, 1, 0], \"speed\": 1,"
     " \"rate\": 5, \"radius\": 0.04, \"temperature\": 0}]}",
     "emitters[0].temperature", "expected a number > 0 and at most 5000 (K), found 0"},
    {"too hot an emitter",
     "{" DOMAIN ", \"emitters\": [{\"position\": [0.5, 0.5, 0.5], \"direction\": [0, 1, 0], \"speed\": 1,"
     " \"rate\": 5, \"radius\": 0.04, \"temperature\": 6000}]}",
     "emitters[0].temperature", "at most 5000 (K), found 6000"},
    {"emitter temperature as text",
     "{" DOMAIN ", \"emitters\": [{\"position\": [0.5, 0.5, 0.5], \"direction\": [0, 1, 0], \"speed\": 1,"
     " \"rate\": 5, \"radius\": 0.04, \"temperature\": \"hot\"}]}",
     "emitters[0].temperature", "expected a number > 0"},
    {"emitter missing radius",
     "{" DOMAIN ", \"emitters\": [{\"position\": [0.5, 0.5, 0.5], \"direction\": [0, 1, 0], \"speed\": 1,"
     " \"rate\": 5}]}",
     "emitters[0].radius", "found nothing"},
    {"unknown key in an emitter",
     "{" DOMAIN ", \"emitters\": [{\"position\": [0.5, 0.5, 0.5], \"direction\": [0, 1, 0], \"speed\": 1,"
     " \"rate\": 5, \"radius\": 0.04, \"colour\": 1}]}",
     "emitters[0].colour", "unknown key"},
    {"a collider's temperature below zero",
     "{" DOMAIN ", \"colliders\": [{\"type\": \"sphere\", \"center\": [0.5, 0.5, 0.5], \"radius\": 0.1, \"temperature\": -3}]}",
     "colliders[0].temperature", "expected a number > 0 and at most 5000 (K), found -3"},
    {"too hot a collider",
     "{" DOMAIN ", \"colliders\": [{\"type\": \"sphere\", \"center\": [0.5, 0.5, 0.5], \"radius\": 0.1, \"temperature\": 9000}]}",
     "colliders[0].temperature", "at most 5000 (K), found 9000"},
    {"a negative heat transfer",
     "{" DOMAIN ", \"colliders\": [{\"type\": \"box\", \"center\": [0.5, 0.5, 0.5], \"half_extents\": [0.1, 0.1, 0.1],"
     " \"temperature\": 350, \"heat_transfer\": -1}]}",
     "colliders[0].heat_transfer", "expected a number >= 0 and at most 100000 (W/(m^2 K)), found -1"},
    {"too great a heat transfer",
     "{" DOMAIN ", \"colliders\": [{\"type\": \"box\", \"center\": [0.5, 0.5, 0.5], \"half_extents\": [0.1, 0.1, 0.1],"
     " \"temperature\": 350, \"heat_transfer\": 1e7}]}",
     "colliders[0].heat_transfer", "at most 100000 (W/(m^2 K)), found 1e+07"},
    /* issue 40: a document's emitters and colliders pass emitter_add's and collider_add's limits
     * (core/limits.h), each positive value checked after narrowing to float */
#define EMITTER_WITH(extra) "{" DOMAIN ", \"emitters\": [{\"position\": [0.5, 0.5, 0.5], \"direction\": [0, 1, 0], " extra "}]}"
    {"emitter speed above emitter_add's", EMITTER_WITH("\"speed\": 101, \"rate\": 5, \"radius\": 0.04"),
     "emitters[0].speed", "expected a number >= 0 and at most 100 (m/s), found 101"},
    {"emitter speed of 1e30", EMITTER_WITH("\"speed\": 1e30, \"rate\": 5, \"radius\": 0.04"),
     "emitters[0].speed", "at most 100 (m/s), found 1e+30"},
    {"emitter radius above emitter_add's", EMITTER_WITH("\"speed\": 1, \"rate\": 5, \"radius\": 11"),
     "emitters[0].radius", "expected a number > 0 and at most 10 (m), found 11"},
    {"emitter radius 0 as a float", EMITTER_WITH("\"speed\": 1, \"rate\": 5, \"radius\": 1e-300"),
     "emitters[0].radius", "found 1e-300, which is 0 as a float"},
    {"emitter temperature 0 as a float", EMITTER_WITH("\"speed\": 1, \"rate\": 5, \"radius\": 0.04, \"temperature\": 1e-300"),
     "emitters[0].temperature", "expected a number > 0 and at most 5000 (K), found 1e-300, which is 0 as a float"},
#undef EMITTER_WITH
#define BOX_WITH(extra) "{" DOMAIN ", \"colliders\": [{\"type\": \"box\", \"center\": [0.5, 0.5, 0.5], " extra "}]}"
    {"box rotation above collider_add's", BOX_WITH("\"half_extents\": [0.1, 0.1, 0.1], \"rotation\": [0, 3601, 0]"),
     "colliders[0].rotation[1]", "expected a number >= -3600 and at most 3600 (degrees), found 3601"},
    {"box rotation of 1e30", BOX_WITH("\"half_extents\": [0.1, 0.1, 0.1], \"rotation\": [1e30, 0, 0]"),
     "colliders[0].rotation[0]", "at most 3600 (degrees), found 1e+30"},
    {"2D box rotation above collider_add's",
     "{\"dimensions\": 2, " DOMAIN ", \"colliders\": [{\"type\": \"box\", \"center\": [0.5, 0.5], "
     "\"half_extents\": [0.1, 0.1], \"rotation\": -3601}]}",
     "colliders[0].rotation", "at most 3600 (degrees), found -3601"},
    {"box half extent 0 as a float", BOX_WITH("\"half_extents\": [0.1, 1e-300, 0.1]"),
     "colliders[0].half_extents[1]", "found 1e-300, which is 0 as a float"},
    {"box half extent above collider_add's", BOX_WITH("\"half_extents\": [0.1, 2e6, 0.1]"),
     "colliders[0].half_extents[1]", "at most 1e+06 (m), found 2e+06"},
    {"solid temperature 0 as a float", BOX_WITH("\"half_extents\": [0.1, 0.1, 0.1], \"temperature\": 1e-300"),
     "colliders[0].temperature", "expected a number > 0 and at most 5000 (K), found 1e-300, which is 0 as a float"},
#undef BOX_WITH
    {"sphere collider radius 0 as a float",
     "{" DOMAIN ", \"colliders\": [{\"type\": \"sphere\", \"center\": [0.5, 0.5, 0.5], \"radius\": 1e-300}]}",
     "colliders[0].radius", "expected a number > 0 and at most 1e+06 (m), found 1e-300, which is 0 as a float"},
    {"a fluid at 0 K", "{" DOMAIN ", \"fluids\": [{\"name\": \"water\", \"temperature\": 0}]}",
     "fluids[0].temperature", "expected a number > 0 and at most 5000 (K), found 0"},
    {"a fluid at 0 K as a float", "{" DOMAIN ", \"fluids\": [{\"name\": \"water\", \"temperature\": 1e-300}]}",
     "fluids[0].temperature", "found 1e-300, which is 0 as a float"},
    {"every fluid at 0 K", "{" DOMAIN ", \"parameters\": {\"temperature\": 0}}",
     "parameters.temperature", "expected a number > 0 and at most 5000 (K), found 0"},
    {"a heat transfer without a temperature",
     "{" DOMAIN ", \"colliders\": [{\"type\": \"plane\", \"point\": [0, 0.1, 0], \"normal\": [0, 1, 0], \"heat_transfer\": 500}]}",
     "colliders[0].heat_transfer", "needs the solid's temperature beside it"},
    {"walls not an object", "{" DOMAIN ", \"walls\": [350]}", "walls", "an object such as"},
    {"an unknown wall", "{" DOMAIN ", \"walls\": {\"floor\": {\"temperature\": 350}}}", "walls.floor",
     "unknown key (expected one of x_min, x_max, y_min, y_max, z_min, z_max)"},
    {"a wall as a number", "{" DOMAIN ", \"walls\": {\"y_min\": 350}}", "walls.y_min", "an object such as"},
    {"a wall's heat transfer as text", "{" DOMAIN ", \"walls\": {\"y_min\": {\"temperature\": 350, \"heat_transfer\": \"high\"}}}",
     "walls.y_min.heat_transfer", "expected a number >= 0"},
    {"an unknown key in a wall", "{" DOMAIN ", \"walls\": {\"y_min\": {\"temperature\": 350, \"colour\": 1}}}",
     "walls.y_min.colour", "unknown key (expected one of temperature, heat_transfer)"},
    {"fluids not an array", "{" DOMAIN ", \"fluids\": {\"name\": \"water\"}}", "fluids", "an array of 1 to 16 fluid objects"},
    {"no fluids", "{" DOMAIN ", \"fluids\": []}", "fluids", "an array of 1 to 16 fluid objects"},
    {"a fluid without a name", "{" DOMAIN ", \"fluids\": [{\"viscosity\": 1}]}", "fluids[0].name", "found nothing"},
    {"a fluid name with a dot", "{" DOMAIN ", \"fluids\": [{\"name\": \"a.b\"}]}", "fluids[0].name",
     "expected 1 to 31 of the characters A-Z a-z 0-9 _ -, found \"a.b\""},
    {"two fluids of one name", "{" DOMAIN ", \"fluids\": [{\"name\": \"w\"}, {\"name\": \"w\"}]}", "fluids[1].name",
     "a fluid named \"w\" comes earlier"},
    {"a fluid's viscosity out of range", "{" DOMAIN ", \"fluids\": [{\"name\": \"w\", \"viscosity\": 300}]}",
     "fluids[0].viscosity", "300 is out of range [0, 100] Pa s"},
    {"a fluid's parameter without fluid scope", "{" DOMAIN ", \"fluids\": [{\"name\": \"w\", \"time_step\": 0.001}]}",
     "fluids[0].time_step", "unknown key (expected one of name, colour, rest_density, viscosity, temperature, thermal_diffusivity, "
     "specific_heat, thermal_expansion, polarity, surface_tension, interface_tension, kind)"},
    {"a fluid's polarity not a name", "{" DOMAIN ", \"fluids\": [{\"name\": \"w\", \"polarity\": 1}]}",
     "fluids[0].polarity", "expected one of polar, nonpolar, found the number 1"},
    {"a fluid's polarity unknown", "{" DOMAIN ", \"fluids\": [{\"name\": \"w\", \"polarity\": \"apolar\"}]}",
     "fluids[0].polarity", "expected one of polar, nonpolar, found the string \"apolar\""},
    {"a fluid's surface tension negative", "{" DOMAIN ", \"fluids\": [{\"name\": \"w\", \"surface_tension\": -1}]}",
     "fluids[0].surface_tension", "-1 is out of range [0, 100] N/m"},
    {"a fluid's interface tension a string", "{" DOMAIN ", \"fluids\": [{\"name\": \"w\", \"interface_tension\": \"1\"}]}",
     "fluids[0].interface_tension", "expected a number, found the string \"1\""},
    {"tension unknown", "{" DOMAIN ", \"parameters\": {\"tension\": \"akinci\"}}", "parameters.tension",
     "expected one of none, mueller2005, found the string \"akinci\""},
    {"a fluid's kind unknown", "{" DOMAIN ", \"fluids\": [{\"name\": \"w\", \"kind\": \"gas\"}]}", "fluids[0].kind",
     "expected one of liquid, air, found the string \"gas\""},
    {"air unknown", "{" DOMAIN ", \"parameters\": {\"air\": \"foam\"}}", "parameters.air",
     "expected one of none, mueller2005, found the string \"foam\""},
    {"an air threshold negative", "{" DOMAIN ", \"parameters\": {\"air_generation_threshold\": -1}}",
     "parameters.air_generation_threshold", "-1 is out of range [0, 10]"},
    {"an air offset too far", "{" DOMAIN ", \"parameters\": {\"air_offset\": 5}}", "parameters.air_offset",
     "5 is out of range [0.1, 2] spacings"},
    {"an air cap not whole", "{" DOMAIN ", \"parameters\": {\"max_air_particles\": 2.5}}", "parameters.max_air_particles",
     "expected an integer"},
    {"a bad colour", "{" DOMAIN ", \"fluids\": [{\"name\": \"w\", \"colour\": \"blue\"}]}", "fluids[0].colour",
     "expected \"#rrggbb\", found \"blue\""},
    {"a block of an unknown fluid", "{" DOMAIN ", " FLUIDS2 ", \"fluid\": [{\"type\": \"box\", \"min\": [0, 0, 0], "
     "\"max\": [0.1, 0.1, 0.1], \"fluid\": \"oi1\"}]}", "fluid[0].fluid", "no fluid named \"oi1\"; the scene's fluids are water, oil"},
    {"an emitter of an unknown fluid", "{" DOMAIN ", " FLUIDS2 ", \"emitters\": [{\"position\": [0.5, 0.5, 0.5], "
     "\"direction\": [0, 1, 0], \"speed\": 1, \"rate\": 5, \"radius\": 0.04, \"fluid\": \"honey\"}]}",
     "emitters[0].fluid", "no fluid named \"honey\""},
    {"dimensions 4", "{\"dimensions\": 4, " DOMAIN "}", "dimensions", "expected the number 2 or 3, found the number 4"},
    {"dimensions a string", "{\"dimensions\": \"2\", " DOMAIN "}", "dimensions",
     "expected the number 2 or 3, found the string \"2\""},
    {"dimensions 2.5", "{\"dimensions\": 2.5, " DOMAIN "}", "dimensions", "found the number 2.5"},
    {"2D vector of one number", "{\"dimensions\": 2, \"domain\": {\"min\": [0], \"max\": [1, 1]}}", "domain.min",
     "expected an array of 2 (or 3) numbers, found an array of 1 element"},
    {"2D domain min >= max in y", "{\"dimensions\": 2, \"domain\": {\"min\": [0, 1], \"max\": [1, 1]}}", "domain",
     "found min.y = 1 >= max.y = 1"},
    {"2D emitter shooting along z",
     "{\"dimensions\": 2, \"domain\": {\"min\": [0, 0], \"max\": [1, 1]}, \"emitters\": [{\"position\": [0.5, 0.5],"
     " \"direction\": [0, 0, 1], \"speed\": 1, \"rate\": 100, \"radius\": 0.04}]}",
     "emitters[0].direction", "must have a non-zero x or y (a 2D scene ignores z)"},
    {"2D block outside in x", "{\"dimensions\": 2, \"domain\": {\"min\": [0, 0], \"max\": [1, 1]},"
     " \"fluid\": [{\"type\": \"box\", \"min\": [0.5, 0], \"max\": [1.5, 0.5]}]}", "fluid[0]",
     "expected to lie inside the domain"},
    {"too-deep nesting",
     "{" DOMAIN ", \"description\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}", NULL,
     "levels of nesting"},
};

static int contains(const char *haystack, const char *needle) { return strstr(haystack, needle) != NULL; }

static int scene_is_empty(const fc_scene *s)
{
    return !s->blocks && !s->objects.rows && !s->block_count && !s->objects.count && !s->name[0];
}

static void test_bad_scenes(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        fc_scene s;
        char err[512] = "";
        int rc = fc_scene_parse_string(&s, c->json, "bad.json", err, sizeof err);
        CHECK(rc == -1, "%s: accepted", c->what);
        CHECK(scene_is_empty(&s), "%s: scene not left empty", c->what);
        CHECK(strncmp(err, "bad.json: ", 10) == 0, "%s: message does not start with the source: %s", c->what, err);
        if (c->key) {
            char prefix[160];
            snprintf(prefix, sizeof prefix, "bad.json: %s: ", c->key);
            CHECK(strncmp(err, prefix, strlen(prefix)) == 0, "%s: key '%s' not named: %s", c->what, c->key, err);
        }
        CHECK(contains(err, c->expected), "%s: '%s' not in: %s", c->what, c->expected, err);
        fc_scene_free(&s);
        /* the same document uploaded: the same checks, and the key path on its own */
        char key_path[128] = "x";
        rc = fc_scene_parse_upload(&s, c->json, err, sizeof err, key_path, sizeof key_path);
        CHECK(rc == -1 && scene_is_empty(&s) && strncmp(err, "uploaded scene: ", 16) == 0 && contains(err, c->expected),
              "%s: refused as an upload: %s", c->what, err);
        CHECK(!c->key || strcmp(key_path, c->key) == 0, "%s: the upload's key path is '%s', got '%s'", c->what,
              c->key ? c->key : "", key_path);
    }
    fc_scene s;
    char err[512], key_path[128] = "x";
    CHECK(fc_scene_parse_upload(&s, "{\"domain\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1]}}", err, sizeof err, key_path,
                                sizeof key_path) == 0 &&
              strcmp(s.name, "uploaded") == 0 && strcmp(s.solver, "sph") == 0 && key_path[0] == '\0',
          "an upload without name or solver is 'uploaded', sph: %s", s.name);
    fc_scene_free(&s);
}

static void test_missing_file(void)
{
    fc_scene s;
    char err[512] = "";
    const char *path = "/nonexistent/dir/no_such_scene.json";
    CHECK(fc_scene_parse_file(&s, path, err, sizeof err) == -1, "missing file accepted");
    CHECK(scene_is_empty(&s), "scene not left empty");
    CHECK(contains(err, path) && contains(err, "cannot open"), "message lacks the path: %s", err);

    char out[512];
    CHECK(fc_scene_resolve("no_such_scene_anywhere", out, sizeof out) == -1, "resolved a missing scene: %s", out);

    CHECK(fc_scene_parse_file(&s, ".", err, sizeof err) == -1 && contains(err, "cannot read"),
          "a directory: %s", err);
}

static void test_oversized_file(void)
{
    /* valid JSON (a scene padded with spaces) just over the 4 MiB limit */
    const char *path = "test_scene_oversized.json";
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "cannot create %s", path);
    if (!f) return;
    fputs("{" DOMAIN, f);
    for (long i = 0; i < 4L * 1024 * 1024; i++) fputc(' ', f);
    fputs("}", f);
    fclose(f);
    fc_scene s;
    char err[512] = "";
    CHECK(fc_scene_parse_file(&s, path, err, sizeof err) == -1, "oversized file accepted");
    CHECK(contains(err, path) && contains(err, "4 MiB"), "message: %s", err);
    CHECK(scene_is_empty(&s), "scene not left empty");
    remove(path);
}

/* "fluids": names, values taken from the parameters where a fluid gives none, blocks and emitters
 * of a named fluid; a scene without fluids gets one made of its parameters. */
static void test_fluids(void)
{
    fc_scene s;
    char err[512];
    const char *json = "{" DOMAIN ", \"parameters\": {\"viscosity\": 3, \"rest_density\": 900}, "
                       "\"fluids\": [{\"name\": \"water\"}, {\"name\": \"oil\", \"viscosity\": 5, \"colour\": \"#E0A030\", "
                       "\"temperature\": 310}], "
                       "\"fluid\": [{\"type\": \"box\", \"min\": [0, 0, 0], \"max\": [0.2, 0.2, 0.2]}, "
                       "{\"type\": \"box\", \"min\": [0.6, 0, 0], \"max\": [0.8, 0.2, 0.2], \"fluid\": \"oil\"}], "
                       "\"emitters\": [{\"position\": [0.5, 0.5, 0.5], \"direction\": [0, 1, 0], \"speed\": 1, "
                       "\"rate\": 0, \"radius\": 0.04, \"fluid\": \"oil\"}, {\"position\": [0.5, 0.5, 0.5], "
                       "\"direction\": [0, 1, 0], \"speed\": 1, \"rate\": 0, \"radius\": 0.04, \"temperature\": 353.15}]}";
    CHECK(fc_scene_parse_string(&s, json, "fluids.json", err, sizeof err) == 0, "the scene parses: %s", err);
    CHECK(s.fluid_count == 2 && strcmp(s.fluids[0].name, "water") == 0 && strcmp(s.fluids[1].name, "oil") == 0,
          "two fluids, in order");
    CHECK(s.fluids[0].viscosity == 3 && s.fluids[0].rest_density == 900 && s.fluids[0].colour == FC_FLUID_DEFAULT_COLOUR,
          "water takes the parameters' values and the default colour");
    CHECK(s.fluids[1].viscosity == 5 && s.fluids[1].rest_density == 900 && s.fluids[1].colour == 0xe0a030 &&
              s.fluids[1].temperature == 310,
          "oil has its own viscosity, colour and temperature");
    CHECK(s.blocks[0].fluid == 0 && s.blocks[1].fluid == 1 && fc_objects_next(&s.objects, FC_OBJECT_EMITTER, NULL)->emitter.fluid == 1,
          "a block without a fluid is the first's; the others are the named one's");
    fc_world w;
    CHECK(fc_scene_instantiate(&s, &w, err, sizeof err) == 0, "it builds: %s", err);
    if (!err[0] || w.fluid_count == 2) {
        size_t of[2] = {0, 0}, warm = 0;
        for (size_t i = 0; i < w.particles.count; i++) {
            int f = w.particles.u8[FC_FLUID][i];
            of[f]++;
            float x = w.particles.field[FC_PX][i];
            CHECK((f == 1) == (x > 0.5f), "particle %zu at x %g is of fluid %d", i, x, f);
            warm += w.particles.field[FC_TEMPERATURE][i] == (f ? 310.0f : 293.15f);
        }
        CHECK(w.fluid_count == 2 && of[0] == of[1] && of[0] > 0, "both blocks filled, %zu and %zu", of[0], of[1]);
        CHECK(warm == w.particles.count, "each particle has its fluid's temperature (%zu of %zu)", warm, w.particles.count);
        const fc_object *oily = fc_objects_next(&w.objects, FC_OBJECT_EMITTER, NULL);
        const fc_object *hot = oily ? fc_objects_next(&w.objects, FC_OBJECT_EMITTER, oily) : NULL;
        CHECK(oily && hot && oily->emitter.temperature == 310.0f && hot->emitter.temperature == 353.15f && hot->emitter.fluid == 0,
              "an emitter without a temperature emits at its fluid's (310 K), one with it at its own (353.15 K)");
        fc_world_free(&w);
    }
    fc_scene_free(&s);

    CHECK(fc_scene_parse_string(&s, "{" DOMAIN ", \"parameters\": {\"viscosity\": 4}}", "one.json", err, sizeof err) == 0 &&
              s.fluid_count == 1 && strcmp(s.fluids[0].name, "water") == 0 && s.fluids[0].viscosity == 4 &&
              s.fluids[0].rest_density == 1000,
          "a scene without fluids has one, water, of its parameters");
    fc_scene_free(&s);
}

/* Hot and cold solids: a collider's temperature with and without a heat transfer (the default),
 * an insulating one, and the container walls, into the world; a 2D scene has no z walls. */
/* A scene's view: hidden fluids, opacity, cutaway and size as the file names them, in the world. */
static void test_view(void)
{
    fc_scene s;
    char err[512];
    const char *json = "{" DOMAIN ", " FLUIDS2 ", \"view\": {\"colour\": \"fluid\", \"hide\": [\"oil\"], \"opacity\": {\"water\": 0.3},"
                       " \"cutaway\": {\"axis\": \"z\", \"at\": 0.25, \"keep\": \"above\"}, \"particle_size\": 0.5}}";
    CHECK(fc_scene_parse_string(&s, json, "view.json", err, sizeof err) == 0, "the view parses: %s", err);
    CHECK(strcmp(s.view.colour, "fluid") == 0 && s.view.hidden == 2u && s.view.opacity[0] == 0.3 && s.view.opacity[1] == 0.0,
          "colour, hidden oil and water's opacity: %s %u %g %g", s.view.colour, s.view.hidden, s.view.opacity[0],
          s.view.opacity[1]);
    CHECK(s.view.cut_axis == 3 && s.view.cut_at == 0.25 && s.view.cut_keep_above == 1 && s.view.particle_size == 0.5,
          "cutaway z at 0.25 keeping above, size 0.5: %d %g %d %g", s.view.cut_axis, s.view.cut_at, s.view.cut_keep_above,
          s.view.particle_size);
    fc_scene_free(&s);
    CHECK(fc_scene_parse_string(&s, "{" DOMAIN "}", "plain.json", err, sizeof err) == 0 && s.view.cut_axis == 0 &&
              !s.view.hidden && !s.view.colour[0] && s.view.particle_size == 0.0,
          "no view: nothing asked");
    fc_scene_free(&s);
}

static void test_thermal_solids(void)
{
    fc_scene s;
    char err[512] = "";
    const char *json =
        "{" DOMAIN ", \"walls\": {\"y_min\": {\"temperature\": 350, \"heat_transfer\": 800}, \"x_max\": {\"temperature\": 280}},"
        " \"colliders\": [{\"type\": \"sphere\", \"center\": [0.5, 0.5, 0.5], \"radius\": 0.1, \"temperature\": 400},"
        "               {\"type\": \"box\", \"center\": [0.2, 0.2, 0.2], \"half_extents\": [0.1, 0.1, 0.1],"
        "                \"temperature\": 300, \"heat_transfer\": 0},"
        "               {\"type\": \"sphere\", \"center\": [0.8, 0.8, 0.8], \"radius\": 0.1}]}";
    if (fc_scene_parse_string(&s, json, "thermal.json", err, sizeof err)) {
        CHECK(0, "a scene with hot and cold solids parses: %s", err);
        return;
    }
    fc_world w;
    CHECK(fc_scene_instantiate(&s, &w, err, sizeof err) == 0, "it builds: %s", err);
    const fc_object *heater = fc_objects_next(&w.objects, FC_OBJECT_COLLIDER, NULL);
    const fc_object *plain = heater ? fc_objects_next(&w.objects, FC_OBJECT_COLLIDER, heater) : NULL;
    const fc_object *bare = plain ? fc_objects_next(&w.objects, FC_OBJECT_COLLIDER, plain) : NULL;
    CHECK(heater && heater->thermal.temperature == 400.0f && heater->thermal.heat_transfer == FC_HEAT_TRANSFER_DEFAULT,
          "a collider given a temperature alone heats with the default heat transfer");
    CHECK(plain && plain->thermal.temperature == 300.0f && plain->thermal.heat_transfer == 0.0f,
          "a heat transfer of 0 keeps a collider insulating");
    CHECK(bare && bare->thermal.heat_transfer == 0.0f, "a collider without either is insulating");
    CHECK(w.walls[2].temperature == 350.0f && w.walls[2].heat_transfer == 800.0f && w.walls[1].temperature == 280.0f &&
              w.walls[1].heat_transfer == FC_HEAT_TRANSFER_DEFAULT && w.walls[0].heat_transfer == 0.0f &&
              w.walls[5].heat_transfer == 0.0f,
          "the walls y_min and x_max heat and cool, the others insulate");
    fc_world_free(&w);
    fc_scene_free(&s);
    CHECK(fc_scene_parse_string(&s,
                                "{\"dimensions\": 2, \"domain\": {\"min\": [0, 0], \"max\": [1, 1]},"
                                " \"walls\": {\"z_min\": {\"temperature\": 350}}}",
                                "flat.json", err, sizeof err) == -1 &&
              strstr(err, "walls.z_min") && strstr(err, "unknown key (expected one of x_min, x_max, y_min, y_max)"),
          "a 2D scene has no z walls: %s", err);
}

static void test_minimal_scene(void)
{
    const char *json = "{\"domain\": {\"min\": [-1, 0, 0.5], \"max\": [1, 2, 1.5]},"
                       " \"parameters\": {\"time_step\": 0.00025, \"substeps\": 7, \"viscosity\": 0,"
                       "  \"equation_of_state\": \"linear\", \"clamp_negative_pressure\": false},"
                       " \"colliders\": [{\"type\": \"plane\", \"point\": [0, 0.5, 0], \"normal\": [0, 2, 0]},"
                       "  {\"type\": \"box\", \"center\": [0.5, 1.5, 1], \"half_extents\": [0.1, 0.2, 0.3]}],"
                       " \"sinks\": [{\"type\": \"box\", \"min\": [0.5, 0, 0.5], \"max\": [1, 0.5, 1]}],"
                       " \"emitters\": [{\"position\": [0, 1, 1], \"direction\": [3, 0, 4], \"speed\": 2,"
                       "  \"rate\": 100, \"radius\": 0.05}],"
                       " \"fluid\": [{\"type\": \"sphere\", \"center\": [0, 1, 1], \"radius\": 0.25,"
                       "  \"velocity\": [1, 2, 3]}]}";
    fc_scene s;
    char err[512] = "";
    int rc = fc_scene_parse_string(&s, json, "scenes/minimal.json", err, sizeof err);
    CHECK(rc == 0, "minimal scene rejected: %s", err);
    if (rc) return;
    CHECK(strcmp(s.name, "minimal") == 0, "default name '%s'", s.name);
    CHECK(strcmp(s.solver, "sph") == 0, "default solver '%s'", s.solver);
    CHECK(s.description[0] == '\0', "description '%s'", s.description);
    CHECK(s.params.time_step == 0.00025, "time_step %g", s.params.time_step);
    CHECK(s.params.substeps == 7, "substeps %d", s.params.substeps);
    CHECK(s.fluid_count == 1 && s.fluids[0].viscosity == 0.0 && s.fluid_values.viscosity == 0.0,
          "viscosity, the fluid's and every fluid's: %g", s.fluids[0].viscosity);
    CHECK(s.params.equation_of_state == FC_EOS_LINEAR, "eos %d", s.params.equation_of_state);
    CHECK(s.params.clamp_negative_pressure == 0, "clamp %d", s.params.clamp_negative_pressure);
    CHECK(s.params.particle_spacing == 0.02, "untouched spacing %g", s.params.particle_spacing);
    CHECK(s.domain_min[0] == -1.0f && s.domain_max[1] == 2.0f && s.domain_min[2] == 0.5f, "domain");

    const fc_object *first_collider = fc_objects_next(&s.objects, FC_OBJECT_COLLIDER, NULL);
    CHECK(fc_objects_count(&s.objects, FC_OBJECT_COLLIDER) == 2, "colliders %zu", fc_objects_count(&s.objects, FC_OBJECT_COLLIDER));
    if (fc_objects_count(&s.objects, FC_OBJECT_COLLIDER) == 2) {
        const fc_shape *p = &first_collider->shape, *b = &fc_objects_next(&s.objects, FC_OBJECT_COLLIDER, first_collider)->shape;
        CHECK(p->kind == FC_SHAPE_PLANE && p->normal[1] == 1.0f && p->normal[0] == 0.0f && p->offset == 0.5f,
              "plane normal (%g %g %g) offset %g", p->normal[0], p->normal[1], p->normal[2], p->offset);
        CHECK(b->kind == FC_SHAPE_BOX && b->half[2] == 0.3f && b->center[1] == 1.5f, "collider box");
    }
    CHECK(fc_objects_count(&s.objects, FC_OBJECT_SINK) == 1, "sinks %zu", fc_objects_count(&s.objects, FC_OBJECT_SINK));
    if (fc_objects_count(&s.objects, FC_OBJECT_SINK) == 1) {
        const fc_shape *k = &fc_objects_next(&s.objects, FC_OBJECT_SINK, NULL)->shape;
        CHECK(k->kind == FC_SHAPE_BOX && k->center[0] == 0.75f && k->half[0] == 0.25f && k->center[1] == 0.25f,
              "sink box centre %g half %g", k->center[0], k->half[0]);
    }
    CHECK(fc_objects_count(&s.objects, FC_OBJECT_EMITTER) == 1, "emitters %zu", fc_objects_count(&s.objects, FC_OBJECT_EMITTER));
    if (fc_objects_count(&s.objects, FC_OBJECT_EMITTER) == 1) {
        const fc_object *e = fc_objects_next(&s.objects, FC_OBJECT_EMITTER, NULL);
        CHECK(fabsf(e->shape.normal[0] - 0.6f) < 1e-6f && fabsf(e->shape.normal[2] - 0.8f) < 1e-6f, "direction not normalised");
        CHECK(e->emitter.speed == 2.0f && e->emitter.rate == 100.0f && e->shape.radius == 0.05f, "emitter numbers");
    }
    CHECK(s.block_count == 1, "blocks %zu", s.block_count);
    if (s.block_count == 1) {
        const fc_scene_block *b = &s.blocks[0];
        CHECK(b->kind == FC_SHAPE_SPHERE && b->radius == 0.25f && b->velocity[2] == 3.0f, "fluid sphere");
    }

    fc_world w;
    rc = fc_scene_instantiate(&s, &w, err, sizeof err);
    CHECK(rc == 0, "minimal scene did not instantiate: %s", err);
    if (rc == 0) {
        CHECK(w.particles.count > 0, "no particles");
        CHECK(w.params.time_step == 0.00025 && w.params.substeps == 7, "parameters not copied");
        CHECK(fc_objects_count(&w.objects, FC_OBJECT_COLLIDER) == 2 && fc_objects_count(&w.objects, FC_OBJECT_EMITTER) == 1 &&
                  fc_objects_count(&w.objects, FC_OBJECT_SINK) == 1,
              "objects not added");
        CHECK(strcmp(w.name, "minimal") == 0, "world name '%s'", w.name);
        fc_world_free(&w);
    }
    fc_scene_free(&s);
}

/* A 2D scene: two-component vectors (a third ignored), every particle, boundary sample, emitted
 * particle and object in the plane z = 0, the grid one cell deep, a disc filled as a disc. */
static void test_2d_scene(void)
{
    const char *json = "{\"dimensions\": 2, \"domain\": {\"min\": [0, 0], \"max\": [1, 0.8, 5]},"
                       " \"colliders\": [{\"type\": \"box\", \"center\": [0.7, 0.1], \"half_extents\": [0.05, 0.05]},"
                       "  {\"type\": \"sphere\", \"center\": [0.3, 0.6, 2], \"radius\": 0.05}],"
                       " \"emitters\": [{\"position\": [0.9, 0.7], \"direction\": [-1, 0, 3], \"speed\": 1,"
                       "  \"rate\": 2000, \"radius\": 0.05}],"
                       " \"fluid\": [{\"type\": \"box\", \"min\": [0, 0], \"max\": [0.4, 0.3], \"velocity\": [1, 0, 7]},"
                       "  {\"type\": \"sphere\", \"center\": [0.7, 0.5], \"radius\": 0.105}]}";
    fc_scene s;
    char err[512] = "";
    int rc = fc_scene_parse_string(&s, json, "scenes/flat.json", err, sizeof err);
    CHECK(rc == 0, "2D scene rejected: %s", err);
    if (rc) return;
    CHECK(s.dimensions == 2, "dimensions %d", s.dimensions);
    CHECK(s.domain_min[2] == 0.0f && s.domain_max[2] == 0.0f, "2D domain z [%g, %g]", s.domain_min[2], s.domain_max[2]);
    fc_world w;
    rc = fc_scene_instantiate(&s, &w, err, sizeof err);
    CHECK(rc == 0, "2D scene did not instantiate: %s", err);
    if (rc == 0) {
        CHECK(w.dimensions == 2, "world dimensions %d", w.dimensions);
        const fc_particles *p = &w.particles;
        /* the box: 20 x 15 at spacing 0.02; the disc: the lattice points of radius 0.105 (5.25 spacings) */
        size_t disc = 0;
        for (int i = -5; i <= 5; i++)
            for (int j = -5; j <= 5; j++) disc += i * i + j * j <= 27;
        CHECK(p->count == 300 + disc, "%zu particles, expected %zu", p->count, 300 + disc);
        int flat = 1, vx_ok = 1;
        for (size_t i = 0; i < p->count; i++) {
            flat &= p->field[FC_PZ][i] == 0.0f && p->field[FC_VZ][i] == 0.0f;
            if (i < 300) vx_ok &= p->field[FC_VX][i] == 1.0f;
        }
        CHECK(flat, "a particle off the plane z = 0");
        CHECK(vx_ok, "block velocity lost");
        CHECK(w.grid_geom.dim[2] == 1, "grid %d cells deep", w.grid_geom.dim[2]);
        const fc_boundary *b = fc_sph_family_boundary(&w);
        int boundary_flat = b && b->count > 0;
        for (size_t i = 0; b && i < b->count; i++) boundary_flat &= b->z[i] == 0.0f;
        CHECK(boundary_flat, "boundary samples (%zu) off the plane", b ? b->count : 0);
        /* a 2D skin: a container ring h deep around 1 x 0.8 m at 0.02 m is about 2 (1 + 0.8 + 2 h) h / s^2 */
        double ring = 2.0 * (1.0 + 0.8 + 2 * 0.04) * 0.04 / (0.02 * 0.02);
        CHECK(b && b->count > ring && b->count < 2.0 * ring, "%zu boundary samples, a ring holds %.0f", b ? b->count : 0,
              ring);
        const fc_object *c0 = fc_objects_next(&w.objects, FC_OBJECT_COLLIDER, NULL),
                        *c1 = fc_objects_next(&w.objects, FC_OBJECT_COLLIDER, c0),
                        *e0 = fc_objects_next(&w.objects, FC_OBJECT_EMITTER, NULL);
        CHECK(c0->shape.half[2] > 1e20f && c1->shape.center[2] == 0.0f, "colliders not in the plane");
        CHECK(e0->shape.normal[0] == -1.0f && e0->shape.normal[2] == 0.0f, "emitter direction (%g, %g, %g)",
              e0->shape.normal[0], e0->shape.normal[1], e0->shape.normal[2]);
        /* an emission is a segment: 2 * 2 + 1 points at spacing 0.02 over radius 0.05, along y */
        size_t before = p->count;
        for (int step = 0; step < 12; step++) CHECK(fc_world_step(&w) == 0, "2D step failed");
        size_t emitted = p->count - before;
        CHECK(emitted % 5 == 0 && emitted > 0, "emitted %zu, expected whole segments of 5", emitted);
        int emitted_flat = 1;
        for (size_t i = 0; i < p->count; i++) emitted_flat &= p->field[FC_PZ][i] == 0.0f && p->field[FC_VZ][i] == 0.0f;
        CHECK(emitted_flat, "a particle off the plane after a step");
        fc_world_free(&w);
    }
    fc_scene_free(&s);
}

static void test_instantiate_error(void)
{
    /* smoothing radius far above 4x the spacing: fc_world_start refuses, the message names the scene */
    const char *json = "{\"name\": \"odd\", " DOMAIN ", \"parameters\": {\"smoothing_radius\": 1}}";
    fc_scene s;
    fc_world w;
    char err[512] = "";
    CHECK(fc_scene_parse_string(&s, json, "bad.json", err, sizeof err) == 0, "rejected: %s", err);
    CHECK(fc_scene_instantiate(&s, &w, err, sizeof err) == -1, "inconsistent parameters accepted");
    CHECK(strncmp(err, "odd: ", 5) == 0 && contains(err, "smoothing_radius"), "message: %s", err);
    fc_scene_free(&s);
    /* air generation without a fluid of kind air to make the bubbles of */
    const char *airless = "{\"name\": \"airless\", " DOMAIN ", \"parameters\": {\"air\": \"mueller2005\"}}";
    CHECK(fc_scene_parse_string(&s, airless, "bad.json", err, sizeof err) == 0, "rejected: %s", err);
    CHECK(fc_scene_instantiate(&s, &w, err, sizeof err) == -1, "air without an air fluid accepted");
    CHECK(strncmp(err, "airless: ", 9) == 0 && contains(err, "'air' mueller2005 needs a fluid of 'kind' air"), "message: %s",
          err);
    fc_scene_free(&s);
}

static void test_shipped_scenes(void)
{
    static const char *const names[] = {"dam_break",      "double_dam_break",    "water_drop", "fountain",
                                        "pool_colliders", "dam_break_2d", "double_dam_break_2d"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[1024], err[512] = "";
        fc_scene s;
        fc_world w;
        CHECK(fc_scene_resolve(names[i], path, sizeof path) == 0, "%s not found", names[i]);
        int rc = fc_scene_parse_file(&s, path, err, sizeof err);
        CHECK(rc == 0, "%s: %s", names[i], err);
        if (rc) continue;
        CHECK(strcmp(s.name, names[i]) == 0, "%s: name '%s'", names[i], s.name);
        CHECK(s.description[0] != '\0', "%s: no description", names[i]);
        rc = fc_scene_instantiate(&s, &w, err, sizeof err);
        CHECK(rc == 0, "%s: %s", names[i], err);
        if (rc == 0) {
            const size_t emitters = fc_objects_count(&w.objects, FC_OBJECT_EMITTER);
            CHECK(w.particles.count > 0 || emitters > 0, "%s: nothing in the world", names[i]);
            printf("  %-18s %zu particles, %zu emitters, %zu sinks\n", names[i], w.particles.count, emitters,
                   fc_objects_count(&w.objects, FC_OBJECT_SINK));
            fc_world_free(&w);
        }
        fc_scene_free(&s);
    }
    char a[1024], b[1024];
    CHECK(fc_scene_resolve("dam_break.json", a, sizeof a) == 0 && fc_scene_resolve("dam_break", b, sizeof b) == 0 &&
              strcmp(a, b) == 0,
          "NAME and NAME.json differ: %s %s", a, b);
    CHECK(fc_scene_resolve(a, b, sizeof b) == 0 && strcmp(a, b) == 0, "a path does not resolve to itself");
}

/* Particles of w near a collider (closer than particle_radius: fc_point_clear_of). */
static size_t particles_near_colliders(const fc_world *w)
{
    size_t near = 0;
    for (size_t i = 0; i < w->particles.count; i++) {
        float p[3] = {w->particles.field[FC_PX][i], w->particles.field[FC_PY][i], w->particles.field[FC_PZ][i]};
        near += !fc_point_clear_of(&w->objects, (float)fc_params_particle_radius(&w->params), p);
    }
    return near;
}

/* Fluid blocks overlapping colliders at the start are cut away: no particle starts inside a
 * collider or within particle_radius of one (a sphere, a box, a plane, two colliders that
 * overlap, a sphere block), and the rest of each block is filled as without colliders. */
static void test_fluid_cut_away(void)
{
    const char *json =
        "{" DOMAIN ", \"fluid\": [{\"type\": \"box\", \"min\": [0, 0, 0], \"max\": [1, 0.3, 1]},"
        " {\"type\": \"sphere\", \"center\": [0.5, 0.6, 0.5], \"radius\": 0.15}],"
        " \"colliders\": [{\"type\": \"sphere\", \"center\": [0.3, 0.2, 0.3], \"radius\": 0.1},"
        " {\"type\": \"box\", \"center\": [0.35, 0.2, 0.3], \"half_extents\": [0.1, 0.05, 0.05]},"
        " {\"type\": \"box\", \"center\": [0.5, 0.6, 0.5], \"half_extents\": [0.05, 0.3, 0.05]},"
        " {\"type\": \"plane\", \"point\": [0, 0.05, 0], \"normal\": [0, 1, 0]}]}";
    fc_scene s;
    fc_world w, plain;
    char err[512] = "";
    if (fc_scene_parse_string(&s, json, "cut.json", err, sizeof err) || fc_scene_instantiate(&s, &w, err, sizeof err)) {
        CHECK(0, "the cut-away scene builds: %s", err);
        return;
    }
    CHECK(particles_near_colliders(&w) == 0, "no particle starts within particle_radius of a collider (%zu do)",
          particles_near_colliders(&w));
    /* the same without colliders, checked against them: exactly the points near them went */
    const size_t objects = s.objects.count;
    s.objects.count = 0;
    if (fc_scene_instantiate(&s, &plain, err, sizeof err) == 0) {
        fc_objects_copy(&plain.objects, &w.objects);
        size_t near = particles_near_colliders(&plain);
        printf("  cut away: %zu of %zu particles\n", near, plain.particles.count);
        CHECK(near > 1000 && w.particles.count == plain.particles.count - near,
              "the fill leaves out exactly the %zu points near colliders: %zu of %zu", near, w.particles.count,
              plain.particles.count);
        fc_world_free(&plain);
    }
    s.objects.count = objects;
    fc_world_free(&w);
    fc_scene_free(&s);
    /* the shipped pool: its sphere and box stand in the water */
    char path[1024];
    if (fc_scene_resolve("pool_colliders", path, sizeof path) || fc_scene_parse_file(&s, path, err, sizeof err) ||
        fc_scene_instantiate(&s, &w, err, sizeof err)) {
        CHECK(0, "pool_colliders builds: %s", err);
        return;
    }
    CHECK(particles_near_colliders(&w) == 0 && w.particles.count < 12500,
          "pool_colliders: no particle starts in its sphere or box (%zu particles of the block's 12500)", w.particles.count);
    fc_world_free(&w);
    fc_scene_free(&s);
}

int main(void)
{
    test_bad_scenes();
    test_missing_file();
    test_oversized_file();
    test_minimal_scene();
    test_fluids();
    test_view();
    test_thermal_solids();
    test_2d_scene();
    test_instantiate_error();
    test_shipped_scenes();
    test_fluid_cut_away();
    return check_summary("test_scene");
}
