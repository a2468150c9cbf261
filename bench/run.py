#!/usr/bin/env python3
"""Runs the benchmarks of bench/<suite>/: each workload as CUDA compiled by
respec and as the OpenMP C++ a CPU programmer would write, on the same
inputs, several times per thread count. Prints a markdown table (median
times, ratio OpenMP/respec: above 1 means respec is faster) and writes it
(`report.md`, with the machine, the compilers and the command line), a CSV
(`report.csv`) and a bar chart of the ratios (`report.svg`) next to the
binaries. Checksums must agree; a workload whose outputs differ is reported
as such, not timed.

A suite may hold a `suite.json` with "reference", the command that builds
the C++ versions (default `clang++-22 -O3 -march=native -fopenmp`),
"reference_flags", workload names mapped to extra flags for that
workload's C++ build only, and "variants", names mapped to extra flags for
both versions: each workload is built and reported once per variant, as
`<workload>_<variant>` (an empty variant name gives the plain name).

`--ablation` additionally builds each respec version once per optimization
turned off (`--disable-opt=NAME`; default: every name `respec --help` lists
for --disable-opt, and `all`), runs it at the highest thread count and adds
a table of its time and its ratio to the default build (`ablation.csv`); an
executable byte-identical to the default build's is reported as such and
not run, a run longer than `--ablation-timeout` seconds is stopped and
reported.

Usage: bench/run.py [--suite barriers] [--runs 5] [--threads 1,2]
                    [--only w1,w2] [--ref-cxx CMD] [--build build]
                    [--out build/bench] [--ablation [NAME1,NAME2,...]]
                    [--ablation-timeout 300]
"""
import argparse
import csv
import datetime
import itertools
import json
import math
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SUITE = {"reference": "clang++-22 -O3 -march=native -fopenmp",
                 "reference_flags": {}, "variants": {"": ""}}


def run(cmd, env=None, timeout=None):
    return subprocess.run(cmd, check=True, capture_output=True, text=True,
                          env=env, timeout=timeout).stdout


def failure(error):
    """One line saying why a build or run failed."""
    if isinstance(error, subprocess.CalledProcessError):
        lines = [l.strip() for l in (error.stderr or "").splitlines()
                 if l.strip()]
        detail = next((l for l in lines if "error" in l),
                      lines[0] if lines else "")
        return f"exit {error.returncode}: {detail[:160]}"
    return str(error)[:160]


def measure(binary, threads, runs, timeout=None):
    """Median time and the checksum of `runs` runs, or raises."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    times, sums = [], set()
    for _ in range(runs):
        out = run([binary], env, timeout)
        times.append(float(re.search(r"ms=(\S+)", out).group(1)))
        sums.add(float(re.search(r"checksum=(\S+)", out).group(1)))
    return statistics.median(times), sums.pop()


def same_file(a, b):
    with open(a, "rb") as f, open(b, "rb") as g:
        return f.read() == g.read()


def agree(a, b):
    return abs(a - b) <= 1e-4 * max(1.0, abs(b))


def disable_opt_names(respec):
    """The names `respec --help` lists for --disable-opt, `all` excluded."""
    try:
        text = run([respec, "--help"])
    except (OSError, subprocess.CalledProcessError):
        return []
    block, inside = [], False
    for line in text.splitlines():
        if "--disable-opt" in line:
            inside = True
        elif inside and re.match(r"\s*-", line):
            break
        if inside:
            block.append(line)
    listed = " ".join(block).rsplit(":", 1)[-1]
    names = [n.strip() for n in listed.split(",")]
    return [n for n in names if re.fullmatch(r"[a-z][a-z0-9-]*", n)
            and n != "all"]


def first_line(cmd):
    try:
        return run(cmd).splitlines()[0].strip()
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "unknown"


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            memory = f", {kb / 2**20:.0f} GiB memory"
    except (OSError, ValueError, IndexError):
        pass
    return (f"{model}, {os.cpu_count()} logical cores{memory}, "
            f"{platform.system()} {platform.release()}")


def git_revision():
    try:
        rev = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).strip()
        dirty = run(["git", "-C", ROOT, "status", "--porcelain",
                     "--untracked-files=no"]).strip()
        return rev + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def fmt_ms(ms):
    return f"{ms:.2f}" if ms is not None else "-"


def svg_chart(rows, threads, title):
    """A grouped bar chart (log scale) of OpenMP/respec per workload, one bar
    per thread count, as SVG text."""
    groups = sorted({r["workload"] for r in rows})
    value = {(r["workload"], r["threads"]): r["speedup"] for r in rows}
    for t in threads:
        ratios = [r["speedup"] for r in rows
                  if r["threads"] == t and r["speedup"]]
        if ratios:
            value[("geomean", t)] = statistics.geometric_mean(ratios)
    groups.append("geomean")
    finite = [v for v in value.values() if v]
    lo = math.floor(math.log2(min(finite + [0.5])))
    hi = math.ceil(math.log2(max(finite + [2.0])))
    colors = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee",
              "#aa3377", "#bbbbbb"]
    bar, gap, left, top, plot_h = 14, 16, 70, 50, 320
    group_w = bar * len(threads) + gap
    width = max(560, left + group_w * len(groups) + 30)
    height = top + plot_h + 130

    def y(v):
        return top + plot_h * (hi - math.log2(v)) / (hi - lo)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="20" font-size="14">{title}</text>',
           f'<text x="{left}" y="36">OpenMP time / respec time (log '
           f'scale; above 1: respec faster)</text>']
    for e in range(lo, hi + 1):
        v = 2.0 ** e
        label = f"{v:g}" if v >= 1 else f"1/{int(round(1 / v))}"
        yy = y(v)
        stroke = "#000" if e == 0 else "#ddd"
        out.append(f'<line x1="{left}" y1="{yy:.1f}" x2="{width - 20}" '
                   f'y2="{yy:.1f}" stroke="{stroke}"/>')
        out.append(f'<text x="{left - 6}" y="{yy + 4:.1f}" '
                   f'text-anchor="end">{label}</text>')
    base = y(1.0)
    for g, name in enumerate(groups):
        x0 = left + g * group_w + gap / 2
        for k, t in enumerate(threads):
            v = value.get((name, t))
            x = x0 + k * bar
            if not v:
                out.append(f'<text x="{x + bar / 2:.1f}" y="{base - 3:.1f}" '
                           f'text-anchor="middle" fill="#c00">x</text>')
                continue
            yy = y(v)
            out.append(f'<rect x="{x:.1f}" y="{min(yy, base):.1f}" '
                       f'width="{bar - 2}" height="{abs(base - yy):.1f}" '
                       f'fill="{colors[k % len(colors)]}"><title>{name}, '
                       f'{t} threads: {v:.2f}</title></rect>')
        cx = x0 + bar * len(threads) / 2
        ly = top + plot_h + 12
        out.append(f'<text x="{cx:.1f}" y="{ly}" text-anchor="end" '
                   f'transform="rotate(-45 {cx:.1f} {ly})">{name}</text>')
    for k, t in enumerate(threads):
        lx = left + k * 110
        ly = height - 20
        out.append(f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" '
                   f'fill="{colors[k % len(colors)]}"/>')
        out.append(f'<text x="{lx + 16}" y="{ly}">{t} thread'
                   f'{"s" if t != 1 else ""}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="barriers")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--only", help="comma-separated workloads")
    parser.add_argument("--ref-cxx", help="command building the C++ versions")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=None)
    parser.add_argument("--ablation", nargs="?", const="", default=None,
                        metavar="NAME1,NAME2,...",
                        help="also time respec builds with --disable-opt="
                        "NAME for each name (default: all listed by respec "
                        "--help, and `all`)")
    parser.add_argument("--ablation-timeout", type=float, default=300,
                        metavar="S", help="seconds an ablation binary may "
                        "run (one run, warm-up included) before it is "
                        "reported as too slow (default 300)")
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
    ref_cmd = args.ref_cxx or config["reference"]
    ref_cxx = shlex.split(ref_cmd)
    names = sorted(f[:-3] for f in os.listdir(suite) if f.endswith(".cu"))
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    ablation = []
    if args.ablation is not None:
        ablation = [n for n in args.ablation.split(",") if n] or \
            disable_opt_names(respec) + ["all"]

    rows, ablation_rows = [], []
    for name, (variant, flags) in itertools.product(
            names, config["variants"].items()):
        label = f"{name}_{variant}" if variant else name
        flags = shlex.split(flags)
        ref_flags = shlex.split(config["reference_flags"].get(name, ""))
        cuda_bin = os.path.join(out, label + ".respec")
        omp_bin = os.path.join(out, label + ".omp")
        source = os.path.join(suite, name + ".cu")
        print(f"{label} ...", file=sys.stderr, flush=True)
        try:
            run([respec, "-O3", *flags, source, "-o", cuda_bin])
            cuda_error = None
        except subprocess.CalledProcessError as e:
            cuda_error = "respec build failed, " + failure(e)
        run([*ref_cxx, *flags, *ref_flags, os.path.join(suite, name + ".cpp"),
             "-o", omp_bin])
        omp_sum = {}
        for t in threads:
            omp_ms, omp_sum[t] = measure(omp_bin, t, args.runs)
            cuda_ms, outputs = None, cuda_error
            if not cuda_error:
                try:
                    cuda_ms, cuda_sum = measure(cuda_bin, t, args.runs)
                    outputs = "equal" if agree(cuda_sum, omp_sum[t]) else \
                        f"DIFFER ({cuda_sum} vs {omp_sum[t]})"
                except subprocess.CalledProcessError as e:
                    outputs = "respec run failed, " + failure(e)
            ok = outputs == "equal"
            rows.append({"workload": label, "threads": t,
                         "respec_ms": cuda_ms, "openmp_ms": omp_ms,
                         "speedup": omp_ms / cuda_ms if ok else None,
                         "outputs": outputs})
        if not ablation:
            continue
        t = max(threads)
        default = next(r for r in rows
                       if r["workload"] == label and r["threads"] == t)
        for opt in ablation:
            binary = os.path.join(out, f"{label}.respec-no-{opt}")
            entry = {"workload": label, "threads": t, "disabled": opt,
                     "ms": None, "default_ms": default["respec_ms"],
                     "ratio": None, "outputs": None}
            print(f"{label} --disable-opt={opt} ...", file=sys.stderr,
                  flush=True)
            try:
                run([respec, "-O3", f"--disable-opt={opt}", *flags, source,
                     "-o", binary])
                if not cuda_error and same_file(binary, cuda_bin):
                    # The optimization does not change this program.
                    entry.update(ms=default["respec_ms"], ratio=1.0,
                                 outputs="same code")
                    ablation_rows.append(entry)
                    continue
                ms, total = measure(binary, t, args.runs,
                                    args.ablation_timeout)
                entry["ms"] = ms
                entry["outputs"] = "equal" if agree(total, omp_sum[t]) else \
                    f"DIFFER ({total} vs {omp_sum[t]})"
                if default["respec_ms"]:
                    entry["ratio"] = ms / default["respec_ms"]
            except subprocess.CalledProcessError as e:
                entry["outputs"] = "failed, " + failure(e)
            except subprocess.TimeoutExpired:
                entry["outputs"] = (f"timeout: one run took more than "
                                    f"{args.ablation_timeout:g} s")
            ablation_rows.append(entry)

    with open(os.path.join(out, "report.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = ["| workload | threads | respec ms | OpenMP ms | OpenMP/respec"
             " | outputs |", "|---|---|---|---|---|---|"]
    for r in rows:
        ratio = f"{r['speedup']:.2f}" if r["speedup"] else "-"
        lines.append(f"| {r['workload']} | {r['threads']} | "
                     f"{fmt_ms(r['respec_ms'])} | {fmt_ms(r['openmp_ms'])} | "
                     f"{ratio} | {r['outputs']} |")
    for t in threads:
        ratios = [r["speedup"] for r in rows
                  if r["threads"] == t and r["speedup"]]
        if ratios:
            lines.append(f"| geomean | {t} | | | "
                         f"{statistics.geometric_mean(ratios):.2f} | |")
    table = "\n".join(lines)

    ablation_table = ""
    if ablation_rows:
        with open(os.path.join(out, "ablation.csv"), "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(ablation_rows[0]))
            writer.writeheader()
            writer.writerows(ablation_rows)
        t = max(threads)
        lines = [f"Ablation, {t} thread{'s' if t != 1 else ''}: respec ms "
                 "with the optimization off (`--disable-opt=NAME`), and in "
                 "parentheses the ratio to the default build (above 1: the "
                 "optimization helps; geomean over all workloads, 1 where "
                 "the option changes nothing). \"same code\": the "
                 "executable is byte-identical to the default build's (not "
                 "run). * marks outputs that differ from the OpenMP "
                 "version's, ! a failed build or run.", "",
                 "| workload | default ms | " + " | ".join(ablation) + " |",
                 "|---|---|" + "---|" * len(ablation)]
        for label in dict.fromkeys(r["workload"] for r in ablation_rows):
            mine = {r["disabled"]: r for r in ablation_rows
                    if r["workload"] == label}
            cells = []
            for opt in ablation:
                r = mine[opt]
                if r["ms"] is None:
                    cells.append(f"> {args.ablation_timeout:g} s"
                                 if r["outputs"].startswith("timeout")
                                 else "!")
                    continue
                if r["outputs"] == "same code":
                    cells.append("same code")
                    continue
                mark = "" if r["outputs"] == "equal" else "*"
                ratio = f" ({r['ratio']:.2f})" if r["ratio"] else ""
                cells.append(f"{r['ms']:.2f}{ratio}{mark}")
            default_ms = next(iter(mine.values()))["default_ms"]
            lines.append(f"| {label} | {fmt_ms(default_ms)} | "
                         + " | ".join(cells) + " |")
        cells = []
        for opt in ablation:
            ratios = [r["ratio"] for r in ablation_rows
                      if r["disabled"] == opt and r["ratio"]]
            cells.append(f"({statistics.geometric_mean(ratios):.2f})"
                         if ratios else "")
        lines.append("| geomean | | " + " | ".join(cells) + " |")
        failures = [r for r in ablation_rows
                    if r["outputs"] not in ("equal", "same code")]
        if failures:
            lines.append("")
            lines.extend(f"- {r['workload']}, --disable-opt={r['disabled']}: "
                         f"{r['outputs']}" for r in failures)
        ablation_table = "\n".join(lines)

    ref_compiler = first_line([ref_cxx[0], "--version"])
    header = [
        f"# Suite `{args.suite}`", "",
        f"- date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        f"- command: `{' '.join(shlex.quote(a) for a in sys.argv)}`",
        f"- machine: {machine()}",
        f"- respec: {first_line([respec, '--version'])}, repository at "
        f"{git_revision()}",
        f"- reference: `{ref_cmd}` ({ref_compiler})" +
        ("; per workload: " + ", ".join(
            f"{k} `{v}`" for k, v in config["reference_flags"].items())
         if config["reference_flags"] else ""),
        f"- medians of {args.runs} runs per thread count "
        f"(`OMP_NUM_THREADS`); OpenMP/respec above 1 means respec is "
        f"faster", ""]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(header) + "\n" + table + "\n")
        if ablation_table:
            f.write("\n" + ablation_table + "\n")
        f.write("\n![OpenMP/respec per workload](report.svg)\n")
    with open(os.path.join(out, "report.svg"), "w") as f:
        f.write(svg_chart(rows, threads, f"Suite {args.suite}: "
                          f"{first_line([respec, '--version'])}"))
    print(table)
    if ablation_table:
        print()
        print(ablation_table)
    print(f"\nwritten: {os.path.join(out, 'report.md')}, report.csv, "
          f"report.svg" + (", ablation.csv" if ablation_rows else ""),
          file=sys.stderr)
    return 0 if all(r["speedup"] for r in rows) and all(
        r["outputs"] in ("equal", "same code") for r in ablation_rows) else 1


if __name__ == "__main__":
    sys.exit(main())
