"""Notebook 09's reconstruction attack: CPU per panel move, and the L1 program's time.

Three measurements, in one run (so that their ratios see the same load):

* ``panel move, least squares``: CPU (``time.process_time``, the whole process) of one move of
  the error slider of :class:`~ppdm_edu.widgets.database_reconstruction.ReconstructionAttackPanel`
  at n = 50, 100 and 200 (m = 4n), every position once, nothing computed ahead; target p50
  <= 50 ms;
* ``panel move, L1 program``: the same with the L1 decoder (foreground: the program is solved
  in the move);
* ``L1 program, n = 200, m = 800``: :func:`~ppdm_edu.database_reconstruction.l1_program` alone,
  at E / √n = 0, 0.5, 1 and 2 over several seeds, CPU and wall time; target < 2 s on one core
  (BLAS limited to one thread; HiGHS runs on one thread).

Usage::

    python benchmarks/reconstruction_attack.py [--seeds 5] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import time

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402

TARGET_MOVE_MS = 50.0
TARGET_LP_S = 2.0


def _moves(decoder: str, seeds: int) -> list[float]:
    from ppdm_edu.widgets import precompute
    from ppdm_edu.widgets.database_reconstruction import PEOPLE, ReconstructionAttackPanel

    saved = precompute.threads_available
    precompute.threads_available = lambda: False  # nothing ahead: every move computes
    cpu = []
    try:
        for seed in range(1, seeds + 1):
            for n in PEOPLE:
                panel = ReconstructionAttackPanel(seed=seed, n=n, queries=4, decoder=decoder, error=0.0)
                control = panel.controls["error"]
                for value in np.arange(control.min + control.step, control.max + 1e-9, control.step):
                    t = time.process_time()
                    control.value = float(value)
                    cpu.append(time.process_time() - t)
                    assert panel.error is None, panel.message.value
    finally:
        precompute.threads_available = saved
    return cpu


def _lp(seeds: int) -> dict:
    from threadpoolctl import threadpool_limits

    from ppdm_edu.database_reconstruction import (
        BoundedError,
        l1_program,
        publish,
        random_queries,
        secret_bits,
    )
    from ppdm_edu.random_state import spawn_rngs

    out: dict = {}
    n, m = 200, 800
    with threadpool_limits(1):
        for level in (0.0, 0.5, 1.0, 2.0):
            cpu, wall = [], []
            for seed in range(seeds):
                data, queries, noise = spawn_rngs(seed, 3)
                release = publish(secret_bits(n, data), random_queries(n, m, queries),
                                  BoundedError(level * math.sqrt(n)), noise)
                t, w = time.process_time(), time.perf_counter()
                l1_program(release.queries, release.answers)
                cpu.append(time.process_time() - t)
                wall.append(time.perf_counter() - w)
            out[f"{level:g}"] = {"cpu_median_s": statistics.median(cpu), "cpu_max_s": max(cpu),
                                 "wall_median_s": statistics.median(wall), "wall_max_s": max(wall)}
    return out


def _blas_threads(repeats: int = 10) -> dict:
    """``numpy.linalg.lstsq`` on an 800 x 200 0/1 matrix with 17 answer columns (the panel's curve),
    with the BLAS threads numpy starts with and with one, alternating (the same load for both)."""
    from threadpoolctl import threadpool_info, threadpool_limits

    rng = np.random.default_rng(0)
    A = rng.integers(0, 2, (800, 200)).astype(float)
    B = rng.normal(size=(800, 17))
    cpu: dict = {"default": [], "one": []}
    for _ in range(repeats):
        for label in ("default", "one"):
            limit = threadpool_limits(1, "blas") if label == "one" else threadpool_limits(None)
            with limit:
                t = time.process_time()
                np.linalg.lstsq(A, B, rcond=None)
                cpu[label].append(time.process_time() - t)
    threads = max((i.get("num_threads", 1) for i in threadpool_info() if i.get("user_api") == "blas"), default=1)
    return {"blas_threads": threads, **{f"{k}_median_ms": 1000 * statistics.median(v) for k, v in cpu.items()}}


def measure(seeds: int = 3) -> dict:
    ls = _moves("least-squares", seeds)
    l1 = _moves("l1", 1)
    return {
        "panel_least_squares": {"moves": len(ls), "p50_ms": 1000 * statistics.median(ls),
                                "p95_ms": 1000 * float(np.percentile(ls, 95)), "max_ms": 1000 * max(ls)},
        "panel_l1": {"moves": len(l1), "p50_ms": 1000 * statistics.median(l1),
                     "p95_ms": 1000 * float(np.percentile(l1, 95)), "max_ms": 1000 * max(l1)},
        "l1_program_n200_m800": _lp(seeds),
        "lstsq_800x200": _blas_threads(),
        "load_average": os.getloadavg(), "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--json", help="also write the numbers here")
    args = parser.parse_args(argv)
    start = os.getloadavg()
    r = measure(args.seeds)
    print(f"load average at the start: {start[0]:.2f}; at the end: {r['load_average'][0]:.2f} ({r['machine']})")
    for key in ("panel_least_squares", "panel_l1"):
        s = r[key]
        print(f"{key:22s} {s['moves']:4d} moves: CPU p50 {s['p50_ms']:7.1f} ms, p95 {s['p95_ms']:7.1f} ms, "
              f"max {s['max_ms']:7.1f} ms")
    print("L1 program, n = 200, m = 800, one BLAS thread:")
    for level, s in r["l1_program_n200_m800"].items():
        print(f"  E = {level} √n: CPU median {s['cpu_median_s']:.3f} s (max {s['cpu_max_s']:.3f}), "
              f"wall median {s['wall_median_s']:.3f} s (max {s['wall_max_s']:.3f})")
    b = r["lstsq_800x200"]
    print(f"lstsq 800 x 200, 17 columns: CPU median {b['default_median_ms']:.1f} ms with {b['blas_threads']} BLAS "
          f"threads, {b['one_median_ms']:.1f} ms with one")
    worst = max(s["cpu_max_s"] for s in r["l1_program_n200_m800"].values())
    print(f"target: panel move (least squares) p50 <= {TARGET_MOVE_MS:g} ms CPU: "
          f"{'met' if r['panel_least_squares']['p50_ms'] <= TARGET_MOVE_MS else 'NOT met'}; "
          f"L1 program < {TARGET_LP_S:g} s CPU at n = 200, m = 800: {'met' if worst < TARGET_LP_S else 'NOT met'} "
          f"(slowest {worst:.3f} s)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(r, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
