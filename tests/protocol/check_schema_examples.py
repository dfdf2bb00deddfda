#!/usr/bin/python3
"""Checks protocol/schema/client.schema.json and its examples with Python's jsonschema, independently
of the C validator: the schema is valid draft 2020-12, every valid example passes, every invalid
example fails in the way protocol/schema/examples/expected_errors.json says.

Usage: check_schema_examples.py PROTOCOL_SCHEMA_DIR [TEST_MESSAGES_BINARY]
With the C test binary it also runs a differential test: 4000 random mutations of the valid
examples (fixed seed) must get the same verdict from jsonschema and from the C validator.
Exit status 0 when everything holds.
"""
import copy
import json
import os
import random
import subprocess
import sys

from jsonschema import Draft202012Validator

MAX_BYTES = 65536       # PROTOCOL.md 1: the transport limits, implemented here a second time
MAX_DEPTH = 16
MAX_NUMBER_CHARS = 63
TRANSPORT_CODES = ("too_large", "too_deep")
NUMBER_CHARS = set(b"0123456789+-.eE")

failures = []


def fail(what):
    failures.append(what)
    print("FAIL " + what, file=sys.stderr)


class Malformed(Exception):
    pass


class Duplicate(Exception):
    pass


def transport_limit(raw):
    """The code of the first transport limit the raw text breaks, or None."""
    if len(raw) > MAX_BYTES:
        return "too_large"
    depth, in_string, i = 0, False, 0
    while i < len(raw):
        c = raw[i]
        if in_string:
            if c == ord('"'):
                in_string = False
            elif c == ord("\\"):
                i += 1
        elif c == ord('"'):
            in_string = True
        elif c in b"[{":
            depth += 1
            if depth > MAX_DEPTH:
                return "too_deep"
        elif c in b"]}":
            depth -= 1
        elif c == ord("-") or ord("0") <= c <= ord("9"):
            start = i
            while i < len(raw) and raw[i] in NUMBER_CHARS:
                i += 1
            if i - start > MAX_NUMBER_CHARS:
                return "too_large"
            continue
        i += 1
    return None


def strict_parse(raw):
    """JSON as the protocol accepts it: UTF-8, RFC 8259 (no NaN), no U+0000, no lone surrogate;
    raises Malformed, or Duplicate for an object with a member name twice."""
    def pairs(items):
        keys = [k for k, _ in items]
        if len(set(keys)) != len(keys):
            raise Duplicate()
        return dict(items)

    def no_constant(name):
        raise Malformed("constant " + name)

    def check_strings(v):
        for s in ([v] if isinstance(v, str) else
                  list(v.keys()) + list(v.values()) if isinstance(v, dict) else
                  v if isinstance(v, list) else []):
            if isinstance(s, str):
                if "\0" in s:
                    raise Malformed("U+0000")
                s.encode("utf-8")  # a lone surrogate raises UnicodeEncodeError
            else:
                check_strings(s)

    try:
        text = raw.decode("utf-8")
        value = json.loads(text, object_pairs_hook=pairs, parse_constant=no_constant)
        check_strings(value)
        return value
    except (UnicodeError, ValueError) as e:
        raise Malformed(str(e))


def path_of(field):
    """'emitter.position[1]' -> ['emitter', 'position', 1]"""
    out = []
    for part in (field or "").split("."):
        if not part:
            continue
        name, _, rest = part.partition("[")
        if name:
            out.append(name)
        for index in filter(None, rest.replace("]", "").split("[")) if rest else []:
            out.append(int(index))
    return out


def all_errors(errors):
    for e in errors:
        yield e
        yield from all_errors(e.context)


POOL = [0, -1, 1, 0.5, 1.0, 9, 10, 16, 17, 120, 121, 255, 256, 1000, 1001, 1e6, 1000001, 1e7, 2 ** 31,
        2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 63 - 1, 2 ** 63, -3.5e38, 1e-9, "", "x", "speed", "velocity", "dam_break", "../x",
        "Viscosity", "a" * 64, "a" * 65, "b" * 257, True, False, None, [], {}, [0, 0], [0, 0, 0], [0, "1", 0],
        ["speed", "speed"], {"viscosity": 1}, {"rate": 5}, {"position": [0, 0, 0]}]


def mutate(value, rng):
    """A copy of value with one random change: a member or element replaced, removed or added."""
    value = copy.deepcopy(value)
    containers = []

    def walk(v):
        if isinstance(v, (dict, list)):
            containers.append(v)
            for child in (v.values() if isinstance(v, dict) else v):
                walk(child)
    walk(value)
    target = rng.choice(containers)
    keys = list(target.keys()) if isinstance(target, dict) else list(range(len(target)))
    action = rng.random()
    if keys and action < 0.7:
        target[rng.choice(keys)] = rng.choice(POOL)
    elif keys and action < 0.85:
        del target[rng.choice(keys)]
    elif isinstance(target, dict):
        target[rng.choice(["zz", "id", "world", "rate", "values", "frames", "type"])] = rng.choice(POOL)
    else:
        target.append(rng.choice(POOL))
    return value


def differential(binary, valid_messages, validator):
    rng = random.Random(20240601)
    cases = [mutate(rng.choice(valid_messages), rng) for _ in range(4000)]
    lines = [json.dumps(c) for c in cases]
    out = subprocess.run([binary, "--verdicts"], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    if len(out) != len(cases):
        fail("differential: %d verdicts for %d messages" % (len(out), len(cases)))
        return
    disagreements = 0
    for line, case, verdict in zip(lines, cases, out):
        python_ok = validator.is_valid(case)
        if python_ok != (verdict == "ok"):
            disagreements += 1
            if disagreements <= 10:
                fail("differential: jsonschema says %s, C says %s: %s" %
                     ("valid" if python_ok else "invalid", verdict, line[:200]))
    print("differential: %d mutated messages, %d invalid, %d disagreements" %
          (len(cases), sum(v != "ok" for v in out), disagreements))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "protocol/schema"
    with open(os.path.join(root, "client.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    examples = os.path.join(root, "examples")
    with open(os.path.join(examples, "expected_errors.json"), encoding="utf-8") as f:
        expected = json.load(f)

    valid_names = sorted(os.listdir(os.path.join(examples, "valid")))
    types_seen = set()
    valid_messages = []
    for name in valid_names:
        with open(os.path.join(examples, "valid", name), "rb") as f:
            raw = f.read()
        limit = transport_limit(raw)
        if limit:
            fail("valid/%s breaks the transport limit %s" % (name, limit))
            continue
        try:
            value = strict_parse(raw)
        except (Malformed, Duplicate) as e:
            fail("valid/%s does not parse: %r" % (name, e))
            continue
        errors = [e.message for e in validator.iter_errors(value)]
        if errors:
            fail("valid/%s fails the schema: %s" % (name, errors[0]))
        types_seen.add(value.get("type"))
        valid_messages.append(value)
    message_types = set(schema["properties"]["type"]["enum"])
    if not message_types <= types_seen:
        fail("no valid example for %s" % sorted(message_types - types_seen))

    invalid_names = sorted(os.listdir(os.path.join(examples, "invalid")))
    for orphan in sorted(set(expected) ^ set(invalid_names)):
        fail("%s: in only one of invalid/ and expected_errors.json" % orphan)
    for name in invalid_names:
        if name not in expected:
            continue
        code, field = expected[name]["code"], expected[name]["field"]
        with open(os.path.join(examples, "invalid", name), "rb") as f:
            raw = f.read()
        limit = transport_limit(raw)
        if code in TRANSPORT_CODES:
            if limit != code:
                fail("invalid/%s: expected %s from the transport limits, got %s" % (name, code, limit))
            continue
        if limit:
            fail("invalid/%s: breaks the transport limit %s, expected %s" % (name, limit, code))
            continue
        try:
            value = strict_parse(raw)
        except Malformed as e:
            if code != "bad_json":
                fail("invalid/%s: does not parse (%s), expected %s" % (name, e, code))
            continue
        except Duplicate:
            if code != "duplicate_field":
                fail("invalid/%s: has a duplicate member, expected %s" % (name, code))
            continue
        if code in ("bad_json", "duplicate_field"):
            fail("invalid/%s: parses, expected %s" % (name, code))
            continue
        errors = list(all_errors(validator.iter_errors(value)))
        if not errors:
            fail("invalid/%s: passes the schema, expected %s" % (name, code))
            continue
        if code == "bad_message":
            if isinstance(value, dict):
                fail("invalid/%s: is an object, expected bad_message" % name)
            continue
        # jsonschema reports a missing or unknown member, a bad member name and a repeated
        # element at the parent object or array; the C validator names the member or element
        where = path_of(field)
        at = where[:-1] if code in ("missing_field", "unknown_field") else where

        def agrees(e):
            path = list(e.absolute_path)
            if "propertyNames" in e.absolute_schema_path:  # the member's name may hold dots ("water.viscosity")
                return field.startswith(".".join(map(str, path)) + ".")
            return path == at or (path == where[:-1] and e.validator == "uniqueItems")

        if not any(agrees(e) for e in errors):
            fail("invalid/%s: no jsonschema error at %s (%s); errors at %s" %
                 (name, field, code, sorted({"/".join(map(str, e.absolute_path)) for e in errors})))

    if len(sys.argv) > 2:
        differential(sys.argv[2], valid_messages, validator)
    print("check_schema_examples: %d valid, %d invalid examples, %d failures" %
          (len(valid_names), len(invalid_names), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
