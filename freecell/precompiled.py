"""Dataclass methods compiled at build time, so that a first visit does not compile them.

:func:`dataclasses.dataclass` writes the methods of each class as source text
and compiles it (``exec``): about 3 ms a class in Pyodide, where the page's
first visit (byte-code, no snapshot) makes some 70 of them before the first
card can be played.  The build runs the page's and the worker's imports in
its Pyodide, keeps each such text (:func:`recorder`), and writes the texts
with their compiled code (:func:`dump`) to ``freecell/dataclass-code.bin``
inside ``freecell.zip``.  :func:`install`, called first thing by
``freecell/__init__``, lets :mod:`dataclasses` take the compiled code of a
text the file holds: the same code, compiled from the same text by the same
Python.  A text the file does not hold is compiled as before, and a file made
by another Python is ignored.  A checkout has no file, so nothing changes in
CPython.

:data:`counts` says how many of those texts took compiled code and how many
were compiled here (one text a class from Python 3.13 on; the page reports
both at ready, and a first visit should compile none).
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import CodeType
from typing import Any

FILE = Path(__file__).with_name("dataclass-code.bin")
FILENAME = "<string>"  # what dataclasses' exec of a text names it, in tracebacks too

counts = {"precompiled": 0, "compiled": 0}


def tag() -> bytes:
    """The Python a file of compiled code is good for: its version, build and byte-code tag."""
    return f"{sys.version} {sys.implementation.cache_tag}\n".encode()


def dump(texts: Iterable[str]) -> bytes:
    """The file :func:`install` reads: :func:`tag`, then a marshalled ``{text: code}``."""
    codes = {t: compile(t, FILENAME, "exec", dont_inherit=True) for t in sorted(set(texts))}
    return tag() + marshal.dumps(codes)


def load(data: bytes) -> dict[str, CodeType]:
    """The compiled code in a file :func:`dump` wrote; empty if another Python wrote it."""
    head = tag()
    if not data.startswith(head):
        return {}
    try:
        codes = marshal.loads(data[len(head):])
    except (ValueError, EOFError, TypeError):
        return {}
    if not isinstance(codes, dict):
        return {}
    return {t: c for t, c in codes.items() if isinstance(t, str) and isinstance(c, CodeType)}


def install(file: Path = FILE) -> bool:
    """Let dataclasses take compiled code from ``file``; False (nothing changed) without one."""
    try:
        codes = load(file.read_bytes())
    except OSError:
        return False
    if not codes:
        return False

    def exec_(source: Any, globals: dict[str, Any] | None = None, locals: Any = None, /) -> None:
        code = codes.get(source) if isinstance(source, str) else None
        counts["compiled" if code is None else "precompiled"] += 1
        builtins.exec(source if code is None else code, globals, locals)

    dataclasses.exec = exec_  # type: ignore[attr-defined]  # the module's own name shadows the builtin
    return True


def recorder() -> tuple[list[str], Callable[[], None]]:
    """For the build: each text dataclasses compiles from now on goes in the list, until ``stop()``."""
    texts: list[str] = []
    previous = dataclasses.__dict__.get("exec")

    def exec_(source: Any, globals: dict[str, Any] | None = None, locals: Any = None, /) -> None:
        if isinstance(source, str):
            texts.append(source)
        builtins.exec(source, globals, locals)

    def stop() -> None:
        if previous is None:
            dataclasses.__dict__.pop("exec", None)
        else:
            dataclasses.exec = previous  # type: ignore[attr-defined]

    dataclasses.exec = exec_  # type: ignore[attr-defined]
    return texts, stop
