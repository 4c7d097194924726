"""Accessibility of the course website (issue 26): a small Sphinx extension loaded by conf.py.

What it does, and why here rather than in a theme fork:

* **Figures get their generated description as alt text.** myst-nb writes every ``image/png``
  output to ``_images/<sha256>.png`` and, without cell metadata, Sphinx uses that path as the
  alt text. The package puts the figure's description (``ppdm_edu.plots.alt_text``) in the same
  output's ``text/plain`` (``lecture_mode`` registers that formatter; a panel's stand-in carries
  ``Panel.describe``). At ``builder-inited`` we read the copied notebooks, map each PNG's sha256
  to its ``text/plain``, and when the HTML is written we replace the path by the description.
* **Sidebar toggles get a name** (axe ``summary-name``): the theme's ``<summary>`` holds only
  an icon; it gets ``aria-label="Pages under <section>"``.
* **The bibliography's list has list items** (axe ``aria-required-children``,
  ``aria-deprecated-role``): sphinxcontrib-bibtex gives ``role="list"`` with children in the
  deprecated ``doc-biblioentry`` role; they become ``listitem``.
* **The animation player** (matplotlib's ``to_jshtml``) keeps the alt texts the package writes;
  a player saved before that gets an alt saying what it is and its frame slider a name.
* **MathJax's assistive MathML** is switched on explicitly: every formula gets a hidden MathML
  copy that screen readers read (MathJax 3 ``assistive-mml``, served from ``_static/mathjax``).
* ``_static/a11y.css``: visible keyboard focus and the contrast fixes.

Every rewrite is a fixed pattern on the HTML Sphinx wrote; nothing is fetched.
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent

_IMG = re.compile(r'<img alt="([^"]*)" src="([^"]*_images/([0-9a-f]{64})\.png)"')
_SUMMARY = re.compile(r'(<a class="(?:current )?reference internal" href="[^"]*">((?:(?!</?a[ >]).)*?)</a>\s*'
                      r'<details(?: [^>]*)?>)<summary>', re.S)
_BIBITEM = re.compile(r'(<div class="citation" id="[^"]*") role="doc-biblioentry"')
_ANIM_IMG = re.compile(r'<img id="(_anim_img\w+)"(?![^>]*\balt=)')
_ANIM_SLIDER = re.compile(r'<input id="(_anim_slider\w+)" type="range"(?![^>]*aria-label)')
_LOGOS = {"Binder logo": "launch this notebook on Binder",
          "JupyterLite logo": "run this notebook in JupyterLite in the browser"}
# a matplotlib repr is not a description (an output saved before the formatter existed)
_REPR = re.compile(r"^<(Figure|matplotlib)[^>]*>$")


def alt_texts(notebooks: Path) -> dict[str, str]:
    """sha256 of every ``image/png`` output of the copied notebooks -> its description (the
    output's ``text/plain``), leaving out outputs whose ``text/plain`` is only a repr."""
    found: dict[str, str] = {}
    for path in sorted(notebooks.glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb.get("cells", []):
            for output in cell.get("outputs", []):
                data = output.get("data", {})
                png, text = data.get("image/png"), data.get("text/plain")
                if not png or not text:
                    continue
                png = "".join(png) if isinstance(png, list) else png
                text = " ".join(("".join(text) if isinstance(text, list) else text).split())
                if _REPR.match(text):
                    continue
                found[hashlib.sha256(base64.b64decode(png)).hexdigest()] = text
    return found


def rewrite(page: str, alts: dict[str, str]) -> str:
    """The accessibility fixes of one written HTML page (see the module docstring)."""
    def img(m: re.Match) -> str:
        alt = alts.get(m[3])
        return m[0] if alt is None else f'<img alt="{html.escape(alt, quote=True)}" src="{m[2]}"'

    def summary(m: re.Match) -> str:
        name = " ".join(html.unescape(re.sub(r"<[^>]+>", "", m[2])).split())
        return f'{m[1]}<summary aria-label="{html.escape(f"Show or hide the pages under {name}", quote=True)}">'

    page = _IMG.sub(img, page)
    page = _SUMMARY.sub(summary, page)
    page = _BIBITEM.sub(r'\1 role="listitem"', page)
    # the module index's collapse toggle (Sphinx writes alt="-")
    page = re.sub(r'(<img src="[^"]*_static/(?:minus|plus)\.png" class="toggler"[^>]*?) alt="-"',
                  r'\1 alt="Show or hide the modules of this package"', page)
    # the theme's launch-button logos: say what the button does, not only whose logo it is
    for logo, what in _LOGOS.items():
        page = page.replace(f'<img alt="{logo}"', f'<img alt="{logo}: {what}"')
    page = _ANIM_IMG.sub(r'<img id="\1" alt="Animation of the reconstruction converging, one frame per '
                         r'iteration: use the frame slider or the buttons below to step through it"', page)
    page = _ANIM_SLIDER.sub(r'<input id="\1" type="range" aria-label="Frame of the animation"', page)
    return page


def _builder_inited(app) -> None:
    app.env.ppdm_alt_texts = alt_texts(Path(app.srcdir) / "notebooks")


def _build_finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    alts = getattr(app.env, "ppdm_alt_texts", None) or alt_texts(Path(app.srcdir) / "notebooks")
    for path in Path(app.outdir).rglob("*.html"):
        if "_static" in path.parts or "lite" in path.relative_to(app.outdir).parts[:1]:
            continue
        text = path.read_text(encoding="utf-8")
        new = rewrite(text, alts)
        if new != text:
            path.write_text(new, encoding="utf-8")


def _mathjax_config(app, config) -> None:
    """MathJax 3: a hidden MathML copy of every formula for screen readers (assistive-mml), on
    whatever the reader's menu setting was; the speech explorer stays available in its menu."""
    mj = dict(config.mathjax3_config or {})
    options = dict(mj.get("options", {}))
    menu = dict(options.get("menuOptions", {}))
    settings = dict(menu.get("settings", {}))
    settings.setdefault("assistiveMml", True)
    menu["settings"] = settings
    options["menuOptions"] = menu
    mj["options"] = options
    config.mathjax3_config = mj


def setup(app):
    """Register the hooks and the style sheet (conf.py: ``extensions += ["_a11y"]``)."""
    app.connect("config-inited", _mathjax_config)
    app.add_css_file("a11y.css")
    app.connect("builder-inited", _builder_inited)
    app.connect("build-finished", _build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
