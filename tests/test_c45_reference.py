"""C4.5 and PPDTC4.5 grow exactly the trees of a stored reference: every node's attribute,
threshold, children, class counts and label, and the predictions, bit for bit.

The reference ``tests/data/c45_reference.json`` holds sha256 fingerprints of those arrays for
cases that exercise every path of the split search and the partition: Agrawal's functions
(integer attributes with many ties and real ones), Adult, three classes, row- and column-major
input, J48's parameters, PPDTC4.5's threshold and weight criteria (the weight criterion also above
the size where it bins the values) and both partitions. It was written by the code before the
split search worked one attribute at a time on in-place attribute lists
(``python tests/test_c45_reference.py --write``); it is a regression reference, not a result.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from ppdm_edu.datasets import ADULT_CONTINUOUS, AGRAWAL_DOMAINS, AGRAWAL_NUMERIC, agrawal, load_adult
from ppdm_edu.randomization import GaussianNoise, UniformNoise, noise_for_privacy
from ppdm_edu.trees import C45, PPDTC45

REFERENCE = Path(__file__).parent / "data" / "c45_reference.json"


def cases():
    """(name, unfitted tree, X, y, test records)."""
    bounds = {a: AGRAWAL_DOMAINS[a] for a in AGRAWAL_NUMERIC}
    for function in (1, 2, 3, 4, 5):
        frame, y = agrawal(3000, function, rng=400 + function)
        X = frame.to_numpy(float)
        Xt = agrawal(1000, function, rng=500 + function)[0].to_numpy(float)
        yield f"F{function}_C45", C45(), X, y, Xt
        yield f"F{function}_C45_fortran", C45(), np.asfortranarray(X), y, Xt
        yield f"F{function}_C45_unpruned", C45(pruning=False), X, y, Xt
        yield f"F{function}_C45_options", C45(min_instances=5, confidence=0.1, max_depth=7), X, y, Xt
        cols = [frame.columns.get_loc(a) for a in bounds]
        noise = {c: noise_for_privacy("gaussian", 0.5, bounds[a][1] - bounds[a][0])
                 for c, a in zip(cols, bounds)}
        noise.update({j: UniformNoise(0.5) for j in range(X.shape[1]) if j not in noise})
        W = X + np.column_stack([noise[j].sample(X.shape[0], np.random.default_rng(600 + function + j))
                                 for j in range(X.shape[1])])
        yield f"F{function}_PPDT_threshold", PPDTC45(noise, threshold=0.3), W, y, Xt
        yield f"F{function}_PPDT_threshold_random", PPDTC45(noise, partition="random", random_state=3), W, y, Xt
        if function in (1, 5):
            yield f"F{function}_PPDT_weight", PPDTC45(noise, split="weight", max_candidates=16), W, y, Xt
    # the weight criterion above 2 * 2048 records (binned values)
    frame, y = agrawal(9000, 2, rng=7)
    X = frame[["salary", "age"]].to_numpy(float)
    noise = {0: GaussianNoise(10_000.0), 1: GaussianNoise(5.0)}
    W = X + np.column_stack([noise[j].sample(X.shape[0], np.random.default_rng(8 + j)) for j in range(2)])
    yield "F2_PPDT_weight_binned", PPDTC45(noise, split="weight", partition="random", random_state=1,
                                           max_candidates=32, max_depth=5), W, y, X[:2000]
    # three classes, ties
    rng = np.random.default_rng(11)
    X3 = rng.integers(0, 12, size=(4000, 4)).astype(float)
    X3[:, 3] = rng.normal(size=4000)
    y3 = np.select([X3[:, 0] + X3[:, 3] > 8, X3[:, 1] < 4], ["a", "b"], "c")
    y3 = np.where(rng.random(4000) < 0.1, rng.choice(["a", "b", "c"], 4000), y3)
    yield "three_classes_C45", C45(), X3, y3, X3[:1000]
    yield "three_classes_C45_unpruned", C45(pruning=False, min_instances=1), X3, y3, X3[:1000]
    yield "three_classes_PPDT", PPDTC45(UniformNoise(1.0), threshold=0.4), X3, y3, X3[:1000]
    train = load_adult("train").frame
    X = train[ADULT_CONTINUOUS].to_numpy(float)[:12000]
    y = train["income"].to_numpy()[:12000]
    yield "adult_C45", C45(), X, y, X[:3000]
    yield "adult_C45_unpruned", C45(pruning=False), X, y, X[:3000]


def _sha(a) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def fingerprint(clf, Xt) -> dict:
    """sha256 of every array of the fitted tree and of the predictions, and the tree's size."""
    t = clf.tree_
    out = {key: _sha(getattr(t, key)) for key in
           ("feature", "threshold", "children_left", "children_right", "value", "label", "depth")}
    out["predict"] = _sha(np.asarray(clf.predict(Xt)).astype(str))
    out["n_nodes"] = int(t.feature.size)
    return out


def fit_all() -> dict:
    return {name: fingerprint(clf.fit(X, y), Xt) for name, clf, X, y, Xt in cases()}


@pytest.fixture(scope="module")
def reference():
    return json.loads(REFERENCE.read_text())


@pytest.fixture(scope="module")
def current():
    return fit_all()


def test_every_case_is_in_the_reference(reference, current):
    assert sorted(current) == sorted(reference)


@pytest.mark.parametrize("key", ["feature", "threshold", "children_left", "children_right", "value",
                                 "label", "depth", "predict", "n_nodes"])
def test_same_trees_as_the_reference(reference, current, key):
    changed = [name for name in reference if current[name][key] != reference[name][key]]
    assert not changed, f"{key} differs from the reference for {changed}"


if __name__ == "__main__" and "--write" in sys.argv:
    REFERENCE.write_text(json.dumps(fit_all(), indent=1, sort_keys=True) + "\n")
