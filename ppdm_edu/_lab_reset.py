"""Jupyter server extension: every JupyterLab page opens in the normal view, never in a deck.

jupyterlab-slideshow keeps "presenting" as a *user setting*: starting a deck saves
``"active": true`` to ``jupyterlab-slideshow/plugin.jupyterlab-settings``, and on every page
load the extension starts a deck when that setting is true. A lecturer who closes the tab or quits
the server while presenting therefore finds every later JupyterLab (same server or a new one)
showing one slide with no menu bar. An ``overrides.json`` cannot help (it changes the default,
and the saved user value wins), and the notebook's metadata plays no part.

So the server sets that one value back to ``false`` whenever it renders a JupyterLab page, before
the page asks for its settings. A deck started on the page still works: the extension reads the
setting back after saving it, and that read is not a page render. Nothing else in the file changes.

The package enables this module through ``etc/jupyter/jupyter_server_config.d/ppdm_edu.json``
(installed with the package), so plain ``jupyter lab`` gets it, not only ``make lab``.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_DECK_SETTINGS = Path("jupyterlab-slideshow") / "plugin.jupyterlab-settings"


def reset_deck(settings_dir: str | Path) -> bool:
    """Set jupyterlab-slideshow's saved ``"active"`` to ``false`` in ``settings_dir``.

    Parameters
    ----------
    settings_dir : str or Path
        JupyterLab's user settings folder (``LabApp.user_settings_dir``).

    Returns
    -------
    bool
        True if the file said ``"active": true`` and was rewritten; False when there was nothing
        to reset (no file, no deck saved as active, or not JSON with // comment lines).

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> reset_deck(folder)
    False
    >>> (folder / "jupyterlab-slideshow").mkdir()
    >>> _ = (folder / _DECK_SETTINGS).write_text('// Decks\\n{"active": true, "showCodeCellPrompt": true}')
    >>> reset_deck(folder), json.loads((folder / _DECK_SETTINGS).read_text())
    (True, {'active': False, 'showCodeCellPrompt': True})
    """
    path = Path(settings_dir) / _DECK_SETTINGS
    try:
        # JupyterLab writes JSON with // comment lines (JSON5); other JSON5 is left alone
        values = json.loads(re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M))
    except (OSError, ValueError):
        return False
    if not isinstance(values, dict) or values.get("active") is not True:
        return False
    values["active"] = False
    tmp = path.with_name(path.name + ".tmp")
    # plain JSON is JSON5 too; the file's // comments, if any, are not kept
    tmp.write_text(json.dumps(values, indent=4) + "\n", encoding="utf-8")
    tmp.replace(path)  # atomic: the settings handler never reads a half-written file
    return True


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "ppdm_edu._lab_reset"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Hook into jupyterlab_server's ``page_config_hook``, which runs on each page render."""
    settings = serverapp.web_app.settings
    previous = settings.get("page_config_hook")

    def hook(handler: Any, page_config: dict) -> dict:
        folder = getattr(getattr(handler, "extensionapp", None), "user_settings_dir", None)
        try:
            if folder and reset_deck(folder):
                handler.log.info("ppdm_edu: the deck was saved as presenting; this page opens "
                                 "in the normal view")
        except OSError as err:  # a read-only settings folder must not stop the page
            handler.log.warning("ppdm_edu: could not reset the deck setting: %s", err)
        return previous(handler, page_config) if previous else page_config

    settings["page_config_hook"] = hook
