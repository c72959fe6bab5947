"""What the page's address asks for: a deal number or a position, checked.

Only ``deal``, ``board`` and ``variant`` are read from the query string for
the game (:func:`parse_query`), and ``embed`` and ``host`` for embedding
(:func:`parse_embed`); anything else is ignored.  ``variant`` must be an id
of :data:`freecell.variants.VARIANTS`; without it a deal or a board is
classic FreeCell.  A bad value never reaches
the table: the caller gets a message key and starts a random deal instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs

from ..deals import DealNumberError, parse_deal_number
from ..position import BoardError, Position
from ..rules import FREECELL, Rules
from ..variants import VARIANTS
from .embed import MAX_HOSTS, parse_origin

MAX_QUERY = 4000


@dataclass(frozen=True, slots=True)
class StartRequest:
    deal: int | None = None
    board: Position | None = None
    error: str | None = None  # a message key
    error_text: str = ""  # the offending value, shortened, for the message
    variant: str | None = None  # the variant asked for (an id of VARIANTS), if any


def _shorten(raw: str) -> str:
    return raw if len(raw) <= 24 else raw[:24] + "…"


def parse_query(query: str, rules: Rules = FREECELL) -> StartRequest:
    """Read ``?deal=N`` or ``?board=TEXT`` (lines split by newlines or ``/``), and ``&variant=ID``.

    A board is read under the variant's rules (else ``rules``).

    >>> parse_query("?deal=617&variant=eightoff")
    StartRequest(deal=617, board=None, error=None, error_text='', variant='eightoff')
    >>> parse_query("?deal=617&variant=<b>").error
    'variant.error.url'
    """
    if not isinstance(query, str) or len(query) > MAX_QUERY:
        return StartRequest(error="board.error.url")
    try:
        params = parse_qs(query.lstrip("?"), keep_blank_values=True, max_num_fields=20)
    except ValueError:  # too many fields
        return StartRequest(error="board.error.url")
    variant: str | None = None
    if "variant" in params:
        raw = params["variant"][0]
        if raw not in VARIANTS:
            return StartRequest(error="variant.error.url", error_text=_shorten(raw))
        variant = raw
        rules = VARIANTS[raw].rules
    if "board" in params:
        text = params["board"][0].replace("/", "\n")
        try:
            return StartRequest(board=Position.from_text(text, rules), variant=variant)
        except BoardError:
            return StartRequest(error="board.error.url")
    if "deal" in params:
        raw = params["deal"][0]
        try:
            return StartRequest(deal=parse_deal_number(raw), variant=variant)
        except DealNumberError:
            return StartRequest(error="deal.error.url", error_text=_shorten(raw))
    return StartRequest()


@dataclass(frozen=True, slots=True)
class EmbedRequest:
    """``?embed=1``: compact controls, events to the parent; ``hosts``: origins trusted."""

    embed: bool = False
    hosts: tuple[str, ...] = ()

    @property
    def target(self) -> str:
        """Where events go: the first host named, else any parent (``*``)."""
        return self.hosts[0] if self.hosts else "*"


def parse_embed(query: str) -> EmbedRequest:
    """Read ``?embed=1`` and up to four ``host=<origin>``; anything else means no.

    >>> parse_embed("?deal=5&embed=1&host=https://example.org")
    EmbedRequest(embed=True, hosts=('https://example.org',))
    >>> parse_embed("?embed=yes&host=javascript:alert(1)")
    EmbedRequest(embed=False, hosts=())
    """
    if not isinstance(query, str) or len(query) > MAX_QUERY:
        return EmbedRequest()
    try:
        params = parse_qs(query.lstrip("?"), keep_blank_values=True, max_num_fields=20)
    except ValueError:
        return EmbedRequest()
    embed = params.get("embed", [""])[0] == "1"
    hosts: list[str] = []
    for raw in params.get("host", [])[:MAX_HOSTS]:
        origin = parse_origin(raw)
        if origin is not None and origin not in hosts:
            hosts.append(origin)
    return EmbedRequest(embed, tuple(hosts))
