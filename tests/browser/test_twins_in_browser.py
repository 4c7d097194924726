"""Issue 25 §2: every twin on the website answers its controls in Chromium, offline.

The built site (``site/_build/html``; built here when missing) is served from 127.0.0.1 and every
request to another host is refused and recorded. On every notebook page, for every twin, each
control is moved by keyboard (arrow keys, space) and by mouse (a click on the slider's track, a
radio's or check box's label; a drop-down through ``select_option``, since a native drop-down's
list cannot be clicked headless), and after each move:

* the figure changes (its ``src``), or is hidden where the panel shows a message;
* the read-out changes, and its text is what a live panel, built as the notebook builds it and
  moved to the same values, shows (durations masked);
* the alt text changes with the figure;
* no request has left the machine.

The latency from a control change to the new figure decoded (``img.decode()``) is measured in the
page for each move and written to ``benchmarks/twins_latency.json`` (not asserted). Screenshots of
every twin at 1366x768 and 1024x768 go to ``artifacts/twins/``.
"""
from __future__ import annotations

import functools
import html
import json
import os
import re
import statistics
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HTML = REPO / "site" / "_build" / "html"
ARTIFACTS = REPO / "artifacts" / "twins"
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
TIMING = re.compile(r"\d+(?:\.\d+)? s\b")
# artifacts/ unless recorded as the project's benchmark (PPDM_RECORD_BENCHMARKS=1: benchmarks/)
LATENCY_FILE = (REPO / "benchmarks" if os.environ.get("PPDM_RECORD_BENCHMARKS") == "1"
                else REPO / "artifacts" / "browser") / "twins_latency.json"

sys.path.insert(0, str(REPO / "site"))
import _twins  # noqa: E402

sys.path.remove(str(REPO / "site"))

pytestmark = pytest.mark.browser
LATENCIES: dict[str, list[float]] = {}


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site_server():
    if not (HTML / "index.html").exists() or not (HTML / "_static" / "ppdm-twins.js").exists():
        proc = subprocess.run([sys.executable, str(REPO / "site" / "build.py")], capture_output=True,
                              text=True, cwd=REPO, timeout=1200)
        assert proc.returncode == 0, f"site/build.py failed:\n{proc.stderr[-4000:]}"
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(HTML)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        if LATENCIES:
            every = [ms for v in LATENCIES.values() for ms in v]
            LATENCY_FILE.parent.mkdir(parents=True, exist_ok=True)
            LATENCY_FILE.write_text(json.dumps({
                "what": "control change -> new figure decoded, in headless Chromium (tests/browser/test_twins_in_browser.py)",
                "target_median_ms": 50,
                "median_ms": round(statistics.median(every), 1),
                "p90_ms": round(sorted(every)[int(0.9 * (len(every) - 1))], 1),
                "moves": len(every),
                "load_average_1min": round(os.getloadavg()[0], 2),
                "per_twin_median_ms": {k: round(statistics.median(v), 1) for k, v in sorted(LATENCIES.items())},
            }, indent=1) + "\n")


def _open(browser, base, width=1366, height=768):
    context = browser.new_context(viewport={"width": width, "height": height})
    refused: list[str] = []

    def route(r):
        url = r.request.url
        if url.startswith(base) or url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            refused.append(url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return context, page, refused


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


class _Live:
    """A live panel per twin, moved to the state a twin shows (what the reader would see)."""

    def __init__(self, found, controls):
        self.panel = found.cls(**found.kwargs)
        self.controls = controls
        for c in controls:
            if c["fixed"]:
                self.panel.controls[c["name"]].value = c["values"][0]

    def shown(self, indices):
        for c, i in zip(self.controls, indices):
            self.panel.controls[c["name"]].value = c["values"][i]
        return _text(_twins.shown_text(self.panel)[0])


def _snapshot(twin):
    return twin.evaluate("""t => {
        const img = t.querySelector('img.ppdm-twin-figure');
        return {src: img.getAttribute('src'), alt: img.alt, hidden: img.hidden,
                readout: t.querySelector('.ppdm-twin-readout').innerHTML,
                state: t.getAttribute('data-state')};
    }""")


def _check_move(twin, before, live, what):
    after = _snapshot(twin)
    assert after["state"] is not None and after["state"] != before["state"], f"{what}: nothing moved"
    indices = [int(i) for i in after["state"].split("-")]
    # (a move into or out of a message state hides or shows the figure: a change too)
    if not after["hidden"] and not before["hidden"]:
        assert after["src"] != before["src"], f"{what}: the figure did not change"
        assert after["alt"] != before["alt"], f"{what}: the alt text did not change"
    if not (before["hidden"] and after["hidden"]):  # one message (theta = 0.5) for every n: same text
        assert after["readout"] != before["readout"], f"{what}: the read-out did not change"
    expected = live.shown(indices)
    assert TIMING.sub("", _text(after["readout"])) == TIMING.sub("", expected), what
    return after


def _move_by_keyboard(page, twin, k, kind):
    control = twin.locator(f'[data-control="{k}"]')
    if kind == "radio":
        checked = twin.locator(f'[data-control="{k}"]:checked')
        checked.focus()
        page.keyboard.press("ArrowRight")
    elif kind == "checkbox":
        control.focus()
        page.keyboard.press("Space")
    else:  # range, select: one step up, or down at the top
        control.focus()
        at_top = control.evaluate("el => el.tagName === 'SELECT' ? el.selectedIndex === el.options.length - 1"
                                  " : +el.value === +el.max")
        page.keyboard.press("ArrowLeft" if at_top and kind == "range" else
                            "ArrowUp" if at_top else "ArrowRight" if kind == "range" else "ArrowDown")


def _move_by_mouse(page, twin, k, kind):
    control = twin.locator(f'[data-control="{k}"]')
    if kind == "range":
        box = control.bounding_box()
        value = int(control.input_value())
        top = int(control.get_attribute("max"))
        frac = 0.15 if value > top / 2 else 0.85  # far from where it is
        page.mouse.click(box["x"] + frac * box["width"], box["y"] + box["height"] / 2)
    elif kind == "select":
        n = control.evaluate("el => el.options.length")
        current = int(control.input_value())
        control.select_option(str((current + 1) % n))
    elif kind == "radio":
        unchecked = twin.locator(f'label:has([data-control="{k}"]:not(:checked))').first
        unchecked.click()
    else:
        twin.locator(f'label:has([data-control="{k}"])').click()


def _latency(page, twin_id, k, kind):
    """Milliseconds from a control change to the new figure decoded (measured in the page)."""
    return page.evaluate("""async ([id, k, kind]) => {
        const t = document.getElementById(id);
        const inputs = t.querySelectorAll(`[data-control="${k}"]`);
        const img = t.querySelector('img.ppdm-twin-figure');
        const start = performance.now();
        if (kind === 'radio') {
            const i = [...inputs].findIndex(r => r.checked);
            inputs[(i + 1) % inputs.length].checked = true;
        } else if (kind === 'checkbox') {
            inputs[0].checked = !inputs[0].checked;
        } else if (kind === 'select') {
            inputs[0].selectedIndex = (inputs[0].selectedIndex + 1) % inputs[0].options.length;
        } else {
            const el = inputs[0];
            el.value = (+el.value + 1 > +el.max) ? 0 : +el.value + 1;
        }
        inputs[0].dispatchEvent(new Event(kind === 'range' ? 'input' : 'change', {bubbles: true}));
        if (img.hidden) { return null; }
        try { await img.decode(); } catch (e) { return null; }
        return performance.now() - start;
    }""", [twin_id, k, kind])


def _twins_of(stem):
    nb = json.loads((REPO / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    return {f"twin-{stem[:2]}-{k + 1}": f for k, f in enumerate(_twins.find_panels(nb))}


PAGES = [p.stem for p in NOTEBOOKS if _twins_of(p.stem)]


@pytest.mark.parametrize("stem", PAGES)
def test_every_twin_answers_keyboard_and_mouse_offline(browser, site_server, stem):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    found = _twins_of(stem)
    context, page, refused = _open(browser, site_server)
    try:
        page.goto(f"{site_server}/notebooks/{stem}.html", wait_until="load")
        twins = page.locator(".ppdm-twin")
        assert twins.count() == len(found), f"{stem}: {twins.count()} twins for {len(found)} panels"
        for twin_id, f in found.items():
            twin = page.locator(f"#{twin_id}")
            page.wait_for_function("t => t.getAttribute('data-ready') === '1'", arg=twin.element_handle())
            data = json.loads((_twins.DATA / f"{twin_id}.json").read_text(encoding="utf-8"))
            label = twin.locator(".ppdm-twin-label").inner_text()
            assert "precomputed on a grid; launch the notebook for the live panel" in label.lower()
            assert twin.locator("a.ppdm-twin-launch", has_text="JupyterLite").count() == 1
            assert twin.locator("a.ppdm-twin-launch", has_text="Binder").count() == 1
            assert twin.locator(".ppdm-twin-readout").get_attribute("aria-live") == "polite"
            twin.scroll_into_view_if_needed()
            twin.screenshot(path=str(ARTIFACTS / f"{twin_id}_1366x768.png"))
            live = _Live(f, data["controls"])
            before = _snapshot(twin)
            for k, c in enumerate(data["controls"]):
                if c["fixed"]:
                    continue
                _move_by_keyboard(page, twin, k, c["kind"])
                before = _check_move(twin, before, live, f"{twin_id} {c['label']} by keyboard")
                _move_by_mouse(page, twin, k, c["kind"])
                before = _check_move(twin, before, live, f"{twin_id} {c['label']} by mouse")
                for _ in range(3):
                    ms = _latency(page, twin_id, k, c["kind"])
                    if ms is not None:
                        LATENCIES.setdefault(twin_id, []).append(ms)
            twin.screenshot(path=str(ARTIFACTS / f"{twin_id}_moved_1366x768.png"))
        assert not page.errors, page.errors
        assert not refused, f"{stem}: requests left the machine: {refused[:5]}"
    finally:
        context.close()


@pytest.mark.parametrize("stem", PAGES)
def test_twins_fit_a_projector_screen(browser, site_server, stem):
    """At 1024x768 the twin's controls and figure stay inside the page (screenshots to look at)."""
    context, page, refused = _open(browser, site_server, 1024, 768)
    try:
        page.goto(f"{site_server}/notebooks/{stem}.html", wait_until="load")
        for twin_id in _twins_of(stem):
            twin = page.locator(f"#{twin_id}")
            twin.scroll_into_view_if_needed()
            box = twin.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 1024, box
            img = twin.locator("img.ppdm-twin-figure").bounding_box()
            assert img["width"] <= box["width"] + 1, (img, box)
            twin.screenshot(path=str(ARTIFACTS / f"{twin_id}_1024x768.png"))
        assert not refused, refused[:5]
    finally:
        context.close()
