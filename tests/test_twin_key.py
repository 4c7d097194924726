"""The twins' cache key (``site/_twins.py``: :func:`twin_key` over :func:`sources_hash` and
:func:`package_hash_of_sources`): a cached twin is reused only while everything that made it is
the same. The key changes with the notebook's call (its keyword arguments), the panel's class,
the package's sources (and matplotlib, which draws the frames) and the grid's rules; it stays the
same when nothing of these changes, whatever the order of the arguments or where the checkout
lies."""
from __future__ import annotations

import copy
import dataclasses
import json
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "site"))
import _twins  # noqa: E402

sys.path.remove(str(REPO / "site"))

NOTEBOOK = REPO / "notebooks" / "03_randomized_response.ipynb"
PACKAGE_HASH = "0" * 64  # any package hash: the sources' part is tested on its own below


@pytest.fixture(scope="module")
def notebook() -> dict:
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))


def _only_panel(nb: dict) -> _twins.Found:
    (found,) = _twins.find_panels(nb)
    return found


def _with_call(nb: dict, old: str, new: str) -> dict:
    """The notebook with its panel cell's call edited (``old`` -> ``new`` in the source)."""
    nb = copy.deepcopy(nb)
    cell = nb["cells"][_only_panel(nb).cell]
    source = "".join(cell["source"])
    assert source.count(old) == 1, source
    cell["source"] = source.replace(old, new)
    return nb


def test_the_key_is_read_from_the_notebook_call(notebook):
    found = _only_panel(notebook)
    assert found.cls.__name__ == "WarnerSurveyPanel" and found.kwargs == {"theta": 0.7, "n": 200}
    key = _twins.twin_key(found, PACKAGE_HASH)
    assert key == _twins.twin_key(_only_panel(copy.deepcopy(notebook)), PACKAGE_HASH)  # stable
    # the same arguments in another order (or spaced otherwise) are the same call
    same = _with_call(notebook, "WarnerSurveyPanel(theta=0.7, n=200)", "WarnerSurveyPanel(n=200,  theta=0.7)")
    assert _twins.twin_key(_only_panel(same), PACKAGE_HASH) == key
    # another value of one argument, or one more argument, is another twin
    other_n = _with_call(notebook, "n=200", "n=300")
    assert _twins.twin_key(_only_panel(other_n), PACKAGE_HASH) != key
    more = _with_call(notebook, "n=200)", "n=200, pi=0.2)")
    assert _twins.twin_key(_only_panel(more), PACKAGE_HASH) != key


def test_the_key_changes_with_the_panel_class(notebook):
    found = _only_panel(notebook)
    other = next(cls for cls in _twins.all_panels().values() if cls is not found.cls)
    key = _twins.twin_key(found, PACKAGE_HASH)
    assert _twins.twin_key(dataclasses.replace(found, cls=other), PACKAGE_HASH) != key
    # a class of the same name in another module is another panel
    renamed = type(found.cls.__name__, (found.cls,), {"__module__": "elsewhere"})
    assert _twins.twin_key(dataclasses.replace(found, cls=renamed), PACKAGE_HASH) != key


def test_the_key_changes_with_the_grid_rules(notebook, monkeypatch):
    found = _only_panel(notebook)
    key = _twins.twin_key(found, PACKAGE_HASH)
    monkeypatch.setattr(_twins, "BUDGET", _twins.BUDGET + 1)
    assert _twins.twin_key(found, PACKAGE_HASH) != key
    monkeypatch.setattr(_twins, "BUDGET", _twins.BUDGET - 1)
    assert _twins.twin_key(found, PACKAGE_HASH) == key
    monkeypatch.setattr(_twins, "COARSE", _twins.COARSE + 2)
    assert _twins.twin_key(found, PACKAGE_HASH) != key


def test_the_key_changes_with_the_package_hash(notebook):
    found = _only_panel(notebook)
    assert _twins.twin_key(found, "1" * 64) != _twins.twin_key(found, PACKAGE_HASH)


def _sources_of(package: Path, monkeypatch) -> str:
    """sources_hash() as it is for the ppdm_edu package found at ``package``."""
    import ppdm_edu

    monkeypatch.setattr(ppdm_edu, "__file__", str(package / "__init__.py"))
    return _twins.sources_hash()


def test_the_sources_hash_follows_the_package_content_not_its_place(tmp_path, monkeypatch):
    ignore = shutil.ignore_patterns("__pycache__")
    first = shutil.copytree(REPO / "ppdm_edu", tmp_path / "a" / "ppdm_edu", ignore=ignore)
    second = shutil.copytree(REPO / "ppdm_edu", tmp_path / "b" / "ppdm_edu", ignore=ignore)
    sources = _sources_of(first, monkeypatch)
    assert _sources_of(second, monkeypatch) == sources          # a checkout elsewhere: same key
    (second / "__pycache__").mkdir(exist_ok=True)
    (second / "__pycache__" / "x.pyc").write_bytes(b"compiled")
    assert _sources_of(second, monkeypatch) == sources          # compiled files are not sources
    module = second / "randomized_response.py"
    module.write_text(module.read_text(encoding="utf-8") + "\n# one more line\n", encoding="utf-8")
    changed = _sources_of(second, monkeypatch)
    assert changed != sources                                   # one edited module: new twins
    (second / "new_module.py").write_text("", encoding="utf-8")
    assert _sources_of(second, monkeypatch) != changed          # a new (even empty) module too


def test_the_frames_key_changes_with_matplotlib(monkeypatch):
    import matplotlib

    sources = "2" * 64
    before = _twins.package_hash_of_sources(sources)
    assert _twins.package_hash_of_sources(sources) == before
    monkeypatch.setattr(matplotlib, "__version__", matplotlib.__version__ + ".post1")
    assert _twins.package_hash_of_sources(sources) != before
    assert _twins.package_hash_of_sources("3" * 64) != _twins.package_hash_of_sources(sources)
