"""The audits' bounds against exact references: scipy.stats' beta and gamma quantiles and the
closed forms a count at an end of its range gives (Clopper & Pearson 1934; Garwood 1936;
Przyborowski & Wilenski 1940).

Each test fails on a small change of the formula it checks: a Clopper-Pearson bound from
``Beta(k, n - k)`` instead of ``Beta(k, n - k + 1)``, a δ bound without ``e^ε``, a Poisson
bound at the wrong error, a dropped δ slack term, ``audit_delta`` without its Bonferroni split,
and an event tuned on the runs its score learned from.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ppdm_edu.audit import audit_delta, audit_epsilon
from ppdm_edu.audit._stats import (
    cp_lower,
    cp_upper,
    delta_bound,
    epsilon_bound,
    poisson_epsilon_bound,
    poisson_lower,
    ratio_lower,
)
from ppdm_edu.mechanisms import WarnerRR

COUNTS = [(1, 10), (5, 10), (9, 10), (37, 200), (199, 200)]


@pytest.mark.parametrize("alpha", [0.05, 0.5])
@pytest.mark.parametrize("k, n", COUNTS)
def test_clopper_pearson_bounds_are_beta_quantiles(k, n, alpha):
    # lower: the alpha quantile of Beta(k, n - k + 1); upper: the 1 - alpha quantile of Beta(k + 1, n - k)
    assert float(cp_lower(k, n, alpha)) == pytest.approx(stats.beta.ppf(alpha, k, n - k + 1), rel=1e-12)
    assert float(cp_upper(k, n, alpha)) == pytest.approx(stats.beta.ppf(1 - alpha, k + 1, n - k), rel=1e-12)


@pytest.mark.parametrize("n", [1, 10, 1000])
def test_clopper_pearson_at_the_ends_of_the_range(n):
    # Beta(n, 1) has cdf p^n and Beta(1, n) has cdf 1 - (1 - p)^n: closed forms at k = n and k = 0
    assert float(cp_lower(n, n, 0.05)) == pytest.approx(0.05 ** (1 / n), rel=1e-12)
    assert float(cp_upper(0, n, 0.05)) == pytest.approx(1 - 0.05 ** (1 / n), rel=1e-12)
    assert float(cp_lower(0, n, 0.05)) == 0.0 and float(cp_upper(n, n, 0.05)) == 1.0


@pytest.mark.parametrize("k_num, k_den, n", [(900, 10, 1000), (70, 2, 100), (600, 20, 1000)])
@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
def test_delta_bound_is_the_lower_minus_e_to_the_epsilon_times_the_upper(k_num, k_den, n, epsilon):
    low = stats.beta.ppf(0.025, k_num, n - k_num + 1)
    up = stats.beta.ppf(0.975, k_den + 1, n - k_den)
    expected = max(low - math.exp(epsilon) * up, 0.0)
    assert expected > 0  # the cases are chosen where the bound shows something
    assert float(delta_bound(k_num, k_den, n, 0.025, epsilon)) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("delta", [0.0, 0.01, 0.1])
def test_one_event_epsilon_bound_takes_delta_off_the_numerator(delta):
    # ln((P_num_lower - delta) / P_den_upper), each probability by Clopper-Pearson at alpha
    low = stats.beta.ppf(0.025, 900, 1000 - 900 + 1) - delta
    up = stats.beta.ppf(0.975, 100 + 1, 1000 - 100)
    assert float(epsilon_bound(900, 100, 1000, 0.025, delta)) == pytest.approx(math.log(low / up), rel=1e-12)


@pytest.mark.parametrize("k", [1, 3, 20, 500])
@pytest.mark.parametrize("alpha", [0.005, 0.05])
def test_poisson_lower_bound_is_a_gamma_quantile(k, alpha):
    assert float(poisson_lower(k, alpha)) == pytest.approx(stats.gamma.ppf(alpha, k), rel=1e-12)


def test_poisson_lower_bound_of_one_count_in_closed_form():
    # Gamma(1) is Exp(1): its alpha quantile is -ln(1 - alpha)
    assert float(poisson_lower(1, 0.05)) == pytest.approx(-math.log(0.95), rel=1e-12)
    assert float(poisson_lower(0, 0.05)) == 0.0


@pytest.mark.parametrize("k_num, k_den", [(300, 100), (50, 1), (7, 0)])
def test_ratio_bound_is_the_binomial_share_turned_into_odds(k_num, k_den):
    share = stats.beta.ppf(0.05, k_num, k_den + 1)   # Clopper-Pearson on k_num of k_num + k_den
    assert float(ratio_lower(k_num, k_den, 0.05)) == pytest.approx(share / (1 - share), rel=1e-10)


@pytest.mark.parametrize("k_num, k_den, runs, delta", [(300, 20, 10_000, 1e-3), (800, 50, 20_000, 1e-3),
                                                      (2000, 400, 50_000, 1e-3)])
def test_epsilon_bound_at_delta_takes_off_the_slack_of_the_delta_term(k_num, k_den, runs, delta):
    # e^eps >= mu_num / mu_den - runs * delta / mu_den: nine tenths of alpha bound the ratio, one
    # tenth bounds mu_den from below (Garwood), and the bound holds when both do
    alpha = 0.05
    share = stats.beta.ppf(0.9 * alpha, k_num, k_den + 1)
    ratio = share / (1 - share)
    slack = runs * delta / stats.gamma.ppf(alpha / 10, k_den)
    assert slack > 0.01 * ratio   # the δ term matters in these cases
    bound = poisson_epsilon_bound(k_num, k_den, runs, alpha, delta)
    assert bound.alpha_ratio == pytest.approx(0.9 * alpha, rel=1e-15)
    assert float(bound.ratio) == pytest.approx(ratio, rel=1e-10)
    assert float(bound.epsilon) == pytest.approx(math.log(ratio - slack), rel=1e-10)


def test_epsilon_bound_at_delta_zero_spends_all_the_error_on_the_ratio():
    bound = poisson_epsilon_bound(300, 100, 10_000, 0.05, 0.0)
    share = stats.beta.ppf(0.05, 300, 101)
    assert bound.alpha_ratio == 0.05
    assert float(bound.epsilon) == pytest.approx(math.log(share / (1 - share)), rel=1e-10)


@pytest.mark.parametrize("confidence", [0.5, 0.95, 0.999])
def test_epsilon_audit_of_a_truthful_randomizer_in_closed_form(confidence):
    # theta = 1: the output is the input. Every counted run of x1 falls in {1} and none of x0's
    # (and the mirror event for a pooled pair): k_den = 0 and the Clopper-Pearson share of k of k
    # is alpha^(1/k), so the bound is ln(alpha^(1/k) / (1 - alpha^(1/k))) with alpha = 1 - confidence
    audit = audit_epsilon(WarnerRR(1.0), 0, 1, trials=1000, confidence=confidence, rng=0)
    k = audit.count_numerator
    assert audit.count_denominator == 0 and k > 0
    share = (1 - confidence) ** (1 / k)
    assert audit.ratio_lower == pytest.approx(share / (1 - share), rel=1e-9)
    assert audit.lower_bound == pytest.approx(math.log(share / (1 - share)), rel=1e-9)


@pytest.mark.parametrize("confidence", [0.5, 0.95])
@pytest.mark.parametrize("epsilon", [0.5, 1.0])
def test_delta_audit_splits_its_error_between_the_two_probabilities(confidence, epsilon):
    # theta = 1: the event (one tail, or the pooled pair) holds every estimation run of the
    # numerator input and none of the other's: delta >= low - e^eps up with, at error (1 - c) / 2
    # each (Bonferroni), low = (a/2)^(1/m) and up = 1 - (a/2)^(1/m) over the m runs counted
    audit = audit_delta(WarnerRR(1.0), 0, 1, epsilon=epsilon, trials=1000, confidence=confidence, rng=0)
    m = audit.n_estimation * (2 if audit.direction == "pooled" else 1)
    low = ((1 - confidence) / 2) ** (1 / m)
    assert audit.lower_bound == pytest.approx(low - math.exp(epsilon) * (1 - low), rel=1e-9)


def _runs(fit0, fit1, tune0, tune1, est0, est1):
    """A test double that ignores its input's value and rng: the runs of each block are set."""
    runs = {0: np.array(fit0 + tune0 + est0), 1: np.array(fit1 + tune1 + est1)}
    return lambda values, rng: runs[int(values[0])][: len(values)]


def test_the_event_is_tuned_on_runs_its_score_did_not_learn_from():
    # trials = 1000, selection = 0.5: runs 0-249 learn the score, 250-499 tune the event, 500-999
    # estimate it. The learning runs show "a" from x1 only; the tuning runs show no difference
    # between the inputs; the estimation runs show "a" from x1 only again. Tuned on its own
    # runs, the learned table would pick {"a"} and the estimation runs would back it (a bound
    # well above 0); tuned on fresh runs, nothing singles "a" out, and the audit shows nothing
    fit0, fit1 = ["b"] * 250, ["a"] * 50 + ["b"] * 200
    tune = ["a"] * 50 + ["b"] * 200
    est0, est1 = ["b"] * 500, ["a"] * 100 + ["b"] * 400
    randomizer = _runs(fit0, fit1, tune, list(tune), est0, est1)
    audit = audit_epsilon(randomizer, 0, 1, trials=1000, selection=0.5, rng=0)
    assert audit.event != "output = 'a'" and audit.lower_bound == 0.0, audit
    delta = audit_delta(randomizer, 0, 1, epsilon=0.5, trials=1000, selection=0.5, rng=0)
    assert delta.event != "output = 'a'" and delta.lower_bound == 0.0, delta
    # the same runs with the tuning block showing what the others show: {"a"} is chosen
    fresh = _runs(fit0, fit1, fit0, fit1, est0, est1)
    shown = audit_epsilon(fresh, 0, 1, trials=1000, selection=0.5, rng=0)
    assert shown.event == "output = 'a'" and shown.lower_bound > 1.0, shown


def test_a_pooled_pair_counts_the_runs_of_both_events_in_its_delta_term():
    # P1(A) + P0(B) <= e^eps (P0(A) + P1(B)) + 2 delta: the delta term of a pooled pair has the
    # expected runs of both events behind it (twice the runs of one)
    audit = audit_epsilon(WarnerRR(0.9), 1, 0, trials=20_000, delta=0.01, rng=0)
    assert audit.direction == "pooled", audit
    alpha, runs = 0.05, 2 * audit.expected_runs
    share = stats.beta.ppf(0.9 * alpha, audit.count_numerator, audit.count_denominator + 1)
    slack = runs * 0.01 / stats.gamma.ppf(alpha / 10, audit.count_denominator)
    assert audit.lower_bound == pytest.approx(math.log(share / (1 - share) - slack), rel=1e-9)
