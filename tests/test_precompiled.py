"""Dataclass methods compiled at build time (freecell/precompiled.py): the same classes, fewer compiles."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from freecell import precompiled

SOURCE = '''
@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    """A point."""
    x: int
    y: int = 0
'''


def _make() -> type:
    ns: dict[str, object] = {"dataclasses": dataclasses}
    exec(SOURCE, ns)  # a class made afresh each time, as an import makes it
    return ns["Point"]  # type: ignore[return-value]


@pytest.fixture
def clean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """dataclasses as it was (no hook), and the counts at zero, after the test too."""
    monkeypatch.delitem(dataclasses.__dict__, "exec", raising=False)
    monkeypatch.setattr(precompiled, "counts", {"precompiled": 0, "compiled": 0})
    yield


def _recorded() -> list[str]:
    texts, stop = precompiled.recorder()
    try:
        _make()
    finally:
        stop()
    return texts


def test_a_recorded_class_takes_its_compiled_methods_and_behaves_the_same(clean: None,
                                                                          tmp_path: Path) -> None:
    texts = _recorded()  # one text a class from Python 3.13 on (Pyodide's); one a method before
    assert texts and any("__init__" in t for t in texts)
    assert "exec" not in dataclasses.__dict__  # the recorder stopped
    file = tmp_path / "code.bin"
    file.write_bytes(precompiled.dump(texts))
    assert precompiled.install(file)
    point = _make()
    assert precompiled.counts == {"precompiled": len(texts), "compiled": 0}
    p = point(1, 2)
    assert (p.x, p.y, repr(p)) == (1, 2, "Point(x=1, y=2)")
    assert p == point(1, 2) and hash(p) == hash(point(1, 2)) and point(1) == point(1, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        point()  # type: ignore[call-arg]


def test_a_class_the_file_does_not_hold_is_compiled_as_before(clean: None, tmp_path: Path) -> None:
    file = tmp_path / "code.bin"
    file.write_bytes(precompiled.dump(["x = 1\n"]))
    assert precompiled.install(file)
    assert _make()(5).x == 5
    assert precompiled.counts == {"precompiled": 0, "compiled": len(_recorded())}


@pytest.mark.parametrize("damage", ["other python", "garbage", "not a dict", "missing"])
def test_a_file_of_another_python_or_damaged_or_missing_changes_nothing(clean: None, tmp_path: Path,
                                                                       damage: str) -> None:
    file = tmp_path / "code.bin"
    good = precompiled.dump(_recorded())
    data = {"other python": b"2.7.18 cpython-27\n" + good.split(b"\n", 1)[1],
            "garbage": precompiled.tag() + b"\x00\xff junk",
            "not a dict": precompiled.tag() + __import__("marshal").dumps([1, 2])}.get(damage)
    if data is not None:
        file.write_bytes(data)
    assert not precompiled.install(file)
    assert "exec" not in dataclasses.__dict__
    assert _make()(1).x == 1


def test_a_checkout_has_no_file() -> None:
    # the file is the build's (dist/freecell.zip); CPython compiles as it always did
    assert not precompiled.FILE.exists()
