"""Checkpoints of finished tasks: one JSON file per task, used only if it fits, spot-checked on resume.

A checkpoint is named by the task's fingerprint: its key, function, arguments, the package version
and a hash of the source it runs (the function's module and every ``ppdm_edu`` module that module
imports, directly or not, read with :func:`ppdm_edu._imports.imports_in`), so a changed task is
recomputed, never resumed from numbers of other code, while an edit to one reproduction leaves the
checkpoints of the others usable (a ``--full`` run is 20 minutes on two cores).

A file is used only if it parses as strict JSON, names its task and fits the task's declared shape
(:mod:`~ppdm_edu.experiments.shapes`); else it is recomputed with a note naming it. Never pickle: a
pickle runs code when it is loaded, and the output folder may be writable by others.
"""
from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import importlib.util
import json
import math
import os
import sys
from pathlib import Path

from .._imports import imports_in
from .outputs import disk_fault
from .shapes import shape_of

FORMAT = "ppdm-edu task checkpoint"
VERSION = 2


class CheckpointError(ValueError):
    """A checkpoint file that does not parse or does not fit its task (the task is recomputed)."""


def _source(name: str) -> Path | None:
    """The source file of module ``name``; None for a name that is not a module of source."""
    module = sys.modules.get(name)
    if module is not None:
        origin = getattr(module, "__file__", None)
    else:
        try:   # imports the packages above it; a name inside a module ("a.b.func") is not found
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        origin = spec.origin if spec is not None else None
    return Path(origin) if origin and origin.endswith(".py") else None


def code_modules(module: str) -> dict[str, Path]:
    """``module`` and every ``ppdm_edu`` module it imports (directly or not), with their files.

    Every import statement counts, those inside functions too (they run when the task does), and
    the packages above an imported module (importing it runs their ``__init__``).
    """
    found: dict[str, Path] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        path = _source(name) if name not in found else None
        if path is None:
            continue
        found[name] = path
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        try:
            imported = imports_in(path.read_bytes(), package)
        except (OSError, SyntaxError, ValueError):
            continue
        for dotted in imported:
            parts = dotted.split(".")
            if parts[0] == "ppdm_edu":
                todo += [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return found


@functools.lru_cache(maxsize=None)
def _code_digest(module: str) -> str:
    digest = hashlib.sha256()
    for name, path in sorted(code_modules(module).items()):
        try:
            source = path.read_bytes()
        except OSError:
            source = b""
        digest.update(name.encode() + b"\0" + hashlib.sha256(source).digest())
    return digest.hexdigest()


def fingerprint(task) -> str:
    """24 hex digits of key, function, arguments, package version and code: the file's name."""
    from .. import __version__

    func = f"{task.func.__module__}.{task.func.__qualname__}"
    text = repr((tuple(task.key), func, sorted(task.kwargs.items()), __version__,
                 _code_digest(task.func.__module__)))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _reject_constant(name):
    raise CheckpointError(f"{name} is not JSON")


def _json_key(task) -> list:
    """The task's key as it reads back from JSON (tuples become lists; a non-finite float, such as
    the ε = ∞ of a noise-free row, becomes its name, which strict JSON can hold)."""

    def plain(part):
        if isinstance(part, (list, tuple)):
            return [plain(p) for p in part]
        return repr(part) if isinstance(part, float) and not math.isfinite(part) else part

    return json.loads(json.dumps(plain(list(task.key)), allow_nan=False))


class Store:
    """One JSON file per finished task under ``folder``, written atomically."""

    def __init__(self, folder):
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "the checkpoint folder is a file", str(self.folder))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.notes: list[str] = []
        old = sorted(self.folder.glob("*.pkl"))
        if old:
            self.note(f"{len(old)} pickle checkpoint(s) of an older version in {self.folder} are ignored "
                      "(a pickle can run code when loaded; they are never opened): delete them")

    def note(self, text: str) -> None:
        self.notes.append(text)
        print(f"note: {text}", file=sys.stderr, flush=True)

    def path(self, task) -> Path:
        return self.folder / f"{fingerprint(task)}.json"

    def load(self, task):
        """``(result, data)`` from a checkpoint that fits ``task`` (``data``: its JSON); else None."""
        path = self.path(task)
        if not os.path.lexists(path):
            return None
        try:
            if not path.is_file():
                raise CheckpointError("it is not a regular file")
            body = json.loads(path.read_text(encoding="utf-8"), parse_constant=_reject_constant)
            if not isinstance(body, dict) or body.get("format") != FORMAT:
                raise CheckpointError("not a ppdm-edu task checkpoint")
            if body.get("version") != VERSION:
                raise CheckpointError(f"format version {body.get('version')!r}, expected {VERSION}")
            if body.get("key") != _json_key(task):
                raise CheckpointError("it belongs to another task")
            data = body.get("result")
            return shape_of(task.func, task.kwargs).load(data), data
        except (OSError, ValueError, RecursionError) as exc:  # ShapeError, CheckpointError, bad UTF-8
            self.note(f"checkpoint {path} is unusable ({type(exc).__name__}: {str(exc)[:160]}); "
                      f"recomputing task {task.name}")
            return None

    def save(self, task, result) -> None:
        try:
            body = {"format": FORMAT, "version": VERSION, "key": _json_key(task), "task": task.name,
                    "result": shape_of(task.func, task.kwargs).dump(result)}
            text = json.dumps(body, allow_nan=False, separators=(",", ":"))
        except (ValueError, TypeError) as exc:   # ShapeError: the result does not fit its shape
            self.note(f"task {task.name} is not checkpointed: its result does not fit its shape ({exc})")
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
            self.note(f"task {task.name} is not checkpointed: cannot write {path} ({exc.strerror or exc})")
        finally:  # a full disk must not leave a half-written file behind
            with contextlib.suppress(OSError):
                tmp.unlink()

    def difference(self, task, data, recomputed) -> str | None:
        """Where the checkpoint's ``data`` and the result recomputed now differ (None if they agree)."""
        shape = shape_of(task.func, task.kwargs)
        try:
            fresh = shape.dump(recomputed)
        except (ValueError, TypeError) as exc:
            return f"the recomputed result does not fit its shape ({exc})"
        return shape.difference(data, fresh)
