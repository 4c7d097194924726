"""The course as a website (issue 16): ``make site`` / ``make lite`` and what they must contain.

Two groups:

* fast checks that run in ``make test`` (no extra needed): the README's Binder badge and
  pyproject's URLs use the repository URL of the site config; the package imports nothing that
  Pyodide (JupyterLite) lacks, and starts no thread, at import time; no module of the package
  imports parallel or notebook-server machinery at module level (they must be imported lazily,
  inside the function that needs them).
* checks of the built site and JupyterLite build (marker ``browser``: ``make test-browser``, whose
  environment has the ``[site]`` extra). ``make test-browser`` builds both first; run directly,
  the fixtures rebuild whatever is older than its sources (``site/build.py``, ``site/lite.py``).
"""
from __future__ import annotations

import ast
import base64
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from ppdm_edu._imports import imports_in
from ppdm_edu.widgets.panel import static_picture, static_readout

REPO = Path(__file__).resolve().parents[1]
SITE = REPO / "site"
HTML = SITE / "_build" / "html"
LITE = HTML / "lite"
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _conf_value(name: str):
    """A literal assigned at the top of site/conf.py (read without importing Sphinx)."""
    tree = ast.parse((SITE / "conf.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"site/conf.py assigns no {name}")


# ----------------------------------------------------------------------------- fast (make test)
def test_binder_badge_and_project_urls_use_the_site_repository_url():
    url = _conf_value("REPOSITORY_URL")
    branch = _conf_value("REPOSITORY_BRANCH")
    binder = _conf_value("BINDERHUB_URL").rstrip("/")
    parts = urlparse(url)
    assert parts.netloc == "github.com", url  # the launch buttons build /v2/gh/ links
    org, repo = parts.path.strip("/").split("/")
    launch = f"{binder}/v2/gh/{org}/{repo}/{branch}"

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    badge = re.search(r"\[!\[Binder\]\([^)]*\)\]\((?P<link>[^)\s]+)\)", readme)
    assert badge, "README.md has no Binder badge ([![Binder](...)](link))"
    assert badge["link"].startswith(launch + "?"), (badge["link"], launch)
    other = [u for u in re.findall(r"https://mybinder\.org/v2/gh/[^)\s\"'>]+", readme)
             if not u.startswith(launch)]
    assert not other, f"README links Binder for another repository/branch: {other}"

    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    urls = dict(re.findall(r'^(\w+)\s*=\s*"(https://[^"]+)"', pyproject.split("[project.urls]")[1]
                           .split("\n[")[0], re.MULTILINE))
    assert urls["Homepage"] == url and urls["Source"] == url, urls
    assert urls["Binder"].startswith(launch + "?"), urls["Binder"]


# What Pyodide (the JupyterLite kernel) does not have; scikit-learn's own imports (joblib and its
# loky, multiprocessing) exist there and are not ours to avoid.
PYODIDE_LACKS = ["jupyterlab", "jupyter_server", "notebook", "tqdm.notebook", "dask", "distributed",
                 "zmq", "psutil"]

IMPORT_ALL_BLOCKED = textwrap.dedent("""
    import importlib, importlib.abc, pkgutil, sys, threading

    BLOCKED = {blocked!r}

    class PyodideLacks(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if any(name == b or name.startswith(b + ".") for b in BLOCKED):
                raise ImportError(f"{{name}} is not available under Pyodide (blocked by the test)")
            return None

    sys.meta_path.insert(0, PyodideLacks())
    threads = threading.active_count()
    import ppdm_edu
    names = ["ppdm_edu"] + [m.name for m in pkgutil.walk_packages(ppdm_edu.__path__, "ppdm_edu.")
                            if m.name != "ppdm_edu.__main__"]
    failed = []
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as err:
            failed.append(f"{{name}}: {{type(err).__name__}}: {{err}}")
    print("MODULES", len(names))
    print("THREADS", threads, threading.active_count())
    for line in failed:
        print("FAILED", line)
""")


def test_every_http_server_command_in_the_docs_listens_on_this_machine_only():
    """``python -m http.server`` binds every interface unless told otherwise: a command in the
    docs that serves the course must bind 127.0.0.1 (``-b 127.0.0.1``), so that following it on a
    laptop in a lecture hall does not publish the folder to the network."""
    docs = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "notebooks").glob("*.md")),
            *sorted(SITE.glob("*.md")), *sorted((REPO / "binder").glob("*.md"))]
    commands = [(path.name, m.group(0)) for path in docs if path.exists()
                for m in re.finditer(r"python3? -m http\.server[^`\n]*", path.read_text(encoding="utf-8"))]
    assert commands, "the README no longer says how to serve the site locally"
    loose = [(name, cmd) for name, cmd in commands
             if not re.search(r"(^|\s)(-b|--bind)\s+(127\.0\.0\.1|localhost|::1)(\s|$)", cmd)]
    assert not loose, f"http.server commands that listen on every interface: {loose}"


def test_package_imports_without_what_pyodide_lacks_and_starts_no_thread():
    code = IMPORT_ALL_BLOCKED.format(blocked=PYODIDE_LACKS)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO), "MPLBACKEND": "Agg"},
                          timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    failed = [line for line in out.splitlines() if line.startswith("FAILED")]
    assert not failed, "\n".join(failed)
    n_modules = int(re.search(r"MODULES (\d+)", out)[1])
    assert n_modules > 30, out  # the walk found the package's modules
    before, after = map(int, re.search(r"THREADS (\d+) (\d+)", out).groups())
    assert after == before, f"importing ppdm_edu started {after - before} thread(s)"


# Imported inside the function that needs them, never at module level: JupyterLite has no
# processes to give them, and `import ppdm_edu` must stay light. (`threading` itself imports
# under Pyodide - only starting a thread fails - so the import test checks that no thread starts.)
LAZY_ONLY = ("joblib", "dask", "distributed", "multiprocessing", "concurrent.futures",
             "tqdm.notebook", "jupyterlab", "ipykernel", "loky")


def test_parallel_and_notebook_machinery_is_imported_lazily():
    offenders = []
    for path in sorted((REPO / "ppdm_edu").rglob("*.py")):
        # only what runs on import: the same module imported inside a function is what we want
        # (relative imports, left out without a package, stay inside ppdm_edu)
        for name in sorted(imports_in(path.read_text(encoding="utf-8"), top_level_only=True)):
            if any(name == m or name.startswith(m + ".") for m in LAZY_ONLY):
                offenders.append(f"{path.relative_to(REPO)} imports {name} at module level")
    assert not offenders, "import these inside the function that uses them:\n" + "\n".join(offenders)


# ----------------------------------------------------------------------------- the built site
def _newest_mtime(paths) -> float:
    return max((p.stat().st_mtime for p in paths if p.is_file()), default=0.0)


def _site_inputs():
    yield from NOTEBOOKS
    for pattern in ("*.md", "*.py", "*.bib"):
        yield from SITE.glob(pattern)
    yield from (REPO / "ppdm_edu").rglob("*.py")
    yield from (REPO / "reports" / "full").glob("*")
    yield REPO / "benchmarks" / "RESULTS.md"


def _run(script: str) -> None:
    proc = subprocess.run([sys.executable, str(SITE / script)], capture_output=True, text=True,
                          cwd=REPO, timeout=900)
    assert proc.returncode == 0, f"site/{script} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"


@pytest.fixture(scope="module")
def site_html() -> Path:
    for mod in ("sphinx", "myst_nb", "sphinx_book_theme", "sphinxcontrib.bibtex", "numpydoc"):
        try:
            __import__(mod)
        except ImportError as err:
            pytest.fail(f"{err}: install the site extra (`pip install -e '.[site]'`; make test-browser does)")
    index = HTML / "index.html"
    if not index.exists() or index.stat().st_mtime < _newest_mtime(list(_site_inputs())):
        _run("build.py")  # -W: any warning fails the build
    return HTML


@pytest.fixture(scope="module")
def lite_html(site_html) -> Path:
    stamp = LITE / "jupyter-lite.json"
    inputs = [*NOTEBOOKS, SITE / "lite.py", *(REPO / "ppdm_edu").rglob("*.py"), REPO / "pyproject.toml"]
    if not stamp.exists() or stamp.stat().st_mtime < _newest_mtime(inputs):
        _run("lite.py")
    return LITE


class _Refs(HTMLParser):
    """Every URL a page loads or links, with the tag and attribute, and every element id."""

    def __init__(self):
        super().__init__()
        self.refs: list[tuple[str, str, str, dict]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        for attr in ("src", "href", "data", "poster"):
            if a.get(attr):
                self.refs.append((tag, attr, a[attr], a))


def _parse(path: Path) -> _Refs:
    p = _Refs()
    p.feed(path.read_text(encoding="utf-8", errors="replace"))
    return p


def _site_pages(html: Path) -> list[Path]:
    """The pages (not the lite build, nor the theme's Jinja macro files in _static)."""
    return sorted(p for p in html.rglob("*.html")
                  if LITE not in p.parents and html / "_static" not in p.parents)


@pytest.mark.browser
def test_every_notebook_has_a_page_with_launch_buttons(site_html, lite_html):
    url, branch = _conf_value("REPOSITORY_URL"), _conf_value("REPOSITORY_BRANCH")
    org_repo = urlparse(url).path.strip("/")
    for nb in NOTEBOOKS:
        page = site_html / "notebooks" / f"{nb.stem}.html"
        assert page.exists(), f"no page for {nb.name}"
        hrefs = [r[2] for r in _parse(page).refs if r[0] == "a"]
        binder = f"https://mybinder.org/v2/gh/{org_repo}/{branch}?urlpath=lab/tree/notebooks/{nb.name}"
        assert binder in hrefs, f"{page.name}: no Binder button {binder}"
        lite = [h for h in hrefs if "lite/lab/index.html?path=" in h]
        assert lite, f"{page.name}: no JupyterLite button"
        target = urlparse(lite[0])
        assert (page.parent / unquote(target.path)).resolve().exists(), lite[0]
        assert target.query == f"path=notebooks/{nb.name}"
        assert (lite_html / "files" / "notebooks" / nb.name).exists()


def _panel_pngs(nb_path: Path) -> list[bytes]:
    """Every panel's stored picture: the PNG of its kernel-gone stand-in."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    pictures = (static_picture(out) for cell in nb["cells"] if cell["cell_type"] == "code"
                for out in cell.get("outputs", []))
    return [p[0] for p in pictures if p is not None]


@pytest.mark.browser
def test_every_panel_shows_its_stored_png_on_its_page(site_html):
    n_panels = 0
    for nb in NOTEBOOKS:
        page = site_html / "notebooks" / f"{nb.stem}.html"
        html = page.read_text(encoding="utf-8")
        assert WIDGET_VIEW not in html and "widget-state+json" not in html, page.name
        # a live widget's text repr is no use to a reader (the stand-in shows the panel)
        assert "VBox(children=" not in html, f"{page.name}: a widget's VBox(...) repr is on the page"
        assert not re.search(r">\s*# NBVAL_", html), f"{page.name}: an nbval marker comment is in a code cell"
        # every panel's read-out is on the page under its picture (issue 16 §3)
        readouts = [static_readout(out) for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]
                    for out in cell.get("outputs", [])]
        for readout in filter(None, readouts):
            words = re.sub(r"<[^>]+>", " ", readout).split()[-6:]
            text = re.sub(r"<[^>]+>", " ", html)
            assert " ".join(words) in " ".join(text.split()), f"{page.name}: read-out {words} missing"
        images = {}
        for tag, _attr, src, _ in _parse(page).refs:
            if tag == "img" and not src.startswith(("http:", "https:", "data:")):
                f = (page.parent / unquote(src.split("#")[0])).resolve()
                assert f.exists(), f"{page.name}: <img src={src}> does not exist"
                images[hashlib.sha256(f.read_bytes()).hexdigest()] = src
        for k, png in enumerate(_panel_pngs(nb)):
            n_panels += 1
            assert hashlib.sha256(png).hexdigest() in images, (
                f"{page.name}: panel {k + 1}'s stored PNG is not an <img> of the page")
    assert n_panels >= 8, f"only {n_panels} panels in the notebooks"


EXTERNAL = re.compile(r"^(https?:)?//", re.IGNORECASE)


@pytest.mark.browser
def test_no_page_loads_anything_from_another_host(site_html):
    loads = []
    for page in _site_pages(site_html):
        for tag, attr, value, a in _parse(page).refs:
            if tag == "a" or not EXTERNAL.match(value):
                continue  # hyperlinks may point anywhere; nothing else may
            if tag == "link" and a.get("rel") in ("canonical",):
                continue
            loads.append(f"{page.relative_to(site_html)}: <{tag} {attr}={value}>")
    for css in (site_html / "_static").rglob("*.css"):
        for m in re.finditer(r"(?:url\(|@import\s+)['\"]?((?:https?:)?//[^'\")\s]+)", css.read_text(errors="replace")):
            loads.append(f"{css.relative_to(site_html)}: {m[1]}")
    assert not loads, "\n".join(loads[:40])
    # MathJax comes from the site itself (Sphinx adds it to the pages that have math)
    page = _parse(site_html / "notebooks" / "07_attacks_and_local_dp.html")
    mathjax = [v.split("?")[0] for t, _, v, _ in page.refs if t == "script" and "mathjax" in v.lower()]
    assert mathjax == ["../_static/mathjax/tex-mml-chtml.js"], mathjax
    assert (site_html / "_static/mathjax/output/chtml/fonts/woff-v2/MathJax_Main-Regular.woff").exists()


@pytest.mark.browser
def test_search_index_contains_reconstruction(site_html):
    text = (site_html / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1: text.rindex(")")])
    docnames = index["docnames"]
    docs = []
    for kind in ("terms", "titleterms"):  # a word of a page's titles is only in titleterms
        found = index[kind].get("reconstruct", [])  # Sphinx stores stems: reconstruction -> reconstruct
        docs += [found] if isinstance(found, int) else found
    assert docs, "the search index has no 'reconstruction'"
    assert docnames.index("notebooks/02_reconstruction") in docs
    assert len(set(docs)) >= 5  # the notebooks, the report and the API pages use the word
    assert any("reconstruction" in title.lower() for title in index["titles"])


@pytest.mark.browser
def test_internal_links_resolve(site_html, lite_html):
    broken, checked = [], 0
    parsed: dict[Path, _Refs] = {}

    def refs_of(path: Path) -> _Refs:  # each page parsed once (a page is linked thousands of times)
        if path not in parsed:
            parsed[path] = _parse(path)
        return parsed[path]

    for page in _site_pages(site_html):
        for _tag, _attr, value, _ in refs_of(page).refs:
            if EXTERNAL.match(value) or value.startswith(("mailto:", "data:", "javascript:")):
                continue
            target = urlparse(value)
            path = (page if not target.path else (page.parent / unquote(target.path))).resolve()
            if path.is_dir():
                path = path / "index.html"
            checked += 1
            if not path.exists():
                broken.append(f"{page.relative_to(site_html)}: {value}")
            elif target.fragment and path.suffix == ".html" and LITE not in path.parents:
                ids = refs_of(path).ids
                if unquote(target.fragment) not in ids:
                    broken.append(f"{page.relative_to(site_html)}: {value} (no id {target.fragment!r})")
    assert checked > 1000
    assert not broken, "\n".join(broken[:40])


@pytest.mark.browser
def test_animation_plays_offline_and_is_readable(site_html):
    from PIL import Image

    html = (site_html / "notebooks" / "02_reconstruction.html").read_text(encoding="utf-8")
    assert ".play_animation()" in html and "_anim_img" in html, "the to_jshtml player is missing"
    assert "font-awesome" not in html
    frames = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=\\\n]+)", html)
    assert len(frames) >= 5
    img = Image.open(io.BytesIO(base64.b64decode(re.sub(r"\\n|\\\n|\s", "", frames[0]))))
    dpi = img.info.get("dpi", (0, 0))[0]
    assert dpi >= 99.5, (f"animation frames are drawn at {dpi:.0f} dpi ({img.size[0]}x{img.size[1]} px): "
                         "re-execute notebook 02 without a dpi below 100")
    nb_size = (REPO / "notebooks" / "02_reconstruction.ipynb").stat().st_size
    assert nb_size < 2_000_000, f"notebook 02 is {nb_size / 1e6:.2f} MB"


@pytest.mark.browser
def test_bibliography_lists_every_entry_with_the_notebooks_citing_it(site_html):
    bib = (SITE / "references.bib").read_text(encoding="utf-8")
    keys = re.findall(r"^@\w+\{([^,]+),", bib, re.MULTILINE)
    assert len(keys) >= 10
    page = site_html / "bibliography.html"
    html = page.read_text(encoding="utf-8")
    # one list item per entry (site/_a11y.py turns the deprecated doc-biblioentry role into
    # listitem, issue 26)
    assert len(re.findall(r'<div class="citation" id="[^"]*" role="listitem"', html)) == len(keys)
    for doi in re.findall(r"doi\s*=\s*\{([^}]+)\}", bib):
        assert doi in html, f"{doi} is not on the bibliography page"
    cited = [v for t, _, v, _ in _parse(page).refs if t == "a" and v.startswith("notebooks/")]
    assert {Path(urlparse(v).path).stem for v in cited} >= {nb.stem for nb in NOTEBOOKS
                                                          if nb.stem != "06_mining_perturbed_data_directly"}


@pytest.mark.browser
def test_reports_benchmarks_and_api_pages(site_html):
    reports = _parse(site_html / "reports.html")
    figures = [v for t, _, v, _ in reports.refs if t == "img"]
    assert len(figures) == len(list((REPO / "reports" / "full").glob("*.png")))
    assert "Reproducing the papers" in (site_html / "reports.html").read_text(encoding="utf-8")
    assert "Benchmarks" in (site_html / "benchmarks.html").read_text(encoding="utf-8")
    # the lecturer's guide (notebooks/README.md, issue 15 §6) is a page of the site too
    guide = (site_html / "lecturers.html").read_text(encoding="utf-8")
    assert "Lecturer" in guide and "Start Deck" in guide and "lecturers.html" in (
        site_html / "index.html").read_text(encoding="utf-8")
    api = (site_html / "generated" / "ppdm_edu.reconstruction.html").read_text(encoding="utf-8")
    assert "ppdm_edu.reconstruction.reconstruct" in api


@pytest.mark.browser
def test_lite_build_has_the_notebooks_the_wheel_and_the_piplite_index(lite_html):
    import ppdm_edu

    # the eight notebooks, each the committed one with one install cell in front
    for nb in NOTEBOOKS:
        lite_nb = json.loads((lite_html / "files" / "notebooks" / nb.name).read_text(encoding="utf-8"))
        committed = json.loads(nb.read_text(encoding="utf-8"))
        first = "".join(lite_nb["cells"][0]["source"])
        assert 'sys.platform == "emscripten"' in first and "piplite.install" in first and "ppdm-edu" in first
        assert lite_nb["cells"][1:] == committed["cells"], f"{nb.name}: cells differ from the committed ones"
    assert (lite_html / "files" / "reports" / "full" / "as2000.csv").exists()  # notebook 04 reads it

    # the wheel of this version, with its data, indexed for piplite
    wheels = sorted((lite_html / "pypi").glob("ppdm_edu-*.whl"))
    assert [w.name for w in wheels] == [f"ppdm_edu-{ppdm_edu.__version__}-py3-none-any.whl"], wheels
    import zipfile

    names = zipfile.ZipFile(wheels[0]).namelist()
    assert "ppdm_edu/__init__.py" in names and any(n.startswith("ppdm_edu/datasets/data/") for n in names)
    assert list((lite_html / "pypi").glob("seaborn-*.whl"))
    index = json.loads((lite_html / "pypi" / "all.json").read_text())
    assert "ppdm-edu" in index and "seaborn" in index, sorted(index)
    releases = index["ppdm-edu"]["releases"][ppdm_edu.__version__]
    assert releases[0]["filename"] == wheels[0].name

    config = json.loads((lite_html / "jupyter-lite.json").read_text())["jupyter-config-data"]
    urls = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]["pipliteUrls"]
    assert any(u.split("?")[0] == "./pypi/all.json" for u in urls), urls
    extensions = {e["name"] for e in config["federated_extensions"]}
    assert "@jupyter-widgets/jupyterlab-manager" in extensions  # the panels' sliders
    # a course update reaches the student: the stored copies live under a name of this content
    assert config["contentsStorageName"].startswith("ppdm-edu-"), config.get("contentsStorageName")
    assert (lite_html / "lab" / "index.html").exists()


@pytest.mark.browser
def test_bibliography_entries_end_with_cited_in_links(site_html):
    """One list: every entry of the bibliography ends with links to the notebooks that cite it."""
    html = (site_html / "bibliography.html").read_text(encoding="utf-8")
    entries = re.findall(r'<div class="citation" id="[^"]*" role="listitem">(.*?)</div>', html, re.DOTALL)
    assert entries
    cited = json.loads((SITE / "_generated" / "cited_by.json").read_text())
    for entry in entries:
        assert "Cited in:" in entry, entry[:200]
        links = re.findall(r'href="notebooks/([0-9]{2}_\w+)\.html"', entry.split("Cited in:")[1])
        assert links and links in list(cited.values()), (links, entry[:200])


@pytest.mark.browser
def test_api_summaries_are_not_cut_at_an_abbreviation(site_html):
    """autosummary's first sentence must not end at 'Fig.', 'Sec.' or 'Eq.' (conf.py)."""
    cut = []
    for page in sorted((site_html / "generated").glob("*.html")):
        for row in re.findall(r'<tr class="row-(?:odd|even)">(.*?)</tr>', page.read_text(encoding="utf-8"),
                              re.DOTALL):
            cells = re.findall(r"<td>(.*?)</td>", row, re.DOTALL)
            text = re.sub(r"<[^>]+>", "", cells[-1]).strip() if cells else ""
            if re.search(r"\b(Sec|Secs|Fig|Figs|Eq|Eqs|Alg|Tab)\.$", text):
                cut.append(f"{page.name}: {text}")
    assert not cut, "\n".join(cut[:20])


@pytest.mark.browser
def test_report_figures_are_not_stretched_and_landing_names_the_repository(site_html):
    page = _parse(site_html / "reports.html")
    stretched = [v for t, _, v, a in page.refs if t == "img" and "width" in (a.get("style") or "")]
    assert not stretched, f"figures given a width (small PNGs get upscaled and blurred): {stretched}"
    index = (site_html / "index.html").read_text(encoding="utf-8")
    assert "&lt;the repository&gt;" not in index
    assert f'href="{_conf_value("REPOSITORY_URL")}"' in index
