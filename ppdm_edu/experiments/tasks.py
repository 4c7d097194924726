"""Reproductions as independent tasks: every core, a dask cluster, the same numbers, resumable.

A reproduction is split into :class:`Task` objects (paper x configuration x run): a module-level
function with plain keyword arguments, run in this process, in loky worker processes or on dask
workers (joblib; choose with :func:`execution`). :func:`run_tasks`

* gives the same results whatever the parallelism: a task draws its randomness only from streams
  keyed by *what* it computes (:func:`task_rng`), never from a generator shared with other tasks
  or from its position in a worker; results come back in task order;
* limits BLAS/OpenMP threads to one per worker, so N workers use N cores;
* shows one progress bar (``tqdm.auto``: terminal or notebook) with an ETA;
* keeps a checkpoint per finished task (``checkpoint_dir``): Ctrl-C keeps what is finished, a
  re-run computes only the missing tasks, ``fresh=True`` ignores them;
* before it trusts resumed results, recomputes ``verify`` of them, chosen at random, and raises
  :class:`CheckpointMismatch`, naming the file, if one differs;
* computes a task that appears twice (same key and arguments) once.

What a library does safely is left to it: joblib and loky run the processes (through
``joblib.parallel_config``), dask's ``distributed.comm.connect`` probes a scheduler, tqdm draws
the bar. Checkpoints stay ours: plain JSON checked against the shape the task declares
(:mod:`~ppdm_edu.experiments.shapes`), never a pickle (joblib's and dask's format): a pickle runs
code when it is loaded, and a file in an output folder may have been written by someone else.

joblib, dask and tqdm are imported inside the functions: ``import ppdm_edu`` starts no process
or thread, and under Pyodide the tasks run in this process.

Examples
--------
>>> from ppdm_edu.experiments.tasks import Task, run_tasks, task_rng
>>> def draw(seed, i):
...     return float(task_rng(seed, "draw", i).random())
>>> tasks = [Task(("draw", i), draw, {"seed": 0, "i": i}) for i in range(3)]
>>> done = run_tasks(tasks, n_jobs=1, progress=False)
>>> done.results == [draw(0, 0), draw(0, 1), draw(0, 2)]
True
"""
from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import math
import numbers
import os
import sys
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from .._validation import check_bool
from ._backends import SchedulerUnreachable, check_scheduler_address
from ._checkpoints import CheckpointError, Store, fingerprint

__all__ = [
    "Task",
    "TaskFailed",
    "TaskRun",
    "WorkerDied",
    "CheckpointMismatch",
    "CheckpointError",
    "SchedulerUnreachable",
    "run_tasks",
    "task_rng",
    "task_seed_sequence",
    "root_seed",
    "execution",
    "check_jobs",
    "check_scheduler_address",
    "max_jobs",
    "BACKENDS",
    "VERIFY",
]

BACKENDS = ("loky", "dask")

#: resumed tasks recomputed by default before their checkpoints are trusted (see run_tasks)
VERIFY = 3

# (verify, verify_key) of the execution() block this context is in
_VERIFY: contextvars.ContextVar = contextvars.ContextVar("ppdm_edu_verify", default=(VERIFY, None))


# ---------------------------------------------------------------------------------------------
# randomness keyed by the task, not by the worker
# ---------------------------------------------------------------------------------------------
def _key_words(key) -> tuple[int, ...]:
    """Four 32-bit words from the key (JSON of ints, floats and strings, hashed with SHA-256)."""
    try:
        text = json.dumps(list(key), separators=(",", ":"))
    except TypeError:
        raise TypeError(f"a task key holds ints, floats and strings only, got {key!r}") from None
    digest = hashlib.sha256(text.encode()).digest()
    return tuple(int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4))


def root_seed(rng) -> int:
    """The integer every task stream of one call derives from.

    Parameters
    ----------
    rng : int, None or numpy.random.Generator
        An int is used as is, None gives fresh entropy, a Generator one draw from it.

    Returns
    -------
    int
        The root seed, recorded with the results.

    Examples
    --------
    >>> root_seed(7)
    7
    """
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if int(rng) < 0:
            raise ValueError(f"rng must be a non-negative int, None or a numpy Generator, got {rng}")
        return int(rng)
    if rng is None:
        return int(cast(int, np.random.SeedSequence().entropy))  # an int when drawn fresh
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, 2**63))
    raise TypeError(f"rng must be None, a non-negative int or a numpy.random.Generator, got {type(rng).__name__}")


def task_seed_sequence(seed: int, *key) -> np.random.SeedSequence:
    """``SeedSequence(seed)`` keyed by ``key``: independent of every other key, same for the same key.

    Parameters
    ----------
    seed : int
        Root seed (:func:`root_seed`).
    *key : int, float or str
        What the stream is for, e.g. ``"noise", function, run, kind, privacy``; hashed into the
        sequence's ``spawn_key``.

    Returns
    -------
    numpy.random.SeedSequence
        The keyed sequence (``.spawn`` it for sub-streams).

    Examples
    --------
    >>> a = task_seed_sequence(0, "noise", 1, 0.25)
    >>> a.spawn_key == task_seed_sequence(0, "noise", 1, 0.25).spawn_key
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer (a root seed), got {seed!r}")
    return np.random.SeedSequence(int(seed), spawn_key=_key_words(key))


def task_rng(seed: int, *key) -> np.random.Generator:
    """A generator for one stream of one task (e.g. ``task_rng(seed, "data", function, run)``).

    Distinct keys give independent streams (data and noise never share one); the stream does
    not depend on which worker runs the task or on which other tasks exist.

    Parameters
    ----------
    seed : int
        Root seed (:func:`root_seed`).
    *key : int, float or str
        What the stream is for (see :func:`task_seed_sequence`).

    Returns
    -------
    numpy.random.Generator
        A generator on that stream.

    Examples
    --------
    >>> float(task_rng(0, "data", 1, 0).random()) == float(task_rng(0, "data", 1, 0).random())
    True
    """
    return np.random.default_rng(task_seed_sequence(seed, *key))


# ---------------------------------------------------------------------------------------------
# tasks and what running them gives
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Task:
    """One independent unit of work: ``func(**kwargs)``, identified by ``key``.

    ``func`` must be a module-level function (it is pickled to the workers) and ``kwargs``
    plain values (ints, floats, strings, tuples): they, the key, the function's name, the
    package version and the source of the code it runs name its checkpoint, so changing any of
    them recomputes the task. ``cost`` is a rough relative run time: the longest tasks are
    started first, so that no long task is left alone at the end (it changes the order of
    work, never the results).

    Parameters
    ----------
    key : tuple of int, float or str
        The task's identity (e.g. ``("as2000", "local", function, run, noise, privacy)``).
    func : callable
        A module-level function.
    kwargs : mapping
        Its keyword arguments (plain values).
    cost : float, default 1.0
        Rough run time in seconds.
    """

    key: tuple
    func: Callable
    kwargs: Mapping = field(default_factory=dict)
    cost: float = 1.0

    @property
    def name(self) -> str:
        """The key joined with "/" (for messages)."""
        return "/".join(str(k) for k in self.key)

    def fingerprint(self) -> str:
        """Hash of key, function, arguments and the code it runs (the checkpoint's file name).

        The code is the package version and the source of the function's module and of every
        ``ppdm_edu`` module it imports (directly or not): a change to any of them gives a new
        fingerprint, so an old checkpoint is not reused for new code.

        Returns
        -------
        str
            24 hex digits; equal for tasks that compute the same thing with the same code.
        """
        return fingerprint(self)


class WorkerDied(RuntimeError):
    """A worker process died during :func:`run_tasks` (killed, or out of memory)."""


class CheckpointMismatch(ValueError):
    """A resumed task, recomputed to check its checkpoint, gave another result: nothing is used."""


@dataclass(frozen=True)
class TaskFailed:
    """What a task that raised returns when ``run_tasks(..., errors="keep")``.

    Parameters
    ----------
    key : tuple
        The task's key.
    error : str
        The traceback.
    """

    key: tuple
    error: str


@dataclass(frozen=True)
class TaskRun:
    """Results of :func:`run_tasks` in task order, and which tasks were computed or resumed.

    Parameters
    ----------
    results : list
        One result per task, in task order.
    computed : tuple of tuple
        Keys of the tasks run now.
    resumed : tuple of tuple
        Keys of the tasks read from checkpoints.
    failed : tuple of tuple
        Keys of the tasks that raised (``errors="keep"``).
    seconds : tuple of float
        How long each task ran (0 when resumed from a checkpoint or a duplicate).
    notes : tuple of str
        What was said about the checkpoints (an unusable file recomputed, old pickles ignored,
        a result that could not be stored), also printed to stderr.
    verified : tuple of tuple
        Keys of the resumed tasks recomputed to check their checkpoints (all agreed).
    verify_key : int or None
        The seed that chose them (``verify_key=`` repeats the choice); None if none was resumed.
    """

    results: list
    computed: tuple
    resumed: tuple
    failed: tuple = ()
    seconds: tuple = ()
    notes: tuple = ()
    verified: tuple = ()
    verify_key: int | None = None


def _call(index: int, task: Task, limit_threads: bool, keep_errors: bool):
    """Run one task (in a worker): one BLAS/OpenMP thread when workers run side by side."""
    import time

    start = time.perf_counter()
    try:
        if limit_threads:
            from threadpoolctl import threadpool_limits

            with threadpool_limits(limits=1):
                value = task.func(**task.kwargs)
        else:
            value = task.func(**task.kwargs)
    except Exception:  # noqa: BLE001 - reported per task when errors="keep"
        if not keep_errors:
            raise
        value = TaskFailed(tuple(task.key), traceback.format_exc())
    return index, value, time.perf_counter() - start


def run_tasks(tasks, *, n_jobs=None, checkpoint_dir=None, fresh: bool = False, progress: bool = True,
              desc: str | None = None, errors: str = "raise", verify=None, verify_key=None) -> TaskRun:
    """Run independent tasks with joblib; results in task order, whatever the parallelism.

    A resumed run trusts a checkpoint that parses, names its task and fits the task's declared
    shape; it cannot tell a forged number of the right type from a computed one. So ``verify``
    resumed tasks, chosen at random (seeded by ``verify_key``), are computed again and compared
    with their checkpoints before any result is returned: one forged task among N resumed is
    caught with probability ``verify / N``; a forgery spread over a fraction f of them, with
    probability about ``1 - (1 - f) ** verify``.

    Parameters
    ----------
    tasks : iterable of Task
        The work; duplicates (same :meth:`Task.fingerprint`) run once.
    n_jobs : int or None
        Workers (joblib's meaning: -1 all cores, 1 in this process). None: the active
        ``joblib.parallel_config`` (e.g. from :func:`execution`), else 1.
    checkpoint_dir : path or None
        Keep each finished task's result there; tasks found there are not run again.
    fresh : bool
        Ignore (and overwrite) existing checkpoints.
    progress : bool
        One tqdm bar over all tasks, with an ETA.
    desc : str, optional
        Label of the bar.
    errors : {"raise", "keep"}
        "keep": a task that raises gives a :class:`TaskFailed` in its place (not checkpointed)
        and the others go on.
    verify : int or None
        Resumed tasks to recompute and compare (0: none); None: the value of the active
        :func:`execution` block, else :data:`VERIFY`.
    verify_key : int or None
        Seed of their choice; None: the active :func:`execution` block's, else fresh (it is
        reported in :attr:`TaskRun.verify_key` and on stderr).

    Returns
    -------
    TaskRun
        ``results`` (one per task, in order), the keys ``computed``, ``resumed`` (from
        checkpoints), ``failed`` and ``verified``.

    Raises
    ------
    CheckpointMismatch
        If a recomputed task disagrees with its checkpoint (the message names the file).
    """
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', got {errors!r}")
    if n_jobs is not None:
        n_jobs = check_jobs(n_jobs)
    fresh, progress = check_bool(fresh, "fresh"), check_bool(progress, "progress")
    default_verify, default_key = _VERIFY.get()
    verify = _check_count(default_verify if verify is None else verify, "verify")
    verify_key = _check_key(default_key if verify_key is None else verify_key, "verify_key")
    tasks = _check_tasks(tasks)
    store = Store(checkpoint_dir) if checkpoint_dir is not None else None
    results, todo, resumed, same_as, stored = _resume_or_schedule(tasks, store, fresh)
    checks, verify_key = _choose(resumed, verify, verify_key)

    from joblib import Parallel, delayed, effective_n_jobs
    from tqdm.auto import tqdm

    if sys.platform == "emscripten":
        # Pyodide (JupyterLite) starts no thread or process: the tasks run in this process and
        # the bar has no monitor thread (tqdm would try one, fail and warn); same results
        n_jobs, tqdm.monitor_interval = 1, 0
    workers = effective_n_jobs(n_jobs)
    computed: list[int] = []
    failed: list[int] = []
    seconds = [0.0] * len(tasks)
    todo.sort(key=lambda i: -tasks[i].cost)   # stable: equal costs keep their order
    runs = [(i, False) for i in todo] + [(i, True) for i in checks]
    with tqdm(total=len(tasks) - len(same_as) + len(checks), initial=len(resumed), desc=desc, unit="task",
              disable=not progress, smoothing=0.05) as bar:
        calls = (delayed(_call)(n, tasks[i], workers != 1, errors == "keep") for n, (i, _) in enumerate(runs))
        # results come back as they finish: the bar moves and each one is saved at once, so
        # an interrupt (KeyboardInterrupt stops the workers) loses only the running tasks
        with _worker_death_reported(store, lambda: len(computed) + len(resumed)):
            for n, value, secs in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(calls) if runs else ():
                i, check = runs[n]
                if check:
                    _compare(store, tasks[i], stored[i], value)
                elif isinstance(value, TaskFailed):
                    results[i], seconds[i] = value, secs
                    failed.append(i)
                else:
                    results[i], seconds[i] = value, secs
                    computed.append(i)
                    if store is not None:
                        store.save(tasks[i], value)
                bar.update()
    if checks:
        print(f"checked {len(checks)} of {len(resumed)} resumed tasks by recomputing them: each agrees "
              f"with its checkpoint (verify key {verify_key})", file=sys.stderr, flush=True)
    for i, j in same_as.items():
        results[i] = results[j]
    keys = lambda idx: tuple(tuple(tasks[i].key) for i in sorted(idx))  # noqa: E731
    return TaskRun(results=results, computed=keys(computed), resumed=keys(resumed), failed=keys(failed),
                   seconds=tuple(seconds), notes=tuple(store.notes) if store is not None else (),
                   verified=keys(checks), verify_key=verify_key if resumed else None)


def _check_tasks(tasks) -> list[Task]:
    """``tasks`` as a list, if every one is a :class:`Task`."""
    tasks = list(tasks)
    bad = [t for t in tasks if not isinstance(t, Task)]
    if bad:
        raise TypeError(f"tasks must be Task objects, got {type(bad[0]).__name__}")
    return tasks


def _check_count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= int(value) <= 1_000_000:
        raise ValueError(f"{name} must be a whole number of tasks from 0 to 1,000,000, got {value!r}")
    return int(value)


def _check_key(value, name: str) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Integral)
                              or not 0 <= int(value) < 2**63):
        raise ValueError(f"{name} must be None or an integer from 0 to 2**63 - 1, got {value!r}")
    return None if value is None else int(value)


def _resume_or_schedule(tasks: list[Task], store: Store | None, fresh: bool):
    """What each task needs: nothing (a duplicate of an earlier task), its checkpoint, or a run.

    Returns the results (filled for the resumed tasks), the tasks to run, the resumed tasks, each
    duplicate with the earlier task whose result it takes, and each resumed task's JSON data.
    """
    results: list = [None] * len(tasks)
    first: dict[str, int] = {}          # fingerprint -> first task with it
    same_as: dict[int, int] = {}
    stored: dict[int, object] = {}
    todo, resumed = [], []
    for i, task in enumerate(tasks):
        fp = task.fingerprint()
        if fp in first:
            same_as[i] = first[fp]
            continue
        first[fp] = i
        found = store.load(task) if store is not None and not fresh else None
        if found is None:
            todo.append(i)
        else:
            results[i], stored[i] = found
            resumed.append(i)
    return results, todo, resumed, same_as, stored


def _choose(resumed: list[int], verify: int, key: int | None) -> tuple[list[int], int]:
    """``verify`` of the resumed tasks, chosen at random by ``key`` (fresh entropy if None)."""
    if key is None:
        key = int(cast(int, np.random.SeedSequence().entropy)) % 2**63
    k = min(verify, len(resumed))
    picked = np.random.default_rng(key).choice(len(resumed), size=k, replace=False).tolist() if k else []
    return sorted(resumed[j] for j in picked), key


def _compare(store: Store | None, task: Task, data, value) -> None:
    """Raise :class:`CheckpointMismatch` unless ``value`` (recomputed) agrees with the checkpoint."""
    assert store is not None   # only resumed tasks are checked
    why = f"recomputing it raised:\n{value.error}" if isinstance(value, TaskFailed) else \
        store.difference(task, data, value)
    if why is None:
        return
    raise CheckpointMismatch(
        f"checkpoint {store.path(task)} of task {task.name} does not hold what the task computes now "
        f"({why.splitlines()[0][:200]}): it was changed after it was written, or the task is not "
        "deterministic; nothing was published; delete that file (or run with --fresh) and run again")


@contextlib.contextmanager
def _worker_death_reported(store: Store | None, n_finished: Callable[[], int]):
    """A worker process that dies (loky's TerminatedWorkerError) becomes one :class:`WorkerDied`
    saying what was kept; ``n_finished()`` counts the finished tasks when it happens."""
    try:
        yield
    except Exception as exc:
        if sys.platform == "emscripten":   # no worker process there (and loky does not import)
            raise
        from joblib.externals.loky.process_executor import TerminatedWorkerError

        if not isinstance(exc, TerminatedWorkerError):
            raise
        kept = (f"the {n_finished()} finished tasks are kept in {store.folder}: "
                "run the same command again to resume" if store is not None
                else "no checkpoints were kept (checkpoint_dir=None)")
        raise WorkerDied(f"a worker process died while running tasks (killed, or out of "
                         f"memory); {kept}") from exc


def max_jobs() -> int:
    """The most workers a run may ask for: 4 per core (more would only wait for a core).

    Returns
    -------
    int
        ``4 * os.cpu_count()``.
    """
    return 4 * (os.cpu_count() or 1)


def check_jobs(n_jobs, name: str = "n_jobs") -> int:
    """``n_jobs`` if it is -1 (every core) or from 1 to :func:`max_jobs`, else a one-line error.

    Parameters
    ----------
    n_jobs : int
        Workers asked for.
    name : str, default "n_jobs"
        How the error names it (the command line: ``--jobs``).

    Returns
    -------
    int
        ``n_jobs``.

    Raises
    ------
    ValueError
        Naming `name`, the value and the allowed range.

    Examples
    --------
    >>> check_jobs(-1)
    -1
    """
    top = max_jobs()
    whole = isinstance(n_jobs, numbers.Integral) and not isinstance(n_jobs, bool)
    if not whole or not (int(n_jobs) == -1 or 1 <= int(n_jobs) <= top):
        raise ValueError(f"{name} must be -1 (every core) or a whole number from 1 to {top} (4 per core "
                         f"of this machine's {os.cpu_count() or 1}), got {n_jobs!r}")
    return int(n_jobs)


def execution(n_jobs=-1, backend: str = "loky", scheduler: str | None = None, timeout: float = 30.0,
              verify: int = VERIFY, verify_key: int | None = None):
    """Where and how :func:`run_tasks` (with ``n_jobs=None``) runs inside this ``with`` block.

    Parameters
    ----------
    n_jobs : int
        Workers: -1 all cores, 1 in this process. With dask and no scheduler: the number of
        workers of the local cluster (-1: one per core).
    backend : {"loky", "dask"}
        loky: processes on this machine. dask: ``joblib``'s dask backend on the cluster at
        ``scheduler`` (e.g. ``"tcp://10.0.0.5:8786"``), or on a ``dask.distributed.LocalCluster``
        started here when ``scheduler`` is None (needs the ``cluster`` extra).
    scheduler : str or None
        Address of a running dask scheduler (dask only).
    timeout : float, default 30
        Seconds to wait for the scheduler to answer; then :class:`SchedulerUnreachable`.
    verify : int, default VERIFY
        Resumed tasks :func:`run_tasks` recomputes to check their checkpoints (0: none).
    verify_key : int or None
        Seed of that choice (None: fresh each run, reported).

    Returns
    -------
    contextlib.AbstractContextManager
        Inside its ``with`` block, joblib (and so :func:`run_tasks`) uses this configuration.
        The arguments are checked when it is called, before the block.

    Examples
    --------
    >>> with execution(n_jobs=1):             # doctest: +SKIP
    ...     reproduce("quick", "reports/quick")
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise ValueError("scheduler is an address of a dask scheduler: use it with backend='dask'")
    n_jobs = check_jobs(n_jobs)
    if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real) or not 0 < timeout < math.inf:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    checks = (_check_count(verify, "verify"), _check_key(verify_key, "verify_key"))
    return _execution(n_jobs, backend, scheduler, float(timeout), checks)   # checked now, not at `with`


@contextlib.contextmanager
def _execution(n_jobs: int, backend: str, scheduler: str | None, timeout: float, checks: tuple):
    from ._backends import configured

    token = _VERIFY.set(checks)
    try:
        with configured(n_jobs, backend, scheduler, timeout):
            yield
    finally:
        _VERIFY.reset(token)
