"""The pinned runtime packages from npm: installing them, vendoring what the page loads,
and what the build reads out of them (the lock file, PyScript's Python package,
Pyodide's call trampoline).

Nothing of them is committed: ``npm ci`` installs them into ``node_modules/``
(``package.json``, ``package-lock.json``), and only the files the page and the
worker load are copied into ``dist/vendor/``.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from .cache import digest
from .project import NODE_MODULES, ROOT, BuildError

# Not shipped: the npm stdlib (sources only; the build's byte-compiled one is)
# and pyodide-lock.json (no package is; static/runtime.mjs gives an empty one).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")

# PyScript chunks the page never loads (editor and terminal widgets).
PYSCRIPT_SKIP = ("codemirror", "xterm")


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


# pyodide.asm.mjs makes a shared WebAssembly memory as it loads, for a sleep that only
# a blocking read of stdin uses: without cross-origin isolation Chromium reports it as a
# deprecated use of SharedArrayBuffer (Lighthouse's "deprecations").  Made when first used.
SHARED_SLEEP = re.compile(r"var (\w+)=new Int32Array\(new WebAssembly\.Memory\("
                          r"\{shared:!0,initial:1,maximum:1\}\)\.buffer\);"
                          r"function (\w+)\((\w+)\)\{try\{return Atomics\.wait\(\1,0,0,\3\),!0\}")
LAZY_SLEEP = (r"var \1=null;function \2(\3){try{return \1=\1||new Int32Array(new WebAssembly.Memory("
              r"{shared:!0,initial:1,maximum:1}).buffer),Atomics.wait(\1,0,0,\3),!0}")


def lazy_shared_memory(text: str) -> str:
    """pyodide.asm.mjs with its shared memory made when first used (unchanged if not found)."""
    out, count = SHARED_SLEEP.subn(LAZY_SLEEP, text)
    if count != 1:
        print("build: pyodide.asm.mjs: its shared-memory sleep was not found; left as it is", file=sys.stderr)
        return text
    return out


def vendor(dest: Path) -> None:
    """Copy only what the page and the worker load from the runtime packages."""
    pyodide = NODE_MODULES / "pyodide"
    (dest / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, dest / "pyodide" / name)
    asm = dest / "pyodide" / "pyodide.asm.mjs"
    asm.write_text(lazy_shared_memory(asm.read_text(encoding="utf-8")), encoding="utf-8")
    core = NODE_MODULES / "@pyscript" / "core" / "dist"
    (dest / "pyscript").mkdir()
    for f in sorted(core.iterdir()):
        if f.suffix in (".js", ".css") and not f.name.startswith(PYSCRIPT_SKIP):
            if f.name in ("service-worker.js",):
                continue
            shutil.copy2(f, dest / "pyscript" / f.name)


def node_binary() -> str:
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
    r = subprocess.run([node_binary(), "-e", script], input=text[start:_literal_end(text, start)],
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


def pyodide_digest() -> str:
    pyodide = NODE_MODULES / "pyodide"
    return digest(*(hashlib.sha256((pyodide / n).read_bytes()).digest()
                     for n in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")))
