"""Package plumbing: lazy top-level API, validation helpers, the panel base, the report shape, the CLI."""
import ast
import base64
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import ppdm_edu
from ppdm_edu import _validation, random_state
from ppdm_edu._imports import imported_from, imports_in
from ppdm_edu.experiments import report


def test_version_and_lazy_exports_resolve():
    assert ppdm_edu.__version__
    assert ppdm_edu.GaussianNoise is ppdm_edu.randomization.GaussianNoise
    assert ppdm_edu.load_adult is ppdm_edu.datasets.load_adult
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
    a = random_state.check_random_state(5).random(3)
    b = random_state.check_random_state(5).random(3)
    np.testing.assert_array_equal(a, b)
    g = np.random.default_rng(1)
    assert random_state.check_random_state(g) is g
    with pytest.raises(TypeError, match="Generator"):
        random_state.check_random_state("seed")
    with pytest.raises(ValueError, match="non-negative"):
        random_state.check_random_state(-1)


@pytest.mark.parametrize("value, msg", [(0, "> 0"), (-1.0, "> 0"), (float("nan"), "finite"),
                                        (float("inf"), "finite")])
def test_check_positive(value, msg):
    with pytest.raises(ValueError, match=msg):
        _validation.check_positive(value, "sigma")


def test_check_finite_arrays():
    with pytest.raises(ValueError, match="empty"):
        _validation.check_finite_1d([])
    with pytest.raises(ValueError, match="NaN.*position 1"):
        _validation.check_finite_1d([1.0, np.nan])
    with pytest.raises(ValueError, match="one-dimensional"):
        _validation.check_finite_1d(np.ones((2, 2)))
    with pytest.raises(ValueError, match="two-dimensional"):
        _validation.check_finite_2d(np.ones(3))
    with pytest.raises(ValueError, match="row 1, column 0"):
        _validation.check_finite_2d([[1.0], [np.inf]])


def test_check_binary():
    np.testing.assert_array_equal(_validation.check_binary([[0, 1], [1, 1]]), [[0, 1], [1, 1]])
    with pytest.raises(ValueError, match="0/1"):
        _validation.check_binary([0, 2])
    with pytest.raises(ValueError, match="empty"):
        _validation.check_binary([])


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
    assert first_png[:4] == b"\x89PNG" and panel.readout.value.endswith(">1.00</div>")  # in its aria-live region
    panel.controls["x"].value = 2.0  # the observer runs the update synchronously
    assert panel.result == 4.0 and panel.image.value != first_png
    panel.controls["x"].value = -1.0
    assert "x must be &gt;= 0" in panel.message.value and panel.error is not None
    assert panel.result == 4.0  # the last valid result is kept, but not shown:
    assert panel.image.layout.display == "none" and panel.readout.layout.display == "none"
    panel.controls["x"].value = 0.5
    assert panel.message.value == "" and panel.result == 0.25
    assert panel.image.layout.display is None and panel.readout.layout.display is None
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


# ---------------------------------------------------------------------------------------------
# Packaging: one version, the license and py.typed shipped, environment.yml in step with pyproject

ROOT = Path(__file__).resolve().parents[1]


def _pyproject():
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_version_lives_in_one_place():
    project = _pyproject()
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["hatch"]["version"] == {"path": "ppdm_edu/__init__.py"}
    assert not re.search(r"^version:", (ROOT / "CITATION.cff").read_text(encoding="utf-8"), re.M)
    assert re.fullmatch(r"\d+\.\d+\.\d+([ab]\d+|rc\d+|\.dev\d+)?", ppdm_edu.__version__)


def test_cli_version_is_the_package_version():
    out = subprocess.run([sys.executable, "-m", "ppdm_edu", "--version"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert ppdm_edu.__version__ in out.stdout


def _build(kind: str, folder: Path) -> zipfile.ZipFile:
    """The wheel the project's build backend makes (PEP 517 ``build_wheel`` or PEP 660
    ``build_editable``, what ``pip install .`` and ``pip install -e .`` ask it for), into ``folder``."""
    backend = _pyproject()["build-system"]["build-backend"]
    code = (f"import sys, importlib; b = importlib.import_module({backend!r}); "
            f"print(b.{kind}(sys.argv[1]))")
    out = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, text=True,
                         cwd=ROOT, timeout=240)
    assert out.returncode == 0, out.stderr[-2000:]
    return zipfile.ZipFile(folder / out.stdout.strip().splitlines()[-1])


SERVER_CONFIG = "etc/jupyter/jupyter_server_config.d/ppdm_edu.json"


@pytest.mark.parametrize("kind", ["build_wheel", "build_editable"])
def test_every_install_switches_the_deck_reset_on(tmp_path, kind):
    """``pip install`` and ``pip install -e`` (the README's, conda's, make's and Binder's routes)
    both put the server-config file that enables ``ppdm_edu._lab_reset`` into the environment's
    ``etc/jupyter``: the wheel's shared data. setuptools' editable wheels leave data files out."""
    wheel = _build(kind, tmp_path)
    shared = [n for n in wheel.namelist() if ".data/data/" in n]
    version = ppdm_edu.__version__
    assert shared == [f"ppdm_edu-{version}.data/data/{SERVER_CONFIG}"], shared
    config = json.loads(wheel.read(shared[0]))
    assert config == json.loads((ROOT / "jupyter-config" / SERVER_CONFIG.split("/", 2)[2]).read_text())
    assert config["ServerApp"]["jpserver_extensions"] == {"ppdm_edu._lab_reset": True}


def test_wheel_carries_license_py_typed_data_and_styles(tmp_path):
    project = _pyproject()
    assert project["project"]["license"] == "BSD-3-Clause"
    assert "BSD 3-Clause" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert project["project"]["license-files"] == ["LICENSE"]
    names = set(_build("build_wheel", tmp_path).namelist())
    version = ppdm_edu.__version__
    wanted = {"ppdm_edu/py.typed", "ppdm_edu/styles/classroom.mplstyle", "ppdm_edu/styles/projector.mplstyle",
              "ppdm_edu/datasets/data/adult.data.gz", "ppdm_edu/datasets/data/adult.test.gz",
              "ppdm_edu/datasets/data/adult.names", f"ppdm_edu-{version}.dist-info/licenses/LICENSE",
              # the named sliders' view (anywidget front end), read at import
              "ppdm_edu/widgets/_slider.js", "ppdm_edu/widgets/_slider.css", "ppdm_edu/widgets/_toggles.js",
              "ppdm_edu/widgets/_choices.js"}
    assert wanted <= names, wanted - names
    # every module of the package, and nothing from outside it (tests, site, notebooks)
    modules = {str(p.relative_to(ROOT).as_posix()) for p in (ROOT / "ppdm_edu").rglob("*.py")}
    assert modules <= names, modules - names
    assert all(n.startswith(("ppdm_edu/", f"ppdm_edu-{version}.")) for n in names), sorted(names)


def _requirement_names(requirements):
    return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower(): r.split(";")[0]
            for r in requirements}


def test_environment_yml_has_the_same_bounds_as_pyproject():
    project = _pyproject()["project"]
    wanted = _requirement_names(project["dependencies"] + project["optional-dependencies"]["lab"]
                                + project["optional-dependencies"]["test"])
    wanted.pop("ppdm-edu")  # the test extra pulls in the lab extra
    conda = {}
    text = (ROOT / "environment.yml").read_text(encoding="utf-8")
    for line in text.split("\ndependencies:\n", 1)[1].splitlines():
        # conda-forge packages, and the pip section's (a package conda-forge lacks)
        m = re.fullmatch(r"  - ([A-Za-z0-9_.-]+)(.*)|      - ([A-Za-z][A-Za-z0-9_.-]+)(.*)", line)
        if m and m.lastindex > 2:
            conda[m.group(3).lower()] = m.group(3) + m.group(4).strip()
        elif m and m.group(1) not in ("python", "pip"):
            conda[m.group(1).lower()] = m.group(1) + m.group(2).strip()
    assert conda == {name: spec.replace(" ", "") for name, spec in wanted.items()}


def test_library_imports_need_no_lab_extra():
    """`pip install .` (no extras) must be enough for everything but the widgets."""
    project = _pyproject()["project"]
    runtime = set(_requirement_names(project["dependencies"])) | {"ppdm_edu"}
    import_names = {"scikit-learn": "sklearn"}
    allowed = {import_names.get(n, n) for n in runtime}
    # the [cluster] extra (dask) is imported inside functions only, when --backend dask is asked
    # for (tests/test_site.py checks that no module imports it at module level)
    allowed |= set(_requirement_names(project["optional-dependencies"]["cluster"]))
    # the [audit-lib] extra (OpenDP) is imported inside ppdm_edu.audit.library's functions only
    allowed |= set(_requirement_names(project["optional-dependencies"]["audit-lib"]))
    stdlib = set(sys.stdlib_module_names)
    found = {}
    for path in sorted((ROOT / "ppdm_edu").rglob("*.py")):
        if "widgets" in path.relative_to(ROOT).parts:
            continue  # the panels need ipywidgets: the [lab] extra
        # no package given: the relative imports, which stay inside ppdm_edu, are left out
        for name in sorted(imports_in(path.read_text(encoding="utf-8"))):
            top = name.split(".")[0]
            if top not in stdlib and top not in allowed:
                found.setdefault(top, []).append(str(path.relative_to(ROOT)))
    # IPython is imported only inside Jupyter (lecture mode's widget CSS), guarded by ImportError
    found.pop("IPython", None)
    assert not found, f"imports missing from [project] dependencies: {found}"


# ---------------------------------------------------------------------------------------------
# No private name crosses modules, except within a package's private modules (as scikit-learn):
# a private module (``_layout.py``) is imported only inside its own package, and the private
# names it defines may be used by the other modules of that package; elsewhere a helper another
# module needs is public. "Its package" is the one the private module sits in, subpackages
# included: a private module at the top (``ppdm_edu/_validation.py``) serves every module.

PACKAGE = "ppdm_edu"


def _is_private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_name(path, root):
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def private_crossings(root):
    root = Path(root)
    modules = {_module_name(p, root.parent): p for p in sorted(root.rglob("*.py"))}
    offenders = []
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        package = module if is_package else module.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        aliases = {}  # local name -> ppdm_edu module it is bound to

        def private_module_outside_its_package(target, package=package):
            parts = target.split(".")
            for i, part in enumerate(parts):
                if _is_private(part):
                    owner = ".".join(parts[:i])  # the package that holds the private module
                    if not (package == owner or package.startswith(owner + ".")):
                        return True
            return False

        def private_module_of_the_same_package(target, package=package):
            owner, _, last = target.rpartition(".")
            return _is_private(last) and (package == owner or package.startswith(owner + "."))

        for node in ast.walk(tree):
            where = f"{path.relative_to(root.parent)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.ImportFrom):
                source = imported_from(node, package)
                if source is None or not (source == PACKAGE or source.startswith(PACKAGE + ".")):
                    continue
                if private_module_outside_its_package(source):
                    offenders.append(f"{where}: imports the private module {source}")
                for alias in node.names:
                    full = f"{source}.{alias.name}"
                    if full in modules:  # a submodule: `from . import x`
                        aliases[alias.asname or alias.name] = full
                        if private_module_outside_its_package(full):
                            offenders.append(f"{where}: imports the private module {full}")
                    elif _is_private(alias.name) and source != module \
                            and not private_module_of_the_same_package(source):
                        offenders.append(f"{where}: from {source} import {alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                        if private_module_outside_its_package(alias.name):
                            offenders.append(f"{where}: imports the private module {alias.name}")
                        aliases[alias.asname or alias.name.split(".")[0]] = (
                            alias.name if alias.asname else PACKAGE)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _is_private(node.attr)
                    and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and aliases[node.value.id] != module
                    and not private_module_of_the_same_package(aliases[node.value.id])):
                offenders.append(f"{path.relative_to(root.parent)}:{node.lineno}: "
                                 f"{node.value.id}.{node.attr} ({aliases[node.value.id]})")
    return sorted(set(offenders))




def test_no_private_name_crosses_modules():
    offenders = private_crossings(ROOT / "ppdm_edu")
    assert not offenders, "private names used across modules:\n" + "\n".join(offenders)


def test_private_names_cross_only_within_a_package_s_private_modules(tmp_path):
    pkg = tmp_path / PACKAGE
    (pkg / "sub").mkdir(parents=True)
    for f in ("__init__.py", "sub/__init__.py", "other.py"):
        (pkg / f).write_text("")
    (pkg / "sub" / "_helpers.py").write_text("def _tool():\n    pass\n")
    (pkg / "sub" / "user.py").write_text("from ._helpers import _tool\nfrom . import _helpers\n_helpers._tool()\n")
    (pkg / "sub" / "public.py").write_text("def _inner():\n    pass\n")
    (pkg / "sub" / "peer.py").write_text("from .public import _inner\n")
    (pkg / "outside.py").write_text("from .sub._helpers import _tool\n")
    (pkg / "_checks.py").write_text("def check():\n    pass\n")  # private, at the top
    (pkg / "sub" / "deep.py").write_text("from .._checks import check\nfrom ppdm_edu import _checks\n")
    found = private_crossings(pkg)
    assert not any("user.py" in f for f in found), found
    assert not any("deep.py" in f for f in found), found
    assert any("peer.py" in f and "_inner" in f for f in found), found
    assert any("outside.py" in f and "private module" in f for f in found), found


def test_widgets_without_ipywidgets_name_the_extra_to_install():
    code = ("import sys; sys.modules['ipywidgets'] = None\n"
            "try:\n    import ppdm_edu.widgets\n"
            "except ModuleNotFoundError as err:\n    print(err)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "pip install -e '.[lab]'" in out.stdout, out.stdout + out.stderr


def test_plot_posterior_intervals_takes_rng_and_no_seed_alias():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ppdm_edu import GaussianNoise
    from ppdm_edu.plots.attacks import plot_posterior_intervals
    from ppdm_edu.posterior import bayes_estimate

    x = np.random.default_rng(0).uniform(0, 1, 200)
    noise = GaussianNoise(0.2)
    w = x + noise.sample(x.size, rng=1)
    est = bayes_estimate(w, noise, (np.linspace(0, 1, 11), np.full(10, 0.1)))

    def drawn(**kw):
        fig, ax = plt.subplots()
        plot_posterior_intervals(x, w, est, noise.interval_width(0.95), ax=ax, n_show=10, **kw)
        ys = [tuple(np.round(line.get_ydata(), 9)) for line in ax.lines]
        plt.close(fig)
        return ys

    assert drawn(rng=3) == drawn(rng=np.random.default_rng(3))
    with pytest.raises(TypeError, match="seed"):  # never released: no deprecated alias
        drawn(seed=3)


def test_make_lab_listens_on_this_machine_only():
    # a lecturer's laptop on a conference network: the server is pinned to the loopback interface
    # rather than left to jupyter_server's default or a user's config file
    out = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    line = next(line for line in out.stdout.splitlines() if "jupyter lab" in line)
    assert "--ip=127.0.0.1" in line.split(), line
