"""Constructs added for authors: `let` in fns, several `for`/`if` clauses, slices, params in a
zone's shape, lowest-wins scores and typed `let`. Expected values are computed by hand (or
by plain Python over the same numbers), never read from the engine."""
from __future__ import annotations

import pytest

from boardwright.cli.main import main
from boardwright.dsl.errors import RuleError, RuleFileError
from boardwright.dsl.loader import check_game
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.bots.values import evaluations

GAME = '''game "Features"
players 2..3
param side = 3
zone board: grid size side x side
var out: list of int = []
var sl: list of int = []
var placed: int = 0
fn pairs(n: int) -> list of int {
  let xs = range(n)
  let total: int = sum(xs)
  return [x * 10 + y + total for x in xs for y in range(x) if y > 0 if x > 2]
}
setup {
  out = pairs(4)
  sl = [1, 2, 3, 4][1:3] + [5, 6][:1] + [7, 8][1:]
}
play {
  let p: player = 0
  log "{p} starts"
  turn p {
    choose c from [(x, 0) for x in range(4) if fits(board, (x, 0))] label "{c}"
    placed = c.x + 1
  }
}
score p, lowest wins { "Seat": p + 1 }
'''


@pytest.fixture
def game_file(tmp_path):
    path = tmp_path / "features.game"
    path.write_text(GAME, encoding="utf-8")
    return path


def test_let_in_a_fn_and_several_comprehension_clauses_and_slices(game_file):
    st = load_game(game_file).new_state(2, 1)
    xs = list(range(4))
    assert st.vars["out"] == [x * 10 + y + sum(xs) for x in xs for y in range(x) if y > 0 if x > 2] == [37, 38]
    assert st.vars["sl"] == [2, 3] + [5] + [8]


def test_a_typed_let_shows_a_player_by_name(game_file, capsys):
    game = load_game(game_file)
    st = game.new_state(2, 1)
    assert any("Player 1 starts" in line for line in map(str, st.log))


def test_a_param_sizes_a_grid_and_set_changes_it(game_file):
    game = load_game(game_file)
    st = game.new_state(2, 1)
    assert len(st.pending.values) == 3              # cells (0,0) (1,0) (2,0) of a 3 x 3 grid
    game.set_params({"side": 4})
    assert len(game.new_state(2, 1).pending.values) == 4


def test_the_lowest_total_wins_and_bots_prefer_it(game_file):
    game = load_game(game_file)
    st = game.new_state(3, 1)
    result = game.result(st)
    assert result.scores == (1, 2, 3) and result.winners == (0,)
    assert evaluations(game, st) == [-1, -2, -3]        # a bot maximises: lower totals look better


def test_lowest_wins_in_simulate_reports_totals_as_they_are(game_file, capsys):
    assert main(["simulate", str(game_file), "--players", "2", "--games", "3", "--json"]) == 0
    import json
    report = json.loads(capsys.readouterr().out)
    assert report["seats"][0]["score_mean"] == 1 and report["seats"][0]["win_rate"] == 1


def test_a_negative_slice_bound_is_a_rule_error(tmp_path):
    path = tmp_path / "neg.game"
    path.write_text(GAME.replace("[7, 8][1:]", "[7, 8][0 - 1:]"), encoding="utf-8")
    with pytest.raises(RuleError, match="slice bound -1 is negative"):
        load_game(path).new_state(2, 1)


@pytest.mark.parametrize("old,new,message", [
    ("grid size side x side", "grid size sid x side", "'sid' in option 'size' is not an int param"),
    ("param side = 3", 'param side = "three"', "'side' in option 'size' is not an int param"),
    ("[1, 2, 3, 4][1:3]", "[1, 2, 3, 4][true:3]", "a slice bound should be int, not bool"),
    ("let total: int = sum(xs)", "let total: str = sum(xs)", "the value of 'total' should be str, not int"),
    ("let xs = range(n)", "let out = range(n)", "'out' would hide a declaration of the game"),
    ("for y in range(x) if y > 0", "for y in range(x) if y", "a condition should be bool, not int"),
])
def test_the_new_constructs_are_checked(game_file, old, new, message):
    game_file.write_text(GAME.replace(old, new), encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        check_game(game_file)
    assert info.value.diagnostics[0].message == message


def test_size_side_x_side_gives_one_error_with_a_did_you_mean(game_file):
    game_file.write_text(GAME.replace("grid size side x side", "grid size sied x side"), encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        check_game(game_file)
    assert len(info.value.diagnostics) == 1
    assert info.value.diagnostics[0].hint == "did you mean 'side'?"


def test_explain_and_info_show_the_new_constructs(game_file, capsys):
    assert main(["explain", str(game_file)]) == 0
    out = capsys.readouterr().out
    assert "  board: a grid (size side x side)\n" in out
    assert ", where xs = range(n); total = sum(xs)" in out
    assert "  let p (a player) be 0\n" in out
    assert "  score (lowest wins) of player p: the sum of\n" in out
    assert "the winners are the players with the lowest score" in out
    assert main(["info", str(game_file), "--json"]) == 0
    import json
    facts = json.loads(capsys.readouterr().out)
    assert facts["score_direction"] == "lowest"
    assert facts["zones"][0]["options"] == {"size": ["side", "side"]}


def test_an_int_let_used_as_a_player_is_a_player(tmp_path):
    path = tmp_path / "inferred.game"
    path.write_text('game "I"\nplayers 2\nplay {\n  let p = 0\n  let n = 5\n  log "{p} says {n}"\n'
                    '  turn p { choose c from [1, 2] }\n}\n', encoding="utf-8")
    assert load_game(path).new_state(2, 1).log == ["Player 1 says 5"]      # n stays a number
