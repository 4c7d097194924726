"""CPU time per ε move of notebook 08's panel (TradeoffPanel), target p50 <= 50 ms.

Two measurements, each over the ε slider's positions from 0.13 upwards, one keyboard step at a
time, on positions not yet visited (nothing cached):

* ``foreground``: nothing is computed ahead; a move computes the runs, audits and draws
  (``time.process_time`` around the assignment, the whole process);
* ``after idle``: the panel has computed the next position ahead while the room looked at the
  figure (``AheadCache``), as in class; the move's own CPU is the main thread's
  (``time.thread_time``), the drawing and PNG encoding.

With ``--before REF``, the same measurement of the package at a git ref ("before") and of the
working tree ("after"), in child processes that alternate round by round (both see the same load
of a shared machine), with the ratio after / before of the medians over rounds.

Usage::

    python benchmarks/tradeoff_panel_cpu.py [--moves 20]
    python benchmarks/tradeoff_panel_cpu.py --before HEAD --rounds 5
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

os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402
from _git_ref import export_package  # noqa: E402  (benchmarks/, the script's folder)

TARGET_MS = 50.0
REPO = Path(__file__).resolve().parents[1]


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



def _child_run(root: Path, moves: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root), "MPLBACKEND": "Agg"}
    proc = subprocess.run([sys.executable, __file__, "--child", "--moves", str(moves)], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def compare(before: str, rounds: int, moves: int) -> dict:
    """Per measure, the medians over ``rounds`` of the package at ``before`` and of the working
    tree, each round running both (alternating which goes first)."""
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as tmp:
        versions = [("before", export_package(before, Path(tmp))), ("after", REPO)]
        for k in range(rounds):
            for label, root in versions if k % 2 == 0 else versions[::-1]:
                runs[label].append(_child_run(root, moves))
    keys = [k for k in runs["after"][0] if k.endswith("_ms")]
    return {k: {label: statistics.median(r[k] for r in runs[label]) for label in runs} for k in keys}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--before", help="git ref of the package to compare the working tree with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.moves)))
        return 0
    if args.before:
        load = os.getloadavg()
        table = compare(args.before, args.rounds, args.moves)
        print(f"load average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
              f"at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"| measure (median of {args.rounds} rounds, {args.moves} moves each) | before {args.before} (ms CPU) "
              "| after (ms CPU) | after / before |")
        print("|---|---:|---:|---:|")
        for key, row in table.items():
            print(f"| {key} | {row['before']:.1f} | {row['after']:.1f} | {row['after'] / row['before']:.2f} |")
        return 0
    r = measure(args.moves)
    for k, v in r.items():
        print(f"{k:20s} {v:8.1f}" if isinstance(v, float) else f"{k:20s} {v}")
    print(f"target p50 <= {TARGET_MS:g} ms: foreground {'met' if r['foreground_p50_ms'] <= TARGET_MS else 'NOT met'}, "
          f"after idle {'met' if r['after_idle_p50_ms'] <= TARGET_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
