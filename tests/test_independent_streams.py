"""Data and noise come from independent random streams in every panel (issue: notebook 01's
salary + uniform panel drew both from seed 0, so its "noise" was a function of the data and
corr(x, w - x) was 1.000).

Every panel that perturbs data is driven over every attribute / noise / shape choice; the noise
it added (w - x) must be uncorrelated with the data: |corr| < 0.05. Each correlation is taken
over at least 10,000 values (the sample correlation of independent draws has sd about
1/sqrt(n) <= 0.01, so 0.05 is 5 sd away); the bug it guards against gave 1.000.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from ppdm_edu.random_state import spawn_rngs
from ppdm_edu.widgets.attacks import PosteriorIntervalPanel, SpectralAttackPanel  # noqa: E402
from ppdm_edu.widgets.perturbed_mining import PerturbedTreePanel  # noqa: E402
from ppdm_edu.widgets.randomization import ATTRIBUTES, RandomizationPanel  # noqa: E402
from ppdm_edu.widgets.reconstruction import ReconstructionPanel  # noqa: E402

LIMIT = 0.05


def _corr(x, noise) -> float:
    x, noise = np.ravel(x), np.ravel(noise)
    return float(np.corrcoef(x, noise)[0, 1])


def _options(control):
    return [o[1] if isinstance(o, tuple) else o for o in control.options]


def test_randomization_panel_every_attribute_and_noise():
    panel = RandomizationPanel()
    assert set(_options(panel.controls["attribute"])) == set(ATTRIBUTES)
    for attribute, kind in itertools.product(_options(panel.controls["attribute"]),
                                             _options(panel.controls["kind"])):
        panel.controls["attribute"].value = attribute
        panel.controls["kind"].value = kind
        for level in (25.0, 100.0, 200.0):
            panel.controls["level"].value = level
            assert panel.error is None
            r = panel.result
            c = _corr(r.x, r.w - r.x)
            assert abs(c) < LIMIT, f"{attribute}, {kind}, {level} %: corr(x, noise) = {c:.3f}"


def test_reconstruction_panel_every_shape_and_noise():
    panel = ReconstructionPanel()
    for shape, kind in itertools.product(_options(panel.controls["shape"]),
                                         _options(panel.controls["noise"])):
        panel.controls["shape"].value = shape
        panel.controls["noise"].value = kind
        assert panel.error is None
        r = panel.result
        c = _corr(r.x, r.w - r.x)
        assert abs(c) < LIMIT, f"{shape}, {kind}: corr(x, noise) = {c:.3f}"


def test_attack_panels():
    spectral = SpectralAttackPanel()
    for correlation in (0.0, 0.5, 0.99):
        spectral.controls["correlation"].value = correlation
        r = spectral.result
        # 2,000 records x 10 attributes, each standardized: one correlation over 20,000 values
        x = (r.X - r.X.mean(0)) / r.X.std(0)
        noise = (r.W - r.X) / r.sd
        c = _corr(x, noise)
        assert abs(c) < LIMIT, f"correlation {correlation}: corr(x, noise) = {c:.3f}"
    posterior = PosteriorIntervalPanel()
    xs, noises = [], []
    for privacy in (0.25, 1.0, 2.0, 3.0, 0.5):  # 5 x 2,000 values
        posterior.controls["privacy"].value = privacy
        r = posterior.result
        xs.append(r.x)
        noises.append((r.w - r.x) / (r.w - r.x).std())
    c = _corr(np.concatenate(xs), np.concatenate(noises))
    assert abs(c) < LIMIT, f"posterior panel: corr(x, noise) = {c:.3f}"


def test_perturbed_tree_panel_noise_is_not_the_data():
    panel = PerturbedTreePanel()
    X = panel._X  # the panel's cached training records and unit noise draws (5,000 x 6)
    x = (X - X.mean(0)) / X.std(0)
    for kind, (z, _zt) in panel._z.items():
        c = _corr(x, z)
        assert abs(c) < LIMIT, f"{kind}: corr(x, noise) = {c:.3f}"


def test_spawned_streams_are_independent_and_reproducible():
    a1, b1 = spawn_rngs(7)
    a2, b2 = spawn_rngs(7)
    x, y = a1.random(10_000), b1.random(10_000)
    assert np.array_equal(x, a2.random(10_000)) and np.array_equal(y, b2.random(10_000))
    assert abs(_corr(x, y)) < LIMIT
    with pytest.raises(ValueError, match="n must be an integer"):
        spawn_rngs(0, 0)
    with pytest.raises(TypeError, match="rng must be"):
        spawn_rngs("0")
