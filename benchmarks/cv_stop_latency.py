"""Latency of the reconstruction panel with the held-out-likelihood stop (issue: p95 < 150 ms at
n = 10,000 and 20 intervals).

``panel_latency.py`` drives each control with the others at their defaults, so it measures the
panel with the paper's stopping rule; this script switches the panel's *stop* control to
``cross-validation`` first and then drives the privacy slider, the shape and the noise, as a
student comparing the rules would. One update = 5-fold held-out curve + final run + redraw.

    python benchmarks/cv_stop_latency.py [--updates 40]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from ppdm_edu.widgets.reconstruction import ReconstructionPanel


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=40)
    args = parser.parse_args(argv)
    panel = ReconstructionPanel(n=10_000, n_intervals=20, stop="cross-validation")
    settings = [(shape, noise, privacy) for shape in ("plateau", "triangles")
                for noise in ("gaussian", "uniform") for privacy in range(25, 201, 25)]
    times = []
    for i in range(args.updates):
        shape, noise, privacy = settings[i % len(settings)]
        panel.controls["shape"].value = shape
        panel.controls["noise"].value = noise
        start = time.perf_counter()
        panel.controls["privacy"].value = privacy
        times.append(time.perf_counter() - start)
        assert panel.error is None, panel.error
    ms = 1000 * np.array(times)
    print(f"reconstruction panel, stop = cross-validation, n = 10,000, 20 intervals: "
          f"{ms.size} privacy-slider updates, p50 {np.percentile(ms, 50):.0f} ms, "
          f"p95 {np.percentile(ms, 95):.0f} ms, max {ms.max():.0f} ms (target p95 < 150 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
