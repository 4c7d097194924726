"""The notebooks' quizzes on the website, with no kernel (issue 30): build-time HTML + a little JS.

``site/build.py`` calls :func:`site_cell` on every cell it copies. The output of a code cell that
calls ``quiz("NN")`` becomes the quiz rendered from the same questions as in the notebook
(``ppdm_edu.exercises.quizzes.QUIZZES``): one ``<fieldset>`` per question with a ``<legend>``,
native radio inputs (one answer), check boxes ("choose all that apply") or a number box (wrap-up),
with labels, a *Check answer* button and an ``aria-live`` verdict that says *correct* with the
reason or *not yet* with the hint, as ``check("NN.qk", answer)`` does. The same call also points
the notebooks' link to the lecturer's guide (``README.md`` next to the notebooks) at the guide's
page on the site.

The page carries no answer: each question holds the FNV-1a hash of "salt|id|answer" for every
accepted answer (the sorted letters, or each number of a range written to its decimals), and the
script compares hashes. That keeps the answer out of a glance at the page source; the possible
answers are few, so a determined reader can still hash them all. The quiz says so: it is a
self-check, and records nothing.
"""
from __future__ import annotations

import html
import re

from ppdm_edu.exercises.quizzes import QUIZZES, RangeQuestion
from ppdm_edu.widgets.quiz import FOCUS_CSS

QUIZ_CALL = re.compile(r'\bquiz\(\s*["\'](\d\d)["\']\s*\)')
GUIDE_LINK = "](README.md)"
SITE_GUIDE_LINK = "](../lecturers.md)"
SALT = "ppdm-edu-quiz"
SELF_CHECK = ("Self-check only: your answers are checked in this page and recorded nowhere. The page keeps "
              "hashes of the accepted answers, not the answers; that hides them from a glance at the source, "
              "not from a determined reader.")


def answer_hash(question_id: str, answer: str) -> str:
    """FNV-1a (32 bit) of ``SALT|question_id|answer`` as 8 hex digits: the script computes the same.

    The texts hashed are ASCII (ids, letters, numbers), so the bytes the script hashes (its char
    codes) are those of the UTF-8 encoding here.
    """
    h = 0x811C9DC5
    for byte in f"{SALT}|{question_id}|{answer}".encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"

# One script for all quizzes of a page (guarded: each quiz output carries it, it runs once).
SCRIPT = """<script>
(function () {
  if (window.ppdmQuizReady) { return; }
  window.ppdmQuizReady = true;
  function fnv(text) {
    var h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) { h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0; }
    return ("0000000" + h.toString(16)).slice(-8);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.ppdm-quiz-check");
    if (!button) { return; }
    var box = button.closest("fieldset.ppdm-quiz-question");
    var out = box.querySelector(".ppdm-quiz-verdict");
    var answer = "";
    out.classList.remove("ppdm-quiz-correct", "ppdm-quiz-notyet");
    if (box.dataset.kind === "range") {
      var raw = box.querySelector("input[type=text]").value.trim().replace(",", ".");
      var value = Number(raw);
      if (raw === "" || !isFinite(value)) { out.textContent = "Write a number first."; return; }
      answer = value.toFixed(Number(box.dataset.decimals));
    } else {
      var chosen = box.querySelectorAll("input:checked");
      if (!chosen.length) { out.textContent = "Choose an answer first."; return; }
      for (var i = 0; i < chosen.length; i++) { answer += chosen[i].value; }
      answer = answer.split("").sort().join("");
    }
    var right = box.dataset.accept.split(" ").indexOf(fnv("%s|" + box.dataset.qid + "|" + answer)) >= 0;
    out.classList.add(right ? "ppdm-quiz-correct" : "ppdm-quiz-notyet");
    out.textContent = (right ? "Correct: " + box.dataset.why : "Not yet: " + box.dataset.hint);
  });
})();
</script>""".replace("%s", SALT)

STYLE = """<style>
.ppdm-quiz fieldset{border:1px solid #767676;border-radius:4px;margin:0 0 1em;padding:.5em 1em}
.ppdm-quiz legend{font-size:1rem;font-weight:600;line-height:1.4;float:none;width:auto;padding:0 .3em;margin:0}
.ppdm-quiz label{margin-left:.3em}
.ppdm-quiz .ppdm-quiz-verdict{min-height:1.4em;margin:.4em 0 0}
.ppdm-quiz .ppdm-quiz-note{font-style:italic;margin:0 0 .6em}
.ppdm-quiz .ppdm-quiz-correct{color:#1b6b34}
.ppdm-quiz .ppdm-quiz-notyet{color:#a12f24}
%s
html[data-theme="dark"] .ppdm-quiz :focus{outline-color:#8ab4f8 !important}
</style>""" % FOCUS_CSS


def quiz_html(notebook: str) -> str:
    """The quiz of notebook ``notebook`` ("00" .. "09") as accessible HTML with its script."""
    parts = [STYLE, f'<div class="ppdm-quiz" data-quiz="{notebook}">',
             f'<p class="ppdm-quiz-note">{html.escape(SELF_CHECK)}</p>']
    for q in QUIZZES[notebook]:
        qid = q.id.replace(".", "-")
        if isinstance(q, RangeQuestion):
            kind, accepted = "range", q.accepted_texts()
        else:
            kind, accepted = ("multiple" if q.multiple else "single"), [q.answer]
        accept = " ".join(answer_hash(q.id, a) for a in accepted)
        extra = f' data-decimals="{q.decimals}"' if kind == "range" else ""
        parts.append(f'<fieldset class="ppdm-quiz-question" id="quiz-{qid}" data-qid="{q.id}" data-kind="{kind}" '
                     f'data-accept="{accept}"{extra} data-why="{html.escape(q.why)}" data-hint="{html.escape(q.hint)}">')
        parts.append(f"<legend>{html.escape(q.id)}. {html.escape(q.prompt)}</legend>")
        if kind == "range":
            parts.append(f'<div><label for="quiz-{qid}-value">Your answer (to {q.decimals} decimals):</label> '
                         f'<input type="text" inputmode="decimal" autocomplete="off" id="quiz-{qid}-value" '
                         f'name="quiz-{qid}" size="10"></div>')
        else:
            input_type = "checkbox" if kind == "multiple" else "radio"
            for letter, text in zip(q.letters, q.options):
                parts.append(f'<div><input type="{input_type}" name="quiz-{qid}" id="quiz-{qid}-{letter}" '
                             f'value="{letter}"><label for="quiz-{qid}-{letter}">{letter}) {html.escape(text)}'
                             f"</label></div>")
        parts.append(f'<button type="button" class="ppdm-quiz-check" aria-describedby="quiz-{qid}-verdict">'
                     f"Check answer</button>")
        parts.append(f'<p class="ppdm-quiz-verdict" id="quiz-{qid}-verdict" role="status" aria-live="polite"></p>')
        parts.append("</fieldset>")
    parts.append("</div>")
    parts.append(SCRIPT)
    return "\n".join(parts)


def site_cell(cell: dict) -> None:
    """Adapt one copied notebook cell for the site, in place: a quiz call's output becomes the
    kernel-free quiz, and the link to the guide points at its page on the site."""
    source = "".join(cell.get("source", ""))
    if cell.get("cell_type") == "markdown" and GUIDE_LINK in source:
        cell["source"] = source.replace(GUIDE_LINK, SITE_GUIDE_LINK)
    if cell.get("cell_type") != "code":
        return
    match = QUIZ_CALL.search(source)
    if match and match.group(1) in QUIZZES:
        cell["outputs"] = [{"output_type": "display_data", "metadata": {},
                            "data": {"text/html": quiz_html(match.group(1)),
                                     "text/plain": f"(the quiz of notebook {match.group(1)})"}}]
