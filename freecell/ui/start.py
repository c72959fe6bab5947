"""What the page's address asks for: a deal number or a position, checked.

Only ``deal`` and ``board`` are read from the query string; anything else is
ignored.  A bad value never reaches the table: the caller gets a message key
and starts a random deal instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs

from ..deals import DealNumberError, parse_deal_number
from ..position import BoardError, Position
from ..rules import FREECELL, Rules

MAX_QUERY = 4000


@dataclass(frozen=True, slots=True)
class StartRequest:
    deal: int | None = None
    board: Position | None = None
    error: str | None = None  # a message key
    error_text: str = ""  # the offending value, shortened, for the message


def parse_query(query: str, rules: Rules = FREECELL) -> StartRequest:
    """Read ``?deal=N`` or ``?board=TEXT`` (lines split by newlines or ``/``)."""
    if not isinstance(query, str) or len(query) > MAX_QUERY:
        return StartRequest(error="board.error.url")
    params = parse_qs(query.lstrip("?"), keep_blank_values=True, max_num_fields=20)
    if "board" in params:
        text = params["board"][0].replace("/", "\n")
        try:
            return StartRequest(board=Position.from_text(text, rules))
        except BoardError:
            return StartRequest(error="board.error.url")
    if "deal" in params:
        raw = params["deal"][0]
        try:
            return StartRequest(deal=parse_deal_number(raw))
        except DealNumberError:
            shown = raw if len(raw) <= 24 else raw[:24] + "…"
            return StartRequest(error="deal.error.url", error_text=shown)
    return StartRequest()
