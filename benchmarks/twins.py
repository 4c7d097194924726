"""The website's panel twins (issue 25 §2): build time and size of every twin, cold.

Builds every notebook panel's twin into a temporary folder (``site/_twins.py``, nothing reused
from an earlier ``make site``), timing each, and writes ``benchmarks/twins_build.json``. The
other two budgets of the issue are measured elsewhere: the browser latency by
``tests/browser/test_twins_in_browser.py`` (``benchmarks/twins_latency.json``) and the whole ``make site``
time and site size by hand (``benchmarks/twins.md`` says how). Nothing here is asserted.

Usage::

    python benchmarks/twins.py
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "site"))

import _twins  # noqa: E402


def main() -> int:
    load_before = os.getloadavg()[0]
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        _twins.OUT = Path(tmp) / "twins"
        _twins.DATA = Path(tmp) / "records"
        package_hash = _twins.package_hash_of_sources()
        for path in sorted((REPO / "notebooks").glob("*.ipynb")):
            nb = json.loads(path.read_text(encoding="utf-8"))
            for k, found in enumerate(_twins.find_panels(nb)):
                twin_id = f"twin-{path.stem[:2]}-{k + 1}"
                start = time.perf_counter()
                data = _twins.build_twin(found, twin_id, package_hash)
                seconds = time.perf_counter() - start
                folder = _twins.OUT / twin_id
                rows[twin_id] = {
                    "panel": found.cls.__name__, "states": len(data["states"]),
                    "frames": len(list(folder.glob("*.webp"))),
                    "bytes": sum(p.stat().st_size for p in folder.iterdir()),
                    "seconds": round(seconds, 1),
                    "ms_per_state": round(1000 * seconds / len(data["states"]), 1),
                    "grid": [_twins._grid_line(c) for c in data["controls"]],
                }
                print(twin_id, rows[twin_id]["states"], "states", rows[twin_id]["seconds"], "s",
                      f"{rows[twin_id]['bytes'] / 1e6:.2f} MB", flush=True)
    out = {
        "what": "every notebook panel's twin built cold (benchmarks/twins.py)",
        "total_seconds": round(sum(r["seconds"] for r in rows.values()), 1),
        "total_megabytes": round(sum(r["bytes"] for r in rows.values()) / 1e6, 2),
        "load_average_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "twins": rows,
    }
    (HERE / "twins_build.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    print(f"{out['total_seconds']} s, {out['total_megabytes']} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
