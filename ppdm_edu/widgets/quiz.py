"""The notebook form of a quiz: radio buttons and a *Check* button per question (issue 30).

The questions live in :mod:`ppdm_edu.exercises.quizzes`; ``ppdm_edu.exercises.quiz("03")`` calls
:func:`quiz_widget`. The website renders the same questions without a kernel (site/_quiz.py).
"""
from __future__ import annotations

import html

import ipywidgets as w

__all__ = ["quiz_widget"]


def quiz_widget(questions, check) -> w.VBox:
    """One block per question: its prompt, radio buttons named by the question, a Check button and
    a verdict read-out.

    Parameters
    ----------
    questions : sequence of ppdm_edu.exercises.quizzes.Question
        One notebook's quiz.
    check : callable
        ``check(question_id, letter) -> CheckResult`` (``exercises.quizzes.check_quiz``).

    Returns
    -------
    ipywidgets.VBox
        The quiz; clicking *Check* shows *correct* with the reason or *not yet* with a hint.
    """
    boxes = []
    for q in questions:
        options = [(f"{letter}) {text}", letter) for letter, text in zip(q.letters, q.options)]
        radio = w.RadioButtons(options=options, value=None, description=q.id,
                               layout=w.Layout(width="auto"), style={"description_width": "3em"})
        button = w.Button(description="Check", tooltip=f"check your answer to {q.id}")
        verdict = w.HTML(value="")

        def on_click(_, q=q, radio=radio, verdict=verdict):
            verdict.value = check(q.id, radio.value)._repr_html_()

        button.on_click(on_click)
        prompt = w.HTML(value=f"<b>{html.escape(q.id)}.</b> {html.escape(q.prompt)}")
        boxes.append(w.VBox([prompt, radio, w.HBox([button]), verdict]))
    return w.VBox(boxes)
