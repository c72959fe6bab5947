"""The examples in the modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

# every module of freecell/ (browser/ aside: it needs the browser) with examples in its docstrings
MODULES = [
    "freecell.cards",
    "freecell.deals",
    "freecell.engine",
    "freecell.piles",
    "freecell.rules",
    "freecell.safejson",
    "freecell.variants",
    "freecell.ui.table.cardart",
    "freecell.ui.address.embed",
    "freecell.ui.table.focus",
    "freecell.ui.text.catalogue",
    "freecell.ui.table.overlay",
    "freecell.ui.table.picker",
    "freecell.ui.text.bars",
    "freecell.ui.text.sentences",
    "freecell.ui.text.status",
    "freecell.ui.text.speech",
    "freecell.ui.address.query",
    "freecell.ui.progress.stats",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
