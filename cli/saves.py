"""Saved games and game logs of `boardwright play`: written so that nothing is lost, read
as untrusted input.

Writing: a whole file is written to a temporary file beside it and renamed over it
(`os.replace`), so an interruption leaves the last complete version, never an empty file.
A save holds every bot seat's random state, so a resumed game continues exactly as the
unsaved one would have.

Reading: the JSON must match dsl/schemas/saved-game.schema.json, then its moves are replayed
against the rules from the setup it names, each by the player and seat it says; a save's
state must be the one its moves lead to. Anything else is "the saved game is damaged: ..."
(exit 2). The state that play continues from is the replayed one, never the file's.

A save or log written on every move (the web table's save, `play --log`) is a snapshot
and a journal (`Journal`, `JournaledFile`):
rewriting the whole save after each move costs more the longer the game, so each move is
one line appended to `NAME.journal` beside the snapshot (flushed to disk), and the snapshot
is rewritten only when the journal has grown by half the moves the snapshot holds (so the
rewriting costs a constant per move on average). The snapshot names its journal by a random
key that the journal's first line repeats: a journal with another key is older than its
snapshot (a kill between the two writes) and is ignored. A journal's last line cut short
(a kill during the append) is dropped with a note: at most the last move is lost.
"""
from __future__ import annotations

import errno
import json
import os
import random
import secrets
import signal
import tempfile
import threading
from pathlib import Path

from ..dsl.errors import BoardwrightError, UsageError, clipped, counted, read_regular
from ..dsl.schema_words import SCHEMA_DIR, deepest_errors, json_position, schema_message, validator
from ..interpreter.bots.registry import make_bot

SAVE_FORMAT = "boardwright-save/2"
LOG_FORMAT = "boardwright-log/1"
JOURNAL_FORMAT = "boardwright-journal/1"
SNAPSHOT_EVERY = 64         # journal lines before a snapshot is rewritten, at least
MAX_FILE_BYTES = 64 * 1024 * 1024       # far above any real game's log; refuses a memory bomb
SCHEMA_FILE = "saved-game.schema.json"      # in dsl/schemas/, published in docs/cli.md
SCHEMA_PATH = SCHEMA_DIR / SCHEMA_FILE


class DamagedFile(UsageError):
    """A save or log that cannot be continued or replayed (exit 2)."""


# A termination (kill, a closed terminal) during a write would leave its temporary file behind:
# such signals wait until the write is done or undone (Ctrl-C is an exception, cleaned up below).
_HELD_SIGNALS = {getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)}


def write_atomically(path: str | Path, text: str, newline: str | None = None, mode: int | None = None) -> None:
    """Replace a file's contents all at once: readers see the old or the new version (with
    `mode`, the new file gets that mode; `newline` as for `open`)."""
    path = Path(path)
    held = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    if held:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_SIGNALS)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name[:100]}.", suffix=".tmp", dir=path.parent or ".")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            if mode is not None:
                os.chmod(temp, mode)
            os.replace(temp, path)
        except BaseException:
            try:
                os.unlink(temp)
            except OSError:
                pass
            raise
    finally:
        if held:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


def journal_path(path: str | Path) -> Path:
    path = Path(path)
    return path.with_name(path.name + ".journal")


class Journal:
    """A save kept as a snapshot (the whole save, written atomically) and an append-only
    journal of the changes since (see the module's docstring). Each journal line is
    {"at": k, "moves": [...], "bots": [...]}: the game's moves cut back to the first k, then
    these moves added (a move: k is the count before it; an undo: no moves), and the random
    states of the bots that moved (optional)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    @staticmethod
    def due(lines: int, snapshot_moves: int) -> bool:
        """Whether a snapshot is due after `lines` journal lines on a snapshot of that many moves."""
        return lines >= max(SNAPSHOT_EVERY, snapshot_moves // 2)

    @staticmethod
    def new_key() -> str:
        return secrets.token_hex(8)

    def snapshot(self, text: str, key: str) -> None:
        """Write the snapshot (its JSON names `key` as its "journal"), then a new journal."""
        write_atomically(self.path, text)
        write_atomically(journal_path(self.path), json.dumps({"format": JOURNAL_FORMAT, "journal": key}) + "\n")

    def append(self, entry: dict) -> None:
        """One line, on the disk before this returns (in one write: a kill cuts it short at worst)."""
        with open(journal_path(self.path), "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, separators=(",", ":")) + "\n")
            handle.flush()
            os.fsync(handle.fileno())


class JournaledFile:
    """A save or log written after every move (`play --log`) as a snapshot and a journal
    (`Journal`), so that a write costs the same early and late in a long game. `write(data)`
    takes the whole document each time; its moves must only have grown or been cut back
    (a move, an undo, a redo) since the last write. `finish(data)` writes it as one whole
    file, without a journal (the game is over, or left)."""

    def __init__(self, path: str | Path):
        self.journal = Journal(path)
        self.written = None             # the moves the file and its journal hold
        self.lines = self.base = 0

    def write(self, data: dict) -> None:
        moves = data["moves"]
        if self.written is None or Journal.due(self.lines + 1, self.base):
            key = Journal.new_key()
            self.journal.snapshot(json.dumps({**data, "journal": key}, indent=1), key)
            self.lines, self.base = 0, len(moves)
        else:
            at = min(self.written, len(moves))
            self.journal.append({"at": at, "moves": moves[at:]})
            self.lines += 1
        self.written = len(moves)

    def finish(self, data: dict) -> None:
        write_atomically(self.journal.path, json.dumps(data, indent=1))
        journal_path(self.journal.path).unlink(missing_ok=True)     # no longer named by the file


def read_journal(path: str | Path, key, moves: list, damaged, notes: list | None) -> tuple[list, list]:
    """The moves of a snapshot with its journal's changes made, and the bots' random states
    the journal holds (latest last). No journal, or one with another key: no changes."""
    where = journal_path(path)
    if key is None or not where.exists():
        return moves, []
    shown = clipped(where)
    try:
        raw = read_regular(str(where), MAX_FILE_BYTES)
    except OSError as exc:
        raise damaged(f"its journal {shown} cannot be read: {exc.strerror or exc}")
    lines = raw.split(b"\n")
    complete = lines[:-1]               # the last piece has no newline: cut short, or empty
    entries, torn = [], bool(lines[-1].strip())
    for number, line in enumerate(complete, 1):
        try:
            entry = json.loads(line.decode("utf-8"))
        except (ValueError, RecursionError):
            if number == len(complete) and not torn:
                torn = True             # a line cut short at the very end: the write was interrupted
                continue
            raise damaged(f"line {number} of its journal {shown} is not JSON")
        entries.append((number, entry))
    if not entries or entries[0][1] != {"format": JOURNAL_FORMAT, "journal": key}:
        if entries and isinstance(entries[0][1], dict) and entries[0][1].get("format") == JOURNAL_FORMAT:
            return moves, []            # the journal of an older snapshot: the snapshot has it all
        raise damaged(f"its journal {shown} does not start with its key")
    if torn and notes is not None:
        notes.append(f"the last line of the journal {shown} was cut short (an interrupted "
                     "write) and is dropped: the last move made may have to be made again")
    moves, randoms = list(moves), []
    for number, entry in entries[1:]:
        problem = _entry_problem(entry, len(moves))
        if problem:
            raise damaged(f"line {number} of its journal {shown}: {problem}")
        del moves[entry["at"]:]
        moves.extend(entry["moves"])
        randoms.extend(entry.get("bots", []))
    return moves, randoms


_MOVE_KEYS = {"player": int, "seat": str, "prompt": str, "id": str, "label": str}


def _entry_problem(entry, count: int) -> str | None:
    if not isinstance(entry, dict) or set(entry) - {"at", "moves", "bots"}:
        return "not a journal entry ({\"at\": ..., \"moves\": [...]})"
    at, moves = entry.get("at"), entry.get("moves")
    if type(at) is not int or not 0 <= at <= count:
        return f"'at' must be a move count from 0 to {count}"
    if not isinstance(moves, list) or not all(
            isinstance(m, dict) and set(m) <= set(_MOVE_KEYS) and {"player", "id"} <= set(m)
            and all(type(m[k]) is _MOVE_KEYS[k] for k in m) for m in moves):
        return "'moves' must be a list of moves"
    bots = entry.get("bots", [])
    if not isinstance(bots, list) or not all(isinstance(b, dict) and set(b) == {"seat", "bot", "random"}
                                             and type(b["seat"]) is int and isinstance(b["random"], list)
                                             for b in bots):
        return "'bots' must be a list of bot random states"
    return None


def seats_for_players(seats: list, players) -> str:
    """'1 seat for 2 players', '3 seats for 2 players': a seat list that does not fit the count."""
    return f"{counted(len(seats), 'seat')} for {players} players"


def bot_states(bots: dict, seats: list) -> list:
    """Each bot seat's random state, for a save."""
    out = []
    for seat, bot in sorted(bots.items()):
        version, internal, _gauss = bot.rng.getstate()
        out.append({"seat": seat, "bot": seats[seat], "random": list(internal)})
    return out


def read_saved(path: str, expected_format: str, load_game, notes: list | None = None):
    """A save or a log, validated: (game, setup, replayed state, bot random states by seat).
    A save's journal (see `Journal`) is read too; what was dropped from it goes to `notes`."""
    what = "saved game" if expected_format == SAVE_FORMAT else "game log"

    text = ""

    def damaged(problem: str, where=None, key: bool = False):
        """The error for a damaged file; `where` (keys and indexes) adds the line and column."""
        at = str(path)[:200]
        if where is not None and text:
            line, column = json_position(text, where, key)
            at += f":{line}:{column}"
        return DamagedFile(f"the {what} is damaged: {problem} ({at})")

    try:
        raw = read_regular(path, MAX_FILE_BYTES)      # a FIFO or a device is refused, never read
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise damaged(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
        raise UsageError(f"cannot read the {what} {str(path)[:200]}: {exc.strerror or exc}")
    try:
        text = raw.decode("utf-8-sig")
        data = json.loads(text)
    except UnicodeDecodeError as exc:
        raise damaged(f"not UTF-8 text at byte {exc.start}")
    except json.JSONDecodeError as exc:
        raise damaged(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")
    except (ValueError, RecursionError) as exc:     # a 5,000-digit number, nesting without end
        raise damaged(f"not JSON that can be read: {str(exc)[:100]}")
    if not isinstance(data, dict) or data.get("format") != expected_format:
        found = data.get("format") if isinstance(data, dict) else None
        raise damaged(f"not a {what}: its format is {str(found)[:40]!r}, not {expected_format!r}"
                      + (" (a save of an older version: start the game again)"
                         if found == "boardwright-save/1" else ""), ["format"] if isinstance(data, dict) else [])
    from jsonschema.exceptions import relevance
    errors = deepest_errors(validator(SCHEMA_FILE).iter_errors(data))
    if errors:
        error = min(errors, key=lambda e: (list(map(str, e.absolute_path)), relevance(e)))
        where, message, _ = schema_message(error)
        raise damaged(message, where, key=error.validator == "additionalProperties")
    game_ref = data["game"]
    if not (game_ref.endswith(".game") or Path(game_ref).is_dir() or "/" not in game_ref and "\\" not in game_ref):
        raise damaged("'game' names no rule file", ["game"])
    try:
        game = load_game(game_path(game_ref, path), data.get("variant"))
    except UsageError as exc:       # no such game or variant: say which file names it
        raise UsageError(f"the {what} {str(path)[:200]}:{':'.join(map(str, json_position(text, ['game'])))} "
                         f"names a game that cannot be loaded: {exc}")
    seats = data["seats"]
    try:
        game.set_params(data.get("params") or {})
    except UsageError as exc:
        raise damaged(str(exc), ["params"])
    try:
        st = game.new_state(data["players"], data["seed"])
        if len(seats) != data["players"]:
            raise damaged(seats_for_players(seats, data["players"]), ["seats"])
        bots = {p: make_bot(s, p, game) for p, s in enumerate(seats) if s != "human"}
    except DamagedFile:
        raise
    except UsageError as exc:
        raise damaged(str(exc))
    _replay(game, st, data["moves"], seats, damaged)
    moves, journal_bots = read_journal(path, data.get("journal"), data["moves"], damaged, notes)
    randoms = {}
    for number, entry in enumerate(data.get("bots", [])):
        seat = entry["seat"]
        if seat >= len(seats) or seats[seat] != entry["bot"] or seat not in bots:
            raise damaged(f"bot '{entry['bot'][:40]}' of seat {seat + 1} does not sit there", ["bots", number])
        try:
            random.Random().setstate((3, tuple(entry["random"]), None))
        except (ValueError, TypeError, OverflowError):
            raise damaged(f"the random state of seat {seat + 1}'s bot is not one", ["bots", number, "random"])
        randoms[seat] = entry["random"]
    if expected_format == SAVE_FORMAT:
        missing = [p + 1 for p in bots if p not in randoms]
        if missing:
            raise damaged(f"no random state for the bot of seat {missing[0]}")
        if "state" not in data:
            raise damaged("no state")
        if json.loads(json.dumps(st.to_json())) != data["state"]:
            raise damaged(f"its state is not the one its {len(data['moves'])} moves lead to", ["state"])
    if moves is not data["moves"]:      # the journal's moves, replayed after the snapshot's
        st = _replay_journal(game, st, data, moves, seats, damaged)
        for entry in journal_bots:
            seat = entry["seat"]
            if seat >= len(seats) or seats[seat] != entry["bot"] or seat not in bots:
                raise damaged(f"its journal holds a random state for seat {seat + 1}, which no such bot sits at")
            try:
                random.Random().setstate((3, tuple(entry["random"]), None))
            except (ValueError, TypeError, OverflowError):
                raise damaged(f"its journal's random state of seat {seat + 1}'s bot is not one")
            randoms[seat] = entry["random"]
    setup = {k: data.get(k) for k in ("game", "variant", "params", "players", "seed", "seats")}
    setup["params"] = setup["params"] or {}
    setup["moves"] = list(moves)
    return game, setup, st, randoms


def _replay_journal(game, st, data: dict, moves: list, seats: list, damaged):
    """The state after a journal's moves: from the snapshot's state when the journal only
    adds moves, else (an undo went back past the snapshot) from the start."""
    kept = len(data["moves"])
    if moves[:kept] != data["moves"]:
        st, kept = game.new_state(data["players"], data["seed"]), 0

    def in_journal(problem: str, where=None, key: bool = False):
        return damaged(f"in its journal, {problem}")
    _replay(game, st, moves[kept:], seats, in_journal, first=kept + 1)
    return st


def game_path(game_ref: str, saved_at) -> str:
    """Where the game a save or log names is: as named when that is an absolute path or a
    path from the current folder; else the same path taken from the file's own folder, so
    that a log and its game can move together; else as named (a bundled game's name). Logs
    written before 2026-11 name an absolute path, which is taken as it is."""
    try:
        if Path(game_ref).is_absolute() or Path(game_ref).exists():
            return game_ref
        beside = Path(saved_at).parent / game_ref
        return str(beside) if beside.exists() else game_ref
    except OSError:         # a name over the system's limit: load_game says what is wrong
        return game_ref


def _replay(game, st, moves: list, seats: list, damaged, first: int = 1) -> None:
    """Apply a file's moves to a new state; each must be the decision's player's legal move.
    `first`: the number of the first of `moves` in the game."""
    for number, move in enumerate(moves, first):
        where = ["moves", number - 1]
        if st.finished:
            raise damaged(f"move {number} comes after the end of the game", where)
        decision = game.decision(st)
        if move["player"] != decision.player:
            raise damaged(f"move {number} is by player {move['player'] + 1}, but player "
                          f"{decision.player + 1} is to move", where)
        if "seat" in move and move["seat"] != seats[decision.player]:
            raise damaged(f"move {number} was made by '{move['seat'][:40]}', but seat {decision.player + 1} "
                          f"is '{seats[decision.player][:40]}'", where)
        ids = [option.id for option in decision.options]
        if move["id"] not in ids:
            raise damaged(f"move {number} ('{move['id'][:40]}') is not one of the options", where + ["id"])
        try:
            game.apply_index(st, ids.index(move["id"]))
        except BoardwrightError as exc:
            raise damaged(f"move {number} fails under the rules: {str(exc)[:200]}", where)


def restore_bots(bots: dict, randoms: dict) -> None:
    for seat, internal in randoms.items():
        bots[seat].rng.setstate((3, tuple(internal), None))
