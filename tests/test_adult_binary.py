"""Tests for ppdm_edu.datasets.adult_binary (Du & Zhan Section 5.1 preprocessing)."""
import numpy as np
import pytest

from ppdm_edu.datasets import ADULT_COLUMNS, adult_binary, load_adult


@pytest.fixture(scope="module")
def data():
    return adult_binary()


def test_shapes_split_and_dtype(data):
    assert data.train.shape == (8_000, 15) and data.test.shape == (2_000, 15)
    assert list(data.train.index[[0, -1]]) == [0, 7_999]
    assert list(data.test.index[[0, -1]]) == [8_000, 9_999]
    assert data.feature_names == tuple(ADULT_COLUMNS) and data.target == "income"
    assert list(data.train.columns) == ADULT_COLUMNS + ["income"]
    assert set(np.unique(data.data.to_numpy())) <= {0, 1}
    assert (data.train.dtypes == np.uint8).all()
    assert data.X_train.shape == (8_000, 14) and data.y_test.shape == (2_000,)


def test_range_midpoint_rule_is_literal(data):
    raw = load_adult("train").frame.iloc[:10_000]
    mid = (raw.age.min() + raw.age.max()) / 2
    assert data.rules.loc["age", "split"] == mid == 53.5
    np.testing.assert_array_equal(data.data.age.to_numpy(), (raw.age > mid).to_numpy().astype(int))
    # the literal rule leaves these almost constant (noted in notebook 05)
    for col in ("capital_gain", "capital_loss", "fnlwgt"):
        assert data.rules.loc[col, "share_of_ones"] < 0.01


def test_median_alternative_is_more_balanced():
    med = adult_binary(threshold="median")
    raw = load_adult("train").frame.iloc[:10_000]
    assert med.rules.loc["fnlwgt", "split"] == raw.fnlwgt.median()
    assert 0.45 < med.rules.loc["fnlwgt", "share_of_ones"] < 0.55
    assert med.rules.loc["capital_gain", "share_of_ones"] > 0.05


def test_categorical_most_frequent_and_missing(data):
    raw = load_adult("train").frame.iloc[:10_000]
    assert data.rules.loc["workclass", "split"] == "Private"
    missing = raw.workclass.isna().to_numpy()
    assert missing.sum() > 0
    assert (data.data.workclass.to_numpy()[missing] == 0).all()  # '?' is "not the most frequent"
    assert data.data.workclass.mean() == pytest.approx((raw.workclass == "Private").mean())


def test_label_and_determinism(data):
    raw = load_adult("train").frame.iloc[:10_000]
    np.testing.assert_array_equal(data.data.income.to_numpy(), raw.income.to_numpy())
    again = adult_binary()
    assert again.train.equals(data.train) and again.test.equals(data.test)


def test_bad_arguments():
    with pytest.raises(ValueError, match="threshold"):
        adult_binary(threshold="mean")
    with pytest.raises(ValueError, match="n must be"):
        adult_binary(n=40_000)
    with pytest.raises(ValueError, match="n_train"):
        adult_binary(n=100, n_train=100)
    small = adult_binary(n=100)
    assert len(small.train) == 80 and len(small.test) == 20
