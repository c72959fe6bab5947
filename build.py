"""Build the static site into ``dist/`` and serve it on localhost.

    python build.py                 # build only
    python build.py serve           # build, then serve on http://127.0.0.1:8000
    python build.py serve --port N  # another port

The browser runtime (Pyodide and PyScript) comes from the npm packages pinned
in ``package.json`` / ``package-lock.json``: ``npm ci`` installs them into
``node_modules/`` when they are missing, and only the files the page loads are
copied into ``dist/vendor/``.  Nothing of the runtime is committed, and nothing
at run time comes from another host.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import http.server
import json
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
    """The ``freecell`` package as one zip, loaded by the page and the worker."""
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted((ROOT / "freecell").rglob("*.py")):
            z.write(f, f.relative_to(ROOT).as_posix())


def build_hash(root: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(f.relative_to(root).as_posix().encode())
        h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()[:16]


def build() -> Path:
    npm_install()
    tmp = ROOT / "dist.tmp"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    for name in SITE_FILES:
        shutil.copy2(ROOT / name, tmp / name)
    shutil.copytree(ROOT / "static", tmp / "static")
    vendor(tmp / "vendor")
    zip_package(tmp / "freecell.zip")
    (tmp / "build.json").write_text(json.dumps({"hash": build_hash(tmp)}) + "\n")
    if DIST.exists():
        shutil.rmtree(DIST)
    tmp.rename(DIST)
    return DIST


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right types, revalidated on every load."""

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

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
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


@contextlib.contextmanager
def serving(directory: Path = DIST) -> Iterator[str]:
    """Serve ``directory`` from a thread on a free 127.0.0.1 port; yield the base URL."""
    handler = functools.partial(Handler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
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
    with http.server.ThreadingHTTPServer((host, port), handler) as httpd:
        print(f"FreeCell: http://{host}:{port}/  (Ctrl+C stops)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            httpd.serve_forever()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build (and serve) the FreeCell site.")
    parser.add_argument("command", nargs="?", choices=["build", "serve"], default="build")
    parser.add_argument("--port", type=int, default=8000, help="port for serve (default 8000)")
    parser.add_argument("-v", action="store_true", help="log every request while serving")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error("--port must be 1 to 65535")
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
