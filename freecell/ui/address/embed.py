"""The game in someone else's page: host origins, events out, commands in.

Embed mode is asked for with ``?embed=1`` (see :func:`freecell.ui.address.query.parse_embed`).
Then, and only then, the page tells its parent window what happens, by
``postMessage`` with one fixed shape (:func:`event`)::

    {"source": "freecell", "type": "started" | "won",
     "deal": N or null, "moves": M, "seconds": S}

``started`` is sent with the first move of a game, ``won`` with its last
card.  These events carry nothing private, so without ``?host=`` they go to
any parent (target origin ``"*"``); with ``?host=https://example.org`` they
are addressed to that origin only, and the browser drops them if the parent
is anyone else.

The host may send commands back, but only from an origin named by a
``host`` parameter (up to :data:`MAX_HOSTS`), and only of this shape, as an
object or its JSON text, with no other field::

    {"source": "freecell-host", "type": "deal", "deal": N}   # play deal N
    {"source": "freecell-host", "type": "new"}               # a new random deal

Anything else is ignored without a word (:func:`parse_command` returns
``None``).  A message sent as an object reaches the page as JSON text made
by ``JSON.stringify``, which drops a field whose value is ``undefined`` (or
a function): so the page also passes the object's own keys
(``Object.keys``), and a field the text does not show is refused too.

Commands are coalesced (:class:`Commands`): a host that sends thousands
cannot flood the game; only the latest one waiting is obeyed, at most
one an animation frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from ... import safejson
from ...deals import DealNumberError, check_deal_number

EVENT_SOURCE = "freecell"
COMMAND_SOURCE = "freecell-host"
HostEvent = Literal["started", "won"]  # what the host is told
EVENT_TYPES: tuple[HostEvent, ...] = ("started", "won")
MAX_HOSTS = 4
MAX_ORIGIN = 200
MAX_COMMAND_CHARS = 500


def parse_origin(text: object) -> str | None:
    """``scheme://host[:port]`` of an http(s) origin, normalised; ``None`` for anything else.

    >>> parse_origin("https://Example.org:8443")
    'https://example.org:8443'
    >>> parse_origin("https://example.org/path") is None
    True
    >>> parse_origin("javascript:alert(1)") is None
    True
    """
    if not isinstance(text, str) or not 0 < len(text) <= MAX_ORIGIN:
        return None
    if any(ch.isspace() or ord(ch) < 32 for ch in text) or "\\" in text:
        return None
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not host:
        return None
    if parts.username or parts.password or parts.query or parts.fragment or parts.path not in ("", "/"):
        return None
    if text.endswith("?") or text.endswith("#") or "@" in text:
        return None
    if not all(ch.isalnum() or ch in ".-[]:" for ch in host) or not host.isascii():
        return None
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None and port != default else "")


def event(kind: str, deal: int | None, moves: int, seconds: float) -> dict[str, object]:
    """The message for the host: ``kind`` is ``started`` or ``won``."""
    if kind not in EVENT_TYPES:
        raise ValueError(f"not an event: {kind!r}")
    return {"source": EVENT_SOURCE, "type": kind, "deal": deal, "moves": int(moves),
            "seconds": int(max(0.0, seconds))}


@dataclass(frozen=True, slots=True)
class Command:
    """What the host asked: ``kind`` is ``deal`` (with ``deal``) or ``new``."""

    kind: str
    deal: int | None = None


def parse_command(origin: object, data: object, hosts: tuple[str, ...],
                  keys: object = None) -> Command | None:
    """A host's message as a :class:`Command`, or ``None`` (ignored).

    ``origin`` is the message event's origin, ``data`` its data as JSON text
    (the page turns an object into text first).  The origin must be one of
    ``hosts`` exactly; the data must have exactly the documented fields.
    ``keys``: for a message sent as an object, its own keys (a list of
    strings, as ``Object.keys`` gives them); they must be exactly the
    fields of the text, so that a field ``JSON.stringify`` dropped (an
    ``undefined`` value) is refused.  ``None`` for a message sent as text.

    >>> hosts = ("https://example.org",)
    >>> text = '{"source": "freecell-host", "type": "new"}'
    >>> parse_command(hosts[0], text, hosts, ["source", "type"])
    Command(kind='new', deal=None)
    >>> parse_command(hosts[0], text, hosts, ["source", "type", "extra"]) is None
    True
    """
    if not hosts or not isinstance(origin, str) or parse_origin(origin) != origin or origin not in hosts:
        return None
    if not isinstance(data, str) or len(data) > MAX_COMMAND_CHARS:
        return None
    try:
        msg = safejson.loads(data, max_depth=4)
    except ValueError:
        return None
    if not isinstance(msg, dict) or msg.get("source") != COMMAND_SOURCE:
        return None
    if keys is not None and not _same_keys(keys, msg):
        return None
    kind = msg.get("type")
    if kind == "new" and set(msg) == {"source", "type"}:
        return Command("new")
    if kind == "deal" and set(msg) == {"source", "type", "deal"}:
        try:
            return Command("deal", check_deal_number(msg["deal"]))
        except DealNumberError:
            return None
    return None


def _same_keys(keys: object, msg: dict[str, object]) -> bool:
    """Whether ``keys`` (an object's own keys, from the page) are exactly the fields of ``msg``."""
    if not isinstance(keys, (list, tuple)) or len(keys) > 8 or not all(isinstance(k, str) for k in keys):
        return False
    return len(set(keys)) == len(keys) and set(keys) == set(msg)


class Commands:
    """The host's commands waiting to be obeyed: only the latest counts (a flood is one command).

    The page :meth:`push` es each command as it comes and, when that says so,
    asks for one call of :meth:`take` at the next animation frame; so however
    many come, at most one is obeyed a frame, and it is the latest.

    >>> waiting = Commands()
    >>> [waiting.push(Command("deal", n)) for n in (1, 2, 3)]
    [True, False, False]
    >>> waiting.take(), waiting.take()
    (Command(kind='deal', deal=3), None)
    >>> waiting.dropped
    2
    """

    def __init__(self) -> None:
        self._latest: Command | None = None
        self.dropped = 0  # commands overtaken by a later one before they were obeyed

    def push(self, command: Command) -> bool:
        """Keep ``command`` as the one to obey; whether the page must ask for a :meth:`take`."""
        first = self._latest is None
        if not first:
            self.dropped += 1
        self._latest = command
        return first

    def take(self) -> Command | None:
        """The command to obey now (``None``: none waits)."""
        command, self._latest = self._latest, None
        return command
