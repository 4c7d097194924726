"""The wheels the JupyterLite site serves beside Pyodide's own packages (site/lite.py downloads
them; site/_lite_deps.py checks that they and Pyodide cover every import). One module that both
import, so that neither imports the other."""
from __future__ import annotations

# pure-Python wheels Pyodide's own distribution lacks, served with ppdm-edu: name -> (version,
# SHA-256 of its py3-none-any wheel as published on PyPI). The version is the one installed here,
# so the browser runs what the tests ran; the digest makes the build refuse any other file (a
# replaced upload, a tampered mirror or cache), checked by pip (--require-hashes) and again here.
# To update: pip download --no-deps --only-binary=:all: NAME==VERSION, then sha256sum the wheel.
# site/_lite_deps.py checks that this and Pyodide's lock cover every import of the package and
# the notebooks (tqdm is in the lock); ipywidgets needs comm and jupyterlab_widgets, which
# Pyodide lacks too. anywidget draws the panels' named sliders (its front end is the JupyterLab
# extension the lite build bundles); its psygnal is served as psygnal's pure-Python wheel (the
# digest below selects it over the compiled ones).
EXTRA_WHEELS = {
    "seaborn": ("0.13.2", "636f8336facf092165e27924f223d3c62ca560b1f2bb5dff7ab7fad265361987"),
    "ipywidgets": ("8.1.9", "f2b8cbcaae10252b809fbe4d7470db75c09b769a32cbf816d20e5ca6d3c5a79d"),
    "comm": ("0.2.3", "c615d91d75f7f04f095b30d1c1711babd43bdc6419c1be9886a85f2f4e489417"),
    "jupyterlab_widgets": ("3.0.17", "40ac1e9955acf116c4d995d9bfa082d86ad9ec6d91c4f134827cf5e0a5eb75e0"),
    "anywidget": ("0.11.0", "c574d9acc6503ad27b37a9acea48f957a8ba7c9c9876cfcb37898931c098ce9d"),
    "psygnal": ("0.16.1", "93b96894d8c46f0a3c0bfaaf8abe73f0d6db2c20cc6d303624cf08f85abc3c92"),
}
