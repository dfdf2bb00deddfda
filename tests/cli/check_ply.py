"""Short runs of `fluidcast run`: PLY export every 5 steps, stats lines, plain progress, --time, --threads,
and real densities in frame 0 (before any step) with both solvers."""
import json
import os
import shutil
import statistics
import subprocess
import sys

from plyreader import read_ply


def run(cmd):
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True)
    print(p.stdout + p.stderr, flush=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: exit status {p.returncode}")
    return p


def summary_value(stdout, key):
    for line in stdout.splitlines():
        if line.startswith(key + " "):
            return line[len(key):].split()[0]
    sys.exit(f"FAIL: no '{key}' line in the summary")


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}")
    print("ok:", what)


def rest_density(fluidcast):
    table = json.loads(subprocess.run([fluidcast, "params", "--json"], capture_output=True, text=True, check=True).stdout)
    return next(e["default"] for e in table["parameters"] if e["name"] == "rest_density")


def check_initial_densities(fluidcast, frame, solver):
    """The dam break's column rests on the lattice at t = 0: inside it the density is the rest density,
    at its free surface less, nowhere 0 (frame 0 is written after the solver computed it)."""
    rho0 = rest_density(fluidcast)
    densities = [r[7] for r in frame["records"]]
    inside = sum(1 for d in densities if abs(d / rho0 - 1) < 0.01) / len(densities)
    check(frame["time"] == 0 and min(densities) > 0.5 * rho0,
          f"{solver}: frame 0 has densities above rho0/2 everywhere (min {min(densities):.1f})")
    check(abs(statistics.median(densities) / rho0 - 1) < 0.005 and max(densities) < 1.01 * rho0,
          f"{solver}: frame 0's median density is rho0 = {rho0} (median {statistics.median(densities):.2f}, "
          f"max {max(densities):.2f})")
    check(inside > 0.8, f"{solver}: most particles of the resting column ({inside:.0%}) are within 1% of rho0")


def main():
    fluidcast, scene, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    out, stats = os.path.join(work, "frames", "nested"), os.path.join(work, "stats.jsonl")

    p = run([fluidcast, "run", "--scene", scene, "--steps", "10", "--export", out, "--every", "5",
             "--stats", stats, "--threads", "2"])
    files = sorted(os.listdir(out))
    check(files == ["frame_000000.ply", "frame_000005.ply", "frame_000010.ply"], f"three frames, got {files}")
    particles = int(summary_value(p.stdout, "particles"))
    frames = [read_ply(os.path.join(out, f)) for f in files]
    check(all(f["count"] == particles for f in frames), f"every frame has {particles} particles")
    check([f["time"] for f in frames] == sorted(set(f["time"] for f in frames)) and frames[0]["time"] == 0,
          "frame times start at 0 and increase")
    check(all(len(f["records"]) == particles for f in frames), "record counts match the header")
    lines = [json.loads(line) for line in open(stats)]
    check([s["step"] for s in lines] == list(range(1, 11)), "10 stats lines, steps 1..10")
    check(summary_value(p.stdout, "steps") == "10", "summary says 10 steps")
    check("\r" not in p.stderr and "progress: 100%" in p.stderr, "plain progress lines when not a terminal")

    check_initial_densities(fluidcast, frames[0], "sph")
    pbf_out = os.path.join(work, "pbf")
    run([fluidcast, "run", "--scene", scene, "--solver", "pbf", "--steps", "1", "--export", pbf_out, "--every", "1",
         "--quiet", "--threads", "2"])
    check_initial_densities(fluidcast, read_ply(os.path.join(pbf_out, "frame_000000.ply")), "pbf")

    p = run([fluidcast, "run", "--scene", scene, "--time", "0.005", "--threads", "1", "--quiet"])
    check(summary_value(p.stdout, "steps") == "10", "--time 0.005 at dt 0.0005 runs 10 steps")
    check(p.stderr == "", "--quiet prints nothing on stderr")


if __name__ == "__main__":
    main()
