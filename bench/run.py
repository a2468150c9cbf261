#!/usr/bin/env python3
"""Runs the benchmarks of bench/<suite>/: each workload as CUDA compiled by
respec and as the OpenMP C++ a CPU programmer would write, on the same
inputs, several times per thread count. Prints a markdown table (median
times, ratio OpenMP/respec: above 1 means respec is faster) and writes it
with a CSV next to the binaries. Checksums must agree; a workload whose
outputs differ is reported as such, not timed.

A suite may hold a `suite.json` with "reference", the command that builds
the C++ versions (default `clang++-22 -O3 -march=native -fopenmp`), and
"variants", names mapped to extra flags for both versions: each workload is
built and reported once per variant, as `<workload>_<variant>`.

Usage: bench/run.py [--suite barriers] [--runs 5] [--threads 1,2]
                    [--only w1,w2] [--ref-cxx CMD] [--build build]
                    [--out build/bench]
"""
import argparse
import csv
import itertools
import json
import os
import re
import shlex
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SUITE = {"reference": "clang++-22 -O3 -march=native -fopenmp",
                 "variants": {"": ""}}


def run(cmd, env=None):
    return subprocess.run(cmd, check=True, capture_output=True, text=True,
                          env=env).stdout


def measure(binary, threads, runs):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    times, sums = [], set()
    for _ in range(runs):
        out = run([binary], env)
        times.append(float(re.search(r"ms=(\S+)", out).group(1)))
        sums.add(float(re.search(r"checksum=(\S+)", out).group(1)))
    return statistics.median(times), sums.pop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="barriers")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--only", help="comma-separated workloads")
    parser.add_argument("--ref-cxx", help="command building the C++ versions")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    suite = os.path.join(ROOT, "bench", args.suite)
    out = args.out or os.path.join(args.build, "bench", args.suite)
    os.makedirs(out, exist_ok=True)
    respec = os.path.join(args.build, "bin", "respec")
    threads = [int(t) for t in args.threads.split(",")]
    config = dict(DEFAULT_SUITE)
    if os.path.exists(os.path.join(suite, "suite.json")):
        with open(os.path.join(suite, "suite.json")) as f:
            config.update(json.load(f))
    ref_cxx = shlex.split(args.ref_cxx or config["reference"])
    names = sorted(f[:-3] for f in os.listdir(suite) if f.endswith(".cu"))
    if args.only:
        names = [n for n in names if n in args.only.split(",")]

    rows = []
    for name, (variant, flags) in itertools.product(
            names, config["variants"].items()):
        label = f"{name}_{variant}" if variant else name
        flags = shlex.split(flags)
        cuda_bin = os.path.join(out, label + ".respec")
        omp_bin = os.path.join(out, label + ".omp")
        run([respec, "-O3", *flags, os.path.join(suite, name + ".cu"), "-o",
             cuda_bin])
        run([*ref_cxx, *flags, os.path.join(suite, name + ".cpp"), "-o",
             omp_bin])
        for t in threads:
            cuda_ms, cuda_sum = measure(cuda_bin, t, args.runs)
            omp_ms, omp_sum = measure(omp_bin, t, args.runs)
            agree = abs(cuda_sum - omp_sum) <= 1e-4 * max(1.0, abs(omp_sum))
            rows.append({"workload": label, "threads": t,
                         "respec_ms": cuda_ms, "openmp_ms": omp_ms,
                         "speedup": omp_ms / cuda_ms if agree else None,
                         "outputs": "equal" if agree else
                         f"DIFFER ({cuda_sum} vs {omp_sum})"})

    with open(os.path.join(out, "report.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = ["| workload | threads | respec ms | OpenMP ms | OpenMP/respec"
             " | outputs |", "|---|---|---|---|---|---|"]
    for r in rows:
        ratio = f"{r['speedup']:.2f}" if r["speedup"] else "-"
        lines.append(f"| {r['workload']} | {r['threads']} | "
                     f"{r['respec_ms']:.2f} | {r['openmp_ms']:.2f} | "
                     f"{ratio} | {r['outputs']} |")
    for t in threads:
        ratios = [r["speedup"] for r in rows
                  if r["threads"] == t and r["speedup"]]
        if ratios:
            lines.append(f"| geomean | {t} | | | "
                         f"{statistics.geometric_mean(ratios):.2f} | |")
    table = "\n".join(lines)
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(f"Medians of {args.runs} runs.\n\n{table}\n")
    print(table)
    return 0 if all(r["speedup"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
