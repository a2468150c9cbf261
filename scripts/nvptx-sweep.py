#!/usr/bin/env python3
"""Builds every end-to-end CUDA test program for NVIDIA GPUs
(`respec --target=nvptx --emit=cubin`), i.e. through respec's NVPTX back
end and the toolkit's ptxas, for each requested architecture, optionally
coarsened, and reports which fail. With --report, writes a markdown table
of ptxas' registers / spills / shared memory per kernel. With --programs,
builds each as a GPU program instead (host code, launches and embedded
PTX, linked with the GPU runtime); with --fake-driver LIB also runs it
against that test double of the CUDA driver, which records launches but
cannot run kernels: results are wrong, but the host side (launch code,
runtime) must neither crash nor hang.

Usage: scripts/nvptx-sweep.py [--build build] [--arch sm_80,sm_90]
           [--coarsen block=2,thread=2] [--jobs 2] [--report FILE]
           [--programs [--fake-driver LIB]] [suite folders of test/e2e ...]
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Suites of CUDA programs (opencl holds .cl kernels; no-toolkit tests run
# without the toolkit's headers, which the GPU build needs).
# multi-tu programs are several sources (separate compilation of device code
# is not supported for any target).
SKIP = {"opencl", "no-toolkit", "multi-tu"}
# A program that uses a feature the NVPTX back end rejects on purpose (with
# an error the feature matrix documents) says so in a line of its own,
# `// NVPTX: unsupported (reason)`; one that uses instructions of newer GPUs
# (as nvcc, ptxas rejects them for older ones), `// NVPTX: requires sm_NN`.
UNSUPPORTED = re.compile(r"^//\s*NVPTX:\s*unsupported\s*\((.*)\)\s*$")
REQUIRES = re.compile(r"^//\s*NVPTX:\s*requires\s+sm_(\d+)")


def unsupported_reason(path):
    """Why the program is not built for NVIDIA GPUs, or None."""
    with open(path) as f:
        for line in f:
            match = UNSUPPORTED.match(line.strip())
            if match:
                return match.group(1)
    return None


def oldest_arch(path):
    """The oldest sm_NN the program needs, as NN (0: any)."""
    with open(path) as f:
        for line in f:
            match = REQUIRES.match(line.strip())
            if match:
                return int(match.group(1))
    return 0


def source_flags(path):
    """-D/-I/-std/-x flags of the program's first RUN line."""
    with open(path) as f:
        for line in f:
            match = re.search(r"RUN:\s*(.*)", line)
            if match:
                words = shlex.split(match.group(1).split("&&")[0])
                keep, take_next = [], False
                for word in words:
                    if take_next:
                        keep.append(word)
                        take_next = False
                    elif word.startswith(("-D", "-I", "-std")):
                        keep.append(word)
                    elif word == "-x":
                        keep.append(word)
                        take_next = True
                return [w.replace("%S", os.path.dirname(path))
                        .replace("%cuda_path", "/usr/local/cuda")
                        for w in keep]
    return []


def build(args, path, arch, workdir):
    stem = os.path.join(workdir, os.path.basename(path) + "." + arch)
    output = ([] if args.programs else
              ["--emit=cubin", "--resource-usage"])
    out = stem + (".exe" if args.programs else ".cubin")
    cmd = [os.path.join(args.build, "bin", "respec"), "--target=nvptx",
           f"--gpu-arch={arch}", *output, *source_flags(path), path, "-o",
           out]
    if args.coarsen:
        cmd.insert(1, f"--coarsen={args.coarsen}")
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if result.returncode != 0 or not args.fake_driver:
        return path, arch, result.returncode == 0, result.stderr
    return (path, arch, *run_on_fake_driver(args, out))


def run_on_fake_driver(args, exe):
    """(ok, message): the program ran to an exit (any status) without a
    signal, a hang or an internal error of respec."""
    env = dict(os.environ, RESPEC_CUDA_DRIVER=args.fake_driver)
    try:
        result = subprocess.run([exe], capture_output=True, text=True,
                                env=env, timeout=120, cwd=os.path.dirname(exe))
    except subprocess.TimeoutExpired:
        return False, "hangs on the fake driver"
    if result.returncode < 0 or "internal error" in result.stderr:
        return False, (f"exit status {result.returncode} on the fake driver\n"
                       + result.stderr[-1500:])
    return True, ""


def parse_report(text):
    """(kernel, registers, spill stores, spill loads, smem) from ptxas -v."""
    rows, kernel, spills = [], None, (0, 0)
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            kernel = m.group(1)
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                      line)
        if m:
            spills = (int(m.group(1)), int(m.group(2)))
        m = re.search(r"Used (\d+) registers.*?(?:(\d+) bytes smem)?$", line)
        if m and kernel:
            smem = re.search(r"(\d+) bytes smem", line)
            rows.append((kernel, int(m.group(1)), *spills,
                         int(smem.group(1)) if smem else 0))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--arch", default="sm_80,sm_90")
    parser.add_argument("--coarsen")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--report")
    parser.add_argument("--programs", action="store_true")
    parser.add_argument("--fake-driver")
    parser.add_argument("suites", nargs="*")
    args = parser.parse_args()
    e2e = os.path.join(ROOT, "test", "e2e")
    suites = args.suites or sorted(
        d for d in os.listdir(e2e)
        if os.path.isdir(os.path.join(e2e, d)) and d not in SKIP)
    programs = sorted(os.path.join(e2e, s, f) for s in suites
                      for f in os.listdir(os.path.join(e2e, s))
                      if f.endswith(".cu"))
    for path in list(programs):
        reason = unsupported_reason(path)
        if reason:
            print(f"SKIP {os.path.relpath(path, ROOT)}: {reason}", flush=True)
            programs.remove(path)
    failures, rows = [], []
    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        builds = [(p, a) for p in programs for a in args.arch.split(",")
                  if int(a.split("_")[1]) >= oldest_arch(p)]
        for p, a in sorted(set((p, a) for p in programs
                               for a in args.arch.split(","))
                           - set(builds)):
            print(f"SKIP {os.path.relpath(p, ROOT)} {a}: needs "
                  f"sm_{oldest_arch(p)}", flush=True)
        jobs = [pool.submit(build, args, p, a, workdir) for p, a in builds]
        for job in concurrent.futures.as_completed(jobs):
            path, arch, ok, stderr = job.result()
            name = os.path.relpath(path, ROOT)
            if ok:
                rows += [(name, arch, *r) for r in parse_report(stderr)]
            else:
                failures.append((name, arch, stderr))
                print(f"FAIL {name} {arch}", flush=True)
    for name, arch, stderr in sorted(failures):
        print(f"\n=== {name} {arch}\n{stderr[-1500:]}")
    total = len(builds)
    print(f"\n{total - len(failures)} of {total} builds passed")
    if args.report:
        with open(args.report, "w") as f:
            f.write("| program | arch | kernel | registers | spill stores "
                    "| spill loads | shared bytes |\n|---|---|---|---|---|---|---|\n")
            for row in sorted(rows):
                f.write("| " + " | ".join(str(x) for x in row) + " |\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
