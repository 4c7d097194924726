"""The notebooks' setup (``ppdm_edu.lecture``: styles, lecture mode, the inline figures' alt
text) sits above the plots: it imports ``ppdm_edu.plots`` (the palette, ``plots.alt_text``) and
nothing in ``plots`` imports it, so the arrow between them points down."""
from __future__ import annotations

from pathlib import Path

from ppdm_edu._imports import imports_in

PACKAGE = Path(__file__).resolve().parents[1] / "ppdm_edu"


def _imports_lecture(source: str, package: str) -> bool:
    """Does ``source``, a module of ``package``, import ``ppdm_edu.lecture`` (anywhere in it)?"""
    return "ppdm_edu.lecture" in imports_in(source, package)


def test_no_plot_module_imports_the_lecture_setup():
    # a module's package is its folder (also for an __init__.py)
    offenders = [str(p.relative_to(PACKAGE.parent)) for p in sorted((PACKAGE / "plots").rglob("*.py"))
                 if _imports_lecture(p.read_text(encoding="utf-8"),
                                     ".".join(p.parent.relative_to(PACKAGE.parent).parts))]
    assert not offenders, offenders


def test_the_check_sees_an_import_of_lecture():
    assert _imports_lecture("def f():\n    from ..lecture import OKABE_ITO\n", "ppdm_edu.plots")
    assert _imports_lecture("from ppdm_edu import lecture\n", "ppdm_edu.plots")
    assert not _imports_lecture("from .palette import OKABE_ITO\n", "ppdm_edu.plots")


def test_the_palette_is_the_styles_colour_cycle():
    from ppdm_edu.lecture import OKABE_ITO as from_lecture
    from ppdm_edu.plots.palette import OKABE_ITO

    assert from_lecture is OKABE_ITO
