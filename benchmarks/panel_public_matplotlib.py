"""Before / after, in one run: the CPU time of a panel update with the package of a git ref
("before") and with the working tree ("after").

Written for the move to public matplotlib only (the x-axis labels fixed with
``Axis.set_label_coords`` instead of replacing ``Axis._get_ticklabel_bboxes`` and
``_get_tick_boxes_siblings``; alt texts that read error bars and filled areas), but it compares
any two versions of ``ppdm_edu``. The ref's ``ppdm_edu`` is exported (``git archive``) into a
temporary folder; each round runs one child process per version, alternating, so that both see
the same load. Each child builds every panel (classroom style) and moves its first slider (else
its first control) through ``--updates`` values (:func:`panel_latency.sweep_values`), timing each
update in CPU seconds of the thread that runs it (``time.thread_time``: less sensitive than the
wall clock to the other users of a shared machine, and blind to the results a panel computes
ahead on its worker thread meanwhile). Per panel it prints the median over rounds
of each round's median, and the ratio after / before.

Usage::

    python benchmarks/panel_public_matplotlib.py --before 64107f9 --rounds 3 --updates 15
    python benchmarks/panel_public_matplotlib.py --panel tradeoff --json out.json
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

from _git_ref import export_package  # benchmarks/, the script's folder

REPO = Path(__file__).resolve().parents[1]


def _child(updates: int, panel_filter: str) -> dict:
    """In a child process: the CPU seconds of each update of each panel."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    import ipywidgets as w

    sys.path.insert(0, str(REPO / "benchmarks"))
    from panel_latency import sweep_values

    from ppdm_edu import lecture_mode
    from ppdm_edu.widgets import all_panels

    lecture_mode(False)
    out = {}
    for key, cls in sorted(all_panels().items()):
        if panel_filter and not any(word in key for word in panel_filter.split(",")):
            continue
        panel = cls()
        controls = list(panel.controls.items())
        sliders = [(n, c) for n, c in controls if isinstance(c, (w.IntSlider, w.FloatSlider, w.FloatLogSlider))]
        name, control = (sliders or controls)[0]
        times = []
        for value in sweep_values(control, updates):
            start = time.thread_time()
            control.value = value
            if panel.error is None:
                times.append(time.thread_time() - start)
        out[key] = {"control": name, "seconds": times}
    return out



def _run(root: Path, updates: int, panel_filter: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root), "MPLBACKEND": "Agg"}
    proc = subprocess.run([sys.executable, __file__, "--child", "--updates", str(updates),
                           "--panel", panel_filter], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", default="64107f9", help="git ref of the 'before' package")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--updates", type=int, default=15)
    parser.add_argument("--panel", default="", help="only panels whose key contains one of these (comma-separated)")
    parser.add_argument("--json", help="write the per-round medians here")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.updates, args.panel)))
        return 0
    medians: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        before = export_package(args.before, Path(tmp))
        for _ in range(args.rounds):
            for label, root in (("before", before), ("after", REPO)):
                for key, row in _run(root, args.updates, args.panel).items():
                    if row["seconds"]:
                        medians.setdefault(key, {}).setdefault(label, []).append(
                            statistics.median(row["seconds"]))
    print("| panel | before p50 (ms CPU) | after p50 (ms CPU) | after / before |")
    print("|---|---:|---:|---:|")
    for key, row in sorted(medians.items()):
        if "before" not in row or "after" not in row:
            continue
        b, a = statistics.median(row["before"]), statistics.median(row["after"])
        print(f"| {key} | {b * 1e3:.1f} | {a * 1e3:.1f} | {a / b:.2f} |")
    if args.json:
        Path(args.json).write_text(json.dumps({"before": args.before, "rounds": args.rounds,
                                               "updates": args.updates, "medians": medians}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
