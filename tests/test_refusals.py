"""Inputs that would be silently wrong or unclear: each is refused (or warned about) at the
boundary, naming the argument, the value and what is allowed."""
from __future__ import annotations

import math
import traceback

import numpy as np
import pandas as pd
import pytest

from ppdm_edu import GaussianNoise, perturb
from ppdm_edu.experiments import du_zhan, liu
from ppdm_edu.experiments.report import verdict
from ppdm_edu.privacy import privacy_by_attribute
from ppdm_edu.randomization import discretize
from ppdm_edu.randomized_response import mrr_solve, warner_disguise
from ppdm_edu.reconstruction import default_n_intervals, reconstruct
from ppdm_edu.trees.reconstruction_tree import ReconstructionTree


# -- 9. far more intervals than records -----------------------------------------------------
def test_more_intervals_than_records_warns_and_says_why():
    noise = GaussianNoise(0.1)
    w = perturb(np.random.default_rng(0).uniform(0, 1, 2_000), noise, rng=1)
    with pytest.warns(UserWarning, match=r"5000 intervals for 2000 records.*close to its uniform start"):
        rec = reconstruct(w, noise, bounds=(0, 1), n_intervals=5_000)
    assert rec.n_iter <= 2   # what the warning says: the stop rule fires at once


def test_enough_records_per_interval_gives_no_warning(recwarn):
    noise = GaussianNoise(0.1)
    w = perturb(np.random.default_rng(0).uniform(0, 1, 2_000), noise, rng=1)
    reconstruct(w, noise, bounds=(0, 1), n_intervals=20)
    assert not [w for w in recwarn if issubclass(w.category, UserWarning)]


# -- 10. a true message, raised at the boundary --------------------------------------------------
def test_reconstruction_tree_says_what_is_wrong_in_fit_itself():
    with pytest.raises(ValueError) as err:
        ReconstructionTree(GaussianNoise(0.5)).fit([[0], [1000]], [0, 1])
    message = str(err.value)
    assert "none of the perturbed values can come from the domain" not in message  # the false one
    assert "column 0" in message and "class 1" in message and "n_intervals" in message, message
    frames = traceback.extract_tb(err.value.__traceback__)
    assert frames[-1].name == "fit" and frames[-1].filename.endswith("reconstruction_tree.py"), frames


# -- 11. the experiments helpers and the library functions the sweep did not reach -------------
@pytest.mark.parametrize("args, error, match", [
    ((1.0, math.nan, 0.1), ValueError, "ours"),
    ((1.0, 1.0, -1), ValueError, "tolerance must be >= 0"),
    ((math.nan, 1.0, 0.1), ValueError, "paper"),
    ((1.0, "1.0", 0.1), TypeError, "ours"),
])
def test_verdict_refuses_nan_and_a_negative_tolerance(args, error, match):
    with pytest.raises(error, match=match):
        verdict(*args)


def test_rr_theta_sweep_refuses_data_that_is_not_a_binary_adult():
    with pytest.raises(TypeError, match="data must be a BinaryAdult.*got str"):
        du_zhan.rr_theta_sweep(thetas=[0.7], runs=1, data="foo", progress=False)


@pytest.mark.parametrize("bounds, noises, match", [
    ([(0.0, 1.0)], 2, "bounds must have one entry per column of W \\(2\\), got 1"),
    ([(0.0, 1.0)] * 2, 1, "noises must have one entry per column of W \\(2\\), got 1"),
])
def test_reconstruct_by_class_refuses_short_lists(bounds, noises, match):
    W = np.random.default_rng(0).uniform(0, 1, (50, 2))
    with pytest.raises(ValueError, match=match):
        liu.reconstruct_by_class(W, np.zeros(50), [GaussianNoise(0.1)] * noises, bounds)


def test_privacy_by_attribute_names_a_string_column():
    frame = pd.DataFrame({"age": np.arange(50.0), "city": ["x"] * 50})
    with pytest.raises(TypeError, match="frame column 'city' must be numeric.*dtype"):
        privacy_by_attribute(frame, 1.0, rng=0)


@pytest.mark.parametrize("origin, error", [(math.nan, ValueError), ("0", TypeError)])
def test_discretize_refuses_a_nan_origin(origin, error):
    with pytest.raises(error, match="origin"):
        discretize([3.0, 14.0], width=10.0, origin=origin)


def test_default_n_intervals_refuses_text_by_name():
    with pytest.raises(TypeError, match=r"\bn\b.*'100'"):
        default_n_intervals("100")


def test_mrr_solve_names_mismatched_shapes():
    with pytest.raises(ValueError, match=r"p_star_e and p_star_ebar.*\(3,\) and \(2,\)"):
        mrr_solve([0.2, 0.3, 0.5], [0.5, 0.5], 0.7)


def test_warner_disguise_mentions_the_missing_values():
    truth = pd.array([True, None, False], dtype="boolean")
    with pytest.raises(ValueError, match=r"truth has 1 missing value"):
        warner_disguise(truth, 0.7, rng=0)
