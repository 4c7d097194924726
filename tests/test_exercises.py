"""Exercises that answer back (issue 15 §4): every reference passes, typical wrong answers fail
with a hint, honest answers computed another way (another seed) pass, and every exercise of the
notebooks has its check cell."""
from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest

from ppdm_edu.exercises import (
    EXERCISES,
    CheckResult,
    check,
    exercise_ids,
    nb00,
    nb03,
    nb04,
    nb05,
    nb06,
    nb07,
    reference_answer,
)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
CHECKED = exercise_ids("numeric") + exercise_ids("structured")
RUBRICS = exercise_ids("rubric")

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")


def _swap(pair):
    return tuple(reversed(pair))


# Typical wrong answers (at least two per checked exercise): off by a factor, wrong units
# (% vs fraction, log2 vs ln, variance vs SD), θ and 1 − θ swapped, swapped pairs, the neighbouring case.
WRONG = {
    "00.1": lambda r: [3, 2, 5],
    "00.3": lambda r: ["capital_gain", "fnlwgt"],
    "01.1": lambda r: [r / 2, r ** 2, 20.0],
    "01.2": lambda r: [100 * r, 0.9],
    "01.3": lambda r: [1.0, 0.5, math.sqrt(3)],
    "01.4": lambda r: [(10.0, 5.0), (9.5, 9.5), (9.5, 10.0)],
    "02.1": lambda r: [_swap(r), (0.415, 0.585), (100 * r[0], 100 * r[1])],
    "02.4": lambda r: [(r[0], "bayes"), (10 * r[0], "em")],
    "03.1": lambda r: [(1 - r[0], r[1], r[2]), (r[0], r[1] * 0.02, r[2]), (2 / 3, r[1], r[2])],
    "03.2": lambda r: [(r[0], r[1], -r[2], r[3]), (r[0], r[1], r[2] / math.log(2), r[3] / math.log(2)),
                       (2 * r[0], r[1], r[2], r[3])],
    "03.3": lambda r: [nb03.kept_class_std_error(keep=None), 100 * r],
    "03.4": lambda r: [6, 3, 2],
    "04.1": lambda r: [(r[1], r[0], r[2], r[3]), (r[0], r[1], r[3], r[2]), (r[0], r[1], 100 * r[2], 100 * r[3])],
    "04.2": lambda r: [0.32, 2 / 9, 0.4],
    "04.4": lambda r: [(r[1], r[0], r[2], r[3]), (r[0], r[1], 100 * r[2], 100 * r[3])],
    "05.1": lambda r: [(100 * r[0], 100 * r[1]), (1 - r[0], 1 - r[1]), (r[0], 0.77)],
    "05.2": lambda r: [nb05.median_original_accuracy("range_midpoint"), 100 * r],
    "05.4": lambda r: [[x ** 2 for x in r], [x if t > 0.5 else -x for x, t in zip(r, (0.1, 0.2, 0.3, 0.4, 0.45, 0.51,
                       0.55, 0.6, 0.7, 0.8, 0.9, 1.0))], list(reversed(r))],
    "06.1": lambda r: [("age", r[1], r[2]), (r[0], r[2], r[1]), (r[0], 100 * r[1], 100 * r[2]), (r[0], r[2], r[2])],
    "06.2": lambda r: ["partitions", "Partitions"],
    "07.1": lambda r: [0.4, math.sqrt(0.2), 1.0],
    "07.2": lambda r: [100 * r, 1.0, 2.0],
    "07.3": lambda r: [(r[0] / math.log(2), r[1]), (r[0], 1 - r[1]), (r[0], 100 * r[1]), (-r[0], r[1])],
    "07.4": lambda r: [0.5, 0.05, 0.5 * math.sqrt(10)],
    "07.6": lambda r: [30_000, 10_000],
    "08.1": lambda r: [10, 3 * math.e + 2],
    "08.2": lambda r: [r ** 2, r * math.sqrt(2)],
}


def test_every_checked_exercise_has_wrong_answers():
    assert sorted(WRONG) == sorted(CHECKED)


@pytest.mark.parametrize("exercise_id", CHECKED)
def test_reference_passes(exercise_id):
    result = check(exercise_id, reference_answer(exercise_id))
    assert isinstance(result, CheckResult)
    assert result.correct, str(result)
    assert "correct" in str(result) and "correct" in result._repr_html_()


@pytest.mark.parametrize("exercise_id", CHECKED)
def test_typical_wrong_answers_fail_with_a_hint(exercise_id):
    ref = reference_answer(exercise_id)
    wrong = WRONG[exercise_id](ref)
    assert len(wrong) >= 2
    for answer in wrong:
        result = check(exercise_id, answer)
        assert not result.correct, f"{exercise_id}: wrong answer {answer!r} passed"
        assert result.message.startswith(("not yet", "")) and "Re-read" in result.message, result.message
        assert "not yet" in str(result)
        # the hint never prints the reference
        for value in np.atleast_1d(np.asarray(ref, dtype=object)):
            if isinstance(value, float) and value not in (0.5, 1.0):
                assert f"{value:.3f}" not in result.message, result.message


def _simulated_half_loss_snr(seed):
    """01.3 answered by simulation (as the exercise suggests): the SNR where privacy_loss = 0.5."""
    from scipy.optimize import brentq

    from ppdm_edu import noise_for_snr, perturb, privacy_loss
    x = np.random.default_rng(seed).normal(size=50_000)
    return brentq(lambda s: privacy_loss(x, perturb(x, noise_for_snr(x, s), rng=seed + 1)) - 0.5, 1.0, 6.0, xtol=1e-3)


def _warner_simulated(seed):
    from ppdm_edu.experiments.rr_simulation import simulate_warner_surveys
    from ppdm_edu.randomized_response import epsilon
    s2, s8 = (simulate_warner_surveys(0.3, t, 200, rng=seed) for t in (0.2, 0.8))
    return s2.empirical_sd, s8.empirical_sd, abs(float(epsilon(0.2))), float(epsilon(0.8))


def _kept_sweep_sd(seed):
    from ppdm_edu.datasets import adult_binary
    from ppdm_edu.experiments.rr_simulation import mrr_theta_sweep
    sweep = mrr_theta_sweep(adult_binary().data, nb03.ADULT_E, thetas=(0.45,), runs=50, rng=seed, keep="income")
    return float(sweep["estimate"].std())


def _grid_crossing(rng):
    """07.2 by the exercise's method: the first level of a 0.1 grid where the ratio is below 0.5."""
    for level in np.arange(1.0, 2.01, 0.1):
        if nb07.posterior_ratio(round(float(level), 4), rng=rng) < 0.5:
            return float(level)
    raise AssertionError("no crossing")


# Honest answers computed another way (another seed, a simulation instead of the formula, the
# rounded value a student writes down): they must pass.
HONEST = {
    "00.1": lambda: [nb00.most_balanced_function(rng=1), nb00.most_balanced_function(rng=2)],
    "01.1": lambda: [4.84, 20 / math.sqrt(2 * math.pi * math.e)],
    "01.2": lambda: [0.95, 0.9505],
    "01.3": lambda: [3, _simulated_half_loss_snr(4), _simulated_half_loss_snr(7)],
    "02.1": lambda: [(0.391, 0.609), [0.3905, 0.6095], np.array([0.3905, 0.6095])],
    "03.1": lambda: [(0.731, 2830, 525), (0.73, 2852, 525)],
    "03.2": lambda: [_warner_simulated(0), _warner_simulated(1)],
    "03.3": lambda: [0.022, _kept_sweep_sd(0), _kept_sweep_sd(1)],
    "04.1": lambda: [nb04.pruning_comparison(noise_rng=4)],
    "05.1": lambda: [(nb05.rr_id3_accuracies(0.2)[s], nb05.rr_id3_accuracies(0.8)[s]) for s in (1, 2)],
    "05.2": lambda: [0.82, np.float64(0.8195)],
    "05.4": lambda: [[1.25, 1.67, 2.5, 5, 10, 50, 10, 5, 2.5, 1.67, 1.25, 1]],
    "06.1": lambda: [nb06.low_snr_naive_bayes(4)[0][:1] + nb06.low_snr_naive_bayes(4)[1:], ("capital_gain", 0.80, 0.77)],
    "06.2": lambda: ["Split points", "split_points"],
    "07.1": lambda: [math.sqrt(0.4), 0.63, nb07.four_factor_rmse(2, 1002), nb07.four_factor_rmse(5, 1005)],
    "07.2": lambda: [_grid_crossing(1), _grid_crossing(2), 1.45],
    "07.3": lambda: [(0.847, 0.30), (math.log(0.7 / 0.3), 0.3)],
    "07.4": lambda: [5, 5.0],
    "08.1": lambda: [11, 11.0],
    "08.2": lambda: [67.8, 0.009595 / 1.4142e-4],
}


@pytest.mark.parametrize("exercise_id", sorted(HONEST))
def test_honest_answers_pass(exercise_id):
    for answer in HONEST[exercise_id]():
        result = check(exercise_id, answer)
        assert result.correct, f"{exercise_id}: honest answer {answer!r}: {result}"


@pytest.mark.parametrize("exercise_id", CHECKED)
def test_placeholder_none_says_not_yet(exercise_id):
    result = check(exercise_id, None)
    assert not result.correct
    assert result.message == "not yet: write your answer in `answer` above"


@pytest.mark.parametrize("exercise_id", RUBRICS)
def test_rubric_is_marked_and_not_judged(exercise_id):
    for answer in (None, "anything", 3):
        result = check(exercise_id, answer)
        assert result.kind == "rubric" and not result.correct and len(result.rubric) >= 2
        assert "SELF-ASSESSMENT" in str(result) and "SELF-ASSESSMENT" in result._repr_html_()


def test_bad_exercise_id_lists_the_ids():
    with pytest.raises(ValueError, match=r"exercise_id '02\.9'.*allowed: 00\.1, 00\.2"):
        check("02.9", 1)
    with pytest.raises(TypeError, match="exercise_id must be a string"):
        check(2.1, 1)
    with pytest.raises(ValueError, match="open-ended"):
        reference_answer("02.2")


@pytest.mark.parametrize("exercise_id, answer, error, pattern", [
    ("01.1", "4.84", TypeError, r"check\('01.1', answer\): answer must be a number"),
    ("01.1", True, TypeError, "answer must be a number"),
    ("02.1", 0.39, TypeError, r"answer must be a pair"),
    ("02.1", (0.39, 0.61, 0.0), ValueError, r"\(2 values\), got 3 values"),
    ("02.4", (0.009, "mle"), ValueError, r"answer\[1\] must be one of 'bayes', 'em'"),
    ("00.3", "salary", ValueError, r"must be one of 'age', 'fnlwgt'"),
    ("00.1", 7, ValueError, r"one of 1, 2, 3, 4, 5"),
    ("07.6", 5000, ValueError, r"one of 1000, 3000, 10000, 30000"),
    ("06.1", "capital_gain", TypeError, "answer must be a triple"),
])
def test_wrong_answer_type_names_the_argument(exercise_id, answer, error, pattern):
    with pytest.raises(error, match=pattern):
        check(exercise_id, answer)


def test_nan_is_not_yet_not_an_error():
    assert not check("07.4", float("nan")).correct


def test_no_widgets_imported():
    code = "import sys, ppdm_edu.exercises as e; e.check('07.4', 5); print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def _exercise_items(nb, number):
    """The exercise numbers announced in the notebook's Exercises section (**k.** or "k. ")."""
    items, inside = set(), False
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        if "## Exercises" in cell.source:
            inside = True
            text = cell.source.split("## Exercises", 1)[1]
        elif inside:
            text = cell.source
        else:
            continue
        if text.lstrip().startswith("<details>"):
            continue
        items |= {int(k) for k in re.findall(r"^\*\*(\d+)\.", text, flags=re.M)}
    return {f"{number}.{k}" for k in items}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_exercise_has_a_check_cell(path):
    nb = nbformat.read(path, as_version=4)
    number = path.name[:2]
    announced = _exercise_items(nb, number)
    assert announced, "no '**k.**' exercises found after '## Exercises'"
    checks = {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            for ex_id in re.findall(r'check\("(\d\d\.\d+)"', cell.source):
                checks[ex_id] = i
    assert announced == set(checks), f"exercises {sorted(announced)} vs check cells {sorted(checks)}"
    assert {i for i in EXERCISES if i.startswith(number + ".")} == announced
    for ex_id, i in checks.items():
        if EXERCISES[ex_id].kind != "rubric":
            work = nb.cells[i - 1]
            assert work.cell_type == "code" and re.search(r"^answer = None", work.source, re.M), \
                f"{ex_id}: the check cell must follow a work cell with an `answer = None` placeholder"
    # no solution of a checked exercise is left in the notebook: a <details> block may only follow
    # the check cell of a rubric exercise (a model answer to compare with, after writing one's own)
    last_check = None
    for cell in nb.cells:
        found = re.findall(r'check\("(\d\d\.\d+)"', cell.source) if cell.cell_type == "code" else []
        if found:
            last_check = found[0]
        if cell.cell_type == "markdown" and "<details>" in cell.source and last_check is not None:
            assert EXERCISES[last_check].kind == "rubric", f"a solution follows checked exercise {last_check}"
