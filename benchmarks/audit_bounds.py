"""Audited bounds before/after (issue 42): median over seeds per mechanism.

Run: PYTHONPATH=$PWD python benchmarks/audit_bounds.py [n_seeds] [old_audit.py]
(one-run audit: ``size`` is canaries for one release, runs per input for the two-input audit)
The old audit (``git show 64107f9:ppdm_edu/audit.py`` with absolute imports) is optional.
"""
from __future__ import annotations

import importlib.util
import math
import sys

import numpy as np

from ppdm_edu.audit import audit_epsilon
from ppdm_edu.mechanisms import GaussianNoiseMechanism, OptimizedUnaryEncoding
from ppdm_edu.tradeoff import LOCAL_MECHANISMS, make_mechanism


def configs():
    g = GaussianNoiseMechanism.for_epsilon(1.0, delta=1e-5)
    yield "gaussian eps=1 delta=1e-5 (share)", g, 0.0, 1.0, 100_000, g.delta
    yield "oue eps=0.5 k=10 (0 vs 9)", OptimizedUnaryEncoding(10, 0.5), 0, 9, 20_000, 0.0
    for task, names in LOCAL_MECHANISMS.items():
        k = 2 if task == "share" else 10
        for name in names:
            m = make_mechanism(name, 1.0, task)
            yield f"{name} {task} param=1", m, 0, k - 1, 20_000, m.delta


def main(n_seeds=10, old_path=None):
    old = None
    if old_path:
        spec = importlib.util.spec_from_file_location("old_audit", old_path)
        old = importlib.util.module_from_spec(spec)
        sys.modules["old_audit"] = old
        spec.loader.exec_module(old)
    print(f"{'configuration':38s} {'claim eps':>9s} {'delta':>7s} {'old med':>8s} {'new med':>8s} "
          f"{'new min':>8s} {'nonzero':>8s}")
    for name, m, x0, x1, trials, delta in configs():
        new = np.array([audit_epsilon(m, x0, x1, trials=trials, delta=delta, rng=s).lower_bound
                        for s in range(n_seeds)])
        old_med = (np.median([old.audit_epsilon(m, x0, x1, trials=trials, rng=s).lower_bound
                              for s in range(n_seeds)]) if old else math.nan)
        print(f"{name:38s} {m.epsilon:9.3f} {delta:7.0e} {old_med:8.3f} {np.median(new):8.3f} "
              f"{new.min():8.3f} {int((new > 0).sum()):>4d}/{n_seeds}", flush=True)


def one_run(n_seeds=10):
    """One release of m canaries against the two-input audit of the same per-bin Laplace noise."""
    import time

    from ppdm_edu.audit import audit_one_run, laplace_histogram
    from ppdm_edu.mechanisms import LaplaceMechanism

    print(f"\n{'epsilon':>7s} {'audit':>10s} {'size':>9s} {'releases':>9s} {'median bound':>13s} {'s/audit':>8s}")
    for eps in (1.0, 2.0):
        for m in (1_000, 10_000, 100_000):
            t = time.perf_counter()
            b = [audit_one_run(laplace_histogram(eps), m, guesses=m // 10, rng=s).lower_bound
                 for s in range(n_seeds)]
            el = (time.perf_counter() - t) / n_seeds
            print(f"{eps:7.1f} {'one-run':>10s} {m:9,d} {1:9,d} {np.median(b):13.3f} {el:8.3f}")
            t = time.perf_counter()
            b = [audit_epsilon(LaplaceMechanism(eps), 0.0, 1.0, trials=m, rng=s).lower_bound
                 for s in range(n_seeds)]
            el = (time.perf_counter() - t) / n_seeds
            print(f"{eps:7.1f} {'two-input':>10s} {m:9,d} {2 * m:9,d} {np.median(b):13.3f} {el:8.3f}", flush=True)


def coverage(n_seeds=400):
    """Share of seeds whose bound exceeds the true epsilon (the cases of tests/test_audit_coverage.py)."""
    sys.path.insert(0, "tests")
    from test_audit_coverage import CASES

    print(f"\n{'case':12s} {'trials':>7s} {'conf':>5s} {'misses':>7s} {'allowed':>8s} {'median bound':>13s} {'true eps':>9s}")
    from scipy import stats
    for name, (make, x0, x1, delta, true_eps, trials) in CASES.items():
        mech = make()
        for conf in (0.5, 0.95):
            b = np.array([audit_epsilon(mech, x0, x1, trials=trials, confidence=conf, delta=delta, rng=s).lower_bound
                          for s in range(n_seeds)])
            allowed = int(stats.binom.ppf(0.999, n_seeds, 1 - conf))
            print(f"{name:12s} {trials:7,d} {conf:5.2f} {int((b > true_eps).sum()):4d}/{n_seeds} {allowed:8d} "
                  f"{np.median(b):13.3f} {true_eps:9.3f}", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["coverage"]:
        coverage()
        sys.exit()
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10, sys.argv[2] if len(sys.argv) > 2 else None)
    one_run(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
