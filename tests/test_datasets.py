"""Bundled Adult data and the synthetic generators (issue 2)."""
import gzip

import numpy as np
import pandas as pd
import pytest

from ppdm_edu import datasets
from ppdm_edu.datasets import adult as adult_module


def test_adult_shapes_columns_and_labels():
    train, test = datasets.load_adult("train").frame, datasets.load_adult("test").frame
    assert train.shape == (32_561, 15)
    assert test.shape == (16_281, 15)
    assert list(train.columns) == datasets.ADULT_COLUMNS + ["income"]
    assert set(train["income"].unique()) == {0, 1}
    assert set(test["income"].unique()) == {0, 1}
    # the well-known class balance of Adult: about 24 % earn >50K
    assert 0.23 < train["income"].mean() < 0.25
    assert 0.23 < test["income"].mean() < 0.25


def test_adult_missing_values_are_nan_not_question_marks():
    train = datasets.load_adult("train").frame
    for col in datasets.ADULT_CATEGORICAL:
        assert not (train[col].astype(str).str.strip() == "?").any(), col
    # workclass, occupation and native_country have missing values in the UCI file
    assert train["workclass"].isna().sum() == 1836
    assert train["occupation"].isna().sum() == 1843
    assert train["native_country"].isna().sum() == 583
    for col in datasets.ADULT_CONTINUOUS:
        assert train[col].notna().all()
        assert pd.api.types.is_integer_dtype(train[col])


def test_adult_first_record_parsed():
    row = datasets.load_adult("train").frame.iloc[0]
    assert row["age"] == 39 and row["workclass"] == "State-gov" and row["fnlwgt"] == 77516
    assert row["education_num"] == 13 and row["capital_gain"] == 2174 and row["income"] == 0
    test_row = datasets.load_adult("test").frame.iloc[0]  # the comment line is skipped
    assert test_row["age"] == 25 and test_row["income"] == 0


def test_adult_returns_a_copy():
    a = datasets.load_adult("train").frame
    a.loc[0, "age"] = -1
    assert datasets.load_adult("train").frame.loc[0, "age"] == 39


def test_adult_bad_split():
    with pytest.raises(ValueError, match="'train' or 'test'"):
        datasets.load_adult("validation")


@pytest.fixture
def fake_data_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(adult_module, "_data_path", lambda name: tmp_path / name)
    adult_module._load.cache_clear()
    yield tmp_path
    adult_module._load.cache_clear()


def test_tampered_file_names_file_and_expected_hash(fake_data_dir):
    original = gzip.decompress(adult_module.resources.files("ppdm_edu.datasets")
                               .joinpath("data", "adult.data.gz").read_bytes())
    tampered = original.replace(b"State-gov", b"State-gox", 1)
    (fake_data_dir / "adult.data.gz").write_bytes(gzip.compress(tampered))
    with pytest.raises(datasets.DataIntegrityError) as info:
        datasets.load_adult("train")
    message = str(info.value)
    assert "adult.data.gz" in message
    assert "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d" in message


def test_missing_file_is_reported(fake_data_dir):
    with pytest.raises(datasets.DataIntegrityError, match="adult.test.gz.*missing"):
        datasets.load_adult("test")


def test_corrupt_gzip_is_reported(fake_data_dir):
    (fake_data_dir / "adult.test.gz").write_bytes(b"not a gzip file")
    with pytest.raises(datasets.DataIntegrityError, match="adult.test.gz"):
        datasets.load_adult("test")


# --- Agrawal & Srikant synthetic data --------------------------------------------------------

def test_agrawal_attribute_domains_and_types():
    X, y = datasets.agrawal(20_000, function=1, rng=0)
    assert list(X.columns) == datasets.AGRAWAL_ATTRIBUTES
    for col, (lo, hi) in datasets.AGRAWAL_DOMAINS.items():
        assert X[col].min() >= lo and X[col].max() <= hi, col
    for col in ("elevel", "car", "zipcode"):
        assert pd.api.types.is_integer_dtype(X[col]), col
    assert sorted(X["elevel"].unique()) == [0, 1, 2, 3, 4]
    assert sorted(X["car"].unique()) == list(range(1, 21))
    assert sorted(X["zipcode"].unique()) == list(range(9))
    rich = X["salary"] >= 75_000
    assert (X.loc[rich, "commission"] == 0).all()
    assert X.loc[~rich, "commission"].between(10_000, 75_000).all()
    k = 9 - X["zipcode"]
    assert (X["hvalue"] >= 0.5 * k * 100_000).all() and (X["hvalue"] <= 1.5 * k * 100_000).all()
    assert y.dtype.kind == "i" and set(np.unique(y)) <= {0, 1}


@pytest.mark.parametrize("function", [1, 2, 3, 4, 5])
def test_agrawal_labels_follow_table_3(function):
    X, y = datasets.agrawal(5_000, function=function, rng=function)
    age, salary, elevel = X["age"], X["salary"], X["elevel"]
    if function == 1:
        expected = (age < 40) | (age >= 60)
    elif function == 2:
        expected = (((age < 40) & salary.between(50e3, 100e3))
                    | ((age >= 40) & (age < 60) & salary.between(75e3, 125e3))
                    | ((age >= 60) & salary.between(25e3, 75e3)))
    elif function == 3:
        expected = (((age < 40) & ((elevel.isin([0, 1]) & salary.between(25e3, 75e3))
                                   | (elevel.isin([2, 3]) & salary.between(50e3, 100e3))))
                    | ((age >= 40) & (age < 60) & ((elevel.isin([1, 2, 3]) & salary.between(50e3, 100e3))
                                                   | ((elevel == 4) & salary.between(75e3, 125e3))))
                    | ((age >= 60) & ((elevel.isin([2, 3, 4]) & salary.between(50e3, 100e3))
                                      | ((elevel == 1) & salary.between(25e3, 75e3)))))
    else:
        disposable = 0.67 * (salary + X["commission"]) - 0.2 * X["loan"] - 10_000
        if function == 5:
            disposable = disposable + 0.2 * 0.1 * X["hvalue"] * np.maximum(X["hyears"] - 20, 0)
        expected = disposable > 0
    np.testing.assert_array_equal(y, expected.to_numpy().astype(int))
    assert 0.05 < y.mean() < 0.95  # both groups occur


def test_agrawal_balanced_and_reproducible():
    X1, y1 = datasets.agrawal(1_001, function=2, rng=7, balanced=True)
    X2, y2 = datasets.agrawal(1_001, function=2, rng=7, balanced=True)
    assert int(y1.sum()) == 500 and len(y1) == 1_001
    pd.testing.assert_frame_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    X3, _ = datasets.agrawal(1_001, function=2, rng=8, balanced=True)
    assert not X1.equals(X3)


def test_agrawal_accepts_generator():
    rng = np.random.default_rng(3)
    X, y = datasets.agrawal(100, function=4, rng=rng)
    assert len(X) == 100


@pytest.mark.parametrize("bad", [0, 6, "1", 1.0, None])
def test_agrawal_bad_function(bad):
    with pytest.raises(ValueError, match=r"\(1, 2, 3, 4, 5\)"):
        datasets.agrawal(10, function=bad)


@pytest.mark.parametrize("bad", [0, -5, 2.5, True])
def test_agrawal_bad_n(bad):
    with pytest.raises(ValueError, match="positive integer"):
        datasets.agrawal(bad, function=1)


@pytest.mark.parametrize("sampler, pdf", [(datasets.plateau, datasets.plateau_pdf),
                                          (datasets.triangles, datasets.triangles_pdf)])
def test_fig2_shapes_match_their_documented_density(sampler, pdf):
    x = sampler(200_000, rng=0)
    assert x.min() >= 0 and x.max() <= 1
    edges = np.linspace(0, 1, 21)
    observed = np.histogram(x, bins=edges)[0] / x.size
    grid = np.linspace(0, 1, 20_001)
    dens = pdf(grid)
    assert abs(np.trapezoid(dens, grid) - 1) < 1e-3
    mids = np.linspace(0.025, 0.975, 20)
    expected = np.array([np.trapezoid(pdf(np.linspace(a, b, 201)), np.linspace(a, b, 201))
                         for a, b in zip(edges[:-1], edges[1:])])
    assert np.abs(observed - expected).max() < 0.005, (mids, observed, expected)
    np.testing.assert_array_equal(sampler(50, rng=1), sampler(50, rng=1))


def test_fig2_shapes_bad_n():
    with pytest.raises(ValueError):
        datasets.plateau(0)
    with pytest.raises(ValueError):
        datasets.triangles(-1)


def test_load_adult_follows_the_scikit_learn_loader_convention():
    adult = datasets.load_adult("train")
    assert list(adult.frame.columns) == datasets.ADULT_COLUMNS + ["income"]
    assert adult.feature_names == datasets.ADULT_COLUMNS
    assert adult.data.shape == (32_561, 14) and adult.target.shape == (32_561,)
    assert adult.target_names == ["<=50K", ">50K"] and "UCI Adult" in adult.DESCR
    X, y = datasets.load_adult("test", return_X_y=True)
    assert X.shape == (16_281, 14) and set(y.unique()) == {0, 1}
    Xa, ya = datasets.load_adult("test", return_X_y=True, as_frame=False)
    assert isinstance(Xa, np.ndarray) and Xa.shape == X.shape and (ya == y.to_numpy()).all()
    # the frame is a copy: editing it does not change the next load
    adult.frame.loc[0, "age"] = -1
    assert datasets.load_adult("train").frame.loc[0, "age"] == 39


@pytest.mark.parametrize("split", [["train"], None, 1])
def test_load_adult_names_a_bad_split(split):
    with pytest.raises(ValueError, match="split must be 'train' or 'test'"):
        datasets.load_adult(split)
