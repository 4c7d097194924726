"""JupyterLab user settings for ``make lab`` (issue 30): written on every start, into a folder
inside the project's ``.venv`` (``JUPYTERLAB_SETTINGS_DIR``), never ``~/.jupyter``.

* ``jupyterlab-slideshow``: ``"active": false``. Starting a deck writes ``"active": true`` to the
  user settings; left there, every later JupyterLab opens presenting, with no menu bar. Resetting
  it on each ``make lab`` start means a lecturer who quit while presenting gets the normal view.
  (The package's server extension ``ppdm_edu/_lab_reset.py`` does the same on every page load,
  in plain ``jupyter lab`` too; this reset stays for a server started without it.)
* JupyterLab's notifications: no "get notified about news?" pop-up over the panels
  (``fetchNews: "false"``, no update check), as the browser tests configure it.

Other settings a user changed in that folder are kept (the files are merged, not replaced).

Usage: ``python tools/lab_settings.py SETTINGS_DIR``.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

SETTINGS = {
    "jupyterlab-slideshow/plugin.jupyterlab-settings": {"active": False},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                          "checkForUpdates": False},
}


def _read(path: Path) -> dict:
    """A settings file (JSON5 as JupyterLab writes it: // comments allowed); {} if unreadable."""
    try:
        text = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
        value = json.loads(text or "{}")
        return value if isinstance(value, dict) else {}
    except (OSError, ValueError):
        return {}


def write(settings_dir: Path) -> list[Path]:
    """Merge the settings above into ``settings_dir``; return the files written."""
    written = []
    for name, values in SETTINGS.items():
        path = Path(settings_dir) / name
        current = _read(path) if path.exists() else {}
        current.update(values)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(current, indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)  # atomic: a half-written settings file never reaches JupyterLab
        written.append(path)
    return written


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python tools/lab_settings.py SETTINGS_DIR")
    write(Path(sys.argv[1]))
