"""Issue 14: every bad input to the public API gets a clear error -- a sweep that cannot go stale.

The sweep enumerates the public API (each library module's ``__all__``, plus the public methods
of the noise objects and the estimators' ``fit``), and needs, for every callable, a valid
baseline call in ``BASELINES``: a new public function without one fails
``test_every_public_callable_is_swept``. Each parameter is then replaced, one at a time, by the
bad values of its kind (``CATALOGUE``: NaN/inf, empty, wrong shapes, strings, negative or zero
scales, theta outside [0, 1], huge sizes, ...). Every case must end, within ``TIME_LIMIT``
seconds, in a ``ValueError``/``TypeError`` (or a documented exception), or return a result
without NaN (a value that is legal for that function). The counts are written to
``artifacts/api_sweep.json`` and the share of refusals that name the argument must be >= 99 %.

Every module of the package is either swept (``MODULES``) or left out with its reason
(``LEFT_OUT``), or ``test_every_public_module_is_swept_or_left_out_with_a_reason`` fails: ``plots``
and ``widgets`` (drawing and controls; every panel is driven to its extremes in
``test_bad_inputs.py`` and ``test_panel_pairs.py``), ``lecture`` (a display switch), and the paper
reproductions in ``experiments`` (minutes per call; their
arguments are checked in ``test_reproduce*.py``). Estimators are also fitted on whole data sets
of one row, one class, pandas, float32/int/bool, and asked to predict before fit.
"""
from __future__ import annotations

import dataclasses
import fnmatch
import importlib
import inspect
import json
import math
import pathlib
import signal
import warnings

import numpy as np
import pandas as pd
import pytest

from ppdm_edu import GaussianNoise, UniformNoise
from ppdm_edu.datasets import plateau_pdf
from ppdm_edu.randomization import LaplaceNoise

MODULES = ["randomization", "privacy", "reconstruction", "randomized_response", "ldp", "audit",
           "posterior", "attacks", "datasets", "naive_bayes", "trees", "rr_simulation", "mechanisms", "tradeoff",
           "database_reconstruction", "exercises", "trees.gini", "trees.c45", "trees.reconstruction_tree", "claims"]
# every other module of the package, with the reason it is not swept: a new public module that is
# in neither list fails test_every_public_module_is_swept_or_left_out_with_a_reason
LEFT_OUT = {
    "plots": "drawing (every panel is driven to its extremes in test_bad_inputs/test_panel_pairs)",
    "widgets": "controls (clamped; every panel at every pair of extremes in test_panel_pairs)",
    "random_state": "the rng checker itself (test_package.py, test_independent_streams.py)",
    "lecture": "a display switch",
    "audit.curve": "re-exported by audit (swept there)", "audit.one_run": "re-exported by audit (swept there)",
    "audit.library": "needs the optional extra audit-lib (OpenDP); its argument errors in test_audit_library.py",
    "trees.base": "the Tree storage, TreeBuilder and constraint checks behind every tree's fit (swept there)",
    "trees.as2000": "re-exported by trees", "datasets.adult_continuous": "re-exported by datasets",
    "trees.id3": "its public names are re-exported by trees and swept there",
    "datasets.adult": "re-exported by datasets", "datasets.adult_binary": "re-exported by datasets",
    "datasets.correlated": "re-exported by datasets", "datasets.synthetic": "re-exported by datasets",
    "exercises.nb*": "each notebook's exercise table, reached through exercises.check (swept)",
    "exercises.checking": "answer parsing behind exercises.check (swept there: any answer, never a crash)",
    "exercises.quizzes": "quiz questions, reached through exercises.check('NN.qk', ...) and exercises.quiz (swept)",
    "experiments": "paper reproductions: swept in test_api_sweep_experiments.py (every public callable "
                   "of every experiments module, and every CLI option)",
}
TIME_LIMIT = 20  # seconds per call: a hang is a failure

NAN, INF = float("nan"), float("inf")
G = GaussianNoise(0.2)
U = UniformNoise(0.25)
RNG0 = np.random.default_rng(0)
X1 = RNG0.uniform(0, 1, 400)                      # a 1-D sample on [0, 1]
W1 = X1 + G.sample(X1.size, rng=1)                # its perturbed version
X2 = RNG0.normal(size=(120, 3))                   # records
Y2 = (X2[:, 0] + X2[:, 1] > 0).astype(int)        # two classes
B2 = (X2 > 0).astype(int)                         # 0/1 attributes
EDGES = np.linspace(0, 1, 11)
THETA_OK = 0.7

# -- the catalogue of bad values, by the meaning of a parameter ------------------------------
CATALOGUE = {
    "int": [-1, 2.5, NAN, "3", 10**13],
    "probability": [-0.1, 1.5, NAN, "0.5"],
    "theta": [-0.1, 1.1, NAN, "0.7", 0.5],
    "positive": [0.0, -1.0, NAN, INF, "1"],
    "array1": [[], [NAN, 0.5], "abc", [INF, 0.5]],
    "array2": [[], [[NAN, 0.5, 0.1]], "abc", [0.5, 0.2], np.c_[X2[:, :2], np.ones(120)], X2[:1]],
    "labels": [[NAN] * 120, "abc", list(range(7)), [0] * 120],
    "counts": [[-1.0, 3.0], [NAN, 3.0], [INF, 1.0], [], "abc", 5.0],
    "noise": [1.0, "gaussian"],
    "bounds": [(1.0, 0.0), (0.0, INF), "ab", (0.0,)],
    "edges": [[1.0, 0.0], [0.5], "abc", [0.0, NAN, 1.0]],
    "rng": ["seed", 1.5],
    "choice": ["nonsense", 3],
    "thetas": [[], [1.5], "abc", [NAN]],
    "bool": ["yes", 2],
    "jobs": [0, -2, 2.5, "4", 10**6, True],
    "seed": [-1, 2.5, NAN, "3", True],          # any non-negative int is a seed
    "duration": [-1.0, NAN, INF, "1"],          # 0 s is a duration
}
KIND = {  # parameter name -> kind (overridden per callable in BASELINES where a name means another thing)
    **dict.fromkeys(["n", "m", "k", "size", "runs", "n_surveys", "max_iter", "folds", "n_intervals",
                     "n_grid", "trials", "n_attributes", "n_factors", "min_samples", "min_instances",
                     "max_depth", "local_min_records", "max_candidates", "max_unperturbed_values",
                     "n_train", "function", "answer"], "int"),
    **dict.fromkeys(["confidence", "level", "coverage", "q", "variance_floor", "delta", "rho1", "rho2",
                     "pi", "correlation"], "probability"),
    "theta": "theta", "thetas": "thetas",
    **dict.fromkeys(["sigma", "alpha", "b", "epsilon", "eps", "width", "snr", "snr_value", "value_range",
                     "noise_var"], "positive"),
    **dict.fromkeys(["x", "w", "samples", "values", "responses", "truth", "counts_w", "p", "estimate"],
                    "array1"),
    **dict.fromkeys(["X", "W", "disguised"], "array2"),
    "y": "labels", "noise": "noise",
    **dict.fromkeys(["counts", "left_counts", "right_counts"], "counts"), "e": "positive", "bounds": "bounds", "edges": "edges",
    **dict.fromkeys(["rng", "random_state"], "rng"),
    **dict.fromkeys(["kind", "method", "mode", "stop", "interval", "split", "partition", "estimator"],
                    "choice"),
    **dict.fromkeys(["keep_history", "balanced", "disguised_label", "correct_variance", "fresh", "progress"],
                    "bool"),
    "n_jobs": "jobs", "timeout": "positive",
}


def _fit(cls, X=X2, y=Y2, **params):
    return cls(**params).fit(X, y).predict_proba(X) if hasattr(cls, "predict_proba") else \
        cls(**params).fit(X, y).predict(X)


def _data_variants(X, y):
    """The same kind of data as (X, y), reshaped or retyped: legal or refused, never NaN."""
    X, y = np.asarray(X), np.asarray(y)
    cols = [f"c{j}" for j in range(X.shape[1])]
    return {
        "one row": (X[:1], y[:1]),
        "one class": (X, np.zeros_like(y)),
        "pandas": (pd.DataFrame(X, columns=cols), pd.Series(y, name="label")),
        "float32": (X.astype(np.float32), y),
        "int": (np.rint(X).astype(int), y),
        "bool": (X > 0, y.astype(bool)),
    }


def _mrr_X():
    return pd.DataFrame(B2, columns=["a", "b", "c"])


# "module.name": (valid keyword arguments, {parameter: kind override}) -- or for estimators,
# ("fit", constructor params, fit data)
# one secret of 3 bits, 4 queries and their exact answers (notebook 09's attack)
SECRET9 = [1, 0, 1]
QUERIES9 = [[1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 1, 1]]
ANSWERS9 = [2.0, 1.0, 1.0, 2.0]
BOUNDED9 = __import__("ppdm_edu.database_reconstruction", fromlist=["BoundedError"]).BoundedError(0.5)
MECH_GRR2 = __import__("ppdm_edu.mechanisms", fromlist=["GeneralizedRR"]).GeneralizedRR(2, 1.0)

BASELINES = {
    "mechanisms.AdditiveNoiseMechanism": (dict(noise=G), {}),
    "mechanisms.UniformNoiseMechanism": (dict(alpha=0.5), {}),
    "mechanisms.GaussianNoiseMechanism": (dict(sigma=0.5), {}),
    "mechanisms.LaplaceMechanism": (dict(epsilon=1.0), {}),
    "mechanisms.WarnerRR": (dict(theta=THETA_OK), {}),
    "mechanisms.GeneralizedRR": (dict(k=4, epsilon=1.0), {}),
    "mechanisms.OptimizedUnaryEncoding": (dict(k=4, epsilon=1.0), {}),
    "mechanisms.project_to_simplex": (dict(v=[0.7, 0.5, -0.2]), {}),
    "tradeoff.make_mechanism": (dict(name="grr", param=1.0, task="histogram"),
                                {"name": "choice", "task": "choice", "param": "positive"}),
    "tradeoff.task_data": (dict(task="share", n=100, rng=0), {"task": "choice"}),
    "tradeoff.central_laplace": (dict(task="share", x=[0, 1, 1], epsilon=1.0, rng=0), {"task": "choice"}),
    "tradeoff.run_error": (dict(task="share", mechanism="warner", param=1.0, x=[0, 1, 1, 0], rng=0),
                           {"task": "choice", "mechanism": "choice", "param": "positive", "estimator": "choice"}),
    "mechanisms.CentralLaplace": (dict(k=2, epsilon=1.0), {}),
    "tradeoff.mechanism_row": (dict(task="share", mechanism="warner", param=1.0, records=[[0, 1, 1, 0]], rngs=[0],
                                    estimator="inversion", trials=2000, audit_rng=0),
                               {"task": "choice", "mechanism": "choice", "param": "positive", "estimator": "choice",
                                "records": None, "rngs": None, "trials": "int", "audit_rng": None}),
    "tradeoff.audit_mechanism": (dict(task="share", mechanism="warner", param=1.0, trials=2000, rng=0),
                                 {"task": "choice", "mechanism": "choice", "param": "positive", "trials": "int"}),
    "tradeoff.register_mechanism": (dict(name="test-only"), {"name": None}),
    "tradeoff.audit_claim": (dict(mech=MECH_GRR2, x0=0, x1=1, trials=2000, rng=0),
                             {"mech": None, "x0": None, "x1": None, "trials": "int"}),
    "tradeoff.theory_error": (dict(task="share", mechanism="warner", param=1.0, n=100),
                              {"task": "choice", "mechanism": "choice", "param": "positive"}),
    # randomization
    "randomization.UniformNoise": (dict(alpha=0.5), {}),
    "randomization.GaussianNoise": (dict(sigma=0.5), {}),
    "randomization.LaplaceNoise": (dict(b=0.5), {}),
    "randomization.perturb": (dict(x=X1, noise=G, rng=0), {}),
    "randomization.discretize": (dict(x=X1, width=0.1), {}),
    "randomization.noise_for_privacy": (dict(kind="gaussian", level=1.0, value_range=1.0), {"level": "positive"}),
    "randomization.noise_for_snr": (dict(x=X1, snr=2.0), {}),
    # privacy
    "privacy.interval_privacy": (dict(method=("uniform",), confidence=(0.95,)), {"confidence": "thetas"}),
    "privacy.table1": (dict(), {}),
    "privacy.differential_entropy": (dict(samples=X1), {"base": "positive"}),
    "privacy.entropy_privacy": (dict(samples=X1), {}),
    "privacy.mutual_information": (dict(x=X1, w=W1, rng=0), {"base": "positive"}),
    "privacy.conditional_privacy": (dict(x=X1, w=W1, rng=0), {}),
    "privacy.privacy_loss": (dict(x=X1, w=W1, rng=0), {"base": "positive"}),
    "privacy.gaussian_privacy_loss": (dict(snr_value=2.0), {}),
    "privacy.snr": (dict(x=X1, noise=G), {}),
    "privacy.privacy_measures": (dict(x=X1, w=W1, noise=G, value_range=1.0), {}),
    "privacy.privacy_by_attribute": (dict(frame=pd.DataFrame({"a": X1, "b": X1 * 2}), snr_value=2.0, rng=0),
                                     {}),
    "privacy.grid_step": (dict(values=np.round(X1 * 10)), {"values": "array1"}),
    # reconstruction
    "reconstruction.Reconstructor": (dict(noise=G, edges=EDGES), {}),
    "reconstruction.reconstruct": (dict(w=W1, noise=G, bounds=(0, 1), n_intervals=10), {}),
    "reconstruction.reconstruct_counts": (
        dict(counts_w=np.histogram(W1, np.linspace(-1, 2, 16))[0].astype(float),
             matrix=None, edges=EDGES, noise=G), {"matrix": None}),
    "reconstruction.response_matrix": (dict(edges=EDGES, noise=G), {}),
    "reconstruction.make_edges": (dict(bounds=(0, 1), n_intervals=10), {}),
    "reconstruction.default_n_intervals": (dict(n=1000), {}),
    "reconstruction.interval_distribution": (dict(x=X1, edges=EDGES), {}),
    "reconstruction.total_variation": (dict(p=[0.5, 0.5], q=[0.25, 0.75]), {"q": "array1"}),
    "reconstruction.sample_total_variation": (dict(x=X1, w=np.clip(W1, 0, 1), edges=EDGES), {}),
    "reconstruction.posterior": (dict(w=W1[:20], edges=EDGES, probabilities=np.full(10, 0.1), noise=G),
                                 {"probabilities": "array1"}),
    "reconstruction.chi2_threshold": (dict(m=10), {"tol": "positive"}),
    # randomized response
    "randomized_response.warner_disguise": (dict(truth=(X1 > 0.5).astype(int), theta=THETA_OK, rng=0), {}),
    "randomized_response.warner_estimate": (dict(responses=(X1 > 0.3).astype(int), theta=THETA_OK), {}),
    "randomized_response.mrr_disguise": (dict(X=B2, theta=THETA_OK, rng=0), {}),
    "randomized_response.mrr_estimate": (dict(disguised=B2, theta=THETA_OK, conditions={0: 1, 1: 0}),
                                         {"conditions": "noise"}),
    "randomized_response.mrr_solve": (dict(p_star_e=0.3, p_star_ebar=0.4, theta=THETA_OK),
                                      {"p_star_e": "probability", "p_star_ebar": "probability"}),
    "randomized_response.rr_epsilon": (dict(theta=THETA_OK), {}),
    "randomized_response.theta_for_epsilon": (dict(eps=1.0), {}),
    "randomized_response.warner_std_error": (dict(pi=0.3, theta=THETA_OK, n=100), {}),
    "randomized_response.sample_size_factor": (dict(pi=0.3, theta=THETA_OK), {}),
    # local differential privacy
    "ldp.amplification": (dict(theta=THETA_OK), {}),
    "ldp.rr_posterior": (dict(prior=0.3, theta=THETA_OK), {"prior": "probability"}),
    "ldp.rho_breach": (dict(rho1=0.1, rho2=0.5, theta=THETA_OK), {}),
    "ldp.breach_limit": (dict(rho1=0.1, rho2=0.5), {}),
    "ldp.max_theta_without_breach": (dict(rho1=0.1, rho2=0.5), {}),
    "ldp.laplace_noise_for_epsilon": (dict(epsilon=1.0, bounds=(0, 1)), {}),
    "ldp.laplace_mechanism": (dict(x=X1, epsilon=1.0, bounds=(0, 1), rng=0), {}),
    "ldp.log_likelihood_ratio": (dict(noise=G, x1=0.0, x2=1.0, w=np.linspace(-1, 2, 7)),
                                 {"x1": "array1", "x2": "array1"}),
    "ldp.worst_case_epsilon": (dict(noise=LaplaceNoise(1.0), bounds=(0, 1)), {}),
    "ldp.gaussian_delta": (dict(sigma=1.0, epsilon=1.0, bounds=(0, 1)), {}),
    "ldp.gaussian_epsilon": (dict(sigma=1.0, delta=1e-5, bounds=(0, 1)), {}),
    "ldp.mechanism_table": (dict(), {"level": "positive"}),
    # auditing
    "audit.audit_epsilon": (dict(randomizer=None, x0=0, x1=1, trials=2000, rng=0),
                            {"randomizer": "noise", "x0": None, "x1": None}),
    "audit.warner_randomizer": (dict(theta=THETA_OK), {}),
    "audit.mrr_randomizer": (dict(theta=THETA_OK), {}),
    "audit.laplace_randomizer": (dict(epsilon=1.0), {"bins": "int"}),
    "audit.additive_noise_randomizer": (dict(noise=G, bins=EDGES), {"bins": "edges"}),
    "audit.audit_delta": (dict(randomizer=None, x0=0, x1=1, epsilon=1.0, trials=2000, rng=0),
                          {"randomizer": "noise", "x0": None, "x1": None}),
    "audit.as_randomizer": (dict(randomizer=None), {"randomizer": "noise"}),
    "audit.tradeoff_curve": (dict(randomizer=None, x0=0, x1=1, trials=2000, rng=0),
                             {"randomizer": "noise", "x0": None, "x1": None}),
    "audit.epsilon_delta_tradeoff": (dict(alpha=[0.1, 0.5], epsilon=1.0, delta=0.0), {"alpha": "array1"}),
    "audit.gdp_tradeoff": (dict(alpha=[0.1, 0.5], mu=1.0), {"alpha": "array1"}),
    "audit.audit_one_run": (dict(release=None, canaries=200, guesses=20, rng=0), {"release": "noise"}),
    "audit.laplace_histogram": (dict(epsilon=1.0), {}),
    # reconstruction attacks on subset sums (notebook 09)
    "database_reconstruction.secret_bits": (dict(n=20, rng=0), {}),
    "database_reconstruction.random_queries": (dict(n=20, m=40, rng=0), {}),
    "database_reconstruction.publish": (dict(bits=SECRET9, queries=QUERIES9, answering=BOUNDED9, rng=0),
                                        {"bits": "array1", "queries": "array2", "answering": "noise"}),
    "database_reconstruction.decode": (dict(queries=QUERIES9, answers=ANSWERS9, decoder="least-squares"),
                                       {"queries": "array2", "answers": "array1", "decoder": "choice"}),
    "database_reconstruction.least_squares": (dict(queries=QUERIES9, answers=ANSWERS9),
                                              {"queries": "array2", "answers": "array1"}),
    "database_reconstruction.l1_program": (dict(queries=QUERIES9, answers=ANSWERS9),
                                           {"queries": "array2", "answers": "array1"}),
    "database_reconstruction.attack": (dict(n=20, m=40, answering=BOUNDED9, decoder="least-squares", rng=0),
                                       {"answering": "noise", "decoder": "choice"}),
    "database_reconstruction.recovered_shares": (dict(n=20, m=40, answerings=[BOUNDED9], decoder="l1", rng=0),
                                                 {"answerings": "noise", "decoder": "choice"}),
    "database_reconstruction.least_squares_prediction": (dict(n=20, m=80, sigma=1.0), {"sigma": "positive"}),
    "database_reconstruction.guess_bound": (dict(epsilon=1.0, delta=0.0), {}),
    "database_reconstruction.zcdp_epsilon": (dict(rho=0.1, delta=1e-5), {"rho": "positive"}),
    # posterior
    "posterior.bayes_estimate": (dict(W=W1[:50], noise=G, prior=plateau_pdf, bounds=(0, 1)),
                                 {"W": "array1", "prior": "noise"}),
    "posterior.posterior_interval_width": (dict(x=X1[:50], noise=G, prior=plateau_pdf, bounds=(0, 1), rng=0),
                                           {"prior": "noise"}),
    "posterior.property_posterior": (dict(W=W1[:50], noise=G, prior=plateau_pdf, low=0.0, high=0.3,
                                          bounds=(0, 1)), {"W": "array1", "prior": "noise",
                                                           "low": "array1", "high": "array1"}),
    # attacks
    "attacks.marchenko_pastur_bounds": (dict(n=100, m=5), {}),
    "attacks.tracy_widom_bound": (dict(n=100, m=5), {}),
    "attacks.spectral_filter": (dict(W=X2, noise_var=np.full(3, 0.5)), {"noise_var": "array1",
                                                                        "threshold": "choice"}),
    "attacks.pca_reconstruct": (dict(W=X2, noise_var=np.full(3, 0.5)), {"noise_var": "array1",
                                                                        "threshold": "choice"}),
    "attacks.gaussian_bayes_reconstruct": (dict(W=X2, noise_var=np.full(3, 0.5)), {"noise_var": "array1"}),
    "attacks.relative_rmse": (dict(estimate=X2 + 0.1, X=X2), {"estimate": "array2"}),
    # datasets
    "datasets.load_adult": (dict(split="train"), {"split": "choice", "return_X_y": "bool", "as_frame": "bool"}),
    "datasets.agrawal": (dict(n=200, function=1, rng=0), {}),
    "datasets.plateau": (dict(n=200, rng=0), {}),
    "datasets.triangles": (dict(n=200, rng=0), {}),
    "datasets.plateau_pdf": (dict(x=X1), {}),
    "datasets.triangles_pdf": (dict(x=X1), {}),
    "datasets.adult_binary": (dict(n=2000), {"threshold": "choice"}),
    "datasets.correlated_data": (dict(n=200, rng=0), {}),
    "datasets.agrawal_bounds": (dict(), {}),
    "datasets.agrawal_noise": (dict(kind="gaussian", privacy=1.0), {"privacy": "positive"}),
    "datasets.adult_xy": (dict(n_train=500, rng=0), {}),
    "datasets.make_noises": (dict(X=X2, snr=1.0, kind="gaussian"), {"dataset": "choice"}),
    "trees.make_classifier": (dict(algorithm="byclass", noise={0: G}), {"algorithm": "choice"}),
    # estimators: fit then predict
    "naive_bayes.PerturbedGaussianNB": ("fit", dict(noise=G), dict(X=X2, y=Y2)),
    "trees.C45": ("fit", dict(), dict(X=X2, y=Y2)),
    "trees.DecisionTree": ("fit", dict(), dict(X=X2, y=Y2)),
    "trees.ID3": ("fit", dict(), dict(X=B2, y=Y2)),
    "trees.PPDTC45": ("fit", dict(noise=G, random_state=0), dict(X=X2, y=Y2)),
    "trees.RRID3": ("fit", dict(theta=THETA_OK), dict(X=B2, y=Y2)),
    "trees.ReconstructionTree": ("fit", dict(noise=G, n_intervals=10), dict(X=X2, y=Y2)),
    "trees.gini.gini": (dict(counts=[4, 2]), {}),
    "trees.gini.gini_split": (dict(left_counts=[3, 0], right_counts=[1, 2]), {}),
    "trees.gini.mdl_leaf_cost": (dict(counts=[50, 50]), {}),
    "trees.gini.split_table": (dict(x=X1[:30], y=Y2[:30]), {"y": None}),
    "trees.c45.entropy": (dict(counts=[9, 5]), {}),
    "trees.c45.gain_ratio": (dict(left_counts=[2, 0], right_counts=[1, 3]), {}),
    "trees.c45.add_errors": (dict(n=6.0, e=1.0), {"n": "positive", "confidence": "probability"}),
    "trees.reconstruction_tree.assign_intervals": (dict(w=W1[:10], counts=[3, 3, 4]), {}),
    "trees.reconstruction_tree.perturb_columns": (dict(X=X2, noise={0: G}, rng=0), {"noise": None}),
    "trees.estimate_accuracy": (dict(tree=None, disguised_test=(B2, Y2), theta=THETA_OK),
                                {"tree": "noise", "disguised_test": "noise"}),
    # randomized-response simulations
    "rr_simulation.simulate_warner_surveys": (dict(pi=0.3, theta=THETA_OK, n=100, n_surveys=50,
                                                  rng=0), {}),
    # exercises (an answer of any shape is the student's: check answers "not yet", never crashes)
    "exercises.check": (dict(exercise_id="01.1", answer=0.3), {"exercise_id": "choice", "answer": "array1"}),
    # a claim of the prose (a bad name, statement or verdict is refused, never printed as a claim)
    "claims.claim": (dict(name="02.error-falls", statement="the error falls", holds=True),
                     {"name": "choice", "statement": "choice", "holds": "bool"}),
    "exercises.exercise_ids": (dict(), {"kind": "choice"}),
    "exercises.get_exercise": (dict(exercise_id="02.1"), {"exercise_id": "choice"}),
    "exercises.reference_answer": (dict(exercise_id="01.1"), {"exercise_id": "choice"}),
    "exercises.quiz": (dict(notebook="03"), {"notebook": "choice"}),
    "rr_simulation.mrr_theta_sweep": (dict(X=B2, conditions={0: 1}, thetas=[0.7], runs=2, rng=0),
                                     {"conditions": "noise"}),
}
# parameters whose bad values are not drawn from the catalogue (results of other calls)
_LATE = {
    "reconstruction.reconstruct_counts": lambda kw: kw.update(
        matrix=__import__("ppdm_edu.reconstruction", fromlist=["x"]).response_matrix(
            EDGES, G, np.linspace(-1, 2, 16))),
    "audit.audit_epsilon": lambda kw: kw.update(
        randomizer=__import__("ppdm_edu.audit", fromlist=["x"]).warner_randomizer(0.7)),
    "audit.audit_delta": lambda kw: kw.update(
        randomizer=__import__("ppdm_edu.audit", fromlist=["x"]).warner_randomizer(0.7)),
    "audit.as_randomizer": lambda kw: kw.update(
        randomizer=__import__("ppdm_edu.audit", fromlist=["x"]).warner_randomizer(0.7)),
    "audit.tradeoff_curve": lambda kw: kw.update(
        randomizer=__import__("ppdm_edu.audit", fromlist=["x"]).warner_randomizer(0.7)),
    "audit.audit_one_run": lambda kw: kw.update(
        release=__import__("ppdm_edu.audit", fromlist=["x"]).laplace_histogram(1.0)),
    "trees.estimate_accuracy": lambda kw: kw.update(
        tree=__import__("ppdm_edu.trees", fromlist=["x"]).RRID3(0.7).fit(B2, Y2)),
}
# noise methods: every public method of every noise is swept with these baselines
NOISE_METHODS = {
    "sample": dict(size=10, rng=0), "pdf": dict(x=X1), "logpdf": dict(x=X1), "cdf": dict(x=X1),
    "sf": dict(x=X1), "ppf": dict(q=[0.1, 0.5]), "interval_width": dict(confidence=0.95),
    "interval_probability": dict(lower=[0.0], upper=[0.5]), "support": dict(coverage=0.99),
    "cdf_integral": dict(t=X1), "pdf_averaged_at_jumps": dict(x=X1),
    "ldp_epsilon": dict(value_range=1.0),
}
NOISE_METHOD_KINDS = {"lower": "array1", "upper": "array1", "t": "array1", "size": "int"}
# a NaN in a returned result is allowed only where it is the documented answer
NAN_DOCUMENTED = {
    "ldp.log_likelihood_ratio": "NaN marks outputs w that neither input can produce (documented)",
}


def _public_callables():
    out, seen = {}, set()
    for mod_name in MODULES:
        mod = importlib.import_module(f"ppdm_edu.{mod_name}")
        for name in mod.__all__:
            obj = getattr(mod, name)
            if not callable(obj) or id(obj) in seen:
                continue  # a re-export (trees.gini.DecisionTree is trees.DecisionTree) is swept once
            seen.add(id(obj))
            if inspect.isclass(obj) and (issubclass(obj, Exception) or (
                    dataclasses.is_dataclass(obj) and not hasattr(obj, "sample"))):
                continue  # result records and exception types are not called with user input
            if inspect.isclass(obj) and (name == "Noise" or inspect.isabstract(obj)):
                continue  # the abstract bases (Noise, mechanisms.Mechanism)
            out[f"{mod_name}.{name}"] = obj
    return out


CALLABLES = _public_callables()


def test_every_public_module_is_swept_or_left_out_with_a_reason():
    import pkgutil

    import ppdm_edu

    names = {m.name.removeprefix("ppdm_edu.") for m in pkgutil.walk_packages(ppdm_edu.__path__, "ppdm_edu.")
             if not any(part.startswith("_") for part in m.name.split("."))}
    covered = set(MODULES) | set(LEFT_OUT)
    missing = sorted(n for n in names if n not in covered and not any(
        fnmatch.fnmatch(n, pattern) or n.startswith(f"{pattern}.") for pattern in LEFT_OUT))
    assert not missing, f"public modules neither swept (MODULES) nor left out with a reason (LEFT_OUT): {missing}"
    assert set(ppdm_edu._SUBMODULES) <= {m.split(".")[0] for m in covered}


def test_every_public_callable_is_swept():
    missing = sorted(set(CALLABLES) - set(BASELINES))
    assert not missing, f"public callables with no sweep baseline (add them to BASELINES): {missing}"
    stale = sorted(set(BASELINES) - set(CALLABLES))
    assert not stale, f"BASELINES names callables that are no longer public: {stale}"


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _has_nan(value, depth=0) -> bool:
    if depth > 4 or value is None or isinstance(value, (str, bytes, bool)):
        return False
    if isinstance(value, (int, float, np.floating, np.integer)):
        return isinstance(value, (float, np.floating)) and math.isnan(value)
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fc" and bool(np.isnan(value).any())
    if isinstance(value, (pd.DataFrame, pd.Series)):
        num = value.select_dtypes("number") if isinstance(value, pd.DataFrame) else value
        return bool(pd.isna(num.to_numpy(dtype=float, na_value=np.nan)).any()) if num.size and \
            np.asarray(num).dtype.kind in "fciub" else False
    if dataclasses.is_dataclass(value):
        return any(_has_nan(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value))
    if isinstance(value, (tuple, list)):
        return any(_has_nan(v, depth + 1) for v in value[:50])
    if isinstance(value, dict):
        return any(_has_nan(v, depth + 1) for v in list(value.values())[:50])
    return False


def _call(fn):
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ("ok", fn())
    except _Timeout:
        return ("hang", None)
    except (ValueError, TypeError) as err:
        return ("refused", err)
    except MemoryError as err:
        return ("memory", err)
    except Exception as err:  # noqa: BLE001 - classified, then reported
        return ("other", err)
    finally:
        signal.alarm(0)


def _cases():
    """(case id, thunk, parameter name, callable name) for the baseline and every bad value."""
    for qualname, spec in BASELINES.items():
        if qualname not in CALLABLES:
            continue
        obj = CALLABLES[qualname]
        if spec[0] == "fit":
            _, params, data = spec
            sig = inspect.signature(obj)
            yield qualname, "(baseline)", lambda o=obj, p=params, d=data: _fit(o, d["X"], d["y"], **p), None
            # whole data sets of another shape or type: one row, one class, pandas, other dtypes
            for label, (X, y) in _data_variants(data["X"], data["y"]).items():
                yield qualname, "X", lambda o=obj, p=params, X=X, y=y: _fit(o, X, y, **p), label
            # predict before fit: sklearn's NotFittedError (a ValueError) that says to call fit
            for meth in ("predict", "predict_proba"):
                if hasattr(obj, meth):
                    yield qualname, "fit", lambda o=obj, p=params, m=meth, d=data: getattr(o(**p), m)(d["X"]), \
                        f"{meth} before fit"
            for pname in list(sig.parameters) + ["X", "y"]:
                kind = KIND.get(pname)
                if kind is None:
                    continue
                for bad in CATALOGUE[kind]:
                    if pname in ("X", "y"):
                        d2 = {**data, pname: bad}
                        yield qualname, pname, lambda o=obj, p=params, d=d2: _fit(o, d["X"], d["y"], **p), bad
                    else:
                        p2 = {**params, pname: bad}
                        yield qualname, pname, lambda o=obj, p=p2, d=data: _fit(o, d["X"], d["y"], **p), bad
            continue
        kwargs, overrides = spec
        sig = inspect.signature(obj)
        base = dict(kwargs)
        if qualname in _LATE:
            _LATE[qualname](base)
        yield qualname, "(baseline)", lambda o=obj, k=base: o(**k), None
        for pname in sig.parameters:
            kind = overrides.get(pname, KIND.get(pname)) if pname in overrides else KIND.get(pname)
            if kind is None:
                continue
            for bad in CATALOGUE[kind]:
                k2 = {**base, pname: bad}
                yield qualname, pname, lambda o=obj, k=k2: o(**k), bad
        if inspect.isclass(obj) and hasattr(obj, "sample"):  # a noise: sweep its methods too
            noise = obj(**base)
            for meth, mkw in NOISE_METHODS.items():
                fn = getattr(noise, meth, None)
                if fn is None:
                    continue
                yield f"{qualname}.{meth}", "(baseline)", lambda f=fn, k=mkw: f(**k), None
                for pname in mkw:
                    kind = NOISE_METHOD_KINDS.get(pname, KIND.get(pname))
                    for bad in CATALOGUE[kind]:
                        k2 = {**mkw, pname: bad}
                        yield f"{qualname}.{meth}", pname, lambda f=fn, k=k2: f(**k), bad


def _names_argument(err, pname: str) -> bool:
    text = str(err)
    # an estimator's fit is called fit(X, y) here; PPDTC4.5 calls its records W
    return pname in text or (pname == "X" and ("W " in text or "W:" in text))


@pytest.fixture(scope="module")
def sweep():
    rows = []
    for qualname, pname, thunk, bad in _cases():
        status, value = _call(thunk)
        row = {"callable": qualname, "parameter": pname, "value": repr(bad)[:40], "status": status}
        if status == "ok" and _has_nan(value) and qualname not in NAN_DOCUMENTED:
            row["status"] = "nan"
        elif status == "ok" and pname != "(baseline)":
            row["status"] = "accepted"
        if status in ("refused", "other", "memory"):
            row["error"] = f"{type(value).__name__}: {str(value)[:160]}"
            row["named"] = _names_argument(value, pname)
        rows.append(row)
    counts = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    refused = [r for r in rows if r["status"] == "refused"]
    counts["refused naming the argument"] = sum(r["named"] for r in refused)
    counts["cases"] = len(rows)
    counts["callables"] = len({r["callable"] for r in rows})
    out = pathlib.Path(__file__).resolve().parents[1] / "artifacts"
    out.mkdir(exist_ok=True)
    (out / "api_sweep.json").write_text(json.dumps({"counts": counts, "rows": rows}, indent=1))
    return rows, counts


def test_every_baseline_call_works(sweep):
    rows, _ = sweep
    broken = [(r["callable"], r["status"], r.get("error")) for r in rows
              if r["parameter"] == "(baseline)" and r["status"] != "ok"]
    assert not broken, broken


def test_no_hang_no_memory_error_no_nan_no_obscure_exception(sweep):
    rows, counts = sweep
    bad = [(r["callable"], r["parameter"], r["value"], r["status"], r.get("error")) for r in rows
           if r["status"] in ("hang", "memory", "nan", "other")]
    assert not bad, f"{len(bad)} cases: " + "\n".join(map(str, bad))


def test_refusals_name_the_argument(sweep):
    rows, counts = sweep
    refused = [r for r in rows if r["status"] == "refused"]
    unnamed = [(r["callable"], r["parameter"], r["value"], r["error"]) for r in refused if not r["named"]]
    share = 1 - len(unnamed) / max(len(refused), 1)
    assert share >= 0.99, f"{share:.1%} of {len(refused)} refusals name the argument; not:\n" + \
        "\n".join(map(str, unnamed))


def _public_names(qualname: str, pname: str, value: str) -> list[str]:
    """The public names a refusal of this case may give: the parameter's own; for fit data, the
    name ``fit`` gives its records (PPDTC4.5: ``W``), and ``y`` for whole data sets of another
    shape (one row, one class, ...), where either may be at fault."""
    if pname not in ("X", "y") or BASELINES[qualname][0] != "fit":
        return [pname]
    records = list(inspect.signature(CALLABLES[qualname].fit).parameters)[1]
    if value.strip("'") in ("one row", "one class", "pandas", "float32", "int", "bool"):
        return [records, "y"]
    return [records if pname == "X" else "y"]


def test_refusals_name_the_public_parameter_as_a_word(sweep):
    # stricter than test_refusals_name_the_argument: the name stands as a word (snr is not named
    # by "snr_value", X not by "W" unless fit calls its records W), with no share left over
    import re

    rows, _ = sweep
    vague = [(r["callable"], r["parameter"], r["value"], r["error"]) for r in rows
             if r["status"] == "refused" and r["parameter"] != "fit"
             and not any(re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", r["error"])
                         for name in _public_names(r["callable"], r["parameter"], r["value"]))]
    assert not vague, f"{len(vague)} refusals do not name the public parameter:\n" + "\n".join(map(str, vague))
