"""Exercises of notebook 04 (decision trees from perturbed data)."""
from __future__ import annotations

from functools import lru_cache

from .checking import Exercise, Precision, Verdict, as_number, as_numbers, as_seed, numeric_verdict, within

__all__ = ["EXERCISES"]  # the reference functions are reached through check/reference_answer

NB = "notebook 04"
P_ACC = Precision(decimals=3, what="accuracies", ratio_of_counts=True)
P_04_1 = (None, None, None, P_ACC, P_ACC)  # the seed and the leaf counts are exact
P_04_2 = Precision(decimals=2)
P_04_4 = (None, None, None, P_ACC, P_ACC)  # the seed and the reconstruction counts are exact


@lru_cache(maxsize=None)
def section2_data():
    """The training/test data of the notebook's Section 2 (Function 1, balanced)."""
    from ..datasets import agrawal
    X, y = agrawal(10_000, function=1, rng=0, balanced=True)
    X_test, y_test = agrawal(5_000, function=1, rng=1, balanced=True)
    return X, y, X_test, y_test


@lru_cache(maxsize=64)
def pruning_runs(noise_rng: int = 3) -> tuple[float, float, float, float, float, float]:
    """04.1 with noise seed ``noise_rng``: (leaves unpruned, leaves MDL-pruned, accuracy unpruned,
    accuracy pruned) on the ORIGINAL test set, then the two accuracies on a test set perturbed with
    the same noise and seed (the mistake the judge recognises)."""
    from ..datasets.synthetic import agrawal_noise
    from ..trees import DecisionTree
    from ..trees.reconstruction_tree import perturb_columns
    X, y, X_test, y_test = section2_data()
    noise = agrawal_noise("gaussian", 1.0)
    W = perturb_columns(X, noise, rng=noise_rng)
    W_test = perturb_columns(X_test, noise, rng=noise_rng)
    trees = [DecisionTree(pruning=pruning).fit(W, y) for pruning in (None, "mdl")]
    return (float(trees[0].n_leaves_), float(trees[1].n_leaves_),
            float(trees[0].score(X_test, y_test)), float(trees[1].score(X_test, y_test)),
            float(trees[0].score(W_test, y_test)), float(trees[1].score(W_test, y_test)))


def pruning_comparison(noise_rng: int = 3) -> tuple[int, float, float, float, float]:
    """Reference for 04.1: (noise seed, leaves unpruned, leaves MDL-pruned, accuracy unpruned,
    accuracy pruned) on Section 2's data with Gaussian noise at 100 % privacy, drawn with the
    stated seed."""
    return (noise_rng,) + pruning_runs(noise_rng)[:4]


def _accuracies_match(values, refs) -> bool:
    return all(within(v, r, P_ACC.tolerance(r)) for v, r in zip(values, refs))


def judge_04_1(answer) -> Verdict:
    fmt = "a 5-tuple (noise seed, leaves unpruned, leaves pruned, test accuracy unpruned, test accuracy pruned)"
    as_numbers(answer, 5, "04.1", fmt)
    seed = as_seed(answer[0], "04.1", fmt)
    _, l_raw, l_mdl, a_raw, a_mdl = as_numbers(answer, 5, "04.1", fmt)
    # The check recomputes the trees from the stated seed: leaf counts are exact, accuracies to 3
    # decimals. Invented numbers, or a test set scored after perturbation, do not reproduce.
    r_raw, r_mdl, ra_raw, ra_mdl, pa_raw, pa_mdl = pruning_runs(seed)
    if max(a_raw, a_mdl) > 1:
        return Verdict(False, "give accuracies as fractions (0 to 1), not percentages.")
    if (l_raw, l_mdl) == (r_mdl, r_raw):
        return Verdict(False, "the leaf counts look swapped: which tree can grow without limit?")
    if (l_raw, l_mdl) != (r_raw, r_mdl):
        return Verdict(False, f"the leaf counts do not match the trees built with noise seed {seed}: perturb with "
                              f"perturb_columns(X, agrawal_noise('gaussian', 1.0), rng={seed}) and read n_leaves_ "
                              "of DecisionTree(pruning=None) and DecisionTree().")
    if _accuracies_match((a_raw, a_mdl), (pa_raw, pa_mdl)):
        return Verdict(False, "these are accuracies on a PERTURBED test set: the tree is used on original "
                              "records, so score it on the original X_test, y_test.")
    if _accuracies_match((a_raw, a_mdl), (ra_mdl, ra_raw)):
        return Verdict(False, "the two accuracies look swapped.")
    if not _accuracies_match((a_raw, a_mdl), (ra_raw, ra_mdl)):
        return Verdict(False, "the accuracies do not match the trees of that seed: score each tree on the "
                              "ORIGINAL test records of Section 2 (X_test, y_test), to 3 decimals.")
    return Verdict(True, "the unpruned tree fits the noise; pruning removes it.")


def gini_split_salary_60() -> float:
    """Reference for 04.2: gini_split of salary ≤ 60 on the toy data of Section 1."""
    import numpy as np
    import pandas as pd

    from ..trees.gini import split_table
    salary = pd.Series([50, 30, 40, 50, 70, 20])
    risk = np.array(["High", "High", "High", "Low", "Low", "High"])
    table = split_table(salary, risk)
    return float(table.loc[table["threshold"].between(50, 70), "gini_split"].iloc[0])


def judge_04_2(answer) -> Verdict:
    value = as_number(answer, "04.2", "a number (gini_split)")
    ref = gini_split_salary_60()
    return numeric_verdict(value, ref, P_04_2.tolerance(ref),
                           what_to_check="check the formula: gini_split = (n_left/n) gini(left) + (n_right/n) "
                                         "gini(right), with gini = 1 − Σ p_j² on each side of salary ≤ 60.",
                           mistakes=(
        (0.32, "0.32 is the gini of the left side only: weight each side by its share of the records."),
        (0.4, "that is the split salary ≤ 25: the question is about salary ≤ 60."),
        (2 / 9, "that is the best split (age); this question is about salary ≤ 60."),
    ))


@lru_cache(maxsize=64)
def local_runs(noise_rng: int = 2, small: int = 300, large: int = 5000) -> tuple[float, float, float, float]:
    """04.4 with noise seed ``noise_rng``: (reconstructions at ``small``, at ``large``, accuracy at
    each) for Local on Section 2's data (uniform noise at 100 %)."""
    from ..datasets.synthetic import agrawal_bounds, agrawal_noise
    from ..trees import ReconstructionTree
    from ..trees.reconstruction_tree import perturb_columns
    X, y, X_test, y_test = section2_data()
    noise = agrawal_noise("uniform", 1.0)
    W = perturb_columns(X, noise, rng=noise_rng)
    out = []
    for m in (small, large):
        t = ReconstructionTree(noise, mode="local", bounds=agrawal_bounds(), local_min_records=m).fit(W, y)
        out.append((t.n_local_reconstructions_, t.score(X_test, y_test)))
    return float(out[0][0]), float(out[1][0]), float(out[0][1]), float(out[1][1])


def local_threshold_comparison(noise_rng: int = 2) -> tuple[int, float, float, float, float]:
    """Reference for 04.4: (noise seed, reconstructions at 300, at 5000, accuracy at each)."""
    return (noise_rng,) + local_runs(noise_rng)


def judge_04_4(answer) -> Verdict:
    fmt = ("a 5-tuple (noise seed, reconstructions at 300, reconstructions at 5000, accuracy at 300, "
           "accuracy at 5000)")
    as_numbers(answer, 5, "04.4", fmt)
    seed = as_seed(answer[0], "04.4", fmt)
    _, n_small, n_large, a_small, a_large = as_numbers(answer, 5, "04.4", fmt)
    # Recomputed from the stated seed: counts exact, accuracies to 3 decimals.
    r_small, r_large, ra_small, ra_large = local_runs(seed)
    if max(a_small, a_large) > 1:
        return Verdict(False, "give accuracies as fractions (0 to 1), not percentages.")
    if (n_small, n_large) == (r_large, r_small):
        return Verdict(False, "which threshold lets more (smaller) nodes be reconstructed again?")
    if (n_small, n_large) != (r_small, r_large):
        return Verdict(False, f"the reconstruction counts do not match Local with noise seed {seed}: perturb with "
                              f"perturb_columns(X, agrawal_noise('uniform', 1.0), rng={seed}), fit "
                              "ReconstructionTree(noise, mode='local', bounds=agrawal_bounds(), local_min_records=m) "
                              "and read n_local_reconstructions_.")
    if not _accuracies_match((a_small, a_large), (ra_small, ra_large)):
        return Verdict(False, "the accuracies do not match that seed's trees: use Section 2's data (Function 1, "
                              "uniform noise at 100 %) and score on the original X_test, y_test, to 3 decimals.")
    return Verdict(True, "more reconstructions, same accuracy on Function 1; try Function 2.")


EXERCISES = (
    Exercise("04.1", "Pruning matters", "structured", f"{NB}, §2 'What the server sees' and §1 (pruning)",
             "a 5-tuple (noise seed, leaves unpruned, leaves pruned, test accuracy unpruned, test accuracy pruned)",
             judge_04_1, pruning_comparison,
             tolerance="recomputed from the stated noise seed: leaf counts exact, accuracies ±0.0005 (3 decimals)",
             precision=P_04_1),
    Exercise("04.2", "Gini by hand", "numeric", f"{NB}, §1 'A decision tree by hand'",
             "a number (gini_split)", judge_04_2, gini_split_salary_60,
             tolerance="±0.005 (exact; admits 2 decimals)", precision=P_04_2),
    Exercise("04.3", "How much privacy can Randomized take?", "rubric", f"{NB}, §5 'Try it: the control panel' and §6",
             rubric=("I found, with the panel, the privacy level where Randomized drops below 70 % and noted "
                     "the panel's slider step around it.",
                     "I read ByClass's accuracy at that level and compared it with Fig. 6.",
                     "I can say why reconstruction recovers what uniform noise flattens (the class edges).")),
    Exercise("04.4", "Local's threshold", "structured", f"{NB}, §4 'Local, and the one rule it must keep' and §7",
             "a 5-tuple (noise seed, reconstructions at 300, reconstructions at 5000, accuracy at 300, "
             "accuracy at 5000)", judge_04_4, local_threshold_comparison,
             tolerance="recomputed from the stated noise seed: counts exact, accuracies ±0.0005 (3 decimals)",
             precision=P_04_4),
)
