"""The examples in the modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

# every module of freecell/ (browser/ aside: it needs the browser) with examples in its docstrings
MODULES = [
    "freecell.cards",
    "freecell.deals",
    "freecell.piles",
    "freecell.safejson",
    "freecell.variants",
    "freecell.ui.cardart",
    "freecell.ui.embed",
    "freecell.ui.focus",
    "freecell.ui.i18n",
    "freecell.ui.overlay",
    "freecell.ui.picker",
    "freecell.ui.screen",
    "freecell.ui.speech",
    "freecell.ui.start",
    "freecell.ui.stats",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
