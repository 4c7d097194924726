"""The output folder of a reproduction run: one run at a time, the old files or the new, clear faults.

``python -m ppdm_edu reproduce ... --out OUT`` runs inside :func:`output_lock` and
:func:`staged_output`:

* :func:`output_lock` takes an exclusive lock on ``OUT/.lock`` (``filelock``: ``flock``, released by
  the operating system when the process ends, even on SIGKILL). A second run into the same ``OUT``
  stops at once with :class:`OutputBusy`, which names the other run's process id. A ``.lock`` that
  is a symbolic link, not a regular file, or a second name of another file (a hard link) is
  refused (:class:`UnsafeLock`): the run never writes through it.
* :func:`staged_output` gives the run a folder inside ``OUT`` (``OUT/.staging-PID``, on ``OUT``'s
  file system). When every file is written there, it is published in one step: on Linux the staged
  folder goes beside ``OUT`` (``.NAME.publish-PID``), gets a hard link to every entry of ``OUT`` it
  does not replace (other reproductions' files, ``.checkpoints``) and is exchanged with ``OUT`` by
  one ``renameat2(RENAME_EXCHANGE)``: a reader of ``OUT`` sees the old set or the new set, wherever
  the run is killed. Where that cannot be done (``OUT`` is a mount point, its parent is not
  writable, another system, a file system without hard links or that call), a journal
  ``OUT/.publishing`` is written first and the files are then moved in one rename each; a run
  killed during those moves leaves the journal beside a mix of files, and the next run completes
  the moves before anything else. Checkpoints go to ``OUT/.checkpoints`` while the run computes
  (each written atomically), so a re-run resumes.
* :func:`disk_fault` recognises "no space left" (``Errno 28``), "read-only file system"
  (``Errno 30``), a full quota and a permission refusal, for a one-line message.

Examples
--------
>>> from pathlib import Path
>>> import tempfile
>>> out = Path(tempfile.mkdtemp()) / "quick"
>>> with output_lock(out), staged_output(out) as stage:
...     _ = (stage / "table.csv").write_text("a,b\\n1,2\\n")
>>> sorted(p.name for p in out.iterdir())
['.lock', 'table.csv']
"""
from __future__ import annotations

import contextlib
import contextvars
import errno
import glob
import json
import os
import shutil
import stat
import sys
from pathlib import Path, PurePosixPath

__all__ = ["OutputBusy", "UnsafeLock", "output_lock", "staged_output", "published_path", "disk_fault",
           "DISK_ERRNOS"]

# (temporary folder, output folder) of the staged_output block this context is in
_STAGE: contextvars.ContextVar = contextvars.ContextVar("ppdm_edu_stage", default=None)

#: Errors of the disk rather than of the program: no space, a read-only file system, a full
#: quota, no permission to write.
DISK_ERRNOS = frozenset(e for e in (errno.ENOSPC, errno.EROFS, getattr(errno, "EDQUOT", None),
                                    errno.EACCES, errno.EPERM) if e is not None)

LOCK_NAME = ".lock"
STAGE_PREFIX = ".staging-"
PUBLISH_INFIX = ".publish-"
JOURNAL = ".publishing"
# errors that mean "not this way here" for the one-step publication (the journal is used instead)
_CANNOT = frozenset({errno.EXDEV, errno.EPERM, errno.EACCES, errno.EMLINK, errno.ENOSYS, errno.EINVAL,
                     errno.EBUSY, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOTDIR})


class OutputBusy(RuntimeError):
    """Another run holds the lock on the output folder."""


class UnsafeLock(RuntimeError):
    """``OUT/.lock`` is a symbolic link, not a regular file or a hard link: never written through."""


def _step(done: str) -> None:
    """Called after each step of a publication (a test kills the process here, step by step)."""


# -- one run at a time -----------------------------------------------------------------------------
def _refuse_unsafe(path: Path) -> None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
        what = ("is a hard link (a second name of another file)" if stat.S_ISREG(st.st_mode)
                else "is not a regular file (a symbolic link, a folder or a device)")
        raise UnsafeLock(f"{path} {what}: a run never writes through it; remove it and run again")


@contextlib.contextmanager
def output_lock(out_dir):
    """Hold ``OUT/.lock`` for the ``with`` block; raise :class:`OutputBusy` if another run has it.

    Parameters
    ----------
    out_dir : str or path
        The output folder (created if missing).

    Yields
    ------
    pathlib.Path
        The lock file.

    Raises
    ------
    OutputBusy
        If another process holds the lock (the message names its process id).
    UnsafeLock
        If ``OUT/.lock`` is a symbolic link, not a regular file, or a hard link (nothing is written
        through it).
    OSError
        If the folder cannot be created or the lock file not written (see :func:`disk_fault`).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK_NAME
    _refuse_unsafe(path)   # before the lock library opens it
    if sys.platform == "emscripten":  # pragma: no cover - one run per browser tab, no processes
        yield path
        return
    from filelock import FileLock, Timeout

    lock = FileLock(path)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise OutputBusy(f"another run (process {_holder(path)}) is writing into {out} (it holds {path}); "
                         "wait for it to finish, or choose another --out") from None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO):   # swapped in since the check
            raise UnsafeLock(f"{path} is not a regular file: a run never writes through it; remove it and "
                             "run again") from None
        raise
    try:
        _refuse_unsafe(path)   # held now: the file it names is the one locked
        with contextlib.suppress(OSError):   # the process id is for the message of a second run only
            fd = os.open(path, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, "w") as fh:
                fh.write(str(os.getpid()))
        yield path
    finally:
        lock.release()


def _holder(path: Path) -> str:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd) as fh:
            return fh.read(32).strip() or "unknown"
    return "unknown"


# -- the old files or the new ------------------------------------------------------------------------
@contextlib.contextmanager
def staged_output(out_dir):
    """A temporary folder inside ``out_dir`` for the run's files, published when the block ends.

    Inside the block, :func:`~ppdm_edu.experiments.report.checkpoint_folder` of the temporary
    folder is ``out_dir/.checkpoints``. When the block ends without an exception, the files of the
    temporary folder replace their namesakes in ``out_dir`` all at once (see the module's
    description); with an exception, ``out_dir`` is left as it was. First, what a killed run left
    is finished (an interrupted journal) or removed (its temporary folders). Hold
    :func:`output_lock` around it.

    Parameters
    ----------
    out_dir : str or path
        The output folder (created if missing).

    Yields
    ------
    pathlib.Path
        The temporary folder: pass it as the reproduction's ``out_dir``.
    """
    out = Path(out_dir).absolute()
    out.mkdir(parents=True, exist_ok=True)
    recover(out)
    stage = out / f"{STAGE_PREFIX}{os.getpid()}"
    stage.mkdir()
    try:
        token = _STAGE.set((stage, out))
        try:
            yield stage
        finally:
            _STAGE.reset(token)
        _publish(stage, out)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def recover(out: Path) -> None:
    """Finish the moves of a journal a killed run left in ``out``; remove its temporary folders."""
    _roll_forward(out)
    real = out.resolve()
    for stale in [*out.glob(f"{STAGE_PREFIX}*"),
                  *real.parent.glob(f".{glob.escape(real.name)}{PUBLISH_INFIX}*")]:
        shutil.rmtree(stale, ignore_errors=True)


def _publish(stage: Path, out: Path) -> None:
    files = sorted(p.relative_to(stage).as_posix() for p in stage.rglob("*") if not p.is_dir())
    real = out.resolve()
    beside = real.parent / f".{real.name}{PUBLISH_INFIX}{os.getpid()}"
    try:
        if _swap_in(stage, beside, real):
            return
        _move_in(beside if beside.is_dir() else real / stage.name, files, real)
    finally:
        shutil.rmtree(beside, ignore_errors=True)


def _swap_in(stage: Path, beside: Path, out: Path) -> bool:
    """Publish in one step (see the module's description); False where it cannot be done."""
    if sys.platform != "linux" or out.parent == out:
        return False
    try:
        os.rename(stage, beside)
        _step("staged folder moved beside OUT")
        with contextlib.suppress(OSError):
            shutil.copystat(out, beside)
        for entry in sorted(os.scandir(out), key=lambda e: e.name):
            if entry.name != LOCK_NAME and not entry.name.startswith((STAGE_PREFIX, JOURNAL)):
                _link_missing(entry, beside / entry.name)
                _step(f"linked {entry.name}")
        # a lock file of its own (not a link to the one held: the next run would see a hard link)
        os.close(os.open(beside / LOCK_NAME, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        if not _exchange(beside, out):
            return False
    except OSError as exc:
        if exc.errno in _CANNOT:
            return False
        raise
    _step("exchanged")
    return True


def _link_missing(entry: os.DirEntry, target: Path) -> None:
    """Hard-link ``entry`` (a file, or a folder's files, recursively) to ``target`` where it is missing."""
    if entry.is_dir(follow_symlinks=False):
        if not os.path.lexists(target):
            target.mkdir()
            shutil.copystat(entry.path, target)
        if target.is_dir() and not target.is_symlink():
            for inner in os.scandir(entry.path):
                _link_missing(inner, target / inner.name)
    elif not os.path.lexists(target):
        os.link(entry.path, target, follow_symlinks=False)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directory entries atomically (Linux ``renameat2(..., RENAME_EXCHANGE)``, glibc 2.28+)."""
    import ctypes

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    raise OSError(code, os.strerror(code), str(b))


def _move_in(source: Path, files: list[str], out: Path) -> None:
    """The portable way: a journal naming the files, then one rename per file."""
    journal = out / JOURNAL
    tmp = journal.with_name(f"{JOURNAL}.tmp{os.getpid()}")
    try:
        tmp.write_text(json.dumps({"source": str(source), "files": files}))
        os.replace(tmp, journal)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    _step("journal written")
    _roll_forward(out)


def _roll_forward(out: Path) -> None:
    """Move in every file the journal ``out/.publishing`` still lists, then remove it."""
    out = out.resolve()
    journal = out / JOURNAL
    try:
        plan = json.loads(journal.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError) as exc:
        raise OSError(errno.EIO, f"unreadable journal of an interrupted run ({exc}); remove it, then run "
                                 "again (the files beside it may mix two runs)", str(journal)) from None
    source, files = _checked_plan(plan, out, journal)
    for name in files:
        if os.path.lexists(source / name):
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            os.replace(source / name, out / name)
            _step(f"moved {name}")
    journal.unlink()
    _step("journal removed")
    shutil.rmtree(source, ignore_errors=True)


def _checked_plan(plan, out: Path, journal: Path) -> tuple[Path, list[str]]:
    """The journal's source folder and files, if they are a staging folder of ``out`` and its files
    (a journal is data: it may move files only from there, only into ``out``)."""
    plan = plan if isinstance(plan, dict) else {}
    source = Path(plan["source"]) if isinstance(plan.get("source"), str) else Path()
    files: list[str] = [f for f in plan.get("files", []) if isinstance(f, str)] \
        if isinstance(plan.get("files"), list) else []
    ours = (source.parent == out and source.name.startswith(STAGE_PREFIX)
            or source.parent == out.parent and source.name.startswith(f".{out.name}{PUBLISH_INFIX}"))
    safe = len(files) == len(plan.get("files", ())) and all(
        f and not PurePosixPath(f).is_absolute() and ".." not in PurePosixPath(f).parts for f in files)
    if not (ours and safe):
        raise OSError(errno.EIO, "a journal that names files outside a staging folder of this output "
                                 "folder; remove it and run again", str(journal))
    return source, files


def published_path(path) -> Path:
    """Where a file of the temporary folder of :func:`staged_output` will be: in the output folder.

    Parameters
    ----------
    path : str or path
        A path, possibly inside the temporary folder of the active :func:`staged_output` block.

    Returns
    -------
    pathlib.Path
        The same path under the output folder; any other path unchanged.

    Examples
    --------
    >>> published_path("reports/quick/REPORT.md").as_posix()
    'reports/quick/REPORT.md'
    """
    path = Path(path)
    stage = _STAGE.get()
    if stage is not None:
        with contextlib.suppress(ValueError):
            return stage[1] / path.absolute().relative_to(stage[0])
    return path


def disk_fault(exc: BaseException) -> OSError | None:
    """The fault of the disk behind ``exc``, if there is one.

    Parameters
    ----------
    exc : BaseException
        An exception.

    Returns
    -------
    OSError or None
        ``exc`` (or the exception it was raised from: its ``__cause__`` or ``__context__``) if it
        is an ``OSError`` whose errno is in :data:`DISK_ERRNOS` (no space, read-only, quota,
        permission); None otherwise.

    Examples
    --------
    >>> disk_fault(OSError(28, "No space left on device")).errno
    28
    >>> disk_fault(ValueError("x")) is None
    True
    """
    seen = 0
    cur: BaseException | None = exc  # walks the chain down to None
    while cur is not None and seen < 10:
        if isinstance(cur, OSError) and cur.errno in DISK_ERRNOS:
            return cur
        cur = cur.__cause__ or cur.__context__
        seen += 1
    return None
