"""Python for the vendored Pyodide, made under Node: the byte-compiled standard library,
``freecell.zip`` and the two memory snapshots (see docs/architecture.md, "Start-up").

Node runs ``node_driver.mjs`` with a job of steps; each step loads the vendored
Pyodide and runs one of the two scripts that run inside it:
``pyodide_compile.py`` (byte-compiles, with Pyodide's own CPython 3.14: the
build machine's .pyc would be useless) and ``pyodide_snapshot.py`` (the
snapshot's imports, then nothing of that code left behind).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from .cache import CACHE, cache_entry, digest
from .delta import make_delta
from .npm import lockfile, node_binary, pyodide_digest, pyscript_sources, trampoline_module
from .project import NODE_MODULES, ROOT, BuildError

HERE = Path(__file__).resolve().parent
# The job comes in FREECELL_JOB, so that no path of this machine ends up in a snapshot
# (Emscripten keeps argv[1] as the program name).
NODE_DRIVER = (HERE / "node_driver.mjs").read_text(encoding="utf-8")
# Byte-compiles inside Pyodide (its CPython, its zlib: the same bytes on any machine).
COMPILE_PY = (HERE / "pyodide_compile.py").read_text(encoding="utf-8")
# The snapshot's last steps: the imports, then nothing of this code left behind.
SNAPSHOT_PY = (HERE / "pyodide_snapshot.py").read_text(encoding="utf-8")
# Which files of the standard library the page and the worker load.
RECORD_PY = (HERE / "pyodide_record.py").read_text(encoding="utf-8")
DELTA_PY = (HERE / "delta.py").read_text(encoding="utf-8")

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

# The dataclasses' methods compiled by the build's Pyodide (freecell/precompiled.py), in freecell.zip.
PRECOMPILED = "freecell/dataclass-code.bin"

SNAPSHOT_MAGIC = b"FCSNAP01"  # pack_snapshot's format

# Where Pyodide finds the standard library's zip (stdLibURL) in its file system.
STDLIB_PREFIX = "/lib/python314.zip/"
# Standard-library modules the page or the worker import only later, at run time, in ways
# the build's recording (pyodide_record.py) does not run: a checked list
# (tests/test_build.py holds it against every import of freecell/).
LAZY_STDLIB: tuple[str, ...] = ()

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


def run_node(steps: list[dict[str, Any]]) -> None:
    """Run the steps of :data:`NODE_DRIVER` under Node with the vendored Pyodide."""
    node = node_binary()
    pyodide = NODE_MODULES / "pyodide"
    job = {"pyodide": (pyodide / "pyodide.mjs").as_uri(), "indexURL": f"{pyodide}/",
           "lockfile": json.dumps(lockfile()), "steps": steps}
    env = {**os.environ, "FREECELL_JOB": json.dumps(job)}
    r = subprocess.run([node, "--input-type=module", "-"], input=NODE_DRIVER, env=env, cwd=ROOT,
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        # the minified Pyodide prints whole lines of its source: keep the end
        raise BuildError(f"Pyodide under Node failed:\n{r.stderr[-3000:]}")


def package_files() -> list[tuple[str, Path]]:
    return [(f.relative_to(ROOT).as_posix(), f) for f in sorted((ROOT / "freecell").rglob("*.py"))]


def python_runtime(dest: Path) -> dict[str, Any]:
    """Byte-code and snapshots for the site in ``dest``; what static/runtime.mjs is told.

    Writes ``STDLIB``, ``freecell.zip``, ``snapshots/page-<hash>.bin`` and
    ``snapshots/worker-<hash>.delta`` (the worker's snapshot as a delta from the page's).
    """
    pyodide = NODE_MODULES / "pyodide"
    stdlib_key = digest("stdlib", NODE_DRIVER, COMPILE_PY, pyodide_digest())
    with cache_entry(stdlib_key) as (stdlib_dir, ready):
        if not ready:
            print("build: byte-compiling the standard library for Pyodide", file=sys.stderr)
            # the first compiler boots from the sources (slowly); the result is kept
            run_node([{"stdlib": str(pyodide / "python_stdlib.zip"), "mount": True, "code": COMPILE_PY,
                       "args": {"stdlib": ["/host" + str(pyodide / "python_stdlib.zip"),
                                           "/host" + str(stdlib_dir / "stdlib.zip")]}}])
    stdlib = CACHE / stdlib_key / "stdlib.zip"
    files = package_files()
    pyscript = pyscript_sources()
    imports = [PAGE_SNAPSHOT_IMPORTS, PAGE_RUNTIME_IMPORTS, WORKER_SNAPSHOT_IMPORTS, LAZY_STDLIB,
               STDLIB_PREFIX, APP_HOME]
    app_key = digest("app", stdlib_key, SNAPSHOT_PY, RECORD_PY, DELTA_PY, json.dumps(BROWSER_GLOBALS),
                     json.dumps(imports),
                      json.dumps(pyscript, sort_keys=True), json.dumps(lockfile(), sort_keys=True),
                      *(part for rel, f in files for part in (rel, f.read_bytes())))
    with cache_entry(app_key) as (app_dir, ready):
        if not ready:
            print("build: byte-compiling freecell, trimming the standard library, making the snapshots",
                  file=sys.stderr)
            package = app_dir / "freecell.zip"
            unpack = [[str(package), APP_HOME]]
            run_node([
                {"stdlib": str(stdlib), "mount": True, "code": COMPILE_PY,
                 "args": {"package": [[[rel, "/host" + str(f)] for rel, f in files],
                                      "/host" + str(package), APP_HOME, pyscript]}},
                {"stdlib": str(stdlib), "mount": True, "unpack": unpack, "code": RECORD_PY, "record": True,
                 "browser": BROWSER_GLOBALS,
                 "args": {"imports": [*PAGE_SNAPSHOT_IMPORTS, *PAGE_RUNTIME_IMPORTS, *WORKER_SNAPSHOT_IMPORTS,
                                      *LAZY_STDLIB],
                          "optional": pyscript_imports(pyscript), "prefix": STDLIB_PREFIX,
                          "precompiled": f"{APP_HOME}/freecell/precompiled.pyc",
                          "code_out": "/host" + str(app_dir / "dataclass-code.bin"),
                          "out": "/host" + str(app_dir / "modules.json")}},
            ])
            add_to_zip(package, PRECOMPILED, (app_dir / "dataclass-code.bin").read_bytes())
            trimmed = app_dir / "stdlib.zip"
            trim_stdlib(stdlib, json.loads((app_dir / "modules.json").read_text()), trimmed)
            run_node([
                {"stdlib": str(trimmed), "unpack": unpack, "code": SNAPSHOT_PY,
                 "snapshot": str(app_dir / "page.raw"), "browser": BROWSER_GLOBALS,
                 "args": [*PAGE_SNAPSHOT_IMPORTS, *PAGE_RUNTIME_IMPORTS]},
                {"stdlib": str(trimmed), "unpack": unpack, "code": SNAPSHOT_PY,
                 "snapshot": str(app_dir / "worker.raw"), "args": list(WORKER_SNAPSHOT_IMPORTS)},
            ])
            page_raw, worker_raw = ((app_dir / f"{kind}.raw").read_bytes() for kind in ("page", "worker"))
            (app_dir / "page.bin").write_bytes(pack_snapshot(page_raw))
            (app_dir / "worker.delta").write_bytes(make_delta(page_raw, worker_raw))
            for kind in ("page", "worker"):
                (app_dir / f"{kind}.raw").unlink()
    app_dir = CACHE / app_key
    shutil.copyfile(app_dir / "stdlib.zip", dest / STDLIB)
    shutil.copyfile(app_dir / "freecell.zip", dest / "freecell.zip")
    (dest / "snapshots").mkdir()
    runtime: dict[str, Any] = {"stdlib": "../" + STDLIB, "lockfile": lockfile(), "snapshots": {},
                               "trampoline": trampoline_module()}
    for kind, file in (("page", "page.bin"), ("worker", "worker.delta")):
        data = (app_dir / file).read_bytes()
        name = f"snapshots/{kind}-{hashlib.sha256(data).hexdigest()[:16]}{Path(file).suffix}"
        (dest / name).write_bytes(data)
        runtime["snapshots"][kind] = {"url": "../" + name, "size": len(data)}
    runtime["snapshots"]["worker"]["base"] = "page"  # a delta from the page's (builder/delta.py)
    return runtime


def add_to_zip(path: Path, name: str, data: bytes) -> None:
    """Add the file ``name`` to the zip at ``path`` (stored, dated as pyodide_compile.py dates them)."""
    with zipfile.ZipFile(path, "a") as z:
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.external_attr = 0o644 << 16
        z.writestr(info, data)


def pyscript_imports(sources: dict[str, str]) -> list[str]:
    """The top-level modules PyScript's Python package imports (its own and JS-backed ones too)."""
    found: set[str] = set()
    for text in sources.values():
        for m in re.finditer(r"^\s*(?:import ([\w.]+)|from ([\w.]+) import)", text, re.MULTILINE):
            name = m.group(1) or m.group(2)
            if not name.startswith("."):
                found.add(name)
    return sorted(found)


def trim_stdlib(full: Path, used: list[str], dest: Path) -> None:
    """The standard library's zip with only the files in ``used`` (paths inside the zip).

    Its entries are stored as they are: the file goes compressed as a whole
    (``.br``, ``.gz``), which compresses better than entry by entry (the
    byte-code of one module repeats names of another), and a stored entry is
    imported without inflating it.
    """
    wanted = set(used)
    out = io.BytesIO()
    with zipfile.ZipFile(full) as src, zipfile.ZipFile(out, "w") as z:
        for info in src.infolist():
            if info.filename in wanted:
                kept = zipfile.ZipInfo(info.filename, date_time=info.date_time)
                kept.external_attr = info.external_attr
                kept.compress_type = zipfile.ZIP_STORED
                z.writestr(kept, src.read(info))
    missing = wanted - {i.filename for i in zipfile.ZipFile(io.BytesIO(out.getvalue())).infolist()}
    if missing:
        raise BuildError(f"the standard library has no {sorted(missing)[:5]}")
    dest.write_bytes(out.getvalue())


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
