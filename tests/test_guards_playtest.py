"""Guards for playtesting behaviours that the whole suite once let through with a bug planted
in each (docs/testing.md, "Honest tests"): one named test per behaviour, each run against its
planted bug and seen to fail. The expected numbers are worked out here from the small rule
files below and from the formulas docs/cli.md and docs/playtesting.md give, never copied
from a report.

- the ladder counts a draw as half a win for each bot (Bradley-Terry on the Elo scale);
- paired playouts (`mcts:paired=1`) give every option compared in a round the same luck;
- the simulate report's first-player advantage has the right sign and size.
"""
from __future__ import annotations

import json
import math

import pytest

from boardwright.cli.main import main
from boardwright.interpreter.bots.mcts import MCTSBot
from boardwright.interpreter.playtest.ladder import play_ladder

from conftest import make_small_game, small_game_file


# ---------------------------------------------------------------------------- 6. draws on the ladder
# Each seat makes one move: take 1 point now, or 0 now and then choose 0 or 5 points; seat 0
# then gets 4 points more. A greedy bot that looks ahead (`greedy`) takes 0 then 5; one that
# does not (`greedy:lookahead=0`) takes the 1 at once. So the far-sighted bot wins 9 to 1 at
# seat 0 and draws 5 to 5 at seat 1, every time: no luck in it. (The last, forced choice
# keeps the game open after seat 1's move, so that greedy judges it by the score, not by a
# finished game's result, which would make a draw nobody wins look like a loss.)
FORESIGHT = """\
    game "Foresight"
    players 2
    data "cards.yaml"
    zone deck: stack
    var total: int per player = 0
    play {
      for p in players {
        turn p {
          choose a from [0, 1] prompt "Take one now?"
          total[p] += a
          if a == 0 {
            choose b from [0, 5] prompt "Take five?"
            total[p] += b
          }
        }
      }
      total[0] += 4
      turn 0 { choose done from [0] prompt "Count the points" }
    }
    score p { "Points": total[p] }
    """
# A tie shares the victory (docs/language.md, "Scoring and winners"); with this `winners`
# line nobody wins a tie instead. Either way the game is a draw for the ladder.
NOBODY_WINS_A_TIE = "winners = [p for p in players if total[p] > total[next(p)]]\n"

FAR, NEAR = "greedy", "greedy:lookahead=0"


@pytest.mark.parametrize("draw", ["shared", "nobody"])
@pytest.mark.parametrize("order", [[NEAR, FAR], [FAR, NEAR]], ids=["near-first", "far-first"])
def test_the_ladder_counts_a_draw_as_half_a_win_for_each_bot(tmp_path, draw, order):
    rules = FORESIGHT + ("    " + NOBODY_WINS_A_TIE if draw == "nobody" else "")
    game = make_small_game(tmp_path, rules)
    report = play_ladder(game, order, games=4, seed=1)
    # Seats rotate: bot k sits at seat (k + game) mod 2. Of 4 games the far-sighted bot has
    # seat 0 twice (wins) and seat 1 twice (draws): 2 wins, 0 losses, 2 draws. The pair lists
    # a shared victory as half a win to each, a game nobody won as a draw (docs/cli.md).
    [pair] = report["pairs"]
    far = pair["bots"].index(FAR)
    wins, draws = ((3, 1), 0) if draw == "shared" else ((2, 0), 2)
    assert (pair["games"], pair["wins"][far], pair["wins"][1 - far], pair["draws"]) == (4, *wins, draws)
    # Bradley-Terry with two bots: the strengths' ratio is the ratio of points, a draw half a
    # point to each, plus the one virtual draw per pair (ladder.py, PRIOR_DRAWS): far-sighted
    # 2 + 2/2 + 1/2 = 3.5, the other 0 + 2/2 + 1/2 = 1.5. On the Elo scale (400 log10 of the
    # ratio) the ratings sit symmetrically around 0.
    gap = 400 * math.log10(3.5 / 1.5)
    ratings = {row["bot"]: row for row in report["ratings"]}
    assert ratings[FAR]["rating"] == pytest.approx(gap / 2, abs=0.051)
    assert ratings[NEAR]["rating"] == pytest.approx(-gap / 2, abs=0.051)
    # The score rate counts draws as halves too: (2 + 1) / 4 and (0 + 1) / 4.
    assert (ratings[FAR]["score_rate"], ratings[NEAR]["score_rate"]) == (0.75, 0.25)
    assert [row["bot"] for row in report["ratings"]] == [FAR, NEAR]


def test_the_ladder_rates_bots_that_always_draw_alike(tmp_path):
    """Two far-sighted bots: seat 0's 4 points decide every game (9 to 5): 2 wins each, as
    the seats rotate, so equal ratings; no draws here, none to count."""
    game = make_small_game(tmp_path, FORESIGHT)
    report = play_ladder(game, [FAR, "greedy:lookahead=100"], games=4, seed=1)
    assert report["pairs"][0]["wins"] == [2, 2] and report["pairs"][0]["draws"] == 0
    assert [row["rating"] for row in report["ratings"]] == [0.0, 0.0]


# ---------------------------------------------------------------------------- 7. paired playouts share the luck
# Seat 0 takes a bonus of 0 or 1 point; then the rules shuffle the deck and seat 0 gets 10
# points per rank of its top card (10 to 30); then seat 1 gives seat 0 a gift of 0 to 30
# points (in a bot's playout: a random choice). Seat 1 has 40. Whatever the card and the gift,
# the bonus is worth exactly one point more, and the luck is worth up to 50.
# Two kinds of luck: the shuffle draws from the state's generator (the round's imagined
# copy), the gift from the playout's generator; a paired round must share both.
PLAYOUT_LUCK = """\
    game "Playout luck"
    players 2
    data "cards.yaml"
    zone deck: stack of Card
    zone drawn: pile of Card
    var total: int per player = 0
    setup { move components(Card) to deck }
    play {
      turn 0 {
        choose bonus from [0, 1] prompt "Bonus"
        total[0] += bonus
      }
      shuffle deck
      let c = top(deck)
      move c to drawn
      total[0] += 10 * c.rank
      turn 1 {
        choose gift from [0, 10, 20, 30] prompt "Gift"
        total[0] += gift
      }
      total[1] = 40
    }
    score p { "Points": total[p] }
    """


def bonus_taken(game, st, seed: int, paired: int) -> int:
    # One round (two iterations: one per option); random playouts (guide=1) deep enough to
    # reach the gift; values by the final score lead (margin), so one point counts.
    bot = MCTSBot(seed, iterations=2, depth=10, guide=1, margin=10, paired=paired)
    return st.pending.values[bot.choose(game, st)]


def test_paired_playouts_share_one_rounds_luck_so_the_better_option_always_wins(tmp_path):
    game = make_small_game(tmp_path, PLAYOUT_LUCK)
    st = game.new_state(2, 1)
    assert list(st.pending.values) == [0, 1] and st.pending.player == 0
    # With the same card and the same gift, bonus 1 ends one point further ahead: its value
    # is higher in every round, so it is chosen for every bot seed.
    assert [bonus_taken(game, st, seed, paired=1) for seed in range(20)] == [1] * 20


def test_unpaired_playouts_meet_different_luck(tmp_path):
    """Without pairing each option meets its own card and gift, and the luck, fifty times the
    bonus, often decides: the worse option is taken for some seeds (the check that the game
    above has luck enough for the paired test to mean something)."""
    game = make_small_game(tmp_path, PLAYOUT_LUCK)
    st = game.new_state(2, 1)
    assert 0 in [bonus_taken(game, st, seed, paired=0) for seed in range(20)]


# ---------------------------------------------------------------------------- 8. first-player advantage
FIRST = """\
game "First"
players 2..3
data "cards.yaml"
zone deck: stack
play {{
  turn {first} {{ choose x from [1, 2] prompt "Pick" }}
  for p in players {{ turn p {{ choose y from [1, 2] prompt "Pick" }} }}
}}
winners = [p for p in players if p == {winner}]
"""


@pytest.mark.parametrize("players, first, winner", [
    (2, 0, 0),      # the first mover always wins: 1 - 1/2
    (2, 1, 0),      # the first mover (seat 1) always loses: 0 - 1/2
    (3, 2, 2),      # 1 - 1/3
    (3, 0, 1),      # 0 - 1/3
])
def test_the_first_player_advantage_has_the_sign_and_size_of_the_first_movers_wins(
        tmp_path, capsys, players, first, winner):
    """docs/cli.md: the first-player advantage is the win rate of whoever took the first
    turn, minus the even share 1/N: positive when moving first helps, negative when it hurts."""
    path = small_game_file(tmp_path, FIRST.format(first=first, winner=winner))
    won = 1.0 if first == winner else 0.0
    expected = won - 1 / players
    args = ["simulate", str(path), "--players", str(players), "--games", "6", "--seed", "3",
            "--bots", ",".join(["random"] * players)]
    assert main(args + ["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["first_player_advantage"] == pytest.approx(expected, abs=1e-4)
    assert (report["first_player_advantage"] > 0) == (first == winner)
    assert report["seats"][winner]["win_rate"] == 1.0
    assert main(args) == 0
    out = capsys.readouterr().out
    assert (f"first-player advantage: {expected:+.3f} (the first mover won {won:.3f}; "
            f"fair is {1 / players:.3f})") in out, out
