"""Lecture mode: one switch for projector-friendly figures and widgets.

Every notebook starts with::

    LECTURE_MODE = False   # True on a projector
    from ppdm_edu import lecture_mode
    lecture_mode(LECTURE_MODE)
"""
from __future__ import annotations

from importlib import resources

import matplotlib as mpl

__all__ = ["lecture_mode", "is_lecture_mode", "OKABE_ITO", "widget_width"]

# Okabe & Ito (2008) colour-blind-safe palette, used by both styles.
OKABE_ITO = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]

_STATE = {"lecture": False}


def _style_path(name: str) -> str:
    return str(resources.files("ppdm_edu").joinpath("styles", f"{name}.mplstyle"))


def lecture_mode(enabled: bool = True) -> None:
    """Switch between the projector style (``True``) and the default classroom style.

    Projector style: larger fonts and thicker lines, the colour-blind-safe Okabe-Ito palette in
    matplotlib and seaborn, and wider widget controls (see :func:`widget_width`).
    """
    import seaborn as sns

    _STATE["lecture"] = bool(enabled)
    mpl.rcParams.update(mpl.rcParamsDefault)
    mpl.style.use(_style_path("projector" if enabled else "classroom"))
    sns.set_palette(OKABE_ITO)


def is_lecture_mode() -> bool:
    return _STATE["lecture"]


def widget_width() -> str:
    """CSS width for slider widgets: wide enough to grab on a projector."""
    return "900px" if _STATE["lecture"] else "560px"
