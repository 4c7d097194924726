"""The measured trade-off curve's bands are the stated Clopper-Pearson intervals: at confidence c
each point's two-sided interval puts error (1 - c) / 2 on each side, computed here from scipy's
beta quantiles (Clopper & Pearson 1934), apart from the package's own bounds."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from ppdm_edu.audit import tradeoff_curve
from ppdm_edu.mechanisms import WarnerRR


def _interval(k: np.ndarray, n: int, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    half = (1.0 - confidence) / 2.0
    with np.errstate(invalid="ignore"):
        low = np.where(k > 0, stats.beta.ppf(half, k, n - k + 1), 0.0)
        high = np.where(k < n, stats.beta.ppf(1.0 - half, k + 1, n - k), 1.0)
    return low, high


@pytest.mark.parametrize("confidence", [0.8, 0.95])
def test_each_point_of_the_curve_has_its_two_sided_clopper_pearson_interval(confidence):
    curve = tradeoff_curve(WarnerRR(0.75), 1, 0, trials=2_000, confidence=confidence, rng=0)
    n = curve.n_estimation
    k0 = np.rint(curve.alpha * n)                   # x0's runs rejected at each threshold
    k1 = np.rint((1.0 - curve.beta) * n)            # x1's runs rejected
    low, high = _interval(k0, n, confidence)
    np.testing.assert_allclose(curve.alpha_low, low, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(curve.alpha_high, high, rtol=1e-9, atol=1e-12)
    low, high = _interval(k1, n, confidence)
    np.testing.assert_allclose(curve.beta_low, 1.0 - high, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(curve.beta_high, 1.0 - low, rtol=1e-9, atol=1e-12)
    inside = (k0 > 0) & (k0 < n)
    assert inside.any()   # the comparison above covers interior points, not only the corners
