#!/usr/bin/env python3
"""Runs the end-to-end test programs and the benchmarks on a real NVIDIA GPU
in three steps, for machines where the GPU is not where respec is built:

  build  DIR   builds, here, every end-to-end CUDA program of test/e2e as a
               GPU program with respec (`--target=nvptx`), also coarsened,
               and with nvcc as the reference; the benchmarks of bench/ as
               GPU programs untuned, with `--tune=auto` and with
               `--tune=profile`, and with nvcc. Writes the executables, a
               manifest and `run.sh` into DIR.
  (on the GPU machine) DIR/run.sh RESULTS
               runs everything in the manifest (each run under a time
               limit) and writes RESULTS/e2e.tar.gz and RESULTS/bench.tar.gz
               (each run's stdout, stderr and exit status, and the tuning
               database of the profiling builds).
  build DIR --tuning-results RESULTS
               also builds each benchmark with the tuning database that
               its profiling build wrote on the GPU (`--tune=use`): run
               again, the tuned and untuned programs compare directly.
  check  DIR RESULTS
               checks, here, each e2e program's output with the FileCheck
               lines of its test, compares respec's output with nvcc's and
               prints the benchmarks' times and the tuned/untuned ratios of
               each kernel (from the tuning database).

Usage: scripts/gpu-bundle.py build DIR [--build build] [--arch sm_90]
           [--coarsen block=2,thread=2] [--jobs 2] [--only e2e|bench]
           [--filter REGEX] [--variants V1,V2] [--tuning-results RESULTS]
       scripts/gpu-bundle.py check DIR RESULTS [--report FILE]
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NVCC = "/usr/local/cuda/bin/nvcc"
FILECHECK = "/usr/lib/llvm-22/bin/FileCheck"
# opencl holds .cl kernels (not supported for --target=nvptx yet),
# no-toolkit tests run without the toolkit's headers, multi-tu programs are
# several sources, tuning is the CPU's profile-then-rebuild flow.
SKIP_SUITES = {"opencl", "no-toolkit", "multi-tu", "tuning"}
# The first RUN line of an end-to-end test: build, run, check the output.
RUN_LINE = re.compile(r"^%respec (?P<flags>.*?) %s -o (?P<exe>%t\S*)"
                      r"(?: 2> \S+)? && (?P=exe) \| FileCheck %s"
                      r"(?P<check>(?: --check-prefix[= ]\S+)?)$")
# Benchmarks: suite, workload, extra flags of each build.
BENCH_SUITES = {"sci": [""], "core": ["-DREAL=float", "-DREAL=double"],
                "barriers": [""]}
# Kernel versions the profiling build times (thread coarsening is the one
# that pays on a GPU; block coarsening is the CPU's).
TUNE_CANDIDATES = ("block=1,thread=1;block=2,thread=1;block=4,thread=1;"
                   "block=1,thread=2;block=1,thread=4;block=2,thread=2")
RUN_LIMIT_S = 60


def first_run_line(path):
    """(respec flags, FileCheck options) of the test's first RUN line, or
    None if it is not the plain build-run-check form."""
    with open(path) as f:
        for line in f:
            match = re.search(r"RUN:\s*(.*)", line)
            if match:
                found = RUN_LINE.match(match.group(1).strip())
                if not found:
                    return None
                return (shlex.split(found.group("flags")),
                        shlex.split(found.group("check")))
    return None


def device_flags(flags, path):
    """The flags that are about the source, not about the CPU target."""
    keep, take_next = [], False
    for word in flags:
        if take_next:
            keep.append(word)
            take_next = False
        elif word.startswith(("-D", "-I", "-std", "-O")) or word == "-g":
            keep.append(word)
            take_next = word in ("-I", "-D")
        elif word == "-x":
            keep.append(word)
            take_next = True
    return [w.replace("%S", os.path.dirname(path)) for w in keep]


def compile_one(cmd, log):
    try:
        result = subprocess.run(cmd, capture_output=True, text=True,
                                timeout=1200)
        ok, text = result.returncode == 0, result.stderr
    except subprocess.TimeoutExpired:
        ok, text = False, "build timed out"
    if not ok:
        with open(log, "a") as f:
            f.write(f"=== {shlex.join(cmd)}\n{text[-3000:]}\n")
    return ok


def e2e_builds(args, out):
    """(name, variant, command, check options, source) per build."""
    e2e = os.path.join(ROOT, "test", "e2e")
    respec = os.path.join(args.build, "bin", "respec")
    builds = []
    for suite in sorted(os.listdir(e2e)):
        folder = os.path.join(e2e, suite)
        if not os.path.isdir(folder) or suite in SKIP_SUITES:
            continue
        for file in sorted(os.listdir(folder)):
            if not file.endswith(".cu"):
                continue
            path = os.path.join(folder, file)
            parsed = first_run_line(path)
            if not parsed:
                continue
            flags = device_flags(parsed[0], path)
            name = f"{suite}.{file[:-3]}"
            exe = lambda v: os.path.join(out, "e2e", f"{name}.{v}")
            gpu = [respec, "--target=nvptx", f"--gpu-arch={args.arch}"]
            builds.append((name, "respec", gpu + flags + [path, "-o",
                                                          exe("respec")],
                           parsed[1], path))
            builds.append((name, "nvcc", [NVCC, f"-arch={args.arch}", "--extended-lambda",
                                          "-x", "cu", *flags, path, "-o",
                                          exe("nvcc")], parsed[1], path))
            if args.coarsen:
                builds.append((name, "coarsened",
                               gpu + [f"--coarsen={args.coarsen}"] + flags +
                               [path, "-o", exe("coarsened")], parsed[1],
                               path))
    return builds


def bench_builds(args, out):
    respec = os.path.join(args.build, "bin", "respec")
    builds = []
    for suite, variants in BENCH_SUITES.items():
        folder = os.path.join(ROOT, "bench", suite)
        for file in sorted(os.listdir(folder)):
            if not file.endswith(".cu"):
                continue
            for variant in variants:
                tag = variant.split("=")[-1] if variant else ""
                name = f"{suite}.{file[:-3]}" + (f"_{tag}" if tag else "")
                path = os.path.join(folder, file)
                extra = [variant] if variant else []
                exe = lambda v: os.path.join(out, "bench", f"{name}.{v}")
                gpu = [respec, "--target=nvptx", f"--gpu-arch={args.arch}",
                       "-O3", *extra, path]
                builds += [
                    (name, "untuned", gpu + ["-o", exe("untuned")], [], path),
                    (name, "auto", gpu + ["--tune=auto",
                                          f"--tune-candidates={TUNE_CANDIDATES}",
                                          "-o", exe("auto")], [], path),
                    # Enough repetitions that every version runs at
                    # least twice (the first launch warms up).
                    (name, "profile",
                     gpu + ["-DREPS=13", "--tune=profile",
                            f"--tune-candidates={TUNE_CANDIDATES}", "-o",
                            exe("profile")], [], path),
                    (name, "nvcc", [NVCC, f"-arch={args.arch}", "-O3",
                                    *extra, path, "-o", exe("nvcc")], [],
                     path)]
                # With the tuning database of an earlier run on the GPU:
                # the program that keeps each kernel's fastest version.
                db = os.path.join(args.tuning_results or "", "bench",
                                  f"{name}.tuning.db")
                if args.tuning_results and os.path.exists(db):
                    builds.append((name, "tuned",
                                   gpu + [f"--tune=use={db}", "-o",
                                          exe("tuned")], [], path))
    return builds


RUN_SH = r"""#!/bin/bash
# Runs the programs of this bundle (scripts/gpu-bundle.py) on the GPU.
# Usage: run.sh RESULTS [e2e|bench ...]
# Each part stops after $E2E_BUDGET / $BENCH_BUDGET seconds (default 300)
# and still writes what it ran.
set -u
here=$(cd "$(dirname "$0")" && pwd)
results=$1; shift
parts=${*:-e2e bench}
work=$(mktemp -d)
nvidia-smi -L > "$results/gpu.txt" 2>&1
run_one() {  # kind name variant
  local dir=$work/$1 exe=$here/$1/$2.$3
  mkdir -p "$dir"
  ( cd "$dir" && RESPEC_TUNING_DB=$dir/$2.tuning.db \
      timeout __LIMIT__ "$exe" > "$2.$3.out" 2> "$2.$3.err"; echo $? > "$2.$3.rc" )
}
export -f run_one; export here work
for part in $parts; do
  start=$(date +%s)
  if [ "$part" = e2e ]; then
    # Small programs: several at a time.
    grep '^e2e ' "$here/manifest" |
      timeout "${E2E_BUDGET:-300}" xargs -P 8 -n 3 bash -c 'run_one "$@"' _
  else
    # Timings: one at a time.
    grep '^bench ' "$here/manifest" |
      timeout "${BENCH_BUDGET:-300}" xargs -P 1 -n 3 bash -c 'run_one "$@"' _
  fi
  echo "$part: $(( $(date +%s) - start )) s" >> "$results/gpu.txt"
  tar czf "$results/$part.tar.gz" -C "$work" "$part" 2>/dev/null
done
"""


def build(args):
    out = os.path.abspath(args.dir)
    os.makedirs(out, exist_ok=True)
    builds = []
    for part in ("e2e", "bench"):
        if args.only in (None, part):
            os.makedirs(os.path.join(out, part), exist_ok=True)
            builds += [(part, *b) for b in
                       (e2e_builds if part == "e2e" else bench_builds)(args,
                                                                        out)]
    if args.filter:
        builds = [b for b in builds if re.search(args.filter, b[1])]
    if args.variants:
        keep = args.variants.split(",")
        builds = [b for b in builds if b[2] in keep]
    log = os.path.join(out, "build-failures.log")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        done = list(pool.map(lambda b: compile_one(b[3], log), builds))
    manifest, checks = [], {}
    for (part, name, variant, cmd, check, path), ok in zip(builds, done):
        print(("built " if ok else "FAILED ") + f"{part} {name} {variant}",
              flush=True)
        if ok:
            manifest.append(f"{part} {name} {variant}")
        checks[name] = {"source": os.path.relpath(path, ROOT),
                        "check": check}
    mode = "a" if args.only else "w"
    with open(os.path.join(out, "manifest"), mode) as f:
        f.write("".join(line + "\n" for line in manifest))
    checks_file = os.path.join(out, "checks.json")
    if os.path.exists(checks_file) and args.only:
        with open(checks_file) as f:
            checks = {**json.load(f), **checks}
    with open(checks_file, "w") as f:
        json.dump(checks, f, indent=1)
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write(RUN_SH.replace("__LIMIT__", str(RUN_LIMIT_S)))
    os.chmod(os.path.join(out, "run.sh"), 0o755)
    failed = len(builds) - sum(done)
    print(f"{sum(done)} of {len(builds)} builds passed"
          + (f"; failures in {log}" if failed else ""))
    return 0


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


def check_e2e(bundle, results, checks, lines):
    e2e = os.path.join(results, "e2e")
    names = sorted({l.split()[1] for l in
                    read(os.path.join(bundle, "manifest")).splitlines()
                    if l.startswith("e2e ")})
    counts = {}
    lines.append("| program | respec | coarsened | nvcc | respec = nvcc |")
    lines.append("|---|---|---|---|---|")
    for name in names:
        if name not in checks:
            continue
        row, outputs = [name], {}
        for variant in ("respec", "coarsened", "nvcc"):
            out = read(os.path.join(e2e, f"{name}.{variant}.out"))
            rc = read(os.path.join(e2e, f"{name}.{variant}.rc"))
            if out is None or rc is None:
                verdict = "not run"
            else:
                outputs[variant] = out
                source = os.path.join(ROOT, checks[name]["source"])
                fc = subprocess.run([FILECHECK, source, *checks[name]["check"]],
                                    input=out, capture_output=True, text=True)
                if rc.strip() != "0":
                    verdict = f"FAIL (exit {rc.strip()})"
                elif fc.returncode != 0:
                    verdict = "FAIL (output)"
                else:
                    verdict = "pass"
            counts.setdefault(variant, {}).setdefault(verdict.split()[0], 0)
            counts[variant][verdict.split()[0]] += 1
            row.append(verdict)
        same = ("-" if "respec" not in outputs or "nvcc" not in outputs else
                "yes" if outputs["respec"] == outputs["nvcc"] else "no")
        row.append(same)
        lines.append("| " + " | ".join(row) + " |")
    return counts


def bench_times(out):
    match = re.search(r"ms=([0-9.]+)", out or "")
    return float(match.group(1)) if match else None


def compare_checksums(outputs):
    """'equal', the largest relative difference of the checksums of the
    versions that printed them (floating-point results may differ in the
    last bits between compilers), or '-' if fewer than two did."""
    sums = [[float(x) for x in re.findall(r"checksum=(\S+)", o or "")]
            for o in outputs.values()]
    sums = [s for s in sums if s]
    if len(sums) < 2:
        return "-"
    if any(len(s) != len(sums[0]) for s in sums):
        return "DIFFER (count)"
    worst = 0.0
    for values in zip(*sums):
        scale = max(abs(v) for v in values) or 1.0
        worst = max(worst, (max(values) - min(values)) / scale)
    return "equal" if worst == 0 else f"rel. diff {worst:.1e}"


def check_bench(bundle, results, lines):
    bench = os.path.join(results, "bench")
    names = sorted({l.split()[1] for l in
                    read(os.path.join(bundle, "manifest")).splitlines()
                    if l.startswith("bench ")})
    lines.append("| workload | nvcc ms | respec ms | auto ms | tuned ms | "
                 "nvcc/respec | untuned/tuned | checksums |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for name in names:
        outs = {v: read(os.path.join(bench, f"{name}.{v}.out"))
                for v in ("nvcc", "untuned", "auto", "profile", "tuned")}
        agree = compare_checksums(outs)
        times = [bench_times(outs[v])
                 for v in ("nvcc", "untuned", "auto", "tuned")]
        ratio = lambda a, b: f"{a / b:.2f}" if a and b else "-"
        lines.append(f"| {name} | " + " | ".join(
            f"{t:.3f}" if t is not None else "-" for t in times) +
            f" | {ratio(times[0], times[1])} | {ratio(times[1], times[3])}"
            f" | {agree} |")
    lines.append("")
    lines.append("Kernel versions timed by the profiling builds (tuning "
                 "database: mean per launch):")
    lines.append("")
    lines.append("| workload | kernel | geometry | launches | untuned us | "
                 "best version | best us | untuned/best |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for name in names:
        db = read(os.path.join(bench, f"{name}.tuning.db")) or ""
        per = {}
        for record in db.splitlines():
            fields = record.split("\t")
            if len(fields) != 6:
                continue
            _, kernel, geometry, version, launches, ns = fields
            per.setdefault((kernel, geometry), {})[version] = (
                int(launches), int(ns) / max(int(launches), 1) / 1000)
        for (kernel, geometry), versions in sorted(per.items()):
            timed = {v: t for v, t in versions.items() if t[0] and t[1] > 0}
            base = timed.get("block=1,thread=1")
            if not base:
                continue
            best = min(timed.items(), key=lambda kv: kv[1][1])
            launches = sum(v[0] for v in versions.values())
            lines.append(f"| {name} | {kernel} | {geometry} | {launches} | "
                         f"{base[1]:.1f} | {best[0]} | {best[1][1]:.1f} | "
                         f"{base[1] / best[1][1]:.2f} |")


def check(args):
    bundle, results = os.path.abspath(args.dir), os.path.abspath(args.results)
    for part in ("e2e", "bench"):
        archive = os.path.join(results, f"{part}.tar.gz")
        if os.path.exists(archive) and not os.path.isdir(
                os.path.join(results, part)):
            with tarfile.open(archive) as tar:
                tar.extractall(results)
    with open(os.path.join(bundle, "checks.json")) as f:
        checks = json.load(f)
    lines = ["GPU: " + (read(os.path.join(results, "gpu.txt")) or "?").strip(),
             ""]
    counts = {}
    if os.path.isdir(os.path.join(results, "e2e")):
        counts = check_e2e(bundle, results, checks, lines)
        lines.append("")
    if os.path.isdir(os.path.join(results, "bench")):
        check_bench(bundle, results, lines)
    text = "\n".join(lines) + "\n"
    if args.report:
        with open(args.report, "w") as f:
            f.write(text)
    print(text)
    for variant, c in sorted(counts.items()):
        print(f"{variant}: " + ", ".join(f"{k} {v}" for k, v in
                                         sorted(c.items())))
    return 1 if any(k != "pass" for c in counts.values() for k in c) else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("dir")
    b.add_argument("--build", default=os.path.join(ROOT, "build"))
    b.add_argument("--arch", default="sm_90")
    b.add_argument("--coarsen", default="block=2,thread=2")
    b.add_argument("--jobs", type=int, default=2)
    b.add_argument("--only", choices=("e2e", "bench"))
    b.add_argument("--filter", help="regex on program names")
    b.add_argument("--variants",
                   help="only these builds, e.g. respec,nvcc (e2e: respec, "
                        "coarsened, nvcc; bench: untuned, auto, profile, "
                        "nvcc, tuned)")
    b.add_argument("--tuning-results",
                   help="RESULTS of an earlier run: also build the "
                        "benchmarks with its tuning databases (--tune=use)")
    c = sub.add_parser("check")
    c.add_argument("dir")
    c.add_argument("results")
    c.add_argument("--report")
    args = parser.parse_args()
    return build(args) if args.command == "build" else check(args)


if __name__ == "__main__":
    sys.exit(main())
