"""Build the static site into ``dist/`` and serve it on localhost.

    python build.py                 # build only
    python build.py serve           # build, then serve on http://127.0.0.1:8000
    python build.py serve --port N  # another port
    python build.py icons           # render static/icon.svg to the PNG icons (by hand)

The browser runtime (Pyodide and PyScript) comes from the npm packages pinned
in ``package.json`` / ``package-lock.json``: ``npm ci`` installs them into
``node_modules/`` when they are missing, and only the files the page loads are
copied into ``dist/vendor/``.  Nothing of the runtime is committed, and nothing
at run time comes from another host.

The build ends by writing ``build.json`` (a hash of every file) and ``sw.js``
at the root of the site: ``static/sw.js`` with that hash and the list of every
file (with its SHA-256) filled in, so that the service worker precaches exactly
this build and a new build is a new service worker.  The dev server sends the
Content-Security-Policy of :data:`CSP` (the page carries the same policy in a
``<meta>``); the README's "Hosting" section gives the headers for other hosts.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
NODE_MODULES = ROOT / "node_modules"

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# PyScript chunks the page never loads (editor and terminal widgets).
PYSCRIPT_SKIP = ("codemirror", "xterm")
SITE_FILES = ("index.html", "pyscript.toml")
# The service worker's source; the build fills in the placeholders and writes it
# to the root of the site (its scope must cover the page).
SW_SOURCE = ROOT / "static" / "sw.js"
SW_BUILD = "__FREECELL_BUILD__"
SW_FILES = "__FREECELL_FILES__"

# The policy the page runs under: index.html has it in a <meta>, and the dev
# server sends it as a header (see the README's "Hosting").  'wasm-unsafe-eval':
# Pyodide compiles WebAssembly.  'unsafe-eval': PyScript 0.7 builds functions
# from strings on the main thread (measured: without it the page does not
# boot).  No other host, no inline script or style, no blob: or data: URL.
CSP = (
    "default-src 'self'; "
    "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'; "
    "worker-src 'self'; "
    "connect-src 'self'; "
    "img-src 'self'; "
    "style-src 'self'; "
    "font-src 'self'; "
    "manifest-src 'self'; "
    "object-src 'none'; "
    "base-uri 'self'; "
    "form-action 'self'"
)
# A worker runs under the policy of its own script's response: the solver's
# Pyodide needs WebAssembly but no eval, the service worker neither.
CSP_WORKER = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'self'"
WORKER_SCRIPTS = ("/sw.js", "/static/solver-worker.js")


class BuildError(RuntimeError):
    """The build cannot go on; the message says what to do."""


def npm_install() -> None:
    """Install the pinned runtime packages unless they are there already."""
    wanted = json.loads((ROOT / "package.json").read_text())["dependencies"]
    for name, version in wanted.items():
        meta = NODE_MODULES / name / "package.json"
        if not meta.exists() or json.loads(meta.read_text()).get("version") != version:
            break
    else:
        return
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("npm is needed once to fetch the pinned Pyodide and PyScript packages")
    print("build: npm ci (pinned Pyodide and PyScript)", file=sys.stderr)
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)


def vendor(dest: Path) -> None:
    """Copy only what the page and the worker load from the runtime packages."""
    pyodide = NODE_MODULES / "pyodide"
    (dest / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, dest / "pyodide" / name)
    core = NODE_MODULES / "@pyscript" / "core" / "dist"
    (dest / "pyscript").mkdir()
    for f in sorted(core.iterdir()):
        if f.suffix in (".js", ".css") and not f.name.startswith(PYSCRIPT_SKIP):
            if f.name in ("service-worker.js",):
                continue
            shutil.copy2(f, dest / "pyscript" / f.name)


def zip_package(dest: Path) -> None:
    """The ``freecell`` package as one zip, loaded by the page and the worker.

    The entries carry a fixed date, so the same sources give the same bytes
    (and the same build hash: no update is offered for a mere checkout).
    """
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted((ROOT / "freecell").rglob("*.py")):
            info = zipfile.ZipInfo(f.relative_to(ROOT).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, f.read_bytes())


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def site_files(root: Path) -> list[tuple[str, str]]:
    """``(path, sha256)`` of every file of a built site but ``sw.js`` and ``build.json``."""
    out = []
    for f in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = f.relative_to(root).as_posix()
        if rel not in ("sw.js", "build.json"):
            out.append((rel, _sha256(f)))
    return out


def finish(root: Path, sw_source: Path = SW_SOURCE) -> str:
    """Write ``build.json`` and ``sw.js`` for the files under ``root``; the build hash.

    The hash covers every file's path and content and the service worker's
    source.  ``sw.js`` gets the hash (its cache name) and the list of files to
    precache, each with its SHA-256: ``build.json`` and every file but itself.
    Run again after changing a file of a built site, it makes a new version.
    """
    files = site_files(root)
    source = sw_source.read_text(encoding="utf-8")
    for mark in (SW_BUILD, SW_FILES):
        if source.count(mark) != 1:
            raise BuildError(f"{sw_source.name} must hold {mark} exactly once")
    h = hashlib.sha256()
    for rel, digest in files:
        h.update(rel.encode() + b"\0" + bytes.fromhex(digest))
    h.update(hashlib.sha256(source.encode()).digest())
    build_hash = h.hexdigest()[:16]
    (root / "build.json").write_text(json.dumps({"hash": build_hash}) + "\n")
    files.append(("build.json", _sha256(root / "build.json")))
    listing = "[\n" + ",\n".join(f"  {json.dumps([rel, digest])}" for rel, digest in sorted(files)) + ",\n]"
    text = source.replace(SW_BUILD, build_hash).replace(SW_FILES, listing)
    (root / "sw.js").write_text(text, encoding="utf-8")
    return build_hash


def build(dest: Path = DIST) -> Path:
    """Build the site into ``dest`` (``dist/``), replacing what is there in one step."""
    npm_install()
    dest = dest.resolve()
    dest.parent.mkdir(parents=True, exist_ok=True)
    # A private work directory next to dest: two builds at once do not collide.
    tmp = Path(tempfile.mkdtemp(prefix=dest.name + ".tmp-", dir=dest.parent))
    try:
        for name in SITE_FILES:
            shutil.copy2(ROOT / name, tmp / name)
        # the service worker's source goes to the root, filled in, by finish()
        shutil.copytree(ROOT / "static", tmp / "static", ignore=shutil.ignore_patterns(SW_SOURCE.name))
        vendor(tmp / "vendor")
        zip_package(tmp / "freecell.zip")
        finish(tmp)
        os.chmod(tmp, 0o755)
        _put_in_place(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest


def _put_in_place(new: Path, dest: Path) -> None:
    """Rename ``new`` to ``dest``; an older ``dest`` (even one that appears meanwhile) goes."""
    trash = Path(tempfile.mkdtemp(prefix=dest.name + ".old-", dir=dest.parent))
    try:
        for attempt in range(5):
            with contextlib.suppress(FileNotFoundError):
                dest.rename(trash / str(attempt))
            try:
                new.rename(dest)
                return
            except OSError:
                if attempt == 4:
                    raise
    finally:
        shutil.rmtree(trash, ignore_errors=True)


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right types and the policy, revalidated on every load.

    Never "304 Not Modified": the stdlib compares modification times to the
    second, and a rebuild within the same second would look unchanged.
    """

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
    }

    def send_head(self) -> Any:
        del self.headers["If-Modified-Since"]
        return super().send_head()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        path = self.path.split("?", 1)[0]
        self.send_header("Content-Security-Policy", CSP_WORKER if path in WORKER_SCRIPTS else CSP)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if "-v" in sys.argv:
            super().log_message(format, *args)


# The browser the tests and benchmarks drive: Debian's Chromium when it is
# installed (Playwright cannot download its own here), headless and quiet.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_launch_args() -> dict[str, Any]:
    """Playwright ``launch()`` arguments for that browser (its own Chromium elsewhere)."""
    args: dict[str, Any] = {"args": list(CHROMIUM_ARGS), "headless": True}
    if CHROMIUM.exists():
        args["executable_path"] = str(CHROMIUM)
    return args


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


ICON_SIZES = (192, 512)


def render_icons() -> None:
    """Render ``static/icon.svg`` to the manifest's PNG icons with headless Chromium.

    The PNGs are committed; run this again only when icon.svg changes.
    """
    from playwright.sync_api import sync_playwright

    svg = (ROOT / "static" / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        for size in ICON_SIZES:
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            page.set_content(
                "<!doctype html><style>html,body{margin:0;background:transparent}"
                f"svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}"
            )
            out = ROOT / "static" / f"icon-{size}.png"
            page.screenshot(path=str(out), omit_background=True)
            page.close()
            print(f"{out.relative_to(ROOT)}: {out.stat().st_size} bytes")
        browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build (and serve) the FreeCell site.")
    parser.add_argument("command", nargs="?", choices=["build", "serve", "icons"], default="build")
    parser.add_argument("--port", type=int, default=8000, help="port for serve (default 8000)")
    parser.add_argument("-v", action="store_true", help="log every request while serving")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error("--port must be 1 to 65535")
    if args.command == "icons":
        render_icons()
        return 0
    try:
        out = build()
    except BuildError as e:
        print(f"build: {e}", file=sys.stderr)
        return 2
    print(f"build: {out.relative_to(ROOT)}/ ready", file=sys.stderr)
    if args.command == "serve":
        serve(args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
