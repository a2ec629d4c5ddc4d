"""Interactive play in the terminal: humans and bots at one table, with undo and redo, save
and load, hints from the search bot, and a game log that `boardwright replay` steps through.

The screen before each human decision holds the table and the options in the terminal's
lines (80 x 30 is the size tested): the table is drawn shorter step by step
(render_table's `compact`) until the options fit in columns, groups or pages beside it
(cli/option_pages.py); `board` draws the whole table. Hand-written rather than rich or
Textual: the screen is lines of text that scroll like any command's output (it can be
piped, logged and tested by counting lines), and every text from a rule file passes
through one escaping stream (cli/terminal.py), which a full-screen library would bypass."""
from __future__ import annotations

import json
import math
import sys

from ..dsl.errors import BoardwrightError, UsageError
from ..interpreter.bots.mcts import MCTSBot
from ..interpreter.bots.registry import make_bot
from ..interpreter.run.state import State
from .live_scores import live_scores, render_live_scores
from .saves import (LOG_FORMAT, SAVE_FORMAT, JournaledFile, bot_states, read_saved, restore_bots,
                    seats_for_players, write_atomically)
from .option_pages import described_option, fit_screen, groups_of, spaced_like
from .table_keys import table_keys
from .render import (COMPACT_LEVELS, colourize, fit_lines, render_options, render_result, render_table, screen_height,
                     screen_width, wants_colour)
from .terminal import safe_text, write_control
from .trace import TraceWriter, decision_record

HELP = ("type a number, an option id or its label; 'board' draws the whole table, an empty line "
        "the screen again; a letter by a cell of the table chooses what it names; "
        "'more' shows the next page of options, a group's name its options; "
        "'undo' takes back your last move, 'redo' makes it again; 'save FILE' saves the game, "
        "'hint' asks the search bot, 'score' the score lines now, 'options' lists every option "
        "with its id, 'help' shows "
        "your goal and this, 'quit' leaves")
HINT_ROWS = 8
HINT_DEPTH = 6          # random moves played after the search tree, so that near options differ


def _coloured_print(text: str) -> None:
    """The text made safe (cli/terminal.py), then painted: only our own colours reach the terminal."""
    write_control(sys.stdout, colourize(safe_text(text)) + "\n")


class Session:
    """One game at the terminal. `pause(text)` waits for Enter after a `show` statement's
    table (by default only when a person types at a terminal)."""

    def __init__(self, game, setup: dict, st: State, out=None, ask=input, pause=None):
        self.game, self.setup, self.st = game, setup, st
        if out is None:
            out = _coloured_print if wants_colour(sys.stdout) else print
        self.out, self.ask = out, ask
        seats = setup["seats"]
        if pause is None:
            interactive = "human" in seats and sys.stdin.isatty()
            pause = self._wait_for_enter if interactive else (lambda text: None)
        self.pause = pause
        self.shown_at = -1              # the move count at which a `show` last drew the table
        game.on_show = self.show
        self.bots = {p: make_bot(s, f"{setup['seed']}:{p}", game) for p, s in enumerate(seats) if s != "human"}
        self.undo_stack: list[State] = []
        self.redo_stack: list[tuple] = []       # (state, moves) taken back by undo, latest last
        self.queued = None              # a command typed at a pause, run at the next prompt
        self.before_cleanup = None      # the table as the last move left it (see watch_grids)
        self.view = (None, 0)           # the options' group and page on screen
        self.keys: dict = {}            # the keys drawn on the table: {key: option index}
        self.moves: list[dict] = list(setup.get("moves", []))
        self.log_path = setup.get("log")
        self.log_file = None if self.log_path is None else JournaledFile(self.log_path)
        self.trace = None               # a TraceWriter, when play --trace FILE asks for one
        self.logged = -1                # how many moves the log file holds

    def start_trace(self, path: str) -> None:
        """Write the machine trace to `path` (cli/trace.py), from the game's first decision."""
        start = self.game.new_state(self.setup["players"], self.setup["seed"])
        self.trace = TraceWriter(path, self.game, self.setup, start, self.moves)

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        self.watch_grids()
        try:
            return self._run()
        except KeyboardInterrupt:       # Ctrl-C: the log as one whole file, as a game left
            self.write_log(finish=True)
            raise
        finally:
            self.game.__dict__.pop("move", None)
            if self.trace is not None:
                self.trace.close(self.st)

    def watch_grids(self) -> None:
        """Keep the table as the last move left it when the rules that follow move a component
        off a grid cell (a round's winning line cleared, a card taken back): a `show` then
        draws that table, so the moment is seen before its components leave. Only for the
        game on screen; bots' look-ahead copies pass through at the cost of one test."""
        game, original = self.game, type(self.game).move.__get__(self.game)

        def move(st, c, *where):
            if st is self.st and self.before_cleanup is None and type(c) is int and 0 <= c < len(st.loc) \
                    and st.loc[c][1] is not None:
                self.before_cleanup = game.observe(st, self.viewer())
            return original(st, c, *where)
        game.move = move

    def _run(self) -> int:
        game = self.game
        self.write_log()
        self.tell_briefs()
        while not self.st.finished:
            decision = game.decision(self.st)
            p = decision.player
            sealed = self.st.sealed is not None
            if p in self.bots:
                index = self.bots[p].choose(game, self.st)
                shown = "a sealed choice" if sealed else decision.options[index].label
                self.out(bot_move_line(f"{game.player_name(p)} ({self.setup['seats'][p]}): {decision.prompt}", shown))
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
            self.write_log(only_if_behind=True)     # complete before a person is asked
            self.view = (None, 0)
            self.draw(decision)
            index = self.read_choice(decision)
            if index in (None, "quit"):
                ended = "Input ended" if index is None else "Goodbye"
                kept = "" if self.log_path is None else f" (its log is in {self.log_path})"
                self.write_log(finish=True)
                self.out(f"\n{ended}: the game is abandoned{kept}.")
                return 0
            if index == "again":            # undone or redone: the decision to make has changed
                continue
            self.undo_stack.append(self.st.copy())
            self.redo_stack.clear()
            self.play(index)
        if self.shown_at != len(self.st.history):     # else a `show` has just drawn the last table
            result = render_result(game, game.result(self.st))
            self.out("")
            self.out(self.fitted_table(game.observe(self.st, self.viewer()), result.count("\n") + 3))
        else:
            result = render_result(game, game.result(self.st))
        self.write_log(finish=True)
        self.out(result)
        if self.queued is not None:
            self.out(f"(The game is over: '{self.queued}', typed at the pause, was not run.)")
        return 0

    def fitted_table(self, seen: dict, spare: int) -> str:
        """The table drawn as fully as fits the screen less `spare` lines (the shortest drawing
        if none fits; the whole table when the screen's height is not known)."""
        height = screen_height()
        if height is None:
            return render_table(self.game, seen)
        room = height - spare
        for level in range(COMPACT_LEVELS + 1):
            table = render_table(self.game, seen, level)
            if table.count("\n") < room:
                break
        return table

    def draw(self, decision, whole_table: bool = False) -> None:
        """The screen for a decision: the table, drawn as short as it must be (whole with
        `board`) for the options to fit the terminal's lines beside it. When the whole list
        does not fit, the options that name a cell are keyed on the table (cli/table_keys.py)
        and leave the list; groups and pages come after that."""
        game, p = self.game, decision.player
        seen = game.observe(self.st, p)
        head = fit_lines([f"{game.player_name(p)}, your move. {decision.prompt}:"])
        labels = [described_option(game, self.st, o) for o in decision.options]
        keys = table_keys(game, self.st, p)
        table, shown, keyed = fit_screen(game, seen, labels, head, keys, self.view, whole_table)
        self.keys = keys.options if keyed else {}
        self.out("")
        self.out(table)
        self.out(head)
        self.out("\n".join(shown.lines + ([keys.lines(game)] if keyed else [])))

    def viewer(self):
        """Whose view a table shown to everybody takes: the human's when there is one."""
        humans = [p for p, s in enumerate(self.setup["seats"]) if s == "human"]
        return humans[0] if len(humans) == 1 else None

    def tell_briefs(self) -> None:
        """At the start: what each human seat plays for (the rule file's `brief`)."""
        if self.game.brief is None or self.st.history:
            return
        for p, seat in enumerate(self.setup["seats"]):
            if seat == "human":
                self.out(self.brief(p))

    def brief(self, p: int) -> str:
        if self.game.brief is None:
            return ""
        return fit_lines([f"{self.game.player_name(p)}: {self.game.brief(self.st, p)}"])

    def show(self, st: State, title: str) -> None:
        """A `show` statement ran: the whole table, then a pause. The table is the one the last
        move left when the rules have since moved components off a grid (watch_grids), else
        the table as it is now. Only for the game on screen; bots' and hints' look-ahead
        copies pass by silently."""
        if st is not self.st:
            return
        self.out("")
        self.out(f"== {title}")
        if self.before_cleanup is not None:
            note = fit_lines(["(the table as the last move left it, before the rules took components off the grid)"])
            self.out(self.fitted_table(self.before_cleanup, 3 + note.count("\n") + 1))
            self.out(note)
            self.before_cleanup = None
        else:
            self.out(self.fitted_table(self.game.observe(st, self.viewer()), 3))
        self.shown_at = len(st.history)
        self.pause(title)

    def _wait_for_enter(self, title: str) -> None:
        """Enter continues. A command typed here cannot run in the middle of the rules: it is
        kept, and runs at the next move prompt (the screen says so)."""
        try:
            line = self.ask("(press Enter to continue) ").strip()
        except EOFError:
            return
        if line:
            self.queued = line
            self.out(f"('{line}' will run at your next move prompt.)")

    def play(self, index: int) -> None:
        decision = self.game.decision(self.st)
        option = decision.options[index]
        self.before_cleanup = None
        if self.trace is not None:
            self.trace.write(decision_record(self.game, self.st, len(self.moves), self.setup["seats"], index))
        self.moves.append({"player": decision.player, "seat": self.setup["seats"][decision.player],
                           "prompt": decision.prompt, "id": option.id, "label": option.label})
        self.game.apply_index(self.st, index)
        # A person's move is written at once; bots' moves too while the log is short, then
        # each time it has grown by a tenth: rewriting the whole file after every move of a
        # long bot game would make the game quadratic.
        if decision.player not in self.bots or len(self.moves) - self.logged > self.logged // 10:
            self.write_log()

    def next_line(self):
        if self.queued is not None:
            line, self.queued = self.queued, None
            self.out(f"> {line}    (typed at the pause)")
            return line
        return self.ask("> ").strip()

    def read_choice(self, decision):
        while True:
            try:
                line = self.next_line()
            except EOFError:
                return None
            command, _, rest = line.partition(" ")
            if line.lower() in ("quit", "exit", "q"):
                return "quit"
            if line == "":
                self.out("(An empty line draws the screen again; type help for the commands.)")
                self.draw(decision)
            elif line in ("?", "help"):
                brief = self.brief(decision.player)
                self.out((brief + "\n" if brief else "") + fit_lines([f"({HELP})"]))
            elif line == "board":
                self.draw(decision, whole_table=True)
            elif line == "options":
                self.out(render_options(decision))
            elif line in ("more", "next"):
                self.view = (self.view[0], self.view[1] + 1)
                self.draw(decision)
            elif line in ("undo", "redo"):
                if self.undo() if line == "undo" else self.redo():
                    return "again"
            elif command == "save":
                self.save(rest.strip())
            elif line == "hint":
                self.hint()
            elif line == "score":
                self.out(render_live_scores(live_scores(self.game, self.st, decision.player), screen_width()))
            elif line.isascii() and line.isdigit() and len(line) < 10 and 1 <= int(line) <= len(decision.options):
                return int(line) - 1
            elif line in self.keys:
                return self.keys[line]
            else:
                try:
                    return self.game.option_index(self.st, line)
                except BoardwrightError:
                    pass
                if line.lower() in groups_of([o.label for o in decision.options]):
                    self.view = (line.lower(), 0)
                    self.draw(decision)
                    continue
                shown = line if len(line) <= 40 else line[:40] + "..."
                keyed = ", a letter on the table" if self.keys else ""
                self.out(fit_lines([f"'{shown}' is not one of the options: type 1 to {len(decision.options)}{keyed}, "
                                    "an id, a label or a group's name; 'help' lists the commands."
                                    + spaced_like(line, decision.options)]))

    # ------------------------------------------------------------------ commands
    def undo(self) -> bool:
        if not self.undo_stack:
            self.out("Nothing to undo.")
            return False
        self.redo_stack.append((self.st, list(self.moves)))
        self.st = self.undo_stack.pop()
        del self.moves[len(self.st.history):]
        if self.trace is not None:
            self.trace.write({"type": "undo", "step": len(self.moves)})
        self.write_log()
        self.out("Undone: back to your previous move. ('redo' makes it again.)")
        return True

    def redo(self) -> bool:
        """Make again the moves the last `undo` took back (yours and the bots' after it)."""
        if not self.redo_stack:
            self.out("Nothing to redo.")
            return False
        self.undo_stack.append(self.st)
        state, moves = self.redo_stack.pop()
        if self.trace is not None:
            replayed = self.st.copy()
            for step in range(len(self.moves), len(moves)):
                ids = [o.id for o in self.game.decision(replayed).options]
                index = ids.index(moves[step]["id"])
                self.trace.write(decision_record(self.game, replayed, step, self.setup["seats"], index))
                self.game.apply_index(replayed, index)
        self.st, self.moves = state, moves
        self.write_log()
        self.out("Redone: your move is made again.")
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

    def hint(self) -> None:
        """The search bot's view of every option: visits and estimated value, best first. The
        search grows with the options (60 iterations each, 600 to 2400) and looks HINT_DEPTH
        random moves past its tree, so that its counts differ for options that differ."""
        decision = self.game.decision(self.st)
        iterations = min(2400, max(600, 60 * len(decision.options)))
        self.out(f"Thinking ({iterations} search iterations)...")
        bot = MCTSBot(f"hint:{len(self.st.history)}", iterations=iterations, exploration=0.5, depth=HINT_DEPTH)
        root = bot.search(self.game, self.st)
        seat = decision.player
        rows = []
        for number, option in enumerate(decision.options, 1):
            key = tuple(option.value) if isinstance(option.value, list) else option.value
            child = root.children.get(key)
            if child is not None and child.visits:
                rows.append((child.visits, child.total[seat] / child.visits, number, option))
        rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
        # number, label, visits and value within the screen: a long label is cut with '…'
        width = min(max(len(option.label) for *_, option in rows[:HINT_ROWS]), screen_width() - 25)
        cut = lambda label: label if len(label) <= width else label[:width - 1] + "…"
        self.out(fit_lines([f"Hint: {rows[0][3].label} (option {rows[0][2]}). The search bot tried each option on "
                            f"positions sampled from what you can see; value 1.000 is a certain win:"]))
        digits = max(2, len(str(max(r[2] for r in rows[:HINT_ROWS]))))
        self.out(f"  {'option':<{width + digits + 2}} {'visits':>6}  {'value':>5}")
        for visits, value, number, option in rows[:HINT_ROWS]:
            self.out(f"  {number:>{digits}}. {cut(option.label):<{width}} {visits:>6}  {value:.3f}")
        if len(rows) > HINT_ROWS:
            self.out(f"  ... and {len(rows) - HINT_ROWS} more options, each visited less")
        if rows[0][1] - min(r[1] for r in rows) < 0.005:
            self.out("  (the search sees no real difference between these options)")

    def write_log(self, only_if_behind: bool = False, finish: bool = False) -> None:
        """The log: a journal line (saves.JournaledFile), or with `finish` one whole file."""
        if self.log_path is None or (only_if_behind and self.logged == len(self.moves)):
            return
        data = {"format": LOG_FORMAT, **{k: v for k, v in self.setup.items() if k != "log"}, "moves": self.moves}
        self.log_file.finish(data) if finish else self.log_file.write(data)
        self.logged = len(self.moves)


def bot_move_line(who_and_prompt: str, choice: str) -> str:
    """'Player 2 (random): PROMPT -> CHOICE', with '-> CHOICE' on a line of its own when the
    whole does not fit the screen."""
    line = f"{who_and_prompt} -> {choice}"
    if len(line) <= screen_width():
        return line
    return fit_lines([who_and_prompt, f"    -> {choice}"])


def start_session(args, load_game) -> Session:
    """A session from the command line: a new game, or one loaded with --load."""
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
    for p, s in enumerate(seats):  # a misspelt bot is the problem to report, not the count
        if s != "human":
            make_bot(s, p, game)
    if len(seats) != players:
        raise UsageError(f"--seats names {seats_for_players(seats, players)}")
    setup = {"game": args.game, "variant": args.variant, "params": settings, "players": players,
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


def replay_states(game, setup: dict, before_move=None) -> "ReplayedStates":
    """Every state of a logged game (validated by saves.read_saved), from the start to the
    last move, as a sequence: `states[k]` is the state after k moves."""
    return ReplayedStates(game, setup, before_move)


class ReplayedStates:
    """The states of a logged game without keeping them all: each state holds its history, so
    keeping one per move costs memory (and time) quadratic in the game's length. The moves are
    replayed once, which checks them; a copy is kept every `spacing` moves (about the square
    root of the length), and a state is rebuilt from the copy before it when asked for.

    A game still being played (the web table) grows and shrinks it: `grown` after each move
    added to `moves` (the same list), `back_to` for an undo. The last state is the game's own,
    not a copy; the spacing doubles as the game grows, so about the square root of its length
    in copies are kept. `before_move(st)` (optional) sees each logged move's state before it."""

    def __init__(self, game, setup: dict, before_move=None):
        self.game, self.moves = game, setup["moves"]
        self.spacing = max(32, math.isqrt(len(self.moves)))
        st = game.new_state(setup["players"], setup["seed"])
        self.checkpoints = [st.copy()]
        for done, move in enumerate(self.moves, 1):
            if before_move is not None:
                before_move(st)
            game.apply(st, move["id"])
            if done % self.spacing == 0:
                self.checkpoints.append(st.copy())
        self.last = st

    def __len__(self) -> int:
        return len(self.moves) + 1

    def __getitem__(self, step: int) -> State:
        if step < 0:
            step += len(self)
        if not 0 <= step < len(self):
            raise IndexError(step)
        if step == len(self.moves):
            return self.last
        start = step // self.spacing * self.spacing
        st = self.checkpoints[step // self.spacing].copy()
        for move in self.moves[start:step]:
            self.game.apply(st, move["id"])
        return st

    def grown(self, st: State) -> None:
        """A move was added to `moves` and played on `st`, the state after it (kept, not copied)."""
        if len(self.moves) % self.spacing == 0:
            self.checkpoints.append(st.copy())
            if len(self.checkpoints) > 2 * self.spacing:    # about the square root of the length
                self.spacing *= 2
                self.checkpoints = self.checkpoints[::2]
        self.last = st

    def back_to(self, step: int) -> State:
        """Take back the moves after `step` (from `moves` too); the state after `step`, rebuilt,
        is the last one now and is returned."""
        st = self[step] if step < len(self.moves) else self.last
        del self.moves[step:]
        del self.checkpoints[step // self.spacing + 1:]
        self.last = st
        return st
