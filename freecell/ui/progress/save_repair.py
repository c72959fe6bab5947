"""A saved game read back from its entries, its head rebuilt from its key and chunks if damaged.

:func:`load` reads a game's head and records and replays them through the
engine (the longest legal prefix kept); a damaged game is written anew at
once, repaired, so that the damage is said once.  A head written by a
newer page is left as it is, not used.

The key of a head names the variant, the deal and the game's id
(:func:`~freecell.ui.progress.save_format.parse_key`); the chunks beside it
hold the records.  That is enough to rebuild the game when the head itself
is damaged (not JSON, cut short, a value of the wrong type): the deal of
that variant, and the records of its chunks replayed through the engine,
the longest legal prefix kept (:func:`rebuild`).  What cannot be rebuilt
so (a board, whose start only the head knew; rules without a variant) is
``None``: the caller drops it and says so.

Of several generations (a compaction torn before its head was written),
the one that gives the longest history (turns and turns to redo) is
taken, the newest of equals.  What the head alone knew is lost: the time
played (0), whether auto-moves were on (on, the default), whether the
solver played some of it (not said); a card taken back from the
foundations says the option was on.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from ...variants import VARIANTS
from .keyvalue import KeyValue
from .save_entries import SaveEntries, Slot, all_records, generation_records
from .save_format import (
    CHUNK,
    MAX_RECORDS,
    MAX_WALL,
    Head,
    NewerSaveError,
    SaveFormatError,
    parse_key,
    read_head,
    replay_records,
)


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game read back: its slot (``None``: damaged past rebuilding, and dropped), and whether
    some of it could not be used (it was then written anew, repaired)."""

    slot: Slot | None
    damaged: bool


def load(entries: SaveEntries, key: str, clock: Callable[[], float] = time.monotonic,
         now: float = 0.0) -> Loaded | None:
    """The game whose head is under ``key``, as a slot (no tab's yet); ``None``: a newer page's head,
    left untouched.  ``now`` (the wall clock) is the "last played" of a rebuilt head."""
    text = entries.local.read(key)
    try:
        head = read_head(text, key)
        records, damaged = entries.read_records(head)
    except NewerSaveError:
        return None
    except SaveFormatError:
        rebuilt = rebuild(entries.local, key, now, clock)
        if rebuilt is None:
            entries.remove(key)  # a board's start, or rules, that only the head knew
            return Loaded(None, True)
        (head, records), damaged = rebuilt, True
    try:
        game, history, played = replay_records(head, records, clock)
    except SaveFormatError:  # a start that cannot be dealt: nothing of it can be used
        entries.remove(key)
        return Loaded(None, True)
    damaged = damaged or played < head.n
    slot = Slot(game, head, history, text, tail=records[head.n - head.n % CHUNK:], played=damaged,
                watched=head.watched)
    if damaged:  # written anew now, repaired, so that the damage is said once
        slot.pending, slot.rewrite = all_records(slot), True
        entries.write(slot, head.played)
    entries.collect(slot.head)
    return Loaded(slot, damaged)


def rebuild(local: KeyValue, key: str, now: float,
            clock: Callable[[], float] = time.monotonic) -> tuple[Head, list[str]] | None:
    """A head for the damaged one under ``key`` and the records it counts (its legal prefix only).

    The head names the newest generation found (so that a write anew goes
    into a generation of its own); ``None`` when the key does not name a
    variant and a deal.
    """
    parsed = parse_key(key)
    if parsed is None or parsed.gen is not None or parsed.deal is None or parsed.variant not in VARIANTS:
        return None
    keys = local.keys()
    gens = sorted({p.gen for k in keys
                   if (p := parse_key(k)) is not None and p.gen is not None and p.head == key})
    played = min(max(0.0, now), MAX_WALL) if math.isfinite(now) else 0.0
    # whether the solution was shown (or a link played some of it) was in the head: a rebuilt game
    # is never counted a win, as a watched one
    base = Head(parsed.id, parsed.variant, parsed.deal, None, VARIANTS[parsed.variant].rules,
                gen=max(gens, default=0), played=played, watched=True)
    best: list[str] = []
    longest = -1
    for gen in reversed(gens):
        records, _short = generation_records(local, key, gen, MAX_RECORDS)
        _game, history, legal = replay_records(replace(base, n=len(records)), records, clock)
        if len(history.turns) + len(history.redo) > longest:
            best, longest = records[:legal], len(history.turns) + len(history.redo)
    back = any(r.startswith("h") for r in best)  # a card came back from the foundations: the option was on
    return replace(base, rules=replace(base.rules, foundation_return=back), n=len(best)), best
