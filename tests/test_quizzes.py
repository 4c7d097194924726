"""The notebooks' quizzes (issue 30): 3-6 concept questions per notebook, checked in the notebook
(``quiz("NN")`` widgets, ``check("NN.qk", letter)``) and rendered for the site without a kernel
(site/_quiz.py) from the same data."""
from __future__ import annotations

import importlib.util
import math
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

from ppdm_edu.exercises import QUIZZES, check, quiz
from ppdm_edu.exercises.quizzes import Question, RangeQuestion, quiz_ids, quiz_statistics

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _site_quiz():
    spec = importlib.util.spec_from_file_location("_quiz", ROOT / "site" / "_quiz.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_notebook_has_three_to_eight_questions():
    assert sorted(QUIZZES) == [p.name[:2] for p in NOTEBOOKS]
    for nb, questions in QUIZZES.items():
        assert 3 <= len(questions) <= 8, nb
        assert [q.id for q in questions] == [f"{nb}.q{k}" for k in range(1, len(questions) + 1)]


def test_no_test_taking_strategy_pays():
    stats = quiz_statistics()
    # the right option is the strictly longest in at most 35 % of the choice questions
    assert stats["longest_is_right"] <= 0.35 * stats["choice"], stats
    # every letter of a one-answer question is right about equally often
    counts = [stats["letters"].get(letter, 0) for letter in "abcd"]
    assert max(counts) - min(counts) <= 2, stats
    # several "choose all that apply" items, and a wrap-up range question in every notebook
    assert stats["multiple"] >= 6
    for nb, questions in QUIZZES.items():
        assert any(isinstance(q, RangeQuestion) for q in questions), nb
    # a multi-answer item is not given away by its length either (right options not all the longest)
    multi = [q for qs in QUIZZES.values() for q in qs if isinstance(q, Question) and q.multiple]
    assert quiz_statistics(multi)["longest_is_right"] <= 0.35 * len(multi)


def test_quiz_statistics_counts_the_longest_option():
    q1 = Question("09.q1", "?", ("short", "a much longer option", "mid"), "b", "", "")
    q2 = Question("09.q2", "?", ("short", "a much longer option", "mid"), "a", "", "")
    q3 = Question("09.q3", "? Choose all that apply.", ("long one", "long two", "x"), "ab", "", "")
    stats = quiz_statistics([q1, q2, q3])
    assert stats["longest_is_right"] == 2 and stats["letters"] == {"a": 1, "b": 1} and stats["multiple"] == 1


def _choice(question_id):
    return next(q for qs in QUIZZES.values() for q in qs if q.id == question_id)


@pytest.mark.parametrize("question_id", quiz_ids())
def test_right_answer_passes_wrong_answers_get_the_hint(question_id):
    q = _choice(question_id)
    if isinstance(q, RangeQuestion):
        for value in (q.low, q.high, (q.low + q.high) / 2):
            assert check(question_id, value).correct, value
        unit = 10.0 ** -q.decimals
        for value in (q.low - 2 * unit, q.high + 2 * unit, -q.high - 1, 100 * q.high + 1):
            result = check(question_id, value)
            assert not result.correct and result.message == q.hint, value
            assert f"{q.low:.{q.decimals}f}" not in result.message
        for bad in (None, "about 0.4", [q.low], float("nan"), True):  # a number as text is an answer
            result = check(question_id, bad)
            assert not result.correct and str(result).count("not yet") == 1
        return
    assert check(question_id, q.answer).correct
    assert check(question_id, q.answer.upper() + ")").correct
    assert check(question_id, ", ".join(q.answer)).correct
    assert check(question_id, [q.options[q.letters.index(a)] for a in q.answer]).correct  # the options' text
    wrong = [x for x in q.letters if x not in q.answer]
    if q.multiple:  # a subset or a superset of the right options is not yet
        for answer in (q.answer[0], q.answer + wrong[0], "".join(wrong)):
            result = check(question_id, answer)
            assert not result.correct and result.message == q.hint, answer
    else:
        assert not check(question_id, q.answer + wrong[0]).correct
    for letter in wrong:
        result = check(question_id, letter)
        assert not result.correct and result.message == q.hint
        assert f"{q.answer})" not in result.message
    for bad in (None, 2, "z", ["a", 1], float("nan")):
        result = check(question_id, bad)
        assert not result.correct and str(result).count("not yet") == 1


def test_question_refuses_a_bad_definition():
    with pytest.raises(ValueError, match="answer must be one of"):
        Question("09.q1", "?", ("x", "y", "z"), "d", "", "")
    with pytest.raises(ValueError, match="3 to"):
        Question("09.q1", "?", ("x", "y"), "a", "", "")
    with pytest.raises(ValueError, match="all that apply"):
        Question("09.q1", "?", ("x", "y", "z"), "ab", "", "")  # several right options, not announced
    with pytest.raises(ValueError, match="answer must be one of"):
        Question("09.q1", "? Choose all that apply.", ("x", "y", "z"), "abc", "", "")  # all of them
    with pytest.raises(ValueError, match="low <= high"):
        RangeQuestion("09.q1", "?", 2.0, 1.0, 1, "", "")


# The wrap-up answers from the library's own closed forms (none depends on a seed)
def _wrap_up_truths():
    from ppdm_edu.datasets.synthetic import AGRAWAL_DOMAINS
    from ppdm_edu.ldp import amplification
    from ppdm_edu.randomization import UniformNoise
    from ppdm_edu.trees.gini import gini
    lo, hi = AGRAWAL_DOMAINS["age"]
    return {
        "00": ((40 - lo) + (hi - 60)) / (hi - lo),
        "01": UniformNoise(10.0).interval_width(0.95),
        "02": (1 / 12) / 0.25 ** 2,
        "03": (0.46 - (1 - 0.7)) / (2 * 0.7 - 1),
        "04": gini([80, 20]),
        "05": 1 / abs(2 * 0.6 - 1),
        "06": 13 - 3 ** 2,
        "07": 0.5 / (0.5 + float(amplification(0.75)) * 0.5),
        "08": (math.e + 20 - 2) / (4 * math.e),
        "09": __import__("ppdm_edu.database_reconstruction", fromlist=["guess_bound"]).guess_bound(1.0, 0.0),
    }


def test_wrap_up_ranges_hold_the_closed_form():
    truths = _wrap_up_truths()
    for nb, questions in QUIZZES.items():
        (q,) = [q for q in questions if isinstance(q, RangeQuestion)]
        assert q.accepts(truths[nb]) and check(q.id, round(truths[nb], q.decimals)).correct, (nb, truths[nb])
        # the range is tight: one unit of the stated precision beyond it is refused
        assert q.high - q.low <= 2 * 10.0 ** -q.decimals


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
        quiz("99")


def test_quiz_widget_checks_all_that_apply_and_a_number():
    box = quiz("03")
    multi = next(i for i, q in enumerate(QUIZZES["03"]) if isinstance(q, Question) and q.multiple)
    wrap = next(i for i, q in enumerate(QUIZZES["03"]) if isinstance(q, RangeQuestion))
    prompt, boxes, buttons, verdict = box.children[multi].children
    q = QUIZZES["03"][multi]
    for letter, tick in zip(q.letters, boxes.children):
        tick.value = letter in q.answer
    buttons.children[0].click()
    assert "correct" in verdict.value
    boxes.children[q.letters.index(q.answer[0])].value = False  # one right option missing
    buttons.children[0].click()
    assert "not yet" in verdict.value
    prompt, number, buttons, verdict = box.children[wrap].children
    q = QUIZZES["03"][wrap]
    buttons.children[0].click()
    assert "write a number" in verdict.value
    number.value = "abc"
    buttons.children[0].click()
    assert "must be a number" in verdict.value
    number.value = f"{q.low:.{q.decimals}f}".replace(".", ",")  # a decimal comma is read too
    buttons.children[0].click()
    assert "correct" in verdict.value


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
    for f, q in zip(fieldsets, QUIZZES["03"]):
        accepted = q.accepted_texts() if isinstance(q, RangeQuestion) else [q.answer]
        assert f["data-accept"].split() == [site_quiz.answer_hash(q.id, a) for a in accepted]
        assert "data-answer" not in f
    assert page.count("<legend>") == len(QUIZZES["03"])
    inputs = [a for t, a in parser.tags if t == "input"]
    labels = {a["for"] for t, a in parser.tags if t == "label"}
    assert all(i["id"] in labels for i in inputs)
    assert sum(len(q.options) if isinstance(q, Question) else 1 for q in QUIZZES["03"]) == len(inputs)
    assert {i["type"] for i in inputs} == {"radio", "checkbox", "text"}
    live = [a for t, a in parser.tags if a.get("aria-live") == "polite"]
    assert len(live) == len(QUIZZES["03"])
    assert re.search(r"<script>.*ppdmQuizReady", page, re.S)
    assert "Self-check only" in page


def test_site_hash_in_the_browser_script_equals_the_build_hash(node):
    site_quiz = _site_quiz()
    body = re.search(r"(function fnv\(text\) \{.*?\n  \})", site_quiz.SCRIPT, re.S).group(1)
    texts = [f"{site_quiz.SALT}|{q.id}|{a}" for q in QUIZZES["03"]
             for a in (q.accepted_texts() if isinstance(q, RangeQuestion) else [q.answer, "a", "bd"])]
    program = body + "\nconsole.log(JSON.stringify(" + repr(texts).replace("'", '"') + ".map(fnv)));"
    out = subprocess.run([node, "-e", program], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    expected = [site_quiz.answer_hash(*t.split("|", 1)[1].split("|", 1)) for t in texts]
    assert out.stdout.strip() == str(expected).replace("'", '"').replace(" ", "")


def test_site_cell_renders_the_quiz_and_links_the_guide():
    site_quiz = _site_quiz()
    cell = {"cell_type": "code", "source": 'from ppdm_edu.exercises import quiz\nquiz("05")', "outputs": []}
    site_quiz.site_cell(cell)
    assert "fieldset" in cell["outputs"][0]["data"]["text/html"]
    md = {"cell_type": "markdown", "source": "See the [lecturer's guide](README.md)."}
    site_quiz.site_cell(md)
    assert md["source"] == "See the [lecturer's guide](../lecturers.md)."


_FAKE_PAGE = """
var window = {}, handler = null;
var document = {addEventListener: function (kind, f) { handler = f; }};
%s
function answer(data, checked, typed) {
  var out = {textContent: "", classList: {remove: function () {}, add: function () {}}};
  var box = {dataset: data,
             querySelector: function (s) { return s.indexOf("verdict") >= 0 ? out : {value: typed}; },
             querySelectorAll: function () { return checked.map(function (v) { return {value: v}; }); }};
  var button = {closest: function () { return box; }};
  handler({target: {closest: function () { return button; }}});
  return out.textContent;
}
var cases = %s;
console.log(JSON.stringify(cases.map(function (c) { return answer(c[0], c[1], c[2]); })));
"""


def test_site_script_gives_the_verdicts_of_check(node):
    # the page's click handler on a stand-in page: one answer, all that apply, a number
    import json
    site_quiz = _site_quiz()
    script = re.search(r"<script>(.*)</script>", site_quiz.SCRIPT, re.S).group(1)
    cases, expected = [], []
    for q in QUIZZES["03"]:
        if isinstance(q, RangeQuestion):
            data = {"kind": "range", "decimals": str(q.decimals), "why": q.why, "hint": q.hint, "qid": q.id,
                    "accept": " ".join(site_quiz.answer_hash(q.id, a) for a in q.accepted_texts())}
            for typed, right in ((f"{q.low:.{q.decimals}f}".replace(".", ","), True), (str(q.high + 1), False)):
                assert check(q.id, float(typed.replace(",", "."))).correct == right  # the notebook agrees
                cases.append([data, [], typed])
                expected.append(right)
            cases.append([data, [], ""])
            expected.append("Write a number first.")
            continue
        data = {"kind": "multiple" if q.multiple else "single", "why": q.why, "hint": q.hint, "qid": q.id,
                "accept": site_quiz.answer_hash(q.id, q.answer)}
        wrong = next(x for x in q.letters if x not in q.answer)
        cases += [[data, list(reversed(q.answer)), ""], [data, [wrong], ""], [data, [], ""]]
        expected += [True, False, "Choose an answer first."]
    program = _FAKE_PAGE % (script, json.dumps(cases))
    out = subprocess.run([node, "-e", program], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    for text, want, case in zip(json.loads(out.stdout), expected, cases):
        if isinstance(want, str):
            assert text == want
        else:
            assert text.startswith("Correct: " if want else "Not yet: "), (case[0]["qid"], case[1:], text)


def _contrast(a: str, b: str) -> float:
    import numpy as np
    from matplotlib.colors import to_rgb

    def luminance(colour):
        c = np.array(to_rgb(colour))
        c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_quiz_focus_ring_is_2px_or_more_and_3_to_1_against_what_is_next_to_it():
    """Notebook quiz and site quiz share one focus ring: at least 2 px, on every control (also
    after a click: ``:focus``), at least 3:1 against the white page and a button's grey face."""
    from ppdm_edu.widgets.quiz import FOCUS_CSS

    m = re.search(r"\.ppdm-quiz :focus \{outline: (\d+)px solid (#[0-9a-fA-F]{6})", FOCUS_CSS)
    assert m, FOCUS_CSS
    width, colour = int(m[1]), m[2]
    assert width >= 2
    for next_to_it in ("#ffffff", "#eeeeee", "#efefef"):  # page; ipywidgets' and the browser's button
        assert _contrast(colour, next_to_it) >= 3, (colour, next_to_it)
    box = quiz("03")
    assert "ppdm-quiz" in box._dom_classes and FOCUS_CSS in box.children[-1].value
    page = _site_quiz().quiz_html("03")
    assert FOCUS_CSS in page and 'class="ppdm-quiz"' in page
