"""Issue 17: parallel reproductions and the single-task profile.

Writes ``benchmarks/reproduce_parallel.md`` and ``benchmarks/reproduce_parallel.json``:

1. **profile**: the top costs (cProfile, own time) of one task, each tree of AS2000 Fig. 5 fitted
   on 100,000 perturbed records (Function 2, Gaussian noise, 100 % privacy), and the fit time
   per algorithm;
2. **as2000**: ``reproduce as2000 --full`` (100,000 training records) with ``--jobs 1`` and
   ``--jobs 2`` in separate processes: wall time, the load average before and after, the
   speed-up, and whether the result CSVs are byte-identical; ``--runs`` sets the number of runs
   (the paper's 10 is the real workload; fewer runs is the same work per task, less of it);
3. **all-quick**: ``reproduce all --quick`` with the default ``--jobs`` (every core).

Usage::

    python benchmarks/reproduce_parallel.py                          # everything, as2000 with 1 run
    python benchmarks/reproduce_parallel.py --only as2000 --runs 10  # the paper's protocol (long)
    python benchmarks/reproduce_parallel.py --only profile           # one task's profile

Timings on a shared machine are noisy: the load average is recorded with each. No test asserts
a time.
"""
from __future__ import annotations

import argparse
import cProfile
import filecmp
import io
import json
import os
import platform
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SECTIONS = ("profile", "as2000", "all-quick")


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def profile_task(top: int = 8) -> dict:
    """Fit time of each AS2000 tree at n = 100,000 and the top own-time costs of Local's fit."""
    import numpy as np

    from ppdm_edu.datasets import agrawal
    from ppdm_edu.experiments.as2000_trees import agrawal_noise, make_classifier
    from ppdm_edu.trees.reconstruction_tree import perturb_columns

    X, y = agrawal(100_000, 2, rng=np.random.default_rng(0), balanced=True)
    noise = agrawal_noise("gaussian", 1.0)
    W = perturb_columns(X, noise, rng=np.random.default_rng(1))
    out = {"load_before": _load(), "fit_seconds": {}, "top": {}}
    for algorithm in ("original", "randomized", "global", "byclass", "local"):
        times = []
        for _ in range(3):
            start = time.perf_counter()
            make_classifier(algorithm, noise).fit(X if algorithm == "original" else W, y)
            times.append(time.perf_counter() - start)
        out["fit_seconds"][algorithm] = round(min(times), 3)
    for algorithm in ("local", "randomized"):
        prof = cProfile.Profile()
        clf = make_classifier(algorithm, noise)
        prof.enable()
        clf.fit(W, y)
        prof.disable()
        stats = pstats.Stats(prof, stream=io.StringIO())
        total = stats.total_tt
        rows = []
        for (file, line, func), (_, ncalls, tottime, cumtime, _) in sorted(
                stats.stats.items(), key=lambda kv: -kv[1][2])[:top]:
            where = f"{Path(file).name}:{line}({func})" if line else func
            rows.append({"function": where, "calls": ncalls, "own_s": round(tottime, 3),
                         "cum_s": round(cumtime, 3), "share": round(tottime / total, 3)})
        out["top"][algorithm] = {"profiled_total_s": round(total, 3), "rows": rows}
    out["load_after"] = _load()
    return out


def _reproduce(name: str, mode: str, out: Path, jobs: int | None, runs: int | None) -> dict:
    """One reproduction in a fresh process (as a user runs it); wall time and load."""
    if runs is None:
        cmd = [sys.executable, "-m", "ppdm_edu", "reproduce", name, f"--{mode}", "--out", str(out), "--fresh"]
        if jobs is not None:
            cmd += ["--jobs", str(jobs)]
    else:  # reproduce as2000 --full with another number of runs (the CLI has the paper's 10)
        code = ("import sys; from ppdm_edu.experiments.tasks import execution; "
                "from ppdm_edu.experiments.as2000_trees import reproduce; "
                f"ctx = execution(n_jobs={jobs if jobs is not None else -1}); ctx.__enter__(); "
                f"reproduce({mode!r}, {str(out)!r}, 0, runs={runs}, fresh=True, progress=False)")
        cmd = [sys.executable, "-c", code]
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    load_before = _load()
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-3000:]}")
    return {"command": " ".join(cmd[1:]) if runs is None else f"reproduce('{mode}', runs={runs}, n_jobs={jobs})",
            "jobs": jobs, "seconds": round(seconds, 1), "load_before": load_before, "load_after": _load()}


def _same_results(a: Path, b: Path) -> dict:
    names = sorted(p.name for p in a.glob("*.csv") if not p.name.endswith("_timing.csv"))
    same = {n: filecmp.cmp(a / n, b / n, shallow=False) for n in names}
    return {"files": names, "identical": all(same.values()), "differ": [n for n, ok in same.items() if not ok]}


def bench_as2000(runs: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        one = _reproduce("as2000", "full", tmp / "j1", 1, runs)
        two = _reproduce("as2000", "full", tmp / "j2", 2, runs)
        same = _same_results(tmp / "j1", tmp / "j2")
    return {"runs": runs, "n_train": 100_000, "jobs1": one, "jobs2": two,
            "speedup": round(one["seconds"] / two["seconds"], 2), "identical_csv": same}


def bench_all_quick() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        return _reproduce("all", "quick", Path(tmp) / "q", None, None)


def _markdown(results: dict) -> str:
    lines = ["# Parallel reproductions (issue 17)", "",
             f"{results['when']} on {results['machine']}; written by `benchmarks/reproduce_parallel.py`. "
             "Load averages (1, 5, 15 min) before and after each timing: the machine is shared.", ""]
    profiles = results.get("profile", {})
    if profiles:
        labels = list(profiles)
        lines += ["## One task: fit time per tree (n = 100,000, F2, Gaussian 100 %; best of 3)", "",
                  "| algorithm | " + " | ".join(f"{lb} (s)" for lb in labels) + " |",
                  "| --- | " + " | ".join("---:" for _ in labels) + " |"]
        for a in profiles[labels[0]]["fit_seconds"]:
            lines.append(f"| {a} | " + " | ".join(f"{profiles[lb]['fit_seconds'][a]:.3f}" for lb in labels) + " |")
        lines += [""] + [f"- {lb}: code `{profiles[lb]['code']}`, load {profiles[lb]['load_before']} -> "
                         f"{profiles[lb]['load_after']}" for lb in labels] + [""]
    for label, p in profiles.items():
        for alg, top in p["top"].items():
            lines += [f"### Top own-time costs, {alg}, {label} (cProfile, {top['profiled_total_s']:.2f} s profiled)", "",
                      "| function | calls | own s | cumulative s | share |", "| --- | ---: | ---: | ---: | ---: |"]
            lines += [f"| `{r['function']}` | {r['calls']} | {r['own_s']:.3f} | {r['cum_s']:.3f} | {r['share']:.0%} |"
                      for r in top["rows"]]
            lines.append("")
    if "as2000" in results:
        a = results["as2000"]
        lines += [f"## `reproduce as2000 --full`, {a['runs']} run(s) of {a['n_train']:,} training records", "",
                  "| jobs | seconds | load before | load after |", "| ---: | ---: | --- | --- |"]
        for key in ("jobs1", "jobs2"):
            r = a[key]
            lines.append(f"| {r['jobs']} | {r['seconds']:.0f} | {r['load_before']} | {r['load_after']} |")
        lines += ["", f"Speed-up `--jobs 2` vs `--jobs 1`: **{a['speedup']:.2f}**. Result CSVs "
                  f"({', '.join(a['identical_csv']['files'])}) byte-identical: "
                  f"**{a['identical_csv']['identical']}**.", ""]
    if "all-quick" in results:
        q = results["all-quick"]
        lines += ["## `reproduce all --quick` (default `--jobs`: every core)", "",
                  f"{q['seconds']:.0f} s; load {q['load_before']} -> {q['load_after']}.", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated subset of {SECTIONS}")
    parser.add_argument("--runs", type=int, default=1, help="as2000 runs (the paper: 10)")
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--code", type=Path, default=REPO,
                        help="checkout whose ppdm_edu is profiled (e.g. one before the speed-up)")
    parser.add_argument("--label", default="after", help="name of this profile, e.g. before / after")
    args = parser.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    bad = [s for s in only if s not in SECTIONS]
    if bad:
        parser.error(f"unknown section(s) {bad}; choose from {SECTIONS}")
    sys.path.insert(0, str(args.code))
    json_path = args.out / "reproduce_parallel.json"
    results = json.loads(json_path.read_text()) if json_path.exists() else {}
    results.update(when=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                   machine=f"{os.cpu_count()} CPUs, Python {platform.python_version()}")
    if "profile" in only:
        results.setdefault("profile", {})[args.label] = dict(profile_task(), code=str(args.code))
    if "as2000" in only:
        results["as2000"] = bench_as2000(args.runs)
    if "all-quick" in only:
        results["all-quick"] = bench_all_quick()
    json_path.write_text(json.dumps(results, indent=2))
    (args.out / "reproduce_parallel.md").write_text(_markdown(results))
    print(_markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
