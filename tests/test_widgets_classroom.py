"""Panels in front of a class (issue 15 §2/§5, issue 17 §6): size, labels, the static stand-in
shown when the kernel is gone, and results computed ahead of the slider."""
from __future__ import annotations

import threading
from html import escape

import ipywidgets as widgets
import numpy as np
import pytest

from ppdm_edu.lecture import figure_max_height_px, figure_width_px, lecture_mode
from ppdm_edu.widgets import all_panels
from ppdm_edu.widgets.panel import (
    KERNEL_GONE_TEXT,
    LIVE_CLASS,
    STATIC_CLASS,
    static_picture,
    static_readout,
)
from ppdm_edu.widgets.precompute import AheadCache
from ppdm_edu.widgets.randomization import RandomizationPanel
from ppdm_edu.widgets.reconstruction import ReconstructionPanel

pytestmark = pytest.mark.usefixtures("laptop_style")


@pytest.mark.parametrize("lecture", [False, True])
def test_figure_is_rendered_at_the_width_it_is_shown(lecture):
    lecture_mode(lecture)
    panel = ReconstructionPanel(n=1_000)
    w, h = panel.figure.get_size_inches() * panel.figure.dpi
    assert round(w) == figure_width_px()
    assert panel.image.layout.width == f"{figure_width_px()}px"
    assert panel.image.layout.max_width == "100%"  # shrinks on a narrow window, never stretches
    assert h <= figure_max_height_px(panel.control_rows()) + 0.5
    # the PNG really has that many pixels
    png = panel.image.value
    assert int.from_bytes(png[16:20], "big") == round(w)


def test_projector_fonts_stay_large_enough_on_wide_figures():
    lecture_mode(True)
    for cls in all_panels().values():
        if cls.__name__ in ("TreesPanel", "PerturbedTreePanel", "RRTreePanel"):
            continue  # slow to build here; same geometry code
        panel = cls()
        assert panel.figure.dpi >= 75, (cls.__name__, panel.figure.dpi)


def test_more_control_rows_leave_less_room_for_the_figure():
    for lecture in (False, True):
        lecture_mode(lecture)
        assert figure_max_height_px(9) < figure_max_height_px(2)
        assert figure_max_height_px(100) >= 200


def test_labels_share_one_width_and_toggle_buttons_sit_beside_their_label():
    panel = ReconstructionPanel(n=1_000)
    widths = {c.style.description_width for c in panel.controls.values()}
    assert len(widths) == 1 and widths.pop().endswith("px")
    toggles = [c for c in panel.controls.values() if isinstance(c, widgets.ToggleButtons)]
    assert toggles and all("widget-inline-hbox" in t._dom_classes for t in toggles)
    sliders = [c for c in panel.controls.values() if isinstance(c, widgets.IntSlider)]
    assert all(s.layout.max_width == "100%" for s in sliders)  # the read-out stays in the cell


def test_static_stand_in_says_the_kernel_is_gone_and_carries_the_last_picture(monkeypatch):
    panel = RandomizationPanel()
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, **kw: shown.append((obj, kw)) or _Handle(shown))
    panel._ipython_display_()
    static, kw = shown[0]
    assert kw.get("display_id") is True and kw.get("raw") is True
    html = static["text/html"]
    assert STATIC_CLASS in html and escape(KERNEL_GONE_TEXT) in html
    assert "data:image/png;base64," in html
    assert shown[1][0] is panel.widget and LIVE_CLASS in panel.widget._dom_classes
    # every update refreshes the stand-in with the new picture
    before = html
    panel.controls["kind"].value = "gaussian"
    assert shown[-1][0] == "update" and shown[-1][1]["text/html"] != before


def test_static_stand_in_keeps_the_settings_and_the_readout():
    # issue 16 §3: without a kernel (and on the site) a panel shows its figure *and* its read-out,
    # and says where the controls were when it was drawn
    panel = RandomizationPanel(level=100.0)
    panel.controls["kind"].value = "gaussian"
    output = {"output_type": "display_data", "data": panel._static_bundle()}
    kept = static_readout(output)
    assert panel.readout.value and panel.readout.value in kept
    assert "noise = gaussian" in kept and "privacy (%) = 100" in kept, kept
    png, title = static_picture(output)
    assert png == panel.image.value and title == panel.alt_text and title.startswith(panel.title)
    assert static_readout({"output_type": "display_data", "data": {"text/html": "<p>x</p>"}}) == ""


class _Handle:
    def __init__(self, log):
        self.log = log

    def update(self, obj, **kw):
        self.log.append(("update", obj))


def test_ahead_cache_computes_once_and_ahead():
    calls = []
    cache = AheadCache(maxsize=3)

    def job(k):
        calls.append(k)
        return k * 10

    assert cache.get(1, lambda: job(1)) == 10
    assert cache.get(1, lambda: job(1)) == 10
    cache.prefetch([(2, lambda: job(2)), (3, lambda: job(3))])
    assert cache.wait_idle(timeout=10)
    assert cache.get(2, lambda: -1) == 20 and cache.get(3, lambda: -1) == 30
    assert calls == [1, 2, 3]
    cache.get(4, lambda: job(4))  # maxsize 3: the least recently used (1) goes
    assert 1 not in cache and 4 in cache


def test_ahead_cache_skips_failing_work_and_the_caller_sees_the_error():
    cache = AheadCache()

    def bad():
        raise ValueError("privacy 0 %")

    cache.prefetch([("x", bad)])
    assert cache.wait_idle(timeout=10)
    assert "x" not in cache
    with pytest.raises(ValueError, match="privacy 0"):
        cache.get("x", bad)


def test_ahead_cache_caller_waits_for_work_already_running():
    cache = AheadCache()
    started, release = threading.Event(), threading.Event()
    calls = []

    def slow():
        calls.append("bg")
        started.set()
        release.wait(10)
        return "done"

    cache.prefetch([("k", slow)])
    assert started.wait(10)
    threading.Timer(0.2, release.set).start()
    assert cache.get("k", lambda: "again") == "done"
    assert calls == ["bg"]


def test_ahead_cache_rejects_a_bad_size():
    with pytest.raises(ValueError, match="maxsize"):
        AheadCache(maxsize=0)


def test_trees_panel_results_do_not_depend_on_what_was_computed_ahead():
    from ppdm_edu.widgets.trees import TreesPanel

    a = TreesPanel(n_train=1_000, n_test=500, function=1, noise="uniform", privacy=100,
                   algorithms=("randomized", "byclass"))
    a._trained.wait_idle(timeout=120)  # 95 % and 105 % trained in the background
    a.controls["privacy"].value = 105
    b = TreesPanel(n_train=1_000, n_test=500, function=1, noise="uniform", privacy=105,
                   algorithms=("randomized", "byclass"))
    assert a.result.accuracies == b.result.accuracies
    assert a.result.n_leaves == b.result.n_leaves


def test_rr_tree_panel_builds_the_neighbouring_thetas_ahead_with_the_same_results():
    from ppdm_edu.widgets.rr_trees import RRTreePanel

    a = RRTreePanel(theta=0.7)
    assert a._results.wait_idle(timeout=120)  # 0.69 and 0.71 built in the background
    assert a._key(0.71, True) in a._results and a._key(0.69, True) in a._results
    assert a._key(0.7, False) in a._results   # the check box's other option, at this theta
    a.controls["theta"].value = 0.71          # the slider's own float step, 0.7 + 0.01
    b = RRTreePanel(theta=0.71)               # computed in the foreground, nothing ahead
    assert a.result == b.result
    a.controls["theta"].value = 0.7
    a.controls["disguised_label"].value = False
    assert a.result == RRTreePanel(theta=0.7, disguised_label=False).result
    # theta = 0.5 is never built ahead (it is a message, not a tree)
    c = RRTreePanel(theta=0.51)
    assert c._results.wait_idle(timeout=120)
    assert c._key(0.5, True) not in c._results and c._key(0.52, True) in c._results


def test_spectral_panel_redrawn_in_place_shows_what_a_new_panel_draws():
    """The spectral panel updates its artists in place (Panel.redraw): after any sequence of
    moves its picture is pixel for pixel the one a panel built at those values draws."""
    import io

    from PIL import Image

    from ppdm_edu.widgets.attacks import SpectralAttackPanel

    moved = SpectralAttackPanel()
    for correlation, sigma in [(0.5, 1.0), (0.99, 0.1), (0.0, 3.0), (0.3, 0.5), (1.0, 1.0)]:
        moved.controls["correlation"].value = correlation
        moved.controls["sigma"].value = sigma
        fresh = SpectralAttackPanel(correlation=correlation, sigma=sigma)
        a, b = (np.asarray(Image.open(io.BytesIO(p.image.value))) for p in (moved, fresh))
        assert a.shape == b.shape and (a == b).all(), (correlation, sigma)


@pytest.mark.parametrize("lecture", [False, True])
def test_randomization_panel_redrawn_in_place_shows_what_a_new_panel_draws(lecture):
    """Notebook 01's panel draws its histograms again on the same axes (Panel.redraw); after
    moves of every control (a message at 0 % included) its picture and alt text are those of a
    new panel at those values."""
    lecture_mode(lecture)
    moved = RandomizationPanel()
    before = moved.figure
    state: dict = {}
    for step in [dict(level=55.0), dict(kind="gaussian"), dict(attribute="salary (synthetic)"),
                 dict(confidence=0.5), dict(level=0.0), dict(level=200.0), dict(kind="uniform"),
                 dict(attribute="age (Adult)", confidence=1.0)]:
        for name, value in step.items():
            moved.controls[name].value = value
        state.update(step)
        if moved.error is not None:
            continue
        fresh = RandomizationPanel(**state)
        a, b = _pixels(moved), _pixels(fresh)
        assert a.shape == b.shape and (a == b).all(), state
        assert moved.alt_text == fresh.alt_text
    assert moved.figure is before  # in place, not a new figure


def test_posterior_panel_redrawn_in_place_shows_what_a_new_panel_draws():
    """The posterior panel updates its curve, Table 1 line, limits and legend label in place
    (Panel.redraw): its picture and alt text are those of a panel built at that level."""
    from ppdm_edu.widgets.attacks import PosteriorIntervalPanel

    moved = PosteriorIntervalPanel()
    before = moved.figure
    for privacy in [0.1, 3.0, 1.05, 0.5, 2.0]:
        moved.controls["privacy"].value = privacy
        fresh = PosteriorIntervalPanel(privacy=privacy)
        a, b = _pixels(moved), _pixels(fresh)
        assert a.shape == b.shape and (a == b).all(), privacy
        assert moved.alt_text == fresh.alt_text
    assert moved.figure is before  # in place, not a new figure


def test_posterior_panel_computes_the_neighbouring_levels_ahead_with_the_same_results():
    from ppdm_edu.widgets.attacks import PosteriorIntervalPanel

    a = PosteriorIntervalPanel()
    assert a._results.wait_idle(timeout=120)     # 0.95 and 1.05 computed in the background
    assert 0.95 in a._results and 1.05 in a._results
    a.controls["privacy"].value = 1.0 + 0.05      # the slider's own float step
    b = PosteriorIntervalPanel(privacy=1.05)      # in the foreground
    assert a.result.coverage == b.result.coverage
    assert np.array_equal(a.result.estimate.width, b.result.estimate.width)
    assert a.summary(a.result) == b.summary(b.result)


def test_ppdtc45_panel_redrawn_in_place_shows_what_a_new_panel_draws():
    """Notebook 06's panel updates its drawing in place (Panel.redraw); after moves of every
    control its picture is pixel for pixel the one a new panel at those values draws."""
    import io

    from PIL import Image

    from ppdm_edu.widgets.perturbed_mining import PerturbedTreePanel

    moved = PerturbedTreePanel()
    for threshold, snr, kind in [(0.5, 1.7, "gaussian"), (0.05, 0.2, "gaussian"),
                                 (0.95, 5.0, "uniform"), (0.3, 1.0, "uniform")]:
        moved.controls["threshold"].value = threshold
        moved.controls["snr"].value = snr
        moved.controls["kind"].value = kind
        fresh = PerturbedTreePanel(threshold=threshold, snr=snr, kind=kind)
        a, b = (np.asarray(Image.open(io.BytesIO(p.image.value))) for p in (moved, fresh))
        assert a.shape == b.shape and (a == b).all(), (threshold, snr, kind)


def _pixels(panel):
    import io

    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(panel.image.value)))


def test_trees_panel_redrawn_in_place_shows_what_a_new_panel_draws():
    """Notebook 04's panel updates its bars in place (Panel.redraw) and keeps one figure per
    selection of algorithms (Panel.figure_key); after moves of every control its picture, alt
    text and read-out are those of a new panel at those values."""
    from ppdm_edu.widgets.trees import TreesPanel

    small = dict(n_train=1_000, n_test=500)
    moved = TreesPanel(**small)
    three = ("original", "randomized", "byclass")
    steps = [(1, "gaussian", 105, three), (1, "uniform", 105, three), (3, "uniform", 40, three),
             (3, "uniform", 40, ("byclass",)), (3, "gaussian", 200, ("byclass",)),
             (3, "gaussian", 200, three), (5, "gaussian", 5, three)]
    in_place = 0
    for function, noise, privacy, algorithms in steps:
        before = moved.figure
        moved.controls["function"].value = function
        moved.controls["noise"].value = noise
        moved.controls["privacy"].value = privacy
        moved.controls["algorithms"].value = algorithms
        in_place += moved.figure is before
        fresh = TreesPanel(function=function, noise=noise, privacy=privacy, algorithms=algorithms, **small)
        a, b = _pixels(moved), _pixels(fresh)
        assert a.shape == b.shape and (a == b).all(), (function, noise, privacy, algorithms)
        assert moved.alt_text == fresh.alt_text
        assert moved.result.accuracies == fresh.result.accuracies
    # the same selection: redrawn in place; back to three algorithms: the figure kept for them
    assert in_place >= 4


def test_trade_off_panel_redrawn_in_place_shows_what_a_new_panel_draws():
    """Notebook 08's panel updates its bars in place at another ε and keeps one figure per task;
    the picture, alt text and read-out are those of a new panel at the same values."""
    from ppdm_edu.widgets.tradeoff import TradeoffPanel

    moved = TradeoffPanel()
    share = moved.figure
    in_place = 0
    for epsilon, task in [(10 ** 0.05, "share"), (0.1, "share"), (5.0, "share"), (5.0, "histogram"),
                          (10 ** -0.5, "histogram"), (10 ** -0.5, "share"), (1.0, "share")]:
        before = moved.figure
        moved.controls["epsilon"].value = epsilon
        moved.controls["task"].value = task
        in_place += moved.figure is before
        fresh = TradeoffPanel(epsilon=epsilon, task=task)
        a, b = _pixels(moved), _pixels(fresh)
        assert a.shape == b.shape and (a == b).all(), (epsilon, task)
        assert moved.alt_text == fresh.alt_text
        assert moved.readout.value == fresh.readout.value
    assert moved.figure is share  # the share figure was kept while the histogram was shown
    assert in_place >= 4


def test_trade_off_panel_computes_the_neighbouring_epsilons_and_the_other_task_ahead():
    from ppdm_edu.widgets.tradeoff import TradeoffPanel

    a = TradeoffPanel()
    assert a._results.wait_idle(timeout=120)
    right, left = 10 ** 0.05, 10 ** -0.05
    for key in (a._key(right, "share"), a._key(left, "share"), a._key(1.0, "histogram")):
        assert key in a._results, key
    a.controls["epsilon"].value = right
    b = TradeoffPanel(epsilon=right)  # in the foreground
    assert a.result == b.result
    # the slider's end: one neighbour only, inside the range
    c = TradeoffPanel(epsilon=5.0)
    assert c._results.wait_idle(timeout=120)
    # 5 = 10^0.699 is off the slider's grid (-1 + 0.05 k): one step left is 10^0.65, as in the page
    assert c._key(10 ** 0.65, "share") in c._results
    assert len([k for k in c._results._done if k[1] == "share"]) == 2  # 5.0 and one step left


def test_trees_panel_trains_the_other_noise_and_functions_ahead_with_the_same_results():
    from ppdm_edu.widgets.trees import TreesPanel

    small = dict(n_train=1_000, n_test=500)
    a = TreesPanel(function=1, noise="gaussian", privacy=100, algorithms=("original", "byclass"), **small)
    assert a._trained.wait_idle(timeout=300)
    for function, noise in [(1, "uniform"), (2, "gaussian"), (5, "gaussian")]:  # 1 - 1 is 5
        assert a._key(function, noise, 100, "byclass") in a._trained, (function, noise)
    assert a._key(3, "gaussian", 100, "byclass") not in a._trained  # two steps away
    for alg in ("randomized", "global", "local"):  # not selected: trained here, last
        assert a._key(1, "gaussian", 100, alg) in a._trained, alg
    a.controls["function"].value = 5
    b = TreesPanel(function=5, noise="gaussian", privacy=100, algorithms=("original", "byclass"), **small)
    assert a.result.accuracies == b.result.accuracies
    assert a.result.n_leaves == b.result.n_leaves


def test_the_other_task_is_drawn_while_the_kernel_is_idle_and_then_redrawn_in_place(monkeypatch):
    """Panel.draw_ahead: the kernel's event loop draws the figure of the other task (once its
    result is computed ahead) a moment after an update; moving to that task then redraws that
    figure in place and shows what a new panel shows. Nothing is scheduled under Pyodide."""
    import asyncio
    import sys

    from ppdm_edu.widgets.tradeoff import TradeoffPanel

    async def lecture():
        panel = TradeoffPanel()
        assert panel._results.wait_idle(timeout=120)  # the other task, computed in a thread
        panel.draw_ahead_delay = 0.0
        panel.update()  # in a running loop: the drawing ahead is scheduled
        assert panel._ahead_handle is not None
        await asyncio.sleep(0.2)
        assert "histogram" in panel._kept
        drawn_ahead = panel._kept["histogram"]
        panel.controls["task"].value = "histogram"
        assert panel.figure is drawn_ahead
        fresh = TradeoffPanel(task="histogram")
        a, b = _pixels(panel), _pixels(fresh)
        assert a.shape == b.shape and (a == b).all()
        assert panel.alt_text == fresh.alt_text
        monkeypatch.setattr(sys, "platform", "emscripten")
        panel.update()
        assert panel._ahead_handle is None

    # no event loop (a script): nothing scheduled, nothing drawn ahead
    quiet = TradeoffPanel()
    assert quiet._ahead_handle is None and not quiet._kept

    async def other_panel():  # a panel that names no layout to draw ahead schedules nothing
        panel = RandomizationPanel()
        assert panel._ahead_handle is None

    asyncio.run(other_panel())
    asyncio.run(lecture())


def test_trees_panel_draws_every_algorithm_ahead_once_they_are_trained():
    from ppdm_edu.trees.as2000 import ALGORITHMS
    from ppdm_edu.widgets.trees import TreesPanel

    small = dict(n_train=1_000, n_test=500)
    panel = TreesPanel(**small)
    assert panel._trained.wait_idle(timeout=300)
    assert panel.draw_ahead()          # what the kernel's event loop calls when idle
    assert not panel.draw_ahead()      # once
    ahead = panel._kept[tuple(ALGORITHMS)]
    panel.controls["algorithms"].value = tuple(ALGORITHMS)
    assert panel.figure is ahead
    fresh = TreesPanel(algorithms=tuple(ALGORITHMS), **small)
    a, b = _pixels(panel), _pixels(fresh)
    assert a.shape == b.shape and (a == b).all()
    assert panel.alt_text == fresh.alt_text


def test_the_kernel_looks_again_until_what_it_draws_ahead_is_trained(monkeypatch):
    """Right after an update nothing of the other layout is trained yet: the event loop looks
    again until it is, then draws it (once)."""
    import asyncio

    from ppdm_edu.trees.as2000 import ALGORITHMS
    from ppdm_edu.widgets.trees import TreesPanel

    monkeypatch.setattr(TreesPanel, "draw_ahead_delay", 0.05)
    monkeypatch.setattr(TreesPanel, "draw_ahead_tries", 2_000)

    async def lecture():
        panel = TreesPanel(n_train=1_000, n_test=500)
        assert tuple(ALGORITHMS) not in panel._kept
        for _ in range(1_200):
            if tuple(ALGORITHMS) in panel._kept:
                break
            await asyncio.sleep(0.05)
        assert tuple(ALGORITHMS) in panel._kept
        assert 0 < panel._ahead_tries < 2_000  # it looked again while the trees were trained

    asyncio.run(lecture())


def test_ahead_cache_waits_its_delay_before_computing_ahead():
    import time

    cache = AheadCache(delay=0.3)
    started = []
    before = time.monotonic()
    cache.prefetch([("k", lambda: started.append(time.monotonic()) or 1)])
    not_before = cache._not_before  # prefetch's own schedule: now + delay, on the same clock
    assert cache.wait_idle(timeout=10)
    # an ordering of two readings of one clock, not a duration: load can only delay the worker
    assert not_before >= before + 0.3
    assert started and started[0] >= not_before
    assert cache.get("k", lambda: -1) == 1
    assert cache.get("now", lambda: 2) == 2  # the foreground never waits for the delay
    with pytest.raises(ValueError, match="delay"):
        AheadCache(delay=-1)
