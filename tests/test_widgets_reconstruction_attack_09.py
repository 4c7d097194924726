"""Notebook 09's panel (ReconstructionAttackPanel): every move shows what a new panel shows, the
numbers on it are the library's, the L1 program computed ahead is the one computed in front of
the class, and nothing starts a thread where Pyodide could not."""
from __future__ import annotations

import math
import threading

import numpy as np
import pytest
from panel_pictures import move_and_compare

from ppdm_edu.database_reconstruction import BoundedError, decode, least_squares_prediction, publish
from ppdm_edu.lecture import lecture_mode
from ppdm_edu.widgets import precompute
from ppdm_edu.widgets.database_reconstruction import CURVE_LEVELS, ReconstructionAttackPanel, _instance

pytestmark = pytest.mark.usefixtures("laptop_style")


@pytest.mark.parametrize("lecture", [False, True], ids=["classroom", "lecture"])
def test_moved_through_settings_it_shows_what_a_new_panel_draws(lecture):
    lecture_mode(lecture)
    steps = [dict(error=0.75), dict(error=2.0), dict(n=50), dict(queries=1), dict(decoder="l1"),
             dict(error=0.0), dict(n=200, queries=2), dict(error=1.25), dict(decoder="least-squares")]
    panel = ReconstructionAttackPanel()
    assert len(move_and_compare(panel, steps, ReconstructionAttackPanel)) == len(steps)


def test_the_panel_shows_the_librarys_attack_on_the_same_release():
    panel = ReconstructionAttackPanel(n=100, queries=4, error=1.0, decoder="l1")
    secret, A, unit, truth = _instance(100, 4, 0)
    release = publish(secret, A, BoundedError(0.0))          # the true counts, then the panel's error
    answers = release.answers + 1.0 * math.sqrt(100) * unit
    guess = decode(A, answers, "l1").bits
    assert panel.result.share == np.mean(guess == secret) and panel.result.wrong == int((guess != secret).sum())
    # the curve's point at E = √n is least squares on the same answers
    ls = decode(A, answers, "least-squares").bits
    assert panel.result.curve[CURVE_LEVELS.index(1.0)] == np.mean(ls == secret)
    predicted = least_squares_prediction(100, 400, math.sqrt(100) / math.sqrt(3))
    assert f"least squares predicted {predicted:.1%}" in panel.readout.value
    assert f"{panel.result.share:.0%}" in panel.alt_text and "100 people" in panel.alt_text


def test_at_e_zero_the_l1_program_rebuilds_every_bit_and_the_readout_says_no_privacy():
    panel = ReconstructionAttackPanel(n=200, queries=4, error=0.0, decoder="l1")
    assert panel.result.share == 1.0 and panel.result.wrong == 0
    assert "ε = ∞" in panel.readout.value


def test_with_as_many_queries_as_people_there_is_no_prediction():
    panel = ReconstructionAttackPanel(n=50, queries=1, error=0.5)
    assert panel.result.prediction is None and "no prediction" in panel.readout.value


def test_the_l1_program_computed_ahead_is_the_one_computed_in_front_of_the_class():
    panel = ReconstructionAttackPanel(n=100, decoder="l1", error=0.5)
    assert panel._results.wait_idle(timeout=120)
    key = panel._key(100, 4, 0.75, "l1")
    assert key in panel._results                                    # one step right, solved ahead
    ahead = panel._results.peek(key)
    fresh = ReconstructionAttackPanel(n=100, decoder="l1", error=0.75).result
    assert np.array_equal(ahead.guess, fresh.guess) and np.array_equal(ahead.curve, fresh.curve)


def test_under_pyodide_nothing_is_computed_ahead_and_no_thread_starts(monkeypatch):
    monkeypatch.setattr(precompute, "threads_available", lambda: False)
    before = threading.active_count()
    panel = ReconstructionAttackPanel(n=50, decoder="l1", error=0.25)
    panel.controls["error"].value = 0.5
    assert panel._key(50, 4, 0.75, "l1") not in panel._results
    assert threading.active_count() == before and panel.result.decoder == "l1"


def test_settings_the_controls_cannot_reach_are_a_message():
    panel = ReconstructionAttackPanel()
    for bad in (dict(n=7, queries=4, error=0.5, decoder="l1"), dict(n=50, queries=3, error=0.5, decoder="l1"),
                dict(n=50, queries=4, error=-1.0, decoder="l1"), dict(n=50, queries=4, error=0.5, decoder="x")):
        with pytest.raises(ValueError):
            panel.compute(**bad)
