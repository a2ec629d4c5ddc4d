"""A game in progress at the web table: its seats and their links, its moves, undo and redo,
saving on every move, bots, hints, and each seat's view of the table now and in the past.

Links: every human seat has its own link with an unguessable token (`secrets.token_urlsafe`);
the *table link* plays every human seat from one browser (hot-seat). A seat's link sees
only what that seat may see (`looks.seat_view`, computed here on the server) and acts only
for that seat; every action names the move number it was made at, so a stale page cannot act
on a table that has moved on.

Undo (the table's rule): at the table link, or at a table with one human seat, undo takes
back the last human move and the bot moves after it. With several human seats at their own
links, a seat may take back only its own last move, and only while no other human seat has
moved since. Redo plays the taken-back moves again (the bots' as they were), until anyone
makes a new move.

Threads: each table's engine work (moves, bots, hints, views) runs under the table's own
lock, in a worker thread of the server, so a bot thinking at one table holds up no other
table. What tables share is guarded apart: the engine's work counter is one per thread
(interpreter/run/limits.py), and loading a game (parsing, checking and compiling, whose caches
are the process's: dsl/parsed.py, interpreter/compile/codegen.py, interpreter/run/records.py)
runs under one lock, `LOADING`. Each table has its own `Game` (its hooks and indexes are
its own), its own bots and their random generators.

Saving: on every move, as a snapshot and an append-only journal (cli/saves.py `Journal`):
a move adds one line to the journal, and the snapshot (the whole save) is rewritten only
when the journal has grown by half the snapshot's moves, so a move costs the same early and
late in a long game. The writes are queued under the table's lock and made after it, in the
order queued, so the disk does not hold up the table's pages.

States: a table keeps the states of its moves as a checkpointed sequence (cli/play.py
`ReplayedStates`: about the square root of the game's length in copies, a past state rebuilt
from the copy before it), not a copy per move, which a long game would pay for quadratically.
"""
from __future__ import annotations

import collections
import contextlib
import json
import os
import secrets
import tempfile
import threading
from pathlib import Path

from ...dsl.errors import BoardwrightError, UsageError
from ...interpreter.bots.registry import make_bot
from ...interpreter.compile.load import load_game
from ..play import Session, replay_states
from ..render import render_result
from ..saves import SAVE_FORMAT, Journal, bot_states, read_saved, restore_bots, seats_for_players, write_atomically
from .looks import seat_view

LOADING = threading.Lock()          # parsing, checking and compiling touch the process's caches
SAVE_NAME = "table.json"            # in the save folder: the game, in the format of `play`'s saves,
                                    # continued by table.json.journal (cli/saves.py Journal)
PAGE_WIDTH = 10_000                 # the result's lines as they are (the browser wraps them), not
                                    # fitted to the terminal the server runs in
TOKENS_NAME = "links.json"          # beside it, readable by its owner only: the links' tokens


class Refused(Exception):
    """A request the table will not carry out: an HTTP status and a sentence for the player."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class WebTable:
    def __init__(self, game, setup: dict, save_dir: str | Path, randoms: dict | None = None,
                 tokens: dict | None = None):
        self.save_dir = Path(save_dir)
        self.listeners: list = []       # called (without arguments) after every change
        self.journal = Journal(self.save_dir / SAVE_NAME)
        self._writes: collections.deque = collections.deque()   # ("snapshot", (text, key)) or ("entry", dict)
        self._journal_lines = 0         # queued since the last snapshot queued
        self._save_lock = threading.Lock()
        self._lock = threading.Lock()   # this table's engine work: moves, bots, hints, views
        self.tokens = tokens or {}
        self.epoch = secrets.token_hex(4)      # versions count from 1 again in each server run
        self._start(game, setup, randoms)
        self._write_queued()

    def _start(self, game, setup: dict, randoms: dict | None) -> None:
        """Take up a game (new, resumed or loaded): replay its moves, seat its bots, save it."""
        self.game, self.setup = game, {k: v for k, v in setup.items() if k != "moves"}
        self.seats = setup["seats"]
        self.moves: list[dict] = list(setup.get("moves", []))
        self.sealed_before: list[bool] = []     # per move: whether a sealed choice was open before it
        self.shows: list = []           # (title, step, state) of each `show` statement on this table
        self._replaying = threading.get_ident()     # the shows of the start and of the replayed moves
        game.on_show = self._on_show
        try:
            self.states = replay_states(game, {**self.setup, "moves": self.moves},
                                        lambda st: self.sealed_before.append(st.sealed is not None))
        finally:
            self._replaying = None
        self.st = self.states[-1]       # the game's state: the sequence's last, not a copy
        self.redo: list[dict] = []
        self.bots = {p: make_bot(s, f"{setup['seed']}:{p}", game) for p, s in enumerate(self.seats) if s != "human"}
        restore_bots(self.bots, randoms or {})
        humans = [p for p, s in enumerate(self.seats) if s == "human"]
        known = set(self.tokens.values())
        self.tokens = {k: v for k, v in self.tokens.items() if k == "table" or k.isdigit() and int(k) in humans}
        for key in ["table"] + [str(p) for p in humans]:
            if key not in self.tokens:
                token = secrets.token_urlsafe(24)
                while token in known:
                    token = secrets.token_urlsafe(24)
                self.tokens[key] = token
        self.humans = humans
        self.version = getattr(self, "version", 0) + 1
        self._snapshot()
        self.save_dir.mkdir(parents=True, exist_ok=True)
        path = self.save_dir / TOKENS_NAME
        write_atomically(path, json.dumps(self.tokens, indent=1))
        os.chmod(path, 0o600)

    # ------------------------------------------------------------------ who asks
    def who(self, token) -> int | None:
        """The seat a link plays (None: the table link), or 404 for a token that is none."""
        if isinstance(token, str):
            for key, known in self.tokens.items():
                if secrets.compare_digest(known.encode(), token.encode()):
                    return None if key == "table" else int(key)
        raise Refused(404, "no table at this link: ask for the link again")

    def viewer(self, seat: int | None) -> int | None:
        """Whose eyes a link has: its seat's, or at the table link the human seat to move (else
        the only human seat, else a spectator's)."""
        if seat is not None:
            return seat
        decision = self.st.pending
        if decision is not None and decision.player in self.humans:
            return decision.player
        return self.humans[0] if len(self.humans) == 1 else None

    def _check_move(self, move) -> None:
        """The move number a page sent must be the table's: else it acted on a stale table."""
        if type(move) is not int:
            raise Refused(400, "'move' must be the move number the page shows (a whole number)")
        if move != len(self.st.history):
            raise Refused(409, f"the table has moved on (move {len(self.st.history)}, not {move}): reload")

    def _check_turn(self, seat: int | None, move) -> int:
        """The seat that acts now for a link, after checking the move number it saw."""
        self._check_move(move)
        if self.st.finished:
            raise Refused(409, "the game is over")
        player = self.st.pending.player
        if player not in self.humans:
            raise Refused(409, f"{self.game.player_name(player)} ({self.seats[player]}) is to move, not you")
        if seat is not None and seat != player:
            raise Refused(403, f"it is {self.game.player_name(player)}'s move, not {self.game.player_name(seat)}'s")
        return player

    # ------------------------------------------------------------------ actions
    def choose(self, token, move, option) -> None:
        """A human seat takes an option, given by its index (a whole number) or its id (text)."""
        with self._working():
            self._check_turn(self.who(token), move)
            decision = self.game.decision(self.st)
            if type(option) is int:
                if not 0 <= option < len(decision.options):
                    raise Refused(400, f"option {option} is not one of the {len(decision.options)} options")
                index = option
            elif isinstance(option, str) and len(option) <= 200:
                ids = [o.id for o in decision.options]
                if option not in ids:
                    raise Refused(400, f"'{option[:40]}' is not one of the options")
                index = ids.index(option)
            else:
                raise Refused(400, "'option' must be an option's number or id")
            self.redo = []
            self._apply(index)

    def bot_move(self) -> bool:
        """If a bot is to move, let it choose and play; False when no bot is to move. The bot
        thinks on a copy outside the table's lock, so the table's pages are answered meanwhile;
        its choice is dropped if the table changed (an undo, a load) while it thought."""
        with self._lock:
            if self.st.finished or self.st.pending.player not in self.bots:
                return False
            version, st, bot = self.version, self.st.copy(), self.bots[self.st.pending.player]
        index = bot.choose(self.game, st)
        with self._working():
            if self.version == version:
                self._apply(index)
        return True

    def bot_to_move(self) -> bool:
        return not self.st.finished and self.st.pending.player in self.bots

    def _apply(self, index: int) -> None:
        decision = self.game.decision(self.st)
        option = decision.options[index]
        self.sealed_before.append(self.st.sealed is not None)
        entry = {"at": len(self.moves)}
        self.moves.append({"player": decision.player, "seat": self.seats[decision.player],
                           "prompt": decision.prompt, "id": option.id, "label": option.label})
        entry["moves"] = self.moves[-1:]
        if decision.player in self.bots:
            entry["bots"] = bot_states({decision.player: self.bots[decision.player]}, self.seats)
        self.game.apply_index(self.st, index)
        self.states.grown(self.st)
        self._changed(entry)

    def undo(self, token, move) -> None:
        with self._working():
            seat = self.who(token)
            self._check_move(move)
            k = self._undo_point(seat)
            self.redo = self.moves[k:] + self.redo
            self.st = self.states.back_to(k)        # the moves after k leave self.moves too
            del self.sealed_before[k:]
            self.shows = [s for s in self.shows if s[1] <= k]
            self._changed({"at": k, "moves": []})

    def _undo_point(self, seat: int | None) -> int:
        """The index of the move an undo takes back (see the module's rule)."""
        human = [i for i, m in enumerate(self.moves) if m["seat"] == "human"]
        if not human:
            raise Refused(409, "nothing to undo")
        last = human[-1]
        if seat is None or len(self.humans) == 1:
            return last
        if self.moves[last]["player"] != seat:
            raise Refused(409, f"{self.game.player_name(self.moves[last]['player'])} has moved since: "
                               "only the last human move can be taken back, by whoever made it")
        return last

    def redo_move(self, token, move) -> None:
        with self._working():
            seat = self.who(token)
            self._check_move(move)
            if not self.redo:
                raise Refused(409, "nothing to redo")
            if seat is not None and len(self.humans) > 1 and self.redo[0]["player"] != seat:
                raise Refused(403, "only the player who made that move can redo it")
            first, *rest = self.redo
            replayed = [first] + [m for m in _until_human(rest)]
            self.redo = rest[len(replayed) - 1:]
            for entry in replayed:
                ids = [o.id for o in self.game.decision(self.st).options]
                self._apply(ids.index(entry["id"]))

    def hint(self, token, move) -> str:
        """The search bot's view of the options (the terminal's `hint`, as text)."""
        with self._lock:
            self._check_turn(self.who(token), move)
            lines: list[str] = []
            session = Session(self.game, {**self.setup, "moves": list(self.moves)}, self.st.copy(),
                              out=lines.append, ask=None, pause=lambda text: None)
            self.game.on_show = self._on_show       # the session took the hook; the hint plays on copies
        session.hint()                  # outside the lock: the table's pages are answered meanwhile
        return "\n".join(lines)

    def load(self, token, text: str) -> None:
        """Replace the game by a save of the same game (the table link only)."""
        with self._working():
            if self.who(token) is not None and len(self.humans) > 1:
                raise Refused(403, "only the table link can load a game")
            try:
                data = json.loads(text)
            except (ValueError, RecursionError):
                raise Refused(400, "the file is not a saved game (not JSON)")
            if not isinstance(data, dict) or data.get("game") != self.setup["game"] \
                    or data.get("variant") != self.setup["variant"]:
                raise Refused(400, "the file is not a saved game of this game and variant")
            # A folder of its own: a save finds its game beside it when the name is no path
            # from here, and nothing beside an upload may shadow the table's game.
            with tempfile.TemporaryDirectory() as folder:
                path = os.path.join(folder, "upload.json")
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(text)
                try:
                    game, setup, _st, randoms = read_saved(path, SAVE_FORMAT, _load_alone)
                except (UsageError, BoardwrightError) as exc:
                    raise Refused(400, str(exc).replace(path, "the file"))
            self._start(game, setup, randoms)
            self._changed()

    def save_text(self, token) -> str:
        """The save file (the whole state: the table link, or a table with one human seat)."""
        with self._lock:
            if self.who(token) is not None and len(self.humans) > 1:
                raise Refused(403, "a save holds every seat's hidden cards: only the table link can save")
            return json.dumps(self._save_data(), indent=1)

    # ------------------------------------------------------------------ saving and telling
    def _save_data(self) -> dict:
        return {"format": SAVE_FORMAT, **self.setup, "moves": self.moves,
                "bots": bot_states(self.bots, self.seats), "state": self.st.to_json()}

    def _snapshot(self) -> None:
        """Under the table's lock: the whole save queued (compact JSON: a long game's state is
        large), with a new journal after it."""
        key = Journal.new_key()
        text = json.dumps({**self._save_data(), "journal": key}, separators=(",", ":"))
        self._writes.append(("snapshot", (text, key)))
        self._journal_lines, self._snapshot_moves = 0, len(self.moves)

    def _changed(self, entry: dict | None = None) -> None:
        """Under the table's lock: a new version, its journal line (or a snapshot, when one is
        due) queued to be written once the lock is let go."""
        self.version += 1
        if entry is not None:
            self._writes.append(("entry", entry))
            self._journal_lines += 1
            if Journal.due(self._journal_lines, self._snapshot_moves):
                self._snapshot()

    def _write_queued(self) -> None:
        """The queued writes, in the order queued (whichever thread comes first writes them all)."""
        with self._save_lock:
            while self._writes:
                kind, payload = self._writes.popleft()
                if kind == "snapshot":
                    self.save_dir.mkdir(parents=True, exist_ok=True)
                    self.journal.snapshot(*payload)
                else:
                    self.journal.append(payload)

    @contextlib.contextmanager
    def _working(self):
        """The table's lock for a change; after it, the change saved (outside the lock, so that
        the disk does not hold up the table's views) and told to the listeners."""
        with self._lock:
            version = self.version
            yield
            changed = self.version != version
        if changed:
            self._write_queued()
            for listener in list(self.listeners):
                listener()

    def _on_show(self, st, title: str) -> None:
        replayed = self._replaying == threading.get_ident()      # (a bot thinks in another thread)
        if replayed or st is self.st:   # not a bot's or a hint's copy
            self.shows.append((title, len(st.history), st.copy()))

    # ------------------------------------------------------------------ views
    def view(self, token) -> dict:
        with self._lock:
            seat = self.who(token)
            eyes = self.viewer(seat)
            view = seat_view(self.game, self.st, eyes, self.seats)
            view.update(version=self.version, epoch=self.epoch, link="table" if seat is None else "seat", you=seat,
                        humans=self.humans, history=self._history(eyes),
                        shows=[{"title": t, "step": step, "index": i} for i, (t, step, _) in enumerate(self.shows)],
                        can_undo=self._may(self._undo_point, seat), can_redo=bool(self.redo) and (
                            seat is None or len(self.humans) == 1 or self.redo[0]["player"] == seat),
                        can_save=seat is None or len(self.humans) == 1,
                        thinking=self.bot_to_move(),
                        private=any(meta[1] == "owner" for meta in self.game.zone_meta.values())
                        or self.st.sealed is not None)
            if self.st.finished:
                view["result"] = render_result(self.game, self.game.result(self.st), width=PAGE_WIDTH)
            if seat is None:
                view["links"] = {str(p): self.tokens[str(p)] for p in self.humans}
            return view

    def past(self, token, step, show=None) -> dict:
        """A past position (after `step` moves, or as the `show` numbered `show` drew it), as
        the link's seat saw it (the table link: as a spectator)."""
        with self._lock:
            seat = self.who(token)
            if show is not None:
                if type(show) is not int or not 0 <= show < len(self.shows):
                    raise Refused(400, f"'show' must be from 0 to {len(self.shows) - 1}")
                title, step, st = self.shows[show]
            else:
                if type(step) is not int or not 0 <= step < len(self.states):
                    raise Refused(400, f"'step' must be a move number from 0 to {len(self.states) - 1}")
                title, st = None, self.states[step]
            view = seat_view(self.game, st, seat, self.seats)
            view.pop("decision", None)      # a past decision is not to be made again
            view.update(step=step, shown=title)
            return view

    def _history(self, eyes: int | None) -> list[dict]:
        out = []
        for step, m in enumerate(self.moves, 1):
            sealed = self.sealed_before[step - 1] and m["player"] != eyes
            own = m["player"] == eyes or m["seat"] != "human"
            out.append({"step": step, "player": m["player"], "name": self.game.player_name(m["player"]),
                        "plays": m["seat"], "label": "a sealed choice" if sealed else m["label"],
                        "prompt": m["prompt"] if own and not sealed else None})
        return out

    @staticmethod
    def _may(check, *args) -> bool:
        try:
            check(*args)
            return True
        except Refused:
            return False


def _load_alone(game_ref, variant=None):
    """load_game, one table at a time (see LOADING)."""
    with LOADING:
        return load_game(game_ref, variant)


def _until_human(moves: list):
    """The bot moves at the head of `moves`, up to its first human move."""
    for m in moves:
        if m["seat"] == "human":
            return
        yield m


def open_table(game_ref: str, variant, players: int | None, seats: list | None, seed: int, save_dir: Path,
               load=load_game, params: dict | None = None, new: bool = False,
               notes: list | None = None) -> tuple[WebTable, bool]:
    """The table of `serve`: the game saved in `save_dir` resumed (unless `new`), else a new one.
    Returns the table and whether it was resumed; what resuming dropped (a journal line cut
    short) goes to `notes`."""
    saved = save_dir / SAVE_NAME
    if saved.exists() and not new:
        game, setup, _st, randoms = read_saved(str(saved), SAVE_FORMAT, load, notes)
        if setup["game"] != game_ref or setup["variant"] != variant:
            raise UsageError(f"{save_dir} holds a game of {setup['game']}"
                             + (f" ({setup['variant']})" if setup["variant"] else "")
                             + ": add --new to start a new game there, or give another --save-dir")
        tokens = {}
        try:
            loaded = json.loads((save_dir / TOKENS_NAME).read_text(encoding="utf-8"))
            if isinstance(loaded, dict):
                tokens = {str(k): v for k, v in loaded.items() if isinstance(v, str) and len(v) >= 16}
        except (OSError, ValueError):
            pass                        # new links are made
        return WebTable(game, setup, save_dir, randoms, tokens), True
    game = load(game_ref, variant)
    game.set_params(params or {})
    players = players or game.min_players
    seats = seats or ["human"] + ["random"] * (players - 1)
    if len(seats) != players:
        raise UsageError(f"--seats names {seats_for_players(seats, players)}")
    for p, s in enumerate(seats):
        if s != "human":
            make_bot(s, p, game)
    game.new_state(players, seed)       # a player count the game does not take is refused here
    setup = {"game": game_ref, "variant": variant, "params": params or {}, "players": players, "seed": seed,
             "seats": seats, "moves": []}
    return WebTable(game, setup, save_dir), False
