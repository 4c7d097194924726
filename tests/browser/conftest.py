"""Fixtures for the real-browser test: Debian's Chromium, a private JupyterLab server, Playwright.

* ``chromium_path``: ``/usr/bin/chromium``; when it is missing we try ``apt-get install -y
  chromium`` (as root, or through password-less sudo). The test is **skipped** — not failed —
  only when Chromium cannot be installed and ``CI`` is not set (under ``CI=true`` that fails too:
  a CI run with zero browser tests is no pass); every other problem is a failure.
* ``jupyter_server``: JupyterLab from the interpreter running pytest (the project's ``.venv`` under
  ``make test-browser``) on 127.0.0.1, a free port, a random token, private config / settings /
  workspace folders, and a **copy** of the notebooks (the browser's autosave must never touch the
  committed files). The server is shut down whatever happens (REST shutdown, then SIGTERM /
  SIGKILL to its process group).
* ``browser``: Playwright (from PyPI; ``playwright install`` is never used: its browser download
  needs the internet) driving that Chromium headless with the flags of issue 9.

Lecture mode: for every notebook with a widget panel, the server's folder also gets
``lecture/NN_lecture.ipynb``: the notebook's lecture-mode switch set to ``True``, its first
markdown cell (prose, to check the projector font size) and its panel cells (each runs on its own,
issue 15 §5), so the 1024x768 check does not re-run the whole notebook.

Development: ``PPDM_BROWSER_NOTEBOOKS=/tmp/01_try.ipynb`` (``os.pathsep``-separated) copies extra
notebooks into the server's folder; the test opens the last file name matching ``01_*`` / ``02_*``.
``PPDM_CHROMIUM`` overrides the browser path.

Imports of ``playwright`` happen inside the fixtures so that ``make test`` (which deselects the
browser marker) can collect this folder without the browser extra installed.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "browser"
CHROMIUM = os.environ.get("PPDM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _try_install_chromium() -> str:
    """apt-get install chromium; return a log tail (empty when nothing could be tried)."""
    apt = shutil.which("apt-get")
    if apt is None:
        return "apt-get is not available on this system"
    prefix: list[str] = []
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        sudo = shutil.which("sudo")
        if sudo is None:
            return "not root and sudo is not available"
        prefix = [sudo, "-n"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    log = []
    for cmd in ([*prefix, apt, "update"], [*prefix, apt, "install", "-y", "chromium"]):
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
        except (OSError, subprocess.TimeoutExpired) as err:
            return f"{' '.join(cmd)}: {err}"
        log.append(f"$ {' '.join(cmd)} -> exit {proc.returncode}\n{proc.stderr[-800:]}")
        if proc.returncode != 0:
            break
    return "\n".join(log)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not Path(CHROMIUM).exists():
        log = _try_install_chromium()
        if not Path(CHROMIUM).exists():
            message = (f"Chromium is not installed at {CHROMIUM} and could not be installed with "
                       f"apt-get (install the Debian package 'chromium' to run this test):\n{log}")
            if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
                pytest.fail(message)  # CI must not pass with zero browser tests
            pytest.skip(message)
    return CHROMIUM


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class JupyterServer:
    base_url: str
    token: str
    root: Path
    process: subprocess.Popen
    log_path: Path

    def url(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.base_url}/{path.lstrip('/')}{sep}token={self.token}"

    def shutdown_kernels(self) -> None:
        """Shut down every running kernel: each test starts on a machine as idle as a lecturer's,
        not beside the kernels of earlier notebooks (a panel's ahead-computing thread, issue 17
        §6, would otherwise still run there and slow the next notebook's timed updates)."""
        headers = {"Authorization": f"token {self.token}"}
        with urllib.request.urlopen(urllib.request.Request(
                f"{self.base_url}/api/kernels", headers=headers), timeout=10) as r:
            kernels = json.loads(r.read())
        for kernel in kernels:
            for _attempt in range(3):
                try:
                    urllib.request.urlopen(urllib.request.Request(
                        f"{self.base_url}/api/kernels/{kernel['id']}", method="DELETE",
                        headers=headers), timeout=30).read()
                    break
                except urllib.error.HTTPError as err:
                    # 404: gone already; 500: e.g. still restarting (notebook 01 restarts its
                    # kernel): try again, then leave it (housekeeping, not what is tested)
                    if err.code == 404:
                        break
                    time.sleep(1.0)

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


def _write_lab_settings(settings: Path) -> None:
    """Settings for a deterministic test: every cell in the DOM, no news pop-up."""
    def put(plugin: str, values: dict):
        path = settings / plugin
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))

    # 'none': no virtual scrolling, so every cell (and its outputs) is in the DOM
    put("@jupyterlab/notebook-extension/tracker.jupyterlab-settings", {"windowingMode": "none"})
    put("@jupyterlab/apputils-extension/notification.jupyterlab-settings",
        {"fetchNews": "false", "checkForUpdates": False})


def _stop(proc: subprocess.Popen, base_url: str, token: str) -> None:
    if proc.poll() is None:
        try:
            req = urllib.request.Request(f"{base_url}/api/shutdown", method="POST",
                                         headers={"Authorization": f"token {token}"})
            urllib.request.urlopen(req, timeout=5).read()
            proc.wait(timeout=15)
        except Exception:  # noqa: BLE001 - fall through to signals
            pass
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        if proc.poll() is not None:
            break
        try:
            os.killpg(proc.pid, sig)  # the server and its kernels
        except (ProcessLookupError, PermissionError):
            proc.send_signal(sig)
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            pass
    # kernels started by the server live in the same process group; make sure none is left
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


PANEL_STAND_IN = re.compile(r"<\w+Panel: static copy")


def _write_lecture_notebooks(src: Path, dest: Path) -> None:
    import nbformat

    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted(src.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        # the cells that show a panel: their saved output is its stand-in ("<TreesPanel: static copy,
        # ...>"), whatever else in the notebook builds one for its numbers
        panels = [c for c in nb.cells if c.cell_type == "code" and any(
            PANEL_STAND_IN.search(str(o.get("data", {}).get("text/plain", ""))) for o in c.get("outputs", []))]
        if not panels:
            continue
        prose = next((c for c in nb.cells if c.cell_type == "markdown"), None)
        cells = [nbformat.v4.new_code_cell(
            "LECTURE_MODE = True  # projector\nfrom ppdm_edu import lecture_mode\nlecture_mode(LECTURE_MODE)")]
        if prose is not None:
            cells.append(nbformat.v4.new_markdown_cell(prose.source))
        cells += [nbformat.v4.new_code_cell(c.source) for c in panels]
        out = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": nb.metadata.get("kernelspec", {})})
        nbformat.write(out, dest / f"{path.name[:2]}_lecture.ipynb")


@pytest.fixture(scope="session")
def jupyter_server(chromium_path, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("jupyter")
    root = tmp / "root"
    (root / "notebooks").mkdir(parents=True)
    for nb in (REPO / "notebooks").glob("*.ipynb"):
        shutil.copy2(nb, root / "notebooks" / nb.name)
    _write_lecture_notebooks(REPO / "notebooks", root / "lecture")
    for extra in os.environ.get("PPDM_BROWSER_NOTEBOOKS", "").split(os.pathsep):
        if extra.strip():
            shutil.copy2(extra.strip(), root / "notebooks" / Path(extra.strip()).name)
    for name in ("reports", "benchmarks"):  # notebooks may read ../reports/full/...
        if (REPO / name).exists():
            (root / name).symlink_to(REPO / name)
    settings = tmp / "settings"
    _write_lab_settings(settings)
    for d in ("config", "runtime", "workspaces", "ipython"):
        (tmp / d).mkdir()
    port = _free_port()
    token = os.urandom(24).hex()
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)  # the kernel must use the notebook's inline backend
    env.update(JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(settings), JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
               IPYTHONDIR=str(tmp / "ipython"), PYTHONPATH=os.pathsep.join(
                   p for p in [str(REPO), env.get("PYTHONPATH", "")] if p))
    log_path = tmp / "jupyter.log"
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           "--port-retries=0", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
           f"--LabApp.user_settings_dir={settings}", f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
           "--LabApp.extension_manager=readonly", "--ServerApp.terminals_enabled=False"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # containers / CI often run as root
        cmd.append("--allow-root")
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=root, env=env,
                                start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    server = JupyterServer(base, token, root, proc, log_path)
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with {proc.returncode}:\n{server.log_tail()}")
            try:
                with urllib.request.urlopen(server.url("api/status"), timeout=3) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"JupyterLab did not answer within 90 s:\n{server.log_tail()}")
            time.sleep(0.5)
        yield server
    finally:
        _stop(proc, base, token)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copy2(log_path, ARTIFACTS / "jupyter.log")


@pytest.fixture(scope="session")
def browser(chromium_path):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:  # a failure, not a skip: `make test-browser` installs it
        pytest.fail(f"playwright is not installed ({err}); run `make test-browser` "
                    "(it installs the '.[test,browser]' extras) or `.venv/bin/pip install playwright`")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield b
        finally:
            b.close()


def _new_page(browser, jupyter_server, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
    # offline on purpose: only the local server; anything else (e.g. the font-awesome CSS that
    # matplotlib's to_jshtml links from a CDN) is refused at once instead of timing out
    local = jupyter_server.base_url

    def route(r):
        if r.request.url.startswith(local) or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.page_errors = []  # uncaught JavaScript errors, reported on failure
    pg.on("pageerror", lambda exc: pg.page_errors.append(str(exc)))
    return context, pg


@pytest.fixture
def page(browser, jupyter_server):
    """A laptop screen: 1366x768 (issue 15)."""
    context, pg = _new_page(browser, jupyter_server, 1366, 768)
    try:
        yield pg
    finally:
        context.close()
        jupyter_server.shutdown_kernels()


@pytest.fixture
def projector_page(browser, jupyter_server):
    """A projector: 1024x768 (issue 15 §2)."""
    context, pg = _new_page(browser, jupyter_server, 1024, 768)
    try:
        yield pg
    finally:
        context.close()
        jupyter_server.shutdown_kernels()

