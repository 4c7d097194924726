"""The one interface of the local randomizers (ppdm_edu.mechanisms) and the IBU bridge."""
from __future__ import annotations

import math

import numpy as np
import pytest

from ppdm_edu.audit import audit_epsilon
from ppdm_edu.mechanisms import (
    ESTIMATION_METHODS,
    GaussianNoiseMechanism,
    GeneralizedRR,
    LaplaceMechanism,
    Mechanism,
    OptimizedUnaryEncoding,
    UniformNoiseMechanism,
    WarnerRR,
)
from ppdm_edu.randomized_response import warner_disguise

P10 = np.r_[0.3, 0.2, 0.15, 0.1, 0.08, 0.06, 0.04, 0.03, 0.02, 0.02]


def _hist_data(n=20_000, seed=0):
    return np.random.default_rng(seed).choice(10, size=n, p=P10)


def _share_data(n=20_000, seed=0):
    return (np.random.default_rng(seed).random(n) < 0.3).astype(int)


ALL = [
    lambda: UniformNoiseMechanism.for_privacy(1.0, n_bins=2, discrete=True),
    lambda: GaussianNoiseMechanism.for_epsilon(2.0, n_bins=2, discrete=True),
    lambda: LaplaceMechanism(2.0, n_bins=2, discrete=True),
    lambda: WarnerRR.for_epsilon(1.0),
    lambda: GeneralizedRR(2, 1.0),
    lambda: OptimizedUnaryEncoding(2, 1.0),
]


@pytest.mark.parametrize("make", ALL)
@pytest.mark.parametrize("method", ESTIMATION_METHODS)
def test_every_mechanism_estimates_the_share(make, method):
    mech = make()
    assert isinstance(mech, Mechanism)
    x = _share_data()
    est = mech.estimate(mech.randomize(x, rng=1), method=method)
    assert est.probabilities.shape == (2,) and est.method == method
    if method != "inversion":  # (the unbiased estimate itself may leave the simplex)
        assert est.probabilities.sum() == pytest.approx(1.0)
        assert (est.probabilities >= 0).all()
    # the share 0.3 within 5 standard errors of the noisiest of them (Gaussian at eps=2: sd ~0.02)
    assert est.probabilities[1] == pytest.approx(0.3, abs=0.1)


@pytest.mark.parametrize("cls", [GeneralizedRR, OptimizedUnaryEncoding])
def test_categorical_estimates_are_close_at_large_n(cls):
    mech = cls(10, 2.0)
    x = _hist_data(100_000)
    for method in ESTIMATION_METHODS:
        p = mech.estimate(mech.randomize(x, rng=2), method=method).probabilities
        assert 0.5 * np.abs(p - P10).sum() < 0.05


def test_claimed_privacy():
    assert UniformNoiseMechanism(0.5).epsilon == math.inf
    g = GaussianNoiseMechanism.for_epsilon(0.5, delta=1e-6)
    assert g.epsilon == pytest.approx(0.5, rel=1e-6) and g.delta == 1e-6
    assert LaplaceMechanism(0.7).epsilon == 0.7 and LaplaceMechanism(0.7).delta == 0.0
    assert WarnerRR(0.75).epsilon == pytest.approx(math.log(3))
    assert GeneralizedRR(5, 1.3).epsilon == 1.3


@pytest.mark.parametrize("mech", [GeneralizedRR(4, 1.0), WarnerRR(0.8)])
def test_response_matrix_ratio_is_e_to_epsilon(mech):
    A = mech.response_matrix()
    # every row: the largest over the smallest likelihood is e^eps (epsilon-LDP is tight)
    ratio = (A.max(axis=1) / A.min(axis=1)).max()
    assert ratio == pytest.approx(math.exp(mech.epsilon))


def test_oue_epsilon_from_its_bits():
    A = OptimizedUnaryEncoding(4, 1.3).response_matrix()
    p, q = A[0, 0], A[1, 0]
    # two inputs differ in two bits: the worst ratio is p (1 - q) / ((1 - p) q) (Wang et al. Sec. 4.3)
    assert math.log(p * (1 - q) / ((1 - p) * q)) == pytest.approx(1.3)


def test_response_matrix_columns_are_distributions_for_grr_and_additive():
    assert GeneralizedRR(7, 0.3).response_matrix().sum(axis=0) == pytest.approx(np.ones(7))
    A = LaplaceMechanism(1.0, n_bins=5).response_matrix()
    assert A.sum(axis=0) == pytest.approx(np.ones(5), abs=1e-6)


def test_grr_with_k_2_is_warner():
    assert GeneralizedRR(2, math.log(3)).response_matrix() == pytest.approx(WarnerRR(0.75).response_matrix())


def test_warner_randomizes_like_warner_disguise():
    x = _share_data(1000)
    assert np.array_equal(WarnerRR(0.7).randomize(x, rng=5), warner_disguise(x, 0.7, rng=5))


def test_grr_report_frequencies_match_p_and_q():
    mech = GeneralizedRR(5, 1.0)
    y = mech.randomize(np.zeros(200_000, dtype=int), rng=3)
    freq = np.bincount(y, minlength=5) / y.size
    p, q = math.e / (math.e + 4), 1 / (math.e + 4)
    assert freq == pytest.approx([p, q, q, q, q], abs=0.005)


def test_oue_bits():
    mech = OptimizedUnaryEncoding(6, 1.0)
    bits = mech.randomize(np.full(200_000, 2), rng=4)
    assert bits.shape == (200_000, 6)
    assert bits.mean(axis=0) == pytest.approx([1 / (math.e + 1)] * 2 + [0.5] + [1 / (math.e + 1)] * 3,
                                              abs=0.005)


@pytest.mark.parametrize("mech", [WarnerRR.for_epsilon(1.0), GeneralizedRR(3, 1.0), OptimizedUnaryEncoding(3, 1.0),
                                  LaplaceMechanism(1.0)])
def test_audit_accepts_a_mechanism_and_never_refutes_a_true_claim(mech):
    # at confidence 0.999 a true claim is refuted in at most 0.1 % of seeds (a 95 % audit exceeds
    # the truth in up to 5 %: tests/test_audit_coverage.py counts that over 400 seeds)
    audit = audit_epsilon(mech, 0, 1, trials=20_000, confidence=0.999, rng=0)
    assert 0 < audit.lower_bound <= mech.epsilon


def test_audit_of_uniform_noise_grows_with_trials():
    mech = UniformNoiseMechanism.for_privacy(1.0)
    bounds = [audit_epsilon(mech, 0.0, 1.0, trials=t, rng=0).lower_bound for t in (1_000, 10_000, 100_000)]
    assert bounds[0] < bounds[1] < bounds[2]


def test_audit_of_warner_at_ln3_is_tight():
    audit = audit_epsilon(WarnerRR.for_epsilon(math.log(3)), 1, 0, trials=200_000, rng=0)
    assert math.log(3) - 0.2 <= audit.lower_bound <= math.log(3)


@pytest.mark.parametrize("bad, match", [
    (lambda: GeneralizedRR(1, 1.0), "k"), (lambda: GeneralizedRR(3, -1.0), "epsilon"),
    (lambda: OptimizedUnaryEncoding(3, 1.0).estimate(np.zeros((4, 3), int), method="magic"), "method"),
    (lambda: GeneralizedRR(3, 1.0).randomize([0, 3]), "categories"),
    (lambda: LaplaceMechanism(1.0).randomize([0.5, 2.0]), "bounds"),
    (lambda: OptimizedUnaryEncoding(3, 1.0).counts(np.zeros((4, 2), int)), "reports"),
    (lambda: WarnerRR(1.5), "theta"),
])
def test_refusals_name_the_argument(bad, match):
    with pytest.raises((ValueError, TypeError), match=match):
        bad()


def test_results_are_frozen():
    est = GeneralizedRR(3, 1.0).estimate(np.array([0, 1, 2, 2]), method="inversion")
    with pytest.raises(AttributeError):
        est.method = "x"


# ---- the bridge: our iterative Bayes (Agrawal & Srikant Fig. 1) is multi-freq-ldpy's IBU ---------
def _their_stop(history, tol=1e-12):
    """multi-freq-ldpy's IBU stops at the first iterate whose max |change| < tol ("max_abs"), else
    after nb_iter iterations: pick that iterate from our history."""
    change = np.abs(np.diff(history, axis=0)).max(axis=1)
    hit = np.flatnonzero(change < tol)
    return history[hit[0] + 1] if hit.size else history[-1]


@pytest.mark.parametrize("k, eps, nb_iter", [(10, 1.0, 10_000), (5, 2.0, 300), (3, 0.5, 10_000)])
def test_grr_iterative_bayes_equals_multi_freq_ldpy_ibu(k, eps, nb_iter):
    from multi_freq_ldpy.pure_frequency_oracles import GRR as grr_mod
    mech = GeneralizedRR(k, eps)
    x = np.random.default_rng(k).choice(k, size=5_000, p=np.arange(k, 0, -1) / (k * (k + 1) / 2))
    reports = mech.randomize(x, rng=1)
    theirs = grr_mod.GRR_Aggregator_IBU(reports, k, eps, nb_iter=nb_iter)
    ours = mech.reconstruct(reports, max_iter=nb_iter, tol=0.0, keep_history=True)
    assert np.abs(_their_stop(ours.history) - theirs).max() < 1e-10


def test_oue_iterative_bayes_equals_multi_freq_ldpy_ibu():
    from multi_freq_ldpy.pure_frequency_oracles import UE as ue_mod
    mech = OptimizedUnaryEncoding(8, 1.0)
    reports = mech.randomize(np.random.default_rng(0).choice(8, size=5_000), rng=2)
    # their UE aggregator sums the rows with Python's sum: int64 keeps it from overflowing int8
    theirs = ue_mod.UE_Aggregator_IBU(reports.astype(np.int64), 8, 1.0, optimal=True, nb_iter=2_000)
    ours = mech.reconstruct(reports, max_iter=2_000, tol=0.0, keep_history=True)
    assert np.abs(_their_stop(ours.history) - theirs).max() < 1e-10


# ---- the estimators against multi-freq-ldpy's (a test dependency: these never skip) -----------
@pytest.mark.parametrize("eps", [0.5, 1.0, 4.0])
def test_unbiased_inversion_is_multi_freq_ldpys_before_its_clipping(eps):
    # their MI clips the unbiased estimate at 0 and renormalizes; ours projects it instead:
    # the unbiased estimate itself must be theirs
    from multi_freq_ldpy.pure_frequency_oracles import GRR as grr_mod
    from multi_freq_ldpy.pure_frequency_oracles import UE as ue_mod
    x = _hist_data(5_000, seed=3)
    for mech, theirs in (
        (GeneralizedRR(10, eps), lambda r: grr_mod.GRR_Aggregator_MI(r, 10, eps)),
        (OptimizedUnaryEncoding(10, eps), lambda r: ue_mod.UE_Aggregator_MI(r.astype(np.int64), eps, optimal=True)),
    ):
        reports = mech.randomize(x, rng=4)
        raw = np.clip(mech.estimate(reports, method="inversion").probabilities, 0.0, None)
        np.testing.assert_allclose(raw / raw.sum(), theirs(reports), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("eps", [0.5, 1.0, 4.0])
def test_converged_bayes_is_multi_freq_ldpys_ibu_run_to_convergence(eps):
    from multi_freq_ldpy.pure_frequency_oracles import GRR as grr_mod
    from multi_freq_ldpy.pure_frequency_oracles import UE as ue_mod
    # a distribution away from 0 in every category: its maximum-likelihood estimate is inside the
    # simplex, where the iteration converges geometrically (towards a 0 it slows to a crawl)
    x = np.random.default_rng(5).choice(10, size=20_000, p=np.arange(10, 0, -1) / 55)
    for mech, theirs in (
        (GeneralizedRR(10, eps), lambda r: grr_mod.GRR_Aggregator_IBU(r, 10, eps, nb_iter=200_000, tol=1e-13)),
        (OptimizedUnaryEncoding(10, eps),
         lambda r: ue_mod.UE_Aggregator_IBU(r.astype(np.int64), 10, eps, optimal=True, nb_iter=200_000, tol=1e-13)),
    ):
        reports = mech.randomize(x, rng=6)
        ours = mech.estimate(reports, method="ibu", tol=1e-10)
        assert ours.converged
        # both approach the same fixed point: ours stopped when one more step would move it by
        # less than 1e-10 (L1), theirs when a step moved no entry by 1e-13 (up to 200,000 steps)
        assert np.abs(ours.probabilities - theirs(reports)).sum() < 1e-6
