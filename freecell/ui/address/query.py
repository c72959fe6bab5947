"""What the page's address asks for: a deal number or a position, checked.

Only ``deal``, ``board`` and ``variant`` are read from the query string for
the game (:func:`parse_query`), and ``embed`` and ``host`` for embedding
(:func:`parse_embed`); ``moves`` is read by :mod:`freecell.ui.address.link`;
anything else is ignored, however long.  ``variant`` must be an id of
:data:`freecell.variants.VARIANTS` (in any case: ``EightOff``); without it a
deal or a board is classic FreeCell.  ``deal`` is read as the deal field
reads a typed number (:func:`freecell.deals.parse_deal_number`: ``1,234``
too).  A bad value never reaches the table: the caller gets a message key
and a reason code that names what was wrong (:data:`REASONS`), with the
valid parts kept (:attr:`StartRequest.kept`: ``?deal=617&variant=bogus`` is
still deal 617, of classic FreeCell); what the page then opens is
:mod:`freecell.ui.session.opening`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import unquote_plus

from ...cards import parse_card
from ...deals import DealNumberError, parse_deal_number
from ...position import BoardError, Position
from ...rules import FREECELL, Rules
from ...variants import VARIANTS
from .embed import MAX_HOSTS, parse_origin
from .sanitize import clip, invisible

MAX_QUERY = 200_000  # the longest address read at all (a game's link with its moves is long)
MAX_FIELDS = 20  # fields of the address read (empty ones do not count)

# Why an address is refused (StartRequest.reason), for the page to name it.
REASONS = (
    "query.not_text", "query.too_long", "query.too_many_fields",
    "deal.empty", "deal.not_number", "deal.range", "deal.invisible",
    "board.not_text", "board.too_long", "board.foundation", "board.card", "board.columns", "board.cells",
    "board.duplicate", "board.count", "board.invalid", "board.unreadable",
    "variant.unknown",
)


@dataclass(frozen=True, slots=True)
class StartRequest:
    """What the address asks for; with ``error``, what it asked for that was ignored.

    ``deal``, ``board`` and ``variant`` are the valid parts, even beside an
    error (a bad variant keeps the deal, a bad deal keeps the variant).
    """

    deal: int | None = None
    board: Position | None = None
    error: str | None = None  # a message key
    error_text: str = ""  # the offending value, cleaned and shortened, for the message
    variant: str | None = None  # the variant asked for (an id of VARIANTS), if any
    reason: str | None = None  # what was wrong (one of REASONS), with ``error``

    @property
    def kept(self) -> StartRequest:
        """The valid parts alone, as a request without error (none at all: a plain address).

        >>> parse_query("?deal=617&variant=bogus").kept
        StartRequest(deal=617, board=None, error=None, error_text='', variant=None, reason=None)
        """
        return StartRequest(self.deal, self.board, variant=self.variant)


def query_fields(query: object) -> dict[str, list[str]] | str:
    """The fields of a query string by name (each value decoded), or the reason it cannot be read.

    Empty fields (``&&``) are skipped; more than :data:`MAX_FIELDS` others,
    or more than :data:`MAX_QUERY` characters, are refused.

    >>> query_fields("?deal=617&&x=1+2")
    {'deal': ['617'], 'x': ['1 2']}
    """
    if not isinstance(query, str):
        return "query.not_text"
    if len(query) > MAX_QUERY:
        return "query.too_long"
    fields: dict[str, list[str]] = {}
    count = 0
    for piece in query.lstrip("?").split("&"):
        if not piece:
            continue
        count += 1
        if count > MAX_FIELDS:
            return "query.too_many_fields"
        name, _, value = piece.partition("=")
        fields.setdefault(unquote_plus(name), []).append(unquote_plus(value))
    return fields


_KEYS = {"deal.invisible": "deal.error.invisible", "query.too_many_fields": "query.error.fields",
         "query.too_long": "query.error.long", "query.not_text": "query.error.long"}
# what is wrong with a position, said where the page has a line for it (else: "not valid")
_KEYS.update({f"board.{code}": f"board.error.{code}"
              for code in ("count", "duplicate", "card", "columns", "cells", "foundation")})


def _refused(reason: str, text: object = "", variant: str | None = None) -> StartRequest:
    """A refusal, with the line that names it: "position not valid" only where there is a position."""
    key = _KEYS.get(reason) or {"deal": "deal.error.url", "variant": "variant.error.url"}.get(
        reason.partition(".")[0], "board.error.url")
    return StartRequest(error=key, error_text=clip(text), variant=variant, reason=reason)


def variant_named(raw: str) -> str | None:
    """The id of :data:`~freecell.variants.VARIANTS` that ``raw`` names, in any case (ASCII only).

    >>> variant_named("EightOff"), variant_named("eightoff"), variant_named("klondike")
    ('eightoff', 'eightoff', None)
    """
    wanted = raw.lower() if raw.isascii() else raw
    return wanted if wanted in VARIANTS else None


def read_request(params: dict[str, list[str]], rules: Rules = FREECELL) -> StartRequest:
    """The game asked for by the fields of a query (see :func:`parse_query`).

    A bad variant keeps the deal or board (then of ``rules``); a bad deal or
    board keeps the variant; the first bad part is the one named.
    """
    variant: str | None = None
    if "variant" in params:
        raw = params["variant"][0]
        variant = variant_named(raw)
        if variant is None:
            game = _game(params, rules, None)
            return replace(_refused("variant.unknown", raw), deal=game.deal, board=game.board)
        rules = VARIANTS[variant].rules
    return _game(params, rules, variant)


def _any_card(text: str) -> bool:
    """Whether a board's text names at least one card (``KS``, ``10h``...)."""
    for token in re.split(r"[\s:,;|/-]+", text):
        try:
            parse_card(token)
        except ValueError:
            continue
        return True
    return False


def _game(params: dict[str, list[str]], rules: Rules, variant: str | None) -> StartRequest:
    """The deal or board of a query, of ``variant`` (its ``rules``), or why it is none."""
    if "board" in params:
        text = params["board"][0].replace("/", "\n")
        try:
            return StartRequest(board=Position.from_text(text, rules), variant=variant)
        except BoardError as e:
            # no card in it at all (?board=garbage): not "a card that does not exist", but no position
            code = "unreadable" if e.code == "card" and not _any_card(text) else e.code
            return _refused(f"board.{code}", variant=variant)
    if "deal" in params:
        raw = params["deal"][0]
        hidden = invisible(raw)
        if hidden is not None:  # named, not dropped: "617" would then seem not to exist
            return _refused("deal.invisible", f"U+{ord(hidden):04X}", variant)
        try:
            return StartRequest(deal=parse_deal_number(raw), variant=variant)
        except DealNumberError as e:
            return _refused(f"deal.{e.code}", raw, variant)
    return StartRequest(variant=variant)


def parse_query(query: object, rules: Rules = FREECELL) -> StartRequest:
    """Read ``?deal=N`` or ``?board=TEXT`` (lines split by newlines or ``/``), and ``&variant=ID``.

    A board is read under the variant's rules (else ``rules``).  Other
    fields are ignored, however long; a refusal says why in ``reason``.

    >>> parse_query("?deal=617&variant=eightoff")
    StartRequest(deal=617, board=None, error=None, error_text='', variant='eightoff', reason=None)
    >>> parse_query("?deal=617&variant=<b>").error
    'variant.error.url'
    >>> parse_query("?deal=0").reason, parse_query("?deal=6x").reason, parse_query("?board=JD").reason
    ('deal.range', 'deal.not_number', 'board.columns')
    """
    params = query_fields(query)
    if isinstance(params, str):
        return _refused(params)
    return read_request(params, rules)


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
    params = query_fields(query)
    if isinstance(params, str):
        return EmbedRequest()
    embed = params.get("embed", [""])[0] == "1"
    hosts: list[str] = []
    for raw in params.get("host", [])[:MAX_HOSTS]:
        origin = parse_origin(raw)
        if origin is not None and origin not in hosts:
            hosts.append(origin)
    return EmbedRequest(embed, tuple(hosts))
