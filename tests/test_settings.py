"""The settings as stored, and the single saved game of older pages, read back.

:func:`freecell.ui.progress.settings.load_settings` and
:func:`freecell.ui.progress.legacy.load_game` raise :class:`StoredDataError`
and nothing else, whatever they are given (Hypothesis feeds arbitrary JSON
and near-valid records); settings are recovered field by field, a damaged
history keeps its longest legal prefix.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell import safejson
from freecell.game import Game
from freecell.piles import Move
from freecell.rules import Rules
from freecell.ui.progress.keyvalue import StoredDataError
from freecell.ui.progress.legacy import load_game
from freecell.ui.progress.settings import (
    CHOICE_SETTINGS,
    FLAG_SETTINGS,
    SETTINGS_FORMAT,
    Settings,
    load_settings,
)
from tests.support.values import json_values

# Moves of deal 617 (see tests/browser/test_page.py).
MOVES_617 = ("58", "6a", "82x2")

JSON = json_values()

def short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


HOSTILE_TEXTS = [
    "",
    "null",
    "[]",
    "{}",
    "<img src=x onerror=alert(1)>",
    '{"__proto__": {"polluted": true}}',
    "{" * 50_000,
    "[" * 100_000 + "]" * 100_000,
    '{"a":' * 5_000 + "1" + "}" * 5_000,
    "x" * 3_000_000,
    "\ud800",
    "\x00\x01\x02",
]


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def played_617(clock: FakeClock | None = None) -> Game:
    game = Game(617, clock=clock or FakeClock())
    for m in MOVES_617:
        game.play(Move.parse(m))
    game.undo()
    return game


# --- settings -----------------------------------------------------------------------


def test_settings_round_trip() -> None:
    s = Settings()
    assert s.flag("winnability") is True and s.choice("deal-source") == "all" and s.language is None
    changed = (s.with_choice("deal-source", "winnable").with_flag("winnability", False)
               .with_choice("language", "fr").with_choice("variant", "eightoff").with_flag("score", True))
    back, damaged = load_settings(changed.to_json())
    assert back == changed and not damaged
    assert back.choice("deal-source") == "winnable" and not back.flag("winnability") and back.language == "fr"
    assert back.choice("variant") == "eightoff" and back.flag("score")
    data = json.loads(changed.to_json())
    assert data["format"] == SETTINGS_FORMAT
    assert set(data) == {"format", "version", *FLAG_SETTINGS, *CHOICE_SETTINGS}


def test_settings_defaults() -> None:
    """What a player who never opened the settings gets (issue 8)."""
    s = Settings()
    flags = {name: s.flag(name) for name in FLAG_SETTINGS}
    assert flags == {"winnability": True, "timer": True, "auto-move": True, "score": False,
                     "foundation-return": False, "four-colour": False, "large-cards": False,
                     "left-handed": False}
    choices = {name: s.choice(name) for name in CHOICE_SETTINGS}
    assert choices == {"variant": "freecell", "deal-source": "all", "tap": "home", "speed": "normal",
                       "theme": "dark", "language": None}


def test_an_older_winnable_only_becomes_the_deal_source() -> None:
    old = {"format": SETTINGS_FORMAT, "version": 1, "winnability": True, "winnable-only": True,
           "four-colour": False, "large-cards": False, "language": None}
    s, damaged = load_settings(json.dumps(old))
    assert not damaged and s.choice("deal-source") == "winnable"
    assert "winnable-only" not in json.loads(s.to_json())  # written back in today's form
    s, damaged = load_settings(json.dumps({**old, "winnable-only": False}))
    assert not damaged and s.choice("deal-source") == "all"
    s, damaged = load_settings(json.dumps({**old, "deal-source": "classic"}))  # the newer field wins
    assert not damaged and s.choice("deal-source") == "classic"
    s, damaged = load_settings(json.dumps({**old, "winnable-only": "yes"}))
    assert damaged and s.choice("deal-source") == "all"


def test_settings_refuse_what_is_not_offered() -> None:
    s = Settings()
    assert s.with_flag("__proto__", True) == s
    assert s.with_flag("winnability", "yes") == s  # type: ignore[arg-type]
    assert s.with_choice("language", "xx") == s
    assert s.with_choice("language", "<b>fr</b>") == s
    assert s.with_choice("variant", "klondike") == s
    assert s.with_choice("theme", "__proto__") == s


def test_settings_are_recovered_field_by_field() -> None:
    text = json.dumps({"format": SETTINGS_FORMAT, "version": 1, "winnability": "false",
                       "deal-source": "winnable", "language": "<script>", "speed": 3,
                       "__proto__": {"x": 1}})
    s, damaged = load_settings(text)
    assert damaged
    assert s.choice("deal-source") == "winnable"  # the sound field is kept
    assert s.flag("winnability") is True and s.language is None  # the others are defaults
    assert s.choice("speed") == "normal"


# (a newer version is no garbage: its known fields are read, tests/test_robust_logic.py)
@pytest.mark.parametrize("text", [*HOSTILE_TEXTS, json.dumps({"format": SETTINGS_FORMAT, "version": "1"})],
                         ids=short)
def test_settings_garbage_raises_the_documented_error(text: str) -> None:
    with pytest.raises(StoredDataError):
        load_settings(text)


# --- the game -------------------------------------------------------------------------


def test_game_comes_back_exactly() -> None:
    clock = FakeClock()
    game = played_617(clock)
    clock.t += 42
    text = game.to_json()
    back, damaged = load_game(text, clock=clock)
    assert not damaged
    assert back.deal == 617 and back.moves == game.moves == 2 and back.position == game.position
    assert [t.text() for t in back.turns] == [t.text() for t in game.turns]
    assert back.can_redo() and back.redo() is not None and back.moves == 3
    assert back.elapsed() == pytest.approx(game.elapsed(), abs=0.01)
    assert not back.clock.running  # paused: the page sets it running


def test_a_damaged_history_starts_the_deal_over() -> None:
    data = json.loads(played_617().to_json())
    data["turns"] = ["58", "11"]  # an illegal move
    game, damaged = load_game(json.dumps(data))
    assert damaged and game.deal == 617 and game.moves == 0


def test_a_damaged_history_can_keep_its_legal_prefix() -> None:
    data = json.loads(played_617().to_json())
    data["turns"] = ["58", "6a", "11", "82x2"]  # the third move is illegal: the first two are kept
    game, damaged = load_game(json.dumps(data), keep_prefix=True)
    assert damaged and game.deal == 617 and [t.text() for t in game.turns] == ["58", "6a"]
    assert not game.can_redo()  # the turns to redo came after the damage
    data["turns"], data["redo"] = ["58"], ["6a", "zz", "82x2"]
    game, damaged = load_game(json.dumps(data), keep_prefix=True)
    assert damaged and game.moves == 1 and game.redo() is not None and not game.can_redo()
    data["turns"], data["redo"] = ["58", "6a"], ["82x2"]
    game, damaged = load_game(json.dumps(data), keep_prefix=True)
    assert not damaged and game.moves == 2 and game.can_redo()
    data["turns"] = "58"  # not a list: no turn kept, the deal itself is sound
    game, damaged = load_game(json.dumps(data), keep_prefix=True)
    assert damaged and game.moves == 0
    game, damaged = load_game(json.dumps({**data, "turns": ["58", "11"]}), keep_prefix=True)
    assert damaged and game.moves == 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["58", "6a", "82x2", "11", "zz", "", "6h", "4b"]), max_size=6))
def test_the_prefix_kept_is_the_longest_legal_one(turns: list[str]) -> None:
    data = json.loads(Game(617).to_json())
    data["turns"] = turns
    game, damaged = load_game(json.dumps(data), keep_prefix=True)
    good = 0
    probe = Game(617)
    for t in turns:
        try:
            probe.replay(t)
        except ValueError:
            break
        good += 1
    assert game.moves == good and damaged == (good < len(turns))


@pytest.mark.parametrize("text", [*HOSTILE_TEXTS,
                                  json.dumps({"format": "freecell-game", "version": 1, "deal": 0}),
                                  json.dumps({"format": "freecell-game", "version": 1, "deal": "617"}),
                                  json.dumps({"format": "freecell-game", "version": 9, "deal": True})],
                         ids=short)
def test_game_garbage_raises_the_documented_error(text: str) -> None:
    with pytest.raises(StoredDataError):
        load_game(text)


def test_deep_nesting_is_refused_before_json_sees_it() -> None:
    """Under Pyodide a deep text can overflow the browser's stack: it never reaches ``json``."""
    deep = json.dumps({"format": "freecell-game", "version": 1, "deal": 5,
                       "turns": [json.loads("[" * 40 + "]" * 40)]})
    assert safejson.too_deep(deep)
    assert not safejson.too_deep(played_617().to_json())
    assert safejson.depth('["[[[[", {"a": "]]]"}]') == 2  # brackets in strings do not count
    for loader in (load_settings, load_game):
        with pytest.raises(StoredDataError):
            loader(deep)


@settings(max_examples=150, deadline=None)
@given(JSON)
def test_loaders_raise_only_the_documented_error(value: Any) -> None:
    text = json.dumps(value)
    for loader in (load_settings, load_game):
        with contextlib.suppress(StoredDataError):
            loader(text)


def _near(fmt: str, fields: list[str]) -> Any:
    return st.dictionaries(st.sampled_from(fields), JSON, max_size=len(fields)).map(
        lambda d: {"format": fmt, "version": 1, **d})


@settings(max_examples=150, deadline=None)
@given(_near(SETTINGS_FORMAT, [*FLAG_SETTINGS, *CHOICE_SETTINGS, "__proto__", "constructor"]))
def test_near_valid_settings_never_raise_anything_else(value: dict[str, Any]) -> None:
    try:
        s, _damaged = load_settings(json.dumps(value))
    except StoredDataError:  # too large
        return
    assert load_settings(s.to_json()) == (s, False)


@settings(max_examples=200, deadline=None)
@given(_near("freecell-game", ["deal", "board", "rules", "auto_move", "turns", "redo", "elapsed",
                               "variant"]))
def test_near_valid_games_never_raise_anything_else(value: dict[str, Any]) -> None:
    try:
        game, _damaged = load_game(json.dumps(value))
    except StoredDataError:
        return
    assert load_game(game.to_json())[0].position == game.position


def test_rules_of_a_restored_variant_deal() -> None:
    game = Game(5, rules=Rules(free_cells=2))
    back, damaged = load_game(game.to_json())
    assert not damaged and back.rules == Rules(free_cells=2)
