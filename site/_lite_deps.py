"""Does the JupyterLite site have every package the course imports? (issue 25 §1)

In JupyterLite, Python is Pyodide: a package comes either from the Pyodide distribution that the
pinned ``jupyterlite-pyodide-kernel`` loads (its ``pyodide-lock.json`` lists every package and
version it has), or from the wheels the lite site serves itself (``site/lite.py``:
``EXTRA_WHEELS`` and the ``ppdm-edu`` wheel, plus the few wheels the kernel extension ships:
``ipykernel``, ``widgetsnbextension``, ...). Anything else would be fetched from PyPI at run
time, or fail.

:func:`problems` lists what is neither, or is there in a version that does not satisfy
``pyproject.toml``'s bounds (and the bounds of the package that needs it). It starts from every
module that ``ppdm_edu`` and the notebooks import (read from the source, so a new import is
seen), maps each to its distribution, and follows each served wheel's own requirements, with
the environment markers evaluated as Pyodide would (``sys_platform == "emscripten"``).

The lock is vendored, trimmed to name -> version/depends, in ``site/pyodide/`` (the tests must not
need the network). ``python site/_lite_deps.py --refresh`` rebuilds it with ``npm pack
pyodide@VERSION`` for the version the installed kernel names.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))  # this checkout's ppdm_edu, not another installed copy

from ppdm_edu._imports import imports_in  # noqa: E402

LOCK_DIR = HERE / "pyodide"
# the version the pinned jupyterlite-pyodide-kernel (pyproject.toml's site extra) loads, from its
# jupyterlite_pyodide_kernel.constants.PYODIDE_VERSION; test_lite_dependencies checks they agree
PYODIDE_VERSION = "314.0.6"
LOCK = LOCK_DIR / f"pyodide-lock-{PYODIDE_VERSION}.json"

# imported somewhere, but never where JupyterLite runs the course, with the reason
NOT_IN_THE_BROWSER = {
    "dask": "ppdm_edu.experiments.tasks.execution(backend='dask') only: the [cluster] extra, a "
            "cluster reached through sockets, which Pyodide has not",
    "distributed": "ppdm_edu.experiments._backends only (dask's scheduler probe), as dask",
    "filelock": "ppdm_edu.experiments.outputs.output_lock only, imported inside it: the command line's "
                "lock on --out (a dependency only where sys_platform != 'emscripten')",
    "opendp": "ppdm_edu.audit.library only, imported inside its functions: the [audit-lib] extra "
              "(a compiled Rust library with no Pyodide build); the notebooks do not call it",
}


def pyodide_environment(python: str) -> dict:
    """The environment markers of Pyodide (PEP 508), for its Python version ``python``."""
    return {"python_version": ".".join(python.split(".")[:2]), "python_full_version": python,
            "sys_platform": "emscripten", "platform_system": "Emscripten",
            "platform_machine": "wasm32", "os_name": "posix", "implementation_name": "cpython",
            "platform_python_implementation": "CPython", "extra": ""}


def _imports_of(source: str) -> set[str]:
    """The top-level modules a piece of Python imports (anywhere: inside functions too).

    Relative imports are left out: they stay inside ``ppdm_edu``, which the site serves.
    """
    # IPython magics and shell escapes are not Python
    lines = [line for line in source.split("\n") if not line.lstrip().startswith(("%", "!"))]
    return {name.split(".")[0] for name in imports_in("\n".join(lines))}


def imported_modules() -> dict[str, list[str]]:
    """Every third-party top-level module imported by ``ppdm_edu`` or a notebook -> where."""
    where: dict[str, set[str]] = {}
    sources = [(str(p.relative_to(REPO)), p.read_text(encoding="utf-8"))
               for p in sorted((REPO / "ppdm_edu").rglob("*.py"))]
    for nb in sorted((REPO / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        sources += [(f"notebooks/{nb.name}", "".join(c["source"]))
                    for c in cells if c["cell_type"] == "code"]
    for name, text in sources:
        for module in _imports_of(text):
            if module not in sys.stdlib_module_names and module != "ppdm_edu":
                where.setdefault(module, set()).add(name)
    return {m: sorted(w) for m, w in sorted(where.items())}


def pyproject_bounds() -> dict[str, SpecifierSet]:
    """The bounds pyproject.toml puts on each runtime dependency ([project] and the lab extra)."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib
    except ImportError:  # Python 3.10: read the two lists by hand
        tomllib = None
    if tomllib is not None:
        project = tomllib.loads(text)["project"]
        reqs = project["dependencies"] + project["optional-dependencies"]["lab"]
    else:
        reqs = re.findall(r'^\s*"([A-Za-z][^"]*)",', text, re.M)
    bounds = {}
    for r in reqs:
        req = Requirement(r)
        if not req.extras:  # "ppdm-edu[lab]" style self-references
            bounds[canonicalize_name(req.name)] = req.specifier
    return bounds


def load_lock(path: Path = LOCK) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def served_wheels() -> dict[str, str]:
    """Distributions site/lite.py serves as wheels -> the version it serves (the installed one)."""
    sys.path.insert(0, str(HERE))
    try:
        from _lite_wheels import EXTRA_WHEELS
    finally:
        sys.path.remove(str(HERE))
    return {canonicalize_name(d): metadata.version(d) for d in EXTRA_WHEELS}


def problems(lock: dict | None = None, served: dict[str, str] | None = None) -> list[str]:
    """What the lite site would lack: one line per problem, empty when every import is covered.

    Parameters
    ----------
    lock : dict, optional
        The vendored lock (:func:`load_lock`).
    served : dict, optional
        Served wheels, name -> version (:func:`served_wheels`).

    Returns
    -------
    list of str
        Problems; empty when all is well.
    """
    lock = load_lock() if lock is None else lock
    served = served_wheels() if served is None else served
    in_lock = {canonicalize_name(n): p["version"] for n, p in lock["packages"].items()}
    from_kernel = {canonicalize_name(n): v for n, v in lock["kernel_wheels"].items()}
    env = pyodide_environment(lock["info"]["python"])
    bounds = pyproject_bounds()
    distributions = metadata.packages_distributions()
    out: list[str] = []
    # (distribution, specifier, who needs it)
    todo: list[tuple[str, SpecifierSet, str]] = []
    for module, where in imported_modules().items():
        if module in NOT_IN_THE_BROWSER:
            continue
        dists = distributions.get(module)
        if not dists:
            out.append(f"{module} (imported by {where[0]}) is not installed here: cannot tell its "
                       "distribution")
            continue
        name = canonicalize_name(dists[0])
        todo.append((name, bounds.get(name, SpecifierSet()), f"{where[0]} imports {module}"))
    seen: set[tuple[str, str]] = set()
    while todo:
        name, spec, why = todo.pop()
        if (name, str(spec)) in seen:
            continue
        seen.add((name, str(spec)))
        spec = spec & bounds.get(name, SpecifierSet())
        if name in served:
            version = served[name]
            if not spec.contains(version, prereleases=True):
                out.append(f"{name} {version} (served by site/lite.py) does not satisfy "
                           f"{spec} ({why})")
            for r in metadata.requires(name) or []:
                req = Requirement(r)
                if req.marker is None or req.marker.evaluate(env):
                    todo.append((canonicalize_name(req.name), req.specifier, f"{name} needs {r}"))
        elif name in in_lock or name in from_kernel:
            version, source = ((in_lock[name], f"Pyodide {lock['info']['version']}")
                               if name in in_lock else (from_kernel[name], "the kernel's wheels"))
            if not spec.contains(version, prereleases=True):
                out.append(f"{name} {version} ({source}) does not satisfy {spec} ({why}): serve "
                           "a wheel from site/lite.py (EXTRA_WHEELS)")
            # a locked package's own dependencies are in the lock (it is self-consistent)
        else:
            out.append(f"{name} is neither in Pyodide {lock['info']['version']} nor served by "
                       f"site/lite.py ({why}): add it to lite.EXTRA_WHEELS")
    return out


def refresh(version: str = PYODIDE_VERSION) -> Path:
    """Fetch ``pyodide-lock.json`` of npm ``pyodide@version`` and vendor it, trimmed."""
    import jupyterlite_pyodide_kernel.constants as kc

    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["npm", "pack", f"pyodide@{version}"], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        tgz = next(Path(tmp).glob("pyodide-*.tgz"))
        sha256 = hashlib.sha256(tgz.read_bytes()).hexdigest()
        with tarfile.open(tgz) as tar:
            full = json.load(tar.extractfile("package/pyodide-lock.json"))
    kernel_pypi = (Path(sys.prefix) / "share/jupyter/labextensions" / kc.PYODIDE_KERNEL_NPM_NAME
                   / "static/pypi/all.json")
    kernel = json.loads(kernel_pypi.read_text())
    trimmed = {
        "source": f"npm package pyodide@{version}, file package/pyodide-lock.json (npm pack "
                  f"pyodide@{version}), trimmed to name -> version and depends by "
                  "site/_lite_deps.py --refresh",
        "tarball_sha256": sha256,
        "info": {**full["info"], "version": version},
        "kernel_wheels": {n: max(r["releases"], key=lambda v: tuple(map(int, v.split("."))))
                          for n, r in kernel.items()},
        "kernel_wheels_source": f"jupyterlite-pyodide-kernel {metadata.version('jupyterlite-pyodide-kernel')}"
                                " labextension static/pypi/all.json",
        "packages": {n: {"version": p["version"], "depends": p.get("depends", [])}
                     for n, p in sorted(full["packages"].items())},
    }
    LOCK_DIR.mkdir(exist_ok=True)
    path = LOCK_DIR / f"pyodide-lock-{version}.json"
    path.write_text(json.dumps(trimmed, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refresh", action="store_true", help="vendor the lock again (npm)")
    args = parser.parse_args(argv)
    if args.refresh:
        print(refresh())
    found = problems()
    for line in found:
        print(line)
    print(f"{len(found)} problem(s) with the lite site's dependencies (Pyodide {PYODIDE_VERSION})")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
