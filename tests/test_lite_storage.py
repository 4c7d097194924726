"""JupyterLite opens the course's current notebooks, never a stale stored copy: the build names
its browser storage after its content (site/lite.py, jupyterlite#1067)."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _lite():
    sys.path.insert(0, str(ROOT / "site"))
    try:
        spec = importlib.util.spec_from_file_location("lite", ROOT / "site" / "lite.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "site"))


def test_the_storage_name_changes_with_the_content_and_only_with_it(tmp_path):
    lite = _lite()
    contents = tmp_path / "contents" / "notebooks"
    contents.mkdir(parents=True)
    (contents / "01.ipynb").write_text("{}")
    first = lite.storage_name(tmp_path / "contents")
    assert first == lite.storage_name(tmp_path / "contents")
    (contents / "01.ipynb").write_text('{"cells": []}')
    second = lite.storage_name(tmp_path / "contents")
    assert second != first and second.startswith("ppdm-edu-")
    written = lite.write_runtime_config(tmp_path, tmp_path / "contents")
    config = json.loads(written.read_text())["jupyter-config-data"]
    assert config["contentsStorageName"] == second


def test_the_launch_page_says_so():
    text = (ROOT / "site" / "index.md").read_text(encoding="utf-8")
    assert "never an old stored copy" in text and "File → Download" in text
