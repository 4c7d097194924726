"""The UCI Adult ("Census Income") data, shipped inside the package (see data/PROVENANCE.md).

The gzip files are the original UCI bytes. :func:`load_adult` checks the sha256 of the
decompressed bytes against the values in PROVENANCE.md before parsing, so a missing, truncated
or edited file is reported by name instead of silently changing every result downstream.
"""
from __future__ import annotations

import functools
import gzip
import hashlib
import io
from importlib import resources

import pandas as pd

from .._validation import check_bool

__all__ = ["load_adult", "ADULT_COLUMNS", "ADULT_CONTINUOUS", "ADULT_CATEGORICAL", "DataIntegrityError"]

ADULT_COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education_num", "marital_status",
    "occupation", "relationship", "race", "sex", "capital_gain", "capital_loss",
    "hours_per_week", "native_country",
]
ADULT_CONTINUOUS = ["age", "fnlwgt", "education_num", "capital_gain", "capital_loss", "hours_per_week"]
ADULT_CATEGORICAL = [c for c in ADULT_COLUMNS if c not in ADULT_CONTINUOUS]

# sha256 of the decompressed files, from data/PROVENANCE.md (UCI originals).
_FILES = {
    "train": ("adult.data.gz", "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d", 32_561),
    "test": ("adult.test.gz", "a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05", 16_281),
}


class DataIntegrityError(RuntimeError):
    """A bundled data file is missing or its content differs from the published one."""


def _data_path(filename: str):
    """Where a bundled file lives (inside the installed package)."""
    return resources.files("ppdm_edu.datasets").joinpath("data").joinpath(filename)


def _read_verified(filename: str, expected_sha256: str) -> bytes:
    path = _data_path(filename)
    try:
        compressed = path.read_bytes()
    except FileNotFoundError:
        raise DataIntegrityError(
            f"bundled data file {filename} is missing from {path}; reinstall ppdm-edu "
            f"(expected sha256 of its decompressed bytes: {expected_sha256})"
        ) from None
    try:
        raw = gzip.decompress(compressed)
    except (OSError, EOFError) as err:
        raise DataIntegrityError(
            f"bundled data file {filename} is not a valid gzip file ({err}); expected the UCI "
            f"original whose decompressed sha256 is {expected_sha256}"
        ) from None
    digest = hashlib.sha256(raw).hexdigest()
    if digest != expected_sha256:
        raise DataIntegrityError(
            f"bundled data file {filename} has been altered: sha256 of its decompressed bytes is "
            f"{digest}, expected {expected_sha256} (see ppdm_edu/datasets/data/PROVENANCE.md)"
        )
    return raw


@functools.lru_cache(maxsize=2)
def _load(split: str) -> pd.DataFrame:
    filename, sha, n_rows = _FILES[split]
    raw = _read_verified(filename, sha)
    frame = pd.read_csv(
        io.BytesIO(raw),
        header=None,
        names=ADULT_COLUMNS + ["income"],
        skipinitialspace=True,
        na_values=["?"],
        # the test file opens with the comment line "|1x3 Cross validator"
        skiprows=1 if split == "test" else 0,
        skip_blank_lines=True,
    )
    label = frame["income"].astype(str).str.strip().str.rstrip(".")
    if not label.isin([">50K", "<=50K"]).all():
        raise DataIntegrityError(f"{filename}: unexpected income labels {sorted(set(label) - {'>50K', '<=50K'})}")
    frame["income"] = (label == ">50K").astype("int64")
    for col in ADULT_CONTINUOUS:
        frame[col] = frame[col].astype("int64")
    if len(frame) != n_rows:
        raise DataIntegrityError(f"{filename}: parsed {len(frame)} rows, expected {n_rows}")
    return frame


def load_adult(split: str = "train", *, return_X_y: bool = False, as_frame: bool = True):
    """Load the UCI Adult data (offline; bundled with the package), as scikit-learn's loaders do.

    Parameters
    ----------
    split : {"train", "test"}
        ``"train"`` is adult.data (32,561 rows), ``"test"`` is adult.test (16,281 rows).
    return_X_y : bool, default False
        Return ``(data, target)`` instead of a Bunch.
    as_frame : bool, default True
        ``data`` as a DataFrame and ``target`` as a Series (the attributes are mixed numeric and
        categorical, with missing values); ``False`` gives object/integer numpy arrays.

    Returns
    -------
    sklearn.utils.Bunch or tuple
        A Bunch (a dict whose keys are also attributes) with ``frame`` (all 15 columns: the 14
        attributes ``age, workclass, fnlwgt, education, education_num, marital_status,
        occupation, relationship, race, sex, capital_gain, capital_loss, hours_per_week,
        native_country`` and ``income``, 1 = ">50K", 0 = "<=50K"; a "?" in the file is NaN),
        ``data`` (the 14 attributes), ``target`` (``income``), ``feature_names``,
        ``target_names`` (``["<=50K", ">50K"]``) and ``DESCR``; or ``(data, target)`` with
        ``return_X_y=True``.

    Raises
    ------
    DataIntegrityError
        If the bundled file is missing or its decompressed sha256 differs from the UCI original.

    Examples
    --------
    >>> adult = load_adult("train")
    >>> adult.frame.shape, adult.data.shape, adult.target.mean().round(3)
    ((32561, 15), (32561, 14), np.float64(0.241))
    >>> X, y = load_adult("test", return_X_y=True)
    >>> X.shape
    (16281, 14)
    """
    if not isinstance(split, str) or split not in _FILES:
        raise ValueError(f"split must be 'train' or 'test', got {split!r}")
    return_X_y, as_frame = check_bool(return_X_y, "return_X_y"), check_bool(as_frame, "as_frame")
    frame = _load(split).copy()
    data, target = frame[ADULT_COLUMNS], frame["income"]
    if not as_frame:
        data, target = data.to_numpy(dtype=object), target.to_numpy()
    if return_X_y:
        return data, target
    from sklearn.utils import Bunch

    filename, _, n_rows = _FILES[split]
    return Bunch(frame=frame, data=data, target=target, feature_names=list(ADULT_COLUMNS),
                 target_names=["<=50K", ">50K"],
                 DESCR=f"UCI Adult ({filename}, {n_rows:,} rows): census records of 1994 with "
                       "income > $50K as the class; see ppdm_edu/datasets/data/PROVENANCE.md.")
