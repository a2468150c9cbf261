#!/usr/bin/env python3
"""Compares two respec builds of a suite by alternating runs.

On a shared machine the speed available to a program drifts within
minutes, so two `bench/run.py` reports taken one after the other can
differ by more than the change being measured. This script takes the
binaries two `run.py --out` directories already hold (NAME.respec and
NAME.omp per workload) and, per workload, runs A's respec binary, B's
respec binary and the OpenMP binary in turn, ROUNDS times, so that drift
hits all three alike. It prints a markdown table of the medians, the
ratios OpenMP/respec for A and B, and A/B (above 1: B is faster), with
geometric means. Outputs (checksums) must agree, or the row says so.

Usage: bench/alternate.py A_DIR B_DIR [--threads 1,2] [--rounds 5]
           [--only w1,w2]
"""
import argparse
import math
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import agree  # noqa: E402  (run.py's tolerance for checksums)


def run_once(binary, threads):
    """(milliseconds, checksum) of one run of `binary`."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out = subprocess.run([binary], capture_output=True, text=True, env=env,
                         check=True).stdout
    ms = float(re.search(r"ms=(\S+)", out).group(1))
    return ms, float(re.search(r"checksum=(\S+)", out).group(1))


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="run.py --out directory of build A")
    parser.add_argument("b", help="run.py --out directory of build B")
    parser.add_argument("--threads", default="2")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", help="comma-separated workloads")
    args = parser.parse_args()

    names = sorted(f[:-len(".respec")] for f in os.listdir(args.a)
                   if f.endswith(".respec") and
                   os.path.exists(os.path.join(args.b, f)))
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    if not names:
        sys.exit("alternate.py: no workload built in both directories")

    print("| workload | threads | A ms | B ms | OpenMP ms | OpenMP/A | "
          "OpenMP/B | A/B | outputs |")
    print("|---|---|---|---|---|---|---|---|---|")
    ratios = {}
    for threads in args.threads.split(","):
        for name in names:
            binaries = [os.path.join(args.a, name + ".respec"),
                        os.path.join(args.b, name + ".respec"),
                        os.path.join(args.a, name + ".omp")]
            times = [[], [], []]
            checksums = [[], [], []]
            for _ in range(args.rounds):
                for i, binary in enumerate(binaries):
                    ms, checksum = run_once(binary, threads)
                    times[i].append(ms)
                    checksums[i].append(checksum)
            a, b, omp = (statistics.median(t) for t in times)
            row = (omp / a, omp / b, a / b)
            ratios.setdefault(threads, []).append(row)
            reference = checksums[2][0]
            same = ("equal" if all(agree(c, reference)
                                   for sums in checksums for c in sums)
                    else "DIFFER")
            print(f"| {name} | {threads} | {a:.2f} | {b:.2f} | {omp:.2f} | "
                  f"{row[0]:.2f} | {row[1]:.2f} | {row[2]:.2f} | {same} |",
                  flush=True)
    for threads, rows in ratios.items():
        means = [geomean([r[i] for r in rows]) for i in range(3)]
        print(f"| geomean | {threads} | | | | {means[0]:.2f} | "
              f"{means[1]:.2f} | {means[2]:.2f} | |")


if __name__ == "__main__":
    main()
