"""The seven classifiers honour scikit-learn's estimator contract.

`clone`, `cross_val_score`, `GridSearchCV` and `Pipeline` work on each; `NotFittedError` before
fit; a continuous target is refused; a DataFrame with integer column labels predicts on itself.
`check_estimator` is run on DecisionTree, C45 and PerturbedGaussianNB with every check that
still fails listed (with its reason) as an expected failure: a check that starts passing, or a
new failure, fails this file.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import check_estimator

from ppdm_edu import GaussianNoise
from ppdm_edu.naive_bayes import PerturbedGaussianNB
from ppdm_edu.trees import C45, ID3, PPDTC45, RRID3, DecisionTree, ReconstructionTree

NOISE = GaussianNoise(0.5)


def _data(binary: bool):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(240, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    return ((X > 0).astype(int) if binary else X), y


CASES = {  # estimator, binary attributes?, a parameter grid
    "DecisionTree": (DecisionTree(), False, {"min_samples": [2, 10]}),
    "ReconstructionTree": (ReconstructionTree(NOISE), False, {"mode": ["global", "byclass"]}),
    "ID3": (ID3(), True, None),
    "RRID3": (RRID3(0.8), True, {"theta": [0.7, 0.9]}),
    "C45": (C45(), False, {"confidence": [0.1, 0.25]}),
    "PPDTC45": (PPDTC45(NOISE), False, {"threshold": [0.5, 0.6]}),
    "PerturbedGaussianNB": (PerturbedGaussianNB(NOISE), False, {"variance_floor": [0.01, 0.1]}),
}


@pytest.mark.parametrize("name", CASES)
def test_clone_cross_validation_grid_search_and_pipeline(name):
    est, binary, grid = CASES[name]
    X, y = _data(binary)
    twin = clone(est)
    assert twin is not est and twin.get_params() == est.get_params()
    scores = cross_val_score(est, X, y, cv=3)
    assert scores.shape == (3,) and np.all((scores >= 0.5) & (scores <= 1.0)), scores
    pipe = make_pipeline(FunctionTransformer(), clone(est)).fit(X, y)
    assert pipe.score(X, y) >= 0.5
    if grid:
        search = GridSearchCV(est, grid, cv=3).fit(X, y)
        assert search.best_params_.keys() == grid.keys()


@pytest.mark.parametrize("name", CASES)
def test_not_fitted_error_before_fit(name):
    est, binary, _ = CASES[name]
    X, _y = _data(binary)
    with pytest.raises(NotFittedError):
        clone(est).predict(X)


@pytest.mark.parametrize("name", [n for n in CASES if not CASES[n][1]])
def test_continuous_target_is_refused(name):
    est, _, _ = CASES[name]
    X, y = _data(False)
    with pytest.raises(ValueError, match="class labels"):
        clone(est).fit(X, y + np.linspace(0.01, 0.5, y.size))


def test_dataframe_with_integer_column_labels_predicts_on_itself():
    X, y = _data(False)
    frame = pd.DataFrame(X)  # columns 0, 1, 2 (ints)
    tree = DecisionTree().fit(frame, y)
    assert np.array_equal(tree.predict(frame), tree.predict(X))
    with pytest.raises(ValueError, match="lacks the columns"):
        tree.predict(frame.rename(columns={0: "a"}))


# check_estimator: what still fails, and why (the shared input validation is not sklearn's
# `validate_data` yet; these are the remaining gaps of the contract, listed so they can only shrink)
_INPUT_VALIDATION = {
    "check_n_features_in_after_fitting": "predict's feature-count message is ours, not sklearn's wording",
    "check_dtype_object": "object-dtype X: our 'X must be numeric' error, sklearn expects conversion",
    "check_estimators_empty_data_messages": "our empty-X message differs from sklearn's pattern",
    "check_estimator_sparse_tag": "sparse input is refused without sklearn's wording",
    "check_estimator_sparse_array": "sparse input is refused without sklearn's wording",
    "check_estimator_sparse_matrix": "sparse input is refused without sklearn's wording",
    "check_supervised_y_2d": "a column-vector y is refused instead of raveled with a warning",
    "check_fit2d_predict1d": "1-D X message lacks sklearn's 'Reshape your data'",
    "check_requires_y_none": "fit(X, None) message differs from sklearn's pattern",
}
EXPECTED_FAILURES = {
    "DecisionTree": dict(_INPUT_VALIDATION),
    "C45": dict(_INPUT_VALIDATION),
    "PerturbedGaussianNB": {**_INPUT_VALIDATION,
                            "check_fit2d_1sample": "the one-sample message lacks sklearn's wording"},
}


@pytest.mark.parametrize("name", list(EXPECTED_FAILURES))
def test_check_estimator_failures_are_exactly_the_listed_ones(name):
    est = CASES[name][0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(clone(est), on_fail=None)
    failed = {r["check_name"] for r in results if r["status"] == "failed"}
    passed = {r["check_name"] for r in results if r["status"] == "passed"}
    assert len(passed) >= 40, passed
    assert failed == set(EXPECTED_FAILURES[name]), (
        f"newly failing: {sorted(failed - set(EXPECTED_FAILURES[name]))}; "
        f"now passing (remove from the list): {sorted(set(EXPECTED_FAILURES[name]) - failed)}")
