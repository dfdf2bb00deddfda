"""`fluidcast params --json` parses and matches the text table: same names, in the same order."""
import json
import subprocess
import sys


def output(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 or p.stderr:
        sys.exit(f"FAIL: {' '.join(cmd)}: exit status {p.returncode}\n{p.stderr}")
    return p.stdout


def main():
    fluidcast = sys.argv[1]
    table = json.loads(output([fluidcast, "params", "--json"]))
    params = table["parameters"]
    names = [p["name"] for p in params]
    text_names = [line.split()[0] for line in output([fluidcast, "params"]).splitlines()[1:]]
    if names != text_names:
        sys.exit(f"FAIL: JSON names {names} differ from the text table's {text_names}")
    for required in ("smoothing_radius", "viscosity", "time_step"):
        if required not in names:
            sys.exit(f"FAIL: no parameter {required}")
    for p in params:
        missing = {"name", "label", "type", "default", "live", "solvers", "all_solvers", "help", "description"} - p.keys()
        if missing or ("choices" if p["type"] == "enum" else "unit") not in p:
            sys.exit(f"FAIL: {p['name']}: missing keys {missing}")
        if not p["label"].strip() or not p["help"].strip() or "seed" in p["help"] or "eq." in p["help"]:
            sys.exit(f"FAIL: {p['name']}: label {p['label']!r} or help {p['help']!r} empty or citing sources")
        if p["type"] in ("float", "int") and not p["min"] <= p["default"] <= p["max"]:
            sys.exit(f"FAIL: {p['name']}: default {p['default']} outside [{p['min']}, {p['max']}]")
        if p["type"] == "enum" and p["default"] not in p["choices"]:
            sys.exit(f"FAIL: {p['name']}: default {p['default']} not among {p['choices']}")
    print(f"ok: {len(params)} parameters, JSON and text agree")


if __name__ == "__main__":
    main()
