"""ppdm-edu: run the classic privacy-preserving data mining papers.

Agrawal & Srikant (SIGMOD 2000), Liu, Kantarcioglu & Thuraisingham, and Du & Zhan (KDD 2003):
randomization and privacy measures, reconstruction of distributions, randomized response, and
classifiers built on perturbed data.

The common names are available from the top level, e.g.::

    from ppdm_edu import GaussianNoise, perturb, reconstruct

Sub-modules (one per concept): ``randomization``, ``privacy``, ``reconstruction``,
``randomized_response``, ``trees``, ``naive_bayes``, ``datasets``, ``experiments``, ``attacks``,
``ldp``, ``database_reconstruction``, ``plots``, ``widgets``, ``lecture``, ``exercises``.
"""
from __future__ import annotations

import importlib

from ._lazy import load_export as _load_export

__version__ = "0.1.0"

# Top-level name -> module that defines it. Imported lazily so that `import ppdm_edu` stays
# fast (notebooks, the CLI) and a module's heavy imports are paid only when it is used.
_EXPORTS = {
    # randomization (Agrawal & Srikant Section 2)
    "Noise": "randomization",
    "UniformNoise": "randomization",
    "GaussianNoise": "randomization",
    "perturb": "randomization",
    "discretize": "randomization",
    "noise_for_privacy": "randomization",
    "noise_for_snr": "randomization",
    # privacy measures
    "interval_privacy": "privacy",
    "entropy_privacy": "privacy",
    "conditional_privacy": "privacy",
    "privacy_loss": "privacy",
    "snr": "privacy",
    # reconstruction (Agrawal & Srikant Section 3)
    "reconstruct": "reconstruction",
    "Reconstruction": "reconstruction",
    # randomized response (Du & Zhan Sections 3-4)
    "warner_disguise": "randomized_response",
    "warner_estimate": "randomized_response",
    "mrr_disguise": "randomized_response",
    "mrr_estimate": "randomized_response",
    "rr_epsilon": "randomized_response",
    "mrr_solve": "randomized_response",
    "theta_for_epsilon": "randomized_response",
    # data
    "load_adult": "datasets",
    "agrawal": "datasets",
    "plateau": "datasets",
    "triangles": "datasets",
    "adult_binary": "datasets",
    # auditing a randomizer's epsilon (beyond the papers)
    "audit_epsilon": "audit",
    # classroom
    "lecture_mode": "lecture",
}
_SUBMODULES = {
    "randomization", "privacy", "reconstruction", "randomized_response", "trees", "naive_bayes",
    "datasets", "experiments", "attacks", "posterior", "ldp", "audit", "plots", "widgets", "lecture",
    "rr_simulation", "random_state",
    "exercises", "mechanisms", "tradeoff", "database_reconstruction",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str):
    if name in _SUBMODULES and name not in _EXPORTS:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    return _load_export(globals(), __name__, _EXPORTS, name)


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS) | _SUBMODULES)
