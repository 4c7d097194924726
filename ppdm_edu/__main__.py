"""Command line: ``python -m ppdm_edu reproduce NAME [--quick|--full] [--out DIR] [--seed N]``.

Results go to ``reports/quick/`` (ignored by git) or ``reports/full/`` (committed: the
notebooks and the README show the latest paper-scale numbers from there).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from . import __version__
from .experiments import REPRODUCTIONS, load


def _run_one(name: str, mode: str, out: Path, seed: int):
    module = load(name)
    start = time.perf_counter()
    result = module.reproduce(mode=mode, out_dir=out, seed=seed)
    result.seconds = time.perf_counter() - start
    result.mode = mode
    md = out / f"{name}.md"
    md.write_text(result.to_markdown())
    print(result.to_markdown())
    print(f"[{name}] {result.seconds:.0f} s; wrote {md}" + "".join(f", {f}" for f in result.files))
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ppdm_edu", description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("reproduce", help="re-run a paper's experiments and compare with its numbers")
    rep.add_argument("name", choices=["all", *REPRODUCTIONS], help="which reproduction")
    size = rep.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="mode", action="store_const", const="quick",
                      help="small and fast (default; minutes)")
    size.add_argument("--full", dest="mode", action="store_const", const="full",
                      help="the paper's scale")
    rep.add_argument("--out", type=Path, default=None,
                     help="output folder (default: reports/quick or reports/full)")
    rep.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    mode = args.mode or "quick"
    args.out = args.out or Path("reports") / mode
    args.out.mkdir(parents=True, exist_ok=True)
    if args.name == "all":
        from .experiments.reproduce_all import reproduce_all

        reproduce_all(mode=mode, out_dir=args.out, seed=args.seed)
    else:
        _run_one(args.name, mode, args.out, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
