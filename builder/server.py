"""The dev server: the built site on localhost with the headers a host should send (the policy,
types, revalidation, precompressed files), for ``python3 build.py serve``, the tests and the
benchmarks."""

from __future__ import annotations

import contextlib
import email.utils
import functools
import hashlib
import http.server
import os
import shutil
import sys
import tempfile
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from .project import DIST
from .site import build

# The policy the page runs under: index.html has it in a <meta>, and the dev
# server sends it as a header (see docs/hosting.md).  'wasm-unsafe-eval':
# Pyodide compiles WebAssembly.  'unsafe-eval': PyScript 0.7 builds functions
# from strings on the main thread (measured: without it the page does not
# boot; the call is createFunction in @pyscript/core's src/hooks.js, see
# docs/hosting.md).  No other host, no inline script or style, no blob: or data: URL.
CSP = (
    "default-src 'self'; "
    "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'; "
    "worker-src 'self'; "
    "connect-src 'self'; "
    "img-src 'self'; "
    "style-src 'self'; "
    "font-src 'self'; "
    "object-src 'none'; "
    "base-uri 'self'; "
    "form-action 'self'"
)

# A worker runs under the policy of its own script's response: the solver's
# Pyodide needs WebAssembly but no eval, the service worker neither.
CSP_WORKER = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'self'"

WORKER_SCRIPTS = ("/sw.js", "/static/solver-worker.js")


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right types and the policy, revalidated on every load.

    Every answer says ``Cache-Control: no-cache`` and carries a strong ETag made
    from the SHA-256 of the bytes sent, so a browser revalidates each file and
    gets "304 Not Modified" when it has those bytes already, even across a
    rebuild within the same second.  ``If-Modified-Since`` alone never gives a
    304 (the stdlib compares dates to the second).  A file with ``name.br`` or
    ``name.gz`` beside it goes brotli- or gzip-encoded to a client that accepts
    it (brotli first; with ``Vary: Accept-Encoding``), as a host serving
    precompressed files does; set
    :attr:`precompressed` false to send every file as it is.
    """

    precompressed: ClassVar[bool] = True
    _etags: ClassVar[dict[tuple[str, int, int, int, int], str]] = {}
    # HTTP/1.1: Chromium ignores the ETag of an HTTP/1.0 answer.  Every answer
    # closes its connection (as 1.0 did), so a stopped server leaves no
    # connection behind that a browser would reuse.
    protocol_version = "HTTP/1.1"

    extensions_map = {  # noqa: RUF012 - the stdlib declares it this way
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".webmanifest": "application/manifest+json",
        ".svg": "image/svg+xml",
        ".toml": "text/plain; charset=utf-8",
        ".zip": "application/zip",
        ".bin": "application/octet-stream",
        ".delta": "application/octet-stream",
    }

    def send_head(self) -> Any:
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            index = os.path.join(path, "index.html")
            if not urllib.parse.urlsplit(self.path).path.endswith("/") or not os.path.isfile(index):
                return super().send_head()  # the stdlib's redirect to "dir/", or its listing
            path = index
        if path.endswith("/") or not os.path.isfile(path):
            self.send_error(http.HTTPStatus.NOT_FOUND, "File not found")
            return None
        accepts = self.headers.get("Accept-Encoding", "").lower()
        copies = [(suffix, name) for suffix, name in (("br", "br"), ("gz", "gzip"))
                  if self.precompressed and os.path.isfile(f"{path}.{suffix}")]
        chosen = next(((suffix, name) for suffix, name in copies if name in accepts), None)
        sent = f"{path}.{chosen[0]}" if chosen else path
        try:
            f = open(sent, "rb")  # noqa: SIM115 - the stdlib's handler closes it
        except OSError:
            self.send_error(http.HTTPStatus.NOT_FOUND, "File not found")
            return None
        st = os.fstat(f.fileno())
        etag = self._etag(sent, st)
        wanted = {t.strip().removeprefix("W/") for t in self.headers.get("If-None-Match", "").split(",")}
        status = http.HTTPStatus.NOT_MODIFIED if etag in wanted or "*" in wanted else http.HTTPStatus.OK
        self.send_response(status)
        self.send_header("ETag", etag)
        if copies:
            self.send_header("Vary", "Accept-Encoding")
        if status == http.HTTPStatus.NOT_MODIFIED:
            f.close()
            self.end_headers()
            return None
        self.send_header("Content-Type", self.guess_type(path))
        if chosen:
            self.send_header("Content-Encoding", chosen[1])
        self.send_header("Content-Length", str(st.st_size))
        self.send_header("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True))
        self.end_headers()
        return f

    @classmethod
    def _etag(cls, path: str, st: os.stat_result) -> str:
        """The file's SHA-256 (its first 32 hex digits), hashed once per version of the file.

        A version is its path, size, inode, modification and change times (the
        change time moves on any write and cannot be set back).
        """
        key = (path, st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
        etag = cls._etags.get(key)
        if etag is None:
            h = hashlib.sha256()
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            etag = f'"{h.hexdigest()[:32]}"'
            cls._etags[key] = etag
        return etag

    def end_headers(self) -> None:
        self.send_header("Connection", "close")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        path = self.path.split("?", 1)[0]
        self.send_header("Content-Security-Policy", CSP_WORKER if path in WORKER_SCRIPTS else CSP)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if "-v" in sys.argv:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    """The dev server: quiet when a browser drops a connection (a reload, a cancelled load)."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serving(directory: Path = DIST, port: int = 0,
            handler_class: type[Handler] = Handler) -> Iterator[str]:
    """Serve ``directory`` from a thread on 127.0.0.1 (a free port unless given); yield the base URL.

    Leaving the block stops the server, and the port can be served again at
    once (the same origin, as a browser sees it, for another build).
    """
    handler = functools.partial(handler_class, directory=str(directory))
    httpd = Server(("127.0.0.1", port), handler)
    thread = threading.Thread(target=httpd.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


@contextlib.contextmanager
def built_copy() -> Iterator[Path]:
    """Build, then a private copy of ``dist/`` (a rebuild meanwhile cannot disturb it)."""
    dist = build()
    with tempfile.TemporaryDirectory(prefix="freecell-site-") as tmp:
        copy = Path(tmp) / "dist"
        shutil.copytree(dist, copy)
        yield copy


def serve(port: int, host: str = "127.0.0.1") -> None:
    handler = functools.partial(Handler, directory=str(DIST))
    with Server((host, port), handler) as httpd:
        print(f"FreeCell: http://{host}:{port}/  (Ctrl+C stops)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            httpd.serve_forever()
