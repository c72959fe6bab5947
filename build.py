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

Start-up (see the README's "Start-up"): under Node, with the vendored Pyodide
itself (its CPython 3.14; the host's .pyc would be useless), the build
byte-compiles the standard library (``vendor/pyodide/python_stdlib.pyc.zip``)
and the ``freecell`` package (``freecell.zip``: sources and unchecked
hash-based .pyc), then makes two memory snapshots: the page's interpreter after
importing :data:`PAGE_SNAPSHOT_IMPORTS` and the solver worker's after
:data:`WORKER_SNAPSHOT_IMPORTS` (``snapshots/page-<hash>.bin``,
``snapshots/worker-<hash>.bin``, their zero pages left out, see
:func:`pack_snapshot`).  ``static/runtime.mjs`` gets their names; it boots from a
snapshot when one is already cached and from the byte-code otherwise.  All of it
is made again only when its inputs change (a cache in
``node_modules/.cache/freecell-build/``), and the same inputs give the same
bytes.  Big files that hosts rarely compress by themselves get a precompressed
``.gz`` beside them (:data:`PRECOMPRESS`).
"""

from __future__ import annotations

import argparse
import contextlib
import email.utils
import functools
import gzip
import hashlib
import http.server
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
NODE_MODULES = ROOT / "node_modules"

# Not shipped: the npm stdlib (sources only; the build's byte-compiled one is)
# and pyodide-lock.json (no package is; static/runtime.mjs gives an empty one).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
STDLIB = "vendor/pyodide/python_stdlib.pyc.zip"

# What each snapshot has imported when it is taken.  The page's modules may
# take references to JS globals at import time (``from js import document``),
# but must not touch the DOM or create proxies then: only references to globals
# can be kept in a snapshot.
PAGE_SNAPSHOT_IMPORTS = ("freecell.browser.app",)
WORKER_SNAPSHOT_IMPORTS = ("freecell.worker",)
# Imported into the page's snapshot too: what PyScript's own package imports
# from the stdlib (its package cannot be: it keeps objects PyScript makes at
# each start), and pyfetch, for a boot that switches the language.
PAGE_RUNTIME_IMPORTS = ("asyncio", "pyodide.http", "html")
# Where the snapshots' interpreters found freecell.zip unpacked (the page's
# PyScript unpacks it into the working directory; the worker does the same).
APP_HOME = "/home/pyodide"
SNAPSHOT_MAGIC = b"FCSNAP01"  # pack_snapshot's format
# The module that loads Pyodide for the page (PyScript's ``interpreter``) and the
# worker; the build fills in the names of this build's snapshots.
RUNTIME_SOURCE = "static/runtime.mjs"
RUNTIME_MARK = "{} /* __FREECELL_RUNTIME__ */"
# Files a host seldom compresses by itself (wasm, binary snapshots, the package
# zip, the largest script): the build writes name.gz beside them, for hosts that
# serve precompressed files (the dev server does).  Text files are left to the host.
PRECOMPRESS = ("vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/pyodide.asm.mjs", "freecell.zip",
               "snapshots/")
CACHE = NODE_MODULES / ".cache" / "freecell-build"
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


# --- Python for the vendored Pyodide: byte-code and snapshots, made under Node ----------

# build.py's helper under Node: it loads the vendored Pyodide, runs the job's
# steps (Python code with a JSON argument), and writes a memory snapshot when
# a step asks for one.  The job comes in FREECELL_JOB, so that no path of this
# machine ends up in a snapshot (Emscripten keeps argv[1] as the program name).
NODE_DRIVER = r"""
import { readFileSync, writeFileSync, renameSync } from "node:fs";
import nodeCrypto from "node:crypto";

const job = JSON.parse(process.env.FREECELL_JOB);
const { loadPyodide } = await import(job.pyodide);

// Same inputs, same snapshot: the clock and the entropy it takes in are fixed.
// (A restored page reseeds `random`; the hash seed stays the build's.)
function freeze() {
  let state = 0x9e3779b9;
  nodeCrypto.randomFillSync = (view) => {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let i = 0; i < bytes.length; i++) {
      state ^= state << 13; state ^= state >>> 17; state ^= state << 5;
      bytes[i] = state & 0xff;
    }
    return view;
  };
  const epoch = Date.UTC(2000, 0, 1);
  Date.now = () => epoch;
  let tick = 0;
  performance.now = () => (tick += 1);
}

// Stand-ins for what the page's modules may import from `js` (objects and
// functions, as in a browser); a restored snapshot finds the real ones by name.
function browserGlobals(names) {
  const g = Object.create(globalThis);
  // defined, not assigned: Node 22 has getter-only globals of some of these names (navigator)
  const put = (name, value) => Object.defineProperty(g, name, { value, writable: true, configurable: true });
  for (const name of names.objects) put(name, {});
  for (const name of names.functions) put(name, function () {});
  g.window.length = 0; // a browser's window has one
  return g;
}

for (const step of job.steps) {
  const options = { indexURL: job.indexURL, stdLibURL: step.stdlib, lockFileContents: job.lockfile };
  if (step.snapshot) {
    freeze();
    options._makeSnapshot = true;
    if (step.browser) options.jsglobals = browserGlobals(step.browser);
  }
  const py = await loadPyodide(options);
  if (step.mount) {
    py.FS.mkdirTree("/host");
    py.FS.mount(py.FS.filesystems.NODEFS, { root: "/" }, "/host");
  }
  for (const [zip, dir] of step.unpack || []) {
    py.unpackArchive(new Uint8Array(readFileSync(zip)), "zip", { extractDir: dir });
  }
  py.globals.set("JOB", JSON.stringify(step.args));
  py.runPython(step.code);
  if (step.snapshot) {
    // The call trampoline's pointer is an index into this Node's function table (or 0,
    // the JavaScript trampoline, where this Node cannot compile the WebAssembly one):
    // meaningless in a browser, whose table differs.  The snapshot carries 0, the same
    // from any Node; static/runtime.mjs puts the browser's own back once it is restored.
    const M = py._module;
    M.HEAP32[(M.__PyRuntime + M.HEAP32[M.__PyEM_EMSCRIPTEN_TRAMPOLINE_OFFSET >> 2]) >> 2] = 0;
    writeFileSync(step.snapshot + ".tmp", py.makeMemorySnapshot());
    renameSync(step.snapshot + ".tmp", step.snapshot);
  }
}
"""

# Byte-compiles, inside Pyodide (its CPython, its zlib: the same bytes on any
# machine).  Unchecked hash-based .pyc: valid whatever the file dates, never
# compared with a source.  The stdlib keeps no sources (tracebacks there show
# no lines); freecell.zip keeps its sources beside __pycache__, and stores its
# entries as they are: static/runtime.mjs unpacks it by copying (inflating a
# file at a time costs more than 100 ms), and hosts may compress it whole.
COMPILE_PY = r'''
import importlib._bootstrap_external as _bootstrap
import importlib.util
import io
import json
import os
import zipfile


def _pyc(source, filename):
    code = compile(source, filename, "exec", dont_inherit=True)
    return bytes(_bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def _write(path, entries, method=zipfile.ZIP_DEFLATED):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in sorted(entries.items()):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            if name.endswith("/"):
                info.external_attr = (0o40755 << 16) | 0x10
            else:
                info.external_attr = 0o644 << 16
                info.compress_type = method
            z.writestr(info, data)
    with open(path + ".tmp", "wb") as f:
        f.write(out.getvalue())
    os.replace(path + ".tmp", path)


def stdlib(src, dest):
    entries = {}
    with zipfile.ZipFile(src) as z:
        for info in z.infolist():
            data = z.read(info)
            if info.filename.endswith(".py"):
                entries[info.filename + "c"] = _pyc(data, "/lib/python314.zip/" + info.filename)
            else:
                entries[info.filename] = data
    _write(dest, entries)


def package(files, dest, home, pyc_only):
    entries = {}
    for rel, path in files:
        with open(path, "rb") as f:
            data = f.read()
        entries[rel] = data
        if rel.endswith(".py"):
            entries[importlib.util.cache_from_source(rel)] = _pyc(data, home + "/" + rel)
    for rel, text in pyc_only.items():
        entries[importlib.util.cache_from_source(rel)] = _pyc(text.encode(), home + "/" + rel)
    _write(dest, entries, zipfile.ZIP_STORED)  # unpacked by copying (the host may compress it whole)


_args = json.loads(JOB)
if "stdlib" in _args:
    stdlib(*_args["stdlib"])
if "package" in _args:
    package(*_args["package"])
'''

# The snapshot's last steps: the imports, then nothing of this code left behind.
SNAPSHOT_PY = r'''
import gc as _gc
import json as _json
import sys as _sys

for _name in _json.loads(JOB):
    __import__(_name)
_sys.path[:] = [p for p in _sys.path if p != ""]  # a restored interpreter puts "" first again
del _name, _json, _sys, JOB
_gc.collect()
del _gc
'''

# What the page's modules may import from `js` when the page's snapshot is made
# (under Node there is no browser): stand-ins of the same kind as the browser's.
BROWSER_GLOBALS = {
    "objects": ["window", "document", "navigator", "location", "history", "localStorage",
                "sessionStorage", "indexedDB", "screen", "visualViewport", "caches"],
    "functions": ["requestAnimationFrame", "cancelAnimationFrame", "requestIdleCallback",
                  "cancelIdleCallback", "matchMedia", "getComputedStyle", "Worker", "MutationObserver",
                  "ResizeObserver", "IntersectionObserver", "XMLHttpRequest", "Image", "Element",
                  "HTMLElement", "SVGElement", "Node", "KeyboardEvent", "PointerEvent", "MouseEvent"],
}


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise BuildError("Node (which comes with npm) is needed to byte-compile Python for Pyodide")
    return node


def _literal_end(text: str, start: int) -> int:
    """The end of the JS object literal that opens at ``text[start]`` (strings skipped)."""
    depth, quote, i = 0, "", start
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise BuildError("PyScript's core: unterminated object")


def pyscript_sources() -> dict[str, str]:
    """PyScript 0.7's Python package, which it writes at each start: ``{"pyscript/x.py": source}``.

    It is an object literal in its core-*.js (``{pyscript:{"__init__.py":...}}``),
    read here with Node.  The build byte-compiles it (freecell.zip's
    ``pyscript/__pycache__``), so the page imports it without compiling.
    """
    anchor = '{pyscript:{"__init__.py":'
    for core in sorted((NODE_MODULES / "@pyscript" / "core" / "dist").glob("core-*.js")):
        text = core.read_text(encoding="utf-8")
        start = text.find(anchor)
        if start >= 0:
            break
    else:
        raise BuildError("PyScript's core-*.js does not hold its Python package where expected")
    script = "let s='';process.stdin.on('data',(d)=>{s+=d}).on('end',()=>" \
             "{process.stdout.write(JSON.stringify((0,eval)('('+s+')')))})"
    r = subprocess.run([_node(), "-e", script], input=text[start:_literal_end(text, start)],
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise BuildError(f"reading PyScript's Python package failed: {r.stderr[-2000:]}")
    out: dict[str, str] = {}

    def walk(prefix: str, tree: dict[str, Any]) -> None:
        for name, value in tree.items():
            if isinstance(value, str):
                out[prefix + name] = value
            else:
                walk(prefix + name + "/", value)

    walk("", json.loads(r.stdout))
    return out


def run_node(steps: list[dict[str, Any]]) -> None:
    """Run the steps of :data:`NODE_DRIVER` under Node with the vendored Pyodide."""
    node = _node()
    pyodide = NODE_MODULES / "pyodide"
    job = {"pyodide": (pyodide / "pyodide.mjs").as_uri(), "indexURL": f"{pyodide}/",
           "lockfile": json.dumps(lockfile()), "steps": steps}
    env = {**os.environ, "FREECELL_JOB": json.dumps(job)}
    r = subprocess.run([node, "--input-type=module", "-"], input=NODE_DRIVER, env=env, cwd=ROOT,
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        # the minified Pyodide prints whole lines of its source: keep the end
        raise BuildError(f"Pyodide under Node failed:\n{r.stderr[-3000:]}")


# Pyodide's choice of call trampoline (pyodide.asm.mjs, at its start): none on iOS, else its
# WebAssembly trampoline module where it compiles.  A snapshot's restore overwrites that choice
# (see NODE_DRIVER), so static/runtime.mjs makes it again: it needs the module's bytes, and
# the check must still be Pyodide's (an upgrade that changes either fails here, to be revisited).
TRAMPOLINE_MODULE = re.compile(r'getWasmTrampolineModule\(\)\{return new WebAssembly\.Module\('
                               r'hexStringToUTF8Array\("([0-9a-f]+)"\)\)')
TRAMPOLINE_IOS = ('let isIOS=globalThis.navigator&&(/iPad|iPhone|iPod/.test(navigator.userAgent)||'
                  'navigator.platform==="MacIntel"&&typeof navigator.maxTouchPoints!=="undefined"&&'
                  'navigator.maxTouchPoints>1);if(isIOS){return 0}')


def trampoline_module() -> str:
    """The hex of Pyodide's WebAssembly call trampoline module, from the vendored pyodide.asm.mjs."""
    text = (NODE_MODULES / "pyodide" / "pyodide.asm.mjs").read_text(encoding="utf-8")
    found = TRAMPOLINE_MODULE.search(text)
    if found is None or TRAMPOLINE_IOS not in text:
        raise BuildError("pyodide.asm.mjs chooses its call trampoline in a way static/runtime.mjs does "
                         "not know (TRAMPOLINE_MODULE, TRAMPOLINE_IOS in build.py): revisit both")
    return found.group(1)


def lockfile() -> dict[str, Any]:
    """Pyodide's lock file without its packages (none is shipped): no 119 KB fetch at start."""
    info = json.loads((NODE_MODULES / "pyodide" / "pyodide-lock.json").read_text())["info"]
    return {"info": info, "packages": {}}


def _digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def _pyodide_digest() -> str:
    pyodide = NODE_MODULES / "pyodide"
    return _digest(*(hashlib.sha256((pyodide / n).read_bytes()).digest()
                     for n in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")))


def _package_files() -> list[tuple[str, Path]]:
    return [(f.relative_to(ROOT).as_posix(), f) for f in sorted((ROOT / "freecell").rglob("*.py"))]


@contextlib.contextmanager
def _cache_entry(key: str) -> Iterator[tuple[Path, bool]]:
    """``(folder, ready)`` for the cache entry ``key``: when not ready, fill the folder given.

    On success it becomes ``CACHE / key`` (whole or not at all); read it there.
    """
    final = CACHE / key
    if (final / "done").exists():
        os.utime(final)  # recently used: kept by prune_cache
        yield final, True
        return
    CACHE.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=key[:12] + ".tmp-", dir=CACHE))
    try:
        yield work, False
        (work / "done").write_text("")
        try:
            work.rename(final)
        except OSError:  # another build put it there meanwhile: the same bytes
            shutil.rmtree(work, ignore_errors=True)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def prune_cache(keep_entries: int = 6, keep_gz: int = 40) -> None:
    """Drop all but the most recently used entries of the build cache (each is tens of MB)."""
    if not CACHE.exists():
        return

    def newest_first(paths: list[Path]) -> list[Path]:
        return sorted(paths, key=lambda p: p.stat().st_mtime, reverse=True)

    entries = [p for p in CACHE.iterdir() if p.is_dir() and (p / "done").exists()]
    for old in newest_first(entries)[keep_entries:]:
        shutil.rmtree(old, ignore_errors=True)
    for work in CACHE.glob("*.tmp-*"):  # left by a build that was killed
        with contextlib.suppress(OSError):
            if work.stat().st_mtime < time.time() - 3600:
                shutil.rmtree(work, ignore_errors=True)
    if (CACHE / "gz").exists():
        for old in newest_first([p for p in (CACHE / "gz").iterdir() if p.suffix == ".gz"])[keep_gz:]:
            with contextlib.suppress(OSError):
                old.unlink()


def python_runtime(dest: Path) -> dict[str, Any]:
    """Byte-code and snapshots for the site in ``dest``; what static/runtime.mjs is told.

    Writes ``STDLIB``, ``freecell.zip`` and ``snapshots/{page,worker}-<hash>.bin``.
    """
    pyodide = NODE_MODULES / "pyodide"
    stdlib_key = _digest("stdlib", NODE_DRIVER, COMPILE_PY, _pyodide_digest())
    with _cache_entry(stdlib_key) as (stdlib_dir, ready):
        if not ready:
            print("build: byte-compiling the standard library for Pyodide", file=sys.stderr)
            # the first compiler boots from the sources (slowly); the result is kept
            run_node([{"stdlib": str(pyodide / "python_stdlib.zip"), "mount": True, "code": COMPILE_PY,
                       "args": {"stdlib": ["/host" + str(pyodide / "python_stdlib.zip"),
                                           "/host" + str(stdlib_dir / "stdlib.zip")]}}])
    stdlib = CACHE / stdlib_key / "stdlib.zip"
    files = _package_files()
    pyscript = pyscript_sources()
    imports = [PAGE_SNAPSHOT_IMPORTS, PAGE_RUNTIME_IMPORTS, WORKER_SNAPSHOT_IMPORTS, APP_HOME]
    app_key = _digest("app", stdlib_key, SNAPSHOT_PY, json.dumps(BROWSER_GLOBALS), json.dumps(imports),
                      json.dumps(pyscript, sort_keys=True), json.dumps(lockfile(), sort_keys=True),
                      *(part for rel, f in files for part in (rel, f.read_bytes())))
    with _cache_entry(app_key) as (app_dir, ready):
        if not ready:
            print("build: byte-compiling freecell and making the snapshots", file=sys.stderr)
            package = app_dir / "freecell.zip"
            unpack = [[str(package), APP_HOME]]
            run_node([
                {"stdlib": str(stdlib), "mount": True, "code": COMPILE_PY,
                 "args": {"package": [[[rel, "/host" + str(f)] for rel, f in files],
                                      "/host" + str(package), APP_HOME, pyscript]}},
                {"stdlib": str(stdlib), "unpack": unpack, "code": SNAPSHOT_PY,
                 "snapshot": str(app_dir / "page.raw"), "browser": BROWSER_GLOBALS,
                 "args": [*PAGE_SNAPSHOT_IMPORTS, *PAGE_RUNTIME_IMPORTS]},
                {"stdlib": str(stdlib), "unpack": unpack, "code": SNAPSHOT_PY,
                 "snapshot": str(app_dir / "worker.raw"), "args": list(WORKER_SNAPSHOT_IMPORTS)},
            ])
            for kind in ("page", "worker"):
                raw = app_dir / f"{kind}.raw"
                (app_dir / f"{kind}.bin").write_bytes(pack_snapshot(raw.read_bytes()))
                raw.unlink()
    app_dir = CACHE / app_key
    shutil.copyfile(stdlib, dest / STDLIB)
    shutil.copyfile(app_dir / "freecell.zip", dest / "freecell.zip")
    (dest / "snapshots").mkdir()
    runtime: dict[str, Any] = {"stdlib": "../" + STDLIB, "lockfile": lockfile(), "snapshots": {},
                               "trampoline": trampoline_module()}
    for kind in ("page", "worker"):
        data = (app_dir / f"{kind}.bin").read_bytes()
        name = f"snapshots/{kind}-{hashlib.sha256(data).hexdigest()[:16]}.bin"
        (dest / name).write_bytes(data)
        runtime["snapshots"][kind] = {"url": "../" + name, "size": len(data)}
    return runtime


def pack_snapshot(raw: bytes, page: int = 4096) -> bytes:
    """A memory snapshot without its zero pages (about half of it); :func:`unpack_snapshot` undoes it.

    Format (little-endian): ``FCSNAP01``, the full size (u32), the number of
    runs (u32), each run's offset and length (u32, u32), then the runs' bytes.
    """
    runs: list[list[int]] = []
    zero = bytes(page)
    for start in range(0, len(raw), page):
        chunk = raw[start:start + page]
        if chunk == zero[:len(chunk)]:
            continue
        if runs and runs[-1][0] + runs[-1][1] == start:
            runs[-1][1] += len(chunk)
        else:
            runs.append([start, len(chunk)])
    head = SNAPSHOT_MAGIC + struct.pack("<II", len(raw), len(runs))
    table = b"".join(struct.pack("<II", off, n) for off, n in runs)
    return head + table + b"".join(raw[off:off + n] for off, n in runs)


def unpack_snapshot(packed: bytes) -> bytes:
    """The memory snapshot that :func:`pack_snapshot` packed (static/runtime.mjs does the same)."""
    if packed[:8] != SNAPSHOT_MAGIC:
        raise ValueError("not a packed snapshot")
    size, count = struct.unpack_from("<II", packed, 8)
    out = bytearray(size)
    pos = 16 + 8 * count
    for i in range(count):
        off, n = struct.unpack_from("<II", packed, 16 + 8 * i)
        out[off:off + n] = packed[pos:pos + n]
        pos += n
    if pos != len(packed):
        raise ValueError("packed snapshot: wrong length")
    return bytes(out)


def write_runtime(root: Path, runtime: dict[str, Any]) -> None:
    """Fill in static/runtime.mjs with this build's stdlib and snapshots."""
    path = root / RUNTIME_SOURCE
    text = path.read_text(encoding="utf-8")
    if text.count(RUNTIME_MARK) != 1:
        raise BuildError(f"{RUNTIME_SOURCE} must hold {RUNTIME_MARK} exactly once")
    path.write_text(text.replace(RUNTIME_MARK, json.dumps(runtime, sort_keys=True)), encoding="utf-8")


def precompress(root: Path) -> None:
    """Write (or refresh) ``name.gz`` beside the files of :data:`PRECOMPRESS`; drop stale ones.

    Same content, same bytes (no name or date in the header); kept in the build
    cache by content, so a rebuild does not compress again.
    """
    for gz in root.rglob("*.gz"):
        if not gz.with_suffix("").exists():
            gz.unlink()
    for f in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".gz"):
        rel = f.relative_to(root).as_posix()
        if not any(rel == want or (want.endswith("/") and rel.startswith(want)) for want in PRECOMPRESS):
            continue
        data = f.read_bytes()
        cached = CACHE / "gz" / (hashlib.sha256(data).hexdigest() + ".gz")
        if cached.exists():
            os.utime(cached)
        else:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_name(cached.name + f".{os.getpid()}.tmp")
            with open(tmp, "wb") as out, gzip.GzipFile(filename="", mode="wb", fileobj=out,
                                                       compresslevel=9, mtime=0) as z:
                z.write(data)
            tmp.replace(cached)
        shutil.copyfile(cached, f.with_name(f.name + ".gz"))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def site_files(root: Path) -> list[tuple[str, str]]:
    """``(path, sha256)`` of every file of a built site but ``sw.js``, ``build.json`` and the ``.gz``.

    (A ``.gz`` is another encoding of its file, not a file the page asks for.)
    """
    out = []
    for f in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = f.relative_to(root).as_posix()
        if rel not in ("sw.js", "build.json") and not rel.endswith(".gz"):
            out.append((rel, _sha256(f)))
    return out


def finish(root: Path, sw_source: Path = SW_SOURCE) -> str:
    """Write ``build.json`` and ``sw.js`` for the files under ``root``; the build hash.

    The hash covers every file's path and content and the service worker's
    source.  ``sw.js`` gets the hash (its cache name) and the list of files to
    precache, each with its SHA-256: ``build.json`` and every file but itself.
    Run again after changing a file of a built site, it makes a new version
    (and refreshes the precompressed copies).
    """
    precompress(root)
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


SPRITE_MARK = "<!-- __FREECELL_SPRITE__ -->"
BOOT_MARK = "/* __FREECELL_BOOT__ */"


def page_data(root: Path) -> None:
    """What the page's scripts draw from, made by the game's Python, written into them.

    - ``index.html``: the card sprite (:mod:`freecell.ui.sprite`: the faces and
      pile marks that static/early.js and the page's Python both draw with);
    - ``static/boot.js``: the languages (:data:`freecell.ui.i18n.LANGUAGES`) and
      the themes and speeds a stored setting may hold
      (:data:`freecell.ui.store.CHOICE_SETTINGS`), the one list of each.
    """
    sys.path.insert(0, str(ROOT))
    try:
        from freecell.ui.i18n import LANGUAGES
        from freecell.ui.sprite import sprite_svg
        from freecell.ui.store import CHOICE_SETTINGS
    finally:
        sys.path.remove(str(ROOT))
    index = root / "index.html"
    text = index.read_text(encoding="utf-8")
    if text.count(SPRITE_MARK) != 1:
        raise BuildError(f"index.html must hold {SPRITE_MARK} exactly once")
    index.write_text(text.replace(SPRITE_MARK, sprite_svg()), encoding="utf-8")
    boot = root / "static" / "boot.js"
    text = boot.read_text(encoding="utf-8")
    if text.count(BOOT_MARK) != 1:
        raise BuildError(f"boot.js must hold {BOOT_MARK} exactly once")
    end = text.index(BOOT_MARK)
    start = text.rindex("= ", 0, end) + 2
    data = {"languages": list(LANGUAGES), "theme": list(CHOICE_SETTINGS["theme"]),
            "speed": list(CHOICE_SETTINGS["speed"])}
    boot.write_text(text[:start] + json.dumps(data) + " " + text[end:], encoding="utf-8")


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
        page_data(tmp)
        vendor(tmp / "vendor")
        write_runtime(tmp, python_runtime(tmp))
        finish(tmp)
        prune_cache()
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

    Every answer says ``Cache-Control: no-cache`` and carries a strong ETag made
    from the SHA-256 of the bytes sent, so a browser revalidates each file and
    gets "304 Not Modified" when it has those bytes already, even across a
    rebuild within the same second.  ``If-Modified-Since`` alone never gives a
    304 (the stdlib compares dates to the second).  A file with ``name.gz``
    beside it goes gzip-encoded to a client that accepts gzip (with ``Vary:
    Accept-Encoding``), as a host serving precompressed files does; set
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
        gz = path + ".gz"
        has_gz = self.precompressed and os.path.isfile(gz)
        accepts = "gzip" in self.headers.get("Accept-Encoding", "").lower()
        sent = gz if has_gz and accepts else path
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
        if has_gz:
            self.send_header("Vary", "Accept-Encoding")
        if status == http.HTTPStatus.NOT_MODIFIED:
            f.close()
            self.end_headers()
            return None
        self.send_header("Content-Type", self.guess_type(path))
        if sent == gz:
            self.send_header("Content-Encoding", "gzip")
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
