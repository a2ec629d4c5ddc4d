"""The ladder's ratings and table, and `bench`'s table and seeded measurements, in process
(docs/cli.md's `ladder` and `bench`; the ratings checked against the two-bot closed form of
the Bradley-Terry model with one virtual draw per pair)."""
from __future__ import annotations

import math

from boardwright.interpreter.playtest import bench, ladder
from conftest import cached_game, make_small_game

ELO = 400 / math.log(10)
Z95 = 1.959963984540054

PICK = """
    game "Pick"
    players 2
    var total: int per player = 0
    play {
      for i in range(3) { for p in players { turn p {
        choose n from [1, 2, 3] prompt "How many?"
        total[p] += n
      } } }
    }
    score p { "Total": total[p] }
"""


def test_ladder_ratings_follow_the_two_bot_closed_form_to_one_decimal(tmp_path):
    game = make_small_game(tmp_path, PICK)
    result = ladder.play_ladder(game, ["random", "greedy"], games=4, seed=1)
    [pair] = result["pairs"]
    assert sum(pair["wins"]) + pair["draws"] == 4
    # Bradley-Terry for two bots: the strengths stand as their points, one virtual draw added.
    points = [pair["wins"][0] + pair["draws"] / 2 + 0.5, pair["wins"][1] + pair["draws"] / 2 + 0.5]
    gap = ELO * math.log(points[1] / points[0])         # greedy's rating above random's
    share = points[1] / sum(points)
    error = ELO / (2 * math.sqrt(5 * share * (1 - share)))   # each rating carries half the gap's variance
    rows = {row["bot"]: row for row in result["ratings"]}
    assert [row["bot"] for row in result["ratings"]] == ["greedy", "random"]
    assert rows["greedy"]["rating"] == round(gap / 2, 1) and rows["random"]["rating"] == round(-gap / 2, 1)
    assert rows["greedy"]["rating"] != round(gap / 2)       # a decimal is kept
    assert rows["greedy"]["ci95"] == [round(gap / 2 - Z95 * error, 1), round(gap / 2 + Z95 * error, 1)]


def test_ladder_table_is_laid_out_as_in_the_guide():
    """docs/cli.md's `ladder` example, from its own numbers."""
    def pair(a, b, wins, lo, hi):
        return {"bots": [a, b], "games": 4, "wins": wins, "draws": 0, "score_rate": wins[0] / 4, "ci95": [lo, hi]}
    mcts = "mcts:iterations=10"
    report = {"game": "Happy City", "variant": None, "games_per_pair": 4, "seed": 1,
              "ratings": [{"bot": "greedy", "settings": "greedy (lookahead=200)", "rating": 47.2,
                           "ci95": [-100.1, 194.4], "games": 8, "score_rate": 0.625},
                          {"bot": mcts, "settings": "mcts (iterations=10)", "rating": 0.0,
                           "ci95": [-145.3, 145.3], "games": 8, "score_rate": 0.5},
                          {"bot": "random", "settings": "random", "rating": -47.2,
                           "ci95": [-194.4, 100.1], "games": 8, "score_rate": 0.375}],
              "pairs": [pair("random", "greedy", [2, 2], 0.150, 0.850), pair("random", mcts, [1, 3], 0.046, 0.699),
                        pair("greedy", mcts, [3, 1], 0.301, 0.954)]}
    assert ladder.format_ladder(report).split("\n") == [
        "Happy City: ladder of 3 bots, 4 rotated 2-player games per pair, seed 1",
        "  rank bot                           rating            95% CI   score  games  settings",
        "  1    greedy                            47       [-100, 194]   0.625      8  greedy (lookahead=200)",
        "  2    mcts:iterations=10                 0       [-145, 145]   0.500      8  mcts (iterations=10)",
        "  3    random                           -47       [-194, 100]   0.375      8  random",
        "  pairings (score of the first bot: wins + half the draws and shared wins):",
        "    random vs greedy: 2-2 of 4, score 0.500 [0.150, 0.850]",
        "    random vs mcts:iterations=10: 1-3 of 4, score 0.250 [0.046, 0.699]",
        "    greedy vs mcts:iterations=10: 3-1 of 4, score 0.750 [0.301, 0.954]",
        "  ratings: Bradley-Terry on the Elo scale (mean 0; +400 = 10:1 odds), one virtual draw per pair"]


# ------------------------------------------------------------------ bench

def test_bench_table_has_a_left_aligned_name_column_and_right_aligned_numbers():
    rows = [{"game": "Punto", "variant": None, "players": 2, "load_and_check_ms": 12.34,
             "playouts_per_second": 150.0, "decisions_per_second": 3000.4, "mcts_iterations_per_second": 812.6},
            {"game": "Point City", "variant": "Expansion", "players": 4, "load_and_check_ms": 5.0,
             "playouts_per_second": 7.3, "decisions_per_second": 900.0, "mcts_iterations_per_second": None}]
    assert bench.format_bench(rows).split("\n") == [
        "game" + " " * 20 + "players  load ms  playouts/s  decisions/s  MCTS it/s",
        "Punto" + " " * 25 + "2" + " " * 5 + "12.3" + " " * 7 + "150.0" + " " * 9 + "3000" + " " * 8 + "813",
        "Point City (Expansion)" + " " * 8 + "4" + " " * 6 + "5.0" + " " * 9 + "7.3" + " " * 10 + "900" + " " * 10 + "-"]


def test_bench_searches_the_same_seeded_positions_the_same_way_on_every_run(monkeypatch):
    """The MCTS figure is measured on positions a few random moves into seeded games: two
    runs search the same positions and do the same work, so their times compare."""
    game = cached_game("punto")
    searches = []
    real_make_bot = bench.make_bot

    def recording_make_bot(spec, seed, *rest):
        bot = real_make_bot(spec, seed, *rest)
        if spec.startswith("mcts"):
            search = bot.search

            def recorded(game, st):
                root = search(game, st)
                searches.append((list(st.history), sorted((repr(k), c.visits, tuple(c.total))
                                                          for k, c in root.children.items())))
                return root
            bot.search = recorded
        return bot

    monkeypatch.setattr(bench, "make_bot", recording_make_bot)
    runs = []
    for _ in range(2):
        searches.clear()
        row = bench.bench_game(lambda: game, games=1, mcts_iterations=12, mcts_positions=2)
        assert row["players"] == 2 and row["games"] == 1
        runs.append(list(searches))
    assert len(runs[0]) == 2 and all(len(history) == 6 for history, _ in runs[0])
    assert runs[0] == runs[1]
