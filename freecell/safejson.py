"""JSON from outside, parsed with a bound on nesting.

``json.loads`` recurses once per level of ``[`` and ``{``.  Under CPython a
very deep text ends in ``RecursionError``; under Pyodide the browser's own
stack can run out first, and that is a fatal error of the whole runtime.  So
every text that comes from storage or from another page is checked here
first: :func:`loads` refuses a text nested deeper than ``max_depth`` with a
``ValueError``, before ``json`` sees it.

>>> loads('{"a": [1, [2]]}', max_depth=3)
{'a': [1, [2]]}
>>> loads("[" * 50 + "]" * 50, max_depth=8)
Traceback (most recent call last):
ValueError: the JSON text is nested more than 8 deep
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 16
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


def depth(text: str) -> int:
    """How deep ``[`` and ``{`` nest in a JSON text (brackets inside strings do not count)."""
    deepest = level = 0
    for m in _BRACKET.finditer(_STRING.sub('""', text)):
        if m.group() in "[{":
            level += 1
            deepest = max(deepest, level)
        else:
            level -= 1
    return deepest


def too_deep(text: str, max_depth: int = MAX_DEPTH) -> bool:
    """Whether ``text`` nests deeper than ``max_depth`` (cheap when it has few brackets)."""
    return text.count("[") + text.count("{") > max_depth and depth(text) > max_depth


def loads(text: str, max_depth: int = MAX_DEPTH) -> object:
    """``json.loads(text)``, or ``ValueError`` if the text is not JSON or nests too deep."""
    if not isinstance(text, str):
        raise ValueError("JSON is text")
    if too_deep(text, max_depth):
        raise ValueError(f"the JSON text is nested more than {max_depth} deep")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("the JSON text is nested too deep") from None


def load_record(text: object, fmt: str, limit: int, what: str,
                error: type[ValueError] = ValueError, version: int | None = None) -> dict[str, Any]:
    """A stored JSON object, checked: ``error`` saying why when it is not one.

    The text must be a string of at most ``limit`` characters, JSON nested no
    deeper than :data:`MAX_DEPTH`, an object whose ``format`` is ``fmt`` and,
    when ``version`` is given, whose ``version`` is that number.  ``what``
    names the thing in the messages ("the saved game").

    >>> load_record('{"format": "f", "version": 2}', "f", 100, "the entry", version=1)
    Traceback (most recent call last):
    ValueError: the entry has version 2; this one reads 1
    """
    if not isinstance(text, str):
        raise error(f"{what} is not text")
    if len(text) > limit:
        raise error(f"{what} is too large")
    try:
        data = loads(text)
    except ValueError:
        raise error(f"{what} is not valid JSON") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise error(f"{what} is not of the {fmt} format")
    if version is not None:
        found = data.get("version")
        if type(found) is not int or found != version:
            raise error(f"{what} has version {found!r}; this one reads {version}")
    return data
