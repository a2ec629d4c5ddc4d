"""Behaviour the fresh mutation sample of seed 26 (tests/mutation_sample.py, docs/testing.md
"Mutation testing") found unguarded: each test here was seen failing with its mutant planted
and passing without it. The mutant each one kills is named in its docstring."""
from __future__ import annotations

from conftest import cached_game

from boardwright.cli.web.looks import seat_view


def test_the_web_view_names_each_zone_and_its_owner():
    """cli/web/looks.py zone_view: the key "name" (the page's zone heading reads `zone.name`)."""
    game = cached_game("punto")
    st = game.new_state(2, 1)
    zones = {z["key"]: z for z in seat_view(game, st, 0, ["human", "human"])["zones"]}
    # punto.game declares: deck (a hidden stack per player), table (a grid), removed and out (piles)
    assert {key: (z["name"], z["owner"], z["kind"], z["visibility"]) for key, z in zones.items()} == {
        "deck/0": ("deck", 0, "stack", "hidden"), "deck/1": ("deck", 1, "stack", "hidden"),
        "table": ("table", None, "grid", "public"), "removed": ("removed", None, "pile", "public"),
        "out": ("out", None, "pile", "public")}


def test_a_hidden_zone_shows_only_its_size():
    """cli/web/looks.py zone_view: the key "size" of a hidden zone (the page shows how many
    cards lie face down)."""
    game = cached_game("punto")
    st = game.new_state(2, 1)
    zones = {z["key"]: z for z in seat_view(game, st, 0, ["human", "human"])["zones"]}
    for key in ("deck/0", "deck/1"):
        assert zones[key]["hidden"] is True and "items" not in zones[key]
        assert zones[key]["size"] == len(st.zones[key]) > 0


def test_a_candidate_that_breaks_the_rules_late_is_ranked_last_not_a_crash():
    """interpreter/playtest/tune_params.py ParamTuner.loss: a failed candidate's loss is
    infinite (the mutant `float(None)` made `tune` end in a TypeError)."""
    from boardwright.dsl.errors import Diagnostic, RuleError, Span
    from boardwright.interpreter.playtest.goals import parse_goal
    from boardwright.interpreter.playtest.param_ranges import parse_range
    from boardwright.interpreter.playtest.tune_params import Evaluation, ParamTuner
    from test_tune import FakePlay

    class BreaksLate(FakePlay):
        # k=1 looks perfect in its first 100 games, then its rules fail (as a param value
        # that reaches a rarely played rule would)
        def __call__(self, point, specs, rotate, first, count, seed):
            if point["k"] == 1 and first >= 100:
                raise RuleError(Diagnostic(Span("g.game", 7, 3, 7, 9), "an index out of range"))
            return super().__call__(point, specs, rotate, first, count, seed)

    play = BreaksLate(search={0: 90, 1: 50, 2: 60, 3: 95}, confirm={0: 90, 1: 50, 2: 55, 3: 95})
    goal = parse_goal("first-player=0.5", ["first player win rate"])
    tuner = ParamTuner(Evaluation(play, 2, 1, [goal], ["random", "random"], False), [parse_range("k=0..3")],
                       budget=1200, first_games=100, confirm=2, seed=1, player_name=lambda p: f"Player {p + 1}")
    result = tuner.run()
    assert result["best"]["params"] == {"k": 2}          # the closest to 50% that kept to its rules
    assert result["failed"] == [{"params": {"k": 1}, "rule_error": "an index out of range (g.game:7)"}]


def test_colour_words_and_the_word_after_them_are_painted_in_their_colour():
    """cli/render.py colourize (what `play` prints on a terminal): the colour word's ANSI code
    (red 31, blue 34, purple 35), the word after it painted too, other words left alone."""
    from boardwright.cli.render import colourize
    assert colourize("red 5 beats blue 3, then purple") == (
        "\033[1;31mred 5\033[0m beats \033[1;34mblue 3,\033[0m then \033[1;35mpurple\033[0m")
    assert colourize("a bored redhead") == "a bored redhead"


def test_a_plus_or_minus_after_a_string_is_an_operator_with_spaces():
    """dsl/formatter.py _ends_value: a string ends a value, so the `+` after it is binary and
    `fmt` spaces it (the mutant made it a sign: `"a" +"b"`)."""
    from boardwright.dsl.formatter import format_source
    assert format_source('play {\n  log "a"+"b"\n}\n') == 'play {\n  log "a" + "b"\n}\n'
    assert format_source('var s: str = "x"+ "y"\n') == 'var s: str = "x" + "y"\n'


def test_a_shape_declared_on_the_kind_gives_every_item_its_cells_data(tmp_path):
    """dsl/data.py: the cell values of a kind-level `shape:` (the mutant read the kind's
    `XXshapeXX`, so items without a shape of their own lost their cells' data)."""
    from boardwright.interpreter.compile.load import load_game
    from test_shape_cells import DATA, RULES, laid, seen
    # the test's data with one shape for the kind, and items without a shape of their own
    kind_shape = ("    shape: [{at: [0, 0], terrain: wheat, crowns: 1}, {at: [1, 0], terrain: lake, crowns: 0}]\n"
                  "    items:\n      - {name: left, owner: 0}\n      - {name: right, owner: 1}\n")
    (tmp_path / "tiles.yaml").write_text(DATA.split("    items:")[0] + kind_shape)
    (tmp_path / "g.game").write_text(RULES)
    game = load_game(tmp_path / "g.game")
    st = laid(game, "right", (5, 5), 0)
    assert (seen(game, st, (5, 5)), seen(game, st, (6, 5))) == ("wheat", "lake")
    assert seen(game, st, (5, 5), "crowns") == 1


def test_an_error_in_an_if_expression_points_at_the_whole_expression(tmp_path, capsys):
    """dsl/build_ast.py: the span of an `if ... then ... else ...` expression (the mutant gave
    it none, so the error lost its line, column and caret)."""
    from conftest import run_main
    path = tmp_path / "g.game"
    path.write_text('game "Tiny"\nplayers 2\nvar v: int = 0\nplay {\n  v = if v > 0 then "a" else "b"\n'
                    '  turn 0 { choose n from [1, 2] }\n}\n')
    code, out, err = run_main(capsys, "validate", str(path))
    text = out + err
    assert code == 1 and "Traceback" not in text
    # line 5, from column 7 (the `if`) to the end of the line: 26 characters
    assert f"{path}:5:7: error: cannot assign str to 'v' of type int" in text
    assert "\n          " + "^" * 26 in text


def test_explain_has_a_section_on_how_the_game_ends(tmp_path):
    """cli/explain.py explain: the section "The end" under its own title (the mutant shouted
    it: "THE END"); without a `winners` rule the highest score wins, as the language says."""
    from boardwright.cli.explain import explain
    from boardwright.dsl.loader import check_game
    path = tmp_path / "g.game"
    path.write_text('game "Tiny"\nplayers 2\nplay { turn 0 { choose n from [1, 2] } }\nscore p { "n": 1 }\n')
    spec, _ = check_game(path)
    lines = explain(spec).splitlines()
    start = lines.index("The end")
    assert lines[start + 1:start + 4] == [
        "  the game ends when the play block is done, or when 'finish' runs",
        "  the winners are the players with the highest score", ""]


def test_explain_shows_each_procedure_with_its_statements(tmp_path):
    """cli/explain.py explain: a procedure's section lists its body (the mutant handed
    statement_lines no body)."""
    from boardwright.cli.explain import explain
    from boardwright.dsl.loader import check_game
    path = tmp_path / "g.game"
    path.write_text('game "Tiny"\nplayers 2\nproc greet(p: player) {\n  log "hi"\n  log "there"\n}\n'
                    'play {\n  greet(0)\n  turn 0 { choose n from [1, 2] }\n}\n')
    spec, _ = check_game(path)
    lines = explain(spec).splitlines()
    start = lines.index("Procedure greet(p: player)")
    assert lines[start + 1:start + 4] == ['  log "hi"', '  log "there"', ""]
