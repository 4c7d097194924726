"""axe-core over every notebook opened in JupyterLab after Run All (issue 26).

Each notebook is opened in the private JupyterLab of ``conftest.py``, its outputs cleared and run
top to bottom (``test_notebooks_in_browser._open_and_run``); then axe-core audits the notebook
(the visible notebook panel: the project's content, not JupyterLab's menus) for the WCAG 2.1 A/AA
rules. No critical or serious violation may remain except the upstream gaps listed in
``tests/a11y_upstream_gaps.json`` (``"where": "lab"``). Every panel picture and every inline
figure needs a text alternative of at least six words that is not a file name (the panel's
``<img>`` is named by its ``title``: ipywidgets' Image has no alt, see the gap list). Counts by
rule and impact, for the notebook and for the whole page, go to ``artifacts/a11y/``.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from axe_helpers import axe_source, bad_alt, blocking, counts, run_axe
from test_notebooks_in_browser import NB, NOTEBOOKS, _find_notebook, _open_and_run

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "a11y"

pytestmark = pytest.mark.browser

# the accessible name of an image as a screen reader gets it: alt, else aria-label, else title
_IMAGE_NAMES = """els => els.map(e => [e.className || e.tagName,
    e.getAttribute('alt') || e.getAttribute('aria-label') || e.getAttribute('title')])"""


@pytest.mark.parametrize("prefix", NOTEBOOKS)
def test_notebook_after_run_all_has_no_critical_or_serious_violation(page, jupyter_server, prefix):
    name = _find_notebook(jupyter_server, prefix)
    _open_and_run(page, jupyter_server, f"notebooks/{name}")
    source = axe_source()
    notebook = run_axe(page, source, include=NB)
    whole = run_axe(page, source)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table = lambda v: sorted(([r, i, n] for (r, i), n in counts({name: v}).items()), key=lambda r: -r[2])  # noqa: E731
    (ARTIFACTS / f"axe_lab_{prefix}.json").write_text(json.dumps(
        {"notebook": name, "counts_notebook": table(notebook), "counts_page": table(whole),
         "violations": notebook}, indent=1))
    images = page.eval_on_selector_all(f"{NB} .jp-OutputArea-output img", _IMAGE_NAMES)
    bad = [f"{cls}: {bad_alt(alt)}" for cls, alt in images if bad_alt(alt)]
    found = blocking(notebook, "lab")
    assert not found and not bad, (
        f"{name}: {len(found)} critical/serious axe violations:\n" + "\n".join(found[:30])
        + f"\n{len(bad)} of {len(images)} images without a text alternative:\n" + "\n".join(bad[:20]))
