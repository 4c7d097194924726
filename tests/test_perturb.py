"""One ``perturb`` (issue 28 §2) with real numbers only (issue 27 §8)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ppdm_edu.randomization import GaussianNoise, LaplaceNoise, UniformNoise, perturb

X = np.random.default_rng(0).normal(size=(50, 3))
NOISES = {0: GaussianNoise(0.5), 2: UniformNoise(2.0)}


def test_mapping_draws_each_column_in_turn_from_one_stream():
    """The documented stream layout: column after column, in the mapping's order."""
    gen = np.random.default_rng(7)
    expected = X.copy()
    for j, nz in NOISES.items():
        expected[:, j] = X[:, j] + nz.sample(len(X), gen)
    np.testing.assert_array_equal(perturb(X, NOISES, rng=7), expected)
    assert (perturb(X, NOISES, rng=7)[:, 1] == X[:, 1]).all()


def test_the_columns_noises_are_independent():
    same = {0: GaussianNoise(1.0), 1: GaussianNoise(1.0)}
    r = perturb(np.zeros((20_000, 2)), same, rng=1)
    assert abs(np.corrcoef(r[:, 0], r[:, 1])[0, 1]) < 0.03
    assert not np.array_equal(r[:, 0], r[:, 1])


def test_one_noise_on_an_array_is_one_draw_of_its_shape():
    np.testing.assert_array_equal(perturb(X, GaussianNoise(0.5), rng=3),
                                  X + GaussianNoise(0.5).sample(X.shape, rng=3))


def test_frame_keeps_columns_index_and_untouched_dtypes():
    frame = pd.DataFrame({"age": [30.0, 40.0, 50.0], "code": [1, 2, 3]}, index=[7, 8, 9])
    out = perturb(frame, {"age": LaplaceNoise(1.0)}, rng=0)
    assert list(out.columns) == ["age", "code"] and list(out.index) == [7, 8, 9]
    assert out["code"].dtype == frame["code"].dtype and (out["code"] == frame["code"]).all()
    np.testing.assert_array_equal(out["age"], perturb(frame.to_numpy(float), {0: LaplaceNoise(1.0)}, rng=0)[:, 0])
    every = perturb(frame, GaussianNoise(1.0), rng=0)  # one noise on a frame: every column
    assert (every["code"] != frame["code"]).all()


def test_unit_rescales_the_given_draws():
    unit = np.random.default_rng(5).standard_normal((len(X), 2))
    out = perturb(X, NOISES, unit=unit)
    np.testing.assert_array_equal(out[:, 0], X[:, 0] + 0.5 * unit[:, 0])
    np.testing.assert_array_equal(out[:, 2], X[:, 2] + 2.0 * unit[:, 1])
    with pytest.raises(ValueError, match="not both"):
        perturb(X, NOISES, rng=0, unit=unit)
    with pytest.raises(ValueError, match=r"unit must have shape \(50, 2\)"):
        perturb(X, NOISES, unit=unit[:, :1])


@pytest.mark.parametrize("bad, match", [
    (np.ma.array([1.0, 1e6], mask=[False, True]), "masked array"),
    (np.array([1 + 2j, 3.0]), "complex"),
    (np.array(["2020-01-01", "2021-01-01"], dtype="datetime64[ns]"), "datetimes"),
    (np.array([1, 2], dtype="timedelta64[s]"), "datetimes or durations"),
    (np.array(["1", "2"], dtype=object), "Python objects"),
    (np.array(["1", "2"]), "text"),
    (pd.DataFrame({"t": pd.to_datetime(["2020-01-01", "2021-01-01"])}), "datetimes"),
])
def test_only_real_numbers_are_perturbed(bad, match):
    with pytest.raises(TypeError, match=f"x .*{match}"):
        perturb(bad, GaussianNoise(1.0), rng=0)


def test_mapping_errors_name_the_problem():
    with pytest.raises(ValueError, match="2-D table"):
        perturb([1.0, 2.0], {0: GaussianNoise(1.0)}, rng=0)
    with pytest.raises(ValueError, match="unknown column"):
        perturb(X, {5: GaussianNoise(1.0)}, rng=0)
    with pytest.raises(TypeError, match="noise"):
        perturb(X, 1.0, rng=0)


def test_liu_perturb_every_column_refuses_too_few_noises_and_nan():
    from ppdm_edu.experiments import liu

    noises = [GaussianNoise(1.0)] * 3
    np.testing.assert_array_equal(liu.perturb_every_column(X, noises, rng=2), perturb(X, dict(enumerate(noises)), rng=2))
    with pytest.raises(ValueError, match="one Noise per column of X"):
        liu.perturb_every_column(X, noises[:2], rng=0)
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="X contains 1 NaN"):
        liu.perturb_every_column(bad, noises, rng=0)
