"""Acceptance run: 2000 steps of the dam break exported every 50 steps, every frame and stats line checked."""
import json
import math
import os
import shutil
import subprocess
import sys
import time

from plyreader import read_ply

STEPS, EVERY = 2000, 50
FRONT_TIME = 0.2        # s: look at the first frame at or after this time ...
MIN_ADVANCE = 0.1       # m: ... whose front must have moved at least this far
DOMAIN_SLACK = 1e-4     # m: float rounding at the walls
STATS_KEYS = {"step", "time", "dt", "dt_bound", "wall_ms", "particles", "max_speed", "rms_speed", "mean_density_error",
              "max_density_error", "mean_abs_density_error", "mean_neighbours", "total_heat"}
DT_BOUNDS = {"time_step", "acoustic", "velocity", "viscous", "force", "thermal"}  # the adaptive step's (no "fixed")


def fail(what):
    sys.exit(f"FAIL: {what}")


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_fluidcast(fluidcast, scene, out, stats):
    cmd = [fluidcast, "run", "--scene", scene, "--steps", str(STEPS), "--export", out, "--every", str(EVERY),
           "--stats", stats]
    print("$", " ".join(cmd), flush=True)
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    print(p.stderr + p.stdout, flush=True)
    print(f"wall time of the run: {time.monotonic() - start:.1f} s", flush=True)
    if p.returncode != 0:
        fail(f"fluidcast exited with status {p.returncode}")


def check_frame(step, frame, lo, hi, ids0):
    """One frame: finite values, inside the domain, unique ids, the same particles as frame 0."""
    ids = [r[0] for r in frame["records"]]
    if len(set(ids)) != len(ids):
        fail(f"frame {step}: duplicate ids")
    if ids0 is not None and set(ids) != ids0:
        fail(f"frame {step}: the set of particle ids changed")
    for r in frame["records"]:
        if not all(math.isfinite(v) for v in r[1:]):
            fail(f"frame {step}: non-finite value in particle {r}")
        for a in range(3):
            if not lo[a] - DOMAIN_SLACK <= r[1 + a] <= hi[a] + DOMAIN_SLACK:
                fail(f"frame {step}: particle {r[0]} at {r[1:4]} outside the domain {lo}-{hi}")
    if frame["time"] is None:
        fail(f"frame {step}: no 'comment time' line")


def read_frames(out, lo, hi):
    expected = [f"frame_{s:06d}.ply" for s in range(0, STEPS + 1, EVERY)]
    found = sorted(os.listdir(out))
    if found != expected:
        fail(f"frames in {out}: expected {expected[0]} .. {expected[-1]} ({len(expected)}), got {found}")
    frames, ids0 = {}, None
    for step in range(0, STEPS + 1, EVERY):
        frame = read_ply(os.path.join(out, f"frame_{step:06d}.ply"))
        check_frame(step, frame, lo, hi, ids0)
        ids0 = ids0 or {r[0] for r in frame["records"]}
        frames[step] = frame
    counts = {f["count"] for f in frames.values()}
    if len(counts) != 1:
        fail(f"particle count changed between frames: {sorted(counts)}")
    print(f"ok: {len(frames)} frames of {counts.pop()} particles: layout, finite, inside the domain, ids")
    return frames


def read_stats(stats, particles):
    lines = open(stats).read().splitlines()
    if len(lines) != STEPS:
        fail(f"{stats}: {len(lines)} lines, expected {STEPS}")
    rows = []
    for n, line in enumerate(lines, 1):
        row = json.loads(line)
        if set(row) != STATS_KEYS:
            fail(f"{stats}:{n}: keys {sorted(row)}, expected {sorted(STATS_KEYS)}")
        bound = row.pop("dt_bound")
        if bound not in DT_BOUNDS:
            fail(f"{stats}:{n}: dt_bound {bound!r}, expected one of {sorted(DT_BOUNDS)}")
        if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in row.values()):
            fail(f"{stats}:{n}: non-finite value in {row}")
        if not 0 < row["dt"] <= 5e-4 * (1 + 1e-9):
            fail(f"{stats}:{n}: dt {row['dt']} outside (0, time_step 0.5 ms]")
        if row["step"] != n or row["particles"] != particles:
            fail(f"{stats}:{n}: expected step {n} with {particles} particles, got {row}")
        if rows and row["time"] <= rows[-1]["time"]:
            fail(f"{stats}:{n}: time does not increase")
        rows.append(row)
    print(f"ok: {len(rows)} stats lines; max speed {max(r['max_speed'] for r in rows):.3g} m/s, "
          f"max density error {max(r['max_density_error'] for r in rows):.3g}")
    return rows


def check_times(frames, rows):
    for step, frame in frames.items():
        want = rows[step - 1]["time"] if step else 0.0
        if abs(frame["time"] - want) > 1e-6 * max(1.0, want):
            fail(f"frame {step}: comment time {frame['time']}, stats say {want}")
    print("ok: frame times match the stats")


def check_front(frames):
    """The column collapses: the front (99th percentile of x) advances by MIN_ADVANCE by FRONT_TIME."""
    x0 = [r[1] for r in frames[0]["records"]]
    front0 = percentile(x0, 0.99)
    later = [s for s in sorted(frames) if frames[s]["time"] >= FRONT_TIME]
    if not later:
        fail(f"no frame at or after t = {FRONT_TIME} s")
    frame = frames[later[0]]
    x = [r[1] for r in frame["records"]]
    front = percentile(x, 0.99)
    print(f"front: t = 0: p99 {front0:.3f} m (max {max(x0):.3f}); t = {frame['time']:.3f} s (step {later[0]}): "
          f"p99 {front:.3f} m (max {max(x):.3f})")
    for step in sorted(frames)[:: max(1, len(frames) // 10)]:
        xs = [r[1] for r in frames[step]["records"]]
        print(f"  t = {frames[step]['time']:.3f} s: front p99 {percentile(xs, 0.99):.3f} m, max {max(xs):.3f} m")
    if front - front0 < MIN_ADVANCE:
        fail(f"the front advanced {front - front0:.3f} m by t = {frame['time']:.3f} s, expected >= {MIN_ADVANCE} m")
    print(f"ok: the front advanced {front - front0:.3f} m")


def main():
    fluidcast, scene, work = sys.argv[1:4]
    with open(scene) as f:
        domain = json.load(f)["domain"]
    lo, hi = domain["min"], domain["max"]
    out, stats = os.path.join(work, "frames"), os.path.join(work, "stats.jsonl")
    shutil.rmtree(work, ignore_errors=True)
    run_fluidcast(fluidcast, scene, out, stats)
    frames = read_frames(out, lo, hi)
    rows = read_stats(stats, frames[0]["count"])
    check_times(frames, rows)
    check_front(frames)


if __name__ == "__main__":
    main()
