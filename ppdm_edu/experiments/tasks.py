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
* keeps a checkpoint per finished task (``checkpoint_dir``, one JSON file per task, named by the
  hash of the task's key, function, arguments and seed, the package version and the source of
  the code it runs): Ctrl-C stops the workers and keeps what is finished, a re-run computes only
  the missing tasks, ``fresh=True`` ignores them. A checkpoint is data, never code (no pickle):
  plain JSON checked on load against the shape the task function declares with
  :func:`~ppdm_edu.experiments.shapes.result_shape` (field names, types, ranges, lengths); one
  that does not fit is recomputed with a note naming the file;
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
import errno
import functools
import hashlib
import json
import math
import numbers
import os
import sys
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import numpy as np

from .._imports import imports_in
from .._validation import check_bool
from .outputs import disk_fault
from .shapes import result_shape, shape_of

__all__ = [
    "Task",
    "TaskFailed",
    "WorkerDied",
    "SchedulerUnreachable",
    "CheckpointError",
    "result_shape",
    "TaskRun",
    "run_tasks",
    "task_rng",
    "task_seed_sequence",
    "root_seed",
    "execution",
    "check_jobs",
    "check_scheduler_address",
    "max_jobs",
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
# tasks
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Task:
    """One independent unit of work: ``func(**kwargs)``, identified by ``key``.

    ``func`` must be a module-level function (it is pickled to the workers) and ``kwargs``
    plain values (ints, floats, strings, tuples): they, the key, the function's name, the
    package version and the source of the code it runs make the checkpoint's hash, so changing
    any of them recomputes the task. ``cost`` is a rough
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
        """Hash of key, function, arguments and the code it runs (the checkpoint's file name).

        The code is the package version and the source of the function's module and of every
        ``ppdm_edu`` module it imports (directly or not): a change to any of them gives a new
        fingerprint, so an old checkpoint is not reused for new code.

        Returns
        -------
        str
            24 hex digits; equal for tasks that compute the same thing with the same code.
        """
        from .. import __version__

        func = f"{self.func.__module__}.{self.func.__qualname__}"
        code = _code_digest(self.func.__module__)
        text = repr((tuple(self.key), func, sorted(self.kwargs.items()), __version__, code))
        return hashlib.sha256(text.encode()).hexdigest()[:24]


# ---------------------------------------------------------------------------------------------
# the code a task runs: its module and the ppdm_edu modules that module imports
# ---------------------------------------------------------------------------------------------
def _module_file(name: str) -> Path | None:
    """The source file of a module: ppdm_edu's from the package folder (nothing is imported)."""
    if name == "ppdm_edu" or name.startswith("ppdm_edu."):
        root = Path(__file__).resolve().parents[1]       # .../ppdm_edu
        parts = name.split(".")[1:]
        for path in (root.joinpath(*parts, "__init__.py"), root.joinpath(*parts[:-1], f"{parts[-1]}.py")
                     if parts else None):
            if path is not None and path.is_file():
                return path
        return None
    origin = getattr(sys.modules.get(name), "__file__", None)
    return Path(origin) if origin and str(origin).endswith(".py") else None


def _imports_of(name: str, path: Path) -> set[str]:
    """The ``ppdm_edu`` modules imported anywhere in ``path`` (module ``name``), by AST."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    try:
        found = imports_in(path.read_bytes(), package)  # "from . import x": x may be a module
    except (OSError, SyntaxError, ValueError):
        return set()
    out: set[str] = set()
    for mod in found:
        if mod == "ppdm_edu" or mod.startswith("ppdm_edu."):
            # keep the module and the packages above it (importing it runs their __init__)
            parts = mod.split(".")
            out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return {m for m in out if _module_file(m) is not None}


@functools.lru_cache(maxsize=None)
def _code_digest(module_name: str) -> str:
    """SHA-256 of the source of ``module_name`` and of every ppdm_edu module it imports."""
    seen, todo = set(), [module_name]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = _module_file(name)
        if path is not None and (name == "ppdm_edu" or name.startswith("ppdm_edu.")):
            todo.extend(_imports_of(name, path) - seen)
    digest = hashlib.sha256()
    for name in sorted(seen):
        path = _module_file(name)
        try:
            source = path.read_bytes() if path is not None else b""
        except OSError:
            source = b""
        digest.update(name.encode() + b"\0" + hashlib.sha256(source).digest())
    return digest.hexdigest()


class WorkerDied(RuntimeError):
    """A worker process died during :func:`run_tasks` (killed, or out of memory)."""


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
    """

    results: list
    computed: tuple
    resumed: tuple
    failed: tuple = ()
    seconds: tuple = ()
    notes: tuple = ()


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


# ---------------------------------------------------------------------------------------------
# checkpoints: JSON checked against the task's result shape (never pickle: a pickle runs code)
# ---------------------------------------------------------------------------------------------
_FORMAT = "ppdm-edu task checkpoint"
_FORMAT_VERSION = 2


class CheckpointError(ValueError):
    """A checkpoint file that does not parse or does not fit its task (the task is recomputed)."""


def _reject_constant(name):
    raise CheckpointError(f"{name} is not JSON")


def _json_key(task: Task) -> list:
    """The task's key as it reads back from JSON (tuples in it become lists; a non-finite float,
    such as the ε = ∞ of a noise-free row, becomes its name, which strict JSON can hold)."""

    def plain(part):
        if isinstance(part, (list, tuple)):
            return [plain(p) for p in part]
        if isinstance(part, float) and not math.isfinite(part):
            return repr(part)  # 'inf', '-inf', 'nan'
        return part

    return json.loads(json.dumps(plain(list(task.key)), allow_nan=False))


class _Checkpoints:
    """One JSON file per finished task under ``folder``, written atomically, read only if it
    fits the task's key and result shape (:mod:`~ppdm_edu.experiments.shapes`)."""

    def __init__(self, folder):
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "the checkpoint folder is a file", str(self.folder))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.notes: list[str] = []
        old = sorted(self.folder.glob("*.pkl"))
        if old:
            self._note(f"{len(old)} pickle checkpoint(s) of an older version in {self.folder} are "
                       "ignored (a pickle can run code when loaded; they are never opened): "
                       "delete them")

    def _note(self, text: str) -> None:
        self.notes.append(text)
        print(f"note: {text}", file=sys.stderr, flush=True)

    def path(self, task: Task) -> Path:
        return self.folder / f"{task.fingerprint()}.json"

    def load(self, task: Task):
        """``(True, result)`` from a checkpoint that fits ``task``; else ``(False, None)``."""
        path = self.path(task)
        if not os.path.lexists(path):
            return False, None
        try:
            if not path.is_file():
                raise CheckpointError("it is not a regular file")
            data = json.loads(path.read_text(encoding="utf-8"), parse_constant=_reject_constant)
            if not isinstance(data, dict) or data.get("format") != _FORMAT:
                raise CheckpointError("not a ppdm-edu task checkpoint")
            if data.get("version") != _FORMAT_VERSION:
                raise CheckpointError(f"format version {data.get('version')!r}, expected {_FORMAT_VERSION}")
            if data.get("key") != _json_key(task):
                raise CheckpointError("it belongs to another task")
            value = shape_of(task.func, task.kwargs).load(data.get("result"))
        except (OSError, ValueError, RecursionError) as exc:  # ShapeError, CheckpointError, bad UTF-8
            self._note(f"checkpoint {path} is unusable ({type(exc).__name__}: {str(exc)[:160]}); "
                       f"recomputing task {task.name}")
            return False, None
        return True, value

    def save(self, task: Task, result) -> None:
        try:
            body = {"format": _FORMAT, "version": _FORMAT_VERSION, "key": _json_key(task), "task": task.name,
                    "result": shape_of(task.func, task.kwargs).dump(result)}
            text = json.dumps(body, allow_nan=False, separators=(",", ":"))
        except (ValueError, TypeError) as exc:   # ShapeError: the result does not fit its shape
            self._note(f"task {task.name} is not checkpointed: its result does not fit its shape ({exc})")
            return
        path = self.path(task)
        tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
        try:
            with open(tmp, "x", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, path)
        except OSError as exc:
            if disk_fault(exc) is not None:   # a full or read-only disk stops the run (one line)
                raise
            self._note(f"task {task.name} is not checkpointed: cannot write {path} ({exc.strerror or exc})")
        finally:  # a full disk must not leave a half-written file behind
            with contextlib.suppress(OSError):
                tmp.unlink()


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
    if n_jobs is not None:
        n_jobs = check_jobs(n_jobs)
    fresh, progress = check_bool(fresh, "fresh"), check_bool(progress, "progress")
    tasks = _check_tasks(tasks)
    store = _Checkpoints(checkpoint_dir) if checkpoint_dir is not None else None
    results, todo, resumed, same_as = _resume_or_schedule(tasks, store, fresh)

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
    distinct = len(tasks) - len(same_as)
    with tqdm(total=distinct, initial=len(resumed), desc=desc, unit="task", disable=not progress,
              smoothing=0.05) as bar:
        if todo:
            todo.sort(key=lambda i: -tasks[i].cost)   # stable: equal costs keep their order
            calls = (delayed(_call)(i, tasks[i], workers != 1, errors == "keep") for i in todo)
            # results come back as they finish: the bar moves and each one is saved at once, so
            # an interrupt (KeyboardInterrupt stops the workers) loses only the running tasks
            with _worker_death_reported(store, lambda: len(computed) + len(resumed)):
                for i, value, secs in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(calls):
                    results[i], seconds[i] = value, secs
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
                   seconds=tuple(seconds), notes=tuple(store.notes) if store is not None else ())


def _check_tasks(tasks) -> list[Task]:
    """``tasks`` as a list, if every one is a :class:`Task`."""
    tasks = list(tasks)
    bad = [t for t in tasks if not isinstance(t, Task)]
    if bad:
        raise TypeError(f"tasks must be Task objects, got {type(bad[0]).__name__}")
    return tasks


def _resume_or_schedule(tasks: list[Task], store: _Checkpoints | None, fresh: bool):
    """What each task needs: nothing (a duplicate of an earlier task), its checkpoint, or a run.

    Returns
    -------
    results : list
        One slot per task, filled for the tasks resumed from a checkpoint.
    todo : list of int
        The tasks to run.
    resumed : list of int
        The tasks read from a checkpoint.
    same_as : dict of int to int
        Each duplicate task (same fingerprint) and the earlier task whose result it takes.
    """
    results: list = [None] * len(tasks)
    first: dict[str, int] = {}          # fingerprint -> first task with it
    same_as: dict[int, int] = {}
    todo, resumed = [], []
    for i, task in enumerate(tasks):
        fp = task.fingerprint()
        if fp in first:
            same_as[i] = first[fp]
            continue
        first[fp] = i
        found, value = store.load(task) if store is not None and not fresh else (False, None)
        if found:
            results[i] = value
            resumed.append(i)
        else:
            todo.append(i)
    return results, todo, resumed, same_as


@contextlib.contextmanager
def _worker_death_reported(store: _Checkpoints | None, n_finished: Callable[[], int]):
    """A worker process that dies (loky's TerminatedWorkerError) becomes one :class:`WorkerDied`
    saying what was kept; ``n_finished()`` counts the finished tasks when it happens."""
    try:
        yield
    except Exception as exc:
        if type(exc).__name__ != "TerminatedWorkerError":   # loky's; joblib re-exports it
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


class SchedulerUnreachable(ConnectionError):
    """No dask scheduler answered at the given address within the timeout."""


#: the largest handshake a dask scheduler sends (its own is under 100 bytes)
_HANDSHAKE_MAX = 64 * 1024


def _read_exactly(sock, n: int, deadline: float) -> bytes:
    """``n`` bytes from ``sock`` before ``deadline`` (time.monotonic), or fewer if it closes."""
    import time

    data = b""
    while len(data) < n:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(n - len(data))
        if not chunk:
            break
        data += chunk
    return data


def _dask_handshake(message: bytes) -> bool:
    """Whether ``message`` (after its 8-byte length) is dask's handshake: its frame count and
    sizes, then a msgpack map with ``python`` and ``pickle-protocol`` (``handshake_info`` of
    ``distributed.comm.core``), read without msgpack (not a dependency of the package)."""
    import struct

    try:
        (n_frames,) = struct.unpack_from("<Q", message)
        if not 1 <= n_frames <= 16:
            return False
        sizes = struct.unpack_from(f"<{n_frames}Q", message, 8)
    except struct.error:
        return False
    start = 8 * (1 + n_frames)
    if start + sum(sizes) != len(message):
        return False
    first = message[start:start + sizes[0]]
    # a msgpack map (fixmap 0x80-0x8f or map16 0xde) holding the keys "python" and
    # "pickle-protocol" as msgpack strings (0xa0 | length, then the bytes)
    return (len(first) > 0 and (0x80 <= first[0] <= 0x8F or first[0] == 0xDE)
            and b"\xa6python" in first and b"\xafpickle-protocol" in first)


def check_scheduler_address(address: str) -> tuple[str, int] | None:
    """Check a scheduler address before a run touches its output folder.

    Parameters
    ----------
    address : str
        ``tcp://HOST:PORT`` (or ``HOST:PORT``); another scheme is left to dask.

    Returns
    -------
    tuple of (str, int) or None
        ``(host, port)`` of a tcp address; None for a scheme dask connects to itself.

    Raises
    ------
    SchedulerUnreachable
        For an address that can never work (tls:// without certificates, no port).

    Examples
    --------
    >>> check_scheduler_address("tcp://127.0.0.1:8786")
    ('127.0.0.1', 8786)
    """
    scheme, _, rest = address.rpartition("://")
    if scheme in ("tls", "wss"):
        raise SchedulerUnreachable(
            f"--scheduler {address!r}: a {scheme}:// scheduler needs TLS certificates, which this "
            "command does not take; use a tcp:// address (e.g. through an SSH tunnel), or connect a "
            "dask Client with its Security yourself and call run_tasks inside joblib.parallel_config")
    if scheme not in ("", "tcp"):
        return None
    host, _, port = rest.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit():
        raise SchedulerUnreachable(f"--scheduler {address!r} is not an address like tcp://HOST:PORT")
    return host, int(port)


def _probe_scheduler(address: str, timeout: float) -> None:
    """Fail within ``timeout``, in one line, unless a dask scheduler answers at a tcp ``address``.

    dask's own connect waits for ever on a listener that accepts and never answers (or on the
    dashboard's HTTP port), and reads whatever a server says first as a message length (an SSH
    banner asks it for exbibytes). A scheduler sends its handshake as soon as a connection
    opens: an 8-byte length, then msgpack frames (:func:`_dask_handshake`); nothing else passes.
    """
    import socket
    import time

    target = check_scheduler_address(address)
    if target is None:
        return  # inproc://, ucx://, ...: dask's own connect (with its timeout) decides
    host, port = target
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection((host, int(port)), timeout=timeout) as sock:
            head = _read_exactly(sock, 8, deadline)
            size = int.from_bytes(head, "little") if len(head) == 8 else 0
            body = _read_exactly(sock, size, deadline) if 16 <= size <= _HANDSHAKE_MAX else b""
    except TimeoutError:
        raise SchedulerUnreachable(
            f"no dask scheduler answered at {address} within {timeout:g} s (something may listen "
            "there, e.g. the dashboard on 8787, but it is not a scheduler: its default port is 8786); "
            "check the address or raise --timeout") from None
    except OSError as exc:
        raise SchedulerUnreachable(f"cannot reach a dask scheduler at {address}: "
                                   f"{exc.strerror or exc}") from None
    if not head:
        raise SchedulerUnreachable(f"the server at {address} closed the connection without "
                                   "answering: it is not a dask scheduler")
    if len(body) != size or not _dask_handshake(body):
        said = ((head + body)[:40].decode("ascii", "replace").splitlines() or [""])[0]
        raise SchedulerUnreachable(f"the server at {address} is not a dask scheduler: it did not answer "
                                   f"dask's handshake (it said {said!r}); check the address (a scheduler "
                                   "listens on port 8786 by default)")


def _exit_with_parent(parent: int, interval: float = 0.25) -> None:
    """Worker initializer: end this worker as soon as the process that started it is gone.

    After its parent is killed (SIGKILL, the OOM killer), a loky worker waits for its idle
    timeout and then up to 30 s for the parent to release it, and loky's resource tracker waits
    for the workers: they lived 40-50 s. An orphan is adopted by another process, so its
    parent's id changes: a daemon thread polls it and exits at once (the tracker follows).
    """
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _stop_loky_workers() -> None:
    """Shut down loky's reusable workers of this process, if it started any (none linger)."""
    try:
        from joblib.externals.loky import reusable_executor
    except ImportError:  # pragma: no cover
        return
    executor = getattr(reusable_executor, "_executor", None)
    if executor is not None:
        with contextlib.suppress(Exception):
            executor.shutdown(wait=True, kill_workers=True)


def execution(n_jobs=-1, backend: str = "loky", scheduler: str | None = None, timeout: float = 30.0):
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
    timeout : float, default 30
        Seconds to wait for the scheduler to answer; then :class:`SchedulerUnreachable`.

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
    return _execution(n_jobs, backend, scheduler, float(timeout))   # checked now, not at `with`


@contextlib.contextmanager
def _execution(n_jobs: int, backend: str, scheduler: str | None, timeout: float):
    from joblib import parallel_config

    if backend == "loky":
        # idle workers exit after 10 s (loky's default: 300 s), and at once if this process dies
        with parallel_config(backend="loky", n_jobs=int(n_jobs), inner_max_num_threads=1,
                             idle_worker_timeout=10, initializer=_exit_with_parent, initargs=(os.getpid(),)):
            try:
                yield
            finally:
                _stop_loky_workers()
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
            _probe_scheduler(str(scheduler), float(timeout))
            try:
                client = Client(scheduler, set_as_default=False, timeout=float(timeout))
            except (OSError, TimeoutError, ValueError) as exc:
                raise SchedulerUnreachable(
                    f"no dask scheduler answered at {scheduler} within {float(timeout):g} s "
                    f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'no reply'}); "
                    "check the address (a scheduler listens on port 8786 by default, its dashboard "
                    "on 8787) or raise --timeout") from None
            stack.enter_context(client)
        with parallel_config(backend="dask", client=client):
            yield
