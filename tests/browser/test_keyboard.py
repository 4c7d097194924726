"""Keyboard only (issue 26 §3): Tab to a panel's slider, move it with the arrow keys, and the
figure, the read-out and the figure's text alternative change; the focus is visible. The slider
is announced as a screen reader gets it from Chromium's accessibility tree (issue 50): role
slider, its name (the label, then what it means: ``ppdm_edu/widgets/_names.py``) and its value in
words (``aria-valuetext``: the read-out and the unit), which follows the arrow keys.

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


def _announced(page) -> dict:
    """Role, name and value of the focused element in Chromium's accessibility tree (what a
    screen reader is given), through the DevTools protocol, and its ``aria-valuetext``. (The
    protocol's own "valuetext" is the control's value string, empty for an ARIA slider that
    has an aria-valuetext, so the value text is read from the attribute.)"""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.getDocument", {"depth": 0})  # DOM.requestNode needs the document first
        # the focused element as a DOM node id (resolved through its remote object)
        remote = cdp.send("Runtime.evaluate", {"expression": "document.activeElement"})["result"]["objectId"]
        node = cdp.send("DOM.requestNode", {"objectId": remote})["nodeId"]
        ax = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"]
    finally:
        cdp.detach()
    first = next(n for n in ax if not n.get("ignored"))
    said = {key: (first.get(key) or {}).get("value") for key in ("role", "name", "value")}
    said["valuetext"] = page.evaluate("() => document.activeElement.getAttribute('aria-valuetext')")
    return said


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
    said = _announced(page)
    assert said["role"] == "slider", said
    # Warner's theta: its label, then what it means (never "slider, 0.7" alone)
    assert said["name"].startswith("θ (truthful question), probability of a truthful answer"), said
    # its value is the number the read-out shows (not a position), said as the read-out shows it
    assert abs(said["value"] - 0.70) < 1e-6 and said["valuetext"] == "0.70", said
    before = panel.evaluate(_STATE)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{shot}_focus.png"))
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(f"([p, s]) => ({_STATE})(p).src !== s", arg=[panel.element_handle(), before["src"]],
                           timeout=30_000)
    _wait_kernel_idle(page, timeout=60)
    # Poll until the figure's text alternative names the last of the three values: each press
    # sends a value, and the kernel draws them one after another, so the first change seen (or
    # an idle kernel between two messages) may still be 0.71 or 0.72 on a busy machine.
    try:
        page.wait_for_function(f"([p, b]) => {{ const a = ({_STATE})(p); return a.readout !== b.readout"
                               f" && a.name !== b.name && a.name.includes('θ = 0.73'); }}",
                               arg=[panel.element_handle(), before], timeout=60_000)
    except Exception:
        pass  # the asserts below say which did not change
    after = panel.evaluate(_STATE)
    page.screenshot(path=str(ARTIFACTS / f"{shot}_after_arrows.png"))
    moved = _announced(page)
    assert moved["role"] == "slider" and moved["name"] == said["name"], moved
    assert abs(moved["value"] - 0.73) < 1e-6 and moved["valuetext"] == "0.73", \
        f"three steps of 0.01 from 0.70 are announced as {moved}"
    assert "θ = 0.73" in after["name"], "the figure's text alternative is not the slider's new value"
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
