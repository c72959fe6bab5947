#!/usr/bin/env python3
"""Write known solutions of Microsoft deals for the browser tests.

    python3 tests/data/solutions/make_solutions.py          # deals 1 and 617
    python3 tests/data/solutions/make_solutions.py 1 617 11982
    python3 tests/data/solutions/make_solutions.py 1 --ours 8

With ``--ours SECONDS`` the moves come from our own solver instead, shortened
for SECONDS of CPU (``python3 -m freecell solve N --best SECONDS --cpu``): the
deal 1 file is written that way, 46 turns against fc-solve's 66, so the
browser tests that play a whole game click a third fewer moves.  The same
conversion and checks apply.

Needs fc-solve (Debian: ``apt-get install freecell-solver-bin``, which also
brings ``make-microsoft-freecell-board``); the tests never do, they only read
the ``deal_<N>.txt`` files written here.

For each deal, fc-solve solves the board (``-l video-editing``, short
solutions; an atomic-moves preset when that fails) and prints every move with
the position after it.  The script replays those moves on a shadow position
with our own engine, without auto-moves, and checks that it matches the
position fc-solve prints after every move, so the move texts are read right.
In parallel it plays each move through ``freecell.game.Game(deal=N)`` with
auto-moves on, like the page:

* a move whose cards are all already home (sent there by an auto-move) is
  skipped;
* otherwise the move carries the cards of fc-solve's move that are still on
  the table.  Safe auto-moves only take home cards that nothing can need, so
  the game's table is always fc-solve's table minus cards that are home, pile
  for pile, and the same pile indices still name the same piles.

Every move must be legal in our engine (``Game.play`` raises otherwise),
multi-card moves included: fc-solve's sequence moves are limited by the free
space as ours are.  ``deal_<N>.txt`` gets one move per line in our notation
(``Move.text()``: ``38``, ``3h``, ``a5``, ``38x3``; columns 1-8, free cells
a-d), and the file is read back and replayed from the start, which must win.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from freecell.cards import parse_card  # noqa: E402
from freecell.engine import apply_move, check_move  # noqa: E402
from freecell.game import Game  # noqa: E402
from freecell.piles import HOME, Move, cell, column  # noqa: E402
from freecell.position import Position  # noqa: E402
from freecell.rules import FREECELL  # noqa: E402

PRESETS = ("video-editing", "fools-gold")  # short solutions first, then atomic moves
DEFAULT_DEALS = (1, 617)

_MOVE_RE = {
    "stack_cell": re.compile(r"^Move a card from stack (\d+) to freecell (\d+)$"),
    "stack_home": re.compile(r"^Move a card from stack (\d+) to the foundations$"),
    "cell_stack": re.compile(r"^Move a card from freecell (\d+) to stack (\d+)$"),
    "cell_home": re.compile(r"^Move a card from freecell (\d+) to the foundations$"),
    "stack_stack": re.compile(r"^Move (\d+) cards from stack (\d+) to stack (\d+)$"),
    "stack_stack1": re.compile(r"^Move a card from stack (\d+) to stack (\d+)$"),
}


class SolutionError(RuntimeError):
    pass


def solver_moves(board_text: str, preset: str) -> tuple[list[Move], list[Position]]:
    """fc-solve's moves (fc-solve's pile indices, our Move type) and its printed positions.

    ``positions[0]`` is the start; ``positions[i]`` the position after move ``i``.
    """
    out = subprocess.run(
        ["fc-solve", "-l", preset, "-m", "-p", "-t", "-sam", "-"],
        input=board_text, capture_output=True, text=True, timeout=600, check=False,
    ).stdout
    if "This game is solveable." not in out:
        raise SolutionError(f"fc-solve ({preset}) found no solution")
    moves: list[Move] = []
    positions: list[Position] = []
    lines = out.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if line.startswith("Foundations:"):
            block = lines[i : i + 2 + FREECELL.columns]
            positions.append(_parse_state(block))
            i += len(block)
            continue
        if line.startswith("Move"):
            moves.append(_parse_move(line))
        i += 1
    if len(positions) != len(moves) + 1:
        raise SolutionError(f"fc-solve printed {len(moves)} moves but {len(positions)} positions")
    return moves, positions


def _parse_move(line: str) -> Move:
    for kind, rx in _MOVE_RE.items():
        m = rx.match(line)
        if not m:
            continue
        g = [int(x) for x in m.groups()]
        if kind == "stack_cell":
            return Move(column(g[0]), cell(g[1]))
        if kind == "stack_home":
            return Move(column(g[0]), HOME)
        if kind == "cell_stack":
            return Move(cell(g[0]), column(g[1]))
        if kind == "cell_home":
            return Move(cell(g[0]), HOME)
        if kind == "stack_stack":
            return Move(column(g[1]), column(g[2]), g[0])
        return Move(column(g[0]), column(g[1]))
    raise SolutionError(f"unknown fc-solve move: {line!r}")


def _parse_state(block: list[str]) -> Position:
    """A position as fc-solve prints it with ``-p -t``: free cells in 4-character slots."""
    found_line, cells_line, *col_lines = (s.rstrip("\n") for s in block)
    cells_text = cells_line[len("Freecells:") :]
    slots = [cells_text[k : k + 4].strip() for k in range(0, 4 * FREECELL.free_cells, 4)]
    cells = tuple(parse_card(s) if s else None for s in slots)
    columns = []
    for ln in col_lines:
        if not ln.startswith(":"):
            raise SolutionError(f"not a column line: {ln!r}")
        columns.append(tuple(parse_card(t) for t in ln[1:].split()))
    foundations = [0, 0, 0, 0]
    for item in found_line[len("Foundations:") :].split():
        s_txt, _, r_txt = item.partition("-")
        r = 0 if r_txt == "0" else "A23456789TJQK".index(r_txt) + 1
        foundations["CDHS".index(s_txt)] = r
    f = foundations
    return Position(tuple(columns), cells, (f[0], f[1], f[2], f[3]))


def convert(deal: int, moves: list[Move], positions: list[Position]) -> list[Move]:
    """Our moves for fc-solve's, played through a Game with auto-moves (see the module doc)."""
    shadow = Position.deal(deal)
    if shadow != positions[0]:
        raise SolutionError(f"deal {deal}: fc-solve's start differs from Position.deal({deal})")
    game = Game(deal=deal, auto_move=True)
    out: list[Move] = []
    for n, (sm, printed) in enumerate(zip(moves, positions[1:], strict=True), 1):
        refusal = check_move(shadow, sm, FREECELL)
        if refusal is not None:
            raise SolutionError(f"deal {deal}, solver move {n} {sm.text()}: our rules refuse it ({refusal})")
        if sm.src.kind == 0:
            cards = shadow.columns[sm.src.index][-sm.count :]
        else:
            c = shadow.cells[sm.src.index]
            assert c is not None
            cards = (c,)
        shadow = apply_move(shadow, sm)
        if shadow != printed:
            raise SolutionError(f"deal {deal}, solver move {n} {sm.text()}: not what fc-solve printed")
        found = game.position.foundations
        left = [c for c in cards if found[c & 3] <= c // 4]  # those not home yet
        if not left:
            continue  # an auto-move took it (them) home already
        move = Move(sm.src, sm.dst, len(left))
        if sm.src.kind == 0:
            col = game.position.columns[sm.src.index]
            if tuple(col[-len(left) :]) != tuple(left):
                raise SolutionError(f"deal {deal}, solver move {n}: the cards are not where expected")
        game.play(move)  # raises IllegalMoveError when our rules refuse it
        out.append(move)
    if not game.is_won():
        raise SolutionError(f"deal {deal}: the converted moves do not win")
    return out


def replay(deal: int, lines: list[str]) -> Game:
    game = Game(deal=deal, auto_move=True)
    for line in lines:
        game.play(Move.parse(line))
    return game


def solve(deal: int) -> list[Move]:
    board = Position.deal(deal).to_text(header=False)
    errors = []
    for preset in PRESETS:
        try:
            moves, positions = solver_moves(board, preset)
            return convert(deal, moves, positions)
        except Exception as e:  # try the next preset, report all at the end
            errors.append(f"{preset}: {e}")
    raise SolutionError(f"deal {deal}: " + "; ".join(errors))


def ours(deal: int, seconds: float) -> list[Move]:
    """Our solver's shortest solution within ``seconds`` of CPU, converted like fc-solve's."""
    out = subprocess.run(
        [sys.executable, "-m", "freecell", "solve", str(deal), "--best", str(seconds), "--cpu"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=True,
    ).stdout
    result = json.loads(out)
    if result["verdict"] != "solved":
        raise SolutionError(f"deal {deal}: our solver says {result['verdict']}")
    moves = [Move.from_json(m) for m in result["moves"]]
    positions = [Position.deal(deal)]
    for m in moves:
        positions.append(apply_move(positions[-1], m))
    return convert(deal, moves, positions)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("deals", nargs="*", type=int, default=list(DEFAULT_DEALS))
    ap.add_argument("--ours", type=float, metavar="SECONDS", help="use our solver, shortened this long")
    args = ap.parse_args(argv)
    if args.ours is None and shutil.which("fc-solve") is None:
        print("fc-solve is needed: apt-get install freecell-solver-bin", file=sys.stderr)
        return 2
    for deal in args.deals:
        moves = solve(deal) if args.ours is None else ours(deal, args.ours)
        path = HERE / f"deal_{deal}.txt"
        path.write_text("".join(m.text() + "\n" for m in moves))
        game = replay(deal, path.read_text().split())
        assert game.is_won(), f"deal {deal}: {path.name} does not win"
        multi = sum(1 for m in moves if m.count > 1)
        print(f"deal {deal}: {len(moves)} moves ({multi} multi-card) -> {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
