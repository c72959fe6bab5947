"""Positions: columns, free cells and foundations, immutable; and their text form.

A :class:`Position` holds tuples only.  A column is listed from its top card
(the first dealt, hidden under the others) to its bottom card (the exposed
one).  Free cells hold a card or ``None``.  A foundation is the number of cards
of its suit already home (0-13), suits in the order clubs, diamonds, hearts,
spades.

The board text is the one fc-solve reads::

    Foundations: H-0 C-2 D-A S-0
    Freecells: 8D - - -
    : 4C 2C 9C 8C QS 4S 2H
    ...

The two header lines are optional; each other line is a column (``:`` alone
is an empty one).  A board must hold each of the 52 cards exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import (
    RANK_LETTERS,
    SUIT_LETTERS,
    Card,
    CardError,
    card_text,
    parse_card,
)
from .deals import deal_columns
from .rules import FREECELL, Rules

Column = tuple[Card, ...]


class BoardError(ValueError):
    """A board text or position that is not a valid FreeCell position.

    ``code`` says which way, for the page to name it: ``not_text``,
    ``too_long``, ``foundation``, ``card``, ``columns``, ``cells``,
    ``duplicate`` or ``count`` (not 52 cards).
    """

    def __init__(self, message: str, code: str = "invalid") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Position:
    columns: tuple[Column, ...]
    cells: tuple[Card | None, ...]
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0)

    @classmethod
    def deal(cls, number: int, rules: Rules = FREECELL) -> Position:
        """The starting position of a Microsoft deal number."""
        if rules.columns != 8:
            raise BoardError("Microsoft deals have 8 columns", "columns")
        return cls(deal_columns(number), (None,) * rules.free_cells)

    # --- derived facts -------------------------------------------------
    def cards_home(self) -> int:
        return sum(self.foundations)

    def is_won(self) -> bool:
        return self.foundations == (13, 13, 13, 13)

    def empty_cells(self) -> int:
        return self.cells.count(None)

    def all_cards(self) -> list[Card]:
        """Every card on the table, in cells and home; a valid position has 52."""
        out = [c for col in self.columns for c in col]
        out += [c for c in self.cells if c is not None]
        for s, n in enumerate(self.foundations):
            out += [r * 4 + s for r in range(n)]
        return out

    def validate(self, rules: Rules | None = None) -> Position:
        """Raise :class:`BoardError` unless this is a position of 52 distinct cards."""
        if len(self.foundations) != 4 or any(
            isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 13
            for n in self.foundations
        ):
            raise BoardError("each foundation holds 0 to 13 cards", "foundation")
        for c in [*(x for col in self.columns for x in col), *self.cells]:
            if c is not None and (isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52):
                raise BoardError(f"not a card: {c!r}", "card")
        seen: set[Card] = set()
        for c in self.all_cards():
            if c in seen:
                raise BoardError(f"the card {card_text(c)} appears twice", "duplicate")
            seen.add(c)
        if len(seen) != 52:
            missing = " ".join(card_text(c) for c in range(52) if c not in seen)
            raise BoardError(f"a board holds 52 cards, this one {len(seen)} (missing: {missing})", "count")
        if rules is not None:
            if len(self.columns) != rules.columns:
                raise BoardError(f"the board has {len(self.columns)} columns, the rules {rules.columns}",
                                 "columns")
            if len(self.cells) != rules.free_cells:
                raise BoardError(
                    f"the board has {len(self.cells)} free cells, the rules {rules.free_cells}", "cells"
                )
        return self

    # --- text ----------------------------------------------------------
    def to_text(self, header: bool = True) -> str:
        """The board text; without header, just the columns (a fresh deal)."""
        lines = []
        if header:
            f = self.foundations
            tops = {s: "0" if f[s] == 0 else RANK_LETTERS[f[s] - 1] for s in range(4)}
            lines.append("Foundations: " + " ".join(f"{SUIT_LETTERS[s]}-{tops[s]}" for s in (2, 0, 1, 3)))
            lines.append(
                "Freecells: " + " ".join("-" if c is None else card_text(c) for c in self.cells)
            )
            lines += [(": " + " ".join(map(card_text, col))).rstrip() for col in self.columns]
        else:
            lines += [" ".join(map(card_text, col)) for col in self.columns]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str, rules: Rules = FREECELL) -> Position:
        """Read a board text; :class:`BoardError` says what is wrong with a bad one."""
        if not isinstance(text, str):
            raise BoardError("a board is text", "not_text")
        if len(text) > 10_000:
            raise BoardError("a board text is at most 10,000 characters", "too_long")
        foundations = [0, 0, 0, 0]
        cells: list[Card | None] | None = None
        columns: list[Column] = []
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            low = line.lower()
            try:
                if low.startswith("foundations:"):
                    for item in line[12:].split():
                        s_txt, _, r_txt = item.partition("-")
                        s = SUIT_LETTERS.find(s_txt.upper()) if len(s_txt) == 1 else -1
                        r = _parse_foundation_rank(r_txt)
                        if s < 0 or r is None:
                            raise BoardError(
                                f"line {lineno}: bad foundation {item!r} (e.g. H-5, S-0, C-K)", "foundation"
                            )
                        foundations[s] = r
                elif low.startswith("freecells:"):
                    cells = [
                        None if item in ("-", "--") else parse_card(item)
                        for item in line[10:].split()
                    ]
                else:
                    if line.startswith(":"):
                        line = line[1:]
                    columns.append(tuple(parse_card(item) for item in line.split()))
            except CardError as e:
                raise BoardError(f"line {lineno}: {e}", "card") from None
        if len(columns) != rules.columns:
            raise BoardError(f"a board has {rules.columns} columns, this one {len(columns)}", "columns")
        held: list[Card | None] = list(cells or [])
        if len(held) > rules.free_cells:
            used = [c for c in held if c is not None]
            if len(used) > rules.free_cells:
                raise BoardError(
                    f"{len(used)} cards in free cells, but the rules have {rules.free_cells} cells", "cells"
                )
            held = list(used)
        held += [None] * (rules.free_cells - len(held))
        f = foundations
        pos = cls(tuple(columns), tuple(held), (f[0], f[1], f[2], f[3]))
        return pos.validate(rules)


def _parse_foundation_rank(text: str) -> int | None:
    t = text.upper()
    if t == "0":
        return 0
    if t == "10":
        return 10
    if len(t) == 1 and t in RANK_LETTERS:
        return RANK_LETTERS.index(t) + 1
    return None
