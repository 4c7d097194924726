"""Issue 14: properties of the estimators on arbitrary legal data (hypothesis).

Randomized response (Warner, MRR) and naive Bayes on perturbed data return finite numbers,
proportions and probabilities in [0, 1], probability rows that sum to 1, and a standard error
that is never 0 for an estimate outside [0, 1]. (Reconstruction has its own properties in
test_reconstruction.py: a distribution, never NaN, invariant to shuffling.)
"""
from __future__ import annotations

import warnings

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ppdm_edu import GaussianNoise
from ppdm_edu.naive_bayes import PerturbedGaussianNB
from ppdm_edu.randomized_response import mrr_estimate, warner_estimate

thetas = st.floats(0.0, 1.0).filter(lambda t: abs(t - 0.5) > 0.02)
answers = st.lists(st.integers(0, 1), min_size=1, max_size=400)


@settings(max_examples=150, deadline=None)
@given(responses=answers, theta=thetas, confidence=st.floats(0.5, 0.999))
def test_warner_estimate_is_finite_and_its_interval_a_proportion(responses, theta, confidence):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # tiny samples warn that they are rough
        res = warner_estimate(responses, theta, confidence=confidence)
    values = [res.estimate, res.estimate_clipped, res.std_error, res.ci_low, res.ci_high, res.p_star]
    assert all(np.isfinite(values))
    assert 0.0 <= res.estimate_clipped <= 1.0 and 0.0 <= res.p_star <= 1.0
    assert 0.0 <= res.ci_low <= res.estimate_clipped <= res.ci_high <= 1.0
    if not 0.0 <= res.estimate <= 1.0:  # an impossible estimate never comes with SE 0
        assert res.std_error > 0.0


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), theta=thetas)
def test_mrr_estimate_is_finite_and_clipped_to_a_proportion(data, theta):
    n = data.draw(st.integers(1, 200))
    k = data.draw(st.integers(1, 4))
    bits = data.draw(st.lists(st.integers(0, 1), min_size=n * k, max_size=n * k))
    X = np.array(bits).reshape(n, k)
    conditions = {j: data.draw(st.integers(0, 1)) for j in range(data.draw(st.integers(1, k)))}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = mrr_estimate(X, theta, conditions)
    assert np.isfinite([res.estimate, res.estimate_clipped, res.estimate_complement,
                        res.std_error, res.p_star_e, res.p_star_ebar]).all()
    assert 0.0 <= res.estimate_clipped <= 1.0
    assert 0.0 <= res.p_star_e <= 1.0 and 0.0 <= res.p_star_ebar <= 1.0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), sigma=st.floats(0.01, 10.0), constant=st.booleans())
def test_naive_bayes_probabilities_are_a_distribution(data, sigma, constant):
    n = data.draw(st.integers(4, 60))
    d = data.draw(st.integers(1, 3))
    values = data.draw(st.lists(st.floats(-1e3, 1e3), min_size=n * d, max_size=n * d))
    X = np.array(values).reshape(n, d)
    if constant:  # constant attributes (issue 14: they used to give NaN probabilities)
        X[:, 0] = 3.0
    y = np.arange(n) % 2
    assume(np.bincount(y).min() >= 2)
    model = PerturbedGaussianNB(GaussianNoise(sigma)).fit(X, y)
    proba = model.predict_proba(X)
    assert np.isfinite(proba).all()
    assert ((proba >= 0.0) & (proba <= 1.0)).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-9)
    assert set(model.predict(X)) <= {0, 1}
