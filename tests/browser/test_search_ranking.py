"""Site search ranks the lessons above API entries (issue 30 §4).

Runs Sphinx's own search (searchtools.js with the site's scorer, site/_search_scorer.js) in
Chromium on the built site for the three queries the issue measured, and checks that every
notebook result comes before every API/reference result, and that the notebook that teaches the
topic is among the first results.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from static_server import serve_directory

REPO = Path(__file__).resolve().parents[2]
HTML = REPO / "site" / "_build" / "html"
pytestmark = pytest.mark.browser

# query -> the notebooks that teach it (one of them must be among the first three results);
# ε is taught in three: θ <-> ε in 03, ε-LDP in 07, every mechanism on the ε scale in 08
QUERIES = {
    "reconstruction": ("02_reconstruction",),
    "randomized response": ("03_randomized_response",),
    "epsilon": ("03_randomized_response", "07_attacks_and_local_dp", "08_choosing_a_mechanism"),
    "Laplace": ("07_attacks_and_local_dp", "08_choosing_a_mechanism"),
    "GRR": ("08_choosing_a_mechanism",),
    "reconstruction attack": ("09_reconstruction_attacks",),
}
# query -> the notebook that teaches the term: it must be the FIRST result
FIRST = {
    "reconstruction": "02_reconstruction",
    "randomized response": "03_randomized_response",
    "epsilon": "07_attacks_and_local_dp",  # ε-local differential privacy is defined in 07 §5
    "Laplace": "07_attacks_and_local_dp",  # the Laplace mechanism is introduced in 07 §5
    "GRR": "08_choosing_a_mechanism",  # k-ary randomized response (GRR) against OUE: 08 §5
    "reconstruction attack": "09_reconstruction_attacks",  # Dinur & Nissim's attack: 09
}



@pytest.fixture(scope="module")
def site_url():
    if not (HTML / "search.html").exists():
        proc = subprocess.run([sys.executable, str(REPO / "site" / "build.py")], capture_output=True,
                              text=True, cwd=REPO, timeout=900)
        assert proc.returncode == 0, proc.stderr[-4000:]
    with serve_directory(HTML) as url:
        yield url


@pytest.mark.parametrize("query, lessons", QUERIES.items())
def test_lessons_rank_above_api_entries(browser, site_url, query, lessons):
    context = browser.new_context()
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(site_url) else r.abort())
    page = context.new_page()
    try:
        page.goto(f"{site_url}/search.html?q={query.replace(' ', '+')}")
        page.wait_for_function("() => (document.querySelector('#search-results .search-summary') || {})"
                               ".textContent?.startsWith('Search finished')", timeout=60_000)
        hrefs = page.eval_on_selector_all("#search-results ul.search li > a",
                                          "els => els.map(e => e.getAttribute('href'))")
        kinds = ["lesson" if h.startswith("notebooks/") else "other" for h in hrefs]
        assert kinds[0] == "lesson", hrefs[:10]
        first_other = kinds.index("other") if "other" in kinds else len(kinds)
        assert "lesson" not in kinds[first_other:], hrefs[:20]
        api = [i for i, h in enumerate(hrefs) if h.startswith(("api", "generated/"))]
        assert not api or api[0] > first_other - 1
        top = [h.split("/")[-1].split(".html")[0] for h in hrefs[:3]]
        assert set(lessons) & set(top), (query, hrefs[:10])
        assert top[0] == FIRST[query], (query, hrefs[:5])
    finally:
        context.close()
