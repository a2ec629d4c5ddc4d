"""Interactive play in the terminal: humans and bots at one table, with undo, save and
load, hints from the search bot, and a game log that `boardwright replay` steps through."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..dsl.errors import BoardwrightError, UsageError
from ..interpreter.bots import MCTSBot, make_bot
from ..interpreter.state import State
from .render import colourize, render_options, render_result, render_table, wants_colour

HELP = ("type a number, an option id or its label; 'undo' takes back your last move, "
        "'save FILE' saves the game, 'hint' asks the search bot, 'quit' leaves")
SAVE_FORMAT = "boardwright-save/1"
LOG_FORMAT = "boardwright-log/1"


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
            sealed = self.st.sealed is not None
            if p in self.bots:
                index = self.bots[p].choose(game, self.st)
                shown = "a sealed choice" if sealed else decision.options[index].label
                self.out(f"{game.player_name(p)} ({self.setup['seats'][p]}): {decision.prompt} -> {shown}")
                self.play(index)
                continue
            if sealed and any(self.setup["seats"][q] == "human" and q != p for q, _ in self.st.sealed.chosen):
                # Hot seat: the screen scrolls away what the previous player saw and typed.
                self.out("\n" * 40 + f"A sealed choice: pass the keyboard to {game.player_name(p)}, "
                         "then press Enter.")
                try:
                    self.ask("")
                except EOFError:
                    return 0
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
        self.moves.append({"player": decision.player, "prompt": decision.prompt, "id": option.id,
                           "label": option.label})
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
                "moves": self.moves, "state": self.st.to_json()}
        try:
            Path(path).write_text(json.dumps(data, indent=1), encoding="utf-8")
        except OSError as exc:
            self.out(f"Could not save to {path}: {exc.strerror}")
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
        Path(self.log_path).write_text(json.dumps(data, indent=1), encoding="utf-8")


def start_session(args, load_game) -> Session:
    """A session from the command line: a new game, or one loaded with --load."""
    if args.load:
        saved = read_json(args.load, SAVE_FORMAT, "a saved game")
        game = load_game(saved["game"], saved.get("variant"))
        game.set_params(saved.get("params", {}))
        setup = {k: saved[k] for k in ("game", "variant", "params", "players", "seed", "seats")}
        setup["moves"], setup["log"] = saved.get("moves", []), args.log
        try:
            st = State.from_json(saved["state"])
        except (KeyError, TypeError, ValueError) as exc:
            raise UsageError(f"{args.load}: the saved state is damaged ({exc})")
        return Session(game, setup, st)
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


def read_json(path: str, expected_format: str, what: str) -> dict:
    """A JSON file of ours (a saved game or a log), or a usage error that says what is wrong."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"cannot read {what} from {path}: {exc}")
    if not isinstance(data, dict) or data.get("format") != expected_format:
        raise UsageError(f"{path} is not {what} (format {expected_format})")
    return data


def replay_states(game, log: dict) -> list[State]:
    """Every state of a logged game, from the start to the last move."""
    st = game.new_state(log["players"], log["seed"])
    states = [st.copy()]
    for move in log["moves"]:
        game.apply(st, move["id"])
        states.append(st.copy())
    return states
