"""Build the course as a JupyterLite site: ``python site/lite.py`` (what ``make lite`` runs).

Output: ``site/_build/html/lite`` (git-ignored), next to the website, whose notebook pages link
to it ("JupyterLite" launch button). Publish ``site/_build/html`` as a whole.

1. ``pip wheel --no-deps .`` builds the ``ppdm_edu`` wheel; ``pip download`` fetches the pure-Python
   wheels Pyodide does not ship (``EXTRA_WHEELS``: seaborn, ipywidgets, comm, jupyterlab_widgets,
   anywidget and psygnal),
   each pinned by version and SHA-256 and checked (pip's hash-checking mode, then here). All three go into the lite
   folder's ``pypi/``: JupyterLite copies them into the site and indexes them in
   ``pypi/all.json``, which ``jupyter-lite.json`` lists under ``pipliteUrls``: the in-browser
   installer (piplite) finds ``ppdm-edu`` there first.
2. The eight notebooks are copied with ONE cell added at the top (here, at build time; the
   committed notebooks are never edited) that installs the package when the kernel is Pyodide
   (``sys.platform == "emscripten"``). ``reports/full`` is copied too: notebooks 04-06 read it.
3. ``jupyter lite build``. The Pyodide runtime itself is NOT part of the build: the kernel
   loads it from its CDN when a notebook starts (the only network access of the lite site).
   ``site/_lite_offline.py`` then adds a script to every page that says so in words, and what to
   do, when Pyodide cannot be fetched (offline); ``site/_lite_deps.py`` checks first that
   Pyodide's lock plus the wheels served here cover every import.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))  # the site's own helper modules (site/_*.py)
import _course  # noqa: E402  (issue 30: the course's notebooks, one list for site and lite)

WORK = HERE / "_build" / "lite-src"
OUT = HERE / "_build" / "html" / "lite"
from _lite_wheels import EXTRA_WHEELS  # noqa: E402  (site/: the pinned wheels)


class WheelMismatch(RuntimeError):
    """A downloaded wheel is not the pinned one (version or SHA-256)."""

INSTALL_CELL_SOURCE = '''\
# JupyterLite only (added when the site was built; the notebook in the repository has no such
# cell): Python runs in your browser (Pyodide), so install the course's package from this site.
import sys

if sys.platform == "emscripten":
    import piplite

    await piplite.install(["ppdm-edu", "ipywidgets", "anywidget"])'''


def install_cell() -> dict:
    return {"cell_type": "code", "execution_count": None, "id": "jupyterlite-install",
            "metadata": {"tags": ["jupyterlite-install"], "slideshow": {"slide_type": "skip"}},
            "outputs": [], "source": INSTALL_CELL_SOURCE.splitlines(keepends=True)}


def copy_notebooks(dest: Path) -> list[Path]:
    """The committed notebooks, outputs and all, with the install cell first and no widget state."""
    dest.mkdir(parents=True, exist_ok=True)
    out = []
    for nb_path in _course.course_notebooks(REPO / "notebooks", build="make lite"):
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        nb.get("metadata", {}).pop("widgets", None)
        nb["cells"].insert(0, install_cell())
        target = dest / nb_path.name
        target.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        out.append(target)
    return out


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


def build_wheels(dest: Path) -> list[Path]:
    dest.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    scratch = REPO / "build"  # an old setuptools build's scratch folder: never left behind by this one
    had_scratch = scratch.exists()
    try:
        subprocess.run([*pip, "wheel", "--no-deps", "-w", str(dest), str(REPO)], check=True)
    finally:
        if not had_scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    download_pinned(dest, pip)
    return sorted(dest.glob("*.whl"))


def storage_name(contents: Path) -> str:
    """The browser-storage name of this build's files: ``ppdm-edu-`` and a digest of the
    notebooks and reports it serves. JupyterLite shows a stored copy of a file in place of the
    served one (jupyterlite#1067); a new name for new content means a course update always
    reaches the student, whose edits of the previous version stay under the previous name."""
    digest = hashlib.sha256()
    for path in sorted(p for p in contents.rglob("*") if p.is_file()):
        digest.update(path.relative_to(contents).as_posix().encode())
        digest.update(path.read_bytes())
    return f"ppdm-edu-{digest.hexdigest()[:16]}"


def write_runtime_config(lite_dir: Path, contents: Path) -> Path:
    """``jupyter-lite.json`` of the lite folder: the versioned contents storage name."""
    path = lite_dir / "jupyter-lite.json"
    path.write_text(json.dumps({
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {"contentsStorageName": storage_name(contents)},
    }, indent=2))
    return path


def sha256_of(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_wheel(path: Path, sha256: str) -> None:
    """Raise WheelMismatch unless the file's SHA-256 is the pinned one."""
    actual = sha256_of(path)
    if actual != sha256:
        raise WheelMismatch(f"{path.name} has SHA-256 {actual}, but site/lite.py pins {sha256}: it is "
                            "not the wheel that was reviewed (delete it; update EXTRA_WHEELS only "
                            "after checking the digest on PyPI)")


def download_pinned(dest: Path, pip: list[str]) -> list[Path]:
    """pip download every EXTRA_WHEELS pin into ``dest`` (hash-checking mode), then check each file."""
    import tempfile

    for dist, (version, _) in EXTRA_WHEELS.items():
        if _version(dist) != version:
            raise WheelMismatch(f"{dist} {_version(dist)} is installed but site/lite.py pins {version}: "
                                "update the pin (version and SHA-256) so the browser runs what the tests ran")
    lines = [f"{dist}=={version} --hash=sha256:{sha}" for dist, (version, sha) in EXTRA_WHEELS.items()]
    with tempfile.TemporaryDirectory() as tmp:   # not in dest: every file there is served
        req = Path(tmp) / "pinned-wheels.txt"
        req.write_text("\n".join(lines) + "\n")
        subprocess.run([*pip, "download", "--no-deps", "--only-binary=:all:", "--require-hashes",
                        "-d", str(dest), "-r", str(req)], check=True)
    wheels = []
    for dist, (version, sha) in EXTRA_WHEELS.items():
        found = sorted(dest.glob(f"{dist.replace('-', '_')}-{version}-*.whl"))
        if len(found) != 1:
            raise WheelMismatch(f"expected one wheel of {dist} {version} in {dest}, found {len(found)}")
        check_wheel(found[0], sha)
        wheels.append(found[0])
    return wheels


def build(out: Path = OUT) -> Path:
    import _lite_deps  # site/, next to this file

    missing = _lite_deps.problems()
    if missing:
        sys.exit("the lite site would lack packages:\n" + "\n".join(missing))
    if WORK.exists():
        shutil.rmtree(WORK)
    contents = WORK / "contents"
    copy_notebooks(contents / "notebooks")
    shutil.copytree(REPO / "reports" / "full", contents / "reports" / "full",
                    ignore=shutil.ignore_patterns(".*"))  # not the checkpoints of a local run
    build_wheels(WORK / "pypi")
    (WORK / "jupyter_lite_config.json").write_text(json.dumps({
        "LiteBuildConfig": {"no_sourcemaps": True},
    }, indent=2))
    write_runtime_config(WORK, contents)
    if out.exists():
        shutil.rmtree(out)
    subprocess.run([sys.executable, "-m", "jupyter", "lite", "build", "--lite-dir", str(WORK),
                    "--contents", str(contents), "--output-dir", str(out)],
                   check=True, cwd=WORK)
    import _lite_offline  # site/: a banner when Pyodide cannot be fetched (offline)

    _lite_offline.inject(out)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=Path, default=OUT)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    out = build(args.output_dir)
    print(f"JupyterLite built in {time.perf_counter() - t0:.0f} s: {out / 'lab' / 'index.html'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
