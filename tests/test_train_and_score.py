"""One train-and-score step (Agrawal & Srikant 2000, Sec. 5.1: train on perturbed records, test
on original ones), shared by the reproduction and notebook 04's trees panel."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from ppdm_edu.datasets import agrawal
from ppdm_edu.trees.as2000 import make_classifier, train_and_score

PACKAGE = Path(__file__).resolve().parents[1] / "ppdm_edu"


def _calls(path: Path) -> tuple[set[str], int]:
    """Names called in a module, and how many ``.fit(`` calls it makes itself."""
    names, fits = set(), 0
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                names.add(node.func.id)
            elif isinstance(node.func, ast.Attribute) and node.func.attr == "fit":
                fits += 1
    return names, fits


def test_the_panel_and_the_reproduction_share_the_step():
    for module in ("widgets/trees.py", "experiments/as2000_trees.py"):
        names, fits = _calls(PACKAGE / module)
        assert "train_and_score" in names and fits == 0, module


def test_it_scores_on_the_test_records_not_the_training_ones():
    X, y = agrawal(2_000, 2, rng=np.random.default_rng(0))
    Xt, yt = agrawal(500, 2, rng=np.random.default_rng(1))
    clf = make_classifier("original")
    accuracy, seconds, leaves = train_and_score(clf, X, y, Xt, yt)
    assert accuracy == clf.score(Xt, yt) and seconds >= 0.0 and leaves == clf.n_leaves_
    assert isinstance(accuracy, float) and isinstance(leaves, int)
