"""Write ``benchmarks/ci.md`` from the stage times of a ``.ci/run`` (``artifacts/ci-stages.tsv``)
and the per-suite test times of its JUnit reports (``artifacts/junit-*.xml``).

Usage: ``python tools/ci_table.py [ARTIFACTS_DIR] [--title TEXT] [--append]``. The stage times
are wall-clock seconds as ``ci/stage`` measured them. ``unit``, ``nbval`` and ``doctests`` are
parts of one pytest run on two workers: their figures are the sums of the tests' own durations
(worker time, which adds up to about twice the run's wall time on two workers), to show where
that run's time goes.
"""
from __future__ import annotations

import argparse
import datetime
import os
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def stages(tsv: Path) -> list[tuple[str, int, int]]:
    rows = []
    for line in tsv.read_text(encoding="utf-8").splitlines():
        name, seconds, status = line.split("\t")
        rows.append((name, int(seconds), int(status)))
    return rows


def suite_seconds(junit: Path) -> dict[str, float]:
    """Summed test durations of one JUnit report, by suite: unit (tests/), nbval (notebooks/),
    doctests (ppdm_edu/)."""
    out = {"unit": 0.0, "nbval": 0.0, "doctests": 0.0}
    for case in ET.parse(junit).getroot().iter("testcase"):
        where = (case.get("file") or case.get("classname") or "").replace(".", "/")
        seconds = float(case.get("time") or 0)
        if where.startswith("notebooks") or ".ipynb" in (case.get("file") or ""):
            out["nbval"] += seconds
        elif where.startswith("ppdm_edu"):
            out["doctests"] += seconds
        else:
            out["unit"] += seconds
    return out


def table(artifacts: Path, title: str) -> str:
    rows = stages(artifacts / "ci-stages.tsv")
    load = os.getloadavg()
    lines = [f"## {title}", "",
             f"Written by `tools/ci_table.py` on {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC "
             f"(load average now {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}; {os.cpu_count()} cores).", "",
             "| stage | wall s | exit |", "| --- | ---: | ---: |"]
    lines += [f"| {name} | {seconds} | {status} |" for name, seconds, status in rows]
    junit = artifacts / "junit-venv.xml"
    if junit.exists():
        parts = suite_seconds(junit)
        lines += ["", "Inside the `pytest` stage of `make test` (summed test durations on the workers):", "",
                  "| part | worker s |", "| --- | ---: |"]
        lines += [f"| {k} | {v:.0f} |" for k, v in parts.items()]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("artifacts", nargs="?", type=Path, default=REPO / "artifacts")
    parser.add_argument("--title", default="A fresh clone's `.ci/run`")
    parser.add_argument("--append", action="store_true", help="add to benchmarks/ci.md")
    args = parser.parse_args(argv)
    text = table(args.artifacts, args.title)
    out = REPO / "benchmarks" / "ci.md"
    if args.append and out.exists():
        text = out.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + text
    out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
