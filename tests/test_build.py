"""The README's serve command builds the site and serves it on localhost."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers.get("Content-Type", ""), r.read()


@pytest.fixture(scope="module")
def server() -> object:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "build.py", "serve", "--port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()  # printed once the socket listens
    if f"127.0.0.1:{port}" not in line:
        proc.kill()
        raise AssertionError(f"server did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}")
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


def test_package_zip_holds_the_engine() -> None:
    names = zipfile.ZipFile(ROOT / "dist" / "freecell.zip").namelist()
    assert "freecell/engine.py" in names and "freecell/game.py" in names
    assert not any(n.endswith(".map") for n in names)


def test_vendored_runtime_is_not_tracked_by_git() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    for bad in ("pyodide.asm.wasm", "python_stdlib.zip", "node_modules/", "dist/"):
        assert bad not in tracked


def test_bad_port_is_refused() -> None:
    r = subprocess.run([sys.executable, "build.py", "serve", "--port", "70000"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--port" in r.stderr
