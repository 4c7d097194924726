"""Predictions and printed trees of every tree class on the reproductions' data (a regression baseline).

Fits DecisionTree, ReconstructionTree (Global / ByClass / Local), ID3, RRID3, C45 and PPDTC45
(threshold and weight/random) with fixed seeds on the data the reproductions use: Agrawal's
functions 1-5 (``experiments.as2000_trees`` helpers) and Adult (``experiments.liu.adult_xy``
for C4.5 / PPDTC4.5, ``datasets.adult_binary`` for ID3 / RR-ID3). Writes one ``.npy`` of
predictions (and ``predict_proba``) and one ``.txt`` of ``export_text`` per fit, plus
``hashes.json`` (sha256 of each file) to the output folder. Run it before and after a change of
``ppdm_edu/trees`` and compare the two folders (``cmp`` or the hashes).

Usage: ``python benchmarks/trees_baseline.py OUT_DIR [--quick]``
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from ppdm_edu.datasets import adult_binary, agrawal
from ppdm_edu.experiments.as2000_trees import agrawal_noise, make_classifier
from ppdm_edu.experiments.liu import adult_xy, make_noises, perturb_every_column
from ppdm_edu.trees import C45, ID3, PPDTC45, RRID3
from ppdm_edu.trees.reconstruction_tree import perturb_columns


def fits(quick: bool):
    """(name, fitted estimator, test X) of every case."""
    n_train = 3000 if quick else 10_000
    for function in (1, 2, 3, 4, 5):
        X, y = agrawal(n_train, function, rng=100 + function)
        Xt, _ = agrawal(2000, function, rng=200 + function)
        yield f"F{function}_original", make_classifier("original").fit(X, y), Xt
        for kind in ("gaussian", "uniform"):
            noise = agrawal_noise(kind, 1.0)
            W = perturb_columns(X, noise, rng=300 + function)
            for alg in ("randomized", "global", "byclass", "local"):
                clf = make_classifier(alg, noise, local_min_records=500)
                yield f"F{function}_{kind}_{alg}", clf.fit(W, y), Xt
    X, y, Xt, _ = adult_xy(2000 if quick else 10_000, np.random.default_rng(7))
    yield "adult_C45", C45().fit(X, y), Xt
    yield "adult_C45_unpruned", C45(pruning=False, max_depth=6).fit(X, y), Xt
    noises = make_noises(X, "data1")
    noise_dict = dict(enumerate(noises))
    W = perturb_every_column(X, noises, rng=np.random.default_rng(8))
    yield "adult_C45_on_W", C45().fit(W, y), Xt
    yield "adult_PPDTC45_threshold", PPDTC45(noise_dict, threshold=0.3).fit(W, y), Xt
    yield "adult_PPDTC45_weight_random", PPDTC45(noise_dict, split="weight", partition="random",
                                                   random_state=9, max_candidates=16).fit(W, y), Xt
    if not quick:
        X, y, Xt, _ = adult_xy(None)
        yield "adult_full_C45", C45().fit(X, y), Xt
    B = adult_binary()
    train, test = B.train.to_numpy(), B.test.to_numpy()
    yield "adult_ID3", ID3().fit(train[:, :-1], train[:, -1]), test[:, :-1]
    rng = np.random.default_rng(10)
    for theta in (0.0, 0.3, 0.7, 0.9, 1.0):
        keep = rng.random(train.shape[0]) <= theta
        G = np.where(keep[:, None], train, 1 - train)
        for dl in (True, False):
            Gy = G[:, -1] if dl else train[:, -1]
            yield f"adult_RRID3_{theta}_{dl}", RRID3(theta, disguised_label=dl).fit(G[:, :-1], Gy), test[:, :-1]


def main(out: Path, quick: bool) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    hashes = {}
    for name, clf, Xt in fits(quick):
        arrays = {"predict": np.asarray(clf.predict(Xt))}
        if hasattr(clf, "predict_proba"):
            arrays["proba"] = np.asarray(clf.predict_proba(Xt), dtype=float)
        for key, a in arrays.items():
            data = a.astype(a.dtype.newbyteorder("<")).tobytes() + str(a.dtype).encode() + str(a.shape).encode()
            (out / f"{name}.{key}.bin").write_bytes(data)
            hashes[f"{name}.{key}"] = hashlib.sha256(data).hexdigest()
        text = clf.export_text()
        (out / f"{name}.txt").write_text(text)
        hashes[f"{name}.txt"] = hashlib.sha256(text.encode()).hexdigest()
        hashes[f"{name}.n_leaves_depth"] = [int(clf.n_leaves_), int(clf.depth_)] if hasattr(clf, "n_leaves_") else None
        print(name, flush=True)
    (out / "hashes.json").write_text(json.dumps(hashes, indent=1, sort_keys=True))
    return hashes


if __name__ == "__main__":
    main(Path(sys.argv[1]), "--quick" in sys.argv)
