"""Every paper reproduction in one command: ``python -m ppdm_edu reproduce all [--quick|--full]``.

Runs each module listed in :data:`ppdm_edu.experiments.REPRODUCTIONS` (AS2000 Fig. 2, 5, 6; Du &
Zhan Fig. 2; Liu et al. Tables 1, 4, 5, 7 and Fig. 1-2): the tasks of all of them
(``module.plan``) in one pool of workers with one progress bar
(:func:`~ppdm_edu.experiments.tasks.run_tasks`), then each one's files and comparisons
(``module.assemble``). It writes each one's ``NAME.md`` beside its CSVs and figures, then
``REPORT.md``: a summary table (how many cells reproduce, per paper, with
a one-line verdict) followed by every cell, our number beside the paper's with its verdict
(reproduced / not reproduced / no number in the paper), and ``comparisons.csv`` with all cells.

A reproduction that raises (in planning, in one of its tasks or in assembling) does not stop the
others: its traceback goes into the report and
:func:`reproduce_all` raises :class:`ReproductionFailed` at the end (after writing the report), so
the command exits non-zero.

Examples
--------
>>> from ppdm_edu.experiments.reproduce_all import reproduce_all
>>> results = reproduce_all("quick", "reports/quick", seed=0)  # doctest: +SKIP
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import os
import platform
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .._validation import check_bool, check_real
from . import REPRODUCTIONS, load
from .outputs import disk_fault, published_path
from .report import (
    VERDICTS,
    Comparison,
    Reproduction,
    check_plan,
    checkpoint_folder,
    verdict,
    with_task_counts,
)
from .tasks import TaskFailed, TaskRun, check_jobs, run_tasks

__all__ = ["reproduce_all", "RunOutcome", "ReproductionFailed", "summary_markdown", "report_markdown"]



class ReproductionFailed(RuntimeError):
    """One or more reproductions raised; REPORT.md was still written."""


@dataclass(frozen=True)
class RunOutcome:
    """One reproduction's outcome: its :class:`Reproduction`, or the error it raised.

    Attributes
    ----------
    name : str
        The reproduction's CLI name, a key of :data:`~ppdm_edu.experiments.REPRODUCTIONS`.
    reproduction : Reproduction or None
        Its comparisons, files and remarks; None if it failed.
    seconds : float
        Compute time in seconds: its tasks' run times summed over workers, plus assembling and
        writing its files (0.0 if planning failed).
    error : str or None, default None
        The traceback of the exception it raised (in planning, in a task or in assembling);
        None if it succeeded.

    Examples
    --------
    >>> RunOutcome("du-zhan", None, 0.0, error="Traceback ...").ok
    False
    """

    name: str
    reproduction: Reproduction | None
    seconds: float
    error: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the reproduction ran to the end (``error`` is None).

        Returns
        -------
        bool
            ``True`` if it succeeded and ``reproduction`` holds its result.
        """
        return self.error is None

    @property
    def result(self) -> Reproduction:
        """The :class:`Reproduction` of a run that succeeded (:attr:`ok`).

        Returns
        -------
        Reproduction
            ``reproduction``.

        Raises
        ------
        ValueError
            If the run failed (it has no reproduction).
        """
        if self.reproduction is None:
            raise ValueError(f"{self.name} failed, it has no reproduction: {self.error}")
        return self.reproduction


def _complete_verdict(c: Comparison) -> Comparison:
    """Fill in a missing verdict from paper / ours / tolerance (never overrides a given one)."""
    if c.verdict:
        return c
    if c.paper is None:
        return dataclasses.replace(c, verdict="no number in the paper")
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (c.paper, c.ours))
    if numeric and c.tolerance is not None:
        se = c.ours_sd / c.runs ** 0.5 if c.ours_sd is not None and c.runs else None
        return dataclasses.replace(c, verdict=verdict(c.paper, c.ours, c.tolerance, se=se))
    return c


def _one_line(outcome: RunOutcome) -> str:
    """e.g. 'reproduced: 9 of 12 cells; not reproduced: 3 (Table 4 data2 C4.5, ...)'."""
    if not outcome.ok:
        return "FAILED: " + (outcome.error or "").strip().splitlines()[-1][:200]
    rep = outcome.result
    comps = [_complete_verdict(c) for c in rep.comparisons]
    if not comps:
        return "no comparisons reported"
    counts = {v: sum(c.verdict == v for c in comps) for v in VERDICTS}
    judged = counts["reproduced"] + counts["not reproduced"]
    unknown = len(comps) - sum(counts.values())
    parts = [f"{counts['reproduced']} of {judged} cells with a paper number reproduced"]
    if counts["not reproduced"]:
        missed = [f"{c.experiment} {c.item}" for c in comps if c.verdict == "not reproduced"]
        more = f", +{len(missed) - 3} more" if len(missed) > 3 else ""
        parts.append(f"not reproduced: {'; '.join(missed[:3])}{more}")
    if counts["too few runs to tell"]:
        parts.append(f"{counts['too few runs to tell']} with too few runs to tell")
    if counts["no number in the paper"]:
        parts.append(f"{counts['no number in the paper']} without a paper number")
    if unknown:
        parts.append(f"{unknown} without a verdict")
    return "; ".join(parts)


def _overall(outcome: RunOutcome) -> str:
    """One word (or three) for the summary table."""
    if not outcome.ok:
        return "FAILED"
    comps = [_complete_verdict(c) for c in outcome.result.comparisons]
    good = sum(c.verdict == "reproduced" for c in comps)
    bad = sum(c.verdict == "not reproduced" for c in comps)
    if good + bad == 0:
        return "no number in the paper"
    if bad == 0:
        return "reproduced"
    if good == 0:
        return "not reproduced"
    return f"partly reproduced ({good} of {good + bad})"


def summary_markdown(outcomes: list[RunOutcome]) -> str:
    """The summary table (one row per reproduction) — what the README shows.

    Comparisons without a verdict get one from their paper number, our number and the
    tolerance (:func:`~ppdm_edu.experiments.report.verdict`) before they are counted.

    Parameters
    ----------
    outcomes : list of RunOutcome
        What :func:`reproduce_all` returned, in the order of the table's rows.

    Returns
    -------
    str
        A Markdown table: per reproduction the number of cells, how many are reproduced, not
        reproduced, have too few runs to tell, or have no paper number, its compute time and an overall verdict (a failed
        reproduction shows the last line of its error instead).

    Examples
    --------
    >>> rep = Reproduction("demo", "Demo", [Comparison("Fig. 1", "x", 1.0, 1.1, tolerance=0.2)])
    >>> print(summary_markdown([RunOutcome("demo", rep, 3.0)]).splitlines()[-1])
    | Demo (`demo`) | 1 | 1 | 0 | 0 | 0 | 3 s | reproduced |
    """
    lines = [
        "| reproduction | cells | reproduced | not reproduced | too few runs | no paper number | time | verdict |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for o in outcomes:
        if o.ok:
            comps = [_complete_verdict(c) for c in o.result.comparisons]
            n = {v: sum(c.verdict == v for c in comps) for v in VERDICTS}
            title = o.result.title or o.name
            lines.append(f"| {title} (`{o.name}`) | {len(comps)} | {n['reproduced']} | "
                         f"{n['not reproduced']} | {n['too few runs to tell']} | {n['no number in the paper']} | "
                         f"{o.seconds:.0f} s | {_overall(o)} |")
        else:
            lines.append(f"| `{o.name}` | — | — | — | — | — | {o.seconds:.0f} s | {_one_line(o)} |")
    return "\n".join(lines)


def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for pkg in ("ppdm-edu", "numpy", "scipy", "pandas", "matplotlib"):
        try:
            out.append(f"{pkg} {version(pkg)}")
        except PackageNotFoundError:
            pass
    return ", ".join(out)


def report_markdown(outcomes: list[RunOutcome], mode: str, seed: int, seconds: float) -> str:
    """The whole REPORT.md: header, summary table, then every reproduction's section.

    Parameters
    ----------
    outcomes : list of RunOutcome
        What :func:`reproduce_all` returned.
    mode : {"quick", "full"}
        The scale of the run; the header says whether verdicts are at the papers' scale.
    seed : int
        The root seed of the run, quoted in the command line of the header.
    seconds : float
        Total wall time of the run in seconds.

    Returns
    -------
    str
        Markdown: the command, date (UTC), wall time, CPUs and package versions; how to read a
        verdict; :func:`summary_markdown`; then for each reproduction its
        :meth:`~ppdm_edu.experiments.report.Reproduction.to_markdown` section with a one-line
        verdict, or its traceback if it failed.

    Examples
    --------
    >>> rep = Reproduction("demo", "Demo", [Comparison("Fig. 1", "x", 1.0, 1.1, tolerance=0.2)])
    >>> text = report_markdown([RunOutcome("demo", rep, 3.0)], "quick", seed=0, seconds=4.0)
    >>> text.splitlines()[0]
    '# Reproducing the papers (quick)'
    """
    mode, seed = check_plan(mode, seed)
    seconds = check_real(seconds, "seconds")
    if seconds < 0:
        raise ValueError(f"seconds must be >= 0 (a wall time), got {seconds}")
    when = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"# Reproducing the papers ({mode})",
        "",
        f"`python -m ppdm_edu reproduce all --{mode} --seed {seed}`, {when}, {seconds:.0f} s in total "
        f"(wall time; the table's times are each reproduction's compute time summed over workers) "
        f"on {os.cpu_count()} CPUs (Python {platform.python_version()}; {_versions()}).",
        "",
        "Every cell: the paper's number, ours (mean ± sd over repeats where there are repeats) and "
        "a verdict — *reproduced* when ours is within the stated tolerance of the paper's (over repeats: when "
        "the whole 95 % interval of our mean is, so that the runs can tell a hit from a miss; against a "
        "theory the tolerance is a 20 % miss), *not reproduced* when it is outside (the whole interval), "
        "*too few runs to tell* when the interval straddles the tolerance's edge, *no number in the paper* "
        "for our own measurements. "
        + ("`--quick` runs smaller samples and fewer repeats than the papers: a *not reproduced* "
           "here can be sampling noise; the paper-scale verdicts are in `reports/full/REPORT.md`."
           if mode == "quick" else "`--full` runs at the papers' scale."),
        "",
        "## Summary",
        "",
        summary_markdown(outcomes),
        "",
    ]
    for o in outcomes:
        if o.ok:
            rep = dataclasses.replace(
                o.result, comparisons=[_complete_verdict(c) for c in o.result.comparisons])
            lines.append(rep.to_markdown())
            lines.append(f"**Verdict:** {_one_line(o)}")
            lines.append("")
        else:
            lines += [f"## `{o.name}` failed", "", "```", (o.error or "").rstrip(), "```", ""]
    return "\n".join(lines)


def _comparisons_frame(outcomes: list[RunOutcome]) -> pd.DataFrame:
    rows = []
    for o in outcomes:
        if not o.ok:
            continue
        for c in o.result.comparisons:
            row = dataclasses.asdict(_complete_verdict(c))
            row = {"reproduction": o.name, **{k: (v if not isinstance(v, Path) else str(v)) for k, v in row.items()}}
            rows.append(row)
    columns = ["reproduction", *[f.name for f in dataclasses.fields(Comparison)]]
    return pd.DataFrame(rows, columns=columns)


def reproduce_all(mode: str = "quick", out_dir=Path("reports/quick"), seed: int = 0, *,
                  names=None, raise_on_error: bool = True, echo: bool = True, n_jobs=None,
                  checkpoint: bool = True, fresh: bool = False, progress: bool | None = None) -> list[RunOutcome]:
    """Run every reproduction, write ``NAME.md`` for each, ``REPORT.md`` and ``comparisons.csv``.

    Parameters
    ----------
    mode : {"quick", "full"}
        ``quick`` finishes in minutes (lecture); ``full`` is the papers' scale.
    out_dir : path
        Folder for the CSVs, figures and reports (created if missing).
    seed : int
        Passed to every reproduction; same seed, same numbers (whatever ``n_jobs``).
    names : sequence of str, optional
        A subset of :data:`~ppdm_edu.experiments.REPRODUCTIONS` (default: all, in its order).
    raise_on_error : bool
        Raise :class:`ReproductionFailed` after writing the report if any reproduction raised.
    echo : bool
        Print progress and the summary to stdout.
    n_jobs : int or None
        Workers for the tasks of all reproductions together (see
        :func:`~ppdm_edu.experiments.tasks.run_tasks`; None: the active joblib configuration).
    checkpoint, fresh : bool
        Keep per-task results in ``out_dir/.checkpoints`` and resume from them; ``fresh``
        ignores them.
    progress : bool, optional
        The tqdm bar (default: ``echo``).

    Returns
    -------
    list of RunOutcome
        In the order of ``names``; ``seconds`` is each reproduction's compute time (its tasks,
        summed over workers, plus writing its files).

    Examples
    --------
    >>> outcomes = reproduce_all("quick", "reports/quick", seed=0)  # doctest: +SKIP
    >>> [o.name for o in outcomes]  # doctest: +SKIP
    ['as2000-reconstruction', 'as2000', 'du-zhan', 'liu', 'tradeoff']
    """
    mode, seed = check_plan(mode, seed)   # before any work: a bad seed would fail every reproduction
    raise_on_error, echo = check_bool(raise_on_error, "raise_on_error"), check_bool(echo, "echo")
    checkpoint, fresh = check_bool(checkpoint, "checkpoint"), check_bool(fresh, "fresh")
    progress = None if progress is None else check_bool(progress, "progress")
    n_jobs = None if n_jobs is None else check_jobs(n_jobs)
    names = _check_names(names)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    progress = echo if progress is None else progress

    def say(text: str) -> None:
        if echo:
            print(text, flush=True)

    start_all = time.perf_counter()
    # 1. every reproduction's tasks, in one list (a reproduction whose planning fails is reported)
    all_tasks, planned, spans, errors = _plan_all(names, mode, seed)
    say(f"{len(all_tasks)} tasks of {len(planned)} reproduction(s) ({mode}); "
        f"checkpoints in {checkpoint_folder(out_dir) if checkpoint else '(none)'}")
    # 2. one pool, one progress bar; a failing task marks its reproduction failed
    done = run_tasks(all_tasks, n_jobs=n_jobs, checkpoint_dir=checkpoint_folder(out_dir) if checkpoint else None,
                     fresh=fresh, progress=progress, desc=f"reproduce all --{mode}", errors="keep")
    # 3. assemble each reproduction from its results
    outcomes: list[RunOutcome] = []
    for i, name in enumerate(names, 1):
        if name in errors:
            outcome = RunOutcome(name, None, 0.0, error=errors[name])
        else:
            outcome = _assemble_one(name, planned[name], done, spans[name], mode=mode, out_dir=out_dir, seed=seed)
        if not outcome.ok:
            print(f"[{name}] FAILED:\n{outcome.error}", file=sys.stderr, flush=True)
        outcomes.append(outcome)
        say(f"[{i}/{len(names)}] {name}: {outcome.seconds:.0f} s of compute; {_one_line(outcome)}")
    total = time.perf_counter() - start_all

    report = out_dir / "REPORT.md"
    report.write_text(report_markdown(outcomes, mode, seed, total))
    _comparisons_frame(outcomes).to_csv(out_dir / "comparisons.csv", index=False)
    say("")
    say(summary_markdown(outcomes))
    say(f"\n{total:.0f} s in total; wrote {published_path(report)} and "
        f"{published_path(out_dir / 'comparisons.csv')}")
    failed_names = [o.name for o in outcomes if not o.ok]
    if failed_names and raise_on_error:
        raise ReproductionFailed(f"reproduction(s) failed: {', '.join(failed_names)} (details in "
                                 f"{published_path(report)})")
    return outcomes


def _check_names(names) -> list[str]:
    """``names`` as a list (default: every reproduction), each one of :data:`REPRODUCTIONS`."""
    names = list(REPRODUCTIONS) if names is None else list(names)
    unknown = [n for n in names if n not in REPRODUCTIONS]
    if unknown:
        raise ValueError(f"unknown reproduction(s) {unknown}; choose from: {', '.join(REPRODUCTIONS)}")
    return names


def _plan_all(names, mode: str, seed: int):
    """Every reproduction's tasks in one list.

    Returns the list; each planned reproduction's tasks and its ``(start, stop)`` slice of the
    list; and the traceback of each reproduction whose planning raised (it has no tasks).
    """
    all_tasks: list = []
    planned, spans, errors = {}, {}, {}
    for name in names:
        try:
            tasks = list(load(name).plan(mode=mode, seed=seed))
        except Exception:  # noqa: BLE001 - one broken reproduction must not hide the others
            errors[name] = traceback.format_exc()
            continue
        spans[name] = (len(all_tasks), len(all_tasks) + len(tasks))
        planned[name] = tasks
        all_tasks += tasks
    return all_tasks, planned, spans, errors


def _assemble_one(name: str, tasks: list, done: TaskRun, span: tuple[int, int], *, mode: str, out_dir: Path,
                  seed: int) -> RunOutcome:
    """One reproduction's outcome from its slice ``span`` of the run ``done``; writes ``NAME.md``.

    A failed task, or an error in assembling, gives a failed outcome with the traceback; a full or
    read-only disk raises (it would stop every reproduction).
    """
    lo, hi = span
    results = done.results[lo:hi]
    compute = float(sum(done.seconds[lo:hi]))
    failed = [r for r in results if isinstance(r, TaskFailed)]
    start = time.perf_counter()
    try:
        if failed:
            raise RuntimeError(f"{len(failed)} task(s) of {name} failed; the first "
                               f"({'/'.join(map(str, failed[0].key))}):\n{failed[0].error}")
        rep = load(name).assemble(mode=mode, out_dir=out_dir, seed=seed, tasks=tasks, results=results)
        if not isinstance(rep, Reproduction):
            raise TypeError(f"{name}.assemble returned {type(rep).__name__}, expected Reproduction")
        seconds = compute + time.perf_counter() - start
        mine = {tuple(t.key) for t in tasks}
        rep = with_task_counts(rep, TaskRun(results=results,
                                            computed=tuple(k for k in done.computed if k in mine),
                                            resumed=tuple(k for k in done.resumed if k in mine),
                                            verified=tuple(k for k in done.verified if k in mine)))
        rep = dataclasses.replace(rep, seconds=seconds, mode=mode)
        (out_dir / f"{name}.md").write_text(rep.to_markdown())
        return RunOutcome(name, rep, seconds)
    except Exception as exc:  # noqa: BLE001 - one broken reproduction must not hide the others
        if disk_fault(exc) is not None:  # a full or read-only disk stops every reproduction
            raise
        seconds = compute + time.perf_counter() - start
        return RunOutcome(name, None, seconds, error=traceback.format_exc())
