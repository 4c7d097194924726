"""Gaussian naive Bayes on perturbed data (Liu, Kantarcioglu & Thuraisingham, Section 5; issue 8)."""
import numpy as np
import pandas as pd
import pytest

from ppdm_edu import GaussianNoise, UniformNoise, perturb
from ppdm_edu.naive_bayes import PerturbedGaussianNB


def _two_gaussians(n=4000, seed=0):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal([0, 10], [1, 2], (n, 2)), rng.normal([2, 13], [1, 2], (n, 2))]
    y = np.r_[np.zeros(n, int), np.ones(n, int)]
    return X, y


def test_plain_model_is_textbook_gaussian_nb():
    X, y = _two_gaussians()
    nb = PerturbedGaussianNB().fit(X, y)
    for c in (0, 1):
        np.testing.assert_allclose(nb.theta_[c], X[y == c].mean(0))
        np.testing.assert_allclose(nb.var_[c], X[y == c].var(0, ddof=1), rtol=1e-6)
    np.testing.assert_allclose(nb.class_prior_, [0.5, 0.5])
    # posterior of a midpoint record is about 1/2, predict_proba rows sum to 1
    p = nb.predict_proba(X[:10])
    np.testing.assert_allclose(p.sum(1), 1.0)
    assert nb.score(X, y) > 0.8


def test_variance_correction_subtracts_noise_variance():
    X, y = _two_gaussians()
    noise = GaussianNoise(1.5)
    W = perturb(X, noise, rng=1)
    nb = PerturbedGaussianNB(noise=noise).fit(W, y)
    raw = PerturbedGaussianNB(noise=noise, correct_variance=False).fit(W, y)
    np.testing.assert_allclose(nb.var_, raw.var_ - 1.5**2, atol=1e-6)
    # S^2 - sigma_R^2 estimates the original variances (1 and 4)
    np.testing.assert_allclose(nb.var_[:, 0], 1.0, atol=0.15)
    np.testing.assert_allclose(nb.var_[:, 1], 4.0, atol=0.4)
    # means of w estimate the means of x
    np.testing.assert_allclose(nb.theta_, [[0, 10], [2, 13]], atol=0.1)


def test_variance_floor_keeps_variances_positive():
    X, y = _two_gaussians()
    noise = UniformNoise(3.0)  # var 3: larger than attribute 0's variance 1 -> S^2 - 3 < 0 at times
    W = perturb(X, noise, rng=2)
    nb = PerturbedGaussianNB(noise={0: UniformNoise(20.0), 1: noise}).fit(W, y)
    # attribute 0 "has" noise var 133 in the model: S^2 - 133 < 0, floored at 1 % of S^2
    assert nb.floored_[:, 0].all() and not nb.floored_[:, 1].any()
    np.testing.assert_allclose(nb.var_[:, 0], 0.01 * nb.var_perturbed_[:, 0], rtol=1e-6)
    assert (nb.var_ > 0).all()
    assert np.isfinite(nb.predict_proba(W)).all()
    nb5 = PerturbedGaussianNB(noise={0: UniformNoise(20.0), 1: noise}, variance_floor=0.05).fit(W, y)
    np.testing.assert_allclose(nb5.var_[:, 0], 0.05 * nb.var_perturbed_[:, 0], rtol=1e-6)


def test_correction_helps_on_original_records_not_on_perturbed_ones():
    X, y = _two_gaussians(n=5000)
    noise = GaussianNoise(2.0)
    W = perturb(X, noise, rng=3)
    X_test, y_test = _two_gaussians(n=5000, seed=9)
    W_test = perturb(X_test, noise, rng=4)
    corrected = PerturbedGaussianNB(noise=noise).fit(W, y)
    raw = PerturbedGaussianNB(noise=noise, correct_variance=False).fit(W, y)
    # the corrected model's log-likelihood of original test records is higher ...
    ll_c = np.log(corrected.predict_proba(X_test)[np.arange(y_test.size), y_test]).mean()
    ll_r = np.log(raw.predict_proba(X_test)[np.arange(y_test.size), y_test]).mean()
    assert ll_c > ll_r
    # ... and on perturbed test records the uncorrected one is better calibrated
    llw_c = np.log(corrected.predict_proba(W_test)[np.arange(y_test.size), y_test]).mean()
    llw_r = np.log(raw.predict_proba(W_test)[np.arange(y_test.size), y_test]).mean()
    assert llw_r > llw_c


def test_dataframe_and_noise_by_name():
    X, y = _two_gaussians(n=500)
    frame = pd.DataFrame(X, columns=["age", "hours"])
    nb = PerturbedGaussianNB(noise={"age": GaussianNoise(0.5), "hours": GaussianNoise(1.0)}).fit(frame, y)
    np.testing.assert_allclose(nb.noise_var_, [0.25, 1.0])


def test_bad_inputs():
    X, y = _two_gaussians(n=100)
    bad = X.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        PerturbedGaussianNB().fit(bad, y)
    with pytest.raises(ValueError, match="NaN"):
        PerturbedGaussianNB().fit(X, y).predict(bad)
    with pytest.raises(ValueError, match="variance_floor"):
        PerturbedGaussianNB(variance_floor=0.0).fit(X, y)
    with pytest.raises(TypeError, match="noise must be"):
        PerturbedGaussianNB(noise=1.0).fit(X, y)
    with pytest.raises(ValueError, match=r"no entry for column\(s\) \[1\]"):
        PerturbedGaussianNB(noise={0: GaussianNoise(1.0)}).fit(X, y)
    with pytest.raises(ValueError, match="not fitted"):
        PerturbedGaussianNB().predict(X)
    with pytest.raises(ValueError, match="at least 2"):
        PerturbedGaussianNB().fit(X[:101], np.r_[np.zeros(100), 1])
