"""`tune --bot` and the game's bot puzzles: a candidate that fails a puzzle of the game's
scenarios/ (played with its settings in place of the declared bot) is never confirmed, so
the declaration `tune` writes passes the game's own tests."""
from __future__ import annotations

import json

import pytest

from boardwright.cli.main import main
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.playtest.simulate import remember_loaded
from boardwright.interpreter.playtest.tune_bot import tune_bot
from boardwright.interpreter.testing.bot_puzzles import bot_puzzle_files
from boardwright.interpreter.testing.scenario import run_scenario

from test_bot_enhancements import RACE
from test_tune_bot import TINY, TINY_ARGS

pytest.importorskip("optuna")

# Race to ten at a total of 7: adding 3 wins at once; adding 1 leaves 8, from which the
# opponent's 2 wins. A puzzle wanting 3 is one a search passes, one wanting 1 a wrong puzzle.
PUZZLE = """\
name: "puzzle: {wanted} at seven"
game: ../race.game
{variant}players: 2
state:
  vars: {{total: 7}}
expect:
  player: 0
  bot_chooses:
    bots: {bots}
    one_of: ["{wanted}"]
    seeds: 2
"""


def race_folder(tmp_path, **puzzles):
    (tmp_path / "race.game").write_text(RACE)
    (tmp_path / "scenarios").mkdir()
    for name, (wanted, bots, variant) in puzzles.items():
        text = PUZZLE.format(wanted=wanted, bots=bots, variant=f"variant: {variant}\n" if variant else "")
        (tmp_path / "scenarios" / f"{name}.scenario.yaml").write_text(text)
    return tmp_path


def test_a_puzzle_is_played_with_the_spec_put_in_place_of_the_bot_it_names(tmp_path):
    folder = race_folder(tmp_path, win=("3", "mcts", None), lose=("1", "mcts", None))
    win, lose = folder / "scenarios" / "win.scenario.yaml", folder / "scenarios" / "lose.scenario.yaml"
    assert run_scenario(win, {"mcts": "greedy"}).passed          # greedy takes the win at once
    failures = run_scenario(lose, {"mcts": "greedy"}).failures
    assert len(failures) == 2 and all("bot_chooses: greedy (seed" in f and "chose 3" in f for f in failures)
    assert run_scenario(lose, {"random": "greedy"}).failures[0].count("bot_chooses: mcts") == 1  # others stay


def test_a_failure_carries_its_place_and_the_wrong_choice_for_tune_to_name(tmp_path):
    """`tune --bot` names a failing candidate's first failure by its place and the wrong choice
    (docs/playtesting.md), carried by the failure (`place`, `choice`), not read back from its
    text. The puzzle's `bot_chooses` key is at line 8, column 3 of PUZZLE; greedy takes 3 at
    once; a failure of another kind (an option not offered) has a place and no choice."""
    from boardwright.interpreter.playtest.tune_bot import format_tune
    folder = race_folder(tmp_path, lose=("1", "mcts", None))
    lose = folder / "scenarios" / "lose.scenario.yaml"
    failures = run_scenario(lose, {"mcts": "greedy"}).failures
    assert [(f.place, f.choice) for f in failures] == [
        (f"{lose}:8:3", f"seed {seed} chose 3 (3); expected one of ['1']") for seed in (0, 1)]
    report = {"game": "Race", "bot": "mcts", "opponent": "greedy", "budget": 1.0, "seed": 1, "games_per_trial": 2,
              "confirm_seed": 2, "confirmed": [], "best": None,
              "trials": [{"trial": 4, "state": "fails a bot puzzle", "puzzle_failures": failures}]}
    assert f"    trial 4 fails a bot puzzle: {lose}:8:3: seed 0 chose 3 (3); expected one of ['1']" \
        in format_tune(report, "x").splitlines()
    lose.write_text(lose.read_text().replace("  player: 0\n", "  player: 0\n  options: [\"7\"]\n"))
    first = run_scenario(lose, {"mcts": "greedy"}).failures[0]
    assert (first.place, first.choice) == (f"{lose}:8:3", "")          # the options key, line 8
    report["trials"][0]["puzzle_failures"] = [first]
    assert f"    trial 4 fails a bot puzzle: {lose}:8:3" in format_tune(report, "x").splitlines()


def test_the_puzzles_of_a_bot_are_those_naming_it_bare_for_the_variant_played(tmp_path):
    folder = race_folder(tmp_path, a=("3", "mcts", None), b=("3", "[greedy, mcts]", None),
                         c=("3", "mcts:iterations=5", None), d=("3", "greedy", None), e=("3", "mcts", "fast"),
                         f=("3", "mcts", "base"))
    (folder / "scenarios" / "broken.scenario.yaml").write_text("name: [unclosed\n")
    names = lambda variant: [p.stem.split(".")[0] for p in bot_puzzle_files(folder / "scenarios", "mcts", variant)]
    assert names(None) == names("base") == ["a", "b", "f"]
    assert names("fast") == ["e"]
    assert [p.stem.split(".")[0] for p in bot_puzzle_files(folder / "scenarios", "greedy", None)] == ["b", "d"]


def test_a_candidate_failing_a_puzzle_is_never_confirmed(tmp_path):
    path = race_folder(tmp_path) / "race.game"
    game = load_game(path)
    ref = (str(path), None, ())
    remember_loaded(ref, game)
    plain = tune_bot(game, ref, "mcts", **TINY)
    banned = plain["best"]["spec"]
    checked = []

    def puzzles(spec):
        checked.append(spec)
        return ["race.scenario.yaml:1:1: error: bot_chooses: x (seed 0) chose 1 (1); expected one of ['3']"] \
            if spec == banned else []

    report = tune_bot(game, ref, "mcts", puzzles=puzzles, **TINY)
    row = next(r for r in report["trials"] if r["spec"] == banned)
    assert row["state"] == "fails a bot puzzle" and row["puzzle_failures"]
    assert banned not in [r["spec"] for r in report["confirmed"]]
    assert report["best"] is None or report["best"]["spec"] != banned
    # only candidates whose games were complete were checked, each once
    assert sorted(checked) == sorted(r["spec"] for r in report["trials"] if r["state"] in ("complete", "fails a bot puzzle"))


def test_tune_confirms_no_candidate_that_fails_the_games_puzzles(tmp_path, capsys):
    folder = race_folder(tmp_path, win=("3", "mcts", None), lose=("1", "mcts", None))
    code = main(["tune", str(folder / "race.game"), "--bot", "mcts", "--decision-seconds", "10", "--json"] + TINY_ARGS)
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["best"] is None and report["confirmed"] == []
    assert sorted(report["puzzles"]) == sorted(str(p) for p in (folder / "scenarios").glob("*.yaml"))
    failing = [r for r in report["trials"] if r["state"] == "fails a bot puzzle"]
    assert failing and all("lose.scenario.yaml" in f for r in failing for f in r["puzzle_failures"])
    assert not [r for r in report["trials"] if r["state"] == "complete"]
    # the text says which puzzle each failed, and where
    main(["tune", str(folder / "race.game"), "--bot", "mcts", "--decision-seconds", "10"] + TINY_ARGS)
    text = capsys.readouterr().out
    assert "bot puzzles: 2 in the game's scenarios/" in text
    assert f"fails a bot puzzle: {folder / 'scenarios' / 'lose.scenario.yaml'}:" in text and "chose 3 (3)" in text


def test_tune_writes_a_declaration_that_passes_the_games_puzzles(tmp_path, capsys):
    folder = race_folder(tmp_path, win=("3", "mcts", None))
    assert main(["tune", str(folder / "race.game"), "--bot", "mcts", "--decision-seconds", "10", "--write"]
                + TINY_ARGS) == 0
    assert "bot puzzles: 1 in the game's scenarios/" in capsys.readouterr().out
    assert main(["test", str(folder / "scenarios")]) == 0


PAIRED = "mcts:iterations=60:exploration=0.7:width=2:follow=0:depth=15:guide=8:whole=0:margin=0:paired=1:decisive=0"


def row_of(budgets: float, fixed: float, iterations: int, decisions: int = 100, budget: float = 0.25) -> dict:
    """A candidate's row: `budgets` of CPU per decision, `fixed` of them before the first
    iteration, `iterations` a decision, over 8 whole games."""
    return {"cpu": budgets * budget * decisions, "setup": fixed * budget * decisions, "decisions": decisions,
            "iterations_run": iterations * decisions, "cpu_per_decision": budgets * budget, "games": 8}


@pytest.mark.parametrize("guide, budgets, fixed, expected", [
    # 0.45 budgets over 15 iterations: 0.03 each at guide 8, so 0.01 at guide 2 (3 / 9 of it);
    # (0.9 - 0.1) / 0.01 = 80 rounds fit: its 60 back
    (8, 0.55, 0.1, 60),
    # 0.1 each: 0.0333 at guide 2, (0.9 - 0.1) / 0.0333 = 24 -> 20 of ROUND_ITERATIONS
    (8, 1.6, 0.1, 20),
    # guide 4: 0.03 each, 3 / 5 of it at guide 2 = 0.018, (0.9 - 0.1) / 0.018 = 44.4 -> 40
    (4, 0.55, 0.1, 40),
])
def test_a_fitted_candidate_failing_a_puzzle_gets_its_rounds_back_with_cheaper_playouts(guide, budgets, fixed,
                                                                                          expected):
    from boardwright.interpreter.playtest.tune_fit import cheaper_playouts
    settings = {"iterations": 15, "depth": 15, "guide": guide, "paired": 1}
    back, why = cheaper_playouts(settings, row_of(budgets, fixed, 15), 0.25, 60)
    assert back == dict(settings, guide=2, iterations=expected)
    assert why.endswith(f"failed a bot puzzle at 15 of the 60 rounds it was fitted from: guide=2 at {expected} iterations")


@pytest.mark.parametrize("settings, rounds", [
    ({"iterations": 15, "depth": 15, "guide": 2}, 60),        # as cheap already
    ({"iterations": 15, "depth": 15, "guide": 1000}, 60),     # every option: no known count to scale
    ({"iterations": 15, "depth": 0, "guide": 8}, 60),         # no playouts
    ({"iterations": 60, "depth": 15, "guide": 8}, 60),        # not fitted down
])
def test_no_cheaper_playouts_where_there_is_nothing_to_give_back(settings, rounds):
    from boardwright.interpreter.playtest.tune_fit import cheaper_playouts
    assert cheaper_playouts(settings, row_of(0.55, 0.1, 15), 0.25, rounds)[0] is None


def test_no_cheaper_playouts_where_no_more_rounds_would_fit():
    from boardwright.interpreter.playtest.tune_fit import cheaper_playouts
    # 1.2 per iteration at guide 8, 0.4 at guide 2: (0.9 - 0.1) / 0.4 = 2 rounds, fewer than its 15
    back, why = cheaper_playouts({"iterations": 15, "depth": 15, "guide": 8}, row_of(18.1, 0.1, 15), 0.25, 60)
    assert back is None and why.endswith("with guide=2 no more than its 15 rounds would fit")


def test_tune_gives_a_fitted_candidate_failing_a_puzzle_its_rounds_back(tmp_path, monkeypatch):
    """The paired start (60 rounds, each playout decision the best of 8) is made to cost 2
    budgets a decision, 0.1 of them fixed: 1.9 / 60 per round, so 0.6 budgets buy 18.9 ->
    15 rounds (`fitted_iterations`). At 15 it costs 0.55 (0.1 fixed) and fails a puzzle;
    with playouts the best of 2 a round costs 3 / 9 of 0.03, so (0.9 - 0.1) / 0.01 = 80
    rounds fit, and it gets its 60 back at guide=2. Nothing else is changed."""
    from test_tune_bot import searched_with
    path = race_folder(tmp_path) / "race.game"
    costs = {60: (2.0, 0.1), 15: (0.55, 0.1)}

    def alter(candidate, budget, records):
        n = int(candidate.split("iterations=")[1].split(":")[0])
        if candidate.replace(f"iterations={n}:", "iterations=60:") == PAIRED and n in costs:
            for r in records:
                r["cpu"], r["setup"] = (c * budget * r["decisions"] for c in costs[n])
                r["iterations"], r["share"] = n * r["decisions"], 1.0

    def puzzles(spec):
        return ["race.scenario.yaml:8:3: error: bot_chooses: seed 0 chose 1"] if "guide=8" in spec else []

    rows = searched_with(path, monkeypatch, alter, trials=6, confirm=6, puzzles=puzzles)["trials"]
    fitted = next(r for r in rows if r["spec"] == PAIRED.replace("iterations=60:", "iterations=15:"))
    assert fitted["state"] == "fails a bot puzzle" and fitted["fitted_from"] == 2
    back = rows[fitted["trial"] + 1]
    assert back["spec"] == PAIRED.replace("guide=8", "guide=2")
    assert back["fitted_from"] == fitted["trial"] and back["state"] == "complete"
