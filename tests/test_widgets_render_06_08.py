"""The panels of notebooks 06, 07 and 08 draw less per update (issue 31, goal 5) and still show
exactly what a new panel shows: pictures (PNG pixels) and alt texts, in both styles.

What changed for speed: the titles are fixed at ``y = 1.0`` (:func:`~ppdm_edu.widgets.panel.
pin_title`, matplotlib no longer measures the tick labels at every draw to place them), the
x-axis labels and the empty labels are fixed where the first draw put them (:func:`~ppdm_edu.widgets.panel.
measure_tick_labels_once`), and the notebook 06 panel computes the other noise kind ahead. These tests check that the pictures stay
those of new panels, and that a fixed title is where matplotlib's own search puts it.
"""
from __future__ import annotations

import io

import pytest
from panel_pictures import move_and_compare, same_picture

from ppdm_edu.lecture import lecture_mode

pytestmark = pytest.mark.usefixtures("laptop_style")


def _tree_panel():
    from ppdm_edu.widgets.perturbed_mining import PerturbedTreePanel

    return PerturbedTreePanel


def _spectral_panel():
    from ppdm_edu.widgets.attacks import SpectralAttackPanel

    return SpectralAttackPanel


def _posterior_panel():
    from ppdm_edu.widgets.attacks import PosteriorIntervalPanel

    return PosteriorIntervalPanel


def _tradeoff_panel():
    from ppdm_edu.widgets.tradeoff import TradeoffPanel

    return TradeoffPanel


# settings visited one after the other (each control moved in turn), with slider ends and the
# keyboard steps the browser test makes
_SETTINGS = {
    "tree": (_tree_panel, [
        dict(threshold=0.35, snr=1.7, kind="gaussian"), dict(threshold=0.3, snr=1.8, kind="gaussian"),
        dict(threshold=0.3, snr=1.7, kind="uniform"), dict(threshold=0.95, snr=0.2, kind="gaussian"),
        dict(threshold=0.05, snr=5.0, kind="uniform"), dict(threshold=0.6, snr=0.7, kind="uniform"),
        dict(threshold=0.2, snr=3.0, kind="gaussian")]),
    "spectral": (_spectral_panel, [
        dict(correlation=1.0, sigma=1.0), dict(correlation=0.99, sigma=1.05), dict(correlation=0.0, sigma=0.1),
        dict(correlation=0.5, sigma=3.0), dict(correlation=0.2, sigma=0.5), dict(correlation=0.8, sigma=2.0)]),
    "posterior": (_posterior_panel, [dict(privacy=p) for p in (1.05, 0.1, 3.0, 0.5, 2.0, 0.25)]),
    "tradeoff": (_tradeoff_panel, [
        dict(epsilon=1.1220184543019633, task="share"), dict(epsilon=0.1, task="histogram"),
        dict(epsilon=5.0, task="histogram"), dict(epsilon=0.3, task="share"), dict(epsilon=2.0, task="histogram")]),
}


@pytest.mark.parametrize("lecture", [False, True], ids=["classroom", "lecture"])
@pytest.mark.parametrize("key", list(_SETTINGS))
def test_panel_moved_through_many_settings_shows_what_a_new_panel_draws(key, lecture):
    """After every move (redrawn in place), the picture, alt text and read-out are those of a
    panel built at that setting."""
    lecture_mode(lecture)
    factory, settings = _SETTINGS[key]
    cls = factory()
    moved = cls()
    # (every setting gives every control, so the values so far are the setting itself)
    assert len(move_and_compare(moved, settings, cls)) == len(settings), key  # no message


def _render(figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", pil_kwargs={"compress_level": 1})
    return buffer.getvalue()


@pytest.mark.parametrize("lecture", [False, True], ids=["classroom", "lecture"])
@pytest.mark.parametrize("key", ["tree", "spectral", "posterior"])
def test_fixed_titles_are_where_matplotlib_would_place_them(key, lecture):
    """Every title is fixed at y = 1.0 (no per-draw search), also after redraws in place, and
    the picture is the one drawn with matplotlib's automatic title placement."""
    lecture_mode(lecture)
    factory, settings = _SETTINGS[key]
    panel = factory()()
    for setting in [{}] + settings[:4]:
        for name, value in setting.items():
            panel.controls[name].value = value
        titled = [ax for ax in panel.figure.axes if ax.get_title()]
        assert titled, setting
        for ax in titled:
            assert ax._autotitlepos is False, (key, setting, ax.get_title())  # fixed: not searched
        pinned = _render(panel.figure)
        assert same_picture(pinned, panel.image.value)
        for ax in titled:  # matplotlib's own search, as a figure without pin_title draws
            ax._autotitlepos = True
        try:
            searched = _render(panel.figure)
        finally:
            for ax in titled:
                ax._autotitlepos = False
        assert all(ax.title.get_position()[1] == 1.0 for ax in titled), (key, setting)
        assert same_picture(pinned, searched), (key, setting)


def test_tree_panel_computes_the_other_noise_kind_ahead_with_the_same_result():
    from dataclasses import fields

    cls = _tree_panel()
    panel = cls()
    assert panel._results.wait_idle(timeout=300)
    assert (0.3, 1.7, "uniform") in panel._results  # the toggle's other choice, at this setting
    panel.controls["kind"].value = "uniform"
    fresh = cls(kind="uniform")
    for f in fields(panel.result):
        if f.name != "root_noise":
            assert getattr(panel.result, f.name) == getattr(fresh.result, f.name), f.name
    assert panel.summary(panel.result) == fresh.summary(fresh.result)


def test_p_s1_drawing_names_the_noise_now_shown_and_keeps_a_given_label():
    from matplotlib.figure import Figure

    from ppdm_edu.plots.perturbed_mining import PSOneDrawing
    from ppdm_edu.randomization import GaussianNoise, UniformNoise

    drawing = PSOneDrawing(Figure().subplots(), GaussianNoise(1.0), t=0.0, threshold=0.3)
    drawing.update(UniformNoise(2.0), t=1.0, threshold=0.3)
    assert drawing.curve.get_label().startswith("uniform noise, sd ")
    named = PSOneDrawing(Figure().subplots(), GaussianNoise(1.0), label="mine")
    named.update(GaussianNoise(3.0), t=0.0, threshold=0.5)
    assert named.curve.get_label() == "mine"


@pytest.mark.parametrize("lecture", [False, True], ids=["classroom", "lecture"])
@pytest.mark.parametrize("key", list(_SETTINGS))
def test_x_labels_stay_where_matplotlib_places_them_at_every_setting(key, lecture):
    """The x-axis labels, fixed after a panel's first draw (measure_tick_labels_once, public
    ``set_label_coords``), are where matplotlib's own placement puts them at every later setting:
    a new panel's first picture at that setting (placed by matplotlib) has them at the same pixels."""
    lecture_mode(lecture)
    factory, settings = _SETTINGS[key]
    moved = factory()()
    state: dict = {}
    for setting in settings[:4]:
        for name, value in setting.items():
            moved.controls[name].value = value
        state.update(setting)
        if moved.error is not None:
            continue
        fresh = factory()(**state)
        for a, b in zip(moved.figure.axes, fresh.figure.axes):
            ra, rb = moved.figure.canvas.get_renderer(), fresh.figure.canvas.get_renderer()
            if a.get_xlabel():
                assert a.xaxis.label.get_window_extent(ra).bounds == \
                    b.xaxis.label.get_window_extent(rb).bounds, (key, state)
        assert same_picture(moved.image.value, fresh.image.value), (key, state)


def test_labels_fixed_after_the_first_draw_are_the_x_labels_and_the_empty_ones():
    """keep_labels_placed fixes the x labels below the axes and the empty labels (they draw
    nothing); a y label with text stays automatic, placed by the width of its tick labels."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from ppdm_edu.widgets._layout import keep_labels_placed, measure_tick_labels_once

    figure = Figure()
    FigureCanvasAgg(figure)
    bars, curve = figure.subplots(1, 2)
    bars.set_xlabel("error")                # y label left empty, as the trade-off bars'
    curve.set_xlabel("x")
    curve.set_ylabel("a label with text")
    measure_tick_labels_once(figure)
    figure.canvas.draw()
    keep_labels_placed(figure)
    fixed = {name: not axis._autolabelpos for name, axis in [("bars x", bars.xaxis), ("bars y", bars.yaxis),
                                                              ("curve x", curve.xaxis), ("curve y", curve.yaxis)]}
    assert fixed == {"bars x": True, "bars y": True, "curve x": True, "curve y": False}
