"""The converged iterative Bayes (``Mechanism.estimate(method="ibu")``): speed, memory, iterations.

Three measurements, written to ``benchmarks/ibu_speed.md`` (this script writes it):

1. **Against multi-freq-ldpy's IBU**, GRR with k = 100 and n = 100,000 reports: the two timed
   alternately in this process (medians of ``--repeats``), their ratio, and how far each is from
   the exact maximum-likelihood estimate (for GRR it has a closed form: the likelihood
   ``sum_t N_t log((p - q) pi_t + q)`` is separable on the simplex, its maximum
   ``pi_t = max(N_t / lam - c, 0)`` with ``c = q / (p - q)``, "water-filling"). multi-freq-ldpy
   runs its own defaults (``nb_iter=10_000``, ``tol=1e-12``, compiled with numba; its first call,
   the compilation, is left out).
2. **GRR with k = 10,000** (n = 100,000 reports): time and peak memory of one estimate in a fresh
   process, for the package at a git ref (``--before``, default ``main``; its names
   ``"bayes-converged"`` and ``"bayes"``) and for the working tree (``"ibu"``, ``"ibu-early"``).
   Memory: the process's peak resident set (``ru_maxrss``: data, reports and the estimate), and
   the most the estimate itself had allocated at once (``tracemalloc``, in a second call).
3. **The hardest problems here**, the trade-off reproduction's additive noises on the k = 10
   histogram (Laplace and Gaussian at every ε of ``--plan``, uniform noise at 50/100/200 %
   privacy; n = 1,000, 10,000, 100,000; the reproduction's own seeds and streams): how many
   updates by Eq. 3 each estimate needed, against the cap :data:`ppdm_edu.mechanisms.IBU_MAX_ITER`.

Usage::

    python benchmarks/ibu_speed.py [--before main] [--plan quick|full] [--repeats 7]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _git_ref import export_package  # (benchmarks/, the script's folder)

REPO = Path(__file__).resolve().parents[1]
OUT = Path(__file__).with_suffix(".md")
K_SMALL, K_LARGE, N = 100, 10_000, 100_000


def _data(k: int, n: int, seed: int = 0) -> np.ndarray:
    # a skewed distribution (f_v proportional to k - v): its maximum-likelihood estimate has zeros
    return np.random.default_rng(seed).choice(k, size=n, p=np.arange(k, 0, -1) / (k * (k + 1) / 2))


def _water_filling(counts: np.ndarray, p: float, q: float) -> np.ndarray:
    c, order = q / (p - q), np.sort(counts)[::-1]
    for j in range(1, counts.size + 1):
        lam = order[:j].sum() / (1 + j * c)
        if j == counts.size or order[j] / lam - c <= 0:
            return np.maximum(counts / lam - c, 0.0)
    raise AssertionError("unreachable")


def against_multi_freq_ldpy(repeats: int) -> list[dict]:
    from multi_freq_ldpy.pure_frequency_oracles import GRR as grr_mod

    from ppdm_edu.mechanisms import GeneralizedRR

    rows = []
    for eps in (0.5, 1.0, 2.0, 4.0):
        mech = GeneralizedRR(K_SMALL, eps)
        reports = mech.randomize(_data(K_SMALL, N), rng=1)
        A = mech.response_matrix()
        best = _water_filling(mech.counts(reports), A[0, 0], A[1, 0])
        grr_mod.GRR_Aggregator_IBU(reports[:100], K_SMALL, eps)  # numba compiles here
        ours_t, theirs_t = [], []
        for _ in range(repeats):  # alternately, so that both see the same load
            t = time.perf_counter()
            ours = mech.estimate(reports, method="ibu")
            ours_t.append(time.perf_counter() - t)
            t = time.perf_counter()
            theirs = grr_mod.GRR_Aggregator_IBU(reports, K_SMALL, eps)
            theirs_t.append(time.perf_counter() - t)
        rows.append({"eps": eps, "ours_s": statistics.median(ours_t), "theirs_s": statistics.median(theirs_t),
                     "n_iter": ours.n_iter, "converged": ours.converged,
                     "ours_to_ml": float(np.abs(ours.probabilities - best).sum()),
                     "theirs_to_ml": float(np.abs(theirs - best).sum()),
                     "zeros": int((best == 0).sum())})
    return rows


_CHILD = r"""
import json, resource, sys, time, tracemalloc
import numpy as np
from ppdm_edu.mechanisms import GeneralizedRR
method, k, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
x = np.random.default_rng(0).choice(k, size=n, p=np.arange(k, 0, -1) / (k * (k + 1) / 2))
mech = GeneralizedRR(k, 1.0)
reports = mech.randomize(x, rng=1)
mech.counts(reports[:1000])  # imports and first calls out of the timing (the same in both versions)
t = time.perf_counter()
est = mech.estimate(reports, method=method)
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()  # again, to count what the estimate itself allocates (numpy reports to it)
mech.estimate(reports, method=method)
allocated = tracemalloc.get_traced_memory()[1]
print(json.dumps({"seconds": seconds, "peak_mb": peak / 1024, "allocated_mb": allocated / 2**20,
                  "n_iter": est.n_iter, "converged": bool(est.converged)}))
"""


def _child(root: Path, method: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root)}
    # run in root: "python -c" puts the working directory first on the path
    out = subprocess.run([sys.executable, "-c", _CHILD, method, str(K_LARGE), str(N)], env=env, cwd=root,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def large_grr(before: str, rounds: int) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        versions = [(f"before ({before})", export_package(before, Path(tmp)), ("bayes-converged", "bayes")),
                    ("after", REPO, ("ibu", "ibu-early"))]
        for label, root, methods in versions:
            for method in methods:
                runs = [_child(root, method) for _ in range(rounds)]
                rows.append({"version": label, "method": method,
                             "seconds": statistics.median(r["seconds"] for r in runs),
                             "peak_mb": max(r["peak_mb"] for r in runs),
                             "allocated_mb": max(r["allocated_mb"] for r in runs),
                             "n_iter": runs[0]["n_iter"], "converged": runs[0]["converged"]})
    return rows


def hardest(plan: str) -> dict:
    from ppdm_edu.experiments.tasks import task_rng
    from ppdm_edu.mechanisms import IBU_MAX_ITER
    from ppdm_edu.tradeoff import make_mechanism, task_data

    epsilons, runs = ((0.25, 0.5, 1.0, 2.0, 4.0), 40) if plan == "full" else ((0.5, 1.0, 2.0), 10)
    configs = [(m, e) for m in ("laplace", "gaussian") for e in epsilons] + [("uniform", lv) for lv in (0.5, 1.0, 2.0)]
    iters, seconds, worst, failed = [], [], None, 0
    for name, param in configs:
        mech = make_mechanism(name, param, "histogram")
        for n in (1_000, 10_000, 100_000):
            for run in range(runs):  # the reproduction's own streams (experiments/tradeoff.task_error)
                x = task_data("histogram", n, task_rng(0, "data", "histogram", n, run))
                reports = mech.randomize(x, task_rng(0, "noise", "histogram", name, param, n, run))
                t = time.perf_counter()
                est = mech.estimate(reports, method="ibu")
                seconds.append(time.perf_counter() - t)
                iters.append(est.n_iter)
                failed += not est.converged
                if worst is None or est.n_iter > worst[0]:
                    worst = (est.n_iter, name, param, n, run)
    it = np.array(iters)
    return {"plan": plan, "configurations": len(configs) * 3, "runs": runs, "estimates": it.size,
            "median": float(np.median(it)), "p99": float(np.percentile(it, 99)), "max": int(it.max()),
            "worst": worst, "not_converged": failed, "cap": IBU_MAX_ITER,
            "seconds_median": float(np.median(seconds)), "seconds_max": float(max(seconds)),
            "seconds_total": float(sum(seconds))}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="git ref of the package for the k = 10,000 'before'")
    parser.add_argument("--plan", default="quick", choices=("quick", "full"))
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes per k = 10,000 measurement")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    from ppdm_edu.mechanisms import IBU_TOL

    load = os.getloadavg()
    mfl = against_multi_freq_ldpy(args.repeats)
    big = large_grr(args.before, args.rounds)
    hard = hardest(args.plan)
    lines = [
        "# The converged iterative Bayes: speed, memory, iterations",
        "",
        f"`python benchmarks/ibu_speed.py --before {args.before} --plan {args.plan} --repeats {args.repeats} "
        f"--rounds {args.rounds}` (this file is its output). Shared 2-core machine, load average "
        f"{load[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end. `ibu` stops when one more "
        f"iteration of Eq. 3 would move the estimate by less than tol = {IBU_TOL:g} (L1).",
        "",
        f"## 1. Against multi-freq-ldpy's IBU: GRR, k = {K_SMALL}, n = {N:,} (median of {args.repeats}, alternately)",
        "",
        "| ε | ours `ibu` (s) | multi-freq-ldpy IBU (s) | ours / theirs | our updates | converged "
        "| ours to the exact ML (L1) | theirs to the exact ML (L1) | zeros in the ML |",
        "|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for r in mfl:
        lines.append(f"| {r['eps']:g} | {r['ours_s']:.4f} | {r['theirs_s']:.4f} | {r['ours_s'] / r['theirs_s']:.2f} "
                     f"| {r['n_iter']:,} | {r['converged']} | {r['ours_to_ml']:.1e} | {r['theirs_to_ml']:.1e} "
                     f"| {r['zeros']} |")
    lines += [
        "",
        "multi-freq-ldpy stops when no entry moves by 1e-12 in a step, or after 10,000 steps; towards "
        "an estimate with zeros it takes all 10,000 and stops short of the maximum (last column but one).",
        "",
        f"## 2. GRR, k = {K_LARGE:,}, n = {N:,}: one estimate in a fresh process (median time of {args.rounds}, "
        "largest memory)",
        "",
        "| version | method | time (s) | peak RSS of the process (MB) | allocated by the estimate at most (MB) "
        "| updates | converged |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for r in big:
        lines.append(f"| {r['version']} | `{r['method']}` | {r['seconds']:.3f} | {r['peak_mb']:.0f} | "
                     f"{r['allocated_mb']:.1f} | {r['n_iter']:,} | {r['converged']} |")
    w = hard["worst"]
    lines += [
        "",
        f"## 3. The hardest problems: the trade-off reproduction's `ibu` rows ({hard['plan']} plan)",
        "",
        f"{hard['configurations']} configurations (mechanism x level x n) x {hard['runs']} runs = "
        f"{hard['estimates']:,} estimates: updates by Eq. 3 median {hard['median']:,.0f}, 99th percentile "
        f"{hard['p99']:,.0f}, most {hard['max']:,} ({w[1]} at {w[2]:g}, n = {w[3]:,}, run {w[4]}); cap "
        f"{hard['cap']:,}; not converged: {hard['not_converged']}. Time per estimate: median "
        f"{1000 * hard['seconds_median']:.0f} ms, longest {hard['seconds_max']:.2f} s, all {hard['seconds_total']:.0f} s.",
        "",
    ]
    OUT.write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
