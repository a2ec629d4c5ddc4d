"""The machine trace of a game: every decision with all its options, as JSON Lines.

`play --trace FILE` writes it while the game is played, `replay LOG --json` writes it for a
logged game. It is the seam for programs that are not Boardwright (a reinforcement-learning
environment, a browser table, a spreadsheet): one JSON object a line, written and flushed as
each decision is made, so a reader can follow a game as it happens and a game cut short
leaves every line before the cut whole. The lines, each checked by
dsl/schemas/trace.schema.json (docs/logs.md shows it):

- `start`: the setup (format, game as named, variant, params, players, seed, seats);
- `decision`: step (from 0), player (seat from 0), seat (human or the bot), prompt, every
  option's id and label in the order offered, and the choice (its index, id and label);
- `undo`: the decisions from `step` on were taken back at the table (`redo` writes them again);
- `end`: finished (true or false when the game was left), and for a finished game the
  scores, score lines, tie-breaks and winners (and opponents' sheets, if any).
"""
from __future__ import annotations

import json

TRACE_FORMAT = "boardwright-trace/1"
TRACE_SCHEMA_FILE = "trace.schema.json"        # in dsl/schemas/, shown in docs/logs.md


def start_record(setup: dict) -> dict:
    return {"type": "start", "format": TRACE_FORMAT,
            **{k: setup.get(k) for k in ("game", "variant", "params", "players", "seed", "seats")}}


def decision_record(game, st, step: int, seats: list, index: int) -> dict:
    """The decision `st` stops at, all its options, and the option chosen (`index`)."""
    decision = game.decision(st)
    chosen = decision.options[index]
    return {"type": "decision", "step": step, "player": decision.player, "seat": seats[decision.player],
            "prompt": decision.prompt, "options": [{"id": o.id, "label": o.label} for o in decision.options],
            "choice": index, "id": chosen.id, "label": chosen.label}


def end_record(game, st) -> dict:
    if not st.finished:
        return {"type": "end", "finished": False, "steps": len(st.history)}
    result = game.result(st)
    out = {"type": "end", "finished": True, "steps": len(st.history), "scores": list(result.scores),
           "lines": [dict(lines) for lines in result.lines], "tiebreaks": [dict(t) for t in result.tiebreaks],
           "winners": list(result.winners)}
    if result.opponents:
        out["opponents"] = [{"title": title, "lines": dict(sheet)} for title, sheet in result.opponents]
    return out


def encode(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def logged_game_records(game, setup: dict):
    """The trace of a logged game (its moves already checked by saves.read_saved), replayed
    once from the start."""
    yield start_record(setup)
    st = game.new_state(setup["players"], setup["seed"])
    for step, move in enumerate(setup["moves"]):
        ids = [o.id for o in game.decision(st).options]
        index = ids.index(move["id"])
        yield decision_record(game, st, step, setup["seats"], index)
        game.apply_index(st, index)
    yield end_record(game, st)


class TraceWriter:
    """A trace written line by line while `play` runs; each line flushed as it is written."""

    def __init__(self, path: str, game, setup: dict, st_at_start, moves: list):
        self.game = game
        self.handle = open(path, "w", encoding="utf-8")
        self.write(start_record(setup))
        if moves:       # a loaded game: the decisions before the save, replayed
            st = st_at_start
            for step, move in enumerate(moves):
                ids = [o.id for o in game.decision(st).options]
                index = ids.index(move["id"])
                self.write(decision_record(game, st, step, setup["seats"], index))
                game.apply_index(st, index)

    def write(self, record: dict) -> None:
        self.handle.write(encode(record))
        self.handle.flush()

    def close(self, st) -> None:
        self.write(end_record(self.game, st))
        self.handle.close()
