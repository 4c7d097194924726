"""What a newcomer waits for: `make site` and `make lite` in a fresh clone, cold and warm.

Usage: ``python tools/newcomer_times.py [--clone DIR]``. Clones this repository (its committed
``HEAD``) into a new folder, then times, one after the other, as a newcomer types them:

1. ``make .venv/.site-installed``: the environment `make site` creates on first use (Python, pip
   and the ``[site]`` extra from the package registries; pip's own download cache is whatever
   this machine has);
2. ``make site``, cold: no twins cached (``.cache/twins`` is empty in a fresh clone), so every
   panel's twin is computed, on every core;
3. ``make site`` again, warm: the twins and Sphinx's environment reused;
4. ``make lite``, cold, then warm.

Writes ``benchmarks/newcomer.json`` (seconds, the machine's cores and load, the commit); the
README's measured block (``tools/ci_table.py --readme``) quotes it. Nothing is typed by hand.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "newcomer.json"
STEPS = [
    ("install", ["make", ".venv/.site-installed"]),
    ("site_cold", ["make", "site"]),
    ("site_warm", ["make", "site"]),
    ("lite_cold", ["make", "lite"]),
    ("lite_warm", ["make", "lite"]),
]


def timed(cmd: list[str], cwd: Path, log) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT)
    seconds = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed in {cwd} (exit {proc.returncode}); see {log.name}")
    return seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clone", type=Path, help="where to clone (default: a new temporary folder)")
    args = parser.parse_args(argv)
    clone = args.clone or Path(tempfile.mkdtemp(prefix="ppdm-newcomer-")) / "ppdm-edu"
    if clone.exists():
        raise SystemExit(f"--clone {clone} exists: give a new folder")
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, check=True,
                            capture_output=True, text=True).stdout.strip()
    env_note = {k: os.environ[k] for k in ("PPDM_TWINS_CACHE",) if k in os.environ}
    if env_note:
        raise SystemExit(f"unset {', '.join(env_note)}: a newcomer has no shared twins cache")
    results: dict[str, float] = {}
    load_before = os.getloadavg()[0]
    with open(clone.parent / "newcomer.log", "w") as log:
        for name, cmd in STEPS:
            results[name] = round(timed(cmd, clone, log), 1)
            print(f"{name}: {results[name]:.0f} s ({' '.join(cmd)})", flush=True)
    record = {
        "commit": commit,
        "when": f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
        "cores": os.cpu_count(),
        "load_before": round(load_before, 1),
        "load_after": round(os.getloadavg()[0], 1),
        "seconds": results,
    }
    OUT.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)}")
    if not args.clone:
        shutil.rmtree(clone.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
