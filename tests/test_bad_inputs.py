"""Bad input gets a clear error at the boundary, never a NaN result or a numpy traceback.

The first table holds the gaps found by a systematic sweep of the public API (NaN, inf, empty,
wrong shapes, wrong types, out-of-range parameters, predict/score before fit); each case
returned NaN/inf, a silently wrong number or an AttributeError before the fix. The second
table keeps the boundary checks that were already right from regressing. The last test drives
every control of every panel to its extremes.
"""
from __future__ import annotations

import re

import ipywidgets as widgets
import numpy as np
import pandas as pd
import pytest

from ppdm_edu import attacks, datasets, ldp, randomization, randomized_response, reconstruction
from ppdm_edu.naive_bayes import PerturbedGaussianNB
from ppdm_edu.trees import (
    C45,
    ID3,
    PPDTC45,
    RRID3,
    DecisionTree,
    ReconstructionTree,
    c45,
    reconstruction_tree,
)

nan, inf = np.nan, np.inf
G = randomization.GaussianNoise(1.0)
_rng = np.random.default_rng(0)
X = _rng.normal(size=(40, 3))
Y = np.repeat([0, 1], 20)
B = _rng.integers(0, 2, size=(40, 3))
x = _rng.normal(size=50)
XF = pd.DataFrame(X, columns=["a", "b", "c"])

# (id, call, exception type, regex the message must match: it names what is wrong)
FIXED = [
    # randomized response: out-of-range theta / n / pi gave a number, NaN or inf
    ("warner_std_error theta<0", lambda: randomized_response.warner_std_error(0.3, -0.1, 100),
     ValueError, r"theta must be between 0 and 1"),
    ("warner_std_error theta>1", lambda: randomized_response.warner_std_error(0.3, 1.1, 100),
     ValueError, r"theta must be between 0 and 1"),
    ("warner_std_error theta nan", lambda: randomized_response.warner_std_error(0.3, nan, 100),
     ValueError, r"theta"),
    ("warner_std_error theta None", lambda: randomized_response.warner_std_error(0.3, None, 100),
     TypeError, r"theta"),
    ("warner_std_error n=0", lambda: randomized_response.warner_std_error(0.3, 0.7, 0),
     ValueError, r"n must be .*> 0"),
    ("warner_std_error n<0", lambda: randomized_response.warner_std_error(0.3, 0.7, -1),
     ValueError, r"n must be .*> 0"),
    ("warner_std_error pi nan", lambda: randomized_response.warner_std_error(nan, 0.7, 10),
     ValueError, r"pi must be a proportion between 0 and 1"),
    ("sample_size_factor theta>1", lambda: randomized_response.sample_size_factor(0.3, 1.1),
     ValueError, r"theta must be between 0 and 1"),
    ("sample_size_factor theta nan", lambda: randomized_response.sample_size_factor(0.3, nan),
     ValueError, r"theta"),
    ("sample_size_factor pi=0", lambda: randomized_response.sample_size_factor(0.0, 0.7),
     ValueError, r"pi must be strictly between 0 and 1"),
    ("sample_size_factor pi=1", lambda: randomized_response.sample_size_factor(1.0, 0.7),
     ValueError, r"pi must be strictly between 0 and 1"),
    # attacks: NaN / inf / None went into the RMSE
    ("relative_rmse nan", lambda: attacks.relative_rmse([1.0, nan], [1.0, 2.0]),
     ValueError, r"estimate contains 1 NaN"),
    ("relative_rmse inf in X", lambda: attacks.relative_rmse([1.0, 2.0], [1.0, inf]),
     ValueError, r"X contains 1 NaN or infinite"),
    ("relative_rmse None", lambda: attacks.relative_rmse(None, None),
     ValueError, r"estimate contains"),
    # reconstruction helpers
    ("total_variation nan", lambda: reconstruction.total_variation([nan, 0.5], [0.5, 0.5]),
     ValueError, r"p contains 1 NaN"),
    ("total_variation empty", lambda: reconstruction.total_variation([], []),
     ValueError, r"empty"),
    ("chi2_threshold level=1", lambda: reconstruction.chi2_threshold(5, level=1.0),
     ValueError, r"level must be strictly between 0 and 1"),
    ("chi2_threshold m=0", lambda: reconstruction.chi2_threshold(0),
     ValueError, r"m \(number of intervals\) must be an integer >= 1"),
    ("default_n_intervals n=0", lambda: reconstruction.default_n_intervals(0),
     ValueError, r"n \(number of records\) must be >= 1"),
    ("default_n_intervals n<0", lambda: reconstruction.default_n_intervals(-5),
     ValueError, r"n \(number of records\) must be >= 1"),
    # randomization: the message names the argument
    ("perturb strings", lambda: randomization.perturb("abc", G, rng=0),
     TypeError, r"x must be numeric, got text"),
    ("laplace_mechanism strings", lambda: ldp.laplace_mechanism("ab", 1.0, (0, 1), rng=0),
     TypeError, r"x must be numeric, got text"),
    # datasets: a density of NaN is not a number
    ("plateau_pdf nan", lambda: datasets.plateau_pdf([0.5, nan]),
     ValueError, r"x contains NaN or infinite"),
    ("triangles_pdf inf", lambda: datasets.triangles_pdf([inf]),
     ValueError, r"x contains NaN or infinite"),
    ("plateau_pdf None", lambda: datasets.plateau_pdf(None), TypeError, r"x must be a number"),
    # tree helpers: NaN gave NaN (or a silent assignment)
    ("c45.entropy nan", lambda: c45.entropy([nan, 2.0]), ValueError, r"counts contains 1 NaN"),
    ("c45.add_errors confidence=0", lambda: c45.add_errors(5, 1, confidence=0),
     ValueError, r"confidence must be in \(0, 0.5\]"),
    ("c45.add_errors n nan", lambda: c45.add_errors(nan, 1), ValueError, r"n must be finite"),
    ("assign_intervals nan", lambda: reconstruction_tree.assign_intervals([1.0, nan], [1, 1]),
     ValueError, r"w contains 1 NaN"),
    # estimators: score before fit / with mismatched y, NaN labels
    ("ID3.score before fit", lambda: ID3().score(B, Y), ValueError, r"not fitted yet"),
    ("RRID3.score before fit", lambda: RRID3(0.7).score(B, Y), ValueError, r"not fitted yet"),
    ("C45.score len(y) mismatch", lambda: C45().fit(X, Y).score(X, Y[:5]),
     ValueError, r"inconsistent numbers of samples: \[5, 40\]"),
    ("PPDTC45.score len(y) mismatch",
     lambda: PPDTC45(G, random_state=0).fit(X, Y).score(X, Y[:5]),
     ValueError, r"inconsistent numbers of samples: \[5, 40\]"),
    ("C45.predict other column names",
     lambda: C45().fit(XF, Y).predict(XF[["b", "a", "c"]]), ValueError, r"feature names should match those that were passed during fit"),
    ("PPDTC45.predict other column names",
     lambda: PPDTC45(G, random_state=0).fit(XF, Y).predict(XF.rename(columns={"a": "z"})),
     ValueError, r"feature names should match those that were passed during fit"),
    ("PerturbedGaussianNB.score len(y) mismatch",
     lambda: PerturbedGaussianNB(G).fit(X, Y).score(X, Y[:5]),
     ValueError, r"inconsistent numbers of samples: \[5, 40\]"),
    ("ID3.fit y None", lambda: ID3().fit(B, None), ValueError, r"requires y to be passed"),
    ("RRID3.fit y None", lambda: RRID3(0.7).fit(B, None), ValueError, r"requires y to be passed"),
    ("PerturbedGaussianNB.fit y NaN",
     lambda: PerturbedGaussianNB(G).fit(X, np.where(Y == 1, nan, 0.0)),
     ValueError, r"y contains NaN or infinite labels"),
]


@pytest.mark.parametrize("call, error, message", [c[1:] for c in FIXED], ids=[c[0] for c in FIXED])
def test_gap_found_by_the_sweep_now_raises_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_valid_inputs_of_the_fixed_functions_still_work():
    # warner_std_error stays vectorized and keeps inf at theta = 1/2 (documented: plotted as an
    # asymptote); pi must be a proportion (warner_estimate passes its clipped estimate)
    se = randomized_response.warner_std_error(0.3, np.array([0.0, 0.5, 0.8, 1.0]), 1000)
    assert np.isinf(se[1]) and np.all(np.isfinite(se[[0, 2, 3]]))
    with pytest.raises(ValueError, match="pi must be a proportion"):
        randomized_response.warner_std_error(-0.05, 0.6, 100)
    assert round(randomized_response.sample_size_factor(0.3, 0.8), 2) == 3.12
    assert reconstruction.chi2_threshold(10, tol=0.0) == 0.0
    assert reconstruction.default_n_intervals(1) == 10
    assert reconstruction.total_variation([0.5, 0.5], [1.0, 0.0]) == 0.5
    assert datasets.plateau_pdf([]).size == 0
    assert attacks.relative_rmse([[1.0, 2.0]], [[0.0, 2.0]], scale=[2.0, 1.0]) == pytest.approx(0.35355339)
    assert PerturbedGaussianNB(G).fit(X, Y).score(X, list(Y)) > 0.3


# Boundary checks that were already right (guards against regressions)
ESTIMATORS = {
    "DecisionTree": (DecisionTree, X),
    "ReconstructionTree": (lambda: ReconstructionTree(G), X),
    "ID3": (ID3, B),
    "RRID3": (lambda: RRID3(0.7), B),
    "C45": (C45, X),
    "PPDTC45": (lambda: PPDTC45(G, random_state=0), X),
    "PerturbedGaussianNB": (lambda: PerturbedGaussianNB(G), X),
}


def _with_nan(A):
    A = A.astype(float).copy()
    A[1, 1] = nan
    return A


ESTIMATOR_CASES = [
    ("fit NaN", lambda make, A: make().fit(_with_nan(A), Y)),
    ("fit 1-D X", lambda make, A: make().fit(A[:, 0], Y)),
    ("fit len(y) mismatch", lambda make, A: make().fit(A, Y[:10])),
    ("fit empty", lambda make, A: make().fit(A[:0], Y[:0])),
    ("fit X None", lambda make, A: make().fit(None, Y)),
    ("predict before fit", lambda make, A: make().predict(A)),
    ("predict other n_features", lambda make, A: make().fit(A, Y).predict(A[:, :2])),
    ("predict NaN", lambda make, A: make().fit(A, Y).predict(_with_nan(A))),
]


@pytest.mark.parametrize("case", ESTIMATOR_CASES, ids=[c[0] for c in ESTIMATOR_CASES])
@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_estimators_reject_bad_input_at_the_boundary(name, case):
    make, A = ESTIMATORS[name]
    with pytest.raises((ValueError, TypeError)):
        case[1](make, A)


GUARDS = [
    ("GaussianNoise sigma=0", lambda: randomization.GaussianNoise(0), r"sigma"),
    ("UniformNoise alpha<0", lambda: randomization.UniformNoise(-1), r"alpha"),
    ("noise_for_privacy confidence=1",
     lambda: randomization.noise_for_privacy("gaussian", 1, 1, 1.0), r"confidence"),
    ("noise_for_snr snr<0", lambda: randomization.noise_for_snr(x, -1.0), r"snr"),
    ("warner_estimate theta=0.5",
     lambda: randomized_response.warner_estimate([0, 1, 1], 0.5), r"theta = 0.5"),
    ("warner_estimate non-binary",
     lambda: randomized_response.warner_estimate([0, 1, 2], 0.7), r"0/1"),
    ("reconstruct NaN", lambda: reconstruction.reconstruct(np.r_[x, nan], G), r"NaN"),
    ("RRID3 non-binary X", lambda: RRID3(0.7).fit(B * 2, Y), r"0/1"),
    ("agrawal function=11", lambda: datasets.agrawal(10, 11, rng=0), r"function"),
    ("load_adult split", lambda: datasets.load_adult("foo"), r"split"),
]


@pytest.mark.parametrize("call, message", [g[1:] for g in GUARDS], ids=[g[0] for g in GUARDS])
def test_existing_boundary_checks(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def _extremes(control):
    if isinstance(control, widgets.SelectMultiple):
        values = [o[1] if isinstance(o, tuple) else o for o in control.options]
        return [()] + [(v,) for v in values] + [tuple(values)]
    if isinstance(control, (widgets.IntRangeSlider, widgets.FloatRangeSlider)):
        return [(control.min, control.min), (control.max, control.max)]
    if isinstance(control, widgets.FloatLogSlider):
        return [control.base ** control.min, control.base ** control.max]
    if hasattr(control, "min") and hasattr(control, "max"):
        out = [control.min, control.max]
        if isinstance(control.min, float) and control.min < 0.5 < control.max:
            out.append(0.5)  # theta = 1/2 in randomized response
        return out
    if getattr(control, "options", None):
        return [o[1] if isinstance(o, tuple) else o for o in control.options]
    if isinstance(control, (widgets.Checkbox, widgets.ToggleButton)):
        return [True, False]
    return []


def _panel_keys():
    from ppdm_edu.widgets import all_panels

    return sorted(all_panels())


PANEL_KEYS = _panel_keys()


def test_the_panel_sweep_covers_panels():
    assert len(PANEL_KEYS) >= 5, PANEL_KEYS


# One test per panel: a failure names the panel, and the slowest panel is visible in --durations.
@pytest.mark.parametrize("key", PANEL_KEYS)
def test_every_panel_control_at_its_extremes_shows_a_message_not_a_crash(key):
    from ppdm_edu.widgets import all_panels

    panel = all_panels()[key]()
    checked = 0
    for name, control in panel.controls.items():
        start = control.value
        for value in _extremes(control):
            control.value = value  # an exception here is a crash in the classroom
            checked += 1
            if panel.error is None:
                assert not re.search(r"\bnan\b|\binf\b", panel.readout.value, re.I), (
                    f"{key}.{name} = {value!r}: NaN in the readout: {panel.readout.value}")
            else:
                assert isinstance(panel.error, ValueError) and panel.message.value
        control.value = start
    assert checked >= 2, f"{key}: no control was driven to an extreme"
