"""The site, put together: ``dist/`` from the page, ``static/``, the vendored runtime and its
Python, then ``build.json`` and ``sw.js`` (the service worker with every file of the build).

The build ends by writing ``build.json`` (a hash of every file) and ``sw.js`` at
the root of the site: ``static/sw.js`` with that hash and the list of every file
(with its SHA-256) filled in, so that the service worker precaches exactly this
build and a new build is a new service worker.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from .cache import prune_cache
from .compress import encoded, precompress, start
from .npm import npm_install, vendor
from .project import DIST, ROOT, BuildError
from .python import python_runtime

# The module that loads Pyodide for the page (PyScript's ``interpreter``) and the
# worker; the build fills in the names of this build's snapshots.
RUNTIME_SOURCE = "static/runtime.mjs"

RUNTIME_MARK = "{} /* __FREECELL_RUNTIME__ */"

SITE_FILES = ("index.html", "pyscript.toml")

# The service worker's source; the build fills in the placeholders and writes it
# to the root of the site (its scope must cover the page).
SW_SOURCE = ROOT / "static" / "sw.js"

SW_BUILD = "__FREECELL_BUILD__"

SW_FILES = "__FREECELL_FILES__"
# Files of a build its service worker does not fetch when it installs, because a visit
# may never ask for them: each is cached the first time the page asks for it (a language
# chosen, the update banner's style, a PyScript chunk of a feature the game does not use).
# Every other file is precached: what a visit loads (tests/browser/test_offline.py plays
# a whole game offline from it).  The snapshots are the page's own business: it stores
# them when it is idle (static/runtime.mjs), and the service worker never touches them.
CACHED_ON_USE = ("static/i18n/", "static/icon-", "static/update.css", "static/README.txt", "vendor/pyscript/",
                 "snapshots/")
PRECACHED_ALWAYS = ("static/i18n/en.json", "vendor/pyscript/core.js", "vendor/pyscript/core-",
                    "vendor/pyscript/error-", "vendor/pyscript/toml-")


def cached_on_use(rel: str) -> bool:
    """Whether the service worker caches ``rel`` only once the page asks for it (see above)."""
    return rel.startswith(CACHED_ON_USE) and not rel.startswith(PRECACHED_ALWAYS)

SPRITE_MARK = "<!-- __FREECELL_SPRITE__ -->"

BOOT_MARK = "/* __FREECELL_BOOT__ */"
FIRST_MARK = "null /* __FREECELL_FIRST__ */"


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
        start(sorted(p for p in (tmp / "vendor").rglob("*") if p.is_file()))  # on the other core
        write_runtime(tmp, python_runtime(tmp))
        finish(tmp)
        prune_cache()
        os.chmod(tmp, 0o755)
        put_in_place(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest


def put_in_place(new: Path, dest: Path) -> None:
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


def page_data(root: Path) -> None:
    """What the page's scripts draw from, made by the game's Python, written into them.

    - ``index.html``: the card sprite (:mod:`freecell.ui.table.sprite`: the faces and
      pile marks that static/early.js and the page's Python both draw with);
    - ``static/boot.js``: the languages (:data:`freecell.ui.progress.settings.LANGUAGES`) and
      the themes and speeds a stored setting may hold
      (:data:`freecell.ui.progress.settings.CHOICE_SETTINGS`), the one list of each;
    - ``static/early.js``: the deals and layouts a first visit draws before Python
      (:mod:`freecell.ui.table.first_table`).
    """
    sys.path.insert(0, str(ROOT))
    try:
        from freecell.ui.progress.settings import CHOICE_SETTINGS, LANGUAGES
        from freecell.ui.table.first_table import first_table_data
        from freecell.ui.table.sprite import sprite_svg
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
    early = root / "static" / "early.js"
    text = early.read_text(encoding="utf-8")
    if text.count(FIRST_MARK) != 1:
        raise BuildError(f"early.js must hold {FIRST_MARK} exactly once")
    first = json.dumps(first_table_data(), separators=(",", ":"))
    early.write_text(text.replace(FIRST_MARK, first), encoding="utf-8")


def write_runtime(root: Path, runtime: dict[str, Any]) -> None:
    """Fill in static/runtime.mjs with this build's stdlib and snapshots."""
    path = root / RUNTIME_SOURCE
    text = path.read_text(encoding="utf-8")
    if text.count(RUNTIME_MARK) != 1:
        raise BuildError(f"{RUNTIME_SOURCE} must hold {RUNTIME_MARK} exactly once")
    path.write_text(text.replace(RUNTIME_MARK, json.dumps(runtime, sort_keys=True)), encoding="utf-8")


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def site_files(root: Path) -> list[tuple[str, str]]:
    """``(path, sha256)`` of every file of a built site but ``sw.js``, ``build.json`` and the copies.

    (A ``.br`` or ``.gz`` is another encoding of its file, not a file the page asks for.)
    """
    out = []
    for f in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = f.relative_to(root).as_posix()
        if rel not in ("sw.js", "build.json") and not encoded(rel):
            out.append((rel, sha256_of(f)))
    return out


def finish(root: Path, sw_source: Path = SW_SOURCE) -> str:
    """Write ``build.json`` and ``sw.js`` for the files under ``root``; the build hash.

    The hash covers every file's path and content and the service worker's
    source.  ``sw.js`` gets the hash (its cache name) and the list of the
    build's files, each with its SHA-256 and whether it is precached (see
    :data:`CACHED_ON_USE`): ``build.json`` and every file but itself.
    Run again after changing a file of a built site, it makes a new version
    (and refreshes the precompressed copies).
    """
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
    files.append(("build.json", sha256_of(root / "build.json")))
    listing = "[\n" + ",\n".join(f"  {json.dumps([rel, digest, 0 if cached_on_use(rel) else 1])}"
                                  for rel, digest in sorted(files)) + ",\n]"
    text = source.replace(SW_BUILD, build_hash).replace(SW_FILES, listing)
    (root / "sw.js").write_text(text, encoding="utf-8")
    precompress(root)
    return build_hash
