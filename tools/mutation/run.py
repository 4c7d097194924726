"""Mutation pass: does the test suite catch small deliberate bugs in the modules that carry the
course's promises?

The mutants are data (``mutants.toml`` beside this file): for each, the module, the exact
original snippet, its replacement, why the change is a plausible bug, and the test files that
should catch it; a mutant that cannot change behaviour says why under ``equivalent`` and is left
out of the rate. A snippet is found with any run of whitespace matching any other (a re-wrapped
line still matches) and must occur exactly once in its module.

Every mutant is applied to a temporary copy of the repository's tracked files (plus uncommitted
edits), never to this checkout: one copy per worker, the module restored after each mutant. Its
tests run there (``pytest -x``) under a time budget; the mutant is *killed* when a test fails
(the first failing test is reported), *survived* when they all pass, *timeout* when the budget
runs out (counted as killed, and shown). Before the mutants, each distinct set of tests is run
once on the unmutated copy: a set that fails there would kill everything, so its mutants are
reported as ``baseline-fails`` instead.

Usage (from the repository root)::

    .venv/bin/python tools/mutation/run.py                     # the whole pass
    .venv/bin/python tools/mutation/run.py -k audit            # mutants whose id contains "audit"
    .venv/bin/python tools/mutation/run.py --check             # only: does every snippet occur once?
    .venv/bin/python tools/mutation/run.py --write benchmarks/mutation.md

Exit status: 0 when the killed share of the non-equivalent mutants reaches ``--goal`` (0.9) and
every snippet was found; 1 otherwise.
"""
from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from queue import Queue

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the list is TOML
    raise SystemExit("tools/mutation/run.py needs Python 3.11 or later (tomllib)") from None

REPO = Path(__file__).resolve().parents[2]
LIST = Path(__file__).with_name("mutants.toml")


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    original: str
    replacement: str
    why: str
    tests: tuple[str, ...]
    equivalent: str = ""
    source: str = ""     # where the mutant comes from ("issue 46": a survivor of the review's pass)


@dataclass
class Outcome:
    mutant: Mutant
    status: str               # killed / survived / timeout / equivalent / not-found / baseline-fails
    by: str = ""              # the first failing test, or what went wrong
    seconds: float = 0.0
    detail: list[str] = field(default_factory=list)


def load(path: Path = LIST) -> list[Mutant]:
    """The mutants of ``path``, their test groups (``@name``) expanded."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    groups = data.get("groups", {})
    mutants, seen = [], set()
    for entry in data["mutant"]:
        tests: list[str] = []
        for t in entry["tests"]:
            tests += groups[t[1:]] if t.startswith("@") else [t]
        m = Mutant(entry["id"], entry["file"], entry["original"], entry["replacement"], entry["why"],
                   tuple(dict.fromkeys(tests)), entry.get("equivalent", ""), entry.get("source", ""))
        if m.id in seen:
            raise SystemExit(f"{path}: the id {m.id!r} is used twice")
        seen.add(m.id)
        mutants.append(m)
    return mutants


def _pattern(snippet: str) -> re.Pattern:
    """The snippet with any run of whitespace matching any run of whitespace."""
    parts = snippet.strip().split()
    return re.compile(r"\s+".join(re.escape(p) for p in parts))


def apply(m: Mutant, text: str) -> str:
    """``text`` with the mutant's snippet replaced; ValueError unless it occurs exactly once."""
    found = list(_pattern(m.original).finditer(text))
    if len(found) != 1:
        raise ValueError(f"the original snippet occurs {len(found)} times in {m.file}")
    start, end = found[0].span()
    # a replacement of several lines is written dedented in the list (its first line at column
    # 0); its lines take the indentation the code has where the snippet starts
    line_start = text.rfind("\n", 0, start) + 1
    prefix = text[line_start:start]
    indent = prefix[:len(prefix) - len(prefix.lstrip(" \t"))]
    lines = textwrap.dedent(m.replacement.strip("\n")).splitlines() or [""]
    replacement = "\n".join([lines[0].lstrip()] + [indent + line if line else line for line in lines[1:]])
    return text[:start] + replacement + text[end:]


def _tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         cwd=REPO, capture_output=True, check=True).stdout.decode()
    return [f for f in out.split("\0") if f and (REPO / f).is_file()]


def make_copy(dest: Path) -> None:
    """The repository's tracked (and new, not ignored) files, as they are in the working tree."""
    for name in _tracked_files():
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)


#: process groups of the test runs going on now (stopped when the pass is interrupted)
RUNNING: set[int] = set()


def _stop_running() -> None:
    for pid in list(RUNNING):
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def run_tests(root: Path, tests: tuple[str, ...], budget: float) -> tuple[str, str, float]:
    """('passed' | 'failed' | 'timeout', the first failing test or the error's last line, seconds)."""
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_ADDOPTS", None)
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-rf", "--no-header", "-p", "no:cacheprovider",
           "-n", "0", "-m", "not browser", "--timeout", str(int(budget) + 5), *tests]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    RUNNING.add(proc.pid)
    try:
        out, _ = proc.communicate(timeout=budget)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return "timeout", f"over {budget:.0f} s", time.monotonic() - start
    finally:
        RUNNING.discard(proc.pid)
    seconds = time.monotonic() - start
    if proc.returncode == 0:
        return "passed", "", seconds
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", out, flags=re.M)
    if failed:
        return "failed", failed[0], seconds
    last = [line for line in out.splitlines() if line.strip()][-3:]
    return "failed", " / ".join(last)[:200], seconds


class Worker:
    """One temporary copy of the repository; mutants are applied to it one at a time."""

    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="ppdm-mutation-")
        self.root = Path(self.tmp.name)
        make_copy(self.root)

    def run(self, m: Mutant, budget: float) -> Outcome:
        path = self.root / m.file
        original = path.read_text(encoding="utf-8")
        try:
            mutated = apply(m, original)
        except ValueError as error:
            return Outcome(m, "not-found", str(error))
        path.write_text(mutated, encoding="utf-8")
        try:
            status, by, seconds = run_tests(self.root, m.tests, budget)
        finally:
            path.write_text(original, encoding="utf-8")
        return Outcome(m, {"passed": "survived", "failed": "killed", "timeout": "timeout"}[status], by, seconds)

    def close(self):
        self.tmp.cleanup()


def check_anchors(mutants: list[Mutant]) -> list[Outcome]:
    out = []
    for m in mutants:
        path = REPO / m.file
        if not path.exists():
            out.append(Outcome(m, "not-found", f"no file {m.file}"))
            continue
        try:
            mutated = apply(m, path.read_text(encoding="utf-8"))
        except ValueError as error:
            out.append(Outcome(m, "not-found", str(error)))
            continue
        if mutated == path.read_text(encoding="utf-8"):
            out.append(Outcome(m, "not-found", "the replacement changes nothing"))
        try:  # a mutant that does not compile would be "killed" by any import
            ast.parse(mutated, filename=m.file)
        except SyntaxError as error:
            out.append(Outcome(m, "not-found", f"the mutated module does not compile: {error}"))
        for t in m.tests:
            if not (REPO / t.split("::")[0]).exists():
                out.append(Outcome(m, "not-found", f"no test file {t}"))
    return out


def summary(outcomes: list[Outcome]) -> tuple[int, int, float]:
    counted = [o for o in outcomes if o.status in ("killed", "survived", "timeout")]
    killed = sum(o.status in ("killed", "timeout") for o in counted)
    return killed, len(counted), (killed / len(counted) if counted else 1.0)


def table(outcomes: list[Outcome], command: str) -> str:
    killed, counted, rate = summary(outcomes)
    equivalent = [o for o in outcomes if o.status == "equivalent"]
    other = [o for o in outcomes if o.status not in ("killed", "survived", "timeout", "equivalent")]
    lines = [
        "# Mutation pass",
        "",
        f"Generated by `{command}` (the list: `tools/mutation/mutants.toml`).",
        "",
        f"**{killed} of {counted} non-equivalent mutants killed ({rate:.0%})**; "
        f"{len(equivalent)} equivalent (left out, with the reason); {len(other)} not run "
        "(snippet not found or a failing baseline).",
        "",
        "| mutant | module | the bug | result | killed by | s |",
        "| --- | --- | --- | --- | --- | ---: |",
    ]
    for o in outcomes:
        why = o.mutant.why + (f" ({o.mutant.source})" if o.mutant.source else "")
        by = o.mutant.equivalent if o.status == "equivalent" else o.by
        lines.append(f"| `{o.mutant.id}` | `{o.mutant.file.removeprefix('ppdm_edu/')}` | {_cell(why)} | "
                     f"{o.status} | {_cell(by)} | {o.seconds:.0f} |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _in_pool(function, items, workers: Queue) -> Iterator:
    """``function`` over ``items`` on one thread per worker, results in order; on an interrupt the
    running tests are stopped at once (not waited for) and the rest is not started."""
    pool = ThreadPoolExecutor(max_workers=workers.qsize())
    try:
        yield from pool.map(function, items)
    except KeyboardInterrupt:
        _stop_running()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _run_all(todo: list[Mutant], workers: Queue, args, outcomes: dict[str, Outcome]) -> None:
    """The baseline of each distinct set of tests, then every mutant (into ``outcomes``)."""
    def baseline(tests):
        w = workers.get()
        try:
            return tests, run_tests(w.root, tests, args.budget)
        finally:
            workers.put(w)

    failing: dict[tuple, str] = {}
    if not args.no_baseline:
        for tests, (status, by, seconds) in _in_pool(baseline, list(dict.fromkeys(m.tests for m in todo)), workers):
            print(f"baseline   {status:<8} {seconds:5.0f} s  {' '.join(tests)}", flush=True)
            if status != "passed":
                failing[tests] = f"{status}: {by}"

    def one(m: Mutant) -> Outcome:
        if m.tests in failing:
            return Outcome(m, "baseline-fails", failing[m.tests])
        w = workers.get()
        try:
            return w.run(m, args.budget)
        finally:
            workers.put(w)

    for o in _in_pool(one, todo, workers):
        outcomes[o.mutant.id] = o
        print(f"{o.status:<10} {o.seconds:5.0f} s  {o.mutant.id}  {o.by}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="only the mutants whose id contains this")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (one copy each)")
    parser.add_argument("--budget", type=float, default=300.0, help="seconds per mutant's tests")
    parser.add_argument("--goal", type=float, default=0.9, help="killed share needed for exit 0")
    parser.add_argument("--check", action="store_true", help="only check that every snippet occurs once")
    parser.add_argument("--no-baseline", action="store_true", help="skip running the tests unmutated first")
    parser.add_argument("--write", metavar="FILE", help="also write the table (markdown) to FILE")
    args = parser.parse_args(argv)

    mutants = [m for m in load() if args.k in m.id]
    problems = check_anchors(mutants)
    if args.check or problems:
        for o in problems:
            print(f"not-found  {o.mutant.id}: {o.by}")
        print(f"{len(mutants) - len({o.mutant.id for o in problems})} of {len(mutants)} snippets found once")
        if args.check or any(o.by.startswith("no ") for o in problems):
            return 1 if problems else 0
    bad = {o.mutant.id: o.by for o in problems}
    outcomes: dict[str, Outcome] = {}
    for m in mutants:
        if m.equivalent:
            outcomes[m.id] = Outcome(m, "equivalent", m.equivalent)
        elif m.id in bad:
            outcomes[m.id] = Outcome(m, "not-found", bad[m.id])
    todo = [m for m in mutants if m.id not in outcomes]

    signal.signal(signal.SIGTERM, _interrupt)  # a kill ends like Ctrl-C: children stopped, copies removed
    workers: Queue[Worker] = Queue()
    try:
        for _ in range(max(1, min(args.jobs, len(todo)))):
            workers.put(Worker())
        _run_all(todo, workers, args, outcomes)
    except KeyboardInterrupt:
        print("interrupted: the running tests are stopped and the temporary copies removed; nothing written",
              file=sys.stderr)
        return 130
    finally:
        _stop_running()
        while not workers.empty():
            workers.get().close()

    ordered = [outcomes[m.id] for m in mutants]
    for o in ordered:
        if o.status == "equivalent":
            print(f"equivalent {o.mutant.id}: {o.mutant.equivalent}")
    killed, counted, rate = summary(ordered)
    print(f"killed {killed} of {counted} non-equivalent mutants ({rate:.0%}); "
          f"{sum(o.status == 'equivalent' for o in ordered)} equivalent; "
          f"survived: {', '.join(o.mutant.id for o in ordered if o.status == 'survived') or 'none'}")
    if args.write:
        command = "python tools/mutation/run.py" + (f" -k {args.k}" if args.k else "")
        Path(args.write).write_text(table(ordered, command), encoding="utf-8")
    not_run = any(o.status in ("not-found", "baseline-fails") for o in ordered)
    return 0 if rate >= args.goal and not not_run else 1


if __name__ == "__main__":
    raise SystemExit(main())
