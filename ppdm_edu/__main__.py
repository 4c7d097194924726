"""Command line: ``python -m ppdm_edu reproduce NAME [--quick|--full] [--out DIR] [--seed N]
[--jobs N] [--backend loky|dask] [--scheduler ADDRESS] [--fresh]``.

Results go to ``reports/quick/`` (ignored by git) or ``reports/full/`` (committed: the
notebooks and the README show the latest paper-scale numbers from there). The work is split into
independent tasks run on every core (``--jobs``, default all) or on a dask cluster
(``--backend dask``, with ``--scheduler ADDRESS`` for a running one); the same ``--seed`` gives
the same result files whatever the parallelism. Finished tasks are kept in ``OUT/.checkpoints``:
after Ctrl-C, the same command resumes (``--fresh`` starts over).
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

from . import __version__
from .experiments import REPRODUCTIONS, load
from .experiments.report import checkpoint_folder


def _run_one(name: str, mode: str, out: Path, seed: int, fresh: bool = False):
    module = load(name)
    start = time.perf_counter()
    result = module.reproduce(mode=mode, out_dir=out, seed=seed, fresh=fresh)
    result = dataclasses.replace(result, seconds=time.perf_counter() - start, mode=mode)
    md = out / f"{name}.md"
    md.write_text(result.to_markdown())
    print(result.to_markdown())
    print(f"[{name}] {result.seconds:.0f} s; wrote {md}" + "".join(f", {f}" for f in result.files))
    return result


def _jobs(text: str) -> int:
    value = int(text)
    if value == 0 or value < -1:
        raise argparse.ArgumentTypeError(f"--jobs must be a positive number or -1 (all cores), got {text}")
    return value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ppdm_edu", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
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
    rep.add_argument("--jobs", type=_jobs, default=-1,
                     help="parallel workers (default -1: every core; 1: in this process)")
    rep.add_argument("--backend", choices=["loky", "dask"], default="loky",
                     help="loky: processes on this machine (default); dask: a dask cluster "
                          "(pip install 'ppdm-edu[cluster]')")
    rep.add_argument("--scheduler", default=None, metavar="ADDRESS",
                     help="address of a running dask scheduler, e.g. tcp://10.0.0.5:8786 "
                          "(default with --backend dask: a LocalCluster with --jobs workers)")
    rep.add_argument("--fresh", action="store_true",
                     help="ignore the checkpoints of an earlier run (default: resume from them)")
    args = parser.parse_args(argv)
    if args.scheduler is not None and args.backend != "dask":
        parser.error("--scheduler needs --backend dask")
    mode = args.mode or "quick"
    args.out = args.out or Path("reports") / mode
    args.out.mkdir(parents=True, exist_ok=True)

    from .experiments.tasks import execution

    try:
        with execution(n_jobs=args.jobs, backend=args.backend, scheduler=args.scheduler):
            if args.name == "all":
                from .experiments.reproduce_all import reproduce_all

                reproduce_all(mode=mode, out_dir=args.out, seed=args.seed, fresh=args.fresh)
            else:
                _run_one(args.name, mode, args.out, args.seed, fresh=args.fresh)
    except KeyboardInterrupt:
        print(f"\ninterrupted: the finished tasks are kept in {checkpoint_folder(args.out)}; "
              "run the same command again to resume (--fresh to start over)", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
