"""Every notebook is a slideshow (jupyterlab-slideshow): title slide, sections, each live panel on a
slide of its own, hidden solutions skipped."""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
PANEL = re.compile(r"\w+Panel\(")


def _kind(cell):
    return cell.metadata.get("slideshow", {}).get("slide_type")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_a_slideshow(path):
    nb = nbformat.read(path, as_version=4)
    kinds = [_kind(c) for c in nb.cells]
    assert None not in kinds, f"cells without slide metadata: {[i for i, k in enumerate(kinds) if k is None]}"
    assert kinds[0] == "slide"
    assert kinds.count("slide") >= 5
    for i, cell in enumerate(nb.cells):
        src = cell.source.lstrip()
        if cell.cell_type == "markdown" and src.startswith("## "):
            assert kinds[i] == "slide", f"cell {i}: a section must open a slide"
        if cell.cell_type == "markdown" and src.startswith("<details>"):
            assert kinds[i] == "skip", f"cell {i}: a hidden solution must not be on a slide"
        lines = [x for x in cell.source.strip().splitlines() if x.strip() and not x.startswith("#")]
        if cell.cell_type == "code" and lines and PANEL.search(lines[-1]):
            assert kinds[i] == "slide", f"cell {i}: a live panel gets a slide of its own"
            if i + 1 < len(nb.cells):
                assert kinds[i + 1] in ("slide", "subslide", "skip"), f"cell {i + 1} shares the panel's slide"
