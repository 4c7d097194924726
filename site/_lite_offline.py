"""Say so, in words, when the JupyterLite site cannot load Python (issue 25 §1).

The lite site itself is static and local, but Python (the Pyodide runtime) is fetched from its
CDN when a notebook starts. Offline, or behind a firewall that blocks the CDN, the kernel stays
"Unknown" and the first cell ``[*]`` forever, without a word. :func:`inject` adds one small
script to every page of the lite build (``site/lite.py`` calls it after ``jupyter lite build``):
it asks the CDN for the Pyodide entry module (the file the kernel's worker imports first, so the
request costs nothing extra when online: the browser caches it) and, when that fails or takes
longer than :data:`WAIT_SECONDS`, shows a banner (``role="alert"``) that says what happened and
what to do: reconnect and reload, read the notebooks on the website (outputs and precomputed
panels need no Python), or install the course locally.
"""
from __future__ import annotations

import html
import json
import os
from pathlib import Path

#: seconds without an answer from the CDN before the page says Python cannot be loaded
#: (the issue's limit is 30 s; a refused request is reported at once)
WAIT_SECONDS = 20
#: the banner's id (tests look for it)
BANNER_ID = "ppdm-lite-offline"
MARKER = "ppdm-lite-offline-script"

_SCRIPT = """<script id="%(marker)s">
(function () {
  /* site/_lite_offline.py: tell the reader when Python (Pyodide) cannot be fetched */
  var url = %(url)s, waitMs = %(wait_ms)d, done = false;
  /* the outcome, on <html data-ppdm-pyodide="reachable|unreachable">: tests wait for it */
  function settle(outcome) { document.documentElement.setAttribute("data-ppdm-pyodide", outcome); }
  function show(why) {
    if (done) { return; }
    done = true;
    settle("unreachable");
    var box = document.createElement("div");
    box.id = %(banner_id)s;
    box.setAttribute("role", "alert");
    /* at the bottom, above JupyterLite's status bar: the menu bar, the toolbar and the status
       bar (the kernel's state) stay visible and usable while it is shown */
    box.style.cssText = "position:fixed;bottom:0;left:0;right:0;z-index:100000;padding:12px 16px;" +
      "background:#fff4e5;color:#1a1a1a;border-top:3px solid #b00020;font:15px/1.45 sans-serif";
    box.innerHTML = %(message)s.replace("{why}", why);  /* build-time text of this module only */
    /* the status bar may be laid out after the banner shows, or change height: follow it */
    function place() {
      var bar = document.getElementById("jp-bottom-panel");
      var height = bar && bar.offsetParent !== null ? bar.getBoundingClientRect().height : 0;
      box.style.bottom = height + "px";
    }
    var follow = setInterval(place, 500);
    window.addEventListener("resize", place);
    var close = box.querySelector("button");
    close.addEventListener("click", function () {
      clearInterval(follow);
      window.removeEventListener("resize", place);
      box.remove();
    });
    (document.body || document.documentElement).appendChild(box);
    place();
  }
  var controller = typeof AbortController === "function" ? new AbortController() : null;
  var timer = setTimeout(function () {
    if (controller) { controller.abort(); }
    show("it did not answer within " + (waitMs / 1000) + " s");
  }, waitMs);
  fetch(url, {mode: "no-cors", signal: controller ? controller.signal : undefined}).then(
    function () { clearTimeout(timer); if (!done) { done = true; settle("reachable"); } },
    function () { clearTimeout(timer); show("the request failed"); });
})();
</script>"""

_MESSAGE = (
    '<strong>Python cannot be loaded, so the notebooks here will not run.</strong> '
    'This JupyterLite page runs Python in your browser (Pyodide), which it downloads from '
    '<code>{host}</code> when a notebook starts, and {{why}}: you seem to be offline, or a firewall '
    'blocks that site. Cells would wait for a kernel forever (<code>[*]</code>). '
    '<strong>What to do:</strong> connect to the internet and reload this page; or read the '
    'notebooks, with their outputs and precomputed panels, on the <a href="{site}">course '
    'website</a>; or run them on your computer from the repository: '
    '<code>git clone {repo}</code>, then <code>make lab</code> in that folder (see its README). '
    '<button type="button" style="margin-left:8px">Dismiss</button>'
)


def pyodide_url(lite_dir: Path) -> str:
    """The URL the kernel loads Pyodide from: the build's ``pyodideUrl`` setting, else the pinned
    kernel's default (its CDN)."""
    config = lite_dir / "jupyter-lite.json"
    if config.exists():
        settings = json.loads(config.read_text()).get("jupyter-config-data", {}).get(
            "litePluginSettings", {})
        url = settings.get("@jupyterlite/pyodide-kernel-extension:kernel", {}).get("pyodideUrl")
        if url:
            return url
    from jupyterlite_pyodide_kernel.constants import PYODIDE_CDN_URL, PYODIDE_MJS

    return f"{PYODIDE_CDN_URL}/{PYODIDE_MJS}"


def repository_url() -> str:
    """The course's repository (``REPOSITORY_URL`` in ``site/conf.py``): the banner's install
    route (the package is not on PyPI)."""
    import ast

    tree = ast.parse((Path(__file__).resolve().parent / "conf.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "REPOSITORY_URL"
                                                for t in node.targets):
            return str(ast.literal_eval(node.value))
    raise KeyError("REPOSITORY_URL is not set in site/conf.py")


def inject(lite_dir: Path) -> list[Path]:
    """Add the script to every page of the lite build at ``lite_dir``; return the pages changed.

    Parameters
    ----------
    lite_dir : Path
        The output of ``jupyter lite build`` (``site/_build/html/lite``); the course website's
        start page is expected one folder up (``../index.html``).

    Returns
    -------
    list of Path
        The HTML files that now carry the script.
    """
    url = pyodide_url(lite_dir)
    host = url.split("/")[2] if "://" in url else url
    changed = []
    for page in sorted(lite_dir.rglob("index.html")):
        text = page.read_text(encoding="utf-8")
        if "jupyter-config-data" not in text or MARKER in text or "</head>" not in text:
            continue
        site = os.path.relpath(lite_dir.parent / "index.html", page.parent).replace(os.sep, "/")
        message = _MESSAGE.format(host=html.escape(host), site=html.escape(site),
                                  repo=html.escape(repository_url()))
        script = _SCRIPT % {"marker": MARKER, "url": json.dumps(url), "wait_ms": WAIT_SECONDS * 1000,
                            "banner_id": json.dumps(BANNER_ID), "message": json.dumps(message)}
        page.write_text(text.replace("</head>", script + "\n</head>", 1), encoding="utf-8")
        changed.append(page)
    return changed
