"""Issue 25 §1: offline, the JupyterLite page says in words that Python cannot be loaded, and
what to do, within 30 s (``site/_lite_offline.py``).

The lite build (``site/_build/html/lite``; built here by ``site/lite.py`` when missing, which
needs PyPI for the wheels) is served from 127.0.0.1 and opened in headless Chromium with every
request to another host refused, as when the reader is offline: the Pyodide runtime, fetched
from its CDN, cannot load. A second test answers the CDN request (with an empty module), as when
online: then no banner may appear.
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from static_server import serve_directory

REPO = Path(__file__).resolve().parents[2]
HTML = REPO / "site" / "_build" / "html"
LITE = HTML / "lite"
ARTIFACTS = REPO / "artifacts" / "lite"
NOTEBOOK = "notebooks/01_randomization_and_privacy.ipynb"
LIMIT_SECONDS = 30  # the limit

sys.path.insert(0, str(REPO / "site"))
import _lite_offline  # noqa: E402

sys.path.remove(str(REPO / "site"))

pytestmark = pytest.mark.browser



@pytest.fixture(scope="module")
def lite_server():
    if not (LITE / "jupyter-lite.json").exists():
        proc = subprocess.run([sys.executable, str(REPO / "site" / "lite.py")], capture_output=True,
                              text=True, cwd=REPO, timeout=1200)
        assert proc.returncode == 0, f"site/lite.py failed:\n{proc.stderr[-4000:]}"
    with serve_directory(HTML) as url:
        yield url


def _page(browser, base, online: bool, black_hole: bool = False):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    refused: list[str] = []
    answered: list[str] = []

    def route(r):
        url = r.request.url
        if url.startswith(base) or url.startswith(("data:", "blob:")):
            r.continue_()
        elif black_hole and "pyodide" in url:
            refused.append(url)  # never answered: a network that drops packets
        elif online and url == _lite_offline.pyodide_url(LITE):
            answered.append(url)  # "online": the CDN answers (an empty module; nothing leaves)
            r.fulfill(status=200, body="export {};", headers={"Content-Type": "text/javascript"})
        else:
            refused.append(url)
            r.abort()

    context.route("**/*", route)
    return context, context.new_page(), refused, answered


@pytest.mark.parametrize("black_hole", [False, True], ids=["refused", "no-answer"])
def test_offline_lite_page_says_python_cannot_be_loaded_within_30_s(browser, lite_server, black_hole):
    """Refused (no network: at once) or never answered (a black hole: after WAIT_SECONDS)."""
    context, page, refused, _ = _page(browser, lite_server, online=False, black_hole=black_hole)
    try:
        start = time.monotonic()
        page.goto(f"{lite_server}/lite/lab/index.html?path={NOTEBOOK}")
        banner = page.locator(f"#{_lite_offline.BANNER_ID}")
        banner.wait_for(state="visible", timeout=LIMIT_SECONDS * 1000)
        seconds = time.monotonic() - start
        text = banner.inner_text()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"offline_banner_{'no_answer' if black_hole else 'refused'}.png"))
        assert "Python cannot be loaded" in text and "What to do" in text, text
        assert "connect to the internet and reload" in text, text
        assert ("did not answer within" if black_hole else "the request failed") in text, text
        assert banner.get_attribute("role") == "alert"
        # the way out it offers is a working link to the course website
        href = banner.locator("a").get_attribute("href")
        assert (page.url.rsplit("/", 1)[0] + "/" + href).endswith("/index.html")
        assert any("pyodide" in url for url in refused), refused  # it was the runtime that failed
        # an install route that works (the package is not on PyPI): the repository and make lab
        assert "git clone" in text and "make lab" in text and 'pip install "ppdm-edu' not in text, text
        # the banner sits below JupyterLite's menu bar, which stays visible and usable
        menu = page.locator("#jp-menu-panel")
        if menu.count():
            m, b = menu.bounding_box(), banner.bounding_box()
            assert m is not None and b is not None and m["y"] + m["height"] <= b["y"], (m, b)
        # ... and above its status bar (the kernel's state), which it must not cover either
        page.locator("#jp-bottom-panel").wait_for(state="visible")
        page.wait_for_function(
            """([box, bar]) => { const b = box.getBoundingClientRect(), s = bar.getBoundingClientRect();
                return s.height > 0 && b.bottom <= s.top + 0.5; }""",
            arg=[banner.element_handle(), page.locator("#jp-bottom-panel").element_handle()],
            timeout=10_000)
        page.screenshot(path=str(ARTIFACTS / f"offline_banner_{'no_answer' if black_hole else 'refused'}_statusbar.png"))
        print(f"offline banner after {seconds:.1f} s")
        assert seconds <= LIMIT_SECONDS
        banner.locator("button").click()  # it can be dismissed
        assert banner.count() == 0
    finally:
        context.close()


def test_online_lite_page_shows_no_banner(browser, lite_server):
    context, page, _, answered = _page(browser, lite_server, online=True)
    try:
        page.goto(f"{lite_server}/lite/lab/index.html?path={NOTEBOOK}")
        # the script marks its outcome on <html>: wait for it rather than for a while
        page.wait_for_function("() => document.documentElement.hasAttribute('data-ppdm-pyodide')",
                               timeout=LIMIT_SECONDS * 1000)
        assert page.evaluate("() => document.documentElement.getAttribute('data-ppdm-pyodide')") == "reachable"
        assert answered, "the page never asked the CDN for Pyodide"
        assert page.locator(f"#{_lite_offline.BANNER_ID}").count() == 0
    finally:
        context.close()
