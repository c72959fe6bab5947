"""Outside text and the address: what is shown of it, why it is refused, the game as a link.

- freecell.ui.address.sanitize: bidi controls and other control characters never reach
  a message; right-to-left text can be isolated.
- freecell.ui.address.query.parse_query: each refusal names its cause; a long
  address that asks only for a good deal is not refused.
- freecell.ui.address.link: a game as ``?deal=…&moves=…`` and back, through the
  engine; tampered links give a reason and the plain deal.
- freecell.ui.address.embed and freecell.ui.address.query.parse_embed: embed
  mode, the host origins, the host's commands and the events, allow-lists
  only (Hypothesis feeds arbitrary messages).
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell.game import Game
from freecell.piles import Move
from freecell.position import Position
from freecell.ui.address.embed import COMMAND_SOURCE, Command, event, parse_command, parse_origin
from freecell.ui.address.link import MAX_MOVES_CHARS, game_link, parse_link
from freecell.ui.address.query import (
    MAX_FIELDS,
    REASONS,
    EmbedRequest,
    StartRequest,
    parse_embed,
    parse_query,
)
from freecell.ui.address.sanitize import BIDI_CONTROLS, FSI, PDI, clean, clip, isolate
from tests.support.values import json_values

JSON = json_values()


def short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


# --- outside text -------------------------------------------------------------------------------


def test_bidi_controls_are_stripped() -> None:
    spoof = "617\u202e!now \u2066x\u2069\u200f\u061c"
    assert clean(spoof) == "617!now x"
    assert all(ch not in clean("".join(BIDI_CONTROLS)) for ch in BIDI_CONTROLS)
    assert clean("\ufeff6\u200d1\u00ad7\x00\x1b[31m") == "617[31m"
    assert clean("a\nb\tc\u2028d") == "a b c d"
    assert clean("\ud800x") == "x"
    assert clean(None) == "" and clean(617) == ""
    assert clean("plain text, 617") == "plain text, 617"
    assert clean("Été ١٢٣ 名前") == "Été ١٢٣ 名前"  # letters and digits of any script stay


def test_shorten_and_isolate() -> None:
    assert clip("\u202e" + "9" * 30) == "9" * 24 + "…"
    assert clip("abc") == "abc"
    assert isolate("\u202eabc") == FSI + "abc" + PDI
    assert isolate("x" * 40, limit=None) == FSI + "x" * 40 + PDI


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_nothing_that_changes_a_line_gets_through(text: str) -> None:
    out = clean(text)
    assert not any(ch in BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in out)
    assert len(clip(text)) <= 25


def test_a_refused_deal_echoes_only_clean_text() -> None:
    req = parse_query("?deal=%E2%80%AE716%20niw")  # U+202E then "716 niw": the hidden character is named
    assert req.reason == "deal.invisible" and req.error == "deal.error.invisible"
    assert req.error_text == "U+202E"
    req = parse_query("?deal=716%20niw")
    assert req.reason == "deal.not_number" and req.error == "deal.error.url" and req.error_text == "716 niw"
    req = parse_query("?deal=1&variant=%E2%80%AEx" + "y" * 40)
    assert req.reason == "variant.unknown" and "\u202e" not in req.error_text and len(req.error_text) <= 25


# --- why an address is refused -----------------------------------------------------------------


BOARD_1 = Position.deal(1).to_text()


def board_query(text: str) -> str:
    return "?board=" + text.replace("\n", "/").replace(" ", "+")


@pytest.mark.parametrize(("query", "reason"), [
    ("?deal=", "deal.empty"),
    ("?deal=abc", "deal.not_number"),
    ("?deal=0", "deal.range"),
    ("?deal=99999999999", "deal.range"),
    ("?deal=5_000", "deal.not_number"),
    ("?deal=x&variant=klondike", "variant.unknown"),  # both bad: the variant named, nothing kept
    (board_query(":\n" * 8), "board.count"),
    (board_query("JD"), "board.columns"),
    (board_query(BOARD_1.replace("JD", "XX")), "board.card"),
    (board_query(BOARD_1.replace("KD", "JD")), "board.duplicate"),
    (board_query(BOARD_1.replace("Freecells: - - - -", "Freecells: AH 2H 3H 4H 5H")), "board.cells"),
    (board_query(BOARD_1.replace("Foundations: H-0", "Foundations: H-Z")), "board.foundation"),
    ("?board=" + "x" * 10_001, "board.too_long"),
    ("?" + "&".join(f"x{i}=1" for i in range(MAX_FIELDS + 1)), "query.too_many_fields"),
    ("?deal=1&x=" + "a" * 200_000, "query.too_long"),
])
def test_each_refusal_names_its_cause(query: str, reason: str) -> None:
    req = parse_query(query)
    assert req.reason == reason and reason in REASONS
    assert req.error is not None and req.deal is None and req.board is None


@pytest.mark.parametrize(("query", "kept", "reason"), [
    ("?deal=617&variant=bogus", StartRequest(deal=617), "variant.unknown"),
    ("?variant=bogus&deal=617", StartRequest(deal=617), "variant.unknown"),
    ("?deal=617&variant=EightOff", StartRequest(deal=617, variant="eightoff"), None),  # the id in any case
    ("?deal=617&variant=BAKERS", StartRequest(deal=617, variant="bakers"), None),
    ("?variant=eightoff&deal=abc", StartRequest(variant="eightoff"), "deal.not_number"),
    ("?variant=Seahaven&deal=0", StartRequest(variant="seahaven"), "deal.range"),
    ("?variant=eightoff&board=JD", StartRequest(variant="eightoff"), "board.columns"),
    ("?board=" + BOARD_1.replace("\n", "/") + "&variant=klondike", StartRequest(board=Position.deal(1)),
     "variant.unknown"),
    ("?deal=abc&variant=klondike", StartRequest(), "variant.unknown"),
    ("?deal=1,234&variant=eightoff", StartRequest(deal=1234, variant="eightoff"), None),  # as the field does
])
def test_a_bad_part_of_the_address_keeps_the_good_ones(query: str, kept: StartRequest,
                                                       reason: str | None) -> None:
    """``?deal=617&variant=bogus`` lost deal 617, ``?variant=eightoff&deal=abc`` lost the variant."""
    req = parse_query(query)
    assert req.reason == reason and (req.error is None) == (reason is None)
    assert req.kept == kept and (req.deal, req.board, req.variant) == (kept.deal, kept.board, kept.variant)


def test_a_variant_id_in_another_case_only_in_ascii() -> None:
    assert parse_query("?deal=5&variant=EIGHTOFF").variant == "eightoff"
    assert parse_query("?deal=5&variant=eightof\u212a").reason == "variant.unknown"  # a Kelvin sign is no k
    game = Game(617, variant="bakers")
    game.play(game.legal_moves()[0])
    link = game_link(game)
    assert link is not None and "variant=bakers" in link
    back = parse_link(link.replace("variant=bakers", "variant=BakerS"))
    assert back.reason is None and back.game is not None and back.game.variant is not None
    assert back.game.variant.id == "bakers" and back.game.position == game.position


def test_not_text_is_refused_with_a_reason() -> None:
    assert parse_query(None).reason == "query.not_text"  # type: ignore[arg-type]


def test_the_message_keys_stay_those_the_page_knows() -> None:
    assert parse_query("?deal=x").error == "deal.error.url"
    assert parse_query("?deal=1&variant=x").error == "variant.error.url"
    assert parse_query("?board=x").error == "board.error.url"  # no card at all: no position, not a bad card
    assert parse_query("?board=x").reason == "board.unreadable"
    assert parse_query("?board=" + "x" * 10_001).error == "board.error.url"  # too long: no line of its own
    assert parse_query("&".join(["x=1"] * 50)).error == "query.error.fields"  # no position: not that line
    assert parse_query("?x=" + "1" * 200_001).error == "query.error.long"
    assert parse_query("?deal=6%E2%80%8B17").error == "deal.error.invisible"


@pytest.mark.parametrize("query", [
    "?deal=617&utm_source=" + "x" * 5_000,
    "?deal=617" + "&" * 5_000,
    "?deal=617" + "%20" * 2_000,
    "?deal=" + "0" * 5_000 + "617",
    "?fbclid=" + "y" * 4_500 + "&deal=617",
])
def test_a_long_address_that_asks_only_for_a_good_deal_is_not_refused(query: str) -> None:
    assert len(query) > 4_000
    assert parse_query(query) == StartRequest(deal=617)


def test_embedding_survives_a_long_address() -> None:
    req = parse_embed("?embed=1&host=https://example.org&deal=617&moves=" + "58." * 3_000)
    assert req.embed and req.hosts == ("https://example.org",)


# --- the game as a link ------------------------------------------------------------------------


def played(deal: int = 617, variant: str = "freecell", moves: int = 30, seed: int = 0) -> Game:
    import random

    rng = random.Random(seed)
    game = Game(deal, variant=variant)
    for _ in range(moves):
        options = game.legal_moves()
        if not options:
            break
        game.play(rng.choice(options))
    return game


@pytest.mark.parametrize(("deal", "variant"), [(617, "freecell"), (5, "seahaven"), (12, "eightoff"),
                                               (3, "bakers")])
def test_a_link_replays_to_the_same_game(deal: int, variant: str) -> None:
    game = played(deal, variant)
    game.undo()  # the turns undone are not in the link
    link = game_link(game)
    assert link is not None and "+" not in link.partition("&moves=")[2]
    assert ("variant=" in link) == (variant != "freecell")
    back = parse_link(link)
    assert back.reason is None and back.game is not None
    assert back.game.position == game.position
    assert [t.text() for t in back.game.turns] == [t.text() for t in game.turns]
    assert not back.game.can_redo() and not back.game.clock.running
    while back.game.undo() is not None:  # undo goes back to the deal's start
        pass
    assert back.game.position == Game(deal, variant=variant).start


def test_a_board_games_link() -> None:
    game = Game(position=Position.deal(1))
    game.play(game.legal_moves()[0])
    link = game_link(game)
    assert link is not None and link.startswith("?board=")
    back = parse_link(link)
    assert back.game is not None and back.game.deal is None and back.game.position == game.position


def test_a_game_without_moves_is_the_plain_deal() -> None:
    assert game_link(Game(617)) == "?deal=617"
    assert game_link(Game(617, variant="bakers")) == "?deal=617&variant=bakers"


@pytest.mark.parametrize(("query", "reason"), [
    ("?deal=617&moves=58.11", "moves.illegal"),
    ("?deal=617&moves=58.6a-7b", "moves.illegal"),  # an auto-move that does not go home
    ("?deal=617&moves=58.zz", "moves.garbage"),
    ("?deal=617&moves=58..6a", "moves.garbage"),
    ("?deal=617&moves=%3Cscript%3E%E2%80%AE", "moves.garbage"),
    ("?deal=617&moves=" + "58." * (MAX_MOVES_CHARS // 3 + 1), "moves.too_long"),
])
def test_a_tampered_link_gives_a_reason_and_the_plain_deal(query: str, reason: str) -> None:
    back = parse_link(query)
    assert back.reason == reason and back.error == "moves.error.url" and back.moves
    assert back.game is not None and back.game.deal == 617 and back.game.moves == 0
    assert back.error_text == clean(back.error_text) and len(back.error_text) <= 25  # shown as text


def test_an_unknown_variant_in_a_link_gives_the_plain_classic_deal() -> None:
    back = parse_link("?deal=617&variant=klondike&moves=58")
    assert back.reason == "variant.unknown" and back.error == "variant.error.link" and back.moves
    assert back.game is not None and back.game.deal == 617 and back.game.moves == 0
    assert back.game.variant is not None and back.game.variant.id == "freecell"


def test_a_link_that_names_no_game() -> None:
    for query in ("?moves=58", "?deal=0&moves=58", "?deal=1&x=" + "a" * 300_000, "garbage", ""):
        back = parse_link(query)
        assert back.game is None
    assert parse_link("?deal=0").reason == "deal.range"
    assert parse_link("?deal=1&x=" + "a" * 300_000).reason == "query.too_long"


def test_a_long_game_fits_in_a_link() -> None:
    game = Game(position=Position.from_text(
        "Foundations: H-9 C-9 D-9 S-9\nFreecells: - - - -\n"
        ": KC QC JC TC\n: KD QD JD TD\n: KH QH JH TH\n: KS QS JS TS\n:\n:\n:\n:\n"), auto_move=False)
    game.play(Move.parse("15"))
    for i in range(2_000):
        game.play(Move.parse("56" if i % 2 == 0 else "65"))
    link = game_link(game)
    assert link is not None
    back = parse_link(link)
    assert back.reason is None and back.game is not None and back.game.moves == 2_001


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789abcdefghx.-+%", max_size=40))
def test_any_moves_text_never_raises(moves: str) -> None:
    back = parse_link("?deal=617&moves=" + moves)
    assert back.game is not None and back.game.deal == 617


# --- embedding -----------------------------------------------------------------------------


def test_parse_embed() -> None:
    assert parse_embed("") == EmbedRequest()
    assert parse_embed("?embed=1") == EmbedRequest(True, ())
    assert parse_embed("?embed=1").target == "*"
    req = parse_embed("?embed=1&host=https://Example.org&host=http://127.0.0.1:8123/&host=https://example.org")
    assert req.hosts == ("https://example.org", "http://127.0.0.1:8123")
    assert req.target == "https://example.org"
    for bad in ("?embed=true", "?embed=1x", "?embed=", "?Embed=1", "&".join(["a=1"] * 50) + "&embed=1"):
        assert not parse_embed(bad).embed, bad
    many = "&".join(f"host=http://h{i}.org" for i in range(8))
    assert len(parse_embed("?embed=1&" + many).hosts) <= 4


def test_parse_query_survives_too_many_fields() -> None:
    assert parse_query("&".join(["x=1"] * 50)).error is not None


@pytest.mark.parametrize(
    "text",
    ["javascript:alert(1)", "data:text/html,x", "https://a.org/x", "https://a.org?x", "https://a.org#x",
     "https://u:p@a.org", "https://a.org:99999", "https:// a.org", "https://a.org\n", "//a.org", "*",
     "null", "https://<b>.org", "http://a.org\\@b.org", "", "h" * 300],
    ids=short,
)
def test_bad_origins(text: str) -> None:
    assert parse_origin(text) is None


HOSTS = ("http://127.0.0.1:8000",)


def test_commands() -> None:
    ok = json.dumps({"source": COMMAND_SOURCE, "type": "deal", "deal": 617})
    assert parse_command(HOSTS[0], ok, HOSTS) == Command("deal", 617)
    new = json.dumps({"source": COMMAND_SOURCE, "type": "new"})
    assert parse_command(HOSTS[0], new, HOSTS) == Command("new")
    assert parse_command("http://127.0.0.1:9999", ok, HOSTS) is None  # another origin
    assert parse_command("null", ok, HOSTS) is None
    assert parse_command(HOSTS[0], ok, ()) is None  # no host named: nothing is accepted
    for bad in (
        {"source": COMMAND_SOURCE, "type": "deal", "deal": "617"},
        {"source": COMMAND_SOURCE, "type": "deal", "deal": 0},
        {"source": COMMAND_SOURCE, "type": "deal", "deal": True},
        {"source": COMMAND_SOURCE, "type": "deal", "deal": 617, "extra": "<img src=x>"},
        {"source": COMMAND_SOURCE, "type": "deal", "deal": 617, "__proto__": {}},
        {"source": "freecell", "type": "deal", "deal": 617},
        {"source": COMMAND_SOURCE, "type": "eval", "code": "alert(1)"},
        [COMMAND_SOURCE, "new"],
    ):
        assert parse_command(HOSTS[0], json.dumps(bad), HOSTS) is None, bad
    assert parse_command(HOSTS[0], "x" * 10_000, HOSTS) is None
    assert parse_command(HOSTS[0], None, HOSTS) is None
    assert parse_command(HOSTS[0], "[" * 100_000 + "]" * 100_000, HOSTS) is None  # too deep for json


def test_a_field_json_dropped_is_refused_by_the_objects_own_keys() -> None:
    """``{..., extra: undefined}``: JSON.stringify drops ``extra``, Object.keys still lists it."""
    text = json.dumps({"source": COMMAND_SOURCE, "type": "deal", "deal": 617})
    assert parse_command(HOSTS[0], text, HOSTS, ["source", "type", "deal"]) == Command("deal", 617)
    assert parse_command(HOSTS[0], text, HOSTS, ("deal", "type", "source")) == Command("deal", 617)
    for keys in (["source", "type", "deal", "extra"], ["source", "type"], ["source", "type", "deal", "deal"],
                 "source,type,deal", [1, 2, 3], ["source", "type", "deal", *("x" * 20)], {}):
        assert parse_command(HOSTS[0], text, HOSTS, keys) is None, keys


@settings(max_examples=150, deadline=None)
@given(JSON, st.sampled_from([*HOSTS, "http://evil.test", "null", ""]))
def test_arbitrary_messages_never_raise(value: Any, origin: str) -> None:
    cmd = parse_command(origin, json.dumps(value), HOSTS)
    assert cmd is None or (origin in HOSTS and cmd.kind in ("new", "deal"))


def test_events_have_the_fixed_shape() -> None:
    assert event("started", 617, 1, 0.4) == {"source": "freecell", "type": "started", "deal": 617,
                                             "moves": 1, "seconds": 0}
    assert event("won", None, 90, 123.9)["seconds"] == 123
    with pytest.raises(ValueError):
        event("lost", 1, 1, 1)


def test_a_bad_position_says_what_is_wrong_with_it() -> None:
    """A link cut short, a card twice, a card that does not exist...: each its own line, in every language."""
    from urllib.parse import quote

    from freecell.ui.address import query
    from freecell.ui.progress.settings import LANGUAGES

    i18n = Path(__file__).resolve().parents[1] / "static" / "i18n"

    text = Position.deal(617).to_text()
    cases = {
        "count": text[: len(text) - 9],  # the link cut short: the last cards are missing
        "duplicate": text.replace("KD", "KH", 1) if "KD" in text else text.replace("KH", "KD", 1),
        "card": text.replace("Freecells:", "Freecells: 1X", 1),
        "columns": text + ": \n" * 2 + ": AH\n",
        "foundation": text.replace("H-0", "H-Z", 1),
    }
    for code, board in cases.items():
        assert parse_query("?board=" + quote(board)).error == f"board.error.{code}", code
    for key in set(query._KEYS.values()):
        for lang in LANGUAGES:
            assert key in json.loads((i18n / f"{lang}.json").read_text(encoding="utf-8")), (lang, key)
