"""Tests for ppdm_edu.randomized_response (Du & Zhan Sections 3 and 4.1)."""
import dataclasses

import numpy as np
import pandas as pd
import pytest

from ppdm_edu import mrr_disguise, mrr_estimate, rr_epsilon, warner_disguise, warner_estimate
from ppdm_edu.randomized_response import (
    MRREstimate,
    WarnerEstimate,
    mrr_solve,
    theta_for_epsilon,
    warner_std_error,
)


# ------------------------------------------------------------------ Warner, statistics
@pytest.mark.parametrize("theta", [0.2, 0.7, 0.85])
def test_warner_estimate_is_unbiased_over_300_surveys(theta):
    # population with P(A = yes) = 0.3; each survey draws 2,000 fresh respondents
    rng = np.random.default_rng(12345)
    pi, n, reps = 0.3, 2_000, 300
    estimates = np.empty(reps)
    for r in range(reps):  # loop over surveys, not records
        truth = rng.random(n) < pi
        estimates[r] = warner_estimate(warner_disguise(truth, theta, rng), theta).estimate
    se_of_mean = estimates.std(ddof=1) / np.sqrt(reps)
    assert abs(estimates.mean() - pi) < 3 * se_of_mean


@pytest.mark.parametrize("theta", [0.15, 0.35, 0.6, 0.9])
def test_warner_standard_error_matches_empirical_spread(theta):
    rng = np.random.default_rng(7)
    pi, n, reps = 0.4, 1_500, 400
    results = []
    for _ in range(reps):
        truth = rng.random(n) < pi
        results.append(warner_estimate(warner_disguise(truth, theta, rng), theta))
    empirical = np.std([r.estimate for r in results], ddof=1)
    theoretical = warner_std_error(pi, theta, n)
    reported = np.mean([r.std_error for r in results])
    assert abs(theoretical / empirical - 1) < 0.15
    assert abs(reported / empirical - 1) < 0.15


def test_warner_std_error_formula_and_identity():
    # pi(1-pi)/n + theta(1-theta)/(n(2theta-1)^2) == lambda(1-lambda)/(n(2theta-1)^2)
    pi, theta, n = 0.3, 0.8, 1000
    lam = theta * pi + (1 - theta) * (1 - pi)
    expected = np.sqrt(lam * (1 - lam) / (n * (2 * theta - 1) ** 2))
    assert warner_std_error(pi, theta, n) == pytest.approx(expected, rel=1e-12)
    assert warner_std_error(pi, 0.5, n) == np.inf
    grid = warner_std_error(pi, np.array([0.1, 0.3, 0.7, 0.9]), n)
    assert grid[0] == pytest.approx(grid[3]) and grid[1] == pytest.approx(grid[2])
    assert grid[1] > grid[0]  # closer to 0.5 costs more


def test_warner_result_fields():
    truth = np.random.default_rng(0).random(5_000) < 0.25
    res = warner_estimate(warner_disguise(truth, 0.75, rng=1), 0.75, confidence=0.9)
    assert isinstance(res, WarnerEstimate)
    assert res.n == 5_000 and res.theta == 0.75 and res.confidence == 0.9
    assert res.ci_low < res.estimate < res.ci_high
    assert res.ci_high - res.ci_low == pytest.approx(2 * 1.6448536 * res.std_error, rel=1e-6)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.estimate = 0.0  # frozen


def test_warner_clipped_estimate_is_reported_separately():
    # all "yes" answers at theta = 0.6: unbiased estimate is (1 - 0.4) / 0.2 = 3
    with pytest.warns(RuntimeWarning, match="outside \\[0, 1\\]"):
        res = warner_estimate(np.ones(50, dtype=int), 0.6)
    assert res.estimate == pytest.approx(3.0)
    assert res.estimate_clipped == 1.0
    assert 0.0 <= res.ci_low <= res.ci_high <= 1.0


# ------------------------------------------------------------------ Warner, extremes
def test_theta_one_and_zero_are_exact():
    truth = (np.random.default_rng(3).random(1_001) < 0.37).astype(int)
    np.testing.assert_array_equal(warner_disguise(truth, 1.0, rng=0), truth)
    np.testing.assert_array_equal(warner_disguise(truth, 0.0, rng=0), 1 - truth)
    for theta in (0.0, 1.0):
        res = warner_estimate(warner_disguise(truth, theta, rng=5), theta)
        assert res.estimate == truth.sum() / truth.size  # exact, not approx


def test_theta_half_raises_with_explanation():
    answers = warner_disguise(np.ones(10, dtype=int), 0.5, rng=0)  # disguising is allowed
    with pytest.raises(ValueError, match="singular") as err:
        warner_estimate(answers, 0.5)
    assert "unrelated-question" in str(err.value)
    with pytest.raises(ValueError, match="singular"):
        mrr_solve(0.2, 0.3, 0.5)
    with pytest.raises(ValueError, match="singular"):
        mrr_estimate(np.ones((5, 2), dtype=int), 0.5000000000001, {0: 1})


@pytest.mark.parametrize("theta", [-0.1, 1.2, float("nan")])
def test_theta_out_of_range_raises(theta):
    with pytest.raises(ValueError, match="theta"):
        warner_estimate([0, 1, 1], theta)
    with pytest.raises(ValueError, match="theta"):
        warner_disguise([0, 1, 1], theta)
    with pytest.raises(ValueError, match="theta"):
        mrr_disguise([[0, 1]], theta)


@pytest.mark.parametrize("bad", [[0, 2, 1], [0.5, 1], [np.nan, 1], ["a", "b"]])
def test_non_binary_raises(bad):
    with pytest.raises(ValueError, match="0/1"):
        warner_estimate(bad, 0.7)
    with pytest.raises(ValueError, match="0/1|numeric"):
        mrr_disguise(np.array([bad, bad]).T, 0.7)


def test_empty_input_raises():
    with pytest.raises(ValueError, match="empty"):
        warner_estimate([], 0.7)
    with pytest.raises(ValueError, match="empty"):
        warner_disguise(np.array([], dtype=int), 0.7)
    with pytest.raises(ValueError, match="empty"):
        mrr_disguise(np.zeros((0, 3)), 0.7)
    with pytest.raises(ValueError, match="empty"):
        mrr_estimate(pd.DataFrame({"a": []}), 0.7, {"a": 1})


def test_shape_errors():
    with pytest.raises(ValueError, match="one-dimensional"):
        warner_estimate([[0, 1], [1, 0]], 0.7)
    with pytest.raises(ValueError, match="2-D"):
        mrr_disguise([0, 1, 1], 0.7)


def test_same_seed_same_numbers():
    X = (np.random.default_rng(0).random((200, 4)) < 0.5).astype(int)
    np.testing.assert_array_equal(mrr_disguise(X, 0.7, rng=9), mrr_disguise(X, 0.7, rng=9))
    np.testing.assert_array_equal(warner_disguise(X[:, 0], 0.7, rng=9), warner_disguise(X[:, 0], 0.7, rng=9))


# ------------------------------------------------------------------ MRR
def _correlated_matrix(n, rng):
    """4 correlated binary columns from a latent Gaussian with correlation 0.6."""
    cov = np.full((4, 4), 0.6) + 0.4 * np.eye(4)
    z = rng.multivariate_normal(np.zeros(4), cov, size=n)
    return (z > np.array([0.0, 0.3, -0.4, 0.8])).astype(np.uint8)


@pytest.mark.parametrize("theta", [0.2, 0.7, 0.9])
def test_mrr_recovers_conjunctions_of_correlated_matrix(theta):
    rng = np.random.default_rng(2024)
    X = _correlated_matrix(50_000, rng)
    G = mrr_disguise(X, theta, rng)
    assert not np.array_equal(G, X)
    for cond in ({0: 1, 1: 1, 2: 0}, {0: 1, 3: 1}, {1: 0, 2: 1, 3: 0}, {0: 0, 1: 0, 2: 0, 3: 0}):
        cols, vals = list(cond), np.array(list(cond.values()))
        truth = np.all(X[:, cols] == vals, axis=1).mean()
        res = mrr_estimate(G, theta, cond)
        assert abs(res.estimate - truth) < 0.015, (cond, res.estimate, truth)


def test_mrr_flips_whole_records_only():
    X = _correlated_matrix(5_000, np.random.default_rng(1))
    G = mrr_disguise(X, 0.6, rng=2)
    same = np.all(G == X, axis=1)
    flipped = np.all(G == 1 - X, axis=1)
    assert np.all(same | flipped)
    assert abs(same.mean() - 0.6) < 0.03


def test_mrr_keep_column_is_never_flipped_and_estimate_uses_it():
    rng = np.random.default_rng(11)
    X = _correlated_matrix(50_000, rng)
    G = mrr_disguise(X, 0.25, rng, keep=[3])
    np.testing.assert_array_equal(G[:, 3], X[:, 3])
    cond = {0: 1, 1: 0, 3: 1}
    truth = np.all(X[:, [0, 1, 3]] == [1, 0, 1], axis=1).mean()
    res = mrr_estimate(G, 0.25, cond, keep=[3])
    assert res.complement == {0: 0, 1: 1, 3: 1}  # the class keeps its value in E-bar
    assert abs(res.estimate - truth) < 0.015
    # forgetting keep= gives the wrong complement and a wrong answer
    wrong = mrr_estimate(G, 0.25, cond)
    assert abs(wrong.estimate - truth) > 0.05


def test_mrr_dataframe_names_and_extremes_exact():
    X = pd.DataFrame(_correlated_matrix(3_000, np.random.default_rng(4)), columns=list("abcd"),
                     index=np.arange(3_000) + 100)
    G0 = mrr_disguise(X, 0.0, rng=0, keep="d")
    assert isinstance(G0, pd.DataFrame) and list(G0.columns) == list("abcd")
    assert G0.index.equals(X.index)
    np.testing.assert_array_equal(G0[["a", "b", "c"]].to_numpy(), 1 - X[["a", "b", "c"]].to_numpy())
    np.testing.assert_array_equal(G0["d"].to_numpy(), X["d"].to_numpy())
    cond = {"a": 1, "c": 0, "d": 1}
    truth = ((X.a == 1) & (X.c == 0) & (X.d == 1)).sum() / len(X)
    assert mrr_estimate(G0, 0.0, cond, keep="d").estimate == truth  # exact
    G1 = mrr_disguise(X, 1.0, rng=0)
    assert mrr_estimate(G1, 1.0, cond).estimate == truth
    res = mrr_estimate(G1, 1.0, cond)
    assert isinstance(res, MRREstimate) and res.conditions == cond


def test_mrr_estimate_std_error_matches_spread():
    rng = np.random.default_rng(99)
    theta, n, reps = 0.75, 4_000, 300
    cond = {0: 1, 1: 1, 2: 0}
    est, se = [], []
    for _ in range(reps):
        X = _correlated_matrix(n, rng)
        r = mrr_estimate(mrr_disguise(X, theta, rng), theta, cond)
        est.append(r.estimate)
        se.append(r.std_error)
    assert abs(np.mean(se) / np.std(est, ddof=1) - 1) < 0.15


def test_mrr_conditions_errors():
    X = np.zeros((4, 3), dtype=int)
    with pytest.raises(ValueError, match="unknown column"):
        mrr_estimate(pd.DataFrame(X, columns=list("abc")), 0.7, {"z": 1})
    with pytest.raises(ValueError, match="out of range"):
        mrr_estimate(X, 0.7, {5: 1})
    with pytest.raises(ValueError, match="0 or 1"):
        mrr_estimate(X, 0.7, {0: 2})
    with pytest.raises(ValueError, match="dict"):
        mrr_estimate(X, 0.7, [0, 1])
    with pytest.raises(ValueError, match="keep"):
        mrr_disguise(pd.DataFrame(X, columns=list("abc")), 0.7, keep=["class"])


def test_mrr_solve_vectorized_and_exact_extremes():
    a = np.array([0.3, 0.2, 0.0, 0.5])
    b = np.array([0.1, 0.2, 0.4, 0.0])
    theta = 0.75
    got = mrr_solve(a, b, theta)
    # check it solves Eq. 3: P*(E) = P(E) theta + P(Ebar)(1 - theta)
    got_bar = mrr_solve(b, a, theta)
    np.testing.assert_allclose(got * theta + got_bar * (1 - theta), a, atol=1e-12)
    np.testing.assert_allclose(got_bar * theta + got * (1 - theta), b, atol=1e-12)
    np.testing.assert_array_equal(mrr_solve(a, b, 1.0), a)
    np.testing.assert_array_equal(mrr_solve(a, b, 0.0), b)
    # counts in, counts out (linear system)
    np.testing.assert_allclose(mrr_solve(a * 1000, b * 1000, theta), got * 1000)
    with pytest.raises(ValueError, match="non-negative"):
        mrr_solve([-1.0], [0.2], 0.7)
    with pytest.raises(ValueError, match="p_star_e contains 1 NaN"):
        mrr_solve([np.nan], [0.2], 0.7)


# ------------------------------------------------------------------ epsilon
def test_epsilon_values():
    assert rr_epsilon(0.5) == 0.0
    assert rr_epsilon(1.0) == np.inf and rr_epsilon(0.0) == np.inf
    assert rr_epsilon(0.75) == pytest.approx(np.log(3))
    assert rr_epsilon(0.2) == pytest.approx(rr_epsilon(0.8))
    grid = rr_epsilon(np.array([0.55, 0.6, 0.7, 0.9]))
    assert np.all(np.diff(grid) > 0)
    assert theta_for_epsilon(rr_epsilon(0.8)) == pytest.approx(0.8)
    with pytest.raises(ValueError, match="between 0 and 1"):
        rr_epsilon(1.5)


def test_epsilon_is_the_ldp_likelihood_ratio():
    # P(report 1 | truth 1) / P(report 1 | truth 0) = theta / (1 - theta) = e^eps
    theta = 0.8
    assert np.exp(rr_epsilon(theta)) == pytest.approx(theta / (1 - theta))


# ------------------------------------------------------------------ simulations, panel
def test_simulated_surveys_match_warner():
    from ppdm_edu.rr_simulation import simulate_warner_surveys

    sim = simulate_warner_surveys(0.3, 0.75, 400, n_surveys=1_000, rng=3)
    assert sim.estimates.shape == (1_000,)
    assert abs(sim.estimates.mean() - 0.3) < 3 * sim.empirical_sd / np.sqrt(1_000)
    assert abs(sim.empirical_sd / sim.std_error - 1) < 0.15
    assert 0.92 < sim.within_2se < 0.98
    again = simulate_warner_surveys(0.3, 0.75, 400, n_surveys=1_000, rng=3)
    np.testing.assert_array_equal(sim.estimates, again.estimates)
    with pytest.raises(ValueError, match="singular"):
        simulate_warner_surveys(0.3, 0.5, 400)
    with pytest.raises(ValueError, match="n must be"):
        simulate_warner_surveys(0.3, 0.7, 0)


def test_mrr_theta_sweep_is_tidy_and_reproducible():
    from ppdm_edu.rr_simulation import mrr_theta_sweep

    X = _correlated_matrix(3_000, np.random.default_rng(5))
    a = mrr_theta_sweep(X, {0: 1, 2: 0}, thetas=[0.2, 0.8], runs=4, rng=1)
    b = mrr_theta_sweep(X, {0: 1, 2: 0}, thetas=[0.2, 0.8], runs=4, rng=1)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == ["theta", "run", "estimate", "std_error", "std_error_disguise",
                                "p_star_e", "truth", "epsilon"]
    assert a.truth.nunique() == 1
    assert a.truth.iloc[0] == np.all(X[:, [0, 2]] == [1, 0], axis=1).mean()
    with pytest.raises(ValueError, match="singular"):
        mrr_theta_sweep(X, {0: 1}, thetas=[0.5], runs=1)


def test_warner_panel_updates_and_shows_message_at_half():
    from ppdm_edu.widgets.randomized_response import WarnerSurveyPanel

    panel = WarnerSurveyPanel(theta=0.8, n=300)
    assert panel.error is None and panel.image.value[:4] == b"\x89PNG"
    assert panel.result.n == 300 and panel.result.theta == 0.8
    image = panel.image.value
    panel.controls["theta"].value = 0.5
    assert panel.error is not None and "unrelated-question" in panel.message.value
    # the message replaces the figure: the old one (titled with the old theta) is hidden
    assert panel.image.layout.display == "none" and panel.readout.layout.display == "none"
    assert panel.image.value == image
    for theta in (0.0, 1.0, 0.51):
        panel.controls["theta"].value = theta
        assert panel.error is None and panel.message.value == ""
        assert panel.image.layout.display is None
        assert np.isfinite(panel.result.estimates).all()
    panel.controls["pi"].value = 0.0
    assert panel.error is None


def test_disguise_only_standard_errors_match_repeated_disguises_of_fixed_data():
    from ppdm_edu.rr_simulation import mrr_theta_sweep

    rng = np.random.default_rng(21)
    X = _correlated_matrix(8_000, rng)
    sweep = mrr_theta_sweep(X, {0: 1, 1: 1, 2: 0}, thetas=[0.2, 0.65], runs=300, rng=rng)
    for _, g in sweep.groupby("theta"):
        spread = g.estimate.std(ddof=1)
        assert abs(g.std_error_disguise.mean() / spread - 1) < 0.15
        assert g.std_error.mean() > g.std_error_disguise.mean()  # adds population sampling
    truth = X[:, 0]
    spread = np.std([warner_estimate(warner_disguise(truth, 0.7, rng), 0.7).estimate
                     for _ in range(300)], ddof=1)
    res = warner_estimate(warner_disguise(truth, 0.7, rng), 0.7)
    assert abs(res.std_error_disguise / spread - 1) < 0.15


def test_mrr_theta_sweep_keeps_dataframe_column_names():
    # conditions by column name on a DataFrame (notebook 03) must survive the input check
    from ppdm_edu.rr_simulation import mrr_theta_sweep

    X = pd.DataFrame({"sex": [0, 1, 1, 0] * 25, "income": [1, 0, 1, 1] * 25})
    sweep = mrr_theta_sweep(X, {"sex": 1, "income": 1}, thetas=[0.8], runs=2, rng=0)
    assert sweep.shape[0] == 2 and (sweep["truth"] == 0.25).all()
