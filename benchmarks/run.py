"""``make bench``: every benchmark of issue 9; writes ``benchmarks/RESULTS.md`` and ``results.json``.

1. **Slider latency** of every widget panel (``panel_latency.py``): p50 / p95 of the full update.
2. **Reconstruction scaling**: ``reconstruct`` vs n (10^3..10^6) and number of intervals
   (10..200), both methods, iterations to converge; and the same update run by pyunfold's
   ``iterative_unfold`` on the identical response matrix and bin counts.
3. **Trees**: our gini ``DecisionTree`` vs scikit-learn's ``DecisionTreeClassifier`` on
   ``agrawal(100_000, function=1..5)``: training time ratio and accuracy difference.
4. **Notebooks**: the nbval suite over ``notebooks/`` (wall time), and each notebook's time.

Usage::

    python benchmarks/run.py                       # everything (several minutes)
    python benchmarks/run.py --only latency,trees  # some sections
    python benchmarks/run.py --quick --out /tmp/b  # small grids, for trying the script

Benchmarks never run in ``make test`` and no test asserts a time. Timings on a shared 2-core
machine are noisy: the load average before and after is recorded next to the numbers.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import asdict
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import panel_latency  # noqa: E402

SECTIONS = ("latency", "reconstruction", "trees", "notebooks")

# targets of the issues
TREE_TIME_RATIO = 3.0      # ours <= 3x scikit-learn's training time
TREE_ACC_POINTS = 1.0      # accuracy within 1 point of scikit-learn's
NOTEBOOK_SECONDS = 60.0    # each notebook top to bottom
SUITE_SECONDS = 300.0      # the whole nbval suite
# pyunfold's iterative_unfold propagates the response matrix's uncertainty through an
# (m * m_w)^2 covariance matrix every iteration; above this many entries of m * m_w it would
# allocate gigabytes on a shared machine, so it is not run there (and the table says so)
PYUNFOLD_MAX_CELLS = 3_000
# pyunfold's update step alone (Mixer.smear) still loops over m * m_w cells in Python and does
# O(m^3 m_w) work per iteration for its derivatives: run it up to this size
SMEAR_MAX_CELLS = 25_000


def _versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for pkg in ("ppdm-edu", "numpy", "scipy", "pandas", "matplotlib", "seaborn", "ipywidgets",
                "scikit-learn", "pyunfold", "jupyterlab", "nbval", "pytest"):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            out[pkg] = None
    return out


def machine_info() -> dict:
    info = {
        "date_utc": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "versions": _versions(),
    }
    try:
        info["cpu_model"] = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                                 if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return info


def _load() -> list[float] | None:
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except OSError:
        return None


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _median_time(fn, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), out


# -- 1. slider latency --------------------------------------------------------------------
def bench_latency(quick: bool) -> dict:
    _say("== slider latency")
    results = panel_latency.measure_all(min_updates=30, min_per_control=8 if not quick else 4,
                                        verbose=True)
    _say("== slider latency in lecture mode (projector style: larger figures)")
    lecture = panel_latency.measure_all(min_updates=30, min_per_control=4, lecture=True, verbose=True)
    from ppdm_edu import lecture_mode

    lecture_mode(False)
    return {
        "panels": [asdict(r) for r in results],
        "markdown": panel_latency.format_table(results),
        "lecture_panels": [asdict(r) for r in lecture],
        "lecture_markdown": panel_latency.format_table(lecture, per_control=False),
    }


# -- 2. reconstruction ----------------------------------------------------------------------
def _tv(p, q) -> float:
    return 0.5 * float(np.abs(np.asarray(p) - np.asarray(q)).sum())


def bench_reconstruction(quick: bool) -> dict:
    from ppdm_edu import GaussianNoise, UniformNoise, perturb, plateau
    from ppdm_edu.reconstruction import Reconstructor, make_edges, reconstruct, reconstruct_counts

    _say("== reconstruction scaling")
    noise = GaussianNoise(0.25)  # AS2000 Fig. 2: plateau, sigma = 0.25, domain [0, 1]
    ns = [1_000, 10_000, 100_000] if quick else [1_000, 10_000, 100_000, 1_000_000]
    ms = [10, 50, 100] if quick else [10, 20, 50, 100, 200]
    repeats = 1 if quick else 3
    rows = []

    def run(n, m, method):
        x = plateau(n, rng=0)
        w = perturb(x, noise, rng=1)
        edges = make_edges((0, 1), n_intervals=m)
        truth = np.histogram(x, bins=edges)[0] / n
        seconds, rec = _median_time(
            lambda: reconstruct(w, noise, bounds=(0, 1), n_intervals=m, method=method,
                                keep_history=False), repeats)
        rows.append({"sweep": None, "n": n, "intervals": m, "method": method,
                     "seconds": seconds, "n_iter": rec.n_iter, "converged": rec.converged,
                     "tv_to_truth": _tv(rec.probabilities, truth)})
        _say(f"  n={n:>9,} m={m:>3} {method:5s} {seconds * 1000:8.1f} ms  {rec.n_iter:4d} it")
        return rows[-1]

    for n in ns:
        for method in ("bayes", "em"):
            run(n, 100, method)["sweep"] = "n"
    for m in ms:
        for method in ("bayes", "em"):
            run(10_000, m, method)["sweep"] = "intervals"

    # -- pyunfold on the identical response matrix and bin counts --------------------------
    comparisons = []
    try:
        from pyunfold import iterative_unfold
    except ImportError as err:
        pyunfold_error = f"pyunfold not installed ({err}); `pip install -e '.[bench]'`"
        iterative_unfold = None
    else:
        pyunfold_error = None
    cases = [(GaussianNoise(0.25), m) for m in (10, 20, 50, 100)] + \
            [(UniformNoise(0.5), m) for m in (10, 20, 50, 100)]
    if iterative_unfold is not None:
        _say("== pyunfold comparison")
        n = 10_000
        x = plateau(n, rng=0)
        for nz, m in cases:
            w = perturb(x, nz, rng=1)
            for method in ("bayes", "em"):
                rc = Reconstructor(nz, make_edges((0, 1), n_intervals=m), method=method)
                N = rc.bin_counts(w)
                A = np.array(rc.matrix)
                row = {"noise": repr(nz), "n": n, "intervals": m, "observed_bins": A.shape[0],
                       "method": method}
                # ours converged with the paper's criterion, then both run that many iterations
                k = reconstruct_counts(N, A, method=method).n_iter
                row["iterations"] = k
                ours_s, ours = _median_time(
                    lambda: reconstruct_counts(N, A, method=method, tol=0.0, max_iter=k), repeats)
                row["ours_seconds"] = ours_s
                cells = A.shape[0] * A.shape[1]
                if cells > PYUNFOLD_MAX_CELLS:
                    gib = (cells ** 2) * 8 / 2**30
                    row.update(pyunfold_seconds=None, ratio=None, max_abs_diff=None,
                               note=f"`iterative_unfold` not run: its response covariance would "
                                    f"need {gib:.1f} GiB")
                    if cells <= SMEAR_MAX_CELLS:
                        # pyunfold's own update step (Mixer.smear: Eq. 3 plus the derivative
                        # bookkeeping for its error propagation), iterated k times
                        from pyunfold.mix import Mixer

                        def smear():
                            mixer = Mixer(data=N.astype(float), data_err=np.sqrt(N),
                                          efficiencies=np.ones(m), efficiencies_err=np.full(m, 1e-3),
                                          response=A, response_err=np.zeros_like(A))
                            n_c = np.full(m, N.sum() / m)  # uniform prior, as iterative_unfold
                            for _ in range(k):
                                n_c = mixer.smear(n_c)
                            return n_c

                        smear_s, n_c = _median_time(smear, 1)
                        est = n_c / n_c.sum()
                        row.update(pyunfold_seconds=smear_s, ratio=ours_s / smear_s,
                                   max_abs_diff=float(np.abs(est - ours.probabilities).max()),
                                   note=row["note"] + "; compared with its `Mixer.smear` update instead")
                else:
                    def theirs():
                        # efficiencies 1: the same update as ours (our estimate is normalized)
                        return iterative_unfold(
                            data=N.astype(float), data_err=np.sqrt(N), response=A,
                            response_err=np.zeros_like(A), efficiencies=np.ones(m),
                            efficiencies_err=np.full(m, 1e-3), ts_stopping=0.0, max_iter=k)

                    import warnings

                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        their_s, res = _median_time(theirs, 1)
                    est = np.asarray(res["unfolded"], float)
                    est = est / est.sum()
                    row.update(pyunfold_seconds=their_s, ratio=ours_s / their_s,
                               max_abs_diff=float(np.abs(est - ours.probabilities).max()),
                               pyunfold_iterations=int(res["num_iterations"]), note="")
                comparisons.append(row)
                theirs_txt = ("not run" if row["pyunfold_seconds"] is None
                              else f"{row['pyunfold_seconds'] * 1000:.0f} ms")
                _say(f"  {row['noise']:>22s} m={m:>3} {method:5s} ours {ours_s * 1000:7.2f} ms "
                     f"pyunfold {theirs_txt} diff {row['max_abs_diff']}")
    return {"noise": repr(noise), "repeats": repeats, "rows": rows, "pyunfold": comparisons,
            "pyunfold_error": pyunfold_error}


# -- 3. trees -----------------------------------------------------------------------------------
def bench_trees(quick: bool) -> dict:
    from ppdm_edu.datasets import agrawal
    from ppdm_edu.trees import DecisionTree

    try:
        from sklearn.tree import DecisionTreeClassifier
    except ImportError as err:
        return {"error": f"scikit-learn not installed ({err}); `pip install -e '.[bench]'`", "rows": []}
    _say("== trees vs scikit-learn")
    n_train = 20_000 if quick else 100_000
    functions = (1, 2) if quick else (1, 2, 3, 4, 5)
    rows = []
    for f in functions:
        X, y = agrawal(n_train, function=f, rng=f, balanced=True)
        Xt, yt = agrawal(5_000, function=f, rng=100 + f, balanced=True)
        Xa, Xta = X.to_numpy(float), Xt.to_numpy(float)
        sk_s, sk = _median_time(lambda: DecisionTreeClassifier(random_state=0).fit(Xa, y), 1)
        sk_acc = 100.0 * sk.score(Xta, yt)
        for label, params in (("DecisionTree() (MDL pruning)", {}),
                              ("DecisionTree(pruning=None)", {"pruning": None})):
            ours_s, ours = _median_time(lambda: DecisionTree(**params).fit(X, y), 1)
            acc = 100.0 * ours.score(Xt, yt)
            rows.append({"function": f, "n_train": n_train, "ours": label,
                         "ours_seconds": ours_s, "sklearn_seconds": sk_s,
                         "ratio": ours_s / sk_s, "ours_accuracy": acc, "sklearn_accuracy": sk_acc,
                         "accuracy_diff_points": acc - sk_acc,
                         "ours_leaves": int(getattr(ours, "n_leaves_", -1)),
                         "sklearn_leaves": int(sk.get_n_leaves())})
            _say(f"  F{f} {label:30s} ours {ours_s:6.2f} s ({acc:5.1f} %)  sklearn {sk_s:6.2f} s "
                 f"({sk_acc:5.1f} %)")
    return {"n_test": 5_000, "rows": rows}


# -- 4. notebooks -------------------------------------------------------------------------------
NOTEBOOK_PATHS = ["notebooks"]  # --notebooks overrides (e.g. one notebook while writing it)


def bench_notebooks(quick: bool) -> dict:
    _say(f"== notebooks (nbval suite: {' '.join(NOTEBOOK_PATHS)})")
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "nbval.xml"
        cmd = [sys.executable, "-m", "pytest", *NOTEBOOK_PATHS, "-q", "-p", "no:cacheprovider",
               f"--junitxml={xml}"]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=3600)
        wall = time.perf_counter() - t0
        per_nb: dict[str, dict] = {}
        if xml.exists():
            for case in ET.parse(xml).getroot().iter("testcase"):
                # nbval's classname is "notebooks.<file>.ipynb"
                key = case.get("classname") or "?"
                key = key[len("notebooks."):] if key.startswith("notebooks.") else key
                d = per_nb.setdefault(key, {"cells": 0, "seconds": 0.0, "failed": 0, "skipped": 0})
                d["cells"] += 1
                d["seconds"] += float(case.get("time", 0.0))
                if case.find("failure") is not None or case.find("error") is not None:
                    d["failed"] += 1
                if case.find("skipped") is not None:
                    d["skipped"] += 1
    tail = "\n".join(proc.stdout.strip().splitlines()[-3:])
    return {"command": f"python -m pytest {' '.join(NOTEBOOK_PATHS)} (nbval, --nbval-lax)", "wall_seconds": wall,
            "returncode": proc.returncode, "summary": tail, "notebooks": dict(sorted(per_nb.items()))}


# -- report -----------------------------------------------------------------------------------
def _fmt_ms(v) -> str:
    return "—" if v is None else f"{v:.0f}"


def _verdict(ok) -> str:
    return "no target" if ok is None else ("met" if ok else "**MISSED**")


def targets_table(res: dict) -> tuple[str, list[str]]:
    """One row per target of the issues; returns markdown and the list of misses."""
    rows, missed = [], []
    lat = res.get("latency")
    if lat:
        for p in lat["panels"]:
            if p["target_ms"] is None:
                continue
            measured = f"p95 {_fmt_ms(p['p95_in_scope_ms'])} ms"
            if p["n_crashes"]:
                measured += f", {p['n_crashes']} crashes"
            rows.append((f"slider update `{p['key']}` < {p['target_ms']:.0f} ms (p95)", measured,
                         p["meets_target"]))
        for p in lat.get("lecture_panels", []):
            if p["target_ms"] is None:
                continue
            measured = f"p95 {_fmt_ms(p['p95_in_scope_ms'])} ms"
            rows.append((f"same in lecture mode: `{p['key']}` < {p['target_ms']:.0f} ms (p95)", measured,
                         p["meets_target"]))
    rec = res.get("reconstruction")
    if rec:
        at = [r for r in rec["rows"] if r["n"] == 10_000 and r["intervals"] <= 100]
        worst = max(at, key=lambda r: r["seconds"]) if at else None
        if worst:
            rows.append(("`reconstruct` alone at n = 10,000, <= 100 intervals (part of the 150 ms "
                         "reconstruction panel budget)",
                         f"max {worst['seconds'] * 1000:.0f} ms ({worst['method']}, {worst['intervals']} intervals)",
                         worst["seconds"] < 0.150))
        diffs = [r["max_abs_diff"] for r in rec["pyunfold"] if r.get("max_abs_diff") is not None]
        if diffs:
            rows.append(("same estimate as pyunfold (same update): max abs difference ~ 0",
                         f"{max(diffs):.1e} over {len(diffs)} cases", max(diffs) < 1e-8))
    trees = res.get("trees")
    if trees and trees.get("rows"):
        for label in sorted({r["ours"] for r in trees["rows"]}):
            sub = [r for r in trees["rows"] if r["ours"] == label]
            worst_ratio = max(r["ratio"] for r in sub)
            worst_acc = min(r["accuracy_diff_points"] for r in sub)
            rows.append((f"{label}: training time <= {TREE_TIME_RATIO:.0f}x scikit-learn's "
                         f"(agrawal n = {sub[0]['n_train']:,}, F{sub[0]['function']}..F{sub[-1]['function']})",
                         f"worst ratio {worst_ratio:.1f}x", worst_ratio <= TREE_TIME_RATIO))
            rows.append((f"{label}: accuracy within {TREE_ACC_POINTS:.0f} point of scikit-learn's",
                         f"worst {worst_acc:+.2f} points", worst_acc >= -TREE_ACC_POINTS))
    nbs = res.get("notebooks")
    if nbs:
        for name, d in nbs["notebooks"].items():
            ok = d["seconds"] < NOTEBOOK_SECONDS and d["failed"] == 0
            extra = f", {d['failed']} failing cells" if d["failed"] else ""
            rows.append((f"`{name}` top to bottom < {NOTEBOOK_SECONDS:.0f} s", f"{d['seconds']:.1f} s{extra}", ok))
        rows.append((f"nbval suite < {SUITE_SECONDS / 60:.0f} min", f"{nbs['wall_seconds']:.0f} s "
                     f"(exit {nbs['returncode']})", nbs["wall_seconds"] < SUITE_SECONDS and nbs["returncode"] == 0))
    lines = ["| target | measured | verdict |", "| --- | --- | --- |"]
    for target, measured, ok in rows:
        lines.append(f"| {target} | {measured} | {_verdict(ok)} |")
        if ok is False:
            missed.append(f"{target}: {measured}")
    return "\n".join(lines), missed


def render_markdown(res: dict) -> str:
    info = res["machine"]
    v = info["versions"]
    versions = ", ".join(f"{k} {val}" for k, val in v.items() if val)
    table, missed = targets_table(res)
    out = [
        "# Benchmarks",
        "",
        f"Written by `python benchmarks/run.py{' --quick' if res.get('quick') else ''}` (what `make bench` runs) "
        f"on {info['date_utc']}: {info['cpu_count']} CPUs ({info.get('cpu_model', info['processor'])}), "
        f"{info['platform']}.",
        "",
        f"Versions: {versions}.",
        "",
        "**Timings are noisy.** This machine has 2 cores shared with other jobs (load average "
        f"{res.get('load_before')} before, {res.get('load_after')} after, 1/5/15 min); a p95 "
        "above a target by a little may be contention rather than the code. Re-run "
        "`python benchmarks/panel_latency.py --panel NAME` to check one panel. No test asserts a time.",
        "",
        "## Targets",
        "",
        table,
        "",
    ]
    skipped = [s for s in SECTIONS if s not in res.get("sections", SECTIONS)]
    if skipped:
        out += [f"Not measured in this run: {', '.join(skipped)} (`--only`).", ""]
    if missed:
        out += ["**Missed targets:**", ""] + [f"- {m}" for m in missed] + [""]
    else:
        out += ["All measured targets are met.", ""]
    lat = res.get("latency")
    if lat:
        out += ["## Slider latency", "",
                "Every control of every panel in `ppdm_edu.widgets` driven headlessly "
                "(`benchmarks/panel_latency.py`): sliders from min to max, dropdowns / toggles "
                "through their options, the other controls at their defaults; >= 30 updates "
                "per panel. One update = the panel's algorithm + matplotlib redraw + PNG encoding "
                "(setting `control.value` runs it synchronously). Updates that end in a message "
                "(a `ValueError` shown instead of a figure) are counted but kept out of the "
                "percentiles. For the reconstruction panels the verdict uses only updates at "
                "n <= 10,000 and <= 100 intervals (the issue's scope).", "",
                lat["markdown"], ""]
        if lat.get("lecture_markdown"):
            out += ["### In lecture mode", "",
                    "The same panels after `lecture_mode(True)` (projector style: larger figures at a "
                    "higher dpi, so a larger PNG per update), >= 30 updates per panel.", "",
                    lat["lecture_markdown"], ""]
    rec = res.get("reconstruction")
    if rec:
        out += ["## Reconstruction scaling", "",
                f"`reconstruct(w, {rec['noise']}, bounds=(0, 1), n_intervals=m, method=...)` on the "
                f"plateau distribution (AS2000 Fig. 2), median of {rec['repeats']} runs, the paper's "
                "stopping rule (default `tol`); time includes binning the perturbed values and building "
                "the response matrix. TV = total-variation distance of the estimate to the true "
                "interval distribution.", ""]
        for sweep, title in (("n", "### Versus n (100 intervals)"), ("intervals", "### Versus intervals (n = 10,000)")):
            out += [title, "", "| n | intervals | method | time ms | iterations | converged | TV to truth |",
                    "| ---: | ---: | --- | ---: | ---: | --- | ---: |"]
            for r in rec["rows"]:
                if r["sweep"] == sweep:
                    out.append(f"| {r['n']:,} | {r['intervals']} | {r['method']} | {r['seconds'] * 1000:.1f} | "
                               f"{r['n_iter']} | {r['converged']} | {r['tv_to_truth']:.3f} |")
            out.append("")
        out += ["### Same update in pyunfold", ""]
        if rec.get("pyunfold_error"):
            out += [rec["pyunfold_error"], ""]
        else:
            out += ["pyunfold's `iterative_unfold` (D'Agostini's iterative Bayesian unfolding, the "
                    "same update as Eq. 3) on the identical response matrix `A` and bin counts "
                    "(`Reconstructor(noise, edges, method).matrix` and `.bin_counts(w)`, n = 10,000, "
                    "plateau), efficiencies 1, uniform prior, both run for the number of iterations "
                    "our stopping rule chose. pyunfold also propagates statistical and response-matrix "
                    "uncertainties every iteration (through an (m·m_w)² covariance matrix), which "
                    "`reconstruct` does not compute: the time ratio compares different amounts of "
                    "work; the estimates are the point of the comparison. That covariance has (m·m_w)² "
                    f"entries: above m·m_w = {PYUNFOLD_MAX_CELLS:,} `iterative_unfold` is not run (it "
                    "would need gigabytes on a shared machine) and pyunfold's own update step "
                    "(`pyunfold.mix.Mixer.smear`, iterated the same number of times from the same "
                    f"uniform start) is compared instead, up to m·m_w = {SMEAR_MAX_CELLS:,}.", "",
                    "| noise | intervals m | observed bins m_w | method | iterations | ours ms | pyunfold ms | ours / theirs | max abs diff | note |",
                    "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |"]
            for r in rec["pyunfold"]:
                if r["pyunfold_seconds"] is None:
                    out.append(f"| {r['noise']} | {r['intervals']} | {r['observed_bins']} | {r['method']} | "
                               f"{r['iterations']} | {r['ours_seconds'] * 1000:.2f} | — | — | — | {r['note']} |")
                else:
                    out.append(f"| {r['noise']} | {r['intervals']} | {r['observed_bins']} | {r['method']} | "
                               f"{r['iterations']} | {r['ours_seconds'] * 1000:.2f} | {r['pyunfold_seconds'] * 1000:.0f} | "
                               f"{r['ratio']:.4f} | {r['max_abs_diff']:.1e} | {r['note']} |")
            out.append("")
    trees = res.get("trees")
    if trees:
        out += ["## Trees vs scikit-learn", ""]
        if trees.get("error"):
            out += [trees["error"], ""]
        else:
            out += ["`agrawal(n, function=f, balanced=True)` for training, a separate balanced test set "
                    f"of {trees['n_test']:,}; scikit-learn's `DecisionTreeClassifier(random_state=0)` "
                    "(gini, grown until pure, no pruning) on the same features as floats. One fit each.", "",
                    "| F | ours | ours s | sklearn s | ratio | ours acc % | sklearn acc % | diff (points) | leaves ours / sklearn |",
                    "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
            for r in trees["rows"]:
                out.append(f"| {r['function']} | {r['ours']} | {r['ours_seconds']:.2f} | {r['sklearn_seconds']:.2f} | "
                           f"{r['ratio']:.1f}x | {r['ours_accuracy']:.2f} | {r['sklearn_accuracy']:.2f} | "
                           f"{r['accuracy_diff_points']:+.2f} | {r['ours_leaves']} / {r['sklearn_leaves']} |")
            out.append("")
    nbs = res.get("notebooks")
    if nbs:
        out += ["## Notebooks", "",
                f"`{nbs['command']}`: {nbs['wall_seconds']:.0f} s wall time in total "
                f"(exit code {nbs['returncode']}: {nbs['summary'].splitlines()[-1] if nbs['summary'] else ''}). "
                "Per notebook: the sum of nbval's per-cell times (the first cell's includes the kernel "
                "start-up, about 2-3 s).", "",
                "| notebook | cells | seconds | failing cells |", "| --- | ---: | ---: | ---: |"]
        for name, d in nbs["notebooks"].items():
            out.append(f"| `{name}` | {d['cells']} | {d['seconds']:.1f} | {d['failed']} |")
        out.append("")
    return "\n".join(out)


# RESULTS.md from this heading on is not generated here (see _kept_section)
KEPT_HEADING = "## Panel updates in the browser"


def _kept_section(text: str) -> str:
    """The part of an existing RESULTS.md from :data:`KEPT_HEADING` on ("" if it has none)."""
    at = text.find(KEPT_HEADING)
    return text[at:] if at >= 0 else ""


README_START = "<!-- bench: written by benchmarks/run.py from results.json; do not edit by hand -->"
README_END = "<!-- end bench -->"


def readme_sentence(res: dict) -> str:
    """The README's one-sentence summary of a full run (``results.json``), between its markers."""
    lat = [p["p95_ms"] for key in ("panels", "lecture_panels") for p in res["latency"][key]
           if p.get("target_ms") is not None and p.get("p95_ms") is not None]
    ratios = [row["ratio"] for row in res["trees"]["rows"]]
    met = "every slider within its target" if not res.get("missed_targets") else \
        f"{len(res['missed_targets'])} target(s) missed (RESULTS.md lists them)"
    return (f"{README_START}Latest run ({res['machine']['date_utc']}): {met} (p95 "
            f"{min(lat):.0f}-{max(lat):.0f} ms), our gini tree at most {max(ratios):.1f}x scikit-learn's "
            f"training time, the nbval suite in {res['notebooks']['wall_seconds']:.0f} s.{README_END}")


def write_readme(res: dict, readme: Path = REPO / "README.md") -> None:
    """Replace the README's bench sentence (between its markers) with this run's."""
    text = readme.read_text(encoding="utf-8")
    if README_START not in text or README_END not in text:
        raise SystemExit(f"README.md has no {README_START} ... {README_END} sentence")
    head, rest = text.split(README_START, 1)
    readme.write_text(head + readme_sentence(res) + rest.split(README_END, 1)[1], encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated sections (default all): {', '.join(SECTIONS)}")
    parser.add_argument("--quick", action="store_true", help="small grids (to try the script)")
    parser.add_argument("--out", type=Path, default=HERE, help="folder for RESULTS.md and results.json")
    parser.add_argument("--notebooks", nargs="+", default=None,
                        help="notebook files or folders for the notebooks section (default: notebooks)")
    args = parser.parse_args(argv)
    if args.notebooks:
        NOTEBOOK_PATHS[:] = args.notebooks
    sections = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s) {sorted(unknown)}; choose from {SECTIONS}")
    res: dict = {"machine": machine_info(), "quick": args.quick, "load_before": _load(),
                 "sections": sections}
    runners = {"latency": bench_latency, "reconstruction": bench_reconstruction,
               "trees": bench_trees, "notebooks": bench_notebooks}
    t0 = time.perf_counter()
    for name in SECTIONS:
        if name in sections:
            start = time.perf_counter()
            res[name] = runners[name](args.quick)
            res[name]["section_seconds"] = time.perf_counter() - start
    res["total_seconds"] = time.perf_counter() - t0
    res["load_after"] = _load()
    args.out.mkdir(parents=True, exist_ok=True)
    md = render_markdown(res)
    results = args.out / "RESULTS.md"
    # the browser-measured section is written by hand from `make test-browser` runs: keep it
    kept = _kept_section(results.read_text(encoding="utf-8")) if results.exists() else ""
    results.write_text(md + "\n" + (f"\n{kept}" if kept else ""))
    _, missed = targets_table(res)
    res["missed_targets"] = missed
    (args.out / "results.json").write_text(json.dumps(res, indent=2, default=str) + "\n")
    if args.out.resolve() == HERE and not args.quick and set(sections) == set(SECTIONS):
        write_readme(res)          # only a full run into benchmarks/ speaks for the README
    print(md)
    _say(f"wrote {args.out / 'RESULTS.md'} and {args.out / 'results.json'} in {res['total_seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
