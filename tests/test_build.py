"""The build: the README's serve command, the service worker's file list, the policy, the manifest."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import socket
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402 - the repository's build.py, found through the line above


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
    _, ctype, _ = _get(server + "/static/manifest.webmanifest")
    assert ctype == "application/manifest+json"
    status, ctype, body = _get(server + "/sw.js")
    assert status == 200 and ctype.startswith("text/javascript") and json.loads(raw)["hash"].encode() in body


def test_serves_the_policy(server: str) -> None:
    assert _header(server + "/", "Content-Security-Policy") == build.CSP
    assert _header(server + "/?deal=5", "Content-Security-Policy") == build.CSP
    for worker in ("/sw.js", "/static/solver-worker.js"):
        assert _header(server + worker, "Content-Security-Policy") == build.CSP_WORKER
    assert _header(server + "/static/style.css", "X-Content-Type-Options") == "nosniff"


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
    assert build.SW_BUILD not in text and build.SW_FILES not in text
    assert build_hash == json.loads((site / "build.json").read_text())["hash"]
    on_disk = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    assert [path for path, _ in listing] == [p for p in on_disk if p != "sw.js"]
    for path, digest in listing:
        assert hashlib.sha256((site / path).read_bytes()).hexdigest() == digest, path
    # what the page and the solver worker load is all there
    for needed in ("index.html", "pyscript.toml", "freecell.zip", "static/boot.js", "static/offline.js",
                   "static/solver-worker.js", "static/i18n/en.json", "static/manifest.webmanifest",
                   "vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/python_stdlib.zip",
                   "vendor/pyodide/pyodide-lock.json", "vendor/pyscript/core.js", "vendor/pyscript/core.css"):
        assert needed in dict(listing), needed
    # the source with its placeholders is not part of the site
    assert not (site / "static" / "sw.js").exists()


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
    assert [p for p, _ in listing] == [p for p, _ in old_listing]
    changed = [p for (p, d), (_, o) in zip(listing, old_listing, strict=True) if d != o]
    assert changed == ["build.json", "static/style.css"]


def test_a_service_worker_source_without_its_placeholders_is_refused(site: Path, tmp_path: Path) -> None:
    bad = tmp_path / "sw.js"
    bad.write_text("const BUILD = 'x';\n")
    with pytest.raises(build.BuildError, match="__FREECELL_BUILD__"):
        build.finish(site, sw_source=bad)


# --- the page's policy and the manifest ----------------------------------------------------


def _index() -> str:
    return (ROOT / "index.html").read_text(encoding="utf-8")


def test_page_carries_the_policy_and_nothing_inline() -> None:
    html = _index()
    head = html[: html.index("</head>")]
    metas = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', head)
    assert metas == [build.CSP]
    assert head.index("Content-Security-Policy") < head.index("<script")  # before anything it governs
    for policy in (build.CSP, build.CSP_WORKER):
        assert "'unsafe-inline'" not in policy and "*" not in policy and "http" not in policy
        assert "frame-ancestors" not in policy  # a header only, for hosts (README "Hosting")
    assert "'unsafe-eval'" not in build.CSP_WORKER
    # every script from a file, no inline style or handler
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert " src=" in tag, tag
    assert not re.search(r"<style\b|\sstyle=|\son[a-z]+=", html)


def test_readme_gives_hosts_the_same_policy() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"Content-Security-Policy: {build.CSP}`" in readme
    assert f"Content-Security-Policy: {build.CSP_WORKER}`" in readme
    assert "frame-ancestors" in readme


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
