"""Kernel-free twins of the notebooks' panels on the website (issue 25 §2).

A *twin* answers a panel's controls in the browser with no kernel and no network: every state of
a grid of control values is computed at build time **by the panel itself** and kept as a frame
(lossless WebP), a read-out (the panel's ``summary`` HTML, or the message it shows instead) and
an alt text. A small script (``_static/ppdm-twins.js``, no library) swaps them when a control
moves.

One implementation: the builder constructs the panel as the notebook does (the class named by the
stand-in's ``text/plain``, the keyword arguments of the call in the cell's source) and walks the
grid so that each step changes **one** control (a snake, or reflected Gray, order), by setting
``control.value`` as a student does: every state is the panel's own ``update()`` (``compute``,
``draw``/``redraw``, ``summary`` or its error message). Nothing is computed ahead meanwhile
(``precompute.threads_available`` reports False during the build, as under Pyodide).

The grid (:func:`grid_of`), generic over any :class:`~ppdm_edu.widgets.panel.Panel`:

* a discrete control (drop-down, toggle or radio buttons, check box): every option;
* a slider: every step (a log slider: every step of its exponent, shown as its value); when the product of all controls exceeds :data:`BUDGET` states, the
  slider with most positions first gets :data:`COARSE` evenly spaced positions (snapped to its
  step) plus its default and both ends;
* still too many: sliders are fixed at their default, last listed first, then (if ever needed)
  discrete controls; a slider is given its every step back when that fits again;
* a multiple choice (the algorithm list) is fixed at the notebook's choice;
* except: a control the notebook's prose asks the reader to move (:data:`PROSE_VALUES`) keeps
  the positions the prose names (a slider) or the notebook's choice and every option (a multiple
  choice), before any other control is coarsened or fixed.

The page says what is fixed and at which value. A new panel in a notebook gets a twin with no
code here: it is found by its stand-in output.
"""
from __future__ import annotations

import ast
import hashlib
import html
import io
import json
import math
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import ipywidgets as widgets

from ppdm_edu.widgets import all_panels, precompute
from ppdm_edu.widgets._names import accessible_name
from ppdm_edu.widgets.panel import STATIC_CLASS, static_picture, static_readout

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
#: where the frames and the data scripts go (copied by Sphinx into ``_static/twins``)
OUT = HERE / "_static" / "twins"
#: the build's own record of each twin (grid, states, cache key): not published
DATA = HERE / "_generated" / "twins"
#: computed twins, one folder per cache key (frames + ``record.json``), shared by every build and
#: test of this checkout whatever the environment: ``make test``, ``make test-deps`` and
#: ``make site`` each find the states their matplotlib drew. Not published; ``PPDM_TWINS_CACHE``
#: moves it.
CACHE = Path(os.environ.get("PPDM_TWINS_CACHE") or REPO / ".cache" / "twins")
#: cache folders kept (least recently used dropped first): a few environments x every twin
CACHE_ENTRIES = 60
#: at most this many states per panel
BUDGET = 250
#: positions of a coarsened slider (before its default is added; >= 7 by the issue's rule)
COARSE = 9
LABEL = "Precomputed on a grid; launch the notebook for the live panel."
#: controls the notebooks' prose asks a reader to move, which the grid must offer whatever the
#: budget: a slider gets these positions (snapped to its steps, with its default) instead of being
#: fixed; a multiple choice (``"all"``) gets the notebook's choice and every option at once
PROSE_VALUES: dict[tuple[str, str], tuple | str] = {
    ("RandomizationPanel", "confidence"): (0.5, 0.75, 0.95, 0.995),  # notebook 01: "move it to 0.5"
    ("TreesPanel", "algorithms"): "all",  # notebook 04: Global and Local beside the others
}
# the stand-in's text/plain names the class: "<TreesPanel: static copy, run the cell ...>"
_CLASS_NAME = re.compile(r"<(\w+): static copy")
_TAG = re.compile(r"<[^>]+>")


@dataclass
class ControlGrid:
    """The positions a twin offers for one control."""

    name: str
    label: str
    kind: str            # "range", "select", "radio", "checkbox"
    values: list         # control values, in the control's order
    labels: list[str]    # how each value is shown
    initial: int         # index of the notebook's value
    full: int            # positions of the live control (its every step / option)
    fixed: bool = False
    #: the live control's accessible name: label and meaning (ppdm_edu.widgets._names)
    accessible: str = ""
    #: the positions the prose asks for (PROSE_VALUES): never coarsened nor fixed
    pinned: bool = False

    @property
    def radix(self) -> int:
        return 1 if self.fixed else len(self.values)


def _fmt(control, value) -> str:
    fmt = getattr(control, "readout_format", None)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if fmt and isinstance(value, (int, float)):
        try:
            return format(value, fmt)
        except ValueError:
            pass
    return str(value)


def _slider_steps(c) -> list:
    """Every value the live slider can take, in its order (what its read-out shows).

    A :class:`~ipywidgets.FloatLogSlider` steps in log space: its ``min``, ``max`` and ``step``
    are exponents and its value is ``base ** exponent``. Its positions are the exponents
    ``min + k * step`` up to ``max``, and ``max`` itself when it is not on a step (the front
    end's slider reaches both ends); the values are ``base ** exponent`` (12 significant digits,
    the ends exactly ``base ** min`` and ``base ** max``, the values its validator allows).
    """
    if isinstance(c, widgets.FloatLogSlider):
        n = int(math.floor((c.max - c.min) / c.step + 1e-9)) + 1
        exponents = [round(c.min + k * c.step, 10) for k in range(n)]
        if c.max - exponents[-1] > 1e-9 * max(1.0, abs(c.max)):
            exponents.append(c.max)
        values = [float(f"{c.base ** e:.12g}") for e in exponents]
        values[0], values[-1] = c.base ** c.min, c.base ** c.max
        return values
    n = int(round((c.max - c.min) / c.step)) + 1
    if isinstance(c, widgets.IntSlider):
        return [int(c.min + k * c.step) for k in range(n)]
    return [round(c.min + k * c.step, 10) for k in range(n)]


def slider_ends(c) -> tuple:
    """The smallest and largest value of a slider (``base ** min``, ``base ** max`` for a
    :class:`~ipywidgets.FloatLogSlider`, whose ``min`` and ``max`` are exponents)."""
    if isinstance(c, widgets.FloatLogSlider):
        return c.base ** c.min, c.base ** c.max
    return c.min, c.max


def _coarse(c, steps: list) -> list:
    """COARSE evenly spaced positions on the slider's own steps, plus its default and both ends."""
    picks = {steps[round(k * (len(steps) - 1) / (COARSE - 1))] for k in range(COARSE)}
    default = min(steps, key=lambda v: abs(v - c.value))
    return sorted(picks | {default, steps[0], steps[-1]})


def _options(c) -> tuple[list, list[str]]:
    pairs = [o if isinstance(o, tuple) else (str(o), o) for o in c.options]
    return [v for _, v in pairs], [str(lab) for lab, _ in pairs]


def _index(values: list, value) -> int:
    """Where ``value`` is in ``values`` (the nearest one for a number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return values.index(value) if value in values else 0
    return min(range(len(values)), key=lambda k: abs(values[k] - value))


def grid_of(panel) -> list[ControlGrid]:
    """The twin's grid for ``panel`` (its controls at the values they have now): see the module
    docstring for the rules."""
    grid = []
    for name, c in panel.controls.items():
        label = c.description or name
        meaning = accessible_name(type(panel).__name__, name, c)
        prose = PROSE_VALUES.get((type(panel).__name__, name))
        if isinstance(c, widgets.SelectMultiple):
            values, labels = _options(c)
            chosen = [tuple(c.value)]
            if prose == "all" and tuple(values) != tuple(c.value):
                chosen.append(tuple(values))
            shown = [", ".join(lab for v, lab in zip(values, labels) if v in pick) for pick in chosen]
            grid.append(ControlGrid(name, label, "multiple" if len(chosen) == 1 else "select",
                                    chosen, shown, 0, 2 ** len(values), fixed=len(chosen) == 1))
        elif isinstance(c, (widgets.IntSlider, widgets.FloatSlider, widgets.FloatLogSlider)):
            steps = _slider_steps(c)
            if isinstance(prose, tuple):
                wanted = [*prose, c.value]
                steps = sorted({min(steps, key=lambda v, w=w: abs(v - w)) for w in wanted})
            grid.append(ControlGrid(name, label, "range", steps, [_fmt(c, v) for v in steps], 0, len(steps)))
            grid[-1].pinned = isinstance(prose, tuple)
        elif isinstance(c, (widgets.Checkbox, widgets.ToggleButton)):
            grid.append(ControlGrid(name, label, "checkbox", [False, True], ["no", "yes"], 0, 2))
        elif getattr(c, "options", None):
            values, labels = _options(c)
            kind = "select" if isinstance(c, widgets.Dropdown) else "radio"
            grid.append(ControlGrid(name, label, kind, values, labels, 0, len(values)))
        else:
            raise TypeError(f"{type(panel).__name__}.{name}: a {type(c).__name__} has no twin grid yet")

        grid[-1].accessible = meaning

    def size():
        return math.prod(g.radix for g in grid)

    sliders = [g for g in grid if g.kind == "range" and not g.pinned]
    controls = panel.controls
    # 1. coarsen the slider with most positions while the grid is too big
    while size() > BUDGET:
        wide = [g for g in sliders if not g.fixed and len(g.values) > COARSE + 2]
        if not wide:
            break
        g = max(wide, key=lambda g: len(g.values))
        g.values = _coarse(controls[g.name], g.values)
        g.labels = [_fmt(controls[g.name], v) for v in g.values]
    # 2. fix sliders (last listed first), then discrete controls
    for g in [*sliders[::-1], *[g for g in grid[::-1] if g.kind != "range" and not g.pinned]]:
        if size() <= BUDGET:
            break
        g.fixed = True
    # 3. give a coarsened slider its every step back when that fits
    for g in sliders:
        if not g.fixed and len(g.values) < g.full:
            every = _slider_steps(controls[g.name])
            if size() // len(g.values) * len(every) <= BUDGET:
                g.values, g.labels = every, [_fmt(controls[g.name], v) for v in every]
    for g in grid:
        if g.kind == "multiple":
            continue
        near = _index(g.values, controls[g.name].value)
        if g.fixed:
            g.values, g.labels, g.initial = [g.values[near]], [g.labels[near]], 0
        else:
            g.initial = near
    return grid


def snake(radices: list[int]):
    """Every index tuple of a mixed-radix grid, each differing from the one before in exactly one
    position by one (the reflected order: the last position moves fastest, to and fro)."""
    if not radices:
        yield ()
        return
    rest = list(snake(radices[1:]))
    for i in range(radices[0]):
        for tail in (rest if i % 2 == 0 else reversed(rest)):
            yield (i, *tail)


def flat_index(indices, radices) -> int:
    """The position of a state in the twin's list (row-major, as ``ppdm-twins.js`` computes it)."""
    k = 0
    for i, r in zip(indices, radices):
        k = k * r + i
    return k


def alt_text(panel, result, readout: str) -> str:
    """The figure's alt text: ``panel.describe(result)`` when the panel has it (the accessibility
    lane's :meth:`Panel.describe`), else the read-out's text without its tags."""
    describe = getattr(panel, "describe", None)
    if callable(describe):
        return str(describe(result))
    text = " ".join(html.unescape(_TAG.sub(" ", readout)).split())
    return f"{panel.title}. {text}" if text else panel.title


@dataclass
class Found:
    """A panel's stand-in in a notebook: where, which class, built how."""

    cell: int
    output: int
    cls: type
    kwargs: dict


def find_panels(nb: dict) -> list[Found]:
    """Every panel stand-in output of a notebook, with the class and the notebook's arguments."""
    classes = {cls.__name__: cls for cls in all_panels().values()}
    found = []
    for i, cell in enumerate(nb.get("cells", [])):
        for j, out in enumerate(cell.get("outputs", [])):
            if static_picture(out) is None:
                continue
            plain = out.get("data", {}).get("text/plain", "")
            m = _CLASS_NAME.search("".join(plain) if isinstance(plain, list) else plain)
            if m is None or m[1] not in classes:
                raise ValueError(f"cell {i}: a panel stand-in without a known class ({plain!r})")
            found.append(Found(i, j, classes[m[1]], _call_kwargs("".join(cell["source"]), m[1])))
    return found


def _call_kwargs(source: str, name: str) -> dict:
    """The literal keyword arguments of the (last) call ``name(...)`` in a cell's source."""
    kwargs: dict = {}
    lines = [line for line in source.split("\n") if not line.lstrip().startswith(("%", "!"))]
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
            if node.args:
                raise ValueError(f"{name}(...) with positional arguments: give keywords")
            kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
    return kwargs


def sources_hash() -> str:
    """A hash of the code that computes the twins: the sources of the ``ppdm_edu`` that is
    imported (not necessarily ``REPO/ppdm_edu``: ``python site/build.py`` puts ``site/``, not the
    checkout, first on ``sys.path``, so an install elsewhere would compute the states while this
    checkout's sources keyed them) and this module."""
    import ppdm_edu

    package = Path(ppdm_edu.__file__).resolve().parent
    if package != (REPO / "ppdm_edu").resolve():
        print(f"site/_twins.py: the twins are computed by {package}, not by this checkout's "
              f"ppdm_edu (run with PYTHONPATH={REPO} to use it)", file=sys.stderr)
    h = hashlib.sha256()
    # content only (relative names, bytes), never where the checkout lies: a fresh clone elsewhere
    # with the same sources finds the same cache entries
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(package.parent)).encode())
            h.update(path.read_bytes())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()


def package_hash_of_sources(sources: str | None = None) -> str:
    """The hash that keys a twin's frames: :func:`sources_hash` and matplotlib's version (another
    matplotlib draws other pixels)."""
    import matplotlib

    return hashlib.sha256(((sources or sources_hash()) + matplotlib.__version__).encode()).hexdigest()


def _webp(png: bytes) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.open(io.BytesIO(png)).save(buffer, format="WEBP", lossless=True, method=1)  # 4: 40 % slower, same size
    return buffer.getvalue()


def shown_text(panel) -> tuple[str, bool]:
    """What the panel shows under its figure now: the read-out, or the message that replaced
    the figure (True)."""
    if panel.error is not None:
        return panel.message.value, True
    return panel.readout.value, False


def compute_states(cls, kwargs: dict, folder: Path) -> dict:
    """Walk the grid with a live panel; write the frames into ``folder``; return the twin's data."""
    from ppdm_edu import lecture_mode

    lecture_mode(False)  # the classroom style, as every notebook's first cell sets it
    saved = precompute.threads_available
    precompute.threads_available = lambda: False  # nothing computed ahead: every state is asked
    try:
        panel = cls(**kwargs)
        grid = grid_of(panel)
        radices = [g.radix for g in grid]
        states: list = [None] * math.prod(radices)
        frames: dict[str, str] = {}
        first = True
        for indices in snake(radices):
            for g, i in zip(grid, indices):
                value = g.values[i]
                control = panel.controls[g.name]
                if first or control.value != value:
                    control.value = value  # the panel's own update, as a student's move
            first = False
            text, is_message = shown_text(panel)
            state = {"r": text}
            if is_message:
                state["m"] = 1
            else:
                digest = hashlib.sha256(panel.image.value).hexdigest()[:20]
                if digest not in frames:
                    frames[digest] = f"{len(frames):04d}.webp"
                    (folder / frames[digest]).write_bytes(_webp(panel.image.value))
                state["f"] = frames[digest]
                state["a"] = alt_text(panel, panel.result, text)
            states[flat_index(indices, radices)] = state
    finally:
        precompute.threads_available = saved
    return {"title": panel.title, "controls": [g.__dict__ for g in grid], "radices": radices,
            "states": states}


def notebook_picture(found: Found) -> bytes:
    """The PNG a new panel draws at the notebook's settings: the twin's frame there, drawn by
    this environment's matplotlib without walking the grid."""
    from ppdm_edu import lecture_mode

    lecture_mode(False)  # the classroom style, as in compute_states
    return found.cls(**found.kwargs).image.value


def is_cached(found: Found, package_hash: str) -> bool:
    """Whether :func:`cached_states` would find the twin without computing it."""
    return (CACHE / twin_key(found, package_hash)[:40] / "record.json").exists()


def twin_key(found: Found, package_hash: str) -> str:
    """The cache key of a twin: the package's sources and matplotlib's version (``package_hash``),
    the panel's class and the notebook's arguments, and the grid's rules."""
    return hashlib.sha256(json.dumps([package_hash, found.cls.__module__, found.cls.__name__,
                                      found.kwargs, BUDGET, COARSE], sort_keys=True).encode()).hexdigest()


def readout_states(found: Found, sources: str) -> tuple[dict, Path]:
    """The twin's states computed by these sources (:func:`sources_hash`), whatever matplotlib
    drew the frames, and the folder holding them; computed with this matplotlib when none is cached.

    Read-outs, messages and alt texts are numbers and words, not pixels: the environments of
    ``make test-deps`` (the oldest and newest matplotlib) compare their live panels with the
    states ``make test`` cached, instead of drawing every twin again.
    """
    folder = cached_readouts(found, sources)
    if folder is not None:
        return json.loads((folder / "record.json").read_text(encoding="utf-8")), folder
    return cached_states(found, package_hash_of_sources(sources), sources)


def cached_readouts(found: Found, sources: str) -> Path | None:
    """The cache folder of the twin's states computed by these sources with any matplotlib, or
    None (:func:`readout_states` would compute them)."""
    key = twin_key(found, sources)
    if CACHE.is_dir():
        for marker in CACHE.glob(f"[!.]*/{SOURCES_MARKER}"):  # not a folder still being written (".…")
            if marker.read_text(encoding="utf-8").strip() == key and (marker.parent / "record.json").exists():
                return marker.parent
    return None


#: in each cache folder: the twin's key without matplotlib's version (:func:`readout_states`)
SOURCES_MARKER = "sources.key"


def cached_states(found: Found, package_hash: str, sources: str | None = None) -> tuple[dict, Path]:
    """The twin's data and the cache folder holding its frames; computed when not cached.

    A folder is complete once its ``record.json`` exists: the states are computed into a
    temporary folder that is renamed into place, so an interrupted build leaves no half entry.
    ``sources`` (:func:`sources_hash`, from which ``package_hash`` was made) saves reading the
    package again for the folder's :data:`SOURCES_MARKER`.
    """
    key = twin_key(found, package_hash)
    folder = CACHE / key[:40]
    record = folder / "record.json"
    if record.exists():
        data = json.loads(record.read_text(encoding="utf-8"))
        if data.get("key") == key:
            os.utime(folder)  # recently used: kept by _prune
            return data, folder
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{key[:12]}-", dir=CACHE))
    try:
        data = compute_states(found.cls, found.kwargs, tmp)
        data["key"] = key
        (tmp / SOURCES_MARKER).write_text(twin_key(found, sources or sources_hash()), encoding="utf-8")
        (tmp / "record.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        try:
            tmp.rename(folder)
        except OSError:  # another process put the same entry first: the same content
            if not record.exists():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _prune()
    return data, folder


def _prune() -> None:
    """Keep the :data:`CACHE_ENTRIES` most recently used cache folders."""
    entries = sorted((p for p in CACHE.iterdir() if p.is_dir() and not p.name.startswith(".")),
                     key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[CACHE_ENTRIES:]:
        shutil.rmtree(old, ignore_errors=True)


def notebook_twins(notebooks: Path = REPO / "notebooks") -> list[tuple[str, Found]]:
    """Every panel stand-in of the notebooks, with its twin's id (``twin-NN-k``)."""
    out = []
    for path in sorted(notebooks.glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        out += [(f"twin-{path.stem[:2]}-{k + 1}", f) for k, f in enumerate(find_panels(nb))]
    return out


def _compute_one(found: Found, package_hash: str, sources: str) -> float:
    start = time.perf_counter()
    cached_states(found, package_hash, sources)
    return time.perf_counter() - start


def _worker_path(site: str) -> None:  # a worker process imports this module from site/
    if site not in sys.path:
        sys.path.insert(0, site)


def compute_missing(jobs: int | None = None, sources: str | None = None) -> list[str]:
    """Compute every notebook twin the cache lacks, ``jobs`` at a time (default: every core),
    in separate processes; print a line per twin; return their ids.

    ``make test`` runs this (``python site/_twins.py``) before pytest, so that the twins' tests
    read a cache made outside any timed test, and ``make site`` before Sphinx: on a fresh clone
    the twins (a minute of CPU) then take half the time on two cores.
    """
    sources = sources or sources_hash()
    package_hash = package_hash_of_sources(sources)
    todo = [(twin_id, f) for twin_id, f in notebook_twins() if not is_cached(f, package_hash)]
    if not todo:
        return []
    jobs = max(1, min(len(todo), jobs or os.cpu_count() or 1))
    start = time.perf_counter()
    if jobs == 1:
        for twin_id, f in todo:
            print(f"twin {twin_id} ({f.cls.__name__}): computed in "
                  f"{_compute_one(f, package_hash, sources):.0f} s", flush=True)
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        # spawn, not fork: the parent has matplotlib and ipywidgets loaded, and runs threads
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=_worker_path, initargs=(str(HERE),)) as pool:
            futures = {pool.submit(_compute_one, f, package_hash, sources): (twin_id, f)
                       for twin_id, f in todo}
            for done in as_completed(futures):
                twin_id, f = futures[done]
                print(f"twin {twin_id} ({f.cls.__name__}): computed in {done.result():.0f} s", flush=True)
    print(f"{len(todo)} twins computed in {time.perf_counter() - start:.0f} s on {jobs} processes", flush=True)
    return [twin_id for twin_id, _ in todo]


def build_twin(found: Found, twin_id: str, package_hash: str) -> dict:
    """The twin published as ``OUT/twin_id`` (frames and ``data.js``) and recorded in ``DATA``,
    from the cache (:func:`cached_states`)."""
    start = time.perf_counter()
    hit = is_cached(found, package_hash)
    print(f"make site: twin {twin_id} ({found.cls.__name__}) ...", end=" ", flush=True)
    cached, source = cached_states(found, package_hash)
    print(f"{len(cached['states'])} states, "
          + ("from the cache" if hit else f"computed in {time.perf_counter() - start:.0f} s"), flush=True)
    data = dict(cached, id=twin_id)
    folder = OUT / twin_id
    data_file = DATA / f"{twin_id}.json"
    if not (data_file.exists() and (folder / "data.js").exists()
            and json.loads(data_file.read_text(encoding="utf-8")).get("key") == data["key"]):
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(source, folder, ignore=shutil.ignore_patterns("record.json", SOURCES_MARKER))
        DATA.mkdir(parents=True, exist_ok=True)
        data_file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        # the browser's copy: a script (works from file:// too, where fetch() of JSON does not)
        script = {"controls": [{"n": len(c["values"]), "labels": c["labels"]} for c in data["controls"]],
                  "radices": data["radices"], "states": data["states"]}
        (folder / "data.js").write_text(
            "window.PPDM_TWINS = window.PPDM_TWINS || {};\n"
            f"window.PPDM_TWINS[{json.dumps(twin_id)}] = {json.dumps(script, ensure_ascii=False)};\n",
            encoding="utf-8")
    return data


def _conf_literal(name: str) -> str:
    tree = ast.parse((HERE / "conf.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise KeyError(name)


def launch_links(stem: str) -> tuple[str, str]:
    """The JupyterLite and Binder addresses of a notebook, from a page in ``notebooks/``."""
    repo = _conf_literal("REPOSITORY_URL").rstrip("/")
    org_repo = repo.split("github.com/", 1)[1]
    binder = (f"{_conf_literal('BINDERHUB_URL').rstrip('/')}/v2/gh/{org_repo}/"
              f"{_conf_literal('REPOSITORY_BRANCH')}?urlpath=lab/tree/notebooks/{stem}.ipynb")
    return f"../lite/lab/index.html?path=notebooks/{stem}.ipynb", binder


def _control_html(twin_id: str, k: int, g: dict) -> str:
    cid = f"{twin_id}-c{k}"
    label = html.escape(g["label"])
    # the same accessible name as the live panel's control (label, meaning); the visible label
    # stays short, the meaning is also the tooltip
    named = html.escape(g.get("accessible") or g["label"])
    name_attrs = f'aria-label="{named}" title="{named}"'
    if g["kind"] == "range":
        shown = html.escape(g["labels"][g["initial"]])
        return (f'<span class="ppdm-twin-control"><label for="{cid}">{label}</label> '
                f'<input type="range" id="{cid}" data-control="{k}" min="0" max="{len(g["values"]) - 1}" '
                f'step="1" value="{g["initial"]}" aria-valuetext="{shown}" {name_attrs}> '
                f'<output for="{cid}">{shown}</output></span>')
    if g["kind"] == "select":
        options = "".join(f'<option value="{i}"{" selected" if i == g["initial"] else ""}>'
                          f"{html.escape(lab)}</option>" for i, lab in enumerate(g["labels"]))
        return (f'<span class="ppdm-twin-control"><label for="{cid}">{label}</label> '
                f'<select id="{cid}" data-control="{k}" {name_attrs}>{options}</select></span>')
    if g["kind"] == "radio":
        radios = "".join(
            f'<label><input type="radio" name="{cid}" data-control="{k}" value="{i}"'
            f'{" checked" if i == g["initial"] else ""}> {html.escape(lab)}</label> '
            for i, lab in enumerate(g["labels"]))
        return (f'<fieldset class="ppdm-twin-control" {name_attrs}><legend>{label}</legend>{radios}</fieldset>')
    checked = " checked" if g["values"][g["initial"]] else ""
    return (f'<span class="ppdm-twin-control"><label><input type="checkbox" id="{cid}" '
            f'data-control="{k}"{checked} {name_attrs}> {label}</label></span>')


def _grid_line(g: dict) -> str:
    if g["fixed"]:
        return f"{g['label']}: fixed at {g['labels'][0]}"
    if g["kind"] != "range":
        if len(g["values"]) < g["full"]:  # a multiple choice: the selections the prose names
            return f"{g['label']}: {len(g['values'])} of its {g['full']} selections ({'; '.join(g['labels'])})"
        return f"{g['label']}: every option"
    if len(g["values"]) == g["full"]:
        return f"{g['label']}: every step ({g['full']} positions)"
    return f"{g['label']}: {len(g['values'])} of its {g['full']} positions ({', '.join(g['labels'])})"


def twin_html(data: dict, stem: str, picture: bytes, readout: str) -> str:
    """The twin's markup: label and launch links, native controls, the figure, the read-out
    (aria-live) and what the grid is. It opens on the notebook's stored picture and read-out."""
    twin_id = data["id"]
    lite, binder = launch_links(stem)
    free = [(k, g) for k, g in enumerate(data["controls"]) if not g["fixed"]]
    fixed = [g for g in data["controls"] if g["fixed"]]
    controls = "".join(_control_html(twin_id, k, g) for k, g in free)
    note = ""
    if fixed:
        note = ("<p class=\"ppdm-twin-fixed\">Fixed on this page (the live panel moves them): "
                + "; ".join(html.escape(f"{g['label']} = {g['labels'][0]}") for g in fixed) + ".</p>")
    grid = "".join(f"<li>{html.escape(_grid_line(g))}</li>" for g in data["controls"])
    digest = hashlib.sha256(picture).hexdigest()
    first = data["states"][flat_index([g["initial"] for g in data["controls"]], data["radices"])]
    alt = first.get("a", data["title"])
    base = f"../_static/twins/{twin_id}/"
    return (
        f'<div class="ppdm-twin" id="{twin_id}" data-twin="{twin_id}" data-base="{base}">'
        f'<p class="ppdm-twin-label"><strong>{html.escape(data["title"])}</strong><br>'
        f'<span>{html.escape(LABEL)}</span> '
        f'<a class="ppdm-twin-launch" href="{html.escape(lite)}">JupyterLite</a> '
        f'<a class="ppdm-twin-launch" href="{html.escape(binder)}">Binder</a></p>'
        f'<div class="ppdm-twin-controls">{controls}</div>{note}'
        f'<img class="ppdm-twin-figure" src="{base}{digest}.png" alt="{html.escape(alt)}">'
        f'<div class="ppdm-twin-readout ppdm-readout" aria-live="polite">{readout}</div>'
        f'<details class="ppdm-twin-grid"><summary>The grid of this precomputed panel '
        f'({len(data["states"])} states)</summary><ul>{grid}</ul></details>'
        f'<script src="{base}data.js"></script>'
        f'<script src="../_static/ppdm-twins.js" defer></script></div>')


# the stand-in's settings line, which the twin's own controls replace
_SETTINGS = re.compile(r'^<p style="color:#555">Controls: .*?</p>', re.S)


def with_twins(nb: dict, stem: str, made: set | None = None, package_hash: str | None = None) -> dict:
    """``nb`` with every panel stand-in output replaced by its twin (an HTML output); the frames
    and data go to ``OUT``; the twins' ids are added to ``made``."""
    found = find_panels(nb)
    if not found:
        return nb
    package_hash = package_hash or package_hash_of_sources()
    for k, f in enumerate(found):
        twin_id = f"twin-{stem[:2]}-{k + 1}"
        data = build_twin(f, twin_id, package_hash)
        if made is not None:
            made.add(twin_id)
        out = nb["cells"][f.cell]["outputs"][f.output]
        picture, _alt = static_picture(out)
        (OUT / twin_id / f"{hashlib.sha256(picture).hexdigest()}.png").write_bytes(picture)
        readout = _SETTINGS.sub("", static_readout(out)).strip()
        nb["cells"][f.cell]["outputs"][f.output] = {
            "output_type": "display_data", "metadata": {},
            "data": {"text/html": twin_html(data, stem, picture, readout),
                     "text/plain": f"<{f.cls.__name__}: precomputed twin>"}}
        assert STATIC_CLASS not in nb["cells"][f.cell]["outputs"][f.output]["data"]["text/html"]
    return nb


def remove_stale(keep: set[str]) -> None:
    """Drop twin folders no notebook has any more."""
    if OUT.exists():
        for folder in OUT.iterdir():
            if folder.is_dir() and folder.name not in keep:
                shutil.rmtree(folder)
    if DATA.exists():
        for record in DATA.glob("*.json"):
            if record.stem not in keep:
                record.unlink()


def main(argv=None) -> int:
    """``python site/_twins.py [--jobs N]``: compute the twins the cache lacks (``make test``)."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    args = parser.parse_args(argv)
    if args.jobs is not None and args.jobs < 1:
        parser.error(f"--jobs must be a positive integer, got {args.jobs}")
    compute_missing(args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
