"""Every shipped scene is stable: `fluidcast run` of one scene with one solver for 3 simulated seconds,
with the adaptive step and the runner's blow-up watch (the server's checks), must end without a blow-up
and with every particle inside the container.  Usage: check_scene_stable.py FLUIDCAST SCENE SOLVER [SECONDS]"""
import re
import subprocess
import sys
import time


def main():
    fluidcast, scene, solver = sys.argv[1:4]
    seconds = sys.argv[4] if len(sys.argv) > 4 else "3"
    cmd = [fluidcast, "run", "--scene", scene, "--solver", solver, "--time", seconds, "--quiet"]
    start = time.monotonic()
    run = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    print(run.stdout, end="")
    print(run.stderr, end="", file=sys.stderr)
    if run.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited with {run.returncode} (3: the blow-up watch fired)")
    for line, why in [(r"^stability +no blow-up$", "the stability watch fired"),
                      (r"^domain +every particle inside the container$", "particles left the container"),
                      (rf"^simulated time +{re.escape(seconds)}", "the run did not reach its time")]:
        if not re.search(line, run.stdout, re.M):
            sys.exit(f"FAIL: {scene} with {solver}: {why}")
    print(f"ok: {scene} with {solver} stable for {seconds} s ({wall:.1f} s wall)")


main()
