"""`boardwright probe`: a bot's decisions measured against a stronger (gold) search: agreement,
regret, the positions probed and the seats they come from."""
from __future__ import annotations

import json

import pytest

from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.playtest.probe import probe_decisions

from conftest import small_game_file
from test_cli import run

# Three rounds; seat 0 adds 0 to 3 points a turn, seat 1 adds 0 or 3. More is always better
# (taking 3 every turn, both tie), so the gold search's choice is the largest number.
PICK = """\
game "Pick"
players 2
data "cards.yaml"
var total: int per player = 0
play {
  for round in range(3) {
    turn 0 {
      choose n from [0, 1, 2, 3] prompt "Points"
      total[0] += n
    }
    turn 1 {
      choose m from [0, 3] prompt "Points"
      total[1] += m
    }
  }
}
score p { "Points": total[p] }
"""

GOLD = "mcts:iterations=200:width=0"


@pytest.fixture()
def pick(tmp_path):
    return small_game_file(tmp_path, PICK)


def probe(path, *bots: str, **kw) -> dict:
    options = dict(games=2, positions=20, repeats=3, seed=1)
    options.update(kw)
    return probe_decisions(load_game(path), 2, list(bots), GOLD, "greedy", **options)


def test_the_best_choice_every_time_agrees_with_the_gold_search_and_loses_nothing(pick):
    report = probe(pick, "greedy")
    assert report["positions"] == 6 and report["choices"] == 18
    [row] = report["bots"]
    assert row["bot"] == "greedy" and row["agreement"] == 18 and row["regret"] == 0
    # The gold search takes the largest number, as seat 0 (game 0) and as seat 1 (game 1).
    assert {(row["game"], row["gold_choice"]) for row in report["rows"]} == {(0, "3"), (1, "3")}


def test_random_choices_disagree_and_their_regret_is_what_the_gold_values_say(pick):
    report = probe(pick, "random")
    rows, [bot] = report["rows"], report["bots"]
    assert 0 < bot["agreement"] < report["choices"] == 18
    took_less = sum(choice != row["gold_choice"] for row in rows for choice in row["choices"]["random"])
    assert took_less == report["choices"] - bot["agreement"]
    lost = sum(row["gold_values"][row["gold_choice"]] - row["gold_values"][choice]
               for row in rows for choice in row["choices"]["random"])
    assert bot["regret"] == pytest.approx(lost / 18, abs=1e-4) and bot["regret"] > 0.01
    # To the gold search no number is worth more than 3 (once random choices have lost the
    # game, every number is worth as little), and 3 is worth more than 0 somewhere.
    assert all(row["gold_values"]["3"] == max(row["gold_values"].values()) for row in rows)
    assert any(row["gold_values"]["3"] > row["gold_values"]["0"] for row in rows)


def test_a_choice_the_gold_search_did_not_weigh_costs_as_much_as_its_worst_weighed_option(pick):
    report = probe_decisions(load_game(pick), 2, ["random"], "mcts:iterations=200:width=2", "greedy",
                             games=1, positions=20, repeats=3, seed=1)
    rows = report["rows"]
    assert all(set(row["gold_values"]) == {"2", "3"} for row in rows)    # seat 0's two best numbers
    unweighed = [c for row in rows for c in row["choices"]["random"] if c in ("0", "1")]
    assert unweighed
    lost = sum(row["gold_values"][row["gold_choice"]] - row["gold_values"].get(c, min(row["gold_values"].values()))
               for row in rows for c in row["choices"]["random"])
    assert lost > 0 and report["bots"][0]["regret"] == pytest.approx(lost / report["choices"], abs=1e-4)


def test_only_the_probed_bots_seat_is_probed_and_seats_rotate_like_simulate(pick):
    rows = probe(pick, "random")["rows"]
    assert {len(row["gold_values"]) for row in rows if row["game"] == 0} == {4}     # seat 0: 0 to 3
    assert {len(row["gold_values"]) for row in rows if row["game"] == 1} == {2}     # seat 1: 0 or 3


def test_bots_are_probed_at_the_same_positions_those_of_the_first_bots_games(pick):
    both = probe(pick, "greedy", "random")
    assert [r["bot"] for r in both["bots"]] == ["greedy", "random"]
    assert both["bots"][0]["agreement"] == 18 > both["bots"][1]["agreement"]
    assert all(len(row["choices"]["greedy"]) == len(row["choices"]["random"]) == 3 for row in both["rows"])

    def positions(report):
        return [(row["game"], row["decision"], row["gold_values"]) for row in report["rows"]]
    assert positions(both) == positions(probe(pick, "greedy"))          # greedy's games, with or without random
    assert positions(both) != positions(probe(pick, "random", "greedy"))    # random plays other games


def test_positions_per_game_and_repeats_are_kept_and_the_report_repeats_per_seed(pick):
    report = probe(pick, "random", positions=2, repeats=2)
    assert [g["positions"] for g in report["per_game"]] == [2, 2] and report["choices"] == 8
    assert [row["decision"] for row in report["rows"]] == [1, 2, 1, 2]
    again = probe(pick, "random", positions=2, repeats=2)
    assert again["rows"] == report["rows"]
    other = probe(pick, "random", positions=2, repeats=2, seed=2)
    assert [g["seed"] for g in other["per_game"]] != [g["seed"] for g in report["per_game"]]


def test_progress_is_reported_after_each_game(pick):
    seen = []
    probe_decisions(load_game(pick), 2, ["random"], GOLD, "greedy", games=3, positions=1, repeats=1, seed=1,
                    progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_the_command_prints_agreement_and_regret(capsys, pick):
    code, out, _ = run(capsys, "probe", str(pick), "--bots", "greedy,random", "--gold", GOLD, "--games", "1")
    assert code == 0
    greedy = next(line.split() for line in out.splitlines() if line.startswith("  greedy "))
    assert greedy[:5] == ["greedy", "9", "of", "9", "0.0000"] and "    random: random" in out
    assert "positions: 3 in 1 game (3), played by greedy" in out
    assert "gold:     mcts (iterations=200" in out and "opponent: greedy (lookahead=200)" in out
    code, out, _ = run(capsys, "probe", str(pick), "--bots", "random", "--gold", GOLD, "--games", "1", "--json")
    report = json.loads(out)
    assert code == 0 and report["positions"] == 3 and len(report["rows"]) == 3


def test_a_gold_search_that_weighs_one_option_probes_no_position(capsys, pick):
    code, out, _ = run(capsys, "probe", str(pick), "--bots", "random", "--gold", "mcts:width=1", "--games", "1")
    assert code == 0 and "no position" in out


@pytest.mark.parametrize("argv, message", [
    (["--bots", "random", "--gold", "greedy"], "the gold search must be an mcts bot"),
    (["--bots", "random,rnadom", "--gold", "mcts"], "unknown bot 'rnadom'"),
    (["--bots", "random,random", "--gold", "mcts"], "probed once"),
    (["--bots", "random", "--gold", "mcts:iterations=0"], "iterations"),
    (["--bots", "random", "--gold", "mcts", "--players", "3"], "for 2 players, not 3"),
    (["--bots", "random", "--gold", "mcts", "--opponent", "nobody"], "unknown bot 'nobody'"),
])
def test_usage_errors_exit_2(capsys, pick, argv, message):
    code, _, err = run(capsys, "probe", str(pick), *argv)
    assert code == 2 and message in err and "Traceback" not in err
