"""A notebook's quiz on the built website, with no kernel (issue 30): answer one quiz in Chromium.

The site (``site/_build/html``, built here when missing) is served on 127.0.0.1; every request to
another host is refused. On notebook 03's page the quiz rendered by site/_quiz.py is answered
wrongly (the hint appears in the ``aria-live`` verdict), then rightly (*Correct*), with the
keyboard-reachable native radio inputs and the *Check answer* button.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from static_server import serve_directory

from ppdm_edu.exercises import QUIZZES

REPO = Path(__file__).resolve().parents[2]
HTML = REPO / "site" / "_build" / "html"

pytestmark = pytest.mark.browser



@pytest.fixture(scope="module")
def site_url():
    if not (HTML / "notebooks" / "03_randomized_response.html").exists():
        proc = subprocess.run([sys.executable, str(REPO / "site" / "build.py")], capture_output=True,
                              text=True, cwd=REPO, timeout=900)
        assert proc.returncode == 0, f"site/build.py failed:\n{proc.stderr[-4000:]}"
    with serve_directory(HTML) as url:
        yield url


def test_answer_a_quiz_on_the_site(browser, site_url):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(site_url) else r.abort())
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{site_url}/notebooks/03_randomized_response.html")
        q = QUIZZES["03"][2]  # the two-coin device
        box = page.locator("fieldset#quiz-03-q3")
        box.scroll_into_view_if_needed()
        assert q.prompt[:40] in box.locator("legend").inner_text()
        verdict = box.locator(".ppdm-quiz-verdict")
        assert verdict.get_attribute("aria-live") == "polite"
        box.get_by_role("button", name="Check answer").click()
        assert verdict.inner_text() == "Choose an answer first."
        wrong = next(x for x in q.letters if x != q.answer)
        box.locator(f"label[for=quiz-03-q3-{wrong}]").click()
        box.get_by_role("button", name="Check answer").click()
        assert verdict.inner_text().startswith("Not yet") and q.hint[:30] in verdict.inner_text()
        # the right answer, chosen with the keyboard as well as the mouse would do
        box.get_by_role("radio", name=f"{q.answer}) {q.options[q.letters.index(q.answer)]}").check()
        box.get_by_role("button", name="Check answer").click()
        assert verdict.inner_text().startswith("Correct")
        # every question of the page is there
        assert page.locator("fieldset.ppdm-quiz-question").count() == len(QUIZZES["03"])
        assert not errors, errors
    finally:
        context.close()
