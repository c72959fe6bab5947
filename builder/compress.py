"""Precompressed copies, ``name.br`` and ``name.gz``, beside the files of the built site.

A host that serves precompressed files (nginx ``gzip_static`` and ``brotli_static``,
Caddy ``precompressed br gzip``; the dev server does it) sends the ``.br`` to a
browser that accepts brotli, else the ``.gz``, with ``Content-Encoding`` and
``Vary: Accept-Encoding`` (docs/hosting.md).  Every file gets them (text, wasm,
the zips, the snapshots) unless it is compressed already so well that a copy
would save less than :data:`MIN_SAVING` (the icons' PNGs): then it is sent as
it is.  A ``.gz`` or ``.br`` is another encoding of its file, never a file of
the service worker's list.

Same content, same bytes (gzip: no name or date in its header; brotli: fixed
parameters), kept in the build cache by content, so a rebuild compresses only
what changed.  Brotli's best quality (11) costs about 5 s a MB here: it is kept
for the files a first visit waits for (measured on the wasm: 2.74 MB at 11,
3.10 at 9, 3.53 with gzip); files over :data:`BIG` (the snapshots, fetched in
the background) get quality 9 (4.39 MB against 3.83 for the page's, in a tenth
of the time).  The runtime's own files are compressed in the background while
the build makes Python's byte-code and snapshots (:func:`start`), on the other
core; the rest go to a second process beside it as soon as they are written.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

from .cache import CACHE
from .npm import node_binary
from .project import BuildError

ENCODINGS = (".br", ".gz")
# A copy that saves less than this share of the file is not written (a PNG, a tiny file).
MIN_SAVING = 0.05
MIN_SIZE = 256  # bytes: smaller files go as they are
BROTLI = Path(__file__).with_name("brotli.mjs")
BIG = 12_000_000  # bytes: brotli quality 9 above, 11 below
# brotli processes under way, each with the cache files it writes
_background: list[tuple[subprocess.Popen[str], set[str]]] = []


def encoded(name: str) -> bool:
    """Whether a file name is a precompressed copy of another file."""
    return name.endswith(ENCODINGS)


def _cached(data: bytes, suffix: str) -> Path:
    return CACHE / "gz" / (hashlib.sha256(data).hexdigest() + suffix)


def _gzip(data: bytes, out: Path) -> None:
    tmp = out.with_name(out.name + f".{os.getpid()}.tmp")
    with open(tmp, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9,
                                             mtime=0) as z:
        z.write(data)
    tmp.replace(out)


def _quality(size: int) -> int:
    return 9 if size > BIG else 11


def _brotli_jobs(files: list[Path]) -> list[list[str | int]]:
    """``[source, cached copy, quality]`` for the files whose copy is neither made nor being made."""
    under_way = {dst for _, dsts in _background for dst in dsts}
    jobs: list[list[str | int]] = []
    for f in files:
        data = f.read_bytes()
        dst = str(_cached(data, ".br"))
        if len(data) >= MIN_SIZE and dst not in under_way and not Path(dst).exists():
            jobs.append([str(f), dst, _quality(len(data))])
            under_way.add(dst)
    return jobs


def _run_brotli(jobs: list[list[str | int]]) -> None:
    """Start one brotli process on ``jobs``, in the background (:func:`_finish_all` waits)."""
    if not jobs:
        return
    (CACHE / "gz").mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([node_binary(), str(BROTLI)], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    if proc.stdin is None:
        raise BuildError("brotli under Node: no input pipe")
    proc.stdin.write(json.dumps(jobs))
    proc.stdin.close()
    _background.append((proc, {str(job[1]) for job in jobs}))


def _finish_all() -> None:
    while _background:
        proc, _ = _background.pop()
        err = proc.stderr.read() if proc.stderr is not None else ""
        if proc.wait() != 0:
            raise BuildError(f"brotli under Node failed: {(err or '')[-2000:]}")


def start(files: list[Path]) -> None:
    """Compress ``files`` (the runtime's, known early) in the background, into the cache."""
    _run_brotli(_brotli_jobs(files))


def precompress(root: Path) -> None:
    """Write (or refresh) ``name.br`` and ``name.gz`` beside the files under ``root``; drop stale ones."""
    for copy in [p for p in root.rglob("*") if p.is_file() and encoded(p.name)]:
        copy.unlink()
    files = sorted(p for p in root.rglob("*") if p.is_file())
    (CACHE / "gz").mkdir(parents=True, exist_ok=True)
    # the files the early process is not doing go to a second one at once (two cores: the
    # runtime's wasm alone takes half a minute at quality 11), and gzip runs meanwhile
    _run_brotli(_brotli_jobs(files))
    for f in files:
        data = f.read_bytes()
        gz = _cached(data, ".gz")
        if len(data) >= MIN_SIZE and not gz.exists():
            _gzip(data, gz)
    _finish_all()
    for f in files:
        data = f.read_bytes()
        if len(data) < MIN_SIZE:
            continue
        for suffix in ENCODINGS:
            cached = _cached(data, suffix)
            os.utime(cached)
            if cached.stat().st_size <= len(data) * (1 - MIN_SAVING):
                shutil.copyfile(cached, f.with_name(f.name + suffix))
