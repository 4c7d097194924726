"""The trees' predictions and printed trees are pinned to those of the code before the refactor
onto one base (issue 28 §1): sha256 of ``predict`` and of ``export_text`` for every tree class
on small cases of the reproductions' data (Agrawal's functions, Adult), in
``tests/data/tree_baseline.json`` (written by the old code with ``python
tests/test_tree_baseline.py --write``; it is a regression baseline, not a result).
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from ppdm_edu.datasets import (
    ADULT_CONTINUOUS,
    AGRAWAL_DOMAINS,
    AGRAWAL_NUMERIC,
    adult_binary,
    agrawal,
    load_adult,
)
from ppdm_edu.randomization import GaussianNoise, noise_for_privacy
from ppdm_edu.trees import C45, ID3, PPDTC45, RRID3, DecisionTree, ReconstructionTree

BASELINE = Path(__file__).parent / "data" / "tree_baseline.json"


def _perturb(X, noise, seed):
    rng = np.random.default_rng(seed)
    W = X.copy()
    for col, nz in noise.items():
        W[col] = W[col] + nz.sample(len(W), rng)
    return W


def cases():
    """(name, fitted tree, test records) for every tree class."""
    bounds = {a: AGRAWAL_DOMAINS[a] for a in AGRAWAL_NUMERIC}
    for function in (1, 2, 3, 4, 5):
        X, y = agrawal(2000, function, rng=100 + function)
        Xt, _ = agrawal(1000, function, rng=200 + function)
        yield f"F{function}_original", DecisionTree().fit(X, y), Xt
        yield f"F{function}_unpruned", DecisionTree(pruning=None, max_depth=6).fit(X, y), Xt
        for kind in ("gaussian", "uniform"):
            noise = {a: noise_for_privacy(kind, 1.0, hi - lo) for a, (lo, hi) in bounds.items()}
            W = _perturb(X, noise, 300 + function)
            yield f"F{function}_{kind}_randomized", DecisionTree().fit(W, y), Xt
            for mode in ("global", "byclass", "local"):
                clf = ReconstructionTree(noise, mode=mode, bounds=bounds, local_min_records=300)
                yield f"F{function}_{kind}_{mode}", clf.fit(W, y), Xt
    train, test = load_adult("train").frame, load_adult("test").frame
    idx = np.random.default_rng(7).choice(len(train), 2000, replace=False)
    X = train[ADULT_CONTINUOUS].to_numpy(float)[idx]
    y = train["income"].to_numpy()[idx]
    Xt = test[ADULT_CONTINUOUS].to_numpy(float)[:3000]
    yield "adult_C45", C45().fit(X, y), Xt
    yield "adult_C45_unpruned", C45(pruning=False, max_depth=6).fit(X, y), Xt
    noise = {j: GaussianNoise(0.8 * float(X[:, j].std())) for j in range(X.shape[1])}
    rng = np.random.default_rng(8)
    W = X + np.column_stack([noise[j].sample(X.shape[0], rng) for j in range(X.shape[1])])
    yield "adult_PPDTC45_threshold", PPDTC45(noise, threshold=0.3).fit(W, y), Xt
    yield "adult_PPDTC45_weight_random", PPDTC45(noise, split="weight", partition="random",
                                                   random_state=9, max_candidates=16).fit(W, y), Xt
    B = adult_binary()
    tr, te = B.train.to_numpy()[:3000], B.test.to_numpy()
    yield "adult_ID3", ID3().fit(tr[:, :-1], tr[:, -1]), te[:, :-1]
    rng = np.random.default_rng(10)
    for theta in (0.0, 0.3, 0.8, 1.0):
        keep = rng.random(tr.shape[0]) <= theta
        G = np.where(keep[:, None], tr, 1 - tr)
        yield f"adult_RRID3_{theta}", RRID3(theta).fit(G[:, :-1], G[:, -1]), te[:, :-1]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fingerprint(clf, Xt) -> dict:
    """sha256 of the predictions and of the printed tree (full and to depth 2), and its size."""
    pred = np.asarray(clf.predict(Xt))
    out = {
        "predict": _sha(pred.astype(str).tobytes()),
        "export_text": _sha(clf.export_text().encode()),
        "export_text_depth2": _sha(clf.export_text(max_depth=2).encode()),
        "n_leaves": int(clf.n_leaves_) if hasattr(clf, "n_leaves_") else int((clf.tree_.feature < 0).sum()),
    }
    return out


@pytest.fixture(scope="module")
def baseline():
    return json.loads(BASELINE.read_text())


@pytest.fixture(scope="module")
def current():
    return {name: fingerprint(clf, Xt) for name, clf, Xt in cases()}


def test_every_case_is_pinned(baseline, current):
    assert sorted(current) == sorted(baseline)


@pytest.mark.parametrize("key", ["predict", "export_text", "export_text_depth2", "n_leaves"])
def test_same_trees_as_before_the_refactor(baseline, current, key):
    changed = [name for name in baseline if current[name][key] != baseline[name][key]]
    assert not changed, f"{key} changed for {changed}"


if __name__ == "__main__" and "--write" in sys.argv:
    BASELINE.write_text(json.dumps({n: fingerprint(c, X) for n, c, X in cases()}, indent=1, sort_keys=True) + "\n")
