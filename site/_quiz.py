"""The notebooks' quizzes on the website, with no kernel (issue 30): build-time HTML + a little JS.

``site/build.py`` calls :func:`site_cell` on every cell it copies. The output of a code cell that
calls ``quiz("NN")`` becomes the quiz rendered from the same questions as in the notebook
(``ppdm_edu.exercises.quizzes.QUIZZES``): one ``<fieldset>`` per question with a ``<legend>``,
native radio inputs with labels, a *Check answer* button and an ``aria-live`` verdict that says
*correct* with the reason or *not yet* with the hint, as ``check("NN.qk", letter)`` does. The same
call also points the notebooks' link to the lecturer's guide (``README.md`` next to the notebooks)
at the guide's page on the site.
"""
from __future__ import annotations

import html
import re

from ppdm_edu.exercises.quizzes import QUIZZES

QUIZ_CALL = re.compile(r'\bquiz\(\s*["\'](\d\d)["\']\s*\)')
GUIDE_LINK = "](README.md)"
SITE_GUIDE_LINK = "](../lecturers.md)"

# One script for all quizzes of a page (guarded: each quiz output carries it, it runs once).
SCRIPT = """<script>
(function () {
  if (window.ppdmQuizReady) { return; }
  window.ppdmQuizReady = true;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.ppdm-quiz-check");
    if (!button) { return; }
    var box = button.closest("fieldset.ppdm-quiz-question");
    var out = box.querySelector(".ppdm-quiz-verdict");
    var chosen = box.querySelector("input[type=radio]:checked");
    out.classList.remove("ppdm-quiz-correct", "ppdm-quiz-notyet");
    if (!chosen) { out.textContent = "Choose an answer first."; return; }
    var right = chosen.value === box.dataset.answer;
    out.classList.add(right ? "ppdm-quiz-correct" : "ppdm-quiz-notyet");
    out.textContent = (right ? "Correct: " + box.dataset.why : "Not yet: " + box.dataset.hint);
  });
})();
</script>"""

STYLE = """<style>
.ppdm-quiz fieldset{border:1px solid #767676;border-radius:4px;margin:0 0 1em;padding:.5em 1em}
.ppdm-quiz legend{font-size:1rem;font-weight:600;line-height:1.4;float:none;width:auto;padding:0 .3em;margin:0}
.ppdm-quiz label{margin-left:.3em}
.ppdm-quiz .ppdm-quiz-verdict{min-height:1.4em;margin:.4em 0 0}
.ppdm-quiz .ppdm-quiz-correct{color:#1b6b34}
.ppdm-quiz .ppdm-quiz-notyet{color:#a12f24}
</style>"""


def quiz_html(notebook: str) -> str:
    """The quiz of notebook ``notebook`` ("00" .. "08") as accessible HTML with its script."""
    parts = [STYLE, f'<div class="ppdm-quiz" data-quiz="{notebook}">']
    for q in QUIZZES[notebook]:
        qid = q.id.replace(".", "-")
        parts.append(f'<fieldset class="ppdm-quiz-question" id="quiz-{qid}" data-answer="{q.answer}" '
                     f'data-why="{html.escape(q.why)}" data-hint="{html.escape(q.hint)}">')
        parts.append(f"<legend>{html.escape(q.id)}. {html.escape(q.prompt)}</legend>")
        for letter, text in zip(q.letters, q.options):
            parts.append(f'<div><input type="radio" name="quiz-{qid}" id="quiz-{qid}-{letter}" value="{letter}">'
                         f'<label for="quiz-{qid}-{letter}">{letter}) {html.escape(text)}</label></div>')
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
