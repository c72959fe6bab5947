"""Build the static site into ``dist/`` and serve it on localhost.

    python build.py                 # build only
    python build.py serve           # build, then serve on http://127.0.0.1:8000
    python build.py serve --port N  # another port
    python build.py icons           # render static/icon.svg to the PNG icons (by hand)

The work is in the package ``builder/``, a module a concern:

* ``builder/npm.py``: the pinned runtime packages (Pyodide, PyScript) from npm,
  installed into ``node_modules/`` and vendored into ``dist/vendor/``; nothing
  of the runtime is committed, and nothing at run time comes from another host;
* ``builder/python.py``: Python for the vendored Pyodide, made under Node with
  ``builder/node_driver.mjs``: the byte-compiled stdlib, ``freecell.zip`` and
  the two memory snapshots (README, "Start-up");
* ``builder/cache.py``: all of that kept by its inputs, so a rebuild after an
  unrelated change takes seconds, and the same inputs give the same bytes;
* ``builder/site.py``: the site put together, the page data the game's Python
  writes into the page, ``build.json`` and ``sw.js`` (the service worker with
  every file of the build);
* ``builder/compress.py``: the precompressed ``.br`` and ``.gz`` beside the files;
* ``builder/server.py``: the dev server and the policy it sends (README,
  "Hosting");
* ``builder/browsers.py``: the browsers the tests and benchmarks drive;
* ``builder/icons.py``: the manifest's PNG icons.

This module is the command line, and the names the tests and the benchmarks
use (``build.build()``, ``build.serving()``...), from the modules above.
"""

from __future__ import annotations

import argparse
import sys

from builder.browsers import CHROMIUM_ARGS, chromium_launch_args
from builder.cache import CACHE
from builder.compress import precompress
from builder.icons import render_icons
from builder.npm import lockfile
from builder.project import DIST, NODE_MODULES, ROOT, BuildError
from builder.python import (
    APP_HOME,
    BROWSER_GLOBALS,
    COMPILE_PY,
    PAGE_SNAPSHOT_IMPORTS,
    SNAPSHOT_PY,
    STDLIB,
    WORKER_SNAPSHOT_IMPORTS,
    pack_snapshot,
    run_node,
    unpack_snapshot,
)
from builder.server import CSP, CSP_WORKER, Handler, built_copy, serve, serving
from builder.site import (
    BOOT_MARK,
    RUNTIME_MARK,
    RUNTIME_SOURCE,
    SPRITE_MARK,
    SW_BUILD,
    SW_FILES,
    build,
    cached_on_use,
    finish,
    page_data,
    site_files,
)

__all__ = [
    "APP_HOME", "BOOT_MARK", "BROWSER_GLOBALS", "CACHE", "CHROMIUM_ARGS", "COMPILE_PY", "CSP", "CSP_WORKER",
    "DIST", "NODE_MODULES", "PAGE_SNAPSHOT_IMPORTS", "ROOT", "RUNTIME_MARK", "RUNTIME_SOURCE",
    "SNAPSHOT_PY", "SPRITE_MARK", "STDLIB", "SW_BUILD", "SW_FILES", "WORKER_SNAPSHOT_IMPORTS", "BuildError",
    "Handler", "build", "built_copy", "cached_on_use", "chromium_launch_args", "finish", "lockfile", "main",
    "pack_snapshot",
    "page_data", "precompress", "run_node", "serve", "serving", "site_files", "unpack_snapshot",
]


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
