"""The examples in every module's docstrings run as tests.

Every module of ``freecell/``, ``builder/`` and ``bench/`` is found by
walking the packages (but for those that run only in the browser or in
Pyodide), so a new module's examples run without being listed here.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("freecell", "builder", "bench")
# freecell.browser imports the browser's js; builder's pyodide_* scripts run inside Pyodide, under Node
NOT_HERE = ("freecell.browser", "builder.pyodide_")


def modules() -> list[str]:
    out: list[str] = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        out.append(name)
        for info in pkgutil.walk_packages(package.__path__, name + "."):
            if not info.name.startswith(NOT_HERE):
                out.append(info.name)
    return sorted(out)


MODULES = modules()


def test_every_module_is_found() -> None:
    assert {"freecell.cards", "freecell.ui.text.status", "builder.cache", "bench.common"} <= set(MODULES)
    assert not any(m.startswith(NOT_HERE) for m in MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
