"""The fixed cost of one `reconstruct` / `reconstruct_counts` call, this checkout against another.

    python benchmarks/reconstruct_overhead.py --baseline /path/to/other/checkout

One process, one BLAS thread, CPU time (``time.process_time``); the two packages are imported
side by side (the other as ``ppdm_edu_baseline``, as in ``reconstruct_floor.py``) and their calls
interleaved repeat by repeat, best repeat kept, so the ratio holds on a shared machine. Every
cell also checks that both give the same numbers (bit for bit).

* ``reconstruct(w, GaussianNoise(0.25), bounds=(0, 1), n_intervals=m)`` on plateau data
  (the paper's stop), n in {1e4, 1e5}, m in {20, 100, 500, 2000};
* ``reconstruct_counts(N, A)`` with a response matrix over the intervals extended by the
  noise's reach (as ``Reconstructor`` builds it), m in {20, 100, 2000}: the paper's stop, and
  one iteration (``max_iter=1``: the preparation of the matrix is nearly all of it).
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from reconstruct_floor import load_baseline  # noqa: E402

from ppdm_edu import GaussianNoise, perturb, plateau  # noqa: E402
from ppdm_edu.reconstruction import make_edges, reconstruct, reconstruct_counts, response_matrix  # noqa: E402
from ppdm_edu.reconstruction._grid import extend_edges, reach  # noqa: E402


def cpu_call(fn, budget=0.05):
    """CPU seconds of one call (repeated to ~budget and averaged)."""
    gc.collect()
    t0 = time.process_time()
    fn()
    t = time.process_time() - t0
    reps = max(1, min(2000, int(budget / max(t, 1e-7))))
    t0 = time.process_time()
    for _ in range(reps):
        fn()
    return (time.process_time() - t0) / reps


def compare(label, ours, before, repeats):
    a, b = ours(), before()
    same = (np.array_equal(a.probabilities, b.probabilities) and a.n_iter == b.n_iter
            and a.n_ignored == b.n_ignored)
    best = {"ours": np.inf, "before": np.inf}
    for _ in range(repeats):
        best["before"] = min(best["before"], cpu_call(before))
        best["ours"] = min(best["ours"], cpu_call(ours))
    print(f"{label:38s} iter {a.n_iter:4d}  before {1e6 * best['before']:10.1f} us  "
          f"ours {1e6 * best['ours']:10.1f} us  ours/before {best['ours'] / best['before']:.3f}"
          f"  identical {same}", flush=True)
    return dict(label=label, before=best["before"], ours=best["ours"], identical=same)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", required=True, help="checkout of ppdm-edu to compare with")
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args(argv)
    base = load_baseline(args.baseline)
    print("uptime:", os.popen("uptime").read().strip(), flush=True)
    rows = []
    with threadpool_limits(1):
        for m in (20, 100, 500, 2000):
            for n in (10**4, 10**5):
                noise, bnoise = GaussianNoise(0.25), base.GaussianNoise(0.25)
                w = perturb(plateau(n, rng=0), noise, rng=1)
                rows.append(compare(
                    f"reconstruct n={n:.0e} m={m}",
                    lambda: reconstruct(w, noise, bounds=(0, 1), n_intervals=m, keep_history=False),
                    lambda: base.reconstruct(w, bnoise, bounds=(0, 1), n_intervals=m,
                                             keep_history=False),
                    args.repeats if m < 2000 else 3))
        for m in (20, 100, 2000):
            noise, bnoise = GaussianNoise(0.25), base.GaussianNoise(0.25)
            edges = make_edges((0, 1), n_intervals=m)
            w_edges = extend_edges(edges, reach(noise))
            A = response_matrix(edges, noise, w_edges)
            A.setflags(write=False)
            w = perturb(plateau(10**5, rng=0), noise, rng=1)
            N = np.histogram(np.clip(w, w_edges[0], w_edges[-1]), w_edges)[0].astype(float)
            for kw, tag in (({}, "paper stop"), ({"max_iter": 1, "tol": 0.0}, "1 iteration")):
                rows.append(compare(
                    f"reconstruct_counts m={m} {tag}",
                    lambda kw=kw: reconstruct_counts(N, A, edges=edges, noise=noise, **kw),
                    lambda kw=kw: base.reconstruction.reconstruct_counts(N, A, edges=edges,
                                                                         noise=bnoise, **kw),
                    args.repeats if m < 2000 else 3))
    print("uptime:", os.popen("uptime").read().strip(), flush=True)
    return rows


if __name__ == "__main__":
    main()
