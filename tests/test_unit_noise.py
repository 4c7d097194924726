"""``Noise.unit_sample``: the draws at scale 1 that the panels rescale when the privacy slider moves
(notebook 04's trees panel, notebook 06's PPDTC4.5 panel), one method instead of one if-chain
over the noise kind per panel."""
from __future__ import annotations

import numpy as np
import pytest

from ppdm_edu.randomization import NOISE_KINDS


@pytest.mark.parametrize("kind", sorted(NOISE_KINDS))
def test_scaled_unit_draws_are_draws_at_that_scale(kind):
    cls = NOISE_KINDS[kind]
    unit = cls.unit_sample((50, 3), rng=7)
    noise = cls(**{cls.scale_name: 2.5})
    np.testing.assert_allclose(noise.scale * unit, noise.sample((50, 3), rng=7), rtol=1e-12)


def test_unit_draws_are_the_standard_ones_the_panels_drew_before():
    """The same numbers as ``standard_normal`` and ``uniform(-1, 1)`` from the same stream: the
    panels' pictures and results do not change."""
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    assert (NOISE_KINDS["gaussian"].unit_sample((4, 2), a) == b.standard_normal((4, 2))).all()
    assert (NOISE_KINDS["uniform"].unit_sample((4, 2), a) == b.uniform(-1.0, 1.0, (4, 2))).all()


def test_the_panels_use_it():
    from pathlib import Path

    widgets = Path(__file__).resolve().parents[1] / "ppdm_edu" / "widgets"
    for name in ("trees.py", "perturbed_mining.py"):
        source = (widgets / name).read_text(encoding="utf-8")
        assert "unit_sample" in source and "standard_normal" not in source, name
