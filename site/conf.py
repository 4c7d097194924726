"""Sphinx configuration of the course website (``make site``; issue 16).

The site is built from the **committed** notebooks without executing them
(``nb_execution_mode = "off"``): their stored outputs are the truth (nbval checks they are
current). ``site/build.py`` copies them into ``site/notebooks/`` (git-ignored) before Sphinx
runs, dropping only the ``widgets`` metadata (the ipywidgets state a live kernel left behind),
so no page embeds widget state or the ipywidgets JavaScript.

Offline by design: MathJax is served from ``_static/mathjax`` (copied from the
``django-static-mathjax`` wheel of the ``[site]`` extra, MathJax 3.2.2), the ipywidgets loader
is switched off (``nb_ipywidgets_js = {}``) and every widget panel shows its static PNG.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))  # autodoc documents this checkout's ppdm_edu

# ---- the ONE place the repository URL lives (README's Binder badge must use the same; a test checks)
REPOSITORY_URL = "https://github.com/ppdm-edu/ppdm-edu"
REPOSITORY_BRANCH = "main"
BINDERHUB_URL = "https://mybinder.org"

import ppdm_edu  # noqa: E402

project = "ppdm-edu"
author = "ppdm-edu developers"
copyright = "ppdm-edu developers, BSD-3-Clause"
release = version = ppdm_edu.__version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinxcontrib.bibtex",
]

root_doc = "index"
exclude_patterns = ["_build", "_generated", "README.md", "**/.ipynb_checkpoints"]
suppress_warnings = [
    # the reports and benchmark pages are generated Markdown with 'h1 then ###'-style jumps
    "myst.header",
]

# ---- notebooks: never executed; the PNG of every panel wins over the widget view
nb_execution_mode = "off"
nb_mime_priority_overrides = [
    # (builder, mime type, priority: lower wins). The widget view needs a kernel; its static PNG
    # (written by ppdm_edu.widgets.panel next to the view) is what a reader without one sees.
    ("html", "application/vnd.jupyter.widget-view+json", None),  # None: never render
    ("html", "image/png", 5),
]
nb_ipywidgets_js = {}  # no require.js / html-manager from a CDN
nb_output_stderr = "show"
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist", "substitution", "linkify"]
# {{ repository }} in the site's Markdown (index.md): the repository URL of this file, as a link
myst_substitutions = {"repository": f"[{REPOSITORY_URL}]({REPOSITORY_URL})"}
myst_heading_anchors = 3

# ---- MathJax from the site itself (build.py copies it into _static/mathjax)
html_static_path = ["_static"]
html_css_files = ["ppdm.css"]  # wide tables (the reproduction report) fit the column
mathjax_path = "mathjax/tex-mml-chtml.js"

# ---- API reference from the numpydoc docstrings
autosummary_generate = True
# The summary column of an autosummary table is a docstring's first sentence; Sphinx splits it at
# the first ". " not after 'e.g.', 'i.e.', 'et al.' or 'vs.'. The docstrings cite papers ("the
# paper's heuristic (Sec. 4.2)", "Fig. 2"), which would cut the summary to "... (Sec.".
import sphinx.ext.autosummary as _autosummary  # noqa: E402

_autosummary.WELL_KNOWN_ABBREVIATIONS = (
    *_autosummary.WELL_KNOWN_ABBREVIATIONS, "Sec.", "Secs.", "Fig.", "Figs.", "Eq.", "Eqs.", "Alg.",
    "Tab.", "cf.")
# ignore-module-all: a package's __all__ re-exports objects documented in their own module
# (ppdm_edu.datasets.adult_binary is a module and a function re-exported by ppdm_edu.datasets)
autodoc_default_options = {"members": True, "show-inheritance": True, "ignore-module-all": True}
autodoc_typehints = "none"  # numpydoc already lists the types
autodoc_mock_imports: list[str] = []
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
# numpydoc validation runs in tests/test_docstrings.py (every public object passes), not as
# site warnings here.
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False

# ---- bibliography: pybtex's "plain" style, each entry ending with links to the notebooks that
# cite it (site/build.py writes _generated/cited_by.json before Sphinx runs)
import json  # noqa: E402

from pybtex.plugin import register_plugin  # noqa: E402
from pybtex.richtext import HRef, Text  # noqa: E402
from pybtex.style.formatting.plain import Style as _PlainStyle  # noqa: E402


def _notebook_label(stem: str) -> str:
    """'02_reconstruction' -> '02 reconstruction' (as the landing page's learning path names it)."""
    return stem.replace("_", " ")


class CitedInStyle(_PlainStyle):
    """The plain style, plus "Cited in: 00 start here, 07 attacks and local dp." per entry."""

    cited_by: dict[str, list[str]] = {}

    def format_entry(self, label, entry, bib_data=None):
        formatted = super().format_entry(label, entry, bib_data)
        stems = self.cited_by.get(entry.key, [])
        if not stems:
            return formatted
        links = []
        for k, stem in enumerate(stems):
            links += [", "] if k else []
            # relative to bibliography.html, the only page with a {bibliography} directive
            links.append(HRef(f"notebooks/{stem}.html", _notebook_label(stem)))
        formatted.text = Text(formatted.text, " Cited in: ", *links, ".")
        return formatted


_CITED_BY = HERE / "_generated" / "cited_by.json"
CitedInStyle.cited_by = json.loads(_CITED_BY.read_text()) if _CITED_BY.exists() else {}
register_plugin("pybtex.style.formatting", "cited_in", CitedInStyle)

bibtex_bibfiles = ["references.bib"]
bibtex_default_style = "cited_in"
bibtex_reference_style = "author_year"

# ---- theme and launch buttons
html_theme = "sphinx_book_theme"
# short: the theme puts it at the top of the sidebar (the long one took five lines at 1024 px);
# the landing page keeps the full title as its heading
html_title = "ppdm-edu"
html_last_updated_fmt = None
html_theme_options = {
    "repository_url": REPOSITORY_URL,
    "repository_branch": REPOSITORY_BRANCH,
    "path_to_docs": "",  # notebooks/NN_x.ipynb in the site = notebooks/NN_x.ipynb in the repo
    "use_repository_button": True,
    "use_download_button": True,
    "launch_buttons": {
        "binderhub_url": BINDERHUB_URL,
        "notebook_interface": "jupyterlab",
        # `make lite` writes the JupyterLite site into <html>/lite; every notebook page lives
        # one folder down (notebooks/NN_x.html), hence the relative '../lite'. The path passed
        # on is notebooks/NN_x.ipynb, where lite.py puts the notebooks.
        "jupyterlite_url": "../lite/lab/index.html",
    },
    "show_toc_level": 2,
    "home_page_in_toc": True,
    # no icon links to external hosts in the navbar (the repository button is a plain link)
    "icon_links": [],
}
html_show_sourcelink = False
html_copy_source = True  # the download button of a notebook page gives the .ipynb


# ---- docstring hygiene for reStructuredText (the docstrings are written for ``help()``)
_ABS = re.compile(r"(?<![\\|`])\|(?=\S)([^|`\n]*?\S)\|(?![|_])")  # |x - y|: absolute value
_TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?=[\s,.;:)\]/]|$)")  # n_features_in_: a name, not a link
_LITERAL = re.compile(r"(``.*?``|`[^`]*`)")  # inline literals and roles are left alone


def _escape_plain_text(app, what, name, obj, options, lines):
    """``|x - y|`` is an absolute value and ``n_features_in_`` a fitted attribute's name, not an
    rST substitution or hyperlink reference."""
    for i, line in enumerate(lines):
        if line.lstrip().startswith((">>>", "...", ".. ")) or ("|" not in line and "_" not in line):
            continue
        parts = _LITERAL.split(line)  # odd parts are the literals
        lines[i] = "".join(_TRAILING_UNDERSCORE.sub(r"\\_", _ABS.sub(r"\\|\1\\|", p)) if k % 2 == 0 else p
                           for k, p in enumerate(parts))


def _skip_members(app, what, name, obj, skip, options):
    """Document ppdm_edu only: not scikit-learn's generated ``set_*_request`` methods, nor
    objects a module imported from a dependency."""
    if re.fullmatch(r"set_\w+_request", name):
        return True
    module = getattr(obj, "__module__", None)
    if what == "module" and isinstance(module, str) and not module.startswith("ppdm_edu"):
        return True  # imported from a dependency (scipy's cKDTree in ppdm_edu.privacy, ...)
    return None


def setup(app):
    app.connect("autodoc-process-docstring", _escape_plain_text)
    app.connect("autodoc-skip-member", _skip_members)

# ---- search (issue 30): lessons first. The scorer adds a bonus to every notebook result
# (site/_search_scorer.js; tests/browser/test_search_ranking.py runs the real search in Chromium).
html_search_scorer = str(HERE / "_search_scorer.js")  # absolute: Sphinx opens it from the cwd

# ---- accessibility (issue 26): alt texts, named sidebar toggles, bibliography roles, MathJax's
# assistive MathML, focus and contrast CSS; all in site/_a11y.py
sys.path.insert(0, str(HERE))
extensions.append("_a11y")
