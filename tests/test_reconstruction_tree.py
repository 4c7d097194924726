"""Trees on perturbed data: Global, ByClass, Local (Agrawal & Srikant 2000, Sec. 4.2)."""
import numpy as np
import pandas as pd
import pytest

from ppdm_edu import GaussianNoise, UniformNoise, noise_for_privacy
from ppdm_edu.datasets import AGRAWAL_DOMAINS, AGRAWAL_NUMERIC, agrawal
from ppdm_edu.trees import DecisionTree, ReconstructionTree
from ppdm_edu.trees.reconstruction_tree import assign_intervals, perturb_columns

BOUNDS = {a: AGRAWAL_DOMAINS[a] for a in AGRAWAL_NUMERIC}


def agrawal_noise(kind, level):
    return {a: noise_for_privacy(kind, level, hi - lo) for a, (lo, hi) in BOUNDS.items()}


@pytest.fixture(scope="module")
def f1_uniform_100():
    X, y = agrawal(10_000, function=1, rng=0, balanced=True)
    Xt, yt = agrawal(3000, function=1, rng=1, balanced=True)
    noise = agrawal_noise("uniform", 1.0)
    W = perturb_columns(X, noise, rng=2)
    return X, y, Xt, yt, W, noise


def test_assign_intervals_hand_computed():
    # sorted values 1 2 3 5; cumulative estimates 1, 3.4, 4 round to 1, 3, 4: sizes 1, 2, 1
    assert assign_intervals([5.0, 1.0, 3.0, 2.0], [1.0, 2.4, 0.6]).tolist() == [2, 0, 1, 1]
    # 3.6 rounds up: the middle interval takes 3 records, the last none
    assert assign_intervals([5.0, 1.0, 3.0, 2.0], [1.0, 2.6, 0.4]).tolist() == [1, 0, 1, 1]


@pytest.mark.parametrize("seed", range(5))
def test_assignment_keeps_counts_equal_to_estimates(seed):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=rng.integers(50, 500))
    est = rng.gamma(0.7, size=rng.integers(2, 40)) * rng.choice([0, 1], p=[0.2, 0.8], size=None)
    est = est if est.sum() > 0 else np.ones(3)
    est = est * w.size / est.sum()
    codes = assign_intervals(w, est)
    got = np.bincount(codes, minlength=est.size)
    assert got.sum() == w.size
    assert np.abs(got - est).max() <= 1.0
    # lower values never get a higher interval than higher values
    order = np.argsort(w)
    assert (np.diff(codes[order]) >= 0).all()


def test_fitted_byclass_assignment_matches_reconstruction(f1_uniform_100):
    _, y, _, _, W, noise = f1_uniform_100
    tree = ReconstructionTree(noise, mode="byclass", bounds=BOUNDS).fit(W, y)
    j = list(W.columns).index("age")
    for label in (0, 1):
        rec = tree.reconstructions_[(j, label)]
        got = np.bincount(tree.intervals_[y == label, j], minlength=rec.counts.size)
        assert np.abs(got - rec.counts).max() <= 1.0


def test_near_zero_noise_byclass_equals_original():
    X, y = agrawal(5000, function=3, rng=3, balanced=True)
    Xt, yt = agrawal(3000, function=3, rng=4, balanced=True)
    noise = {a: GaussianNoise(1e-6 * (hi - lo)) for a, (lo, hi) in BOUNDS.items()}
    W = perturb_columns(X, noise, rng=5)
    original = DecisionTree().fit(X, y)
    byclass = ReconstructionTree(noise, mode="byclass", bounds=BOUNDS, n_intervals=100).fit(W, y)
    # same attributes at the root; thresholds on the interval grid (width 1,300 for salary)
    assert byclass.tree_.feature[0] == original.tree_.feature[0]
    agree = np.mean(byclass.predict(Xt) == original.predict(Xt))
    assert agree > 0.98
    assert abs(byclass.score(Xt, yt) - original.score(Xt, yt)) < 0.01


def test_reconstruction_beats_randomized_with_uniform_noise(f1_uniform_100):
    # Sec. 5.3: uniform noise hurts a lot before correction, little after
    _, y, Xt, yt, W, noise = f1_uniform_100
    randomized = DecisionTree().fit(W, y).score(Xt, yt)
    byclass = ReconstructionTree(noise, mode="byclass", bounds=BOUNDS).fit(W, y).score(Xt, yt)
    assert byclass > 0.9
    assert byclass - randomized > 0.2


def test_local_never_reconstructs_a_path_attribute():
    X, y = agrawal(8000, function=2, rng=6, balanced=True)
    noise = agrawal_noise("gaussian", 0.5)
    W = perturb_columns(X, noise, rng=7)
    tree = ReconstructionTree(noise, mode="local", bounds=BOUNDS, local_min_records=500).fit(W, y)
    assert tree.n_local_reconstructions_ > 0
    names = list(W.columns)
    salary = names.index("salary")
    seen_paths = set()
    for path, j, _label, n_records in tree.local_log_:
        assert j not in path
        assert len(path) >= 1 and n_records >= 2
        seen_paths.add(path)
    # below a split on salary, salary is never reconstructed again but age is
    below_salary = [j for path, j, _, _ in tree.local_log_ if salary in path]
    assert below_salary and salary not in below_salary and names.index("age") in below_salary


def test_local_below_threshold_equals_byclass(f1_uniform_100):
    _, y, Xt, _, W, noise = f1_uniform_100
    big = 10 ** 9
    local = ReconstructionTree(noise, mode="local", bounds=BOUNDS, local_min_records=big).fit(W, y)
    byclass = ReconstructionTree(noise, mode="byclass", bounds=BOUNDS).fit(W, y)
    assert local.n_local_reconstructions_ == 0
    assert local.export_text() == byclass.export_text()


def test_global_reconstructs_once_for_all_classes(f1_uniform_100):
    _, y, _, _, W, noise = f1_uniform_100
    tree = ReconstructionTree(noise, mode="global", bounds=BOUNDS).fit(W, y)
    assert set(key[1] for key in tree.reconstructions_) == {None}
    assert len(tree.reconstructions_) == len(AGRAWAL_NUMERIC)


def test_split_points_are_interval_boundaries(f1_uniform_100):
    _, y, _, _, W, noise = f1_uniform_100
    tree = ReconstructionTree(noise, mode="byclass", bounds=BOUNDS).fit(W, y)
    t = tree.tree_
    for node in np.flatnonzero(t.feature >= 0):
        j = int(t.feature[node])
        if j in tree.edges_:
            assert np.isclose(tree.edges_[j], t.threshold[node]).any()


def test_unperturbed_attributes_split_at_midpoints():
    X, y = agrawal(4000, function=3, rng=8, balanced=True)
    noise = {"salary": noise_for_privacy("gaussian", 0.25, 130_000)}
    W = perturb_columns(X, noise, rng=9)
    tree = ReconstructionTree(noise, bounds=BOUNDS).fit(W, y)
    t = tree.tree_
    elevel = list(X.columns).index("elevel")
    cuts = t.threshold[t.feature == elevel]
    assert cuts.size > 0 and set(cuts) <= {0.5, 1.5, 2.5, 3.5}


def test_seeds_reproduce():
    X, y = agrawal(3000, function=4, rng=10, balanced=True)
    noise = agrawal_noise("gaussian", 1.0)
    W1, W2 = perturb_columns(X, noise, rng=11), perturb_columns(X, noise, rng=11)
    pd.testing.assert_frame_equal(W1, W2)
    a = ReconstructionTree(noise, mode="local", bounds=BOUNDS, local_min_records=300).fit(W1, y)
    b = ReconstructionTree(noise, mode="local", bounds=BOUNDS, local_min_records=300).fit(W2, y)
    assert a.export_text() == b.export_text()
    assert not perturb_columns(X, noise, rng=12).equals(W1)


def test_single_noise_for_every_column_and_arrays():
    rng = np.random.default_rng(13)
    x = rng.uniform(0, 10, size=(4000, 2))
    y = (x[:, 0] > 6).astype(int)
    noise = UniformNoise(2.0)
    w = perturb_columns(x, noise, rng=14)
    assert np.all(w != x)
    tree = ReconstructionTree(noise, bounds={0: (0, 10), 1: (0, 10)}).fit(w, y)
    assert tree.tree_.feature[0] == 0
    assert abs(tree.tree_.threshold[0] - 6.0) <= 0.5
    assert tree.score(x, y) > 0.95


def test_bad_inputs(f1_uniform_100):
    X, y, _, _, W, noise = f1_uniform_100
    with pytest.raises(ValueError, match="noise given for unknown column 'wage'"):
        ReconstructionTree({"wage": GaussianNoise(1.0)}).fit(W, y)
    with pytest.raises(ValueError, match="unknown column"):
        ReconstructionTree({12: GaussianNoise(1.0)}).fit(W.to_numpy(), y)
    with pytest.raises(TypeError, match="UniformNoise, GaussianNoise or LaplaceNoise"):
        ReconstructionTree({"age": 3.0}).fit(W, y)
    with pytest.raises(ValueError, match="mode"):
        ReconstructionTree(noise, mode="perclass").fit(W, y)
    with pytest.raises(ValueError, match="bounds"):
        ReconstructionTree(noise, bounds={"age": (80, 20)}).fit(W, y)
    with pytest.raises(ValueError, match="local_min_records"):
        ReconstructionTree(noise, mode="local", local_min_records=0).fit(W, y)
    bad = W.copy()
    bad.iloc[5, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        ReconstructionTree(noise).fit(bad, y)
    with pytest.raises(ValueError, match="NaN"):
        perturb_columns(bad, noise, rng=0)
    with pytest.raises(ValueError, match="not fitted"):
        ReconstructionTree(noise).predict(X)


# --- the experiment of Section 5 and the panel ------------------------------------------------
from ppdm_edu.experiments import as2000_accuracy  # noqa: E402
from ppdm_edu.experiments.as2000_trees import accuracy_table, summarize  # noqa: E402


def test_as2000_accuracy_tidy_and_reproducible():
    kwargs = dict(functions=(1, 4), noises=("gaussian",), privacy=(0.5,),
                  algorithms=("original", "randomized", "byclass"), n_train=2000, n_test=500,
                  runs=2, rng=3, progress=False)
    df = as2000_accuracy(**kwargs)
    assert list(df.columns) == ["function", "noise", "privacy", "algorithm", "run", "accuracy",
                                "seconds", "n_leaves"]
    assert len(df) == 2 * 1 * 1 * 3 * 2
    assert df["accuracy"].between(0, 1).all()
    again = as2000_accuracy(**kwargs)
    pd.testing.assert_series_equal(df["accuracy"], again["accuracy"])
    # a smaller grid gives a subset of the rows (one generator per setting)
    one = as2000_accuracy(**{**kwargs, "functions": (4,)})
    merged = one.merge(df, on=["function", "noise", "privacy", "algorithm", "run"])
    np.testing.assert_array_equal(merged["accuracy_x"], merged["accuracy_y"])
    table = accuracy_table(df, 0.5)
    assert list(table.columns) == ["F1", "F4"]
    assert summarize(df)["runs"].eq(2).all()


@pytest.mark.parametrize("kwargs, match", [
    ({"functions": (6,)}, "functions"),
    ({"noises": ("cauchy",)}, "noises"),
    ({"privacy": (0.0,)}, "privacy"),
    ({"algorithms": ("bayes",)}, "algorithms"),
    ({"runs": 0}, "runs"),
])
def test_as2000_accuracy_bad_inputs(kwargs, match):
    with pytest.raises(ValueError, match=match):
        as2000_accuracy(**{"n_train": 100, "n_test": 50, "progress": False, **kwargs})


def test_trees_panel_messages_instead_of_crashes():
    from ppdm_edu.widgets.trees import TreesPanel

    panel = TreesPanel(n_train=2000, n_test=500, function=1, noise="uniform", privacy=100,
                       algorithms=("randomized", "byclass"))
    assert panel.error is None
    assert panel.result.accuracies["byclass"] > panel.result.accuracies["randomized"]
    panel.controls["privacy"].value = 0
    assert panel.error is not None and "privacy" in str(panel.error)
    panel.controls["privacy"].value = 200
    assert panel.error is None and panel.result.privacy == 2.0
    panel.controls["algorithms"].value = ()
    assert panel.error is not None


def test_stop_rule_reaches_every_reconstruction_and_is_seeded():
    from ppdm_edu.experiments.as2000_trees import agrawal_noise, make_classifier
    from ppdm_edu.trees.reconstruction_tree import perturb_columns

    X, y = agrawal(2_000, 1, rng=0, balanced=True)
    noises = agrawal_noise("gaussian", 1.0)
    W = perturb_columns(X, noises, rng=1)
    a = make_classifier("byclass", noises, stop="cross-validation", random_state=3).fit(W, y)
    b = make_classifier("byclass", noises, stop="cross-validation", random_state=3).fit(W, y)
    paper = make_classifier("byclass", noises).fit(W, y)
    assert {r.stop for r in a.reconstructions_.values()} == {"cross-validation"}
    assert {r.stop for r in paper.reconstructions_.values()} == {"paper"}
    assert all(np.array_equal(a.reconstructions_[k].probabilities, b.reconstructions_[k].probabilities)
               for k in a.reconstructions_)
    with pytest.raises(ValueError, match="stop must be one of"):
        make_classifier("byclass", noises, stop="never").fit(W, y)
