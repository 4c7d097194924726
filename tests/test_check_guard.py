"""``check()`` runs a student's functions under a guard: a loop is stopped at the time limit with a
"not yet" that names the exercise, an exit never ends the process, an exception (even one whose
``__str__`` raises) or an odd return value is a plain hint that says what came back, and code that
rebinds the checker cannot change its verdict. Each mode the guard has is run here: "process" (a
forked child, Linux), "alarm" (SIGALRM in the process, macOS), "interrupt" (a timer thread
interrupting the main thread: what Windows gets) and "none" (Pyodide: no limit, said so)."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

import nbformat
import numpy as np
import pytest

from ppdm_edu.exercises import EXERCISES, _guard, check, nb02, reference_answer
from ppdm_edu.exercises._implementations import REFERENCE_SOURCES

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")

LIMITED = ["process", "alarm", "interrupt"]   # the modes with a time limit, all runnable on Linux
ALL_MODES = LIMITED + ["none"]


@pytest.fixture
def one_second(monkeypatch):
    monkeypatch.setattr(_guard, "TIME_LIMIT", 1.0)


def _use(monkeypatch, mode):
    monkeypatch.setattr(_guard, "MODE", mode)


def _as_answer(exercise_id, function):
    """``function`` in the place of the exercise's first function (the reference for the rest)."""
    if exercise_id == "02.5":
        return function
    randomize, estimate = reference_answer(exercise_id)
    return (function, estimate)


# --- a function that never returns ---------------------------------------------------------------------
def _loop(*args):
    while True:
        pass


def _swallowing_loop(*args):  # a bare except around the work: the first stop is swallowed
    while True:
        try:
            time.sleep(0.001)
        except BaseException:
            continue


def _long_sleep(*args):
    time.sleep(600)


# The interrupt mode stops Python code only: a long sleep ends first (it is not listed for it).
NEVER_RETURNS = [(mode, body) for mode in LIMITED for body in (_loop, _swallowing_loop, _long_sleep)
                 if not (mode == "interrupt" and body is _long_sleep)]


@pytest.mark.parametrize("mode, body", NEVER_RETURNS, ids=lambda v: getattr(v, "__name__", v))
def test_a_function_that_never_returns_is_stopped_at_the_limit(mode, body, one_second, monkeypatch):
    _use(monkeypatch, mode)
    handler, trace = signal.getsignal(signal.SIGALRM), sys.gettrace()
    result = check("02.5", body)
    assert not result.correct
    assert "ran for more than 1 s on 02.5's hidden data" in result.message, result.message
    # nothing of the guard is left behind in this process
    assert signal.getsignal(signal.SIGALRM) is handler and sys.gettrace() is trace
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0 or handler is not signal.SIG_DFL
    assert not [t for t in threading.enumerate() if t.name == "ppdm-check-time-limit"]
    assert check("02.5", reference_answer("02.5")).correct  # and the next check runs as usual


@pytest.mark.parametrize("exercise_id", ["03.5", "07.7"])
def test_a_looping_randomizer_is_stopped_and_named(exercise_id, one_second):
    result = check(exercise_id, _as_answer(exercise_id, _loop))
    assert not result.correct and f"ran for more than 1 s on {exercise_id}'s hidden data" in result.message


# --- exits ---------------------------------------------------------------------------------------------
def _os_exit(*args):
    os._exit(3)


def _sys_exit(*args):
    sys.exit(3)


def _abort(*args):
    os.abort()


EXITS = {_os_exit: ("os._exit", "ended the Python process"), _sys_exit: ("sys.exit(3)", "sys.exit(3)"),
         _abort: ("os.abort", "SIGABRT")}


@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("body", list(EXITS), ids=lambda f: f.__name__)
def test_an_exit_is_not_yet_and_the_process_lives_on(mode, body, monkeypatch):
    _use(monkeypatch, mode)
    pid = os.getpid()
    result = check("02.5", body)
    assert os.getpid() == pid and not result.correct
    in_kernel, in_child = EXITS[body]
    assert (in_child if mode == "process" else in_kernel) in result.message, result.message
    assert os._exit is _guard._REAL_EXIT  # put back after the call


# --- what the student's objects do --------------------------------------------------------------------------
class _Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no message")


class _NoArray:
    def __array__(self, *args, **kwargs):
        raise RuntimeError("no array")

    def __repr__(self):
        raise RuntimeError("no repr")

    def __len__(self):
        raise RuntimeError("no len")


def _raise_unprintable(*args):
    raise _Unprintable()


STRANGE_RETURNS = [
    (_raise_unprintable, "raised _Unprintable: (its message cannot be printed"),
    (lambda w, m, prior, pdf: _NoArray(), "returned an object of type _NoArray that numpy cannot read"),
    (lambda w, m, prior, pdf: (p for p in prior), "returned a generator"),
    (lambda w, m, prior, pdf: "0.1 0.9", "returned text ('0.1 0.9')"),
    (lambda w, m, prior, pdf: np.array([]), "it returned an empty array"),
    (lambda w, m, prior, pdf: [], "it returned an empty array"),
    (lambda w, m, prior, pdf: {"a": 1}, "returned a dict"),
    (lambda w, m, prior, pdf: [prior, "x"], "that numpy cannot read"),
    (lambda w, m, prior, pdf: np.array(["0.5", "0.5"]), "of text"),
    (lambda w, m, prior, pdf: None, "returned None"),
]


@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("body, words", STRANGE_RETURNS, ids=range(len(STRANGE_RETURNS)))
def test_what_came_back_is_described_not_a_traceback(mode, body, words, monkeypatch):
    _use(monkeypatch, mode)
    result = check("02.5", body)
    assert not result.correct and words in result.message, result.message
    assert "zero-size" not in result.message


@pytest.mark.parametrize("exercise_id", ["03.5", "07.7"])
@pytest.mark.parametrize("returned, words", [(np.array([], dtype=int), "it returned an empty array"),
                                             ("101", "returned text"), (iter([1, 0]), "returned a generator")])
def test_a_randomizer_returning_nothing_useful_is_told_what_it_returned(exercise_id, returned, words):
    result = check(exercise_id, _as_answer(exercise_id, lambda *args: returned))
    assert not result.correct and words in result.message and "zero-size" not in result.message, result.message
    result = check(exercise_id, (reference_answer(exercise_id)[0], lambda *args: returned))
    assert not result.correct and words.split(" it")[0] in result.message, result.message


# --- the judge cannot be rebound -------------------------------------------------------------------------------
def _zeros(w, m, prior, pdf):
    return np.zeros_like(prior)


def _rebinds_the_hint(w, m, prior, pdf):
    nb02._bayes_step_hint = lambda *args: None   # what issue 49 found: then any return passed
    return np.zeros_like(prior)


@pytest.mark.parametrize("mode", ALL_MODES)
def test_a_function_that_rebinds_the_judge_does_not_pass(mode, monkeypatch):
    _use(monkeypatch, mode)
    original = nb02._bayes_step_hint
    result = check("02.5", _rebinds_the_hint)
    assert not result.correct, result.message
    assert nb02._bayes_step_hint is original


def test_code_in_the_kernel_that_rebinds_the_checker_is_undone(monkeypatch):
    original_hint, original_allclose = nb02._bayes_step_hint, np.allclose
    original_code = nb02._bayes_step_mistake.__code__
    nb02._bayes_step_hint = lambda *args: None
    np.allclose = lambda *args, **kwargs: True
    nb02._bayes_step_mistake.__code__ = (lambda *args: None).__code__
    REFERENCE_SOURCES["02.5"] = REFERENCE_SOURCES["02.5"].replace("return posterior.mean(axis=0)",
                                                                  "return np.zeros_like(prior)")
    try:
        result = check("02.5", _zeros)
    finally:  # the test leaves nothing changed whatever check() did
        nb02._bayes_step_hint, np.allclose = original_hint, original_allclose
        nb02._bayes_step_mistake.__code__ = original_code
    assert not result.correct
    assert "put back before judging" in result.message and "nb02._bayes_step_hint" in result.message
    assert "return posterior.mean(axis=0)" in REFERENCE_SOURCES["02.5"]
    assert check("02.5", reference_answer("02.5")).correct


def test_a_forged_exercise_entry_is_undone():
    from ppdm_edu.exercises.checking import Exercise, Verdict
    real = EXERCISES["07.4"]
    EXERCISES["07.4"] = Exercise("07.4", "forged", "numeric", "x", "a number", lambda a: Verdict(True), lambda: 0)
    try:
        assert not check("07.4", 0.0).correct
    finally:
        EXERCISES["07.4"] = real
    assert EXERCISES["07.4"] is real


# --- answers that are objects of the student's own type -----------------------------------------------------------
class _LyingFloat(float):
    def __eq__(self, other):
        raise RuntimeError("compared")

    __hash__ = float.__hash__

    def __repr__(self):
        raise RuntimeError("printed")


class _ClassProperty:
    @property
    def __class__(self):
        raise RuntimeError("__class__ read")


OWN_TYPES = {"float subclass": lambda: _LyingFloat(4.84), "inside a tuple": lambda: (_LyingFloat(0.39), 0.61),
             "__class__ property": _ClassProperty, "in a list": lambda: [_ClassProperty()],
             "object array": lambda: np.array([_LyingFloat(1.0)], dtype=object)}


@pytest.mark.parametrize("kind", sorted(OWN_TYPES))
@pytest.mark.parametrize("exercise_id", ["01.1", "02.1", "00.q4", "00.q1"])
def test_an_answer_of_the_students_own_type_is_not_yet_without_running_it(exercise_id, kind):
    result = check(exercise_id, OWN_TYPES[kind]())  # never raises
    assert not result.correct and "object of type" in result.message, result.message


def test_a_huge_or_deep_answer_is_refused_in_words():
    deep = []
    for _ in range(1000):
        deep = [deep]
    assert "nested more than" in check("01.1", deep).message
    assert check("00.q4", 10 ** 400).message == next(q for q in _quiz("00") if q.id == "00.q4").hint
    assert not check("01.1", 10 ** 400).correct


def _quiz(nb):
    from ppdm_edu.exercises import QUIZZES
    return QUIZZES[nb]


# --- where no limit is possible: Pyodide -------------------------------------------------------------------------
def test_under_pyodide_no_thread_process_or_signal_is_tried_and_the_verdict_says_so(monkeypatch, capsys):
    def refuse(*args, **kwargs):
        raise AssertionError("tried to start a thread, a process or a timer under Pyodide")
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(os, "fork", refuse)
    monkeypatch.setattr(threading.Thread, "start", refuse)
    monkeypatch.setattr(signal, "setitimer", refuse)
    assert _guard.guard_mode() == "none"
    result = check("02.5", reference_answer("02.5"))
    assert result.correct and "without a time limit (Pyodide has no thread, process or signal" in result.message
    printed = capsys.readouterr().out
    assert "runs your functions without a time limit" in printed and "interrupt or restart the kernel" in printed
    result = check("02.5", _sys_exit)
    assert not result.correct and "sys.exit(3)" in result.message and "without a time limit" in result.message


def test_each_system_gets_its_mode(monkeypatch):
    assert _guard.guard_mode() == "process"  # this Linux
    monkeypatch.setattr(sys, "platform", "darwin")
    assert _guard.guard_mode() == "alarm"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.delattr(signal, "setitimer")
    assert _guard.guard_mode() == "interrupt"
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert _guard.guard_mode() == "none"


def test_a_check_outside_the_main_thread_runs_without_a_limit_and_says_so(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")   # no fork: the in-process modes need the main thread
    results = []
    thread = threading.Thread(target=lambda: results.append(check("02.5", reference_answer("02.5"))))
    thread.start()
    thread.join()
    assert results[0].correct and "outside the main thread" in results[0].message


# --- in a real kernel ---------------------------------------------------------------------------------------
KERNEL_CELLS = [
    "from ppdm_edu.exercises import check, _guard\nimport os, sys, time\n_guard.TIME_LIMIT = 2\n"
    "assert _guard.guard_mode() == 'process', _guard.guard_mode()",
    "def bayes_step(w, midpoints, prior, noise_pdf):\n    while True:\n        pass\ncheck('02.5', bayes_step)",
    "print('responsive', 6 * 7)",
    "def bayes_step(w, midpoints, prior, noise_pdf):\n    os._exit(3)\ncheck('02.5', bayes_step)",
    "def bayes_step(w, midpoints, prior, noise_pdf):\n    print('debugging', len(w))\n    sys.exit(1)\n"
    "check('02.5', bayes_step)",
    "_guard.MODE = 'alarm'\ndef bayes_step(w, midpoints, prior, noise_pdf):\n    time.sleep(600)\n"
    "check('02.5', bayes_step)",
    "_guard.MODE = 'interrupt'\ndef bayes_step(w, midpoints, prior, noise_pdf):\n    while True:\n        pass\n"
    "check('02.5', bayes_step)",
    "print('alive', os.getpid())",
]


def test_in_a_real_kernel_the_kernel_survives_and_answers(monkeypatch, tmp_path):
    from nbclient import NotebookClient
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in KERNEL_CELLS])
    paths = [str(_repo())] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    # a kernel as a student has one: not under the Pyodide simulation the test run gives its
    # notebook kernels (tests/pyodide_guard.py puts it in their IPYTHONDIR)
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path))
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    texts = ["".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", "")) for o in cell.outputs)
             for cell in nb.cells]
    assert "ran for more than 2 s on 02.5's hidden data" in texts[1], texts[1]
    assert "responsive 42" in texts[2]
    assert "ended the Python process" in texts[3], texts[3]
    assert "debugging 500" in texts[4] and "sys.exit(1)" in texts[4], texts[4]
    assert "ran for more than 2 s" in texts[5] and "ran for more than 2 s" in texts[6], texts[5:7]
    assert "alive" in texts[7]
    assert all(o.get("output_type") != "error" for cell in nb.cells for o in cell.outputs)


def _repo():
    from pathlib import Path
    return Path(__file__).resolve().parents[1]

