"""Reproductions as independent tasks: every core, a dask cluster, the same numbers, resumable.

A reproduction is split into :class:`Task` objects (paper x configuration x run). Each task is a
module-level function with plain keyword arguments, so it can run in this process, in a loky
worker process or on a dask worker. :func:`run_tasks` runs them with joblib and

* gives the same results whatever the parallelism: a task draws its randomness only from
  streams keyed by *what* it computes (:func:`task_rng`: ``SeedSequence(seed)`` with a
  ``spawn_key`` derived from the key, e.g. ``("data", function, run)``), never from a
  generator shared with other tasks or from its position in a worker; results are put back in
  task order;
* limits BLAS/OpenMP threads to one per worker (loky: ``inner_max_num_threads``; dask and
  others: :mod:`threadpoolctl` around each task), so N workers use N cores;
* shows one progress bar (``tqdm.auto``: terminal or notebook) with an ETA;
* keeps a checkpoint per finished task (``checkpoint_dir``, one pickle per task, named by the
  hash of the task's key, function, arguments and seed): Ctrl-C stops the workers and keeps
  what is finished, a re-run computes only the missing tasks, ``fresh=True`` ignores them;
* computes a task that appears twice (same key and arguments) once.

joblib, dask and tqdm are imported inside the functions: ``import ppdm_edu`` starts no process
or thread (it must work under Pyodide).

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
import hashlib
import json
import numbers
import os
import pickle
import sys
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = [
    "Task",
    "TaskFailed",
    "TaskRun",
    "run_tasks",
    "task_rng",
    "task_seed_sequence",
    "root_seed",
    "execution",
    "BACKENDS",
]

BACKENDS = ("loky", "dask")


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
        return int(np.random.SeedSequence().entropy)
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
# tasks
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Task:
    """One independent unit of work: ``func(**kwargs)``, identified by ``key``.

    ``func`` must be a module-level function (it is pickled to the workers) and ``kwargs``
    plain values (ints, floats, strings, tuples): they, the key and the function's name make
    the checkpoint's hash, so changing any of them recomputes the task. ``cost`` is a rough
    relative run time: the longest tasks are started first, so that no long task is left
    alone at the end (it changes the order of work, never the results).

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
        """Hash of key, function and arguments (the checkpoint's file name).

        Returns
        -------
        str
            24 hex digits; equal for tasks that compute the same thing.
        """
        func = f"{self.func.__module__}.{self.func.__qualname__}"
        text = repr((tuple(self.key), func, sorted(self.kwargs.items())))
        return hashlib.sha256(text.encode()).hexdigest()[:24]


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
    """

    results: list
    computed: tuple
    resumed: tuple
    failed: tuple = ()
    seconds: tuple = ()


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


class _Checkpoints:
    """One pickle per finished task under ``folder`` (written atomically)."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def path(self, task: Task) -> Path:
        return self.folder / f"{task.fingerprint()}.pkl"

    def load(self, task: Task):
        path = self.path(task)
        if not path.exists():
            return False, None
        try:
            with open(path, "rb") as fh:
                stored = pickle.load(fh)
        except Exception:  # noqa: BLE001 - a truncated file is recomputed
            return False, None
        if stored.get("key") != list(task.key):
            return False, None
        return True, stored["result"]

    def save(self, task: Task, result) -> None:
        path = self.path(task)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        with open(tmp, "wb") as fh:
            pickle.dump({"key": list(task.key), "result": result}, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)


def run_tasks(tasks, *, n_jobs=None, checkpoint_dir=None, fresh: bool = False, progress: bool = True,
              desc: str | None = None, errors: str = "raise") -> TaskRun:
    """Run independent tasks with joblib; results in task order, whatever the parallelism.

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

    Returns
    -------
    TaskRun
        ``results`` (one per task, in order), the keys ``computed`` and ``resumed`` (from
        checkpoints) and ``failed``.
    """
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', got {errors!r}")
    tasks = list(tasks)
    bad = [t for t in tasks if not isinstance(t, Task)]
    if bad:
        raise TypeError(f"tasks must be Task objects, got {type(bad[0]).__name__}")
    store = _Checkpoints(checkpoint_dir) if checkpoint_dir is not None else None
    results: list = [None] * len(tasks)
    first: dict[str, int] = {}          # fingerprint -> first task with it
    same_as: dict[int, int] = {}        # duplicate task -> the task computed for it
    todo, resumed = [], []
    for i, task in enumerate(tasks):
        fp = task.fingerprint()
        if fp in first:
            same_as[i] = first[fp]
            continue
        first[fp] = i
        if store is not None and not fresh:
            found, value = store.load(task)
            if found:
                results[i] = value
                resumed.append(i)
                continue
        todo.append(i)

    from joblib import Parallel, delayed, effective_n_jobs
    from tqdm.auto import tqdm

    if sys.platform == "emscripten":
        # Pyodide (JupyterLite) starts no thread or process: the tasks run in this process and
        # the bar has no monitor thread (tqdm would try one, fail and warn); same results
        n_jobs, tqdm.monitor_interval = 1, 0
    workers = effective_n_jobs(n_jobs)
    computed, failed = [], []
    seconds = [0.0] * len(tasks)
    with tqdm(total=len(first), initial=len(resumed), desc=desc, unit="task", disable=not progress,
              smoothing=0.05) as bar:
        if todo:
            todo.sort(key=lambda i: -tasks[i].cost)   # stable: equal costs keep their order
            calls = (delayed(_call)(i, tasks[i], workers != 1, errors == "keep") for i in todo)
            # results come back as they finish: the bar moves and each one is saved at once, so
            # an interrupt (KeyboardInterrupt stops the workers) loses only the running tasks
            for i, value, secs in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(calls):
                results[i] = value
                seconds[i] = secs
                if isinstance(value, TaskFailed):
                    failed.append(i)
                else:
                    computed.append(i)
                    if store is not None:
                        store.save(tasks[i], value)
                bar.update()
    for i, j in same_as.items():
        results[i] = results[j]
    keys = lambda idx: tuple(tuple(tasks[i].key) for i in sorted(idx))  # noqa: E731
    return TaskRun(results=results, computed=keys(computed), resumed=keys(resumed), failed=keys(failed),
                   seconds=tuple(seconds))


@contextlib.contextmanager
def execution(n_jobs=-1, backend: str = "loky", scheduler: str | None = None):
    """Where :func:`run_tasks` (with ``n_jobs=None``) runs inside this ``with`` block.

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

    Yields
    ------
    None
        Inside the block, joblib (and so :func:`run_tasks`) uses this configuration.

    Examples
    --------
    >>> with execution(n_jobs=1):             # doctest: +SKIP
    ...     reproduce("quick", "reports/quick")
    """
    from joblib import parallel_config

    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise ValueError("scheduler is an address of a dask scheduler: use it with backend='dask'")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0 or n_jobs < -1:
        raise ValueError(f"n_jobs must be a positive int or -1 (all cores), got {n_jobs!r}")
    if backend == "loky":
        with parallel_config(backend="loky", n_jobs=int(n_jobs), inner_max_num_threads=1):
            yield
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("backend='dask' needs dask.distributed: pip install 'ppdm-edu[cluster]'") from None
    with contextlib.ExitStack() as stack:
        if scheduler is None:
            workers = os.cpu_count() if n_jobs == -1 else int(n_jobs)
            cluster = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1,
                                                       processes=True, dashboard_address=None))
            client = stack.enter_context(Client(cluster, set_as_default=False))
        else:
            client = stack.enter_context(Client(scheduler, set_as_default=False))
        with parallel_config(backend="dask", client=client):
            yield
