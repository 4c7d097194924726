"""A static http server for the browser tests of the built site and of JupyterLite."""
from __future__ import annotations

import contextlib
import functools
import http.server
import threading


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output readable
        pass


@contextlib.contextmanager
def serve_directory(directory):
    """A static http server for ``directory`` on 127.0.0.1 and a free port; yields its base URL.

    The browser tests of the built site and of JupyterLite open pages through it (file:// URLs
    would not load the pages' scripts and data the way a web host serves them).
    """
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
