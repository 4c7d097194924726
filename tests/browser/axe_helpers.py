"""axe-core (npm, pinned) for the accessibility tests (issue 26): fetch, inject, run, filter.

axe-core is installed with npm from the registry at a pinned version into ``artifacts/axe``
(git-ignored) the first time a test needs it; ``npm`` missing or offline is a test *failure*
with the command to run, not a skip. Upstream violations that this project cannot fix are listed
with their upstream issue in ``tests/a11y_upstream_gaps.json``; every other critical or serious
violation fails the tests.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: the axe-core release the tests run (npm); the issue's audit used 4.12
AXE_VERSION = "4.12.1"
AXE_DIR = REPO / "artifacts" / "axe"
UPSTREAM_GAPS = REPO / "tests" / "a11y_upstream_gaps.json"
#: WCAG 2.0/2.1 A and AA rules (axe tags), the standard the course targets
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("critical", "serious")


def axe_source(folder: Path = AXE_DIR) -> str:
    """The text of ``axe.min.js`` of :data:`AXE_VERSION`, installed with npm on first use."""
    js = folder / "node_modules" / "axe-core" / "axe.min.js"
    meta = folder / "node_modules" / "axe-core" / "package.json"
    if not (js.exists() and json.loads(meta.read_text())["version"] == AXE_VERSION):
        npm = shutil.which("npm")
        assert npm, f"npm is needed to install axe-core {AXE_VERSION} (Debian: apt-get install npm)"
        folder.mkdir(parents=True, exist_ok=True)
        cmd = [npm, "install", f"axe-core@{AXE_VERSION}", "--prefix", str(folder), "--no-audit",
               "--no-fund", "--no-save"]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0 and js.exists(), f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}"
    return js.read_text(encoding="utf-8")


def run_axe(page, source: str, include: str | None = None) -> list[dict]:
    """axe's violations on ``page`` (WCAG 2.1 A/AA rules), each with its nodes' targets and HTML.

    ``include``: a CSS selector to audit only part of the page (the notebook, not JupyterLab's
    chrome); the whole document by default.
    """
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=source)
    return page.evaluate(
        """async ([include, tags]) => {
            const ctx = include ? {include: [include]} : document;
            const r = await axe.run(ctx, {runOnly: {type: 'tag', values: tags},
                                          resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 300),
                                          impact: n.impact}))}));
        }""", [include, WCAG_TAGS])


def upstream_gaps() -> list[dict]:
    """The listed upstream violations: ``{"rule", "selector", "where", "upstream", "why"}``."""
    return json.loads(UPSTREAM_GAPS.read_text(encoding="utf-8"))["gaps"]


def is_upstream(rule: str, node: dict, where: str) -> bool:
    """Whether a violating node is one of the listed upstream gaps (rule + a regex on its HTML
    or target, for ``where`` = "site" or "lab")."""
    for gap in upstream_gaps():
        if gap["rule"] == rule and gap["where"] == where and (
                re.search(gap["selector"], node["target"]) or re.search(gap["selector"], node["html"])):
            return True
    return False


def blocking(violations: list[dict], where: str) -> list[str]:
    """The critical and serious violating nodes that are not listed upstream gaps, one line each."""
    out = []
    for v in violations:
        for node in v["nodes"]:
            impact = node["impact"] or v["impact"]
            if impact in BLOCKING and not is_upstream(v["id"], node, where):
                out.append(f"{impact} {v['id']}: {node['target']} {node['html'][:160]}")
    return out


def counts(violations_by_page: dict[str, list[dict]]) -> Counter:
    """Violating nodes by (rule, impact) over all pages."""
    c: Counter = Counter()
    for violations in violations_by_page.values():
        for v in violations:
            for node in v["nodes"]:
                c[(v["id"], node["impact"] or v["impact"])] += 1
    return c


# words of an alt text: a file name or a path is not one
_FILE = re.compile(r"(^|[/\\])[\w.-]+\.(png|jpe?g|gif|svg|webp)$", re.IGNORECASE)


def bad_alt(alt: str | None) -> str:
    """Why ``alt`` is not a text alternative ("" when it is one): missing, empty, a file name or
    path, or fewer than 6 words."""
    if alt is None:
        return "no alt"
    text = alt.strip()
    if not text:
        return "empty alt"
    if _FILE.search(text) or text.startswith(("data:", "http", "../", "./")):
        return f"alt is a file name: {text[:80]!r}"
    if re.match(r"<(Figure|matplotlib)\b", text):
        return f"alt is a matplotlib repr, not a description: {text[:80]!r}"
    if len(text.split()) < 6:
        return f"alt has fewer than 6 words: {text!r}"
    return ""


# the accessible name of an image as a screen reader gets it: alt, else aria-label, else title
_IMAGE_NAMES = """els => els.map(e => [e.className || e.tagName,
    e.getAttribute('alt') || e.getAttribute('aria-label') || e.getAttribute('title')])"""


def audit_notebook(page, name: str, notebook_selector: str, report: Path) -> list[str]:
    """axe-core over a notebook open in JupyterLab (after Run All), and the text alternative of
    every output picture; the problems, one line each (empty: none).

    axe audits the visible notebook panel (the project's content, not JupyterLab's menus) for
    the WCAG 2.1 A/AA rules: no critical or serious violation may remain except the upstream gaps
    listed in ``tests/a11y_upstream_gaps.json`` (``"where": "lab"``). Every panel picture and
    every inline figure needs a text alternative of at least six words that is not a file name
    (the panel's ``<img>`` is named by its ``title``: ipywidgets' Image has no alt, see the gap
    list). Counts by rule and impact, for the notebook and for the whole page, go to ``report``.
    """
    source = axe_source()
    notebook = run_axe(page, source, include=notebook_selector)
    whole = run_axe(page, source)
    report.parent.mkdir(parents=True, exist_ok=True)

    def table(v):
        return sorted(([r, i, n] for (r, i), n in counts({name: v}).items()), key=lambda r: -r[2])

    report.write_text(json.dumps({"notebook": name, "counts_notebook": table(notebook),
                                  "counts_page": table(whole), "violations": notebook}, indent=1))
    images = page.eval_on_selector_all(f"{notebook_selector} .jp-OutputArea-output img", _IMAGE_NAMES)
    found = [f"axe: {line}" for line in blocking(notebook, "lab")]
    return found + [f"{cls}: {bad_alt(alt)}" for cls, alt in images if bad_alt(alt)]
