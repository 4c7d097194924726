"""CPU time per ε move of notebook 08's panel (TradeoffPanel), target p50 <= 50 ms.

Two measurements, each over the ε slider's positions from 0.13 upwards, one keyboard step at a
time, on positions not yet visited (nothing cached):

* ``foreground``: nothing is computed ahead; a move computes the runs, audits and draws
  (``time.process_time`` around the assignment, the whole process);
* ``after idle``: the panel has computed the next position ahead while the room looked at the
  figure (``AheadCache``), as in class; the move's own CPU is the main thread's
  (``time.thread_time``), the drawing and PNG encoding.

Usage::

    python benchmarks/tradeoff_panel_cpu.py [--moves 20]
"""
from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402

TARGET_MS = 50.0


def _positions(control, moves: int) -> list:
    exps = np.arange(control.min, control.max + 1e-9, control.step)
    return [float(control.base ** e) for e in exps[1:moves + 1]]


def measure(moves: int = 20) -> dict:
    from ppdm_edu.widgets.tradeoff import TradeoffPanel

    panel = TradeoffPanel(seed=11)
    panel._results.prefetch = lambda *a, **k: None  # noqa: SLF001 (benchmark: nothing ahead)
    ctrl = panel.controls["epsilon"]
    fg = []
    for eps in _positions(ctrl, moves):
        t = time.process_time()
        ctrl.value = eps
        fg.append(time.process_time() - t)
    panel = TradeoffPanel(seed=12)
    ctrl = panel.controls["epsilon"]
    idle = []
    for eps in _positions(ctrl, moves):
        deadline = time.monotonic() + 10
        key = panel._key(eps, "share")  # noqa: SLF001
        while panel._results.peek(key) is None and time.monotonic() < deadline:  # noqa: SLF001
            time.sleep(0.01)
        t = time.thread_time()
        ctrl.value = eps
        idle.append(time.thread_time() - t)
    return {"foreground_p50_ms": 1000 * float(np.median(fg)), "foreground_p95_ms": 1000 * float(np.percentile(fg, 95)),
            "after_idle_p50_ms": 1000 * float(np.median(idle)),
            "after_idle_p95_ms": 1000 * float(np.percentile(idle, 95)), "moves": moves}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    r = measure(parser.parse_args(argv).moves)
    for k, v in r.items():
        print(f"{k:20s} {v:8.1f}" if isinstance(v, float) else f"{k:20s} {v}")
    print(f"target p50 <= {TARGET_MS:g} ms: foreground {'met' if r['foreground_p50_ms'] <= TARGET_MS else 'NOT met'}, "
          f"after idle {'met' if r['after_idle_p50_ms'] <= TARGET_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
