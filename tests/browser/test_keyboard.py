"""Keyboard only (issue 26 §3): Tab to a panel's slider, move it with the arrow keys, and the
figure, the read-out and the figure's text alternative change; the focus is visible.

Notebook 03 (Warner's survey panel) is run in JupyterLab; the test never clicks a control: it
puts the focus at the start of the panel's output and presses Tab until a slider handle of the
panel has the focus, then ArrowRight. Screenshots at 1366x768 (classroom) and 1024x768 (lecture
mode, ``lecture/03_lecture.ipynb`` of ``conftest.py``) go to ``artifacts/a11y/``.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from test_notebooks_in_browser import NB, PANEL, _find_notebook, _open_and_run, _wait_kernel_idle

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "a11y"

pytestmark = pytest.mark.browser

_STATE = """p => { const img = p.querySelector('img.widget-image');
    const out = [...p.querySelectorAll('.widget-html-content')].map(e => e.innerText).join('\\n');
    return {src: img.getAttribute('src'), name: img.getAttribute('title') || img.getAttribute('alt'),
            readout: out}; }"""
_FOCUS = """p => { const a = document.activeElement;
    if (!p.contains(a)) return null;
    const s = getComputedStyle(a);
    return {slider: a.getAttribute('role') === 'slider' || a.type === 'range',
            outline: s.outlineStyle !== 'none' && s.outlineWidth !== '0px',
            shadow: s.boxShadow !== 'none', value: a.getAttribute('aria-valuenow') || a.value}; }"""


def _tab_to_slider(page, panel, presses: int = 40) -> dict:
    # the focus starts just before the panel: on the output area that holds it
    panel.evaluate("p => { const o = p.closest('.jp-OutputArea-output'); o.tabIndex = -1; o.focus(); }")
    for _ in range(presses):
        page.keyboard.press("Tab")
        state = panel.evaluate(_FOCUS)
        if state and state["slider"]:
            return state
    raise AssertionError(f"no slider of the panel got the focus after {presses} presses of Tab")


def _keyboard_round(page, panel, shot: str) -> None:
    try:
        panel.wait_for(state="attached", timeout=60_000)
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{shot}_FAILED.png"), full_page=True)
        (ARTIFACTS / f"{shot}_FAILED.html").write_text(page.content())
        raise
    panel.evaluate("p => p.scrollIntoView({block: 'start'})")
    image = panel.locator("img.widget-image").first
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    focus = _tab_to_slider(page, panel)
    assert focus["outline"] or focus["shadow"], f"the focused slider shows no focus indicator: {focus}"
    before = panel.evaluate(_STATE)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{shot}_focus.png"))
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(f"([p, s]) => ({_STATE})(p).src !== s", arg=[panel.element_handle(), before["src"]],
                           timeout=30_000)
    _wait_kernel_idle(page, timeout=60)
    try:  # poll until the read-out and the text alternative have followed the figure
        page.wait_for_function(f"([p, b]) => {{ const a = ({_STATE})(p); return a.readout !== b.readout"
                               f" && a.name !== b.name; }}", arg=[panel.element_handle(), before],
                               timeout=30_000)
    except Exception:
        pass  # the asserts below say which did not change
    after = panel.evaluate(_STATE)
    page.screenshot(path=str(ARTIFACTS / f"{shot}_after_arrows.png"))
    assert after["src"] != before["src"], "the figure did not change"
    assert after["readout"] != before["readout"], "the read-out did not change"
    assert after["name"] and after["name"] != before["name"], "the image's text alternative did not change"
    assert len(after["name"].split()) >= 6


def test_keyboard_moves_a_panel_slider(page, jupyter_server):
    name = _find_notebook(jupyter_server, "03")
    _open_and_run(page, jupyter_server, f"notebooks/{name}")
    panel = page.locator(f"{NB} {PANEL}").first
    _keyboard_round(page, panel, "keyboard_03_1366x768")


def test_keyboard_in_lecture_mode(projector_page, jupyter_server):
    page = projector_page
    _open_and_run(page, jupyter_server, "lecture/03_lecture.ipynb")
    panel = page.locator(f"{NB} {PANEL}").first
    _keyboard_round(page, panel, "keyboard_03_lecture_1024x768")
