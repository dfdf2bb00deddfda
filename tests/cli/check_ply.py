"""Short runs of `fluidcast run`: PLY export every 5 steps, stats lines, plain progress, --time, --threads."""
import json
import os
import shutil
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

    p = run([fluidcast, "run", "--scene", scene, "--time", "0.005", "--threads", "1", "--quiet"])
    check(summary_value(p.stdout, "steps") == "10", "--time 0.005 at dt 0.0005 runs 10 steps")
    check(p.stderr == "", "--quiet prints nothing on stderr")


if __name__ == "__main__":
    main()
