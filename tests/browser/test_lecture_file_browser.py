"""Lecture mode fits a 1024x768 projector with the file browser open (``make lab``'s default).

``test_notebooks_in_browser.py`` checks lecture mode with the left sidebar hidden. Here the file
browser stays open, as JupyterLab shows it on a first start: for each lecture notebook
(``lecture/NN_lecture.ipynb``, see ``conftest.py``) every panel lies inside the visible notebook,
nothing in the notebook scrolls sideways, and each panel's figure, drawn wider than the notebook
there, takes the whole width of its output area (lecture mode drops the output prompt's gutter). Screenshots: ``artifacts/browser/NN_lecture_filebrowser_*.png``.
"""
from __future__ import annotations

import pytest
from test_notebooks_in_browser import NB, PANEL, _errors, _failure_artifacts, _open_and_run, _shot

pytestmark = pytest.mark.browser

LECTURE = ["01", "02", "03", "04", "05", "06", "07", "08"]

# what the test reads from the page: the visible notebook's box, how far its content reaches
# sideways, and each panel's box with its figure's shown and natural widths
_MEASURE = """nb => {
    const outer = nb.querySelector('.jp-WindowedPanel-outer');
    const r = outer.getBoundingClientRect();
    const wide = [...nb.querySelectorAll('.jp-Cell, .jp-OutputArea-output')]
        .filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => `${e.className.split(' ')[0]}: ${e.scrollWidth} > ${e.clientWidth}`);
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
            overflowX: outer.scrollWidth - outer.clientWidth, wide};
}"""
_FIGURE = """p => { const img = p.querySelector('img.widget-image');
    const b = img.getBoundingClientRect();
    const area = p.closest('.jp-OutputArea').getBoundingClientRect();
    return {shown: b.width, natural: img.naturalWidth / (window.devicePixelRatio || 1), right: b.right,
            area: area.width}; }"""


@pytest.mark.parametrize("prefix", LECTURE)
def test_lecture_mode_fits_1024x768_with_the_file_browser_open(projector_page, jupyter_server, prefix):
    page = projector_page
    path = f"lecture/{prefix}_lecture.ipynb"
    tag = f"{prefix}_lecture_filebrowser"
    try:
        _open_and_run(page, jupyter_server, path)
        browser_panel = page.locator("#filebrowser")
        assert browser_panel.is_visible(), f"{path}: the file browser is not open"
        nb = page.locator(NB).first
        panels = page.locator(f"{NB} {PANEL}")
        assert panels.count() >= 1, f"{path}: no panel rendered"
        for index in range(panels.count()):
            panel = panels.nth(index)
            panel.evaluate("p => p.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(300)
            _shot(page, f"{tag}_panel{index}_1024x768")
            view = nb.evaluate(_MEASURE)
            box = panel.bounding_box()
            fig = panel.evaluate(_FIGURE)
            print(f"{path} panel {index}: notebook {view}, panel {box}, figure {fig}")
            assert view["overflowX"] <= 0 and not view["wide"], \
                f"{path} panel {index}: the notebook scrolls sideways ({view})"
            assert view["left"] <= box["x"] and box["x"] + box["width"] <= view["right"] + 0.5, \
                f"{path} panel {index}: outside the visible notebook ({box} vs {view})"
            assert fig["right"] <= view["right"] + 0.5, f"{path} panel {index}: figure cut ({fig})"
            assert view["top"] - 1 <= box["y"] and box["y"] + box["height"] <= view["bottom"] + 1, \
                f"{path} panel {index}: taller than the visible notebook ({box} vs {view})"
            # the window is narrower than the figure: it may shrink, but only to the width of
            # its cell's output area, with no gutter beside it taking room from it
            assert fig["shown"] >= min(fig["natural"], fig["area"]) - 1, \
                f"{path} panel {index}: figure shown {fig['shown']:.0f} px wide in a " \
                f"{fig['area']:.0f} px output area (drawn {fig['natural']:.0f} px)"
        errors = _errors(page)
        assert not errors, f"{path}: error output in lecture mode:\n" + "\n---\n".join(errors)
    except BaseException:
        _failure_artifacts(page, tag)
        raise
