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

This module is the command line, and the few names the benchmarks and the
browser tests use (``build.build()``, ``build.serving()``, ``build.built_copy()``...);
a test of one part of the build imports that part from ``builder/``.
"""

from __future__ import annotations

import argparse
import sys

from builder.browsers import CHROMIUM_ARGS, chromium_launch_args
from builder.icons import render_icons
from builder.project import DIST, NODE_MODULES, ROOT, BuildError
from builder.server import Handler, built_copy, serve, serving
from builder.site import build, finish

# What the benchmarks and the browser tests take from here: the build, a served copy, the browser's
# arguments.  What tests of one part of the build need, they import from that module of builder/.
__all__ = [
    "CHROMIUM_ARGS", "DIST", "NODE_MODULES", "BuildError", "Handler", "build", "built_copy",
    "chromium_launch_args", "finish", "main", "serving",
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
