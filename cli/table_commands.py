"""The commands at the table: `play` (in the terminal, against bots or hot-seat) and `replay`
(step through a logged game)."""
from __future__ import annotations

import sys

from ..dsl.errors import UsageError
from ..interpreter.bots.mcts import root_parallel
from ..interpreter.bots.registry import BOTS
from ..interpreter.compile.load import load_game
from .options import GAME_HELP, check_outputs, positive_int, seed_option, variant_option
from .play import replay_states, start_session
from .render import render_result, render_table
from .saves import LOG_FORMAT, read_saved
from .trace import encode, logged_game_records


def add_play(sub) -> None:
    p = sub.add_parser("play", help="play in the terminal, against bots or hot-seat")
    p.add_argument("game", metavar="GAME", nargs="?", help=GAME_HELP)
    variant_option(p)
    p.add_argument("--players", type=positive_int, metavar="N", help="the player count (default: the game's minimum)")
    seed_option(p)
    p.add_argument("--seats", "--bots", dest="seats", metavar="LIST", help=f"comma-separated: human or a bot ({', '.join(BOTS)}) per seat "
                                   "(default: human, then random)")
    p.add_argument("--load", metavar="FILE", help="continue a game saved with 'save FILE'")
    p.add_argument("--log", metavar="FILE", help="write the game log here (for 'boardwright replay')")
    p.add_argument("--trace", metavar="FILE", help="write every decision, its options and the choice here, "
                                                   "as JSON Lines (docs/logs.md)")
    p.add_argument("--workers", type=positive_int, metavar="W", default=1,
                   help="processes for the trees of mcts bots with trees=K, same choices as one (default: 1)")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a param (repeatable)")


def add_replay(sub) -> None:
    p = sub.add_parser("replay", help="step through a logged game forward and backward")
    p.add_argument("log", metavar="LOG", help="a log written by 'play --log FILE'")
    p.add_argument("--step", type=int, metavar="N", help="show the state after this many moves and exit")
    p.add_argument("--json", action="store_true", help="print the game's trace instead: every decision, its "
                                                       "options and the choice, as JSON Lines (docs/logs.md)")


def cmd_play(args) -> int:
    if not args.load and not args.game:
        raise UsageError("play needs a GAME, or --load FILE")
    check_outputs(args)
    session = start_session(args, load_game)
    if args.trace is not None:
        session.start_trace(args.trace)
    with root_parallel(session.game, args.workers):     # for bots with trees=K (same choices)
        return session.run()


def cmd_replay(args) -> int:
    game, log, _, _ = read_saved(args.log, LOG_FORMAT, load_game)
    if args.json:
        if args.step is not None:
            raise UsageError("--json prints the whole game: leave out --step")
        for record in logged_game_records(game, log):
            sys.stdout.write(encode(record))
        return 0
    states = replay_states(game, log)
    last = len(states) - 1

    def chosen(step: int) -> str:
        """The label of the option chosen at a step, as the replayed game shows it (not the file)."""
        move = log["moves"][step - 1]
        decision = game.decision(states[step - 1])
        label = next((o.label for o in decision.options if o.id == move["id"]), move["id"]) if decision else move["id"]
        return f"{game.player_name(move['player'])} chose {label}"

    def show(step: int) -> None:
        print(f"\n-- step {step} of {last}" + (f": {chosen(step)}" if step else ": the start"))
        print(render_table(game, game.observe(states[step], None)))
        if states[step].finished:
            print(render_result(game, game.result(states[step])))

    if args.step is not None:
        if not 0 <= args.step <= last:
            raise UsageError(f"--step must be between 0 and {last}")
        show(args.step)
        return 0
    step = 0
    show(step)
    while True:
        try:
            line = input("replay (n next, p previous, N go to step, q quit)> ").strip().lower()
        except EOFError:
            return 0
        if line in ("q", "quit"):
            return 0
        if line in ("n", "", "next"):
            step = min(step + 1, last)
        elif line in ("p", "previous", "back"):
            step = max(step - 1, 0)
        elif line.isascii() and line.isdigit() and len(line) < 10 and int(line) <= last:
            step = int(line)
        else:
            print(f"type n, p, a step from 0 to {last}, or q")
            continue
        show(step)
