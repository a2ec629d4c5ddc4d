"""Interactive play in the terminal: humans and bots at one table, with undo, save and
load, hints from the search bot, and a game log that `boardwright replay` steps through."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..dsl.errors import BoardwrightError, UsageError
from ..interpreter.bots import MCTSBot, make_bot
from ..interpreter.state import State
from .saves import LOG_FORMAT, SAVE_FORMAT, bot_states, check_writable, read_saved, restore_bots, write_atomically
from .render import colourize, render_options, render_result, render_table, wants_colour

HELP = ("type a number, an option id or its label; 'undo' takes back your last move, "
        "'save FILE' saves the game, 'hint' asks the search bot, 'quit' leaves")


class Session:
    def __init__(self, game, setup: dict, st: State, out=None, ask=input):
        self.game, self.setup, self.st = game, setup, st
        if out is None:
            out = (lambda text: print(colourize(text))) if wants_colour(sys.stdout) else print
        self.out, self.ask = out, ask
        seats = setup["seats"]
        self.bots = {p: make_bot(s, f"{setup['seed']}:{p}") for p, s in enumerate(seats) if s != "human"}
        self.undo_stack: list[State] = []
        self.moves: list[dict] = list(setup.get("moves", []))
        self.log_path = setup.get("log")

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        game = self.game
        self.write_log()
        while not self.st.finished:
            decision = game.decision(self.st)
            p = decision.player
            if p in self.bots:
                index = self.bots[p].choose(game, self.st)
                self.out(f"{game.player_name(p)} ({self.setup['seats'][p]}): {decision.prompt} -> "
                         f"{decision.options[index].label}")
                self.play(index)
                continue
            self.out("")
            self.out(render_table(game, game.observe(self.st, p)))
            self.out(f"\n{game.player_name(p)}, your move. " + render_options(decision))
            index = self.read_choice(decision)
            if index is None:
                self.out("\nInput ended: the game is abandoned." if self.log_path is None else
                         f"\nInput ended: the game is abandoned (its log is in {self.log_path}).")
                return 0
            if index == "undo":
                continue
            self.undo_stack.append(self.st.copy())
            self.play(index)
        humans = [p for p, s in enumerate(self.setup["seats"]) if s == "human"]
        self.out("")
        self.out(render_table(game, game.observe(self.st, humans[0] if humans else None)))
        self.out(render_result(game, game.result(self.st)))
        return 0

    def play(self, index: int) -> None:
        decision = self.game.decision(self.st)
        option = decision.options[index]
        self.moves.append({"player": decision.player, "seat": self.setup["seats"][decision.player],
                           "prompt": decision.prompt, "id": option.id, "label": option.label})
        self.game.apply_index(self.st, index)
        self.write_log()

    def read_choice(self, decision):
        while True:
            try:
                line = self.ask("> ").strip()
            except EOFError:
                return None
            command, _, rest = line.partition(" ")
            if line.lower() in ("quit", "exit", "q"):
                return None
            if line in ("?", "help", ""):
                self.out(render_options(decision) + f"\n({HELP})")
            elif line == "undo":
                if self.undo():
                    return "undo"
            elif command == "save":
                self.save(rest.strip())
            elif line == "hint":
                self.hint()
            elif line.isdigit() and 1 <= int(line) <= len(decision.options):
                return int(line) - 1
            else:
                try:
                    return self.game.option_index(self.st, line)
                except BoardwrightError:
                    self.out(f"'{line}' is not one of the options: type 1 to {len(decision.options)}, "
                             f"an id or a label ({HELP}).")

    # ------------------------------------------------------------------ commands
    def undo(self) -> bool:
        if not self.undo_stack:
            self.out("Nothing to undo.")
            return False
        self.st = self.undo_stack.pop()
        del self.moves[len(self.st.history):]
        self.write_log()
        self.out("Undone: back to your previous move.")
        return True

    def save(self, path: str) -> None:
        if not path:
            self.out("save needs a file name: save FILE")
            return
        data = {"format": SAVE_FORMAT, **{k: v for k, v in self.setup.items() if k != "log"},
                "moves": self.moves, "bots": bot_states(self.bots, self.setup["seats"]), "state": self.st.to_json()}
        try:
            write_atomically(path, json.dumps(data, indent=1))
        except (OSError, ValueError) as exc:
            self.out(f"Could not save to {path[:200]}: {getattr(exc, 'strerror', None) or exc}")
            return
        self.out(f"Saved to {path}; continue later with --load {path}.")

    def hint(self, iterations: int = 300) -> None:
        bot = MCTSBot(f"hint:{len(self.st.history)}", iterations=iterations)
        root = bot.search(self.game, self.st)
        decision = self.game.decision(self.st)
        seat = decision.player
        rows = []
        for option in decision.options:
            key = tuple(option.value) if isinstance(option.value, list) else option.value
            child = root.children.get(key)
            if child is not None and child.visits:
                rows.append((child.visits, child.total[seat] / child.visits, option))
        rows.sort(key=lambda r: (-r[0], -r[1]))
        visits, value, best = rows[0]
        self.out(f"Hint: {best.label} [{best.id}] — the search bot ({iterations} iterations on "
                 f"positions sampled from what you can see) visited it {visits} times; "
                 f"estimated value {value:.2f} (1 = certain win).")
        for visits, value, option in rows[1:5]:
            self.out(f"  also: {option.label}: {visits} visits, value {value:.2f}")

    def write_log(self) -> None:
        if self.log_path is None:
            return
        data = {"format": LOG_FORMAT, **{k: v for k, v in self.setup.items() if k != "log"},
                "moves": self.moves}
        write_atomically(self.log_path, json.dumps(data, indent=1))


def start_session(args, load_game) -> Session:
    """A session from the command line: a new game, or one loaded with --load."""
    if args.log:
        check_writable(args.log, "the log")
    if args.load:
        game, setup, st, randoms = read_saved(args.load, SAVE_FORMAT, load_game)
        setup["log"] = args.log
        session = Session(game, setup, st)
        restore_bots(session.bots, randoms)
        return session
    game = load_game(args.game, args.variant)
    settings = parse_settings(args.set)
    game.set_params(settings)
    players = args.players or game.min_players
    seats = [s.strip() for s in (args.seats or ",".join(["human"] + ["random"] * (players - 1))).split(",")]
    if len(seats) != players:
        raise UsageError(f"--seats names {len(seats)} seats for {players} players")
    for p, s in enumerate(seats):
        if s != "human":
            make_bot(s, p)
    game_ref = str(Path(args.game).resolve()) if Path(args.game).exists() else args.game
    setup = {"game": game_ref, "variant": args.variant, "params": settings, "players": players,
             "seed": args.seed, "seats": seats, "log": args.log}
    return Session(game, setup, game.new_state(players, args.seed))


def parse_settings(items) -> dict:
    """'name=value' pairs (each item may hold several, comma-separated)."""
    out = {}
    for item in items or []:
        for pair in item.split(","):
            name, eq, value = pair.partition("=")
            if not eq or not name.strip():
                raise UsageError(f"--set expects name=value, got {pair!r}")
            out[name.strip()] = value.strip()
    return out


def replay_states(game, setup: dict) -> list[State]:
    """Every state of a logged game (validated by saves.read_saved), from the start to the
    last move."""
    st = game.new_state(setup["players"], setup["seed"])
    states = [st]
    for move in setup["moves"]:
        st = st.copy()
        game.apply(st, move["id"])
        states.append(st)
    return states
