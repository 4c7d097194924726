"""Bad input to the mechanisms: one clear message naming the argument, never a deep traceback.

The mechanisms share perturb's refusals (ppdm_edu.randomization): a masked array, complex
numbers, datetimes and Python objects are refused, naming the argument, instead of being
silently coerced.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from ppdm_edu.mechanisms import (
    ESTIMATION_METHODS,
    GaussianNoiseMechanism,
    GeneralizedRR,
    LaplaceMechanism,
    OptimizedUnaryEncoding,
    UniformNoiseMechanism,
    WarnerRR,
)
from ppdm_edu.randomization import LaplaceNoise, perturb
from ppdm_edu.randomized_response import warner_disguise, warner_estimate

MECHANISMS = {
    "laplace": (lambda: LaplaceMechanism(1.0), 0.5),
    "gaussian": (lambda: GaussianNoiseMechanism(0.5), 0.5),
    "uniform": (lambda: UniformNoiseMechanism(0.5), 0.5),
    "warner": (lambda: WarnerRR(0.75), 1),
    "grr": (lambda: GeneralizedRR(3, 1.0), 1),
    "oue": (lambda: OptimizedUnaryEncoding(3, 1.0), 1),
}
HOSTILE = {
    "masked": lambda v: np.ma.masked_array([v, v, v], mask=[0, 1, 0]),
    "complex": lambda v: np.array([v, v], dtype=complex),
    "datetime": lambda v: np.array([int(v), int(v)], dtype="datetime64[D]"),
    "object": lambda v: np.array([v, None], dtype=object),
}


def _perturb_message(kind):
    """perturb's own message for the same input: the mechanisms must give the same refusal."""
    with pytest.raises(TypeError) as err:
        perturb(HOSTILE[kind](0.5), LaplaceNoise(1.0), rng=0)
    return str(err.value).replace("x ", "{name} ", 1).replace("x.", "{name}.")


@pytest.mark.parametrize("kind", HOSTILE)
@pytest.mark.parametrize("mech_name", MECHANISMS)
def test_randomize_refuses_what_perturb_refuses(mech_name, kind):
    make, value = MECHANISMS[mech_name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a ComplexWarning is not a refusal
        with pytest.raises(TypeError) as err:
            make().randomize(HOSTILE[kind](value), rng=0)
    assert str(err.value) == _perturb_message(kind).format(name="values")


@pytest.mark.parametrize("kind", ["masked", "complex", "object"])
@pytest.mark.parametrize("mech_name", ["laplace", "grr"])
def test_estimate_refuses_what_perturb_refuses(mech_name, kind):
    make, value = MECHANISMS[mech_name]
    with pytest.raises(TypeError, match="^reports "):
        make().estimate(HOSTILE[kind](value))


def test_oue_counts_refuse_a_masked_report():
    bits = np.ma.masked_array([[0, 1, 0]], mask=[[0, 1, 0]])
    with pytest.raises(TypeError, match="^reports is a masked array"):
        OptimizedUnaryEncoding(3, 1.0).counts(bits)


@pytest.mark.parametrize("eps", [710.0, 1000.0, 1e300])
@pytest.mark.parametrize("cls", [GeneralizedRR, OptimizedUnaryEncoding])
def test_huge_epsilon_is_no_noise_not_an_overflow(cls, eps):
    mech = cls(4, eps)
    A = mech.response_matrix()
    # the formulas in e^-eps: p = 1 / (1 + (k - 1) e^-eps) (GRR) or 1/2 (OUE), q = e^-eps / (...)
    assert A[0, 0] == (1.0 if cls is GeneralizedRR else 0.5)
    assert 0.0 <= A[1, 0] < 1e-300
    x = np.array([0, 1, 2, 3, 3])
    reports = mech.randomize(x, rng=0)
    truth = np.bincount(x, minlength=4) / x.size
    if cls is GeneralizedRR:
        assert np.array_equal(reports, x)  # the truth, every time
        assert mech.estimate(reports).probabilities == pytest.approx(truth)


def test_grr_p_and_q_keep_their_closed_form():
    for k, eps in ((2, 0.1), (5, 1.0), (100, 4.0), (3, 700.0)):
        A = GeneralizedRR(k, eps).response_matrix()
        e = math.exp(eps)
        assert A[0, 0] == pytest.approx(e / (e + k - 1), rel=1e-13)
        assert A[1, 0] == pytest.approx(1 / (e + k - 1), rel=1e-13)
        B = OptimizedUnaryEncoding(k, eps).response_matrix()
        assert B[1, 0] == pytest.approx(1 / (e + 1), rel=1e-13)


def test_gaussian_for_a_huge_epsilon_says_what_is_allowed():
    with pytest.raises(ValueError, match=r"epsilon must be at most 1e\+06.*got 1e\+308"):
        GaussianNoiseMechanism.for_epsilon(1e308)
    m = GaussianNoiseMechanism.for_epsilon(1e6)  # the largest allowed still solves
    assert m.epsilon == pytest.approx(1e6, rel=1e-9)


def test_laplace_with_a_subnormal_epsilon_names_epsilon():
    with pytest.raises(ValueError, match=r"^epsilon = .* is too small .* epsilon must be at least"):
        LaplaceMechanism(1e-320)


@pytest.mark.parametrize("mech_name", MECHANISMS)
def test_estimate_of_a_0d_array_says_to_wrap_it(mech_name):
    make, value = MECHANISMS[mech_name]
    with pytest.raises(ValueError, match=r"^reports must be an array with one report per record.*0-d"):
        make().estimate(np.array(value))


@pytest.mark.parametrize("method", ESTIMATION_METHODS)
def test_oue_estimate_of_no_reports_is_refused(method):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="^reports is empty"):
            OptimizedUnaryEncoding(4, 1.0).estimate(np.zeros((0, 4)), method=method)


@pytest.mark.parametrize("method", [m for m in ESTIMATION_METHODS if m != "inversion"])
def test_oue_reports_whose_bits_are_all_zero_give_the_uniform_distribution(method):
    # a report with no bit set is equally likely under every category (probability
    # (1 - p)(1 - q)^(k - 1) for each): the reports carry no evidence, uniform is the estimate
    # (the unbiased "inversion" is -q / (p - q) in every category: it need not be a distribution)
    est = OptimizedUnaryEncoding(4, 1.0).estimate(np.zeros((5, 4), dtype=np.int8), method=method)
    assert est.probabilities.tolist() == [0.25] * 4 and est.n == 5


@pytest.mark.parametrize("data", [pd.array([0, 1, pd.NA], dtype="Int64"), pd.Series([0, 1, None], dtype="Int64")])
def test_grr_names_the_missing_value(data):
    with pytest.raises(ValueError, match=r"^values contains 1 NaN .*position 2"):
        GeneralizedRR(3, 1.0).randomize(data, rng=0)
    with pytest.raises(ValueError, match=r"^reports contains 1 NaN .*position 2"):
        GeneralizedRR(3, 1.0).estimate(data)


def test_grr_without_missing_values_takes_nullable_integers():
    data = pd.Series([0, 1, 2, 2], dtype="Int64")
    assert GeneralizedRR(3, 1.0).randomize(data, rng=0).shape == (4,)


@pytest.mark.parametrize("bad, match", [
    ([0, 1.5], r"^values must be integer categories 0\.\.2, got 1\.5 at position 1"),
    ([0, 3], r"^values must be integer categories 0\.\.2, got 3 at position 1"),
    ([-1], r"^values must be integer categories 0\.\.2, got -1 at position 0"),
])
def test_categories_out_of_range_are_named(bad, match):
    with pytest.raises(ValueError, match=match):
        GeneralizedRR(3, 1.0).randomize(bad)


def test_oue_bits_other_than_0_1_are_named():
    with pytest.raises(ValueError, match=r"^reports must be 0/1 bits, got 2 in row 1, column 0"):
        OptimizedUnaryEncoding(2, 1.0).counts(np.array([[0, 1], [2, 0]]))


# ---- Warner's disguise-only standard error is a standard error for theta < 1/2 too ----------
@pytest.mark.parametrize("theta", [0.2, 0.3, 0.45])
def test_warner_disguise_standard_error_is_positive_and_symmetric_in_theta(theta):
    truth = (np.random.default_rng(0).random(4_000) < 0.3).astype(int)
    low = warner_estimate(warner_disguise(truth, theta, rng=1), theta)
    high = warner_estimate(warner_disguise(truth, 1 - theta, rng=1), 1 - theta)
    n = truth.size
    assert low.std_error_disguise > 0
    # sqrt(theta (1 - theta) / n) / |2 theta - 1| (Warner 1965): the same at theta and 1 - theta
    assert low.std_error_disguise == pytest.approx(math.sqrt(theta * (1 - theta) / n) / abs(2 * theta - 1))
    assert low.std_error_disguise == pytest.approx(high.std_error_disguise)
