"""A common shape for paper reproductions: our number beside the paper's, with a verdict.

Every ``experiments.<paper>`` module exposes

* ``plan(mode, seed) -> list[Task]``: its independent tasks (:mod:`~ppdm_edu.experiments.tasks`);
* ``assemble(mode, out_dir, seed, tasks, results) -> Reproduction``: files and comparisons from
  the tasks' results;
* ``reproduce(mode="quick"|"full", out_dir=Path, seed=0, *, n_jobs, checkpoint, fresh,
  progress) -> Reproduction``: both, with the tasks run by
  :func:`~ppdm_edu.experiments.tasks.run_tasks` (:func:`run_reproduction`); the Parameters and
  Returns sections of all three come from :func:`documented_as`.

``python -m ppdm_edu reproduce NAME`` calls it and writes ``out_dir/NAME.md`` from
:meth:`Reproduction.to_markdown`; ``reproduce all`` runs the tasks of every paper in one pool and
joins the reports into ``REPORT.md``.
"""
from __future__ import annotations

import dataclasses
import inspect
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .._validation import check_real
from .tasks import run_tasks

__all__ = ["Comparison", "Reproduction", "verdict", "check_plan", "prepare_output", "checkpoint_folder",
           "with_task_counts", "run_reproduction", "documented_as", "MODES", "CHECKPOINTS"]

MODES = ("quick", "full")

#: where per-task results are kept under an output folder (a re-run resumes from them)
CHECKPOINTS = ".checkpoints"

VERDICTS = ("reproduced", "not reproduced", "too few runs to tell", "no number in the paper")
# A theory comparison counts a miss of more than this share of the theory as not reproducing it.
THEORY_MISS = 0.2


@dataclass(frozen=True)
class Comparison:
    """One cell of a paper's table or one claim, with our measurement beside it.

    ``ours`` is a mean and ``ours_sd`` its standard deviation over ``runs`` repeats (None for one
    run). ``tolerance`` is how far ours may be from the paper's number and still count as
    reproduced; with repeats, :func:`verdict` asks the whole 95 % interval of the mean to stay
    within it.

    Attributes
    ----------
    experiment : str
        Where in the paper the number comes from, e.g. ``"Fig. 2(a)"`` or ``"§5.2 claim"``.
    item : str
        What is compared, with its unit, e.g. ``"F1 ByClass: accuracy (%)"``.
    paper : float, str or None
        The paper's number, a quoted claim (``"very close to Original"``), or None when the
        paper only plots the quantity.
    ours : float or str
        Our measurement in the same unit as `paper` (a mean over repeats), or a text summary
        of the evidence for a claim.
    ours_sd : float or None, default None
        Standard deviation of `ours` over the repeats; None for a single run or a text.
    tolerance : float or None, default None
        Largest ``|ours - paper|`` (same unit) still counted as reproduced; None for claims
        and for items without a number in the paper.
    verdict : str, default ""
        One of ``"reproduced"``, ``"not reproduced"``, ``"too few runs to tell"``, ``"no
        number in the paper"``, or ``""`` (not judged); see :func:`verdict`.
    note : str, default ""
        Free text shown in the report's last column (scale, seeds, caveats).
    runs : int or None, default None
        How many repeats `ours` averages (shown beside it in the report); None for one run or
        a computation without repeats.

    Raises
    ------
    ValueError
        If `verdict` is neither empty nor one of the three verdicts.

    Examples
    --------
    >>> c = Comparison("Fig. 2(a)", "accuracy drop (points)", paper=5.0, ours=5.6, tolerance=1.0,
    ...                verdict=verdict(5.0, 5.6, 1.0))
    >>> c.verdict
    'reproduced'
    """

    experiment: str
    item: str
    paper: float | str | None
    ours: float | str
    ours_sd: float | None = None
    tolerance: float | None = None
    verdict: str = ""
    note: str = ""
    runs: int | None = None

    def __post_init__(self):
        if self.verdict and self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.runs is not None and (isinstance(self.runs, bool) or not isinstance(self.runs, int) or self.runs < 1):
            raise ValueError(f"runs must be a whole number >= 1 (the repeats ours averages), got {self.runs!r}")


def check_plan(mode, seed) -> tuple[str, int]:
    """Check a reproduction's ``mode`` and root ``seed`` before any work (every ``plan`` starts so).

    Parameters
    ----------
    mode : {"quick", "full"}
        The scale.
    seed : int
        The root seed, a non-negative integer.

    Returns
    -------
    tuple of (str, int)
        ``mode`` and ``seed``.

    Raises
    ------
    ValueError
        If ``mode`` is not one of :data:`MODES`, or ``seed`` is not an integer (a bool, a float
        or text is refused) from 0 to 2**32 - 1.

    Examples
    --------
    >>> check_plan("quick", 0)
    ('quick', 0)
    """
    mode = check_mode(mode)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise ValueError(f"seed must be an integer from 0 to 2**32 - 1, got {seed!r}")
    # int(): exact for an Integral (numbers.Integral has no typed comparison with int)
    if not 0 <= int(seed) < 2**32:   # the reproductions' legacy draws take 32-bit seeds
        raise ValueError(f"seed must be an integer from 0 to 2**32 - 1, got {seed}")
    return mode, int(seed)


def prepare_output(mode: str, out_dir) -> Path:
    """Check ``mode`` (one of :data:`MODES`) and create ``out_dir``; every ``reproduce`` starts so.

    Parameters
    ----------
    mode : {"quick", "full"}
        ``"quick"``: a lecture-sized run (minutes); ``"full"``: the paper's scale.
    out_dir : str or path
        Folder for the reproduction's figures, tables and report; created with its parents if
        missing (an existing folder is kept as it is).

    Returns
    -------
    pathlib.Path
        `out_dir` as a :class:`~pathlib.Path`, now existing.

    Raises
    ------
    ValueError
        If `mode` is not ``"quick"`` or ``"full"`` (checked before anything is created).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     prepare_output("quick", Path(tmp) / "reports" / "quick").is_dir()
    True
    """
    check_mode(mode)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    return out_dir


def check_mode(mode) -> str:
    """``mode`` if it is one of :data:`MODES`; every ``plan`` (hence ``reproduce``) checks it first.

    Parameters
    ----------
    mode : {"quick", "full"}
        The scale of a reproduction.

    Returns
    -------
    str
        `mode`, unchanged.

    Raises
    ------
    ValueError
        If `mode` is anything else: before any task runs (``liu.reproduce(mode="paper")``
        used to compute for 47 s before it refused).

    Examples
    --------
    >>> check_mode("quick")
    'quick'
    """
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"mode must be 'quick' or 'full', got {mode!r}")
    return mode


def checkpoint_folder(out_dir) -> Path:
    """``out_dir/.checkpoints``: one file per finished task, named by its key, arguments and seed.

    Parameters
    ----------
    out_dir : path
        A reproduction's output folder.

    Returns
    -------
    pathlib.Path
        The checkpoint folder (not created here).
    """
    from .outputs import published_path

    # inside outputs.staged_output, the temporary folder's checkpoints are the output folder's
    return published_path(out_dir) / CHECKPOINTS


def with_task_counts(result: "Reproduction", done) -> "Reproduction":
    """``result`` with the number of tasks computed and resumed from checkpoints.

    Parameters
    ----------
    result : Reproduction
        What ``assemble`` returned.
    done : TaskRun
        What :func:`~ppdm_edu.experiments.tasks.run_tasks` returned.

    Returns
    -------
    Reproduction
        A copy with ``tasks_computed``, ``tasks_resumed`` and ``tasks_verified`` set.
    """
    return dataclasses.replace(result, tasks_computed=len(done.computed), tasks_resumed=len(done.resumed),
                               tasks_verified=len(done.verified))


def run_reproduction(tasks, assemble: Callable, out_dir, *, desc: str, n_jobs=None, checkpoint: bool = True,
                     fresh: bool = False, progress: bool = True) -> Reproduction:
    """The body of every paper's ``reproduce``: run its planned tasks, then assemble the results.

    Parameters
    ----------
    tasks : list of Task
        What the paper's ``plan`` returned.
    assemble : callable
        ``results -> Reproduction``: the paper's ``assemble`` with everything but the results
        given (the results come in the order of ``tasks``).
    out_dir : path
        The reproduction's output folder (its checkpoints go to :func:`checkpoint_folder`).
    desc : str
        Label of the progress bar.
    n_jobs : int or None
        Parallel workers (see :func:`~ppdm_edu.experiments.tasks.run_tasks`).
    checkpoint : bool
        Keep each finished task in ``out_dir/.checkpoints`` and resume from there.
    fresh : bool
        Ignore existing checkpoints.
    progress : bool
        Show the tqdm bar.

    Returns
    -------
    Reproduction
        What ``assemble`` returned, with the numbers of tasks computed and resumed.

    Examples
    --------
    >>> from ppdm_edu.experiments.tasks import Task
    >>> def square(i):
    ...     return i * i
    >>> tasks = [Task(("square", i), square, {"i": i}) for i in range(3)]
    >>> rep = run_reproduction(tasks, lambda results: Reproduction("squares", str(results)), "unused",
    ...                        desc="squares", checkpoint=False, progress=False)
    >>> rep.title, rep.tasks_computed
    ('[0, 1, 4]', 3)
    """
    done = run_tasks(tasks, n_jobs=n_jobs, checkpoint_dir=checkpoint_folder(out_dir) if checkpoint else None,
                     fresh=fresh, progress=progress, desc=desc)
    return with_task_counts(assemble(done.results), done)


# numpydoc entries (type, description) of the parameters of every paper module's three steps
_MODE = ('{"quick", "full"}', "``quick`` for a lecture, ``full`` the paper's scale.")
_OUT_DIR = ("path", "Folder for the files (created if missing).")
_STEP_PARAMETERS = {
    "plan": {"mode": _MODE, "seed": ("int", "Root seed of every task's random streams.")},
    "assemble": {
        "mode": (_MODE[0], "As given to :func:`plan`."),
        "out_dir": _OUT_DIR,
        "seed": ("int", "As given to :func:`plan`."),
        "tasks": ("list of Task", ":func:`plan`'s tasks."),
        "results": ("list", "Their results, in the same order."),
    },
    "reproduce": {
        "mode": _MODE,
        "out_dir": _OUT_DIR,
        "seed": ("int", "Root seed; the same seed gives the same files whatever ``n_jobs``."),
        "n_jobs": ("int or None", "Parallel workers (-1: every core; None: 1 unless inside\n"
                                  ":func:`~ppdm_edu.experiments.tasks.execution`)."),
        "checkpoint": ("bool", "Keep each finished task in ``out_dir/.checkpoints`` and resume from there."),
        "fresh": ("bool", "Ignore existing checkpoints."),
        "progress": ("bool", "Show the tqdm bar."),
    },
}
_REPRODUCTION_RETURNED = ("Reproduction", "Comparisons with the paper, files written, remarks.")
_STEP_RETURNS = {
    "plan": ("list of Task", "Independent tasks for :func:`~ppdm_edu.experiments.tasks.run_tasks`."),
    "assemble": _REPRODUCTION_RETURNED,
    "reproduce": _REPRODUCTION_RETURNED,
}


def documented_as(step: str, **parameters: tuple[str, str]) -> Callable:
    """Decorator: append the Parameters and Returns sections a paper module's ``step`` shares.

    Every ``experiments.<paper>`` module has the same three steps (``plan``, ``assemble``,
    ``reproduce``, see the module docstring) with the same parameters. The decorated function's
    own docstring says what it does for its paper; the parameters are documented in the order of
    its signature, from the step's common entries and ``parameters``.

    Parameters
    ----------
    step : {"plan", "assemble", "reproduce"}
        Which of the three steps the decorated function is.
    **parameters : tuple of str
        ``name=(type, description)`` for a parameter the common entries do not cover.

    Returns
    -------
    callable
        A decorator returning the same function with the completed docstring.

    Raises
    ------
    ValueError
        If ``step`` is not one of the three.
    TypeError
        (when decorating) If a parameter of the function has no entry.

    Examples
    --------
    >>> @documented_as("plan", runs=("int", "Runs per setting."))
    ... def plan(mode="quick", seed=0, runs=2):
    ...     \"\"\"Plan nothing.\"\"\"
    >>> [line for line in plan.__doc__.splitlines() if " : " in line]
    ['mode : {"quick", "full"}', 'seed : int', 'runs : int']
    """
    if step not in _STEP_PARAMETERS:
        raise ValueError(f"step must be one of {', '.join(_STEP_PARAMETERS)}, got {step!r}")
    entries = {**_STEP_PARAMETERS[step], **parameters}
    returned, returned_text = _STEP_RETURNS[step]

    def decorate(func: Callable) -> Callable:
        if func.__doc__ is None:  # python -OO strips docstrings
            return func
        lines = ["", "Parameters", "----------"]
        for name in inspect.signature(func).parameters:
            if name not in entries:
                raise TypeError(f"{func.__qualname__}: no documentation for parameter {name!r}")
            kind, text = entries[name]
            lines += [f"{name} : {kind}", *(f"    {line}" for line in text.splitlines())]
        lines += ["", "Returns", "-------", returned, f"    {returned_text}"]
        func.__doc__ = inspect.cleandoc(func.__doc__).rstrip() + "\n" + "\n".join(lines) + "\n"
        return func

    return decorate

def verdict(paper, ours, tolerance, *, se=None) -> str:
    """The verdict of one comparison: is our number within `tolerance` of the paper's?

    Without `se` (one run, or an exact computation) the rule is plain: within the tolerance or
    not. With the standard error `se` of a mean over repeats, a verdict must rest on enough
    runs to tell a hit from a miss (an equivalence test, the "two one-sided tests" of
    Schuirmann 1987): *reproduced* when the whole 95 % interval ``ours ± 2 se`` lies within the
    tolerance, *not reproduced* when it lies wholly outside, and *too few runs to tell* when it
    straddles the tolerance's edge. For a theory, :data:`THEORY_MISS` of it is the tolerance: a
    verdict then tells the theory from a 20 % miss.

    Parameters
    ----------
    paper : float or None
        The paper's number; None when the paper gives none (it only plots the quantity).
    ours : float
        Our measurement, in the same unit as `paper`.
    tolerance : float
        Largest absolute difference ``|ours - paper|`` that still counts as reproduced
        (same unit, >= 0). Ignored when `paper` is None.
    se : float or None, default None
        Standard error of `ours` (sd / sqrt(runs)), >= 0; None for one run.

    Returns
    -------
    str
        ``"reproduced"``, ``"not reproduced"``, ``"too few runs to tell"``, or ``"no number
        in the paper"`` if `paper` is None.

    Raises
    ------
    ValueError
        If `paper` or `ours` is NaN or infinite, or `tolerance` or `se` is negative or not
        finite.
    TypeError
        If one of them is not a real number (text, a bool, an array).

    Examples
    --------
    >>> verdict(84.0, 82.5, 2.0)
    'reproduced'
    >>> verdict(84.0, 80.0, 2.0)
    'not reproduced'
    >>> verdict(84.0, 82.5, 2.0, se=0.2)
    'reproduced'
    >>> verdict(84.0, 82.5, 2.0, se=1.0)
    'too few runs to tell'
    >>> verdict(76.6, 104.5, 0.2 * 76.6, se=15.8)    # a ratio from 10 runs against its theory
    'too few runs to tell'
    >>> verdict(None, 80.0, 2.0)
    'no number in the paper'
    """
    if paper is None:
        return "no number in the paper"
    # a NaN or a negative tolerance would silently give "not reproduced"
    paper = check_real(paper, "paper")
    ours = check_real(ours, "ours")
    tolerance = check_real(tolerance, "tolerance")
    if tolerance < 0:
        raise ValueError(f"tolerance must be >= 0 (the largest |ours - paper| that reproduces), got {tolerance}")
    miss = abs(ours - paper)
    if se is None:
        return "reproduced" if miss <= tolerance else "not reproduced"
    se = check_real(se, "se")
    if se < 0:
        raise ValueError(f"se must be >= 0 (the standard error of ours), got {se}")
    if miss + 2 * se <= tolerance:
        return "reproduced"
    if miss - 2 * se > tolerance:
        return "not reproduced"
    return "too few runs to tell"


def _fmt(value, sd=None, runs=None) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        text = value
    else:
        text = f"{value:.2f}"
        if sd is not None:
            text += f" ± {sd:.2f}"
    if runs is not None:
        text += f" ({runs} runs)"
    return text


@dataclass(frozen=True)
class Reproduction:
    """The outcome of one ``reproduce``: comparisons, files written and free-text remarks.

    Frozen: change a field with :func:`dataclasses.replace` (e.g. the wall time, set by the
    command line). ``tasks_computed`` / ``tasks_resumed``: how many tasks ran and how many came
    from checkpoints of an earlier, interrupted run.

    Attributes
    ----------
    name : str
        The reproduction's CLI name (e.g. ``"du-zhan"``); the report is written to
        ``out_dir/<name>.md``.
    title : str
        Heading of its section in the report (paper and figures reproduced).
    comparisons : list of Comparison
        Our numbers beside the paper's, one per table cell or claim.
    files : list of pathlib.Path
        Figures and tables written to the output folder.
    remarks : list of str
        Free-text bullet points (deviations from the paper, scale of the run).
    seconds : float or None, default None
        Wall time of the run, set by the command line; None if not measured.
    mode : {"quick", "full"}, default "quick"
        The scale the run used.
    tasks_computed : int or None, default None
        Tasks computed in this run; None when the run was not split into tasks.
    tasks_resumed : int, default 0
        Tasks whose results came from checkpoints of an earlier run.
    tasks_verified : int, default 0
        Resumed tasks computed again and found equal to their checkpoints.

    Examples
    --------
    >>> rep = Reproduction("demo", "A demo", [Comparison("Fig. 1", "x", 1.0, 1.1, tolerance=0.2,
    ...                                                  verdict="reproduced")])
    >>> rep.counts()["reproduced"]
    1
    """

    name: str
    title: str
    comparisons: list[Comparison] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    seconds: float | None = None
    mode: str = "quick"
    tasks_computed: int | None = None
    tasks_resumed: int = 0
    tasks_verified: int = 0

    def table(self) -> pd.DataFrame:
        """The comparisons as a table, one row per :class:`Comparison`.

        Returns
        -------
        pandas.DataFrame
            Columns ``experiment``, ``item``, ``paper``, ``ours``, ``ours_sd``, ``tolerance``,
            ``verdict``, ``note``; empty (no columns) if there are no comparisons.

        Examples
        --------
        >>> rep = Reproduction("demo", "A demo", [Comparison("Fig. 1", "x", 1.0, 1.1)])
        >>> rep.table()[["paper", "ours"]].values.tolist()
        [[1.0, 1.1]]
        """
        return pd.DataFrame([c.__dict__ for c in self.comparisons])

    def counts(self) -> dict[str, int]:
        """How many comparisons got each verdict.

        Returns
        -------
        dict of str to int
            ``{"reproduced": n1, "not reproduced": n2, "too few runs to tell": n3, "no number in
            the paper": n4}``, every verdict present (0 if unused); comparisons without a verdict
            are not counted.

        Examples
        --------
        >>> Reproduction("demo", "A demo", [Comparison("Fig. 1", "x", None, 1.1,
        ...                                            verdict="no number in the paper")]).counts()
        {'reproduced': 0, 'not reproduced': 0, 'too few runs to tell': 0, 'no number in the paper': 1}
        """
        out = {v: 0 for v in VERDICTS}
        for c in self.comparisons:
            if c.verdict in out:
                out[c.verdict] += 1
        return out

    def to_markdown(self) -> str:
        """The reproduction's section of the report, in Markdown.

        A ``##`` heading with the title, a line with mode, wall time and tasks (when
        `seconds` is set), the comparison table (numbers with two decimals, ``mean ± sd``),
        the remarks as bullet points and the names of the files written.

        Returns
        -------
        str
            Markdown text ending with a newline; ``python -m ppdm_edu reproduce NAME`` writes
            it to ``out_dir/NAME.md``.

        Examples
        --------
        >>> rep = Reproduction("demo", "A demo", [Comparison("Fig. 1", "x", 1.0, 1.1, 0.05,
        ...                                                  tolerance=0.2, verdict="reproduced")])
        >>> print(rep.to_markdown())
        ## A demo
        <BLANKLINE>
        | experiment | item | paper | ours | verdict | note |
        | --- | --- | --- | --- | --- | --- |
        | Fig. 1 | x | 1.00 | 1.10 ± 0.05 | reproduced |  |
        <BLANKLINE>
        <BLANKLINE>
        """
        lines = [f"## {self.title}", ""]
        if self.seconds is not None:
            tasks = ""
            if self.tasks_computed is not None:
                tasks = f", {self.tasks_computed + self.tasks_resumed} tasks"
                if self.tasks_resumed:
                    checked = f", {self.tasks_verified} of them recomputed and equal" if self.tasks_verified else ""
                    tasks += f" ({self.tasks_resumed} resumed from checkpoints{checked})"
            lines.append(f"Mode `{self.mode}`, {self.seconds:.0f} s{tasks}.")
            lines.append("")
        if self.comparisons:
            lines.append("| experiment | item | paper | ours | verdict | note |")
            lines.append("| --- | --- | --- | --- | --- | --- |")
            for c in self.comparisons:
                lines.append(
                    f"| {c.experiment} | {c.item} | {_fmt(c.paper)} | {_fmt(c.ours, c.ours_sd, c.runs)} "
                    f"| {c.verdict} | {c.note} |"
                )
            lines.append("")
        for remark in self.remarks:
            lines.append(f"- {remark}")
        if self.files:
            lines.append("")
            lines.append("Files: " + ", ".join(f"`{Path(f).name}`" for f in self.files))
        lines.append("")
        return "\n".join(lines)
