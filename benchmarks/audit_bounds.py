"""Audited bounds of the two-input ε audit: the Gaussian goal, every mechanism, one-run, coverage.

Writes the whole of benchmarks/audit_bounds.md (``before`` is an older checkout of the package,
run in a subprocess; without ``--before`` its columns are left out):

    mkdir -p /tmp/audit_before && git archive 5bf3b64 ppdm_edu | tar -x -C /tmp/audit_before
    PYTHONPATH=$PWD python benchmarks/audit_bounds.py --before /tmp/audit_before > benchmarks/audit_bounds.md

``--seeds N`` (default 50) sets the seeds of the per-mechanism table and ``--goal-seeds N``
(default 1000) those of the Gaussian goal (in blocks of 50: seeds 0-49, 50-99, ...).
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import subprocess
import sys
import time

import numpy as np

from ppdm_edu.audit import audit_epsilon
from ppdm_edu.mechanisms import GaussianNoiseMechanism, OptimizedUnaryEncoding
from ppdm_edu.tradeoff import LOCAL_MECHANISMS, make_mechanism

GOAL = 0.6       # the goal: median bound >= 0.6 over seeds (Gaussian, eps = 1, delta = 1e-5, 100,000 runs)
BLOCK = 50       # seeds per block of the goal


def configs():
    """(name, mechanism, x0, x1, runs per input, delta audited at)."""
    g = GaussianNoiseMechanism.for_epsilon(1.0, delta=1e-5)
    yield "gaussian eps=1 delta=1e-5 (share)", g, 0.0, 1.0, 100_000, g.delta
    yield "oue eps=0.5 k=10 (0 vs 9)", OptimizedUnaryEncoding(10, 0.5), 0, 9, 20_000, 0.0
    for task, names in LOCAL_MECHANISMS.items():
        k = 2 if task == "share" else 10
        for name in names:
            m = make_mechanism(name, 1.0, task)
            yield f"{name} {task} param=1", m, 0, k - 1, 20_000, m.delta


def bounds(n_seeds: int, goal_seeds: int) -> dict:
    """Bounds per configuration (the first, the goal's, over ``goal_seeds`` seeds)."""
    out = {}
    for i, (name, m, x0, x1, trials, delta) in enumerate(configs()):
        seeds = range(goal_seeds if i == 0 else n_seeds)
        out[name] = [float(audit_epsilon(m, x0, x1, trials=trials, delta=delta, rng=s).lower_bound)
                     for s in seeds]
    return out


def before_bounds(path: str, n_seeds: int, goal_seeds: int) -> dict:
    path = os.path.abspath(path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([path, os.path.dirname(os.path.abspath(__file__))]))
    code = ("import json, audit_bounds, ppdm_edu; assert ppdm_edu.__file__.startswith(%r), ppdm_edu.__file__; "
            "print(json.dumps(audit_bounds.bounds(%d, %d)))" % (path, n_seeds, goal_seeds))
    # run from the older package's directory: python -c puts the working directory first on the path
    run = subprocess.run([sys.executable, "-c", code], env=env, cwd=path, capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def goal_section(new: list[float], old: list[float] | None) -> list[str]:
    b = np.array(new)
    blocks = np.median(b[: b.size // BLOCK * BLOCK].reshape(-1, BLOCK), axis=1)
    lines = ["## The goal: Gaussian mechanism, ε = 1, δ = 1e-5, 100,000 runs per input", "",
             f"Median of the 95 % lower bound on ε at δ = 1e-5 (inputs 0 and 1), over seeds 0-{BLOCK - 1} and "
             f"over each block of {BLOCK} seeds of 0-{b.size - 1}; the goal is a median >= {GOAL}.", "",
             "```",
             f"{'method':28s} {'median 0-' + str(BLOCK - 1):>12s} {'median all':>11s} {'worst block':>12s} "
             f"{'best block':>11s} {'blocks >= ' + str(GOAL):>12s} {'bounds > 1':>11s}"]
    rows = [("this commit", b, blocks)]
    if old is not None:
        o = np.array(old)
        rows.insert(0, ("before (Bonferroni CP)", o, np.median(o[: o.size // BLOCK * BLOCK].reshape(-1, BLOCK), axis=1)))
    for label, v, bl in rows:
        lines.append(f"{label:28s} {np.median(v[:BLOCK]):12.3f} {np.median(v):11.3f} {bl.min():12.3f} {bl.max():11.3f} "
                     f"{int((bl >= GOAL).sum()):>7d}/{bl.size:<4d} {int((v > 1.0).sum()):>6d}/{v.size}")
    lines += ["```", "",
              "`bounds > 1`: seeds whose bound exceeds the true ε = 1 (a 95 % bound may, in at most 5 % of seeds).", ""]
    return lines


def table_section(new: dict, old: dict | None, n_seeds: int) -> list[str]:
    lines = ["## Every mechanism", "",
             f"Median over seeds 0-{n_seeds - 1} (the Gaussian first row: the goal's seeds 0-{n_seeds - 1}); "
             "'nonzero' counts seeds with a bound > 0; bounds at each mechanism's own δ (Gaussian 1e-5, "
             "others 0); inputs 0 and 1 (share) or 0 and 9 (histogram): value neighbour relation; 20,000 runs "
             "per input unless stated (Gaussian first row: 100,000).", "", "```",
             f"{'configuration':38s} {'claim eps':>9s} {'delta':>7s} {'before med':>10s} {'min':>6s} {'nonzero':>8s} "
             f"{'new med':>8s} {'min':>6s} {'nonzero':>8s}"]
    for name, m, *_, delta in configs():
        v = np.array(new[name][:n_seeds])
        o = np.array(old[name][:n_seeds]) if old else None
        before = (f"{np.median(o):10.3f} {o.min():6.3f} {int((o > 0).sum()):>5d}/{o.size:<2d}" if o is not None
                  else f"{'':>10s} {'':>6s} {'':>8s}")
        lines.append(f"{name:38s} {m.epsilon:9.3f} {delta:7.0e} {before} {np.median(v):8.3f} {v.min():6.3f} "
                     f"{int((v > 0).sum()):>5d}/{v.size}")
    return lines + ["```", ""]


def one_run_section(n_seeds: int) -> list[str]:
    """One release of m canaries against the two-input audit of the same per-bin Laplace noise."""
    from ppdm_edu.audit import audit_one_run, laplace_histogram
    from ppdm_edu.mechanisms import LaplaceMechanism

    lines = ["## One run against two inputs", "",
             f"Median over seeds 0-{n_seeds - 1}. `size` is canaries in the one release (guesses = size / 10), "
             "or runs per input of the two-input audit of the same per-bin Laplace noise (2 x size releases); "
             "s/audit on 2 shared cores.", "", "```",
             f"{'epsilon':>7s} {'audit':>10s} {'size':>9s} {'releases':>9s} {'median bound':>13s} {'s/audit':>8s}"]
    for eps in (1.0, 2.0):
        for m in (1_000, 10_000, 100_000):
            t = time.perf_counter()
            b = [audit_one_run(laplace_histogram(eps), m, guesses=m // 10, rng=s).lower_bound for s in range(n_seeds)]
            el = (time.perf_counter() - t) / n_seeds
            lines.append(f"{eps:7.1f} {'one-run':>10s} {m:9,d} {1:9,d} {np.median(b):13.3f} {el:8.3f}")
            t = time.perf_counter()
            b = [audit_epsilon(LaplaceMechanism(eps), 0.0, 1.0, trials=m, rng=s).lower_bound for s in range(n_seeds)]
            el = (time.perf_counter() - t) / n_seeds
            lines.append(f"{eps:7.1f} {'two-input':>10s} {m:9,d} {2 * m:9,d} {np.median(b):13.3f} {el:8.3f}")
    return lines + ["```", ""]


def coverage_section(n_seeds: int = 400) -> list[str]:
    """Share of seeds whose bound exceeds the true epsilon, and the median bound as a share of the
    true epsilon against its floor (the cases of tests/test_audit_coverage.py)."""
    from scipy import stats

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
    from test_audit_coverage import CASES, FLOORS

    from ppdm_edu.audit import warner_randomizer

    cases = dict(CASES)
    for theta in (0.75, 0.9, 0.99):   # test_coverage_is_at_least_the_stated_confidence
        cases[f"warner400-{theta}"] = (lambda t=theta: warner_randomizer(t), 1, 0, 0.0,
                                       math.log(theta / (1 - theta)), 400)
    lines = ["## Coverage and tightness", "",
             f"misses = seeds (of {n_seeds}) whose bound exceeds the true ε at the audited δ; allowed = the "
             f"99.9 % quantile of Binomial({n_seeds}, 1 - confidence) (tests/test_audit_coverage.py asserts "
             "misses <= allowed); share = median bound / true ε on the same seeds, floor = the share the test "
             "asserts (the measured share rounded down to a multiple of 0.05, less 0.05).", "", "```",
             f"{'case':15s} {'trials':>7s} {'conf':>5s} {'misses':>7s} {'allowed':>8s} {'median bound':>13s} "
             f"{'true eps':>9s} {'share':>6s} {'floor':>6s}"]
    for name, (make, x0, x1, delta, true_eps, trials) in cases.items():
        mech = make()
        for conf in (0.5, 0.95):
            b = np.array([audit_epsilon(mech, x0, x1, trials=trials, confidence=conf, delta=delta, rng=s).lower_bound
                          for s in range(n_seeds)])
            allowed = int(stats.binom.ppf(0.999, n_seeds, 1 - conf))
            lines.append(f"{name:15s} {trials:7,d} {conf:5.2f} {int((b > true_eps + 1e-12).sum()):4d}/{n_seeds} "
                         f"{allowed:8d} {np.median(b):13.3f} {true_eps:9.3f} {np.median(b) / true_eps:6.3f} "
                         f"{FLOORS[(name, conf)]:6.2f}")
    return lines + ["```", ""]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="directory holding an older ppdm_edu package to compare with")
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--goal-seeds", type=int, default=1000)
    args = parser.parse_args(argv)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    new = bounds(args.seeds, args.goal_seeds)
    old = before_bounds(args.before, args.seeds, args.goal_seeds) if args.before else None
    goal = next(iter(new))
    lines = ["# Audited bounds of the ε audit", "",
             f"Generated by `benchmarks/audit_bounds.py` on {datetime.date.today()} at commit {commit} (2 shared cores):", "",
             "```",
             "mkdir -p /tmp/audit_before && git archive 5bf3b64 ppdm_edu | tar -x -C /tmp/audit_before",
             "PYTHONPATH=$PWD python benchmarks/audit_bounds.py --before /tmp/audit_before"
             f" --seeds {args.seeds} --goal-seeds {args.goal_seeds} > benchmarks/audit_bounds.md",
             "```", "",
             "'before' is the audit of commit 5bf3b64 (each probability bounded by Clopper–Pearson at α/2, "
             "Bonferroni; the event chosen by that bound at the tuning runs' size); 'this commit' bounds the "
             "ratio in one exact conditional test on Poisson counts and chooses the event by the bound at "
             "the estimation size less 2 tuning standard errors (ppdm_edu/audit/_two_input.py).", ""]
    lines += goal_section(new[goal], old[goal] if old else None)
    lines += table_section(new, old, args.seeds)
    lines += one_run_section(20)
    lines += coverage_section()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
