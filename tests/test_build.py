"""The build: the serve command, the service worker's file list, the policy, the manifest,
the byte-code and snapshots for Pyodide, the dev server's revalidation (304) and precompressed files."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
import os
import random
import re
import shutil
import socket
import struct
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest

import build
from builder.delta import apply_delta, make_delta
from builder.project import ROOT
from builder.python import APP_HOME, COMPILE_PY, STDLIB, pack_snapshot, run_node, unpack_snapshot
from builder.server import CSP, CSP_WORKER
from builder.site import RUNTIME_MARK, RUNTIME_SOURCE, SW_BUILD, SW_FILES


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers.get("Content-Type", ""), r.read()


def _header(url: str, name: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return str(r.headers.get(name, ""))


@pytest.fixture(scope="module")
def server() -> object:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "build.py", "serve", "--port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None
    seen = []  # a tree changed since the last build is built first, and says so
    for line in proc.stdout:  # the address is printed once the socket listens
        seen.append(line)
        if f"127.0.0.1:{port}" in line:
            break
    else:
        proc.kill()
        raise AssertionError(f"server did not start: {seen!r} {proc.stderr.read() if proc.stderr else ''}")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=10)


def test_serves_page_and_runtime(server: str) -> None:
    status, ctype, body = _get(server + "/")
    assert status == 200 and "text/html" in ctype and b"FreeCell" in body
    status, ctype, _ = _get(server + "/vendor/pyodide/pyodide.asm.wasm")
    assert ctype == "application/wasm"
    status, ctype, _ = _get(server + "/vendor/pyodide/pyodide.mjs")
    assert ctype.startswith("text/javascript")
    _, _, raw = _get(server + "/build.json")
    assert len(json.loads(raw)["hash"]) == 16
    _, ctype, _ = _get(server + "/static/manifest.webmanifest")
    assert ctype == "application/manifest+json"
    status, ctype, body = _get(server + "/sw.js")
    assert status == 200 and ctype.startswith("text/javascript") and json.loads(raw)["hash"].encode() in body


def test_serves_the_policy(server: str) -> None:
    assert _header(server + "/", "Content-Security-Policy") == CSP
    assert _header(server + "/?deal=5", "Content-Security-Policy") == CSP
    for worker in ("/sw.js", "/static/solver-worker.js"):
        assert _header(server + worker, "Content-Security-Policy") == CSP_WORKER
    assert _header(server + "/static/style.css", "X-Content-Type-Options") == "nosniff"


def test_package_zip_holds_the_engine_and_its_byte_code() -> None:
    z = zipfile.ZipFile(ROOT / "dist" / "freecell.zip")
    names = z.namelist()
    # the game's byte-code where its sources would be (Python's sourceless loader), no sources
    assert "freecell/engine.pyc" in names and "freecell/ui/session/session.pyc" in names
    assert not any(n.endswith(".py") for n in names)
    # PyScript's own package: byte-code only (PyScript writes its sources at each start)
    assert "pyscript/__pycache__/__init__.cpython-314.pyc" in names
    assert not any(n.startswith("pyscript/") and n.endswith(".py") for n in names)
    assert not any(n.endswith(".map") for n in names)
    for name in names:
        if name.endswith(".pyc"):
            assert _pyc_flags(z.read(name)) == 0b01, name  # hash-based, never checked against a source
    # the dataclasses' methods, compiled by Pyodide's Python (freecell/precompiled.py; the page's
    # first visit is tested to compile none: tests/browser/test_boot.py)
    code = z.read("freecell/dataclass-code.bin")
    assert code.startswith(b"3.14.") and b" cpython-314\n" in code[:200]


def test_vendored_runtime_is_not_tracked_by_git() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    for bad in ("pyodide.asm.wasm", "python_stdlib", "node_modules/", "dist/", "snapshots/", ".bin\n"):
        assert bad not in tracked


def test_bad_port_is_refused() -> None:
    r = subprocess.run([sys.executable, "build.py", "serve", "--port", "70000"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--port" in r.stderr


# --- the service worker's list of files ----------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build.build(tmp_path_factory.mktemp("build") / "site")


def _sw_parts(site: Path) -> tuple[str, list[list[str]], str]:
    text = (site / "sw.js").read_text(encoding="utf-8")
    m = re.search(r'^const BUILD = "([0-9a-f]{16})";$', text, re.M)
    assert m, "sw.js: no build hash"
    files = re.search(r"^const FILES = (\[.*?\]);$", text, re.M | re.S)
    assert files, "sw.js: no file list"
    listing = json.loads(re.sub(r",\s*\]$", "]", files.group(1)))
    return m.group(1), listing, text


def test_service_worker_precaches_every_file_of_the_build(site: Path) -> None:
    build_hash, listing, text = _sw_parts(site)
    assert SW_BUILD not in text and SW_FILES not in text
    assert build_hash == json.loads((site / "build.json").read_text())["hash"]
    on_disk = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    # every file but the service worker itself; a .br or .gz is another encoding of its file
    copies = (".br", ".gz")
    assert [path for path, *_ in listing] == [p for p in on_disk if p != "sw.js" and not p.endswith(copies)]
    for path, digest, _ in listing:
        assert hashlib.sha256((site / path).read_bytes()).hexdigest() == digest, path
    # what the page and the solver worker load is precached; what a visit may never ask
    # for (another language, PyScript's unused chunks, the PNG icons) is cached when used;
    # the snapshots are the page's own (it stores them when idle)
    runtime = _runtime(site)
    snapshots = [_site_path(entry["url"]) for entry in runtime["snapshots"].values()]
    assert len(snapshots) == 2
    precached = {path for path, _, flag in listing if flag == 1}
    for needed in ("index.html", "pyscript.toml", "freecell.zip", "static/boot.js", "static/offline.js",
                   "static/runtime.mjs", "static/solver-worker.js", "static/i18n/en.json", "static/main.py",
                   "static/manifest.webmanifest", "vendor/pyodide/pyodide.asm.wasm", STDLIB,
                   "vendor/pyscript/core.js", "static/style.css", "static/early.js", "build.json"):
        assert needed in precached, needed
    later = {path for path, _, flag in listing if flag == 0}
    for on_use in ("static/i18n/fr.json", "static/icon-512.png", "static/update.css", *snapshots):
        assert on_use in later, on_use
    assert not any(p.startswith("vendor/pyscript/") and ("py-editor" in p or "zip-" in p) for p in precached)
    assert {flag for *_, flag in listing} == {0, 1}
    # the sources with placeholders are not part of the site; neither is what the page never loads
    assert not (site / "static" / "sw.js").exists()
    for unused in ("vendor/pyodide/python_stdlib.zip", "vendor/pyodide/pyodide-lock.json"):
        assert unused not in {path for path, *_ in listing}


def test_same_sources_same_build(site: Path, tmp_path: Path) -> None:
    again = build.build(tmp_path / "again")
    assert (again / "build.json").read_text() == (site / "build.json").read_text()
    assert (again / "sw.js").read_bytes() == (site / "sw.js").read_bytes()


def test_a_changed_file_is_a_new_version(site: Path, tmp_path: Path) -> None:
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    style = copy / "static" / "style.css"
    style.write_text(style.read_text() + "\n/* changed */\n")
    new_hash = build.finish(copy)
    old_hash, old_listing, _ = _sw_parts(site)
    got_hash, listing, _ = _sw_parts(copy)
    assert new_hash == got_hash != old_hash
    assert [p for p, *_ in listing] == [p for p, *_ in old_listing]
    changed = [p for (p, d, _), (_, o, _) in zip(listing, old_listing, strict=True) if d != o]
    assert changed == ["build.json", "static/style.css"]


def test_a_changed_file_gets_fresh_compressed_copies(site: Path, tmp_path: Path) -> None:
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    style = copy / "static" / "style.css"
    assert gzip.decompress((copy / "static/style.css.gz").read_bytes()) == style.read_bytes()
    style.write_bytes(style.read_bytes() + b"\n/* changed */\n")
    stale = copy / "static" / "orphan.js.gz"
    stale.write_bytes(gzip.compress(b"x"))
    (copy / "static" / "orphan.js.br").write_bytes(b"x")
    build.finish(copy)
    assert gzip.decompress((copy / "static/style.css.gz").read_bytes()) == style.read_bytes()
    assert _unbrotli(copy / "static/style.css.br") == style.read_bytes()
    assert not stale.exists() and not (copy / "static" / "orphan.js.br").exists()


def _unbrotli(path: Path) -> bytes:
    """Decode a .br with Node's zlib (CPython has no brotli)."""
    code = ("const z=require('zlib'),fs=require('fs');"
            "process.stdout.write(z.brotliDecompressSync(fs.readFileSync(process.argv[1])))")
    node = shutil.which("node")
    assert node is not None
    return subprocess.run([node, "-e", code, str(path)], capture_output=True, check=True).stdout


def test_every_text_and_wasm_file_has_brotli_and_gzip_copies_that_pay(site: Path) -> None:
    for rel in ("index.html", "static/style.css", "static/runtime.mjs", "static/i18n/fr.json",
                "vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/pyodide.asm.mjs", "freecell.zip",
                STDLIB):
        f = site / rel
        br, gz = f.with_name(f.name + ".br"), f.with_name(f.name + ".gz")
        assert br.exists() and gz.exists(), rel
        assert br.stat().st_size < gz.stat().st_size < f.stat().st_size, rel
    assert _unbrotli(site / "index.html.br") == (site / "index.html").read_bytes()
    # a PNG is compressed already: a copy would save nothing
    assert not (site / "static" / "icon-512.png.br").exists()


def test_a_service_worker_source_without_its_placeholders_is_refused(site: Path, tmp_path: Path) -> None:
    bad = tmp_path / "sw.js"
    bad.write_text("const BUILD = 'x';\n")
    with pytest.raises(build.BuildError, match="__FREECELL_BUILD__"):
        build.finish(site, sw_source=bad)


# --- byte-code and snapshots for Pyodide ----------------------------------------------------


def _pyc_flags(data: bytes) -> int:
    return int.from_bytes(data[4:8], "little")


def _runtime(site: Path) -> dict[str, Any]:
    """What the build wrote into static/runtime.mjs."""
    text = (site / RUNTIME_SOURCE).read_text(encoding="utf-8")
    assert RUNTIME_MARK not in text
    m = re.search(r"^const BUILD = (\{.*\});$", text, re.M)
    assert m, "runtime.mjs: BUILD not filled in"
    return dict(json.loads(m.group(1)))


def _site_path(url: str) -> str:
    """A path of runtime.mjs (relative to static/) as a path of the site."""
    assert url.startswith("../")
    return url.removeprefix("../")


def test_the_standard_library_is_byte_compiled_for_pyodide_and_trimmed(site: Path) -> None:
    runtime = _runtime(site)
    assert _site_path(runtime["stdlib"]) == STDLIB
    z = zipfile.ZipFile(site / STDLIB)
    infos = z.infolist()
    names = [i.filename for i in infos]
    assert names == sorted(names)
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
    assert {i.compress_type for i in infos} == {zipfile.ZIP_STORED}  # the file is compressed whole
    assert not any(n.endswith(".py") for n in names)  # byte-code only
    # what the page, the worker and Pyodide's start import is there (os and the like are
    # frozen into the interpreter); what they never import is not
    for module in ("json/__init__.pyc", "asyncio/__init__.pyc", "zipfile/__init__.pyc", "heapq.pyc",
                   "dataclasses.pyc", "enum.pyc",
                   "_pyodide/__init__.pyc", "pyodide/http/__init__.pyc", "html/__init__.pyc", "base64.pyc"):
        assert module in names, module
    for unused in ("unittest/__init__.pyc", "pydoc.pyc", "doctest.pyc", "tkinter/__init__.pyc", "pdb.pyc"):
        assert unused not in names, unused
    pyc = z.read("json/__init__.pyc")
    assert _pyc_flags(pyc) == 0b01
    # Pyodide's CPython 3.14, not this machine's: another magic number
    assert pyc[:4] != importlib.util.MAGIC_NUMBER
    npm = zipfile.ZipFile(ROOT / "node_modules" / "pyodide" / "python_stdlib.zip")
    assert set(names) <= {n + "c" if n.endswith(".py") else n for n in npm.namelist()}
    assert (site / (STDLIB + ".br")).stat().st_size < 1_200_000  # 4.5 MB before the trimming


def test_byte_code_is_reproducible(site: Path, tmp_path: Path) -> None:
    # the compiler the build runs, twice on the same sources: the same bytes
    sources = {"pkg/__init__.py": "X = 1\n", "pkg/mod.py": "def f(x: int) -> int:\n    return x + 1\n"}
    for rel, text in sources.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    stdlib = str(site / STDLIB)
    files = [[rel, "/host" + str(tmp_path / rel)] for rel in sources]
    outs = [tmp_path / "a.zip", tmp_path / "b.zip"]
    pyc_only = {"other/x.py": "Y = 2\n"}
    run_node([{"stdlib": stdlib, "mount": True, "code": COMPILE_PY,
                     "args": {"package": [files, "/host" + str(out), APP_HOME, pyc_only]}}
                    for out in outs])
    a, b = (out.read_bytes() for out in outs)
    assert a == b
    names = zipfile.ZipFile(outs[0]).namelist()
    assert names == sorted(names) == ["other/__pycache__/x.cpython-314.pyc", "pkg/__init__.pyc",
                                      "pkg/mod.pyc"]


def test_each_snapshot_is_of_this_build(site: Path) -> None:
    runtime = _runtime(site)
    pyodide_mjs = (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").read_text()
    m = re.search(r'BUILD_ID:\s*"([0-9a-f]{64})"', pyodide_mjs)
    assert m, "pyodide.mjs: no BUILD_ID"
    page_raw = b""
    for kind, suffix in (("page", ".bin"), ("worker", ".delta")):
        entry = runtime["snapshots"][kind]
        path = site / _site_path(entry["url"])
        packed = path.read_bytes()
        assert len(packed) == entry["size"]
        # named after its content: a cached copy under this name is this very file
        assert path.name == f"{kind}-{hashlib.sha256(packed).hexdigest()[:16]}{suffix}"
        # the worker's: a delta from the page's, a seventh of its size or less
        raw = page_raw = unpack_snapshot(packed) if kind == "page" else apply_delta(page_raw, packed)
        assert kind == "page" or (entry["base"] == "page" and len(packed) < len(raw) / 7)
        words = struct.unpack_from("<4I8I", raw)
        assert words[0] == 1886286592  # Pyodide's snapshot magic
        assert "".join(f"{w:08x}" for w in words[4:12]) == m.group(1)
        heap = len(raw) - words[1]  # then the wasm memory, whole pages of 64 KiB
        assert heap % 65536 == 0 and heap <= 64 << 20 and len(packed) < len(raw) * 0.6
        assert gzip.decompress((site / (_site_path(entry["url"]) + ".gz")).read_bytes()) == packed


def test_snapshot_packing_round_trips_and_refuses_damage() -> None:
    raw = bytes(8192) + b"\1" * 100 + bytes(4096 * 3 - 100) + b"\2" * 4096 + bytes(4096)
    packed = pack_snapshot(raw)
    assert len(packed) < len(raw) // 2
    assert unpack_snapshot(packed) == raw
    with pytest.raises(ValueError):
        unpack_snapshot(packed[:-1])
    with pytest.raises(ValueError):
        unpack_snapshot(b"X" + packed[1:])


def _node_eval(script: str) -> Any:
    r = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True,
                       timeout=60, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_the_worker_snapshot_delta_rebuilds_its_image_in_python_and_in_the_page(site: Path,
                                                                               tmp_path: Path) -> None:
    rng = random.Random(7)
    base = bytes(rng.randrange(256) if rng.random() < 0.7 else 0 for _ in range(40_000))
    target = bytes(3000) + base[5000:21000] + b"the worker's own" + base[100:9000] + bytes(8192) + base[-700:]
    delta = make_delta(base, target)
    assert apply_delta(base, delta) == target and len(delta) < 1000
    with pytest.raises(ValueError):
        apply_delta(base, delta[:-1])
    with pytest.raises(ValueError):
        apply_delta(base[:30_000], delta)  # another base: a piece beyond its end
    (tmp_path / "base").write_bytes(base)
    (tmp_path / "delta").write_bytes(delta)
    module = (site / RUNTIME_SOURCE).as_uri()
    got = _node_eval(f"""
import {{ readFileSync }} from "node:fs";
import {{ applyDelta }} from "{module}";
const base = new Uint8Array(readFileSync("{tmp_path / 'base'}"));
const delta = new Uint8Array(readFileSync("{tmp_path / 'delta'}"));
const buf = (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
const out = {{}};
const tryIt = (name, f) => {{
  try {{ out[name] = Buffer.from(f()).toString("hex"); }} catch (e) {{ out[name] = "refused"; }}
}};
tryIt("good", () => applyDelta(base, buf(delta), delta.length));
tryIt("short", () => applyDelta(base, buf(delta.subarray(0, delta.length - 1)), delta.length - 1));
tryIt("other base", () => applyDelta(base.subarray(0, 30000), buf(delta), delta.length));
const bad = delta.slice(); bad[0] ^= 1; tryIt("magic", () => applyDelta(base, buf(bad), bad.length));
console.log(JSON.stringify(out));
""")
    assert got == {"good": target.hex(), "short": "refused", "other base": "refused", "magic": "refused"}


def test_the_page_unpacks_snapshots_as_the_build_packs_them_and_refuses_damaged_ones(
    site: Path, tmp_path: Path
) -> None:
    # static/runtime.mjs's own unpacking (under Node): a snapshot it refuses is not used
    raw = bytes(4096) + bytes(range(256)) * 16 + bytes(8192)
    packed = pack_snapshot(raw)
    (tmp_path / "s.bin").write_bytes(packed)
    module = (site / RUNTIME_SOURCE).as_uri()
    got = _node_eval(f"""
import {{ readFileSync }} from "node:fs";
import {{ unpackSnapshot }} from "{module}";
const packed = new Uint8Array(readFileSync("{tmp_path / 's.bin'}"));
const out = {{}};
const tryIt = (name, bytes, size) => {{
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  try {{ out[name] = Buffer.from(unpackSnapshot(buffer, size)).toString("hex"); }}
  catch (e) {{ out[name] = "refused"; }}
}};
tryIt("good", packed, packed.length);
tryIt("short", packed.subarray(0, packed.length - 1), packed.length - 1);
tryIt("other size", packed, packed.length + 1);
const bad = packed.slice(); bad[0] ^= 1; tryIt("magic", bad, bad.length);
const big = packed.slice(); big[20] = 0xff; big[21] = 0xff; big[22] = 0xff; tryIt("table", big, big.length);
process.stdout.write(JSON.stringify(out));
""")
    assert got["good"] == raw.hex()
    assert {k: v for k, v in got.items() if k != "good"} == dict.fromkeys(
        ("short", "other size", "magic", "table"), "refused")


# --- the dev server: revalidation and precompressed files -----------------------------------


def _request(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_the_dev_server_answers_304_only_for_the_same_bytes(tmp_path: Path) -> None:
    f = tmp_path / "a.js"
    f.write_bytes(b"one")
    with build.serving(tmp_path) as base:
        status, headers, body = _request(base + "a.js")
        etag = headers["ETag"]
        assert (status, body) == (200, b"one") and headers["Cache-Control"] == "no-cache"
        assert _request(base + "a.js", {"If-None-Match": etag})[0] == 304
        assert _request(base + "a.js?deal=3", {"If-None-Match": f'W/{etag}, "x"'})[0] == 304
        # a date alone never makes a 304 (dates are to the second)
        assert _request(base + "a.js", {"If-Modified-Since": headers["Last-Modified"]})[0] == 200
        # a rebuild within the same second: same size, same modification time, other bytes
        st = f.stat()
        f.write_bytes(b"two")
        os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
        status, headers, body = _request(base + "a.js", {"If-None-Match": etag})
        assert (status, body) == (200, b"two") and headers["ETag"] != etag
        # the page itself, by its folder
        (tmp_path / "index.html").write_text("<p>hi</p>")
        status, headers, _ = _request(base)
        assert status == 200 and _request(base, {"If-None-Match": headers["ETag"]})[0] == 304


def test_the_dev_server_sends_precompressed_files_to_who_accepts_them(tmp_path: Path) -> None:
    data = b"wasm" * 5000
    (tmp_path / "x.wasm").write_bytes(data)
    (tmp_path / "x.wasm.gz").write_bytes(gzip.compress(data))
    with build.serving(tmp_path) as base:
        status, plain, body = _request(base + "x.wasm")
        assert status == 200 and body == data and "Content-Encoding" not in plain
        assert plain["Content-Type"] == "application/wasm" and plain["Vary"] == "Accept-Encoding"
        status, gz, body = _request(base + "x.wasm", {"Accept-Encoding": "br, gzip"})
        assert status == 200 and gz["Content-Encoding"] == "gzip" and gzip.decompress(body) == data
        assert gz["Content-Type"] == "application/wasm" and gz["ETag"] != plain["ETag"]
        assert _request(base + "x.wasm", {"Accept-Encoding": "gzip", "If-None-Match": gz["ETag"]})[0] == 304
        assert _request(base + "x.wasm", {"If-None-Match": gz["ETag"]})[0] == 200


# --- the page's policy and the manifest ----------------------------------------------------


def _index() -> str:
    return (ROOT / "index.html").read_text(encoding="utf-8")


def test_page_carries_the_policy_and_nothing_inline() -> None:
    html = _index()
    head = html[: html.index("</head>")]
    metas = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', head)
    assert metas == [CSP]
    assert head.index("Content-Security-Policy") < head.index("<script")  # before anything it governs
    for policy in (CSP, CSP_WORKER):
        assert "'unsafe-inline'" not in policy and "*" not in policy and "http" not in policy
        assert "frame-ancestors" not in policy  # a header only, for hosts (docs/hosting.md)
    assert "'unsafe-eval'" not in CSP_WORKER
    # only directives every engine knows: WebKit logs "Unrecognized Content-Security-Policy
    # directive" twice a load for manifest-src (default-src covers the manifest anyway)
    known = {"default-src", "script-src", "worker-src", "connect-src", "img-src", "style-src", "font-src",
             "object-src", "base-uri", "form-action", "media-src", "frame-src", "child-src"}
    for policy in (CSP, CSP_WORKER):
        assert {part.split()[0] for part in policy.split("; ")} <= known, policy
    # every script from a file, no inline style or handler
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert " src=" in tag, tag
    assert not re.search(r"<style\b|\sstyle=|\son[a-z]+=", html)


def test_what_turns_while_the_page_loads_turns_in_steps() -> None:
    """An endless animation (the loading spinner) moves in steps: a smooth one repaints the
    table beneath at every frame where the engine does not composite it apart, which made
    WebKit's first visit 0.7-1 s slower (bench.engines --first-visit)."""
    css = (ROOT / "static" / "style.css").read_text(encoding="utf-8")
    endless = re.findall(r"animation:[^;]*\binfinite\b[^;]*;", css)
    assert endless, "no endless animation found: is the loading spinner gone?"
    for rule in endless:
        assert re.search(r"\bsteps\(\d+\)", rule), rule


def test_the_hosting_docs_give_hosts_the_same_policy() -> None:
    hosting = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    assert f"Content-Security-Policy: {CSP}`" in hosting
    assert f"Content-Security-Policy: {CSP_WORKER}`" in hosting
    assert "frame-ancestors" in hosting


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_manifest() -> None:
    static = ROOT / "static"
    manifest = json.loads((static / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] == manifest["short_name"] == "FreeCell"
    assert manifest["display"] == "standalone"
    # relative to the manifest in static/: the page at the site's root
    assert manifest["start_url"] == manifest["scope"] == "../"
    felt = re.findall(r"--felt:\s*(#[0-9a-f]{6})", (static / "style.css").read_text())
    theme = re.findall(r'<meta name="theme-color" content="(#[0-9a-f]{6})">', _index())
    assert felt and theme, "the felt colour of style.css, the theme-color of index.html"
    assert manifest["theme_color"] == manifest["background_color"] == felt[0] == theme[0]
    assert '<link rel="manifest" href="./static/manifest.webmanifest">' in _index()
    icons = {icon["src"]: icon for icon in manifest["icons"]}
    assert icons["icon.svg"]["type"] == "image/svg+xml"
    for size in (192, 512):
        icon = icons[f"icon-{size}.png"]
        assert icon["sizes"] == f"{size}x{size}" and icon["type"] == "image/png"
        assert _png_size(static / icon["src"]) == (size, size)


def test_the_vendored_pyodide_makes_its_shared_memory_only_when_used(site: Path) -> None:
    # made as it loaded, it was reported as a deprecated use of SharedArrayBuffer (no isolation)
    text = (site / "vendor" / "pyodide" / "pyodide.asm.mjs").read_text(encoding="utf-8")
    assert "=new Int32Array(new WebAssembly.Memory({shared:!0" not in text
    assert text.count("new WebAssembly.Memory({shared:!0,initial:1,maximum:1})") == 1


def test_the_build_cache_is_the_users_shared_by_every_clone(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    from builder.cache import cache_folder

    monkeypatch.delenv("FREECELL_BUILD_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert cache_folder() == tmp_path / "home" / ".cache" / "freecell-build"  # not in the clone
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_folder() == tmp_path / "xdg" / "freecell-build"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")  # not absolute: ignored, as the spec says
    assert cache_folder() == tmp_path / "home" / ".cache" / "freecell-build"
    monkeypatch.setenv("FREECELL_BUILD_CACHE", str(tmp_path / "given"))
    assert cache_folder() == tmp_path / "given"
