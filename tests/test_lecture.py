"""Lecture mode: projector style, colour-blind-safe palette, wide widgets, idempotent switching."""
from __future__ import annotations

import matplotlib as mpl
import numpy as np
import pytest
from matplotlib.colors import to_hex, to_rgb

import ppdm_edu
from ppdm_edu import lecture
from ppdm_edu.lecture import OKABE_ITO, is_lecture_mode, lecture_mode, style_path, widget_css, widget_width


@pytest.fixture(autouse=True)
def _back_to_classroom():
    yield
    lecture_mode(False)


def _cycle():
    return [to_hex(c["color"]).upper() for c in mpl.rcParams["axes.prop_cycle"]]


def _relative_luminance(color) -> float:
    # WCAG 2.x definition
    rgb = np.array(to_rgb(color))
    lin = np.where(rgb <= 0.03928, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return float(lin @ [0.2126, 0.7152, 0.0722])


def _contrast_on_white(color) -> float:
    return 1.05 / (_relative_luminance(color) + 0.05)


def test_top_level_name_is_the_lecture_function():
    assert ppdm_edu.lecture_mode is lecture_mode


def _sizes() -> dict:
    from matplotlib.font_manager import FontProperties

    out = {k: float(mpl.rcParams[k]) for k in ("font.size", "lines.linewidth", "axes.linewidth")}
    for key in ("legend.fontsize", "xtick.labelsize", "axes.labelsize"):  # may be 'medium' etc.
        out[key] = FontProperties(size=mpl.rcParams[key]).get_size_in_points()
    return out


def test_projector_is_larger_and_thicker_than_classroom():
    lecture_mode(False)
    small = _sizes()
    small_fig = mpl.rcParams["figure.figsize"][0] * mpl.rcParams["figure.dpi"]
    assert not is_lecture_mode()
    lecture_mode(True)
    assert is_lecture_mode()
    big = _sizes()
    for key, value in small.items():
        assert big[key] > value, key
    assert mpl.rcParams["font.size"] >= 16  # readable from the back of a hall
    assert mpl.rcParams["figure.figsize"][0] * mpl.rcParams["figure.dpi"] > small_fig


@pytest.mark.parametrize("enabled", [False, True])
def test_both_styles_use_the_okabe_ito_palette(enabled):
    import seaborn as sns

    lecture_mode(enabled)
    assert _cycle() == [c.upper() for c in OKABE_ITO]
    assert [to_hex(c).upper() for c in sns.color_palette()][:len(OKABE_ITO)] == [c.upper() for c in OKABE_ITO]
    assert mpl.rcParams["image.cmap"] == "cividis"


def test_most_used_colours_contrast_with_white():
    # the first three colours carry most plots (original / randomized / reconstructed)
    for color in OKABE_ITO[:3]:
        assert _contrast_on_white(color) >= 3.0, color
    assert len(set(OKABE_ITO)) == len(OKABE_ITO)


def test_switching_resets_user_changes_and_is_idempotent():
    lecture_mode(True)
    first = dict(mpl.rcParams)
    mpl.rcParams["font.size"] = 3
    mpl.rcParams["lines.linewidth"] = 0.1
    lecture_mode(False)
    lecture_mode(True)
    assert dict(mpl.rcParams) == first


def test_backend_is_left_alone():
    before = mpl.get_backend()
    lecture_mode(True)
    lecture_mode(False)
    assert mpl.get_backend() == before


def test_widgets_are_wider_in_lecture_mode():
    from ppdm_edu.widgets.panel import Panel

    lecture_mode(False)
    narrow = Panel.slider_layout().width
    lecture_mode(True)
    wide = Panel.slider_layout().width
    assert widget_width() == wide
    assert int(wide.removesuffix("px")) > int(narrow.removesuffix("px"))


def test_widget_css_enlarges_the_widget_text():
    css = widget_css()
    assert css.startswith("<style>") and css.rstrip().endswith("</style>")
    size = int(css.split("--jp-widgets-font-size:")[1].split("px")[0])
    assert size > 13  # ipywidgets' default is 13px
    assert "--jp-widgets-inline-label-width" in css


def test_css_is_displayed_only_in_a_kernel(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))

    class FakeKernelShell:
        kernel = object()

    monkeypatch.setattr("IPython.get_ipython", lambda: None)
    lecture_mode(True)
    assert shown == []  # a plain script: nothing displayed
    monkeypatch.setattr("IPython.get_ipython", lambda: FakeKernelShell())
    lecture_mode(True)
    assert len(shown) == 1 and "--jp-widgets-font-size" in shown[0].data
    lecture_mode(False)
    assert len(shown) == 1  # the laptop style displays nothing


def test_no_dead_alias_of_style_path():
    """The module names one way to find a style file: its public ``style_path``."""
    assert [name for name, value in vars(lecture).items()
            if value is style_path and name != "style_path"] == []


def test_style_files_ship_with_the_package():
    for name in lecture.STYLES:
        params = mpl.rc_params_from_file(style_path(name), use_default_template=False)
        assert "font.size" in params and "axes.prop_cycle" in params
    with pytest.raises(ValueError, match="unknown style"):
        style_path("disco")


@pytest.mark.parametrize("bad", ["True", 1.5, None, "yes"])
def test_bad_flag_raises(bad):
    with pytest.raises(ValueError, match="True or False"):
        lecture_mode(bad)
