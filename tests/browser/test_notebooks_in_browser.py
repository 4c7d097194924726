"""Notebooks 01 and 02 in a real browser: JupyterLab + headless Chromium (``make test-browser``).

For each notebook: open it in JupyterLab, clear the stored outputs, run all cells from the Run
menu, then assert that

(a) no cell shows an error (a traceback output, or a widget that failed to render);
(b) moving the first slider of the first widget panel with the keyboard re-renders the panel's
    figure (the image's pixels change);
(c) in notebook 02, the matplotlib ``to_jshtml`` animation shows its player (slider + buttons),
    its script ran (the frame image is set) and "Next frame" advances it.

Screenshots go to ``artifacts/browser/`` (git-ignored). Fixtures: ``conftest.py``.
"""
from __future__ import annotations

import fnmatch
import json
import re
import time
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"  # as in conftest.py

pytestmark = pytest.mark.browser

# (prefix, expects an animation player)
NOTEBOOKS = [("01", False), ("02", True)]

# JupyterLab 4 renders tracebacks like stderr text (same mime type): recognise them by content
STDERR_SELECTOR = (".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output"
                   "[data-mime-type='application/vnd.jupyter.stderr']")
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|^\s*Cell In\[\d+\]|^\w*(Error|Exception)\b",
                       re.MULTILINE)
NB = ".jp-NotebookPanel:not(.lm-mod-hidden)"  # the notebook in the current tab
KERNEL_IDLE = re.compile(r"^(?!No Kernel).+\|\s*Idle\s*$")
WIDGET_FAILURES = ("Error displaying widget", "Failed to load model class", "Error rendering widget")


def _find_notebook(server, prefix: str) -> str:
    names = sorted(p.name for p in (server.root / "notebooks").glob("*.ipynb"))
    matches = fnmatch.filter(names, f"{prefix}_*.ipynb")
    if not matches:
        pytest.fail(f"no notebooks/{prefix}_*.ipynb to test (found: {', '.join(names) or 'none'})")
    return matches[-1]


def _menu(page, menu: str, command: str) -> None:
    page.locator(".lm-MenuBar-item", has_text=menu).first.click()
    item = page.locator(f".lm-Menu-item[data-command='{command}']").first
    item.wait_for(state="visible")
    item.click()


def _prompts(page) -> list[tuple[str, bool]]:
    """(prompt text, has source) for every code cell of the visible notebook."""
    return [tuple(x) for x in page.eval_on_selector_all(
        f"{NB} .jp-CodeCell",
        """cells => cells.map(c => [
            (c.querySelector('.jp-InputArea-prompt') || {textContent: ''}).textContent.trim(),
            (c.querySelector('.cm-content') || {textContent: ''}).textContent.trim().length > 0])""",
    )]


def _numbered(prompt: str) -> bool:
    return prompt.startswith("[") and prompt[1:-2].strip().isdigit()


def _wait_all_executed(page, timeout: float) -> list[str]:
    """Wait until every non-empty code cell shows an execution count ``[n]:`` (JupyterLab does
    not execute empty cells)."""
    deadline = time.monotonic() + timeout
    prompts: list[tuple[str, bool]] = []
    while time.monotonic() < deadline:
        prompts = _prompts(page)
        todo = [p for p, has_source in prompts if has_source]
        if todo and all(_numbered(p) for p in todo):
            return [p for p, _ in prompts]
        page.wait_for_timeout(500)
    raise AssertionError(f"cells did not finish within {timeout:.0f} s; prompts: {[p for p, _ in prompts]}")


def _wait_kernel_idle(page, timeout: float) -> None:
    """Wait for the status bar to say '<kernel> | Idle' (not 'No Kernel'); accept a kernel dialog."""
    deadline = time.monotonic() + timeout
    texts: list[str] = []
    while time.monotonic() < deadline:
        dialog = page.locator(".jp-Dialog")
        if dialog.count() and "Select Kernel" in dialog.first.inner_text():
            dialog.first.locator(".jp-Dialog-button.jp-mod-accept").click()
        texts = page.locator(".jp-StatusBar-TextItem").all_inner_texts()
        if any(KERNEL_IDLE.match(t.strip()) for t in texts):
            return
        page.wait_for_timeout(300)
    raise AssertionError(f"the kernel did not become idle within {timeout:.0f} s; status bar: {texts}")


def _saved_errors(page, path) -> list[str]:
    """Save the notebook (the server's private copy) and list its error outputs."""
    before = path.stat().st_mtime_ns
    _menu(page, "File", "docmanager:save")
    deadline = time.monotonic() + 30
    while path.stat().st_mtime_ns == before and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    while True:  # the server may still be writing the file
        try:
            nb = json.loads(path.read_text())
            break
        except json.JSONDecodeError:
            if time.monotonic() > deadline:
                raise
            page.wait_for_timeout(300)
    found = []
    for i, cell in enumerate(nb.get("cells", [])):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append(f"cell {i}: {out.get('ename')}: {out.get('evalue')}")
    return found


def _errors(page) -> list[str]:
    texts = [t[:800] for t in page.locator(STDERR_SELECTOR).all_inner_texts() if TRACEBACK.search(t)]
    outputs = page.locator(f"{NB} .jp-OutputArea").all_inner_texts()
    texts += [f"widget failure: {t[:300]}" for t in outputs if any(f in t for f in WIDGET_FAILURES)]
    return texts


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize("prefix,animation", NOTEBOOKS, ids=[p for p, _ in NOTEBOOKS])
def test_notebook_runs_and_widgets_respond(page, jupyter_server, prefix, animation):
    name = _find_notebook(jupyter_server, prefix)
    tag = name.removesuffix(".ipynb")
    try:
        page.goto(jupyter_server.url(f"lab/tree/notebooks/{name}?reset"))  # no restored tabs
        page.locator(f"{NB} .jp-Notebook .jp-Cell").first.wait_for()
        _wait_kernel_idle(page, timeout=120)  # Run All before the kernel is up asks for one
        _menu(page, "Edit", "editmenu:clear-all")  # the committed outputs must not count
        page.wait_for_timeout(300)
        stale = [p for p, _ in _prompts(page) if _numbered(p)]
        assert not stale, f"{name}: outputs were not cleared before running (prompts {stale})"
        _menu(page, "Run", "runmenu:run-all")
        prompts = _wait_all_executed(page, timeout=240)
        _wait_kernel_idle(page, timeout=60)
        counts = [int(p[1:-2]) for p in prompts if _numbered(p)]
        assert counts == list(range(1, len(counts) + 1)), \
            f"{name}: cells did not run once each, top to bottom, in a fresh kernel: {prompts}"
        page.wait_for_timeout(1500)  # let the widget views render
        _shot(page, f"{tag}_after_run")

        # (a) no error output
        errors = _errors(page)
        assert not errors, f"{name}: error output after Run All:\n" + "\n---\n".join(errors)
        saved = _saved_errors(page, jupyter_server.root / "notebooks" / name)
        assert not saved, f"{name}: error outputs in the executed notebook: {saved}"

        # (b) keyboard on the first slider of the first panel re-renders its figure
        panel = page.locator(f"{NB} .jp-OutputArea-output .widget-vbox:has(img.widget-image)").first
        panel.wait_for()
        panel.scroll_into_view_if_needed()
        image = panel.locator("img.widget-image").first
        handle = panel.locator(".widget-slider .noUi-handle").first
        handle.wait_for()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
        before = image.screenshot(path=str(ARTIFACTS / f"{tag}_panel_before.png"))
        handle.focus()
        changed = False
        # right first; a slider that starts at its maximum (e.g. "last iteration") moves left
        for key in ("ArrowRight", "ArrowRight", "ArrowLeft", "ArrowLeft", "ArrowLeft"):
            page.keyboard.press(key)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                page.wait_for_timeout(250)
                if image.screenshot() != before:
                    changed = True
                    break
            if changed:
                break
        image.screenshot(path=str(ARTIFACTS / f"{tag}_panel_after.png"))
        _shot(page, f"{tag}_after_slider")
        assert changed, f"{name}: the panel's image did not change after moving its slider with the keyboard"
        errors = _errors(page)
        assert not errors, f"{name}: error output after moving the slider:\n" + "\n---\n".join(errors)

        # (c) the animation player
        if animation:
            player = page.locator(f"{NB} .animation .anim-controls").first
            player.wait_for(state="visible")
            player.scroll_into_view_if_needed()
            buttons = player.locator(".anim-buttons button")
            assert buttons.count() >= 9, f"{name}: animation player has {buttons.count()} buttons"
            slider = player.locator("input.anim-slider")
            assert slider.count() == 1, f"{name}: no animation frame slider"
            frame_img = page.locator(f"{NB} .animation img").first
            src = frame_img.get_attribute("src") or ""
            assert src.startswith("data:image"), f"{name}: the animation's script did not run (no frame shown)"
            first = slider.input_value()
            player.locator("button[title='Next frame']").click()
            page.wait_for_timeout(300)
            assert slider.input_value() != first, f"{name}: 'Next frame' did not advance the animation"
            _shot(page, f"{tag}_animation")
    except BaseException:
        _shot(page, f"{tag}_FAILED")
        (ARTIFACTS / f"{tag}_FAILED.html").write_text(page.content())
        if page.page_errors:
            (ARTIFACTS / f"{tag}_page_errors.txt").write_text("\n".join(page.page_errors))
        raise
