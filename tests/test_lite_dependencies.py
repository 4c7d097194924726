"""Issue 25 §1: the JupyterLite site has every package the course imports, in a version that
satisfies pyproject.toml, either from the Pyodide that the pinned kernel loads (its vendored
``pyodide-lock.json``) or as a wheel that ``site/lite.py`` serves. No network: the lock is in
``site/pyodide/``."""
from __future__ import annotations

import copy
import importlib.util
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "site"))
import _lite_deps  # noqa: E402

sys.path.remove(str(REPO / "site"))


def test_every_import_is_in_pyodide_or_served_by_the_lite_site():
    assert _lite_deps.problems() == []


def test_the_check_sees_what_it_checks():
    """It follows the real imports (ipywidgets, seaborn, sklearn, ...) and fails when a served
    wheel goes missing or the lock's version breaks a bound."""
    modules = _lite_deps.imported_modules()
    for module in ("numpy", "scipy", "pandas", "matplotlib", "seaborn", "sklearn", "ipywidgets",
                   "tqdm", "joblib"):
        assert module in modules, module
    served = _lite_deps.served_wheels()
    assert {"seaborn", "ipywidgets"} <= set(served)
    without_seaborn = {k: v for k, v in served.items() if k != "seaborn"}
    assert any(line.startswith("seaborn is neither") for line in _lite_deps.problems(served=without_seaborn))
    # ipywidgets' own needs are followed: without comm, it is reported
    without_comm = {k: v for k, v in served.items() if k != "comm"}
    assert any("comm is neither" in line and "ipywidgets needs" in line
               for line in _lite_deps.problems(served=without_comm))
    old = copy.deepcopy(_lite_deps.load_lock())
    old["packages"]["numpy"]["version"] = "1.26.4"  # below pyproject's numpy>=2.0
    assert any(line.startswith("numpy 1.26.4") for line in _lite_deps.problems(lock=old))


def test_the_vendored_lock_is_the_one_the_pinned_kernel_loads():
    lock = _lite_deps.load_lock()
    assert lock["info"]["version"] == _lite_deps.PYODIDE_VERSION
    assert f"pyodide@{_lite_deps.PYODIDE_VERSION}" in lock["source"]
    assert len(lock["packages"]) > 100 and "numpy" in lock["packages"]
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    pinned = re.search(r'"jupyterlite-pyodide-kernel==([^"]+)"', pyproject)
    assert pinned, "pyproject.toml must pin jupyterlite-pyodide-kernel exactly"
    assert lock["kernel_wheels_source"].startswith(f"jupyterlite-pyodide-kernel {pinned[1]} ")
    if importlib.util.find_spec("jupyterlite_pyodide_kernel") is None:
        pytest.skip("jupyterlite-pyodide-kernel is not installed (the [site] extra)")
    from importlib.metadata import version

    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    assert version("jupyterlite-pyodide-kernel") == pinned[1]
    assert PYODIDE_VERSION == _lite_deps.PYODIDE_VERSION
