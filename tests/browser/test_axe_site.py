"""axe-core over every page of the built website, and the alt text of every image (issue 26).

The site (``site/_build/html``; built with ``site/build.py`` when missing) is served on
127.0.0.1 and every page is audited with axe-core (npm, pinned in ``axe_helpers.AXE_VERSION``)
for the WCAG 2.1 A/AA rules: no critical or serious violation may remain except the upstream
gaps listed in ``tests/a11y_upstream_gaps.json``. Every ``<img>`` needs a text alternative of at
least six words that is not a file name. The counts by rule and impact, and screenshots at
1366x768 and 1024x768, go to ``artifacts/a11y/`` (one JSON per shard of pages).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from axe_helpers import axe_source, bad_alt, blocking, counts, run_axe
from static_server import serve_directory

REPO = Path(__file__).resolve().parents[2]
HTML = REPO / "site" / "_build" / "html"
ARTIFACTS = REPO / "artifacts" / "a11y"

pytestmark = pytest.mark.browser



@pytest.fixture(scope="module")
def site_url():
    if not (HTML / "index.html").exists():
        proc = subprocess.run([sys.executable, str(REPO / "site" / "build.py")], capture_output=True,
                              text=True, cwd=REPO, timeout=900)
        assert proc.returncode == 0, f"site/build.py failed:\n{proc.stderr[-4000:]}"
    with serve_directory(HTML) as url:
        yield url


def site_pages(root: Path = HTML) -> list[str]:
    """Every HTML page of the site (not the theme's assets, the page sources or the lite app)."""
    skip = ("_static/", "_sources/", "lite/", "_images/")
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html")
                  if not p.relative_to(root).as_posix().startswith(skip))


# The ~100 pages are audited in shards, so that the browser stage's workers share them out
# (pytest-xdist --dist load); one shard's pages share one browser page.
SHARDS = 6


def _audit_pages(browser, site_url, names: list[str]) -> tuple[dict, dict]:
    """axe's violations and the alt texts of ``names``, one browser page reused."""
    source = axe_source()
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith((site_url, "data:", "blob:"))
                  else r.abort())
    page = context.new_page()
    page.set_default_timeout(30_000)
    violations, alts = {}, {}
    try:
        for name in names:
            page.goto(f"{site_url}/{name}", wait_until="load")
            # MathJax typesets after load: audit the typeset page
            page.wait_for_function("() => !window.MathJax || !MathJax.startup || "
                                   "MathJax.startup.promise.then(() => true)")
            violations[name] = run_axe(page, source)
            alts[name] = page.eval_on_selector_all("img", "els => els.map(e => [e.getAttribute('src') || '', "
                                                          "e.getAttribute('alt')])")
    finally:
        context.close()
    return violations, alts


@pytest.mark.parametrize("shard", range(SHARDS), ids=[f"pages-{k + 1}-of-{SHARDS}" for k in range(SHARDS)])
def test_every_page_has_no_serious_violation_and_every_image_a_text_alternative(browser, site_url, shard):
    pages = site_pages()
    assert len(pages) >= 10, f"only {len(pages)} pages found under {HTML}"
    names = pages[shard::SHARDS]
    violations, alts = _audit_pages(browser, site_url, names)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table = sorted(([rule, impact, n] for (rule, impact), n in counts(violations).items()),
                   key=lambda r: -r[2])
    (ARTIFACTS / f"axe_site_{shard + 1}_of_{SHARDS}.json").write_text(json.dumps(
        {"pages": len(violations), "counts": table, "violations": violations}, indent=1))
    found = [f"{page}: {line}" for page, v in violations.items() for line in blocking(v, "site")]
    bad = [f"{page}: {src[:60]}: {bad_alt(alt)}" for page, images in alts.items()
           for src, alt in images if bad_alt(alt)]
    total = sum(len(images) for images in alts.values())
    assert not found and not bad, (
        f"{len(found)} critical/serious axe violations:\n" + "\n".join(found[:40])
        + f"\n{len(bad)} of {total} images without a text alternative:\n" + "\n".join(bad[:40]))


def test_the_site_has_images_to_audit(site_url):
    pages = site_pages()
    assert any("<img" in (HTML / p).read_text(encoding="utf-8") for p in pages), "no image on any page"


def test_math_carries_assistive_mathml(browser, site_url):
    page = browser.new_page()
    try:
        page.goto(f"{site_url}/notebooks/01_randomization_and_privacy.html", wait_until="load")
        page.wait_for_selector("mjx-container", timeout=30_000)
        page.wait_for_selector("mjx-container mjx-assistive-mml math", state="attached", timeout=30_000)
        n_math = page.locator("mjx-container").count()
        n_mml = page.locator("mjx-container mjx-assistive-mml math").count()
        assert n_mml == n_math, f"{n_mml} of {n_math} formulas carry MathML for screen readers"
    finally:
        page.close()


@pytest.mark.parametrize("width", [1366, 1024])
def test_screenshots_with_the_focus_ring(browser, site_url, width):
    """A keyboard user sees where the focus is: Tab into the page and photograph it."""
    page = browser.new_page(viewport={"width": width, "height": 768})
    try:
        page.goto(f"{site_url}/notebooks/03_randomized_response.html", wait_until="load")
        for _ in range(3):
            page.keyboard.press("Tab")
        outline = page.evaluate("() => { const s = getComputedStyle(document.activeElement);"
                                " return [s.outlineStyle, s.outlineWidth]; }")
        assert outline[0] != "none" and outline[1] != "0px", f"no visible focus: {outline}"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"site_focus_{width}.png"))
        img = page.locator("img[src*='_images/']").first
        img.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"site_figure_{width}.png"))
    finally:
        page.close()
