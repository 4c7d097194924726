"""Accessibility without a browser (issue 26): alt text from data, named controls, read-outs
announced, contrast of the read-out legend, colour vision of every panel figure, the upstream
gap list. The browser checks (axe-core, keyboard) are in tests/browser/test_axe_*.py and
test_keyboard.py.
"""
from __future__ import annotations

import html
import itertools
import json
import re
from pathlib import Path

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from matplotlib.colors import to_rgb, to_rgba  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ppdm_edu import lecture_mode  # noqa: E402
from ppdm_edu.lecture import OKABE_ITO, style_path  # noqa: E402
from ppdm_edu.plots.alt_text import axes_description, figure_description, set_description  # noqa: E402

colorspacious = pytest.importorskip("colorspacious")
widgets = pytest.importorskip("ipywidgets")

from ppdm_edu.widgets import all_panels  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
CVD = ("deuteranomaly", "protanomaly", "tritanomaly")
# Minimum CAM02-UCS distance between two series told apart by colour alone, under each simulated
# deficiency at severity 100 (Machado et al. 2009 as implemented by colorspacious). The pair the
# issue reports as "the same grey" (notebook 03's light-green band vs the grey band) is 4.6-5.3;
# the Okabe-Ito palette's closest pair under any deficiency is 11.0 (tritan, #CC79A7 vs #E69F00).
MIN_DISTANCE = 10.0


# -- alt text from the data ------------------------------------------------------------------
def test_description_reads_numbers_off_the_artists():
    fig = Figure()
    ax = fig.add_subplot()
    x = np.linspace(0, 10, 11)
    ax.plot(x, (x - 4) ** 2 * -1 + 20, label="estimate")
    ax.set(title="Density of age", xlabel="age", ylabel="density")
    text = figure_description(fig)
    assert "Density of age" in text and "'estimate'" in text
    assert "highest 20 at x = 4" in text and "x axis: age" in text
    ax.lines[0].set_ydata(x)  # the description follows the drawing, not a cached text
    assert "rising" in figure_description(fig) and "highest 10 at x = 10" in figure_description(fig)


def test_histograms_bands_and_scatter_are_described():
    fig = Figure()
    ax = fig.add_subplot()
    ax.stairs([1, 5, 2], [0, 1, 2, 3], label="perturbed")
    ax.fill_between([0, 1, 2], [0, 0, 0], [1, 2, 1], label="band")
    ax.scatter([1, 2, 3], [4, 5, 6], label="records")
    text = axes_description(ax)
    assert "histogram 'perturbed': 3 bars" in text and "peak 5 at 1 to 2" in text
    assert "shaded band 'band'" in text and "scatter 'records': 3 points" in text


def test_set_description_comes_first_and_checks_its_input():
    fig = Figure()
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1])
    set_description(fig, "The reconstruction is within TV 0.04 of the original.")
    assert figure_description(fig).startswith("The reconstruction is within TV 0.04")
    with pytest.raises(TypeError, match="text must be a str"):
        set_description(fig, 3)
    with pytest.raises(TypeError, match="target must be a matplotlib Figure or Axes"):
        set_description("fig", "x")
    with pytest.raises(TypeError, match="fig must be a matplotlib Figure"):
        figure_description(ax)


def _words_ok(alt: str) -> bool:
    return len(alt.split()) >= 6 and not re.search(r"\.(png|jpe?g|svg)\b", alt)


@pytest.fixture(scope="module")
def panels():
    lecture_mode(False)
    return {name: cls() for name, cls in all_panels().items()}


def test_every_panel_image_has_an_alt_text_from_its_figure(panels):
    for name, panel in panels.items():
        alt = panel.alt_text
        assert _words_ok(alt), f"{name}: alt text {alt!r}"
        assert alt == panel.image.tooltip, f"{name}: the live image's name is not the alt text"
        assert alt == panel.describe(panel.result)
        # the stand-in (kernel gone) and hence the site carry the same alt
        from ppdm_edu.widgets.panel import static_picture
        _png, static_alt = static_picture({"data": {"text/html": panel.static_html()}})
        assert static_alt == alt
        assert any(ch.isdigit() for ch in alt), f"{name}: no number in {alt!r}"


def test_the_alt_text_and_the_readout_change_with_a_control(panels):
    panel = panels["randomized_response.WarnerSurveyPanel"]
    before_alt, before_readout = panel.alt_text, panel.readout.value
    panel.controls["theta"].value = 0.9
    assert panel.alt_text != before_alt and panel.readout.value != before_readout
    assert "θ = 0.90" in panel.alt_text
    panel.controls["theta"].value = 0.7


def test_describe_of_another_result_draws_it_apart(panels):
    panel = panels["randomized_response.WarnerSurveyPanel"]
    other = panel.compute(**{**panel.values(), "theta": 0.95})
    text = panel.describe(other)
    assert "θ = 0.95" in text and panel.alt_text != text
    assert "θ = 0.70" in panel.alt_text  # the live figure was left alone


def test_every_control_is_named_by_what_it_means(panels):
    for name, panel in panels.items():
        for key, control in panel.controls.items():
            tip = control.tooltip or ""
            assert tip.startswith(control.description), f"{name}.{key}: {tip!r}"
            assert len(tip.split()) >= 3, f"{name}.{key}: the name {tip!r} does not say what it means"


def test_every_slider_is_a_named_range_with_its_value_in_words(panels):
    """No panel shows ipywidgets' own slider (noUiSlider: its handle has no accessible name);
    each is the named one of its kind, whose view takes ``tooltip`` as its ``aria-label`` and
    says its value with its unit (``aria-valuetext``)."""
    from ppdm_edu.widgets._names import UNITS
    from ppdm_edu.widgets._slider import NAMED

    plain = tuple(NAMED)
    seen = set()
    for name, panel in panels.items():
        for key, control in panel.controls.items():
            if not isinstance(control, plain):
                continue
            where = f"{name}.{key}"
            assert isinstance(control, tuple(NAMED.values())), \
                f"{where}: a plain ipywidgets slider ({type(control).__name__})"
            assert control._view_module == "anywidget" and "aria-label" in control._esm, where
            assert control.unit == UNITS[(type(panel).__name__, key)], where
            shown = format(control.value, control.readout_format)
            assert control.value_text() == (f"{shown} {control.unit}" if control.unit else shown), where
            seen.add((type(panel).__name__, key))
    assert seen == set(UNITS), f"units of sliders no panel has, or sliders without: {seen ^ set(UNITS)}"


def test_every_toggle_group_is_named_and_says_which_button_is_pressed(panels):
    """ipywidgets' toggle buttons are named by their option alone and carry no pressed state;
    every panel's are the named ones (a group named by the control's meaning, aria-pressed)."""
    from ppdm_edu.widgets._slider import NamedToggleButtons

    seen = 0
    for name, panel in panels.items():
        for key, control in panel.controls.items():
            if isinstance(control, widgets.ToggleButtons):
                assert isinstance(control, NamedToggleButtons), f"{name}.{key}: plain ToggleButtons"
                assert 'setAttribute("role", "group")' in control._esm and "aria-pressed" in control._esm
                assert len(control.tooltip.split()) >= 3, f"{name}.{key}: {control.tooltip!r}"
                seen += 1
    assert seen >= 7


def test_every_choice_control_is_named_by_what_it_means(panels):
    """Drop-downs, multiple selections and check boxes: ipywidgets names the native control by
    its short label alone; the panels' are the named ones (aria-label: label, then meaning)."""
    from ppdm_edu.widgets._slider import NAMED_CHOICES

    seen = 0
    for name, panel in panels.items():
        for key, control in panel.controls.items():
            for plain, named in NAMED_CHOICES.items():
                if isinstance(control, plain):
                    assert isinstance(control, named), f"{name}.{key}: a plain {plain.__name__}"
                    assert 'aria-label' in control._esm and len(control.tooltip.split()) >= 3, f"{name}.{key}"
                    seen += 1
    assert seen == sum(1 for panel in panels.values() for c in panel.controls.values()
                       if not isinstance(c, (widgets.IntSlider, widgets.FloatSlider, widgets.FloatLogSlider)))


def test_a_slider_refuses_a_readout_format_its_view_cannot_show():
    from ppdm_edu.widgets._slider import NamedFloatSlider

    with pytest.raises(ValueError, match="readout_format=',.2%'"):
        NamedFloatSlider(value=0.5, readout_format=",.2%")


def test_readout_is_a_live_region_and_errors_are_alerts(panels):
    for name, panel in panels.items():
        if panel.readout.value:
            assert 'aria-live="polite"' in panel.readout.value, name
    panel = panels["randomized_response.WarnerSurveyPanel"]
    panel.controls["theta"].value = 0.5  # theta = 0.5: no estimate (a ValueError)
    assert 'role="alert"' in panel.message.value
    panel.controls["theta"].value = 0.7


# -- contrast ----------------------------------------------------------------------------------
def _luminance(colour) -> float:
    c = np.array(to_rgb(colour))
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])


def contrast(a, b="#ffffff") -> float:
    """WCAG 2.1 contrast ratio of two colours."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_formula():
    assert contrast("#D55E00") == pytest.approx(3.86, abs=0.01)
    assert contrast("#999999") == pytest.approx(2.85, abs=0.01)


def test_readout_text_reaches_4_5_and_its_glyphs_3(panels):
    """Coloured words in a read-out must reach 4.5:1 on white; a coloured glyph (a graphic that
    names a series) 3:1."""
    span = re.compile(r"<span style=['\"]color:(#[0-9A-Fa-f]{3,6})['\"]( aria-hidden=['\"]true['\"])?>(.*?)</span>")
    for name, panel in panels.items():
        for colour, hidden, text in span.findall(panel.readout.value + panel.static_html()):
            need = 3.0 if hidden and not re.search(r"\w", html.unescape(re.sub(r"<[^>]+>", "", text))) else 4.5
            assert contrast(colour) >= need, f"{name}: {text!r} in {colour} is {contrast(colour):.2f}:1"


@pytest.mark.parametrize("style", ["classroom", "projector"])
def test_styles_text_and_axes_contrast(style):
    import matplotlib.style

    with matplotlib.style.context(["default", style_path(style)]):
        rc = matplotlib.rcParams
        for key in ("text.color", "axes.labelcolor", "xtick.labelcolor", "ytick.labelcolor"):
            colour = rc[key] if rc[key] != "inherit" else rc["xtick.color" if "x" in key else "ytick.color"]
            assert contrast(colour) >= 4.5, f"{style}: {key} = {colour}"
        assert contrast(rc["axes.edgecolor"]) >= 3.0


# -- colour vision -----------------------------------------------------------------------------
def _simulate(rgb, cvd: str) -> np.ndarray:
    from colorspacious import cspace_convert

    space = {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 100}
    return np.clip(cspace_convert(np.asarray(rgb, dtype=float), space, "sRGB1"), 0, 1)


def _distance(a, b, cvd: str) -> float:
    from colorspacious import deltaE

    return float(deltaE(_simulate(a, cvd), _simulate(b, cvd), input_space="sRGB1"))


def _on_white(rgba) -> np.ndarray:
    r, g, b, a = to_rgba(rgba)
    return np.array([r, g, b]) * a + (1 - a)


@pytest.mark.parametrize("style", ["classroom", "projector"])
def test_style_series_colours_stay_apart_under_colour_vision_deficiencies(style):
    import matplotlib.style

    with matplotlib.style.context(["default", style_path(style)]):
        colours = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
    assert [to_rgb(c) for c in colours] == [to_rgb(c) for c in OKABE_ITO]
    for cvd in CVD:
        for a, b in itertools.combinations(colours, 2):
            d = _distance(to_rgb(a), to_rgb(b), cvd)
            assert d >= MIN_DISTANCE, f"{style}: {a} and {b} are {d:.1f} apart under {cvd}"


def _series(ax):
    """(name, colour on white, distinguishing style) of every drawn series of ``ax``."""
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import Polygon, Rectangle, StepPatch

    out = []
    for line in ax.lines:
        if len(line.get_xdata()) and line.get_visible():
            out.append((line.get_label(), _on_white(to_rgba(line.get_color(), line.get_alpha())),
                        (line.get_linestyle(), line.get_marker())))
    for patch in ax.patches:
        if not patch.get_visible() or not patch.get_fill():
            continue
        if isinstance(patch, (StepPatch, Polygon)) or (isinstance(patch, Rectangle) and not patch.get_label().startswith("_nolegend")):
            out.append((patch.get_label(), _on_white(patch.get_facecolor()), (patch.get_hatch() or "",)))
    for coll in ax.collections:
        if isinstance(coll, PolyCollection) and len(coll.get_facecolor()):
            out.append((coll.get_label(), _on_white(coll.get_facecolor()[0]), (coll.get_hatch() or "",)))
    return out


def test_every_panel_figure_is_readable_under_colour_vision_deficiencies(panels):
    """Two filled or drawn series of one axes must differ by colour under every simulated
    deficiency, or by line style, marker or hatch (issue 26 §5). Bars of one container share a
    colour and are one series."""
    failures = []
    for name, panel in panels.items():
        for ax in panel.figure.get_axes():
            series = {}
            for label, colour, look in _series(ax):
                series.setdefault((label, tuple(np.round(colour, 3)), look), (label, colour, look))
            for (la, ca, sa), (lb, cb, sb) in itertools.combinations(series.values(), 2):
                if sa != sb or np.allclose(ca, cb, atol=1e-3):
                    continue  # told apart by style, or the same series drawn in parts
                for cvd in CVD:
                    d = _distance(ca, cb, cvd)
                    if d < MIN_DISTANCE and _distance(ca, cb, "deuteranomaly") >= 0:
                        # the same under normal vision too is not a colour-vision problem
                        normal = float(colorspacious.deltaE(ca, cb, input_space="sRGB1"))
                        if normal >= MIN_DISTANCE:
                            failures.append(f"{name}: {la!r} vs {lb!r}: {d:.1f} under {cvd}")
    assert not failures, "\n".join(failures)


def test_notebook_03_bands_differ_under_deuteranopia():
    """The issue's case: the 'truth ± 2 SE' band and the grey band of possible proportions."""
    from ppdm_edu.widgets.randomized_response import WarnerSurveyPanel

    lecture_mode(False)
    panel = WarnerSurveyPanel()
    ax = panel.figure.get_axes()[0]
    band = next(p for p in ax.patches if p.get_label().startswith("truth"))
    from matplotlib.patches import StepPatch

    grey = next(p for p in ax.patches if p is not band and not isinstance(p, StepPatch))
    near = min(_distance(_on_white(band.get_facecolor()), _on_white(grey.get_facecolor()), c) for c in CVD)
    assert band.get_hatch() or near >= MIN_DISTANCE, f"bands {near:.1f} apart and no hatch"


# -- the upstream gaps only shrink --------------------------------------------------------------
def test_upstream_gap_list_only_shrinks():
    data = json.loads((REPO / "tests" / "a11y_upstream_gaps.json").read_text(encoding="utf-8"))
    gaps = data["gaps"]
    assert len(gaps) <= data["max_entries"], "a new upstream gap was listed: fix it here instead"
    for gap in gaps:
        assert set(gap) >= {"rule", "where", "selector", "upstream", "why"}, gap
        assert gap["where"] in ("site", "lab")
        assert re.match(r"https://github\.com/[\w.-]+/[\w.-]+/(issues|pull)/\d+", gap["upstream"]), gap
        re.compile(gap["selector"])
    # the panels' sliders are named (ppdm_edu/widgets/_slider.py): their handle is no gap
    assert not any("noUi" in gap["selector"] for gap in gaps)
    # the list says what it holds for: every notebook, as the browser test runs them all (it
    # reads the notebooks folder, not a list of its own that could fall behind)
    assert "every notebook" in data["about"], data["about"]
    source = (REPO / "tests" / "browser" / "test_notebooks_in_browser.py").read_text(encoding="utf-8")
    assert re.search(r'^NOTEBOOKS = sorted\(.*\(REPO / "notebooks"\)\.glob', source, re.M), \
        "the browser test no longer runs every notebook of notebooks/"
