"""`make solutions` (issue 30): solution notebooks from the reference solutions, kept off the site."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import nbformat

from ppdm_edu.exercises import EXERCISES, check

ROOT = Path(__file__).resolve().parents[1]


def course_stems():
    sys.path.insert(0, str(ROOT / "site"))
    try:
        from _course import course_stems as stems
    finally:
        sys.path.remove(str(ROOT / "site"))
    return stems()


def test_solutions_fill_every_checked_exercise_and_pass_the_checker(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "site" / "solutions.py"), "--out", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    checked = {i for i, ex in EXERCISES.items() if ex.kind != "rubric"}
    seen = set()
    for path in sorted(tmp_path.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell, nxt in zip(nb.cells, nb.cells[1:]):
            m = re.search(r'check\("(\d\d\.\d+)"', nxt.source) if nxt.cell_type == "code" else None
            if m and m.group(1) in checked:
                line = re.search(r"^answer = (.*?)  # reference solution", cell.source, re.M)
                assert line, f"{m.group(1)} not filled: {cell.source!r}"
                assert check(m.group(1), ast.literal_eval(line.group(1))).correct, m.group(1)
                seen.add(m.group(1))
        assert any("Quiz answers (lecturers)" in c.source for c in nb.cells), path.name
    assert seen == checked
    # one solution notebook per course notebook (the site's "Notebooks" list, 00 .. 08)
    assert sorted(p.stem for p in tmp_path.glob("*.ipynb")) == sorted(course_stems())
    assert "08_choosing_a_mechanism" in course_stems()


def test_solutions_are_git_ignored_and_not_on_the_site():
    assert re.search(r"^solutions/$", (ROOT / ".gitignore").read_text(), re.M)
    build = (ROOT / "site" / "build.py").read_text() + (ROOT / "site" / "lite.py").read_text()
    assert "solutions" not in build
