"""Benchmark of saving a game (freecell.ui.progress.saved_games) in CPython, as the game grows.

Run it from the repository root::

    python3 -m bench.saves                       # games of 100 and 2,000 moves
    python3 -m bench.saves --moves 100,2000,10000 --samples 400 --json /tmp/saves.json

For each length N, a game of deal 1 of N turns, found by a random walk
(auto-moves off, so every turn is one move), is played and saved turn by
turn.  Then, ``--samples``
times: one more turn is played and saved (*turn*), and undone and saved
(*undo*), so the game stays at N turns; each save is timed alone with
``time.perf_counter_ns``.  Beside it, what the page did before this store
(*whole*): ``Game.to_json()`` and one write of it, as after every turn.
*resume* is a reload of the game (every record read and replayed through the
engine), *list* the unfinished games' list with 20 games stored, *compact*
writing the whole history anew (a load does it when undo and redo made the
records long).

The store is a :class:`~freecell.ui.progress.keyvalue.MemoryStorage` (a dict): the
figures are the Python side of a save.  In the page each save adds the
browser's ``localStorage`` calls (one read of the head, then two writes: the
last chunk, of at most 64 records, and the head), and Pyodide runs Python
about 1.5-2x slower than CPython.  Figures are medians, 90th percentiles and
maxima in microseconds; the machine's load average is printed with them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.common import loadavg, summary, write_json
from freecell.game import Game
from freecell.ui.progress import save_entries
from freecell.ui.progress.keyvalue import MemoryStorage
from freecell.ui.progress.saved_games import SaveStore


def clock() -> float:
    return 0.0


def grown(n: int, seed: int = 1) -> tuple[SaveStore, MemoryStorage, Game, random.Random]:
    """A game of deal 1 of ``n`` turns played at random, saved after each turn.

    The turns are found first on a scratch game (a random walk that backs off
    from dead ends), then played and saved one by one: the stored game is
    ``n`` turns, as a player's game of that length would be.
    """
    rng = random.Random(seed)
    scratch = Game(1, auto_move=False, clock=clock)
    while scratch.moves < n:
        options = scratch.legal_moves()
        if options:
            scratch.play(rng.choice(options))
        else:
            for _ in range(rng.randint(1, 12)):
                scratch.undo()
    local = MemoryStorage()
    store = SaveStore(local, writer="bench")
    game = Game(1, auto_move=False, clock=clock)
    store.start(game)
    for i, turn in enumerate(scratch.turns):
        game.play(turn.move)
        store.save(game, float(i))
    return store, local, game, rng


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - start) / 1000


def measure(n: int, samples: int) -> dict[str, dict[str, float]]:
    store, local, game, rng = grown(n)
    turn: list[float] = []
    undo: list[float] = []
    whole: list[float] = []
    now = 10.0**9

    def save() -> None:
        store.save(game, now)

    for _ in range(samples):
        options = game.legal_moves()
        if not options:
            continue
        game.play(rng.choice(options))
        now += 1
        turn.append(timed(save))
        game.undo()
        now += 1
        undo.append(timed(save))
    before = MemoryStorage()  # what the page did before: the whole game written after every turn
    for _ in range(samples):
        whole.append(timed(lambda: before.write("freecell.game", game.to_json())))
    game_id = store.game_id or ""
    resume: list[float] = []
    for _ in range(max(3, samples // 50)):
        copy = MemoryStorage()  # a copy: a resume may write (compact), and this store must stay the writer
        copy.data = dict(local.data)
        resume.append(timed(lambda: SaveStore(copy).resume(game_id, clock)))  # noqa: B023 - called at once
    # compaction: the whole history written anew into the next generation
    compact: list[float] = []
    for _ in range(max(3, samples // 50)):
        slot = store._slot  # the benchmark times the private step itself
        if slot is None:
            break
        slot.pending, slot.rewrite = save_entries.all_records(slot), True
        compact.append(timed(save))
        if not store.stored or store.conflict:
            raise RuntimeError("the compaction was not written")
    for i in range(19):  # 20 unfinished games for the list
        other = Game(100 + i, clock=clock)
        store.start(other)
        other.play(other.legal_moves()[0])
        store.save(other, now + i)
    listing = [timed(store.unfinished) for _ in range(max(3, samples // 20))]
    return {"turn": summary(turn), "undo": summary(undo), "whole": summary(whole),
            "resume": summary(resume), "compact": summary(compact), "list": summary(listing)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", default="100,2000", help="game lengths, comma-separated")
    parser.add_argument("--samples", type=int, default=300, help="turns timed at each length")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args(argv)
    lengths = [int(x) for x in args.moves.split(",") if x]
    results: dict[str, object] = {"python": sys.version.split()[0], "load_before": loadavg()}
    print(f"CPython {results['python']}, load average {' '.join(f'{x:.2f}' for x in loadavg())}")
    print(f"{'moves':>6} {'what':>8} {'median µs':>10} {'p90 µs':>8} {'max µs':>9} {'n':>5}")
    for n in lengths:
        out = measure(n, args.samples)
        results[str(n)] = out
        for what, f in out.items():
            print(f"{n:>6} {what:>8} {f['median']:>10.1f} {f['p90']:>8.1f} {f['max']:>9.1f} {f['n']:>5}")
    results["load_after"] = loadavg()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in loadavg())}")
    if args.json is not None:
        write_json(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
