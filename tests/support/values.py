"""Any JSON value, for the property tests of what reads stored data, addresses and messages.

One strategy, sized by each caller: how long its texts and keys run, how many items a list and a
dictionary hold, how many leaves in all, and whether a float may be NaN (Python's ``json`` writes
and reads it; a worker's message, parsed by the browser, never holds one).
"""

from __future__ import annotations

from hypothesis import strategies as st


def json_values(*, text: int = 30, key: int = 12, items: int = 4, entries: int = 6, leaves: int = 25,
                nan: bool | None = True) -> st.SearchStrategy[object]:
    """None, booleans, integers, floats and texts, in lists and dictionaries of texts, nested."""
    scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=nan) | st.text(max_size=text)
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=items) | st.dictionaries(st.text(max_size=key), inner,
                                                                        max_size=entries),
        max_leaves=leaves,
    )
