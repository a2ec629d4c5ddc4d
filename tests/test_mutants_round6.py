"""Behaviour the mutation samples of round 6 found unguarded (tests/mutation_sample.py, seeds 100
and up for exploration, 28 fresh; docs/testing.md "Mutation testing"): each test here was seen
failing with its mutant planted and passing without it. The mutants each one kills are named in
its docstring."""
from __future__ import annotations

import argparse
import re

import pytest

from boardwright.cli.main import build_parser

# Words --help may write in capitals: acronyms, and the placeholders of option values.
CAPITALS = {"CPU", "JSON", "MCTS", "FILE", "NAME", "VALUE", "LOW", "HIGH", "STEP", "MEASURE"}
# Help texts may begin with a name the project writes with a capital, or a file suffix.
CAPITALISED_FIRST_WORDS = ("Hypothesis's ", "CPU ", ".game ")


def help_texts() -> list[tuple[str, str]]:
    """(where, text) for each command's one-line help and description, each argument's help and
    each option group's title and description, as `boardwright --help` and `COMMAND --help`
    print them."""
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    texts = [(f"{a.dest} (command)", a.help) for a in commands._choices_actions]
    for name, parser in commands.choices.items():
        texts.append((f"{name} (description)", parser.description))
        texts += [(f"{name} {'/'.join(a.option_strings) or a.dest}", a.help) for a in parser._actions]
        texts += [(f"{name} group", text) for group in parser._action_groups
                  for text in (group.title, group.description)]
    return [(where, text) for where, text in texts if text is not None]


def test_help_texts_are_lower_case_phrases_with_capitals_only_for_acronyms_and_placeholders():
    """cli/*: every help text --help prints starts in lower case (or with a name written with a
    capital) and writes in capitals only acronyms and value placeholders. Kills the string
    mutants of help texts, which --help shows to every user: `"XXthe port ...XX"`,
    `"SEARCH PARAM VALUES FOR GOALS ..."` (tune's description, cli/tune_commands.py)."""
    texts = help_texts()
    assert len(texts) > 200
    for where, text in texts:
        assert text[0].islower() or text[0] in "\"'(`-" or text.startswith(CAPITALISED_FIRST_WORDS), (where, text)
        capitals = set(re.findall(r"\b[A-Z][A-Z0-9_]+\b", text)) - CAPITALS
        assert not capitals, (where, text, capitals)


def test_a_load_of_no_save_of_this_game_is_refused_with_the_reason(tmp_path):
    """cli/web/table.py WebTable.load: the table link's load says why a file is refused: not
    JSON, a save of another game or variant, a save a seat may not load (the mutant
    "THE FILE IS NOT A SAVED GAME (NOT JSON)" changed the first sentence)."""
    import json
    import pytest
    from boardwright.cli.web.table import Refused
    from web_support import new_table, secret_game
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    link, seat = table.tokens["table"], table.tokens["1"]
    save = json.loads(table.save_text(link))
    refusals = [(link, "{not json", 400, "the file is not a saved game (not JSON)"),
                (link, "[1, 2]", 400, "the file is not a saved game of this game and variant"),
                (link, json.dumps(dict(save, game="Other")), 400, "the file is not a saved game of this game and variant"),
                (link, json.dumps(dict(save, variant="team")), 400, "the file is not a saved game of this game and variant"),
                (seat, json.dumps(save), 403, "only the table link can load a game")]
    for token, text, status, message in refusals:
        with pytest.raises(Refused) as refused:
            table.load(token, text)
        assert (refused.value.status, refused.value.message) == (status, message)
    table.choose(table.tokens["0"], 0, 0)
    assert len(table.moves) == 1
    table.load(link, json.dumps(save))          # the save of the game before its first move
    assert len(table.moves) == 0


def cli_docs_sections() -> dict[str, str]:
    """docs/cli.md's section of each command (from its `## name` heading to the next)."""
    from pathlib import Path
    docs = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    return {m.group(1): re.split(r"^## ", docs[m.end():], maxsplit=1, flags=re.M)[0]
            for m in re.finditer(r"^## (\w+)\n", docs, re.M)}


def test_every_default_an_option_has_is_the_one_its_commands_section_of_the_cli_docs_states():
    """cli/*: each option's default (a number, a bot, a format) is written in docs/cli.md's
    section of its command, as a whole word (5000 also as 5,000). A mutant of a default
    (`default=100` -> `101`, `"greedy"` -> `"XXgreedyXX"`) changes what a user gets without
    asking while --help, which prints the default it has, still agrees with itself."""
    sections = cli_docs_sections()
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    checked = 0
    for name, parser in commands.items():
        for action in parser._actions:
            if not any(o.startswith("--") for o in action.option_strings) or action.default in (None, False, argparse.SUPPRESS):
                continue
            forms = {str(action.default)} | ({f"{action.default:,}"} if isinstance(action.default, int) else set())
            assert any(re.search(r"(?<![\w.,])" + re.escape(form) + r"(?![\w]|[.,]\d)", sections[name]) for form in forms), \
                (name, action.option_strings, action.default)
            checked += 1
    assert checked >= 40


def test_a_search_over_few_points_ends_after_25_known_points_in_a_row(monkeypatch):
    """interpreter/playtest/tune_params.py ParamTuner._search: when the sampler proposes only
    points already played, 25 in a row (STALE_LIMIT) end the search, budget or not (the mutant
    `stale -= 1` searched on until the optuna trials below ran out: the command never ended)."""
    import optuna
    from boardwright.interpreter.playtest.tune_params import STALE_LIMIT
    from test_mutants_round5 import tuned
    assert STALE_LIMIT == 25
    asked = []
    ask = optuna.study.Study.ask

    def counted(study, *args, **kwargs):
        asked.append(1)
        assert len(asked) <= 500, "the search never ends"
        return ask(study, *args, **kwargs)

    monkeypatch.setattr(optuna.study.Study, "ask", counted)
    result = tuned(1)               # k=0..1: two points; a budget of 3,000 games leaves plenty
    played = [t for t in result["trials"] if "losses" in t]
    assert {t["params"]["k"] for t in played} == {0, 1}
    # the trials after the second new point are all known points: the last 25 of them end it
    first_known = max(i for i, t in enumerate(played) if t["params"]["k"] not in {u["params"]["k"] for u in played[:i]})
    assert len(played) - 1 - first_known == STALE_LIMIT


def png_size(path) -> tuple[int, int]:
    """(width, height) in pixels, from a PNG's IHDR chunk."""
    import struct
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_tune_plot_is_1000_by_400_pixels_whatever_the_users_matplotlib_settings(tmp_path):
    """interpreter/playtest/tune_report.py plot_tune: a 10 by 4 inch figure saved at 100 dots
    per inch, also where the user's matplotlibrc sets another resolution (the mutant without
    `dpi=100` saved it at the user's 72 dpi: 720 by 288)."""
    import matplotlib
    from boardwright.interpreter.playtest.tune_report import plot_tune
    from test_mutants_round5 import tuned
    result = tuned(3)
    with matplotlib.rc_context({"figure.dpi": 72, "savefig.dpi": 72}):
        plot_tune(str(tmp_path / "tune.png"), result)
    assert png_size(tmp_path / "tune.png") == (1000, 400)


def answers(app, requests: list[tuple[str, str, bytes | None]]) -> list[tuple[int, object]]:
    """(status, the JSON answer) of each (method, path, body) sent to the ASGI app in process,
    with a Host header a loopback server answers."""
    import anyio
    import httpx

    async def send() -> list[tuple[int, str]]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as client:
            got = []
            for method, path, body in requests:
                answer = await client.request(method, path, content=body, headers={"Content-Type": "application/json"})
                got.append((answer.status_code, answer.json()))
            return got
    return anyio.run(send)


def test_each_refused_request_to_the_web_table_says_why_in_its_own_sentence(tmp_path):
    """cli/web/server.py and cli/web/table.py: each kind of refused request gets its status and
    a sentence naming what was wrong, with the numbers of this table (the secret game of
    web_support: Player 1 to move first, from 4 cards; a body is at most 4 kB, docs/cli.md).
    test_serve.py checks the statuses over a real socket; here every sentence (the string
    mutants of each message, e.g. "nothing to undo" -> "XXnothing to undoXX")."""
    import json
    from boardwright.cli.web.server import LOCAL_HOSTS, build_app
    from web_support import new_table, secret_game
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    seat0, seat1, link = table.tokens["0"], table.tokens["1"], table.tokens["table"]

    def post(token, action, body=None, raw=None):
        return "POST", f"/api/{token}/{action}", raw if raw is not None else json.dumps(body).encode()

    expected = [
        (post("x" * 32, "choose", {"move": 0, "option": 0}), 404, "no table at this link: ask for the link again"),
        (post(seat1, "choose", {"move": 0, "option": 0}), 403, "it is Player 1's move, not Player 2's"),
        (post(seat1, "hint", {"move": 0}), 403, "it is Player 1's move, not Player 2's"),
        (post(seat0, "choose", raw=b'{"move": 0,'), 400, "the request body is not JSON"),
        (post(seat0, "choose", [0, 0]), 400, "the request body must be a JSON object"),
        (post(seat0, "choose", {"move": "0", "option": 0}), 400,
         "'move' must be the move number the page shows (a whole number)"),
        (post(seat0, "choose", {"move": 5, "option": 0}), 409, "the table has moved on (move 0, not 5): reload"),
        (post(seat0, "choose", {"move": 0, "option": 4}), 400, "option 4 is not one of the 4 options"),
        (post(seat0, "choose", {"move": 0, "option": [1]}), 400, "'option' must be an option's number or id"),
        (post(seat0, "choose", {"move": 0, "option": "egret"}), 400, "'egret' is not one of the options"),
        (post(seat0, "choose", {"move": 0, "option": 0, "seat": 1}), 400, "choose takes move, option; unknown: seat"),
        (post(seat0, "cheat", {"move": 0}), 404, "no action 'cheat'; actions: choose, undo, redo, hint"),
        (post(seat0, "choose", raw=b" " * 5000 + b"{}"), 413, "the request is larger than 4,096 bytes"),
        (post(seat0, "undo", {"move": 0}), 409, "nothing to undo"),
        (post(seat0, "redo", {"move": 0}), 409, "nothing to redo"),
        (post(link, "load", raw=b"\xff\xfe"), 400, "the file is not a saved game (not UTF-8 text)"),
        (("GET", f"/api/{seat1}/save", None), 403,
         "a save holds every seat's hidden cards: only the table link can save"),
        (("GET", f"/api/{seat0}/past?step=9", None), 400, "'step' must be a move number from 0 to 0"),
        (("GET", f"/api/{seat0}/past?step=one", None), 400, "'step' must be a whole number"),
        (("GET", f"/api/{seat0}/view?after=-1", None), 400, "'after' must be a version number"),
    ]
    got = answers(build_app([table], LOCAL_HOSTS), [request for request, _, _ in expected])
    assert [(status, answer["error"]) for status, answer in got] == [(status, message) for _, status, message in expected]
    assert table.moves == []


def test_a_load_through_the_server_answers_ok_with_the_tables_new_version(tmp_path):
    """cli/web/server.py load: a save loaded by the table link is answered {"ok": true,
    "version": V}, V the table's version after the load, which the page polls from (the
    mutant `JSONResponse(None)` answered null)."""
    from boardwright.cli.web.server import LOCAL_HOSTS, build_app
    from web_support import new_table, secret_game
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    link = table.tokens["table"]
    save = table.save_text(link).encode()
    table.choose(table.tokens["0"], 0, 0)
    before = table.version
    [(status, answer)] = answers(build_app([table], LOCAL_HOSTS), [("POST", f"/api/{link}/load", save)])
    assert table.moves == [] and table.version > before
    assert (status, answer) == (200, {"ok": True, "version": table.version})


def test_the_web_view_lists_the_vars_a_player_is_shown_by_their_screen_names(tmp_path):
    """cli/web/looks.py var_lines: docs/language.md `var`: a text at the end is the var's screen
    name, `""` or a leading `_` keeps it off the screen, a player reads "Player N", true "yes";
    a per-player var has one value per seat (the mutant `"VALUE"` for the key the page reads
    left every plain var blank)."""
    from boardwright.cli.web.looks import seat_view
    from boardwright.interpreter.compile.load import load_game
    path = tmp_path / "vars.game"
    path.write_text('game "Vars"\nplayers 2\n'
                    'var starter: player = 1 "Round starter"\nvar points: int per player = 3 + p "Points"\n'
                    'var ready: bool = true\nvar _secret: int = 5\nvar quiet: int = 6 ""\nvar plain: int = 7\n'
                    'play {\n  turn 0 { choose n from [1, 2] }\n}\n')
    game = load_game(str(path))
    st = game.new_state(2, 1)
    assert seat_view(game, st, 0, ["human", "human"])["vars"] == [
        {"name": "starter", "title": "Round starter", "value": "Player 2"},
        {"name": "points", "title": "Points", "per_player": ["3", "4"]},
        {"name": "ready", "title": "ready", "value": "yes"},
        {"name": "plain", "title": "plain", "value": "7"}]


def test_a_piece_that_does_not_fit_is_refused_in_a_sentence_naming_the_cell_and_the_turn(tmp_path):
    """interpreter/run/shaped.py place: the rule error names the piece, the anchor, the
    orientation (0 where none is given) and the grid: a 2-cell bar on a 5 by 4 board beside a
    laid dot, the L of test_shapes turned a quarter (3 cells wide) 2 cells from the edge (the
    mutant `turn or 1` said "turned 1" for a piece laid unturned)."""
    import pytest
    from boardwright.interpreter.compile.load import load_game
    from test_shapes import DATA, RULES, piece
    (tmp_path / "pieces.yaml").write_text(DATA)
    (tmp_path / "g.game").write_text(RULES)
    game = load_game(tmp_path / "g.game")
    st = game.new_state(2, seed=1)
    game.move(st, piece(game, "blue dot"), "board", (1, 1), False, 0)
    refused = [("red bar", (0, 1), 0, "red bar does not fit at (0, 1): cell (1, 1) of 'board' is occupied "
                                      "and the grid is not 'stacked'"),
               ("red bar", (4, 0), 0, "red bar does not fit at (4, 0) turned 0: it would reach outside the grid 'board'"),
               ("red bar", (4, 0), None, "red bar does not fit at (4, 0) turned 0: it would reach outside the grid 'board'"),
               ("red ell", (3, 0), 1, "red ell does not fit at (3, 0) turned 1: it would reach outside the grid 'board'"),
               ("red bar", (0, 0), 2, "red bar has 2 orientations (0 to 1), not 2")]
    for label, at, turn, message in refused:
        with pytest.raises(Exception) as caught:
            game.move(st, piece(game, label), "board", at, False, turn)
        assert str(caught.value) == message


def test_positions_in_a_placeholder_holding_an_escape_count_from_the_strings_quote():
    """dsl/build_ast.py text: a placeholder whose text holds an escape (`\\"`) is not found as
    such in the file's text, so its positions count from the string's opening quote (column
    7 of `  log "...`): the expression from column 7 + 1, an error at the end of the 10
    characters of `len("x") +` at column 7 + 11 (the mutant counting from 7 + 1 moved both
    one column right)."""
    from test_parser import stmt, syntax_error, where
    log = stmt('  log "ab {len(\\"x\\")} cd"')
    assert where(log.text) == (2, 7, 2, 27)
    assert where(log.text.parts[1]) == (2, 8, 2, 16)
    error = syntax_error('play {\n  log "ab {len(\\"x\\") +} cd"\n}\n')
    assert (error.span.line, error.span.column) == (2, 18)
    assert error.message == "in placeholder: unexpected '}'; expected an expression"


@pytest.mark.parametrize("argv, message", [
    (["tune", "punto", "--bot", "mcts", "--batch", "3"],
     "boardwright: error: --batch must be even (each batch plays both seatings alike), not 3"),
    (["tune", "punto", "--bot", "mcts", "--games", "4", "--batch", "8"],
     "boardwright: error: --games (4) must be at least --batch (8)"),
    (["tune", "punto", "--bot", "greedy"], "boardwright: error: tune --bot greedy: only mcts has settings to tune"),
    (["tune", "punto", "--bot", "nosuch"],
     "boardwright: error: tune --bot: unknown bot 'nosuch'; bots with settings to tune: mcts"),
    (["tune", "punto", "--bot", "mcts", "--write", "x.game"],
     "boardwright: error: with --bot, --write takes no file name: it writes the declaration into the rule file"),
    (["tune", "punto", "--bot", "mcts", "--decision-seconds", "0"],
     "boardwright tune: error: argument --decision-seconds: expected a positive number of seconds, got '0'"),
    (["tune", "punto", "--bot", "mcts", "--decision-seconds", "inf"],
     "boardwright tune: error: argument --decision-seconds: expected a positive number of seconds, got 'inf'"),
    (["serve", "punto", "--port", "65536"],
     "boardwright serve: error: argument --port: expected a port from 1 to 65535, got '65536'"),
    (["serve", "punto", "--port", "0"], "boardwright serve: error: argument --port: expected a port from 1 to 65535, got '0'"),
])
def test_tune_bot_and_serve_refuse_bad_settings_in_a_sentence_before_any_game(capsys, argv, message):
    """cli/tune_bot_command.py, interpreter/playtest/tune_bot.py, cli/web_commands.py: each bad
    setting is a usage error (exit 2) whose last line says what is wrong and what is allowed
    (the string mutants of these sentences; docs/cli.md "tune", "serve")."""
    code, out, err = outcome(capsys, argv)
    assert code == 2 and out == ""
    assert err.strip().splitlines()[-1] == message


def outcome(capsys, argv) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of one command in process, also one argparse refuses (it
    exits)."""
    from boardwright.cli.main import main
    try:
        code = main(argv)
    except SystemExit as exited:
        code = exited.code
    out, err = capsys.readouterr()
    return code, out, err


def test_a_kept_set_of_64_items_or_more_counts_each_item_as_work_once():
    """interpreter/run/limits.py kept_set: docs/security.md counts membership in a list of 64
    items or more, every item; a comprehension's kept set of such a list counts its items
    once, one of 63 nothing (the mutant `> SHORT_LIST` let 64 items go uncounted)."""
    from boardwright.interpreter.run import limits
    assert limits.SHORT_LIST == 64
    counted = []
    for size in (63, 64, 65):
        limits.reset_work()
        assert limits.kept_set(list(range(size))) == frozenset(range(size))
        counted.append(limits.WORK.n)
    limits.reset_work()
    assert counted == [0, 64, 65]


# The metavars of options that count something (games, players, workers, iterations, ...): a
# whole number of at least 1 (docs/cli.md shows `--games 0` refused: "expected at least 1").
COUNTS = {"B", "C", "G", "I", "K", "L", "N", "R", "W"}
NOT_COUNTS = {("replay", "--step")}         # a move number: 0 is the start of the game


def test_every_option_that_counts_takes_a_whole_number_of_at_least_one():
    """cli/*: each option whose value counts something reads it as a whole number and refuses
    0 and a word (the mutant `type=None` for tune's `--workers` let `--workers 0` through as
    the text "0")."""
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    checked = 0
    for name, parser in commands.items():
        for action in parser._actions:
            if action.metavar not in COUNTS or (name, action.option_strings[-1]) in NOT_COUNTS:
                continue
            assert action.type is not None, (name, action.option_strings)
            assert action.type("2") == 2
            for text, message in (("0", "expected at least 1, got 0"), ("two", "expected a whole number, got 'two'")):
                with pytest.raises(argparse.ArgumentTypeError, match=re.escape(message)):
                    action.type(text)
            checked += 1
    assert checked >= 30


def test_a_grid_too_wide_for_the_screen_cuts_its_long_labels_with_an_ellipsis():
    """cli/render.py render_grid: with `width_limit`, the columns narrow to fit (6 characters
    of axis, then 2 columns each followed by a space: (20 - 6 - 2 + 1) // 2 = 6 wide) and a
    label longer than a column is cut to 5 characters and '…' (the mutant that never cut
    let "Aardvark" push the row past 20 characters)."""
    from boardwright.cli.render import render_grid
    lines = render_grid({"0,0": ["Aardvark"], "1,0": ["Bo"]}, width_limit=20)
    assert lines == ["        0      1   ", "    0 Aardv…   Bo  "]
    assert all(len(line) <= 20 for line in lines)
    assert render_grid({"0,0": ["Aardvark"], "1,0": ["Bo"]}) == ["         0        1    ", "    0 Aardvark    Bo   "]


def test_the_summary_of_no_games_is_zeros_and_an_interval_that_knows_nothing():
    """interpreter/playtest/report.py summarise: with no game played (a run stopped before its
    first game ended) every rate and mean is 0 and each seat's win rate interval is the whole
    of [0, 1], not a division by zero (the mutant `if n or True` divided by 0)."""
    from boardwright.interpreter.playtest.report import summarise
    seat = {"wins": 0, "win_rate": 0, "ci95": (0.0, 1.0), "score_mean": 0.0, "score_sd": 0.0, "lines": {}}
    assert summarise([], {"players": 2}) == {
        "players": 2, "games": 0, "wins": [0, 0], "draws": 0, "scores": [0.0, 0.0],
        "turns": {"mean": 0.0, "min": 0, "max": 0, "sd": 0.0}, "decisions": {"mean": 0.0}, "branching": 0.0,
        "ties": 0.0, "first_player_advantage": 0.0, "lead_changes": 0.0, "endings": {},
        "seats": [{"seat": 0, **seat}, {"seat": 1, **seat}], "by_bot": []}


def test_with_two_humans_only_the_player_of_the_next_move_to_redo_may_redo_it(tmp_path):
    """cli/web/table.py view: `can_redo` (the page's redo button) is the player who made the
    next move to redo, or the table link (the mutant reading redo[1], the move after it, gave
    the button to the wrong seat, and failed when one move was left to redo)."""
    from web_support import new_table, secret_game
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    seat0, seat1, link = table.tokens["0"], table.tokens["1"], table.tokens["table"]
    table.choose(seat0, 0, 0)
    table.choose(seat1, 1, 0)
    table.undo(link, 2)
    table.undo(link, 1)                 # to redo: Player 1's move, then Player 2's
    assert [table.view(token)["can_redo"] for token in (seat0, seat1, link)] == [True, False, True]
    table.redo_move(seat0, 0)           # to redo: Player 2's move
    assert [table.view(token)["can_redo"] for token in (seat0, seat1, link)] == [False, True, True]
    table.redo_move(seat1, 1)
    assert [table.view(token)["can_redo"] for token in (seat0, seat1, link)] == [False, False, False]
    assert len(table.moves) == 2


def card_game(tmp_path, deck_zones: str, prompt: str):
    """A game over web_support's 8 cards, all moved to `deck` in data order (Heron, the last,
    on top), whose first player takes one of them into `taken`, asked `prompt`."""
    from boardwright.interpreter.compile.load import load_game
    from web_support import SECRET_DATA
    (tmp_path / "cards.yaml").write_text(SECRET_DATA)
    (tmp_path / "g.game").write_text(
        f'game "Cards"\nplayers 2\ndata "cards.yaml"\n{deck_zones}zone taken: pile of Card\n'
        'setup { for c in components(Card) { move c to deck } }\n'
        f'play {{ turn 0 {{ choose c from contents(deck) prompt "{prompt}"\n  move c to taken }} }}\n')
    return load_game(tmp_path / "g.game")


def test_a_top_stack_on_the_web_table_shows_its_size_and_its_top_card_only(tmp_path):
    """cli/web/looks.py zone_view: a `top` stack is hidden but for its top card: the page gets
    its size and the top card's look (the mutant `zone["top"] = None` drew a face-down
    stack); an empty one has no top."""
    from boardwright.cli.web.looks import seat_view
    game = card_game(tmp_path, 'zone deck: stack of Card top\nzone spare: stack of Card top\n', "Take")
    zones = {z["key"]: z for z in seat_view(game, game.new_state(2, 1), 0, ["human", "human"])["zones"]}
    # the 8 cards were moved in data order: Heron, the last, lies on top
    assert zones["deck"] == {"key": "deck", "name": "deck", "owner": None, "kind": "stack", "visibility": "top",
                             "hidden": True, "size": 8, "top": {"label": "Heron"}}
    assert zones["spare"] == {"key": "spare", "name": "spare", "owner": None, "kind": "stack", "visibility": "top",
                              "hidden": True, "size": 0}


def test_every_default_the_cli_docs_state_is_the_default_of_one_of_the_commands_options():
    """cli/*: the other way round from the test above: each number docs/cli.md's section of a
    command gives as a default ("(default 200)", "default 5,000") is the default of one of
    its options (or, for tune's --games, the 50 games a point plays when --games is not
    given). A default dropped (`default=None` for bench's `--mcts-iterations`, which then
    no longer shows "(default: 200)" in --help) leaves the docs' number without an option.
    A bot setting's "default 0: off" is the bot's, not an option's."""
    from boardwright.cli.tune_commands import PARAM_GAMES
    sections = cli_docs_sections()
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    computed = {"tune": {str(PARAM_GAMES)}}
    stated = 0
    for name, parser in commands.items():
        defaults = computed.get(name, set())
        for action in parser._actions:
            if action.option_strings and action.default not in (None, False, argparse.SUPPRESS):
                defaults |= {str(action.default)} | ({f"{action.default:,}"} if isinstance(action.default, int) else set())
        for match in re.finditer(r"\bdefault:? `?(\d[\d,.]*\d|\d)`?(?!:)", sections[name]):
            assert match.group(1) in defaults, (name, match.group(0))
            stated += 1
    assert stated >= 15


def test_a_list_of_enum_members_in_a_fn_body_is_built_once_as_a_constant_of_the_module(tmp_path, capsys):
    """interpreter/compile/expressions.py constant: a name that is an enum member is known when
    the rules are compiled, also inside a fn whose params are in scope, so a list literal of
    members is a module constant (`_k0`), built once, not a new list at every call (the mutant
    that folded names only outside any scope built `['red', 'blue']` at each call)."""
    from conftest import run_main
    path = tmp_path / "c.game"
    path.write_text('game "T"\nplayers 2\nenum Colour { red, blue }\n'
                    'fn pick(n: int) -> list of Colour = if n > 0 then [red, blue] else [blue]\n'
                    'play {\n  turn 0 { choose c from pick(1) }\n}\n')
    code, out, _ = run_main(capsys, "compile", str(path), "--emit")
    assert code == 0
    body = out.split("def _F_pick(st, a_n_1):", 1)[1].split("\ndef ", 1)[0]
    assert "(_k0 if (a_n_1 > 0) else _k1)" in body and "'red'" not in body


def test_endless_recursion_while_working_out_a_choices_options_is_a_rule_error_at_the_fn(tmp_path):
    """interpreter/run/decisions.py options_now: a Python failure while the options of a
    `choose` are worked out (here a fn recursing 5,000 deep: Python's recursion limit) is a
    rule error in the language's words at the fn, with a hint, never a crash (the mutant
    `RuleError(None)` ended in a TypeError)."""
    import pytest
    from boardwright.interpreter.compile.load import load_game
    from boardwright.dsl.errors import RuleError
    path = tmp_path / "r.game"
    path.write_text('game "R"\nplayers 2\nfn deep(n: int) -> int = if n == 0 then 0 else deep(n - 1) + 1\n'
                    'play {\n  turn 0 { choose x from [deep(5000), 1] }\n}\n')
    game = load_game(path)
    with pytest.raises(RuleError) as caught:
        game.decision(game.new_state(2, 1))
    (diagnostic,) = caught.value.diagnostics[:1]
    assert (diagnostic.span.line, diagnostic.span.column) == (3, 1)
    assert diagnostic.message == "rule failed: functions call each other without end (too deep a recursion)"
    assert diagnostic.hint == "make sure every recursive function reaches a case that does not call itself"


def test_the_web_view_gives_the_prompt_and_options_to_the_seat_to_move_only(tmp_path):
    """cli/web/looks.py seat_view: the decision's player, its prompt as the rules write it and
    its options go to the seat to move; another seat sees whose decision it is, without prompt
    or options (the mutant `"XXpromptXX"` left the page without the question)."""
    from boardwright.cli.web.looks import seat_view
    game = card_game(tmp_path, "zone deck: pile of Card\n", "Take a card")
    st = game.new_state(2, 1)
    mine, other = (seat_view(game, st, seat, ["human", "human"])["decision"] for seat in (0, 1))
    assert (mine["player"], mine["prompt"], len(mine["options"])) == (0, "Take a card", 8)
    assert other == {"player": 0, "prompt": None, "options": None}


def test_a_second_variant_line_is_an_error_that_points_at_the_first(tmp_path):
    """dsl/loader.py: a variant file has one `variant` line; a second one is an error at its
    line, with a hint naming the line of the first (the mutant dropped the hint)."""
    import pytest
    from boardwright.dsl.errors import RuleFileError
    from boardwright.interpreter.compile.load import load_game
    (tmp_path / "b.game").write_text('game "B"\nplayers 2\nplay {\n  turn 0 { choose n from [1, 2] }\n}\n')
    (tmp_path / "v.game").write_text('variant "V" extends "b.game"\nplayers 2\nvariant "W" extends "b.game"\n')
    with pytest.raises(RuleFileError) as caught:
        load_game(tmp_path / "v.game")
    assert [(d.span.line, d.span.column, d.message, d.hint) for d in caught.value.diagnostics] == [
        (3, 1, "a variant file has one 'variant' line", "the first is at line 1")]


def test_only_the_table_link_is_shown_the_links_of_the_seats(tmp_path):
    """cli/web/table.py view: the table link's page lists each human seat's link (to hand
    them out); a seat's page never holds them, or one player could act for another (the
    mutant `seat is not None` gave every seat the others' links and the table none)."""
    from web_support import new_table, secret_game
    table = new_table(tmp_path, str(secret_game(tmp_path)), ["human", "human"])
    seat0, seat1, link = table.tokens["0"], table.tokens["1"], table.tokens["table"]
    assert table.view(link)["links"] == {"0": seat0, "1": seat1}
    assert "links" not in table.view(seat0) and "links" not in table.view(seat1)
