"""Issue 25 §2: the script that swaps a twin's states (``site/_static/ppdm-twins.js``), on a fixture
page in Chromium: no site build, no server, no network.

A twin of two controls (a range of 3 positions, a radio pair) and a fixed one; one state is a
message (no figure), as where a panel refuses a setting.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "site" / "_static" / "ppdm-twins.js"

pytestmark = pytest.mark.browser


def _svg(text):
    return f"data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' width='40' height='20'><text y='15'>{text}</text></svg>"


def _states():
    states = []
    for i in range(3):        # range: 0, 1, 2
        for j in range(2):    # radio: a, b
            if (i, j) == (2, 1):
                states.append({"m": 1, "r": "<div>refused: 2b</div>"})
            else:
                states.append({"f": _svg(f"{i}{'ab'[j]}"), "a": f"alt {i}{'ab'[j]}", "r": f"<b>read-out {i}{'ab'[j]}</b>"})
    return states


FIXTURE = """<!doctype html><html><body>
<div class="ppdm-twin" id="tw" data-twin="tw" data-base="">
 <label for="tw-c0">level</label><input type="range" id="tw-c0" data-control="0" min="0" max="2" step="1" value="0" aria-valuetext="low">
 <output for="tw-c0">low</output>
 <fieldset><legend>kind</legend>
  <label><input type="radio" name="tw-c1" data-control="1" value="0" checked> a</label>
  <label><input type="radio" name="tw-c1" data-control="1" value="1"> b</label>
 </fieldset>
 <img class="ppdm-twin-figure" src="start.png" alt="start">
 <div class="ppdm-twin-readout" aria-live="polite">stored read-out</div>
</div></body></html>"""


@pytest.fixture
def twin_page(browser):
    context = browser.new_context()
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith("data:") else r.abort())
    page = context.new_page()
    page.set_content(FIXTURE)
    spec = {"controls": [{"n": 3, "labels": ["low", "mid", "high"]}, {"n": 2, "labels": ["a", "b"]},
                         {"n": 1, "labels": ["fixed"]}],
            "radices": [3, 2, 1], "states": _states()}
    page.evaluate(f"window.PPDM_TWINS = {{tw: {json.dumps(spec)}}}")
    page.add_script_tag(path=str(SCRIPT))
    page.wait_for_function("document.getElementById('tw').getAttribute('data-ready') === '1'")
    try:
        yield page
    finally:
        context.close()


def _shown(page):
    return page.evaluate("""() => { const t = document.getElementById('tw');
        const img = t.querySelector('img');
        return {src: img.getAttribute('src'), alt: img.alt, hidden: img.hidden,
                readout: t.querySelector('.ppdm-twin-readout').textContent,
                output: t.querySelector('output').textContent,
                valuetext: t.querySelector('input[type=range]').getAttribute('aria-valuetext'),
                state: t.getAttribute('data-state')}; }""")


def test_index_arithmetic(twin_page):
    assert twin_page.evaluate("ppdmTwins.flatIndex([2, 1, 0], [3, 2, 1])") == 5
    assert twin_page.evaluate("ppdmTwins.flatIndex([1, 0, 0], [3, 2, 1])") == 2
    # neighbours: one step along each control that moves, never off the grid, never the fixed one
    assert sorted(twin_page.evaluate("ppdmTwins.neighbours([0, 1, 0], [3, 2, 1])")) == [[0, 0, 0], [1, 1, 0]]


def test_controls_swap_figure_alt_and_readout(twin_page):
    page = twin_page
    assert _shown(page)["readout"] == "stored read-out"  # the stored state until a control moves
    page.focus("#tw-c0")
    page.keyboard.press("ArrowRight")
    s = _shown(page)
    assert (s["state"], s["alt"], s["readout"], s["output"], s["valuetext"]) == (
        "1-0-0", "alt 1a", "read-out 1a", "mid", "mid")
    assert "1a" in s["src"] and not s["hidden"]
    page.click("text=b")
    s = _shown(page)
    assert (s["state"], s["alt"], s["readout"]) == ("1-1-0", "alt 1b", "read-out 1b")
    page.focus("#tw-c0")
    page.keyboard.press("ArrowRight")  # (2, b): the message state
    s = _shown(page)
    assert s["state"] == "2-1-0" and s["hidden"] and s["readout"] == "refused: 2b"
    page.keyboard.press("ArrowLeft")  # back: the figure returns
    s = _shown(page)
    assert s["state"] == "1-1-0" and not s["hidden"] and s["alt"] == "alt 1b"
