"""Build the course website: ``python site/build.py`` (what ``make site`` runs; issue 16).

1. copy the committed notebooks into ``site/notebooks/`` (git-ignored), dropping only the
   notebook-level ``widgets`` metadata: the site shows each panel's stored PNG and must not embed
   ipywidgets state (nor the JavaScript that would fetch the widget manager from a CDN);
2. copy MathJax 3 (from the ``django-static-mathjax`` wheel of the ``[site]`` extra: the MathJax
   files only, no Django) into ``site/_static/mathjax`` so that math is typeset offline;
3. write ``site/_generated/cited_by.json``: for each entry of ``references.bib`` the notebooks
   that cite it (``CITATIONS`` below), which the bibliography style of ``conf.py`` turns into
   "Cited in" links at the end of the entry; a paper no notebook cites, or a key without a
   pattern, is an error;
4. run ``sphinx-build -W --keep-going -b html site site/_build/html``. The notebooks are never
   executed (``nb_execution_mode = "off"`` in conf.py).

Nothing here touches the network.
"""
from __future__ import annotations

import argparse
import base64
import importlib.util
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import _twins  # site/_twins.py: the panels' kernel-free twins (issue 25)

from ppdm_edu.widgets.panel import static_picture, static_readout

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the site's own helper modules (site/_*.py)
import _course  # noqa: E402  (issue 30: the course's notebooks, one list for site and lite)
import _quiz  # noqa: E402  (issue 30: quizzes without a kernel)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
NOTEBOOKS = REPO / "notebooks"
HTML = HERE / "_build" / "html"

# bibtex key -> a pattern that finds the paper in a notebook's Markdown (as the notebooks name it)
CITATIONS = {
    "agrawal2000": r"Agrawal (?:&|and) (?:R\. )?Srikant|SIGMOD 2000",
    "liu2009": r"Liu, Kantarcioglu|Liu et al\.",
    "du2003": r"Du (?:&|and) (?:Z\. )?Zhan",
    "agrawal2001": r"Agrawal (?:&|and) (?:C\. C\. )?Aggarwal",
    "becker1996adult": r"Becker and R\. Kohavi",
    "warner1965": r"Warner",
    "kargupta2003": r"Kargupta",
    "huang2005": r"Du (?:&|and) Chen",
    "evfimievski2003": r"Evfimievski",
    "balle2018": r"Balle (?:&|and) Wang",
    "ding2018": r"Ding et al\.",
    "jagielski2020": r"Jagielski et al\.",
    "clopper1934": r"Clopper",
    "przyborowski1940": r"Przyborowski",
    "johnstone2001": r"Johnstone",
    "marchenko1967": r"Marchenko",
    "erlingsson2014": r"RAPPOR",
    "dinur2003": r"Dinur (?:&|and) Nissim",
    "abowd2023": r"Abowd et al\.,? (?:\(?2023|\"The\s+2010)",
    "abowd2022": r"Abowd et al\. 2022",
    "dwork2006": r"Dwork, McSherry, Nissim (?:&|and) Smith",
    "dwork2007": r"Dwork, McSherry (?:&|and) Talwar",
    "bun2016": r"Bun (?:&|and) Steinke",
}

# nbval's per-cell markers (a whole line)
NBVAL_MARKER = re.compile(r"# NBVAL_[A-Z_]+")
# the MIME type of a live ipywidgets view in a saved notebook
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# MathJax 3 pieces the site needs: the combined TeX+MathML -> CHTML component and what it loads
# on demand (TeX extensions, CHTML fonts, the menu, accessibility and speech).
MATHJAX_PARTS = ["tex-mml-chtml.js", "input", "output/chtml", "ui", "a11y", "sre", "adaptors"]


def _write_if_changed(path: Path, data: bytes) -> None:
    """Keep the mtime of unchanged files: Sphinx then rebuilds only what changed."""
    if path.exists() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _static_panel(output: dict) -> list[dict] | None:
    """A panel's kernel-gone stand-in (widgets/panel.py) as plain outputs, else None.

    In JupyterLab the stand-in shows the panel's last picture, its control settings and its
    read-out under a "kernel is gone" line; on the site there is no kernel to lose, so the picture
    becomes an ``image/png`` output (myst-nb writes it to a file like every other figure) and the
    settings and read-out an HTML output under it.
    """
    picture = static_picture(output)
    if picture is None:
        return None
    png, alt = picture
    outputs = [{"output_type": "display_data", "metadata": {},
                "data": {"image/png": base64.b64encode(png).decode("ascii"), "text/plain": alt}}]
    readout = static_readout(output)
    if readout:
        outputs.append({"output_type": "display_data", "metadata": {},
                        "data": {"text/html": f'<div class="ppdm-readout">{readout}</div>',  # ppdm.css
                                 "text/plain": alt}})
    return outputs


def _without_test_markers(source) -> str:
    """A code cell's source without nbval's marker comments (``# NBVAL_CHECK_OUTPUT``): they tell
    ``make test`` which printed numbers must not change, and mean nothing to a reader."""
    text = "".join(source) if isinstance(source, list) else source
    return "\n".join(line for line in text.split("\n") if not NBVAL_MARKER.fullmatch(line.strip()))


def _site_outputs(outputs: list[dict]) -> list[dict]:
    """A code cell's outputs as the site shows them: stand-ins as picture + read-out, and no live
    widget view (without a kernel and widget state myst-nb could only print its ``VBox(...)``
    repr; the stand-in before it already shows what the panel drew)."""
    shown = []
    for output in outputs:
        if WIDGET_VIEW in output.get("data", {}):
            continue
        shown.extend(_static_panel(output) or [output])
    return shown


def copy_notebooks(dest: Path = HERE / "notebooks", *, twins_too: bool = True) -> list[Path]:
    """Copy every committed notebook without its ``widgets`` metadata, each panel's stand-in
    turned into its kernel-free twin (site/_twins.py; any other stand-in into its PNG); return
    the copies. ``twins_too=False`` leaves the stand-ins as PNGs and builds no twin (a check of
    which notebooks are copied needs none)."""
    out = []
    twins: set[str] = set()
    for nb_path in _course.course_notebooks(NOTEBOOKS, build="make site"):
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        nb.get("metadata", {}).pop("widgets", None)
        if twins_too:
            nb = _twins.with_twins(nb, nb_path.stem, twins)  # each panel's stand-in -> its twin
        for cell in nb.get("cells", []):
            if cell.get("outputs"):
                cell["outputs"] = _site_outputs(cell["outputs"])
            if cell.get("cell_type") == "code":
                cell["source"] = _without_test_markers(cell["source"])
            _quiz.site_cell(cell)
        target = dest / nb_path.name
        _write_if_changed(target, (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode())
        out.append(target)
    for stale in dest.glob("*.ipynb"):
        if stale not in out:  # gone from notebooks/, or not part of the course
            stale.unlink()
    if twins_too:
        _twins.remove_stale(twins)
    return out


def mathjax_source() -> Path:
    """The ``es5`` folder of the installed MathJax 3 (``django-static-mathjax``, ``[site]`` extra)."""
    spec = importlib.util.find_spec("mathjax")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("MathJax is not installed: `pip install -e '.[site]'` (it brings "
                 "django-static-mathjax, the MathJax 3 files as a wheel) or run `make site`")
    es5 = Path(next(iter(spec.submodule_search_locations))) / "static" / "mathjax" / "es5"
    if not (es5 / "tex-mml-chtml.js").exists():
        sys.exit(f"no tex-mml-chtml.js under {es5}: the installed 'mathjax' package is not "
                 "django-static-mathjax; `pip install -e '.[site]'`")
    return es5


def copy_mathjax(dest: Path = HERE / "_static" / "mathjax") -> Path:
    es5 = mathjax_source()
    for part in MATHJAX_PARTS:
        src = es5 / part
        if src.is_dir():
            for f in src.rglob("*"):
                if f.is_file():
                    _write_if_changed(dest / part / f.relative_to(src), f.read_bytes())
        else:
            _write_if_changed(dest / part, src.read_bytes())
    return dest


def cited_by(dest: Path = HERE / "_generated" / "cited_by.json") -> dict[str, list[str]]:
    """Which notebooks cite each bibliography entry (key -> notebook stems), written as JSON for
    the bibliography style of conf.py."""
    bib_keys = re.findall(r"^@\w+\{([^,]+),", (HERE / "references.bib").read_text(), re.MULTILINE)
    missing = sorted(set(bib_keys) - set(CITATIONS))
    if missing:
        sys.exit(f"references.bib entries without a pattern in build.CITATIONS: {missing}")
    texts = {}
    for nb_path in _course.course_notebooks(NOTEBOOKS, build="make site"):
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        texts[nb_path.stem] = "\n".join("".join(c["source"]) for c in nb["cells"]
                                        if c["cell_type"] == "markdown")
    result = {key: [stem for stem, text in texts.items() if re.search(CITATIONS[key], text)]
              for key in bib_keys}
    uncited = [key for key, stems in result.items() if not stems]
    if uncited:
        sys.exit(f"references.bib entries no notebook cites (remove them or fix the pattern): {uncited}")
    # conf.py's bibliography style reads this and ends every entry with "Cited in" links
    _write_if_changed(dest, (json.dumps(result, indent=1) + "\n").encode())
    return result


def prepare() -> None:
    _twins.compute_missing()  # every core, before the notebooks are copied with their twins
    copy_notebooks()
    copy_mathjax()
    cited_by()


def sphinx(out: Path = HTML) -> None:
    # -E: read every page again, so that -W sees every warning (an incremental build reports
    # only the pages it re-reads); about 40 s on two cores
    cmd = [sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q", "-b", "html",
           "-d", str(HERE / "_build" / "doctrees"), str(HERE), str(out)]
    subprocess.run(cmd, check=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prepare-only", action="store_true", help="copy files, do not run Sphinx")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    prepare()
    if not args.prepare_only:
        try:
            sphinx()
        except subprocess.CalledProcessError as err:
            return err.returncode or 1
        print(f"site built in {time.perf_counter() - t0:.0f} s: {HTML / 'index.html'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
