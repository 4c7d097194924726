"""The notebooks' quizzes (issue 30): 3-6 concept questions per notebook, checked in the notebook
(``quiz("NN")`` widgets, ``check("NN.qk", letter)``) and rendered for the site without a kernel
(site/_quiz.py) from the same data."""
from __future__ import annotations

import importlib.util
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

from ppdm_edu.exercises import QUIZZES, check, quiz
from ppdm_edu.exercises.quizzes import Question, quiz_ids

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0[0-8]_*.ipynb"))


def _site_quiz():
    spec = importlib.util.spec_from_file_location("_quiz", ROOT / "site" / "_quiz.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_notebook_has_three_to_six_questions():
    assert sorted(QUIZZES) == [f"0{i}" for i in range(9)]
    for nb, questions in QUIZZES.items():
        assert 3 <= len(questions) <= 6, nb
        assert [q.id for q in questions] == [f"{nb}.q{k}" for k in range(1, len(questions) + 1)]
    # the right answers are not always the same letter
    assert len({q.answer for qs in QUIZZES.values() for q in qs}) >= 4


@pytest.mark.parametrize("question_id", quiz_ids())
def test_right_letter_passes_wrong_letters_get_the_hint(question_id):
    nb = question_id[:2]
    q = next(q for q in QUIZZES[nb] if q.id == question_id)
    assert check(question_id, q.answer).correct
    assert check(question_id, q.answer.upper() + ")").correct
    assert check(question_id, q.options[q.letters.index(q.answer)]).correct  # the option's text
    for letter in q.letters.replace(q.answer, ""):
        result = check(question_id, letter)
        assert not result.correct and result.message == q.hint
        assert f"{q.answer})" not in result.message
    for bad in (None, 2, "z", ["a"], float("nan")):
        result = check(question_id, bad)
        assert not result.correct and str(result).count("not yet") == 1


def test_question_refuses_a_bad_definition():
    with pytest.raises(ValueError, match="answer must be one of"):
        Question("09.q1", "?", ("x", "y", "z"), "d", "", "")
    with pytest.raises(ValueError, match="3 to"):
        Question("09.q1", "?", ("x", "y"), "a", "", "")


def test_quiz_widget_checks_an_answer():
    box = quiz("03")
    first = box.children[0]
    prompt, radio, buttons, verdict = first.children
    assert "03.q1" in prompt.value and radio.description == "03.q1"
    radio.value = QUIZZES["03"][0].answer
    buttons.children[0].click()
    assert "correct" in verdict.value
    radio.value = next(x for x in "abcd" if x != QUIZZES["03"][0].answer)
    buttons.children[0].click()
    assert "not yet" in verdict.value
    with pytest.raises(ValueError, match="notebook must be one of"):
        quiz("09")


def test_quiz_without_ipywidgets_is_text(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # import ipywidgets -> ImportError
    monkeypatch.delitem(sys.modules, "ppdm_edu.widgets.quiz", raising=False)
    text = quiz("01")
    assert isinstance(text, str) and 'check("01.q1"' in text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_has_its_quiz_key_points_and_header(path):
    nb = nbformat.read(path, as_version=4)
    nn = path.name[:2]
    sources = [c.source for c in nb.cells]
    assert any(c.cell_type == "code" and f'quiz("{nn}")' in c.source for c in nb.cells)
    header = next(s for s in sources if s.startswith("**Before you start.**"))
    assert sources.index(header) == 1
    assert "*Prerequisites:*" in header and "*Self-study time:*" in header and "](README.md)" in header
    assert "Learning goals" in sources[0] or "What you will learn" in sources[0]
    assert any("## Key points" in s for s in sources)


class _Form(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def test_site_quiz_html_is_accessible_and_from_the_same_data():
    site_quiz = _site_quiz()
    page = site_quiz.quiz_html("03")
    parser = _Form()
    parser.feed(page)
    fieldsets = [a for t, a in parser.tags if t == "fieldset"]
    assert len(fieldsets) == len(QUIZZES["03"])
    assert [f["data-answer"] for f in fieldsets] == [q.answer for q in QUIZZES["03"]]
    assert page.count("<legend>") == len(QUIZZES["03"])
    radios = [a for t, a in parser.tags if t == "input"]
    labels = {a["for"] for t, a in parser.tags if t == "label"}
    assert all(r["type"] == "radio" and r["id"] in labels for r in radios)
    assert sum(len(q.options) for q in QUIZZES["03"]) == len(radios)
    live = [a for t, a in parser.tags if a.get("aria-live") == "polite"]
    assert len(live) == len(QUIZZES["03"])
    assert re.search(r"<script>.*ppdmQuizReady", page, re.S)


def test_site_cell_renders_the_quiz_and_links_the_guide():
    site_quiz = _site_quiz()
    cell = {"cell_type": "code", "source": 'from ppdm_edu.exercises import quiz\nquiz("05")', "outputs": []}
    site_quiz.site_cell(cell)
    assert "fieldset" in cell["outputs"][0]["data"]["text/html"]
    md = {"cell_type": "markdown", "source": "See the [lecturer's guide](README.md)."}
    site_quiz.site_cell(md)
    assert md["source"] == "See the [lecturer's guide](../lecturers.md)."
