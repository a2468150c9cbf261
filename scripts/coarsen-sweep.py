#!/usr/bin/env python3
"""Differential test of coarsening: runs end-to-end test programs under
every combination of block and thread coarsening factors and checks each
output with the program's own FileCheck lines (the same output as without
coarsening).

Each program's first `RUN:` line is replayed with `--coarsen=...` added to
the respec command. The ctest suite runs a rotation of two combinations per
program (see the `RUN:` lines of test/e2e); this script runs them all.

Usage: scripts/coarsen-sweep.py [--build build] [--jobs 2]
           [--blocks 1,2,3,4,7,8] [--threads 1,2,4] [--mapping strided]
           [suite folders of test/e2e ...]
"""
import argparse
import concurrent.futures
import itertools
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SUITES = ["basics", "grids", "barriers", "atomics", "globals",
                  "math", "memory", "templates"]


def first_run_line(path):
    with open(path) as f:
        for line in f:
            match = re.search(r"RUN:\s*(.*)", line)
            if match:
                return match.group(1)
    return None


def run_one(args, path, block, thread, workdir):
    command = first_run_line(path)
    if command is None:
        return path, block, thread, True, "no RUN line"
    stem = f"{os.path.basename(path)}.b{block}t{thread}"
    binary = os.path.join(workdir, stem)
    flags = (f"--coarsen=block={block},thread={thread} "
             f"--coarsen-thread-map={args.mapping}")
    respec = os.path.join(args.build, "bin", "respec")
    command = (command.replace("%respec", f"{respec} {flags}")
               .replace("%s", path).replace("%t", binary)
               .replace("%cuda_path", "/usr/local/cuda"))
    env = dict(os.environ, OMP_NUM_THREADS="2",
               PATH=os.pathsep.join([os.path.join(args.build, "bin"),
                                     "/usr/lib/llvm-22/bin",
                                     os.environ["PATH"]]))
    result = subprocess.run(command, shell=True, capture_output=True,
                            text=True, env=env, timeout=600)
    ok = result.returncode == 0
    return path, block, thread, ok, (result.stdout + result.stderr)[-2000:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--blocks", default="1,2,3,4,7,8")
    parser.add_argument("--threads", default="1,2,4")
    parser.add_argument("--mapping", default="strided",
                        choices=["strided", "contiguous"])
    parser.add_argument("suites", nargs="*", default=DEFAULT_SUITES)
    args = parser.parse_args()
    programs = sorted(
        os.path.join(ROOT, "test", "e2e", suite, name)
        for suite in args.suites
        for name in os.listdir(os.path.join(ROOT, "test", "e2e", suite))
        if name.endswith(".cu"))
    combos = [(b, t) for b, t in itertools.product(
        [int(x) for x in args.blocks.split(",")],
        [int(x) for x in args.threads.split(",")]) if (b, t) != (1, 1)]
    failures = []
    total = 0
    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(run_one, args, p, b, t, workdir)
                for p in programs for b, t in combos]
        for job in concurrent.futures.as_completed(jobs):
            path, block, thread, ok, output = job.result()
            total += 1
            name = os.path.relpath(path, ROOT)
            if not ok:
                failures.append((name, block, thread, output))
                print(f"FAIL {name} block={block} thread={thread}",
                      flush=True)
    for name, block, thread, output in failures:
        print(f"\n=== {name} block={block} thread={thread}\n{output}")
    print(f"\n{total - len(failures)} of {total} runs passed "
          f"({len(programs)} programs x {len(combos)} combinations)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
