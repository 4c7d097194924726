"""Package plumbing: lazy top-level API, validation helpers, the panel base, the report shape, the CLI."""
import base64
import subprocess
import sys

import numpy as np
import pytest

import ppdm_edu
from ppdm_edu import validation
from ppdm_edu.experiments import report


def test_version_and_lazy_exports_resolve():
    assert ppdm_edu.__version__
    assert ppdm_edu.GaussianNoise is ppdm_edu.randomization.GaussianNoise
    assert callable(ppdm_edu.load_adult)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        ppdm_edu.nope  # noqa: B018


def test_every_declared_export_exists():
    missing = []
    for name in ppdm_edu._EXPORTS:
        try:
            getattr(ppdm_edu, name)
        except (AttributeError, ImportError) as err:
            missing.append(f"{name}: {err}")
    assert not missing, missing


def test_check_random_state():
    a = validation.check_random_state(5).random(3)
    b = validation.check_random_state(5).random(3)
    np.testing.assert_array_equal(a, b)
    g = np.random.default_rng(1)
    assert validation.check_random_state(g) is g
    with pytest.raises(TypeError, match="Generator"):
        validation.check_random_state("seed")
    with pytest.raises(ValueError, match="non-negative"):
        validation.check_random_state(-1)


@pytest.mark.parametrize("value, msg", [(0, "> 0"), (-1.0, "> 0"), (float("nan"), "finite"),
                                        (float("inf"), "finite")])
def test_check_positive(value, msg):
    with pytest.raises(ValueError, match=msg):
        validation.check_positive(value, "sigma")


def test_check_finite_arrays():
    with pytest.raises(ValueError, match="empty"):
        validation.check_finite_1d([])
    with pytest.raises(ValueError, match="NaN.*position 1"):
        validation.check_finite_1d([1.0, np.nan])
    with pytest.raises(ValueError, match="one-dimensional"):
        validation.check_finite_1d(np.ones((2, 2)))
    with pytest.raises(ValueError, match="two-dimensional"):
        validation.check_finite_2d(np.ones(3))
    with pytest.raises(ValueError, match="row 1, column 0"):
        validation.check_finite_2d([[1.0], [np.inf]])


def test_check_binary():
    np.testing.assert_array_equal(validation.check_binary([[0, 1], [1, 1]]), [[0, 1], [1, 1]])
    with pytest.raises(ValueError, match="0/1"):
        validation.check_binary([0, 2])
    with pytest.raises(ValueError, match="empty"):
        validation.check_binary([])


def test_panel_shows_errors_instead_of_raising():
    import ipywidgets as widgets

    from ppdm_edu.widgets.panel import Panel

    class Square(Panel):
        def build_controls(self):
            return {"x": widgets.FloatSlider(value=1.0, min=-1.0, max=2.0)}

        def compute(self, x):
            if x < 0:
                raise ValueError("x must be >= 0")
            return x * x

        def draw(self, figure, result):
            figure.add_subplot().bar([0], [result])

        def summary(self, result):
            return f"{result:.2f}"

    panel = Square()
    first_png = panel.image.value
    assert first_png[:4] == b"\x89PNG" and panel.readout.value == "1.00"
    panel.controls["x"].value = 2.0  # the observer runs the update synchronously
    assert panel.result == 4.0 and panel.image.value != first_png
    panel.controls["x"].value = -1.0
    assert "x must be &gt;= 0" in panel.message.value and panel.error is not None
    assert panel.result == 4.0  # the previous figure stays
    panel.controls["x"].value = 0.5
    assert panel.message.value == "" and panel.result == 0.25
    with pytest.raises(ValueError, match="unknown control"):
        Square(y=1)
    bundle = panel._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle  # live in JupyterLab
    assert base64.b64decode(bundle["image/png"]) == panel.image.value  # static fallback


def test_report_verdicts_and_markdown():
    assert report.verdict(80.0, 80.4, 0.5) == "reproduced"
    assert report.verdict(80.0, 81.0, 0.5) == "not reproduced"
    assert report.verdict(None, 81.0, 0.5) == "no number in the paper"
    with pytest.raises(ValueError, match="verdict must be one of"):
        report.Comparison("e", "i", 1.0, 1.0, verdict="maybe")
    rep = report.Reproduction("x", "X paper", [report.Comparison("t1", "cell", 1.0, 1.1, 0.05, 0.2, "reproduced")])
    md = rep.to_markdown()
    assert "| t1 | cell | 1.00 | 1.10 ± 0.05 | reproduced |" in md
    assert rep.counts()["reproduced"] == 1


def test_cli_rejects_unknown_reproduction():
    out = subprocess.run([sys.executable, "-m", "ppdm_edu", "reproduce", "nope"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "invalid choice" in out.stderr


def test_lecture_mode_switches_styles():
    import matplotlib as mpl

    ppdm_edu.lecture_mode(True)
    big = mpl.rcParams["font.size"]
    ppdm_edu.lecture_mode(False)
    assert mpl.rcParams["font.size"] < big
