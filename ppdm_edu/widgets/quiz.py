"""The notebook form of a quiz: one block per question with a *Check* button.

The questions live in :mod:`ppdm_edu.exercises.quizzes`; ``ppdm_edu.exercises.quiz("03")`` calls
:func:`quiz_widget`. A question with one right option gets radio buttons, a "choose all that
apply" question check boxes, a wrap-up question a number box. The website renders the same
questions without a kernel (site/_quiz.py).
"""
from __future__ import annotations

import html

import ipywidgets as w

__all__ = ["quiz_widget"]

#: the colour of the quiz's focus ring: 6.4:1 on the white page and 5.5:1 on a button's light grey
#: face (#eeeeee), so the ring is seen against everything next to it (WCAG 2.4.7, 1.4.11: 3:1)
FOCUS_COLOUR = "#0b57d0"
#: the quiz's focus ring, here and on the website (site/_quiz.py): 3 px, on every control of the
#: quiz, also after a click (ipywidgets' own is 1 px of light blue, 2.4:1 on white)
FOCUS_CSS = (f".ppdm-quiz :focus {{outline: 3px solid {FOCUS_COLOUR} !important; "
             "outline-offset: 2px !important; box-shadow: none !important;}")


def _input(q):
    """The answer control of one question and a function that reads the answer from it."""
    if not hasattr(q, "options"):  # a wrap-up question with a numeric answer
        box = w.Text(value="", placeholder=f"to {q.decimals} decimals", description=q.id,
                     style={"description_width": "3em"}, layout=w.Layout(width="16em"))

        def read_number():  # empty: None ("write a number"); not a number: the text, refused by the check
            text = box.value.strip().replace(",", ".")
            if not text:
                return None
            try:
                return float(text)
            except ValueError:
                return box.value
        return box, read_number
    if getattr(q, "multiple", False):
        boxes = [w.Checkbox(value=False, description=f"{letter}) {text}", indent=False,
                            layout=w.Layout(width="auto"))
                 for letter, text in zip(q.letters, q.options)]

        def read():
            chosen = [letter for letter, box in zip(q.letters, boxes) if box.value]
            return "".join(chosen) or None
        return w.VBox(boxes, layout=w.Layout(margin="0 0 0 3em")), read
    options = [(f"{letter}) {text}", letter) for letter, text in zip(q.letters, q.options)]
    radio = w.RadioButtons(options=options, value=None, description=q.id,
                           layout=w.Layout(width="auto"), style={"description_width": "3em"})
    return radio, lambda: radio.value


def quiz_widget(questions, check) -> w.VBox:
    """One block per question: its prompt, the answer control named by the question, a Check button
    and a verdict read-out.

    Parameters
    ----------
    questions : sequence of ppdm_edu.exercises.quizzes.Question or RangeQuestion
        One notebook's quiz.
    check : callable
        ``check(question_id, answer) -> CheckResult`` (``exercises.quizzes.check_quiz``).

    Returns
    -------
    ipywidgets.VBox
        The quiz; clicking *Check* shows *correct* with the reason or *not yet* with a hint.
    """
    blocks = []
    for q in questions:
        control, read = _input(q)
        button = w.Button(description="Check", tooltip=f"check your answer to {q.id}")
        verdict = w.HTML(value="")

        def on_click(_, q=q, read=read, verdict=verdict):
            verdict.value = check(q.id, read())._repr_html_()

        button.on_click(on_click)
        prompt = w.HTML(value=f"<b>{html.escape(q.id)}.</b> {html.escape(q.prompt)}")
        blocks.append(w.VBox([prompt, control, w.HBox([button]), verdict]))
    quiz = w.VBox([*blocks, w.HTML(f"<style>{FOCUS_CSS}</style>")])  # last: the questions come first
    quiz.add_class("ppdm-quiz")
    return quiz
