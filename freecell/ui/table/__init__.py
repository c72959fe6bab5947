"""The table: its UI state (selection, focus, the long-press picker) and its geometry, without a DOM.

- :mod:`.table`: what a tap, a drag or a drop means (:class:`~.table.TableState`);
- :mod:`.focus`: the keyboard target and its moves, the shortcuts;
- :mod:`.picker`: how many cards go with a long-pressed one;
- :mod:`.layout`: where every pile and card goes for a size;
- :mod:`.overlay`: where the floating bars go, clear of what the player needs;
- :mod:`.cardart`, :mod:`.sprite`: the card faces and pile marks as SVG.

Imports only the core (``freecell.*``).
"""
