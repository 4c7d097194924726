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
import json
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


README_START = "<!-- measured: written by tools/ci_table.py from a .ci/run; do not edit by hand -->"
README_END = "<!-- end measured -->"


def _size_mb(path: Path, skip: str | None = None) -> float | None:
    if not path.exists():
        return None
    total = sum(f.stat().st_size for f in path.rglob("*")
                if f.is_file() and not (skip and skip in f.relative_to(path).parts[:1]))
    return total / 1e6


def readme_block(artifacts: Path) -> str:
    """The README's measured figures: the last .ci/run's stages and the built site's sizes."""
    rows = {name: seconds for name, seconds, _ in stages(artifacts / "ci-stages.tsv")}
    load = os.getloadavg()
    when = datetime.datetime.fromtimestamp((artifacts / "ci-stages.tsv").stat().st_mtime,
                                           datetime.timezone.utc)
    test = sum(rows.get(k, 0) for k in ("lint", "types", "twins", "pytest"))   # make test's stages
    html = artifacts.resolve().parent / "site" / "_build" / "html"     # the site that run built
    site_mb, lite_mb = _size_mb(html, skip="lite"), _size_mb(html / "lite")
    lines = [README_START,
             f"Measured by `CI=true bash .ci/run` in a fresh clone on {when:%Y-%m-%d %H:%M} UTC, "
             f"{os.cpu_count()} cores (load average {load[0]:.1f} when written; table in "
             "[benchmarks/ci.md](benchmarks/ci.md)):", "",
             f"- `make test` (ruff, mypy, the twins and pytest on every core): {test / 60:.1f} min once `.venv` exists;",
             f"- the whole `.ci/run` (three environments, site, JupyterLite, browser): "
             f"{rows.get('total', 0) / 60:.1f} min;",
             *newcomer_lines()]
    if site_mb is not None:
        lines.append(f"- the site is {site_mb:.0f} MB without JupyterLite, which adds {lite_mb or 0:.0f} MB.")
    lines.append(README_END)
    return "\n".join(lines)


def newcomer_lines(record: Path = REPO / "benchmarks" / "newcomer.json") -> list[str]:
    """What a newcomer waits for (``tools/newcomer_times.py``, a fresh clone): make site and make
    lite, cold and warm."""
    if not record.exists():
        return ["- `make site` and `make lite` on a fresh clone: not measured yet "
                "(`python tools/newcomer_times.py`);"]
    r = json.loads(record.read_text(encoding="utf-8"))
    s = r["seconds"]
    return [f"- on a fresh clone ({r['when']}, commit {r['commit']}, load average {r['load_before']} "
            f"before): `make site` {s['site_cold']:.0f} s the first time (every panel's twin computed "
            f"on {r['cores']} cores; creating `.venv` with the `[site]` extra took {s['install']:.0f} s "
            f"before it), {s['site_warm']:.0f} s the second; `make lite` {s['lite_cold']:.0f} s the "
            f"first time, {s['lite_warm']:.0f} s the second;"]


def write_readme(artifacts: Path) -> None:
    readme = REPO / "README.md"
    text = readme.read_text(encoding="utf-8")
    if README_START not in text or README_END not in text:
        raise SystemExit(f"README.md has no {README_START} ... {README_END} block")
    head, rest = text.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    readme.write_text(head + readme_block(artifacts) + tail, encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("artifacts", nargs="?", type=Path, default=REPO / "artifacts")
    parser.add_argument("--title", default="A fresh clone's `.ci/run`")
    parser.add_argument("--append", action="store_true", help="add this run to benchmarks/ci.md (without it the table is only printed)")
    parser.add_argument("--readme", action="store_true", help="also rewrite README.md's measured block")
    args = parser.parse_args(argv)
    text = table(args.artifacts, args.title)
    out = REPO / "benchmarks" / "ci.md"
    print(text)
    if args.append or not out.exists():       # ci.md is a log of runs: never overwritten
        if out.exists():
            text = out.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + text
        out.write_text(text, encoding="utf-8")
    if args.readme:
        write_readme(args.artifacts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
