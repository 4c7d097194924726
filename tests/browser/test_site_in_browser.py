"""The course website in a real browser (issue 16; ``make test-browser``).

The built site (``site/_build/html``, from ``make site``; built here when missing) is served by a
local http server on 127.0.0.1 and opened in headless Chromium with every request to another
host refused and recorded: the site must work offline. Checks:

(a) the start page renders (title, the learning path) and asks nothing of another host;
(b) notebook 02: the ``to_jshtml`` animation's player is there, and pressing *Play* changes the
    frame shown (the image's ``src``) within a few seconds;
(c) notebook 04: the widget panel's stored PNG is displayed (``naturalWidth`` > 0);
(d) math is typeset by the site's own MathJax (``mjx-container`` elements appear).

Screenshots go to ``artifacts/site/`` (git-ignored). Chromium comes from ``conftest.py``.
"""
from __future__ import annotations

import functools
import hashlib
import json
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from ppdm_edu.widgets.panel import static_picture

REPO = Path(__file__).resolve().parents[2]
HTML = REPO / "site" / "_build" / "html"
ARTIFACTS = REPO / "artifacts" / "site"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

pytestmark = pytest.mark.browser


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output readable
        pass


@pytest.fixture(scope="module")
def site_server():
    if not (HTML / "index.html").exists():
        proc = subprocess.run([sys.executable, str(REPO / "site" / "build.py")], capture_output=True,
                              text=True, cwd=REPO, timeout=900)
        assert proc.returncode == 0, f"site/build.py failed:\n{proc.stderr[-4000:]}"
    handler = functools.partial(_QuietHandler, directory=str(HTML))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def site_page(browser, site_server):
    context = browser.new_context(viewport={"width": 1300, "height": 950})
    refused: list[str] = []

    def route(r):
        url = r.request.url
        if url.startswith(site_server) or url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            refused.append(url)
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    pg.refused = refused
    pg.errors = []
    pg.on("pageerror", lambda exc: pg.errors.append(str(exc)))
    pg.base = site_server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        yield pg
    finally:
        context.close()


def _assert_offline(pg):
    assert not pg.refused, f"the page asked another host for: {pg.refused[:10]}"
    assert not pg.errors, f"JavaScript errors: {pg.errors[:5]}"


def test_start_page(site_page):
    pg = site_page
    pg.goto(f"{pg.base}/index.html", wait_until="networkidle")
    assert "ppdm-edu" in pg.title()
    assert pg.get_by_role("heading", name="The learning path").is_visible()
    links = pg.locator("article a[href$='02_reconstruction.html']")
    assert links.count() >= 1
    pg.screenshot(path=str(ARTIFACTS / "index.png"))
    _assert_offline(pg)


def test_notebook_02_animation_plays(site_page):
    pg = site_page
    pg.goto(f"{pg.base}/notebooks/02_reconstruction.html", wait_until="networkidle")
    frame = pg.locator("img[id^='_anim_img']").first
    frame.scroll_into_view_if_needed()
    player = pg.locator("div.animation").first
    player.wait_for(state="visible")
    pg.wait_for_function("img => img.src.startsWith('data:image/png') && img.naturalWidth > 0",
                         arg=frame.element_handle())
    first_src = frame.get_attribute("src") or frame.evaluate("img => img.src")
    width = frame.evaluate("img => img.naturalWidth")
    player.screenshot(path=str(ARTIFACTS / "02_animation_before.png"))
    player.locator("button[title='Play']").click()
    pg.wait_for_function("([img, before]) => img.src !== before", arg=[frame.element_handle(), first_src],
                         timeout=10_000)
    pg.wait_for_timeout(700)
    player.screenshot(path=str(ARTIFACTS / "02_animation_playing.png"))
    player.locator("button[title='Pause']").click()
    assert width > 0
    _assert_offline(pg)


def test_notebook_04_panel_image_loads(site_page):
    pg = site_page
    nb = json.loads((REPO / "notebooks" / "04_trees_on_perturbed_data.ipynb").read_text(encoding="utf-8"))
    pictures = (static_picture(out) for cell in nb["cells"] for out in cell.get("outputs", []))
    names = {hashlib.sha256(p[0]).hexdigest() for p in pictures if p is not None}
    assert names, "notebook 04 stores no panel output"
    pg.goto(f"{pg.base}/notebooks/04_trees_on_perturbed_data.html", wait_until="networkidle")
    found = 0
    for name in names:
        img = pg.locator(f"img[src*='{name}']").first
        assert img.count() == 1, f"the panel image {name}.png is not on the page"
        img.scroll_into_view_if_needed()
        pg.wait_for_function("img => img.complete", arg=img.element_handle())
        natural = img.evaluate("img => [img.naturalWidth, img.naturalHeight]")
        assert natural[0] > 0 and natural[1] > 0, natural
        img.screenshot(path=str(ARTIFACTS / "04_panel.png"))
        found += 1
    assert found == len(names)
    _assert_offline(pg)


def test_math_is_typeset_by_the_sites_mathjax(site_page):
    pg = site_page
    pg.goto(f"{pg.base}/notebooks/07_attacks_and_local_dp.html", wait_until="networkidle")
    pg.wait_for_function("document.querySelectorAll('mjx-container').length > 5", timeout=30_000)
    n = pg.evaluate("document.querySelectorAll('mjx-container').length")
    scripts = pg.evaluate("[...document.scripts].map(s => s.src).filter(s => /mathjax/i.test(s))")
    assert scripts and all(s.startswith(pg.base) for s in scripts), scripts
    math = pg.locator("mjx-container").nth(min(3, n - 1))
    math.scroll_into_view_if_needed()
    pg.screenshot(path=str(ARTIFACTS / "07_math.png"))
    # no raw TeX left in the text of the page
    raw = pg.evaluate("document.querySelector('article').innerText.match(/\\$[^$\\n]*\\\\[a-zA-Z]+[^$\\n]*\\$/g)")
    assert not raw, f"untypeset TeX on the page: {raw[:5]}"
    _assert_offline(pg)


def test_jupyterlite_opens_a_notebook_offline_up_to_the_kernel(site_page):
    """The JupyterLite build (``make lite``) serves the app and the notebooks from the site.

    Only the Pyodide runtime would come from its CDN when the kernel starts (refused here, so
    the kernel never starts): the app, the notebook with its install cell first and its stored
    outputs must all come from the local server.
    """
    lite = HTML / "lite" / "lab" / "index.html"
    if not lite.exists():
        proc = subprocess.run([sys.executable, str(REPO / "site" / "lite.py")], capture_output=True,
                              text=True, cwd=REPO, timeout=900)
        assert proc.returncode == 0, f"site/lite.py failed:\n{proc.stderr[-4000:]}"
    pg = site_page
    pg.goto(f"{pg.base}/notebooks/04_trees_on_perturbed_data.html", wait_until="networkidle")
    launch = pg.locator("a[href*='lite/lab/index.html?path=notebooks/04_trees_on_perturbed_data.ipynb']")
    assert launch.count() >= 1, "no JupyterLite launch button on the page"
    pg.goto(launch.first.evaluate("a => a.href"))
    cells = pg.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell")
    cells.first.wait_for(state="visible", timeout=60_000)
    # the editor fills in after the cell appears
    pg.wait_for_function("(document.querySelector('.jp-NotebookPanel .jp-Cell') || {}).innerText"
                         "?.includes('piplite')", timeout=30_000)
    first = cells.first.inner_text()
    assert "emscripten" in first and "piplite.install" in first, first[:300]
    pg.wait_for_function(
        "document.querySelectorAll('.jp-OutputArea-output img').length > 0 && "
        "[...document.querySelectorAll('.jp-OutputArea-output img')].every(i => i.complete)",
        timeout=30_000)
    widths = pg.evaluate("[...document.querySelectorAll('.jp-OutputArea-output img')].map(i => i.naturalWidth)")
    assert widths and min(widths) > 0, widths
    pg.screenshot(path=str(ARTIFACTS / "lite_04.png"))
    others = [u for u in pg.refused if "/pyodide/" not in u]
    assert not others, f"JupyterLite asked another host for: {others[:10]}"
    errors = [e for e in pg.errors if "/pyodide/" not in e]  # the refused runtime, as expected
    assert not errors, errors[:5]


def test_search_finds_reconstruction(site_page):
    pg = site_page
    pg.goto(f"{pg.base}/search.html?q=reconstruction", wait_until="networkidle")
    pg.wait_for_function("document.querySelector('#search-results')?.innerText.includes('Search finished')",
                         timeout=30_000)
    hits = pg.evaluate("[...document.querySelectorAll('#search-results a')].map(a => a.getAttribute('href'))")
    assert any("notebooks/02_reconstruction.html" in h for h in hits), hits[:20]
    pg.screenshot(path=str(ARTIFACTS / "search.png"))
    _assert_offline(pg)


@pytest.mark.parametrize("width", [1366, 1024])
def test_report_summary_table_fits_and_figures_load(browser, site_server, width):
    """The reproduction report at a laptop / projector width: its summary table shows every
    column without a horizontal scroll bar, and every figure loads at no more than its own size."""
    context = browser.new_context(viewport={"width": width, "height": 768})
    try:
        pg = context.new_page()
        pg.goto(f"{site_server}/reports.html", wait_until="networkidle")
        table = pg.locator("article table").first
        overflow = table.evaluate("t => (t.closest('.pst-scrollable-table-container') || t.parentElement)"
                                  ".scrollWidth - (t.closest('.pst-scrollable-table-container') || "
                                  "t.parentElement).clientWidth")
        assert overflow <= 1, f"the summary table is {overflow} px wider than the column at {width} px"
        pg.wait_for_function("[...document.querySelectorAll('article img')].every(i => i.complete)")
        sizes = pg.evaluate("[...document.querySelectorAll('article img')]"
                            ".map(i => [i.getAttribute('src'), i.naturalWidth, i.clientWidth])")
        assert len(sizes) >= 6 and all(nat > 0 for _, nat, _ in sizes), sizes
        assert all(shown <= nat for _, nat, shown in sizes), f"upscaled (blurred) figures: {sizes}"
        pg.screenshot(path=str(ARTIFACTS / f"reports_{width}.png"))
    finally:
        context.close()
