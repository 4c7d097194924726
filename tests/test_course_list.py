"""One list of the course's notebooks for `make site` and `make lite` (issue 30): an extra notebook
in notebooks/ (File -> Duplicate's *-Copy1.ipynb, a lecturer's copy) is left out of both, with a
printed note, instead of failing Sphinx's -W (toc.not_included) or being published."""
from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _load(name):
    sys.path.insert(0, str(ROOT / "site"))
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "site" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "site"))


def test_the_list_is_the_sites_notebook_toctree():
    course = _load("_course")
    stems = course.course_stems()
    committed = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert stems[:8] == committed[:8] and set(stems) <= set(committed)


def test_copies_are_left_out_of_site_and_lite_with_a_note(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", folder, ignore=shutil.ignore_patterns("*.md", ".ipynb_checkpoints"))
    shutil.copy(folder / "03_randomized_response.ipynb", folder / "03_randomized_response-Copy1.ipynb")
    shutil.copy(folder / "01_randomization_and_privacy.ipynb", folder / "01_lecturer_copy.ipynb")
    build = _load("build")
    lite = _load("lite")
    monkeypatch.setattr(build, "NOTEBOOKS", folder)
    stale = tmp_path / "site" / "01_lecturer_copy.ipynb"  # a copy an older build put there
    stale.parent.mkdir()
    stale.write_text("{}")
    copied = build.copy_notebooks(tmp_path / "site", twins_too=False)  # names only: no twin built
    note = capsys.readouterr().out
    assert "make site: not part of the course, left out: 01_lecturer_copy.ipynb, " \
           "03_randomized_response-Copy1.ipynb" in note
    names = sorted(p.name for p in (tmp_path / "site").glob("*.ipynb"))
    assert names == sorted(p.name for p in copied) and len(names) == len(_load("_course").course_stems())
    assert "03_randomized_response-Copy1.ipynb" not in names and not stale.exists()
    monkeypatch.setattr(lite, "REPO", tmp_path)
    lite_out = lite.copy_notebooks(tmp_path / "lite")
    assert "make lite: not part of the course, left out" in capsys.readouterr().out
    assert sorted(p.name for p in lite_out) == names
