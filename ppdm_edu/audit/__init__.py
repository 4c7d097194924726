"""Auditing the privacy a randomizer really gives, from its outputs alone.

* :func:`audit_epsilon` and :func:`audit_delta`: a statistically valid lower bound on ε at a
  given δ (or on δ at a given ε) from runs on two neighbouring inputs (Jagielski, Ullman &
  Oprea 2020; Nasr et al. 2021), with the event chosen by a learned likelihood ratio;
* :func:`tradeoff_curve`: the measured type I / type II trade-off with bands, against the
  curves ε, (ε, δ) or μ-GDP promise (:mod:`ppdm_edu.audit.curve`);
* :func:`audit_one_run`: one release, many canaries (Steinke, Nasr & Jagielski 2023);
* :mod:`ppdm_edu.audit.library`: a maintained library's claim (OpenDP, optional extra);
* the adapters (:func:`warner_randomizer`, ...): thin views of the course's
  :class:`~ppdm_edu.mechanisms.Mechanism` objects, which the audits also take directly.

Examples
--------
>>> from ppdm_edu.audit import audit_epsilon
>>> from ppdm_edu.mechanisms import LaplaceMechanism
>>> audit = audit_epsilon(LaplaceMechanism(1.0), 0.0, 1.0, trials=50_000, rng=0)
>>> bool(0.5 < audit.lower_bound <= 1.0)
True
"""
from ._adapters import additive_noise_randomizer, laplace_randomizer, mrr_randomizer, warner_randomizer
from ._two_input import (
    MAX_TRIALS,
    SELECTION_SHARE,
    DeltaAudit,
    EpsilonAudit,
    as_randomizer,
    audit_delta,
    audit_epsilon,
)
from .curve import TradeoffCurve, epsilon_delta_tradeoff, gdp_tradeoff, tradeoff_curve
from .one_run import OneRunAudit, audit_one_run, laplace_histogram

__all__ = [
    "EpsilonAudit",
    "DeltaAudit",
    "audit_epsilon",
    "audit_delta",
    "as_randomizer",
    "TradeoffCurve",
    "tradeoff_curve",
    "epsilon_delta_tradeoff",
    "gdp_tradeoff",
    "OneRunAudit",
    "audit_one_run",
    "laplace_histogram",
    "warner_randomizer",
    "mrr_randomizer",
    "laplace_randomizer",
    "additive_noise_randomizer",
    "MAX_TRIALS",
    "SELECTION_SHARE",
]
