"""Precompressed copies (``name.gz``) of the files hosts seldom compress by themselves."""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
from pathlib import Path

from .cache import CACHE

# Files a host seldom compresses by itself (wasm, binary snapshots, the package
# zip, the largest script): the build writes name.gz beside them, for hosts that
# serve precompressed files (the dev server does).  Text files are left to the host.
PRECOMPRESS = ("vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/pyodide.asm.mjs", "freecell.zip",
               "snapshots/")

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
