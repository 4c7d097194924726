"""The output folder of a reproduction run: one run at a time, all files or none, clear faults.

``python -m ppdm_edu reproduce ... --out OUT`` runs inside :func:`output_lock` and
:func:`staged_output`:

* :func:`output_lock` takes an exclusive lock on ``OUT/.lock`` (``flock``; released by the
  operating system when the process ends, even on SIGKILL). A second run into the same ``OUT``
  stops at once with :class:`OutputBusy`, which names the other run's process id, instead of
  computing everything a second time beside it.
* :func:`staged_output` gives the run a temporary folder inside ``OUT`` (``OUT/.staging-PID``,
  on ``OUT``'s own file system, so that the final moves are renames even when ``OUT`` is a mount
  point). The CSVs, figures and reports are written there and moved into ``OUT``
  only when all of them are complete, so a full disk or a crash leaves ``OUT`` as it was (never
  new CSVs beside an old report); the temporary folder is removed on every path. Checkpoints
  still go to ``OUT/.checkpoints`` (each one is written atomically), so a re-run resumes.
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
import os
import shutil
import stat
import sys
from pathlib import Path

__all__ = ["OutputBusy", "UnsafeLock", "output_lock", "staged_output", "published_path", "disk_fault", "DISK_ERRNOS"]

# (temporary folder, output folder) of the staged_output block this context is in
_STAGE: contextvars.ContextVar = contextvars.ContextVar("ppdm_edu_stage", default=None)

#: Errors of the disk rather than of the program: no space, a read-only file system, a full
#: quota, no permission to write.
DISK_ERRNOS = frozenset(e for e in (errno.ENOSPC, errno.EROFS, getattr(errno, "EDQUOT", None),
                                    errno.EACCES, errno.EPERM) if e is not None)

LOCK_NAME = ".lock"


class OutputBusy(RuntimeError):
    """Another run holds the lock on the output folder."""


class UnsafeLock(RuntimeError):
    """``OUT/.lock`` is a symbolic link or not a regular file: it is not opened, its target untouched."""


def _open_lock(path: Path):
    """Open ``path`` for reading and writing without following a link (its target is never touched)."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    refused = UnsafeLock(f"{path} is not a regular file (a symbolic link, a folder or a device): a run "
                         "never writes through it; remove it and run again")
    if path.is_symlink():          # where O_NOFOLLOW does not exist (Windows)
        raise refused
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO):
            raise refused from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):    # a FIFO opened without blocking
        os.close(fd)
        raise refused
    return os.fdopen(fd, "r+", encoding="utf-8")


def _lock_file(fh) -> bool:
    """Try to lock ``fh`` exclusively without waiting; True if this process now holds it."""
    if sys.platform == "emscripten":  # pragma: no cover - one run per browser tab, no processes
        return True
    # sys.platform tests (not try/except ImportError) so that mypy checks each branch only on
    # the platform that has its module: fcntl everywhere but Windows, msvcrt only there
    if sys.platform == "win32":  # pragma: no cover - Windows
        import msvcrt

        try:
            msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


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
        If ``OUT/.lock`` is a symbolic link or not a regular file (nothing is written through it).
    OSError
        If the folder cannot be created or the lock file not written (see :func:`disk_fault`).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK_NAME
    fh = _open_lock(path)  # held for the whole block
    try:
        if not _lock_file(fh):
            fh.seek(0)
            holder = fh.read().strip() or "unknown"
            raise OutputBusy(f"another run (process {holder}) is writing into {out} (it holds {path}); "
                             "wait for it to finish, or choose another --out")
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        yield path
    finally:
        fh.close()  # closing releases the lock


STAGE_PREFIX = ".staging-"


def _stage_name(out: Path, pid: int | str) -> Path:
    # inside OUT, not beside it: os.replace cannot cross file systems (a mount point, a volume)
    return out / f"{STAGE_PREFIX}{pid}"


@contextlib.contextmanager
def staged_output(out_dir):
    """A temporary folder inside ``out_dir`` for the run's files, moved into it when complete.

    Inside the block, :func:`~ppdm_edu.experiments.report.checkpoint_folder` of the temporary
    folder is ``out_dir/.checkpoints``. When the block ends without an exception, every file of
    the temporary folder replaces its namesake in ``out_dir``; with an exception, ``out_dir`` is
    left as it was. The temporary folder (and any left by a killed run into the same
    ``out_dir``) is removed in both cases. Hold :func:`output_lock` around it.

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
    for stale in out.glob(f"{STAGE_PREFIX}*"):  # left by a killed run (we hold the lock)
        shutil.rmtree(stale, ignore_errors=True)
    stage = _stage_name(out, os.getpid())
    stage.mkdir()
    try:
        token = _STAGE.set((stage, out))
        try:
            yield stage
        finally:
            _STAGE.reset(token)
        for path in sorted(stage.rglob("*")):
            if path.is_file():
                target = out / path.relative_to(stage)
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(path, target)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


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
