"""The play screen at 80 x 30 (docs/cli.md, play): the table and the options on one screen
at every human decision, long option lists grouped by their first word or paged, `board`,
`redo`, a command typed at a pause kept for the next prompt, an empty line that says what it
does, the hint table within 80 columns, and a round's winning table drawn before the rules
take its cards away. Played in-process with scripted input."""
from __future__ import annotations

import re

import pytest

from boardwright.cli.play import Session
from boardwright.interpreter.compile.load import load_game

from conftest import SMALL_HEADER, cached_game, make_small_game
from test_testbeds import POLYOMINO, engine, reference

WIDTH, HEIGHT = 80, 30


@pytest.fixture(autouse=True)
def terminal_80_by_30(monkeypatch):
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setenv("LINES", str(HEIGHT))


class Table:
    """A session driven by scripted answers; every line written, and where each prompt came."""

    def __init__(self, game, seats, seed, answers, pause_answers=()):
        self.lines: list[str] = []
        self.prompts: list[int] = []            # len(self.lines) when each '> ' was asked
        self.answers, self.pause_answers = list(answers), list(pause_answers)
        setup = {"game": "g", "variant": None, "params": {}, "players": len(seats), "seed": seed, "seats": seats}
        self.session = Session(game, setup, game.new_state(len(seats), seed), out=self.write, ask=self.ask)
        self.session.pause = self.session._wait_for_enter

    def write(self, text: str) -> None:
        self.lines.extend(text.split("\n"))

    def ask(self, prompt: str = "") -> str:
        if prompt.startswith("(press Enter"):
            return self.pause_answers.pop(0) if self.pause_answers else ""
        self.prompts.append(len(self.lines))
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def run(self) -> "Table":
        self.session.run()
        return self

    def screen(self, n: int) -> list[str]:
        """The last HEIGHT - 1 lines before prompt n (the prompt takes the last line)."""
        end = self.prompts[n]
        return self.lines[max(0, end - (HEIGHT - 1)):end]


def table_header(game) -> str:
    return f"== {game.title}"


CASES = [("punto", 8), ("happy-city", 12), ("point-city", 12), ("urban-panic", 12), ("polyomino", 6)]


@pytest.mark.parametrize("name,decisions", CASES)
def test_the_table_and_the_options_fit_one_80_by_30_screen(name, decisions):
    game = engine(POLYOMINO) if name == "polyomino" else cached_game(name)
    table = Table(game, ["human", "random"], 3, ["1"] * decisions).run()
    assert len(table.prompts) == decisions + 1
    for n in range(len(table.prompts)):
        screen = table.screen(n)
        starts = [i for i, line in enumerate(screen) if line.startswith(table_header(game))]
        assert starts, f"{name}, prompt {n}: the table's first line is off the screen"
        assert re.match(r".*, your move\. ", " ".join(screen[starts[-1]:])), "the decision is on the screen"
    wide = [line for line in table.lines if len(line) > WIDTH]
    assert not wide, wide[:2]


def test_a_long_option_list_is_grouped_by_piece_and_a_group_lists_its_options():
    game, ref = engine(POLYOMINO), reference(POLYOMINO).Polyomino(0)
    pieces = [reference(POLYOMINO).covered(option)[0] for option in ref.options]        # the reference's own enumeration
    table = Table(game, ["human", "random"], 0, ["I5", "more", "quit"]).run()
    first = table.lines[:table.prompts[0]]
    groups = dict(re.findall(r"(\S+) \((\d+)\)", "\n".join(first[first.index(next(
        line for line in first if "groups (by the first word)" in line)) + 1:])))
    assert groups == {name: str(pieces.count(name)) for name in dict.fromkeys(pieces)}
    listed = table.lines[table.prompts[0]:table.prompts[1]]
    numbers = [int(n) for n in re.findall(r"^\s+(\d+)\. I5 on ", "\n".join(listed), re.M)]
    assert len(numbers) == pieces.count("I5") and all(pieces[n - 1] == "I5" for n in numbers)
    assert len(table.screen(1)) <= HEIGHT - 1


def test_a_list_too_long_for_the_screen_is_paged_and_more_turns_the_page():
    game = engine(POLYOMINO)
    table = Table(game, ["human", "random"], 0, ["F", "more", "more", "quit"]).run()
    pages = ["\n".join(table.lines[table.prompts[i]:table.prompts[i + 1]]) for i in range(3)]
    numbers = [[int(n) for n in re.findall(r"^\s+(\d+)\. F on ", page, re.M)] for page in pages]
    ref = reference(POLYOMINO)
    wanted = [i + 1 for i, option in enumerate(ref.Polyomino(0).options) if ref.covered(option)[0] == "F"]
    match = re.search(r"page 1 of (\d+)", pages[0])
    assert match and "page 2 of" in pages[1]
    every = sum(numbers[:int(match.group(1))], []) if int(match.group(1)) <= 2 else None
    assert not set(numbers[0]) & set(numbers[1]), "a page shows options the last one did not"
    assert set(numbers[0]) | set(numbers[1]) <= set(wanted)
    if every is not None:
        assert sorted(every) == wanted and numbers[2] == numbers[0], "the pages cover the group, then start again"


def test_board_draws_the_whole_table_and_an_empty_line_says_what_it_does():
    game = cached_game("happy-city")
    table = Table(game, ["human", "random"], 3, ["1", "", "board", "quit"]).run()
    after_empty = table.lines[table.prompts[1]:table.prompts[2]]
    assert after_empty[0] == "(An empty line draws the screen again; type help for the commands.)"
    assert any(line.startswith(table_header(game)) for line in after_empty)
    board = "\n".join(table.lines[table.prompts[2]:table.prompts[3]])
    assert "+-------------------+" in board, "board draws the cities as pictures"
    assert "+-------------------+" not in "\n".join(after_empty), "the fitted screen does not"


def test_redo_makes_again_what_undo_took_back():
    game = cached_game("punto")
    straight = Table(game, ["human", "random"], 5, ["1", "2"]).run()
    table = Table(game, ["human", "random"], 5, ["redo", "1", "2", "undo", "redo", "redo", "quit"]).run()
    text = "\n".join(table.lines)
    assert text.count("Nothing to redo.") == 2 and "Redone: your move is made again." in text
    assert table.session.st.to_json() == straight.session.st.to_json()
    assert [m["id"] for m in table.session.moves] == [m["id"] for m in straight.session.moves]
    renewed = Table(game, ["human", "random"], 5, ["1", "2", "undo", "1", "redo", "quit"]).run()
    assert "Nothing to redo." in "\n".join(renewed.lines), "a new move forgets what undo took back"


def test_a_command_typed_at_a_pause_runs_at_the_next_prompt():
    game = cached_game("punto")
    table = Table(game, ["human", "random"], 4, ["1"] * 200, pause_answers=["undo"]).run()
    text = "\n".join(table.lines)
    assert "('undo' will run at your next move prompt.)" in text
    kept = text.index("('undo' will run")
    assert "> undo    (typed at the pause)" in text[kept:] and "Undone" in text[kept:]


def test_a_command_typed_at_the_last_pause_is_said_not_to_run():
    game = make_small_game_with_show()
    table = Table(game, ["human", "random"], 1, ["1"] * 10, pause_answers=["undo"]).run()
    assert "(The game is over: 'undo', typed at the pause, was not run.)" in table.lines


def make_small_game_with_show():
    import tempfile
    from pathlib import Path
    folder = Path(tempfile.mkdtemp(prefix="bw-show-"))
    return make_small_game(folder, SMALL_HEADER + """
        zone deck: stack
        zone hand: pile per player
        setup { move components(Card) to deck }
        play {
          turn 0 { choose card from contents(deck) prompt "Take a card" label "{card}"
                   move card to hand[0] }
          show "The end"
        }
        """)


def test_the_winning_table_is_drawn_before_the_rules_take_its_card_away():
    game = load_game("punto")
    states = {}
    table = Table(game, ["random", "random"], 4, [])
    show = table.session.show

    def watched(st, title):
        states.setdefault(title, list(st.zones["removed"]))
        show(st, title)
    game.on_show = watched
    table.session.run()
    title = next(t for t in states if re.match(r"Round 1 goes to", t))
    assert states[title], "when round 1's table is shown, the rules have already removed a card"
    text = "\n".join(table.lines)
    shown = text[text.index(f"== {title}"):]
    shown = shown[:shown.index("\n\n")] if "\n\n" in shown else shown
    assert "table:" in shown and "removed:" not in shown, "the table before the card left"
    assert "(the table as the last move left it" in shown


def test_the_hint_table_fits_80_columns(tmp_path):
    game = make_small_game(tmp_path, SMALL_HEADER + """
        zone deck: stack
        zone hand: pile per player
        setup { move components(Card) to deck }
        play {
          for p in [0, 1, 0, 1] {
            turn p { choose card from contents(deck) prompt "Take a card"
                       label "{card}, a card whose label goes on and on and on, far past the edge of the screen"
                     move card to hand[p] }
          }
        }
        """)
    table = Table(game, ["human", "random"], 1, ["hint", "quit"]).run()
    rows = [line for line in table.lines if re.match(r"^\s+\d+\. .*\d\.\d{3}$", line)]
    assert rows and all(len(line) <= WIDTH for line in table.lines)
    assert all("…" in row for row in rows), "the long labels are cut"
