"""Command line: ``python -m ppdm_edu reproduce NAME [--quick|--full] [--out DIR] [--seed N]
[--jobs N] [--backend loky|dask] [--scheduler ADDRESS] [--timeout SECONDS] [--fresh] [--verify K]
[--verify-key N]``.

Results go to ``reports/quick/`` (ignored by git) or ``reports/full/`` (committed: the
notebooks and the README show the latest paper-scale numbers from there). The work is split into
independent tasks run on every core (``--jobs``, default all) or on a dask cluster
(``--backend dask``, with ``--scheduler ADDRESS`` for a running one); the same ``--seed`` gives
the same result files whatever the parallelism. Finished tasks are kept in ``OUT/.checkpoints``:
after Ctrl-C, the same command resumes (``--fresh`` starts over), after recomputing ``--verify``
(3) resumed tasks chosen at random: a checkpoint that disagrees stops the run, naming the file.
The files are written into a temporary folder inside ``--out`` (``.staging-PID``, on its own file
system) and published all at once when complete; a second run into the same ``--out`` stops at
once (``OUT/.lock``). A fault (full or read-only disk, an unreachable scheduler, a killed worker, a
busy ``--out``, a checkpoint that disagrees) is one line on stderr and a non-zero exit code.
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
    from .experiments.outputs import published_path

    module = load(name)
    start = time.perf_counter()
    result = module.reproduce(mode=mode, out_dir=out, seed=seed, fresh=fresh)
    result = dataclasses.replace(result, seconds=time.perf_counter() - start, mode=mode)
    md = out / f"{name}.md"
    md.write_text(result.to_markdown())
    print(result.to_markdown())
    print(f"[{name}] {result.seconds:.0f} s; wrote {published_path(md)}"
          + "".join(f", {published_path(f)}" for f in result.files))
    return result


class _Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (no usage block): ``PROG: error: ... (see --help)``."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())} (see {self.prog} --help)\n")


def _whole(option: str, top: int, allowed: str):
    """An argparse type: a whole number from 0 to ``top``, else one line naming ``option``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if not 0 <= value <= top:
            raise argparse.ArgumentTypeError(f"{option} must be {allowed}, got {text}")
        return value

    return parse


_seed = _whole("--seed", 2**32 - 1, "an integer from 0 to 2**32 - 1")


def _jobs(text: str) -> int:
    from .experiments.tasks import check_jobs

    try:
        value: object = int(text)
    except ValueError:
        value = text              # refused below, with the allowed range
    try:
        return check_jobs(value, "--jobs")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"--timeout must be a positive number of seconds, got {text}")
    return value


def _fail(text, code: int = 1) -> int:
    """A fault: one line on stderr (no traceback) and a non-zero exit code."""
    print(f"error: {' '.join(str(text).split())}", file=sys.stderr, flush=True)
    return code


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser (``python -m ppdm_edu --help``).

    Returns
    -------
    argparse.ArgumentParser
        With one sub-command, ``reproduce``; its errors are one line (exit code 2).
    """
    parser = _Parser(prog="python -m ppdm_edu", description=__doc__,
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
    rep.add_argument("--seed", type=_seed, default=0, help="root seed, a non-negative integer (default 0)")
    rep.add_argument("--jobs", type=_jobs, default=-1,
                     help="parallel workers (default -1: every core; 1: in this process)")
    rep.add_argument("--backend", choices=["loky", "dask"], default="loky",
                     help="loky: processes on this machine (default); dask: a dask cluster "
                          "(pip install -e '.[cluster]' in the checkout)")
    rep.add_argument("--scheduler", default=None, metavar="ADDRESS",
                     help="address of a running dask scheduler, e.g. tcp://10.0.0.5:8786 "
                          "(default with --backend dask: a LocalCluster with --jobs workers)")
    rep.add_argument("--timeout", type=_seconds, default=30.0, metavar="SECONDS",
                     help="how long to wait for the dask scheduler at --scheduler to answer (default 30)")
    rep.add_argument("--fresh", action="store_true",
                     help="ignore the checkpoints of an earlier run (default: resume from them)")
    rep.add_argument("--verify", type=_whole("--verify", 1_000_000, "a whole number of tasks from 0 to 1,000,000"),
                     default=3, metavar="K",
                     help="resumed tasks to compute again and compare with their checkpoints before "
                          "publishing, chosen at random (default 3; 0: trust the checkpoints)")
    rep.add_argument("--verify-key", type=_whole("--verify-key", 2**63 - 1, "an integer from 0 to 2**63 - 1"),
                     default=None, metavar="N",
                     help="seed of that choice (default: a new one each run, printed with the result)")
    return parser


def main(argv=None) -> int:
    """Run the command line; the exit code (0 done, 1 a fault, 2 a bad option, 130 interrupted).

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit code.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.scheduler is not None and args.backend != "dask":
        parser.error("--scheduler needs --backend dask")
    mode = args.mode or "quick"
    args.out = args.out or Path("reports") / mode
    refusal = _refusal(args)
    if refusal is not None:
        return _fail(refusal)

    from .experiments.outputs import OutputBusy, UnsafeLock
    from .experiments.tasks import CheckpointMismatch, SchedulerUnreachable, WorkerDied

    try:
        failed = _reproduce(args, mode)
    except KeyboardInterrupt:
        print(f"\ninterrupted: the finished tasks are kept in {checkpoint_folder(args.out)}; "
              "run the same command again to resume (--fresh to start over)", file=sys.stderr)
        return 130
    except (OutputBusy, UnsafeLock, SchedulerUnreachable, WorkerDied, CheckpointMismatch) as exc:
        return _fail(exc)
    except OSError as exc:
        message = _file_system_fault(exc, args.out)
        if message is None:
            raise
        return _fail(message)
    if failed is not None:
        return _fail(failed)
    return 0


def _refusal(args) -> str | None:
    """Why the run cannot start, found before the output folder is touched; None if it can."""
    out = args.out
    if out.exists() and not out.is_dir() or any(p.exists() and not p.is_dir() for p in out.parents):
        return f"--out {out} is not a folder (a file of that name, or above it, exists)"
    if args.scheduler is None:
        return None
    from .experiments.tasks import SchedulerUnreachable, check_scheduler_address

    try:  # an address that can never work (e.g. no port)
        check_scheduler_address(args.scheduler)
    except SchedulerUnreachable as exc:
        return str(exc)
    return None


def _reproduce(args, mode: str):
    """Run the reproduction(s) into a staged copy of ``--out``; the ReproductionFailed of a
    reproduction that raised (its report is still published), else None."""
    from .experiments.outputs import output_lock, staged_output
    from .experiments.reproduce_all import ReproductionFailed
    from .experiments.tasks import execution

    # one run per output folder; the files are staged inside it and moved in when complete
    with output_lock(args.out), staged_output(args.out) as stage, \
            execution(n_jobs=args.jobs, backend=args.backend, scheduler=args.scheduler,
                      timeout=args.timeout, verify=args.verify, verify_key=args.verify_key):
        try:
            if args.name == "all":
                from .experiments.reproduce_all import reproduce_all

                reproduce_all(mode=mode, out_dir=stage, seed=args.seed, fresh=args.fresh)
            else:
                _run_one(args.name, mode, stage, args.seed, fresh=args.fresh)
        except ReproductionFailed as exc:  # its report is still published
            return exc
    return None


def _file_system_fault(exc: OSError, out: Path) -> str | None:
    """The one-line message for a file-system fault during a run into ``out``; None for an
    OSError that is not one (it is a bug, and keeps its traceback)."""
    from .experiments.outputs import disk_fault

    fault = disk_fault(exc)
    if fault is None:
        if exc.filename is None:
            return None
        # a file-system fault on one path (e.g. a file where the checkpoint folder belongs)
        return f"cannot use {exc.filename}: {exc.strerror or exc}; {out} was left as it was"
    where = fault.filename or out
    return (f"cannot write {where}: {fault.strerror} [Errno {fault.errno}]; {out} was "
            "left as it was (finished tasks are kept in its .checkpoints when it is writable); "
            "free some space or choose a writable --out, then run the same command again")


if __name__ == "__main__":
    sys.exit(main())
