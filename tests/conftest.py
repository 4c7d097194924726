"""Fixtures shared by more than one test module.

``stored_panel_pngs``: a function ``notebook path -> list of PNG bytes``, the picture each widget
panel stores in the committed notebook. Since issue 15 that picture lives in the panel's
kernel-gone stand-in (``widgets/panel.py``: an HTML output marked ``ppdm-panel-static`` with the
last PNG inlined); notebooks saved before the stand-in existed kept an ``image/png`` beside the
widget view. The site build (``site/build.py``) turns the stand-in into the page's image, so the
site tests (``test_site.py``, ``browser/test_site_in_browser.py``) look for exactly these bytes.
"""
from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_INLINE_PNG = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


def _stored_panel_pngs(nb_path: Path) -> list[bytes]:
    nb = json.loads(Path(nb_path).read_text(encoding="utf-8"))
    pngs = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            data = out.get("data", {})
            html = data.get("text/html", "")
            html = "".join(html) if isinstance(html, list) else html
            if "ppdm-panel-static" in html:
                pngs += [base64.b64decode(m) for m in _INLINE_PNG.findall(html)]
            elif WIDGET_VIEW in data and "image/png" in data:
                pngs.append(base64.b64decode(data["image/png"]))
    return pngs


@pytest.fixture(scope="session")
def stored_panel_pngs():
    """``f(notebook_path) -> [png bytes, ...]``: each panel's stored picture (see module doc)."""
    return _stored_panel_pngs
