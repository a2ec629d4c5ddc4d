"""Every message of a damaged save, log or journal, exactly (cli/saves.py), compared with
`==`: the words docs/cli.md gives (`the saved game is damaged: ...`, `the game log is
damaged: ...`), the problem, and the file's name with the line and column of the problem,
counted here from the JSON text by searching it (not by the code under test). String and
number mutants of a message survive an `in` check; they fail here.

The saves are of a tiny game written here (two players add 1 or 2 to their totals; the
first to 5 ends it), built by hand: Player 1 (human) added 1, Player 2 (greedy) added 2."""
from __future__ import annotations

import json
import random

import pytest

from boardwright.cli import saves
from boardwright.cli.main import main
from boardwright.cli.saves import LOG_FORMAT, SAVE_FORMAT, DamagedFile, read_saved
from boardwright.dsl.errors import UsageError
from boardwright.interpreter.compile.load import load_game

from test_exact_play_screen import RACE


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "race.game").write_text(RACE)
    return tmp_path


def _state(game_path, moves):
    game = load_game(str(game_path))
    st = game.new_state(2, 3)
    for move in moves:
        game.apply(st, move)
    return st


MOVES = [{"player": 0, "seat": "human", "prompt": "Add", "id": "1", "label": "1"},
         {"player": 1, "seat": "greedy", "prompt": "Add", "id": "2", "label": "2"}]
RANDOM = list(random.Random(5).getstate()[1])


def save_data(folder, **changes) -> dict:
    data = {"format": SAVE_FORMAT, "game": "race.game", "variant": None, "params": {}, "players": 2, "seed": 3,
            "seats": ["human", "greedy"], "moves": MOVES,
            "bots": [{"seat": 1, "bot": "greedy", "random": RANDOM}],
            "state": json.loads(json.dumps(_state(folder / "race.game", ["1", "2"]).to_json()))}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not ...}


def position(text: str, needle: str, nth: int = 0, into: int = 0) -> str:
    """'line:column' (1-based) of the nth occurrence of `needle` in `text`, `into` characters in."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += into
    return f"{text.count(chr(10), 0, at) + 1}:{at - text.rfind(chr(10), 0, at)}"


def damaged(folder, data, what=SAVE_FORMAT) -> tuple[str, str]:
    """The message of reading `data` (a dict, or the file's text or bytes) and the file's text."""
    path = folder / "g.save.json"
    text = data if isinstance(data, (str, bytes)) else json.dumps(data, indent=1)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(UsageError) as caught:
        read_saved(str(path), what, load_game)
    return str(caught.value), text


def test_the_save_built_here_is_read(folder):
    game, setup, st, randoms = read_saved(_write(folder, save_data(folder)), SAVE_FORMAT, load_game)
    assert setup == {"game": "race.game", "variant": None, "params": {}, "players": 2, "seed": 3,
                     "seats": ["human", "greedy"], "moves": MOVES}
    assert randoms == {1: RANDOM} and not st.finished


def _write(folder, data) -> str:
    path = folder / "g.save.json"
    path.write_text(json.dumps(data, indent=1))
    return str(path)


def test_text_that_is_no_json_or_no_utf8(folder):
    start = f"the saved game is damaged: "
    where = f"({folder}/g.save.json)"
    assert damaged(folder, "{oops")[0] == \
        start + f"not JSON: Expecting property name enclosed in double quotes at line 1, column 2 {where}"
    assert damaged(folder, b'{"a": "\xff"}')[0] == start + f"not UTF-8 text at byte 7 {where}"
    assert damaged(folder, "[" * 100_000 + "]" * 100_000)[0].startswith(start + "not JSON that can be read: ")


def test_a_file_of_another_format_or_an_older_save(folder):
    for found, extra in (("boardwright-save/1", " (a save of an older version: start the game again)"),
                         (LOG_FORMAT, ""), ("x" * 50, "")):
        message, text = damaged(folder, save_data(folder, format=found))
        shown = repr(found[:40])
        assert message == (f"the saved game is damaged: not a saved game: its format is {shown}, not "
                           f"'boardwright-save/2'{extra} ({folder}/g.save.json:{position(text, json.dumps(found))})")
    message, text = damaged(folder, "[1]")
    assert message == ("the saved game is damaged: not a saved game: its format is 'None', not "
                       f"'boardwright-save/2' ({folder}/g.save.json:1:1)")
    message, text = damaged(folder, save_data(folder), LOG_FORMAT)
    at = position(text, '"boardwright-save/2')
    assert message == ("the game log is damaged: not a game log: its format is 'boardwright-save/2', not "
                       f"'boardwright-log/1' ({folder}/g.save.json:{at})")


def test_a_move_without_its_label_is_a_schema_message_at_the_move(folder):
    moves = [MOVES[0], {k: v for k, v in MOVES[1].items() if k != "label"}]
    message, text = damaged(folder, save_data(folder, moves=moves))
    assert message == ("the saved game is damaged: item 2 of 'moves' needs the key 'label' "
                       f"({folder}/g.save.json:{position(text, '  {', 1, 2)})")


def test_the_game_a_file_names(folder):
    message, text = damaged(folder, save_data(folder, game="cards/race.txt"))
    at = position(text, '"cards/race.txt')
    assert message == f"the saved game is damaged: 'game' names no rule file ({folder}/g.save.json:{at})"
    with pytest.raises(UsageError) as unknown:
        load_game("no-such-game")
    message, text = damaged(folder, save_data(folder, game="no-such-game"))
    at = position(text, '"no-such-game')
    assert message == (f"the saved game {folder}/g.save.json:{at} names a game "
                       f"that cannot be loaded: {unknown.value}")


def test_params_and_seats_that_do_not_fit_the_game(folder):
    with pytest.raises(UsageError) as unknown:
        load_game(str(folder / "race.game")).set_params({"speed": "2"})
    message, text = damaged(folder, save_data(folder, params={"speed": "2"}))
    assert message == (f"the saved game is damaged: {unknown.value} "
                       f"({folder}/g.save.json:{position(text, '{', 1)})")
    message, text = damaged(folder, save_data(folder, seats=["human"]))
    assert message == ("the saved game is damaged: 1 seat for 2 players "
                       f"({folder}/g.save.json:{position(text, '[', 0)})")
    message, text = damaged(folder, save_data(folder, seats=["human", "greedy", "random"]))
    assert message == ("the saved game is damaged: 3 seats for 2 players "
                       f"({folder}/g.save.json:{position(text, '[', 0)})")
    with pytest.raises(UsageError) as bot:
        from boardwright.interpreter.bots.registry import make_bot
        make_bot("clever", 1, load_game(str(folder / "race.game")))
    message, _ = damaged(folder, save_data(folder, seats=["human", "clever"]))
    assert message == f"the saved game is damaged: {bot.value} ({folder}/g.save.json)"


@pytest.mark.parametrize("change, problem, needle", [
    ({"player": 1}, "move 1 is by player 2, but player 1 is to move", ("  {", 0, 2)),
    ({"seat": "random"}, "move 1 was made by 'random', but seat 1 is 'human'", ("  {", 0, 2)),
    ({"seat": "r" * 50}, f"move 1 was made by '{'r' * 40}', but seat 1 is 'human'", ("  {", 0, 2)),
    ({"id": "7"}, "move 1 ('7') is not one of the options", ('"7"', 0, 0)),
    ({"id": "7" * 50}, f"move 1 ('{'7' * 40}') is not one of the options", ('"777', 0, 0)),
])
def test_a_move_that_is_not_the_games(folder, change, problem, needle):
    moves = [dict(MOVES[0], **change), MOVES[1]]
    message, text = damaged(folder, save_data(folder, moves=moves))
    assert message == f"the saved game is damaged: {problem} ({folder}/g.save.json:{position(text, *needle)})"


def test_a_move_after_the_end(folder):
    # Player 1 adds 2 three times (6), Player 2 twice (4): the game is over after 5 moves.
    moves = [{"player": k % 2, "seat": ["human", "greedy"][k % 2], "prompt": "Add", "id": "2", "label": "2"}
             for k in range(6)]
    message, text = damaged(folder, save_data(folder, moves=moves))
    assert message == ("the saved game is damaged: move 6 comes after the end of the game "
                       f"({folder}/g.save.json:{position(text, '  {', 5, 2)})")


def test_the_bots_random_states_and_the_state(folder):
    bots = [{"seat": 0, "bot": "greedy", "random": RANDOM}]
    message, text = damaged(folder, save_data(folder, bots=bots))
    assert message == ("the saved game is damaged: bot 'greedy' of seat 1 does not sit there "
                       f"({folder}/g.save.json:{position(text, '  {', 2, 2)})")
    bots = [{"seat": 1, "bot": "greedy", "random": [1, 2]}]
    message, text = damaged(folder, save_data(folder, bots=bots))
    assert message == ("the saved game is damaged: 'random' of item 1 of 'bots' must have at least 625 items, "
                       f"not 2 ({folder}/g.save.json:{position(text, '[', 3)})")
    bots = [{"seat": 1, "bot": "greedy", "random": [1] * 624 + [700]}]      # its position is past the end
    message, text = damaged(folder, save_data(folder, bots=bots))
    assert message == ("the saved game is damaged: the random state of seat 2's bot is not one "
                       f"({folder}/g.save.json:{position(text, '[', 3)})")
    message, text = damaged(folder, save_data(folder, bots=[]))
    assert message == f"the saved game is damaged: no random state for the bot of seat 2 ({folder}/g.save.json)"
    other = json.loads(json.dumps(_state(folder / "race.game", ["2", "2"]).to_json()))
    message, text = damaged(folder, save_data(folder, state=other))
    at = position(text, '"state": ', 0, 9)
    assert message == ("the saved game is damaged: its state is not the one its 2 moves lead to "
                       f"({folder}/g.save.json:{at})")


def test_a_file_too_large_or_missing(folder, monkeypatch):
    monkeypatch.setattr(saves, "MAX_FILE_BYTES", 2 * 1024 * 1024)
    message, _ = damaged(folder, " " * (2 * 1024 * 1024 + 1))
    assert message == f"the saved game is damaged: larger than 2 MB ({folder}/g.save.json)"
    with pytest.raises(UsageError) as missing:
        read_saved(str(folder / "none.json"), LOG_FORMAT, load_game)
    assert str(missing.value) == f"cannot read the game log {folder}/none.json: No such file or directory"
    assert not isinstance(missing.value, DamagedFile)


def test_play_load_of_a_damaged_save_says_so_and_exits_2(folder, capsys, monkeypatch):
    monkeypatch.chdir(folder)
    path = _write(folder, save_data(folder, moves=[dict(MOVES[0], player=1), MOVES[1]]))
    text = (folder / "g.save.json").read_text()
    capsys.readouterr()
    assert main(["play", "--load", path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("boardwright: error: the saved game is damaged: move 1 is by player 2, but "
                                 f"player 1 is to move ({path}:{position(text, '  {', 0, 2)})\n")


def journal(folder, *lines: str) -> str:
    """The save with a journal (key "k") whose lines are these."""
    path = _write(folder, save_data(folder, journal="k"))
    (folder / "g.save.json.journal").write_text("".join(line + "\n" for line in lines))
    return path


HEAD = json.dumps({"format": "boardwright-journal/1", "journal": "k"})


@pytest.mark.parametrize("lines, problem", [
    (['{"format": "x"}'], "its journal @ does not start with its key"),
    ([HEAD, "{", "{}"], "line 2 of its journal @ is not JSON"),
    ([HEAD, "[]"], "line 2 of its journal @: not a journal entry ({\"at\": ..., \"moves\": [...]})"),
    ([HEAD, '{"at": 3, "moves": []}'], "line 2 of its journal @: 'at' must be a move count from 0 to 2"),
    ([HEAD, '{"at": 2, "moves": [{"id": "1"}]}'], "line 2 of its journal @: 'moves' must be a list of moves"),
    ([HEAD, '{"at": 2, "moves": [], "bots": [1]}'],
     "line 2 of its journal @: 'bots' must be a list of bot random states"),
    ([HEAD, '{"at": 2, "moves": [{"player": 1, "id": "1"}]}'],
     "in its journal, move 3 is by player 2, but player 1 is to move"),
    ([HEAD, json.dumps({"at": 2, "moves": [], "bots": [{"seat": 0, "bot": "greedy", "random": RANDOM}]})],
     "its journal holds a random state for seat 1, which no such bot sits at"),
    ([HEAD, json.dumps({"at": 2, "moves": [], "bots": [{"seat": 1, "bot": "greedy", "random": [1, 2]}]})],
     "its journal's random state of seat 2's bot is not one"),
])
def test_every_journal_message(folder, lines, problem):
    path = journal(folder, *lines)
    with pytest.raises(DamagedFile) as caught:
        read_saved(path, SAVE_FORMAT, load_game)
    assert str(caught.value) == (f"the saved game is damaged: {problem.replace('@', f'{path}.journal')} "
                                 f"({path})")


def test_a_journal_line_cut_short_is_dropped_with_a_note(folder):
    path = journal(folder, HEAD, '{"at": 2, "moves": [{"player": 0, "id": "2"}]}')
    with open(f"{path}.journal", "a") as handle:
        handle.write('{"at": 3, "mo')
    notes = []
    _, setup, st, _ = read_saved(path, SAVE_FORMAT, load_game, notes)
    assert notes == [f"the last line of the journal {path}.journal was cut short (an interrupted write) and "
                     "is dropped: the last move made may have to be made again"]
    assert [m["id"] for m in setup["moves"]] == ["1", "2", "2"] and len(st.history) == 3


def test_a_logs_journal_grows_to_64_lines_then_the_snapshot_is_rewritten(tmp_path):
    """docs/cli.md: FILE is rewritten whole only when the journal has grown by half its moves,
    at least 64 lines (its key line and 63 moves); the moves here are few, so 64 it is."""
    log = saves.JournaledFile(tmp_path / "g.log")
    moves, lengths = [], []
    for k in range(66):
        moves.append({"player": 0, "id": str(k)})
        log.write({"format": LOG_FORMAT, "moves": moves})
        lengths.append(len((tmp_path / "g.log.journal").read_text().splitlines()))
    # the first write is a snapshot (the key line only), then a line a move up to 64 lines
    assert lengths == list(range(1, 65)) + [1, 2]
    assert len(json.loads((tmp_path / "g.log").read_text())["moves"]) == 65


def test_a_journal_that_undoes_past_its_snapshot_replays_from_the_start(folder):
    """An undo back past the snapshot's 2 moves (at 0), then Player 1 adds 2: the game is that
    one move, replayed from a new state (the snapshot's state is no start for it)."""
    path = journal(folder, HEAD, '{"at": 0, "moves": [{"player": 0, "seat": "human", "id": "2"}]}')
    _, setup, st, randoms = read_saved(path, SAVE_FORMAT, load_game)
    assert [m["id"] for m in setup["moves"]] == ["2"] and len(st.history) == 1
    assert json.loads(json.dumps(st.to_json())) == json.loads(json.dumps(_state(folder / "race.game", ["2"]).to_json()))
    assert randoms == {1: RANDOM}
