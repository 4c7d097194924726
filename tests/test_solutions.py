"""`make solutions`: solution notebooks from the reference solutions, kept off the site; executed,
so every check cell shows ✔; answers written at the stated precision; the "why" parts keyed."""
from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest

from ppdm_edu.exercises import EXERCISES, QUIZZES, check
from ppdm_edu.exercises.checking import Precision

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")


def course_stems():
    sys.path.insert(0, str(ROOT / "site"))
    try:
        from _course import course_stems as stems
    finally:
        sys.path.remove(str(ROOT / "site"))
    return stems()


def _solutions():
    spec = importlib.util.spec_from_file_location("solutions", ROOT / "site" / "solutions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _filled(nb):
    """(exercise id, the literal written into its answer cell) for each filled answer cell."""
    for cell, nxt in zip(nb.cells, nb.cells[1:]):
        m = re.search(r'check\("(\d\d\.\d+)"', nxt.source) if nxt.cell_type == "code" else None
        line = re.search(r"^answer = (.*?)  # reference solution", cell.source, re.M) if m else None
        if line:
            yield m.group(1), ast.literal_eval(line.group(1))


def test_solutions_fill_every_checked_exercise_and_pass_the_checker(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "site" / "solutions.py"), "--no-execute", "--out", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    checked = {i for i, ex in EXERCISES.items() if ex.kind != "rubric"}
    implemented = set(_solutions().implementations_ids())
    seen, seen_impl = set(), set()
    for path in sorted(tmp_path.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for exercise_id, answer in _filled(nb):
            assert check(exercise_id, answer).correct, exercise_id
            seen.add(exercise_id)
        for cell, nxt in zip(nb.cells, nb.cells[1:]):  # "write it yourself": the reference function in place
            m = re.search(r'check\("(\d\d\.\d+)"', nxt.source) if nxt.cell_type == "code" else None
            if m and m.group(1) in implemented:
                assert "NotImplementedError" not in cell.source
                namespace: dict = {"np": np}
                exec(cell.source, namespace)
                assert check(m.group(1), namespace["answer"]).correct, m.group(1)
                seen_impl.add(m.group(1))
        assert any("Quiz answers (lecturers)" in c.source for c in nb.cells), path.name
        keys = {m for c in nb.cells if c.cell_type == "markdown"
                for m in re.findall(r"^\*\*Model answer (\d\d\.\d+) \(lecturers\)", c.source, re.M)}
        stem_ids = {i for i in EXERCISES if i[:2] == path.name[:2] and EXERCISES[i].model_answer}
        assert keys == stem_ids, path.name
    # every "write it yourself" exercise (02.5, 03.5, 07.7, 09.2, the wrap-ups ...) is filled and passes
    assert seen_impl == implemented and {"02.5", "03.5", "07.7"} <= implemented
    assert seen | implemented == checked
    # one solution notebook per course notebook (the site's "Notebooks" list, 00 .. 08)
    assert sorted(p.stem for p in tmp_path.glob("*.ipynb")) == sorted(course_stems())
    assert "08_choosing_a_mechanism" in course_stems()


def test_answers_are_written_at_the_stated_precision():
    solutions = _solutions()
    assert solutions.written_answer("01.1") == 4.8             # not 4.839414490382867
    assert solutions.written_answer("01.3") == 3.0             # not 3.0000000000000004 (1 decimal asked)
    assert solutions.written_answer("07.4") == 5               # exact: a whole number
    seed, leaves_unpruned, leaves_pruned, *accuracies = solutions.written_answer("04.1")
    assert all(isinstance(n, int) for n in (seed, leaves_unpruned, leaves_pruned))  # not 2181.0 leaves
    assert all(len(repr(a).split(".")[-1]) <= 3 for a in accuracies)
    for exercise_id, ex in EXERCISES.items():
        if ex.kind == "rubric" or exercise_id in solutions.implementations_ids():
            continue
        answer = solutions.written_answer(exercise_id)
        assert check(exercise_id, answer).correct, (exercise_id, answer)
        for value, prec in zip(answer if isinstance(answer, tuple) else (answer,),
                               ex.precision if isinstance(ex.precision, tuple) else (ex.precision,) * 20):
            if isinstance(value, float) and isinstance(prec, Precision) and prec.decimals is not None:
                assert value == round(value, prec.decimals), (exercise_id, value)


def test_quiz_key_gives_letters_and_ranges():
    key = _solutions().quiz_key("03")
    for q in QUIZZES["03"]:
        assert q.id in key
    assert "03.q6: 0.40" in key


def test_make_solutions_executes_a_notebook_so_its_check_cells_show_a_tick(tmp_path):
    # one small notebook only (all nine take long): 00 has two checked exercises and a rubric
    out = subprocess.run([sys.executable, str(ROOT / "site" / "solutions.py"), "--only", "00", "--out", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    assert "2 check cells ✔" in out.stdout
    nb = nbformat.read(tmp_path / "00_start_here.ipynb", as_version=4)
    verdicts = _solutions().verdicts(nb)
    assert verdicts and "not yet" not in verdicts.values()
    assert sum(v == "correct" for v in verdicts.values()) == sum(
        1 for i, ex in EXERCISES.items() if i.startswith("00.") and ex.kind != "rubric")
    assert [p.name for p in tmp_path.glob("*.ipynb")] == ["00_start_here.ipynb"]


def test_solutions_are_git_ignored_and_not_on_the_site():
    assert re.search(r"^solutions/$", (ROOT / ".gitignore").read_text(), re.M)
    build = (ROOT / "site" / "build.py").read_text() + (ROOT / "site" / "lite.py").read_text()
    assert "solutions" not in build
