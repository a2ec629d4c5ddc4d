"""The playtesting reports in process: `simulate`'s CSV and summary, `compare`'s metrics,
p-values, table and CSV, and the score figure, from hand-made game records whose expected
numbers are worked out here (docs/cli.md describes every column, key and line)."""
from __future__ import annotations

import csv
import math
import statistics

import pytest

from boardwright.interpreter.playtest import report as rp


def player_name(seat: int) -> str:
    return f"Player {seat + 1}"


def record(index, winners, scores, turns, decisions, options, first=0, endings=None,
           bots=("greedy", "random"), lead_changes=1):
    """One game as `simulate_records` returns it (one score line, 'Rounds won' = the score)."""
    return {"index": index, "seed": 1000 + index, "bots": list(bots), "scores": list(scores),
            "lines": [{"Rounds won": s} for s in scores], "winners": list(winners), "turns": turns,
            "decisions": decisions, "options": options, "lead_changes": lead_changes,
            "first_player": first, "opponents": None, "endings": endings}


# Five games per configuration; draws are games with no winner.
BASE = [record(0, [0], [2, 0], 10, 10, 30), record(1, [0], [2, 1], 12, 12, 48),
        record(2, [1], [1, 2], 14, 14, 28, first=1), record(3, [0], [2, 0], 11, 11, 33),
        record(4, [], [1, 1], 20, 20, 80, endings=["stuck round still tied"])]
OTHER = [record(0, [1], [0, 2], 30, 30, 60), record(1, [], [1, 1], 28, 28, 84),
         record(2, [1], [1, 2], 25, 25, 75), record(3, [], [1, 1], 33, 33, 99),
         record(4, [0, 1], [2, 2], 31, 31, 62)]


def meta(players=2):
    return {"game": "Tiny", "variant": None, "players": players, "seed": 1, "bots": ["greedy", "random"],
            "rotate": False, "params": {}, "seconds": 0.5}


def normal_two_sided(z: float) -> float:
    return 2 * (1 - statistics.NormalDist().cdf(abs(z)))


def two_proportions(x1, n1, x2, n2) -> float:
    pooled = (x1 + x2) / (n1 + n2)
    return normal_two_sided((x1 / n1 - x2 / n2) / math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2)))


def welch(a, b) -> float:
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return normal_two_sided((statistics.fmean(a) - statistics.fmean(b)) / se)


# ------------------------------------------------------------------ simulate's CSV and report

DOCUMENTED_COLUMNS = ["game", "seed", "turns", "decisions", "options_per_decision", "lead_changes",
                      "first_seat", "winner_seats", "endings", "bot_0", "bot_1", "score_0", "score_1",
                      "rounds_won_0", "rounds_won_1"]


def test_simulate_csv_has_the_documented_columns_and_one_row_per_game(tmp_path):
    games = [record(0, [0, 1], [3, 3], 9, 8, 26, first=1, lead_changes=4,
                    endings=["stuck round still tied", "last card"]),
             record(1, [1], [0, 5], 7, 7, 15)]
    path = tmp_path / "games.csv"
    rp.write_csv(str(path), games, 2)
    rows = list(csv.reader(path.open(newline="", encoding="utf-8")))
    assert rows[0] == DOCUMENTED_COLUMNS
    assert rows[1] == ["0", "1000", "9", "8", "3.25", "4", "1", "0 1", "stuck round still tied; last card",
                       "greedy", "random", "3", "3", "3", "3"]
    assert rows[2] == ["1", "1001", "7", "7", "2.1429", "1", "0", "1", "", "greedy", "random", "0", "5", "0", "5"]
    assert len(rows) == 3


def test_compare_csv_names_each_games_configuration_before_simulates_columns(tmp_path):
    path = tmp_path / "compare.csv"
    rp.write_compare_csv(str(path), [("base", {}, BASE[:2]), ("fast", {}, OTHER[:1])], 2)
    rows = list(csv.reader(path.open(newline="", encoding="utf-8")))
    assert rows[0] == ["config"] + DOCUMENTED_COLUMNS
    assert [(r[0], r[1], r[8]) for r in rows[1:]] == [("base", "0", "0"), ("base", "1", "0"), ("fast", "0", "1")]
    assert all(len(r) == len(rows[0]) for r in rows)


def test_report_gives_the_mean_decisions_per_game():
    report = rp.summarise(BASE, meta())
    assert report["decisions"] == {"mean": (10 + 12 + 14 + 11 + 20) / 5}
    assert report["draws"] == 1 and report["games"] == 5


def test_welch_test_of_two_samples_of_two_values():
    # Two values each are enough for a variance: means 1.5 and 5.5 are far apart.
    assert rp.welch_p([1, 2], [5, 6]) == pytest.approx(welch([1, 2], [5, 6]), rel=1e-6)
    assert rp.welch_p([1, 2], [5, 6]) < 1e-6
    assert rp.welch_p([1], [5, 6]) == 1.0      # one value has no variance: nothing to test


# ------------------------------------------------------------------ compare

def test_compare_lists_the_documented_metrics_with_their_values_and_p_values():
    base, other = rp.summarise(BASE, meta()), rp.summarise(OTHER, meta())
    outcome = rp.compare([("base", base, BASE), ("other", other, OTHER)])
    assert outcome["configs"] == ["base", "other"] and outcome["alpha"] == 0.05
    rows = {(row["metric"], row.get("seat")): row for row in outcome["rows"]}
    assert list(rows) == [("win rate", 0), ("mean score", 0), ("win rate", 1), ("mean score", 1),
                          ("turns per game", None), ("options per decision", None), ("draw share", None)]

    def check(key, values, p):
        row = rows[key]
        assert row["values"] == pytest.approx(values, abs=5e-5), key
        assert row["p_values"][0] is None and row["p_values"][1] == round(p, 4), key
        assert row["significant"] == [False, p < 0.05], key

    # win rates: seat 0 won 3 of 5 under base; under other, half of one shared win
    check(("win rate", 0), [0.6, 0.1], two_proportions(3, 5, 0.5, 5))
    check(("win rate", 1), [0.2, 0.5], two_proportions(1, 5, 2.5, 5))
    check(("mean score", 0), [8 / 5, 5 / 5], welch([2, 2, 1, 2, 1], [0, 1, 1, 1, 2]))
    check(("mean score", 1), [4 / 5, 8 / 5], welch([0, 1, 2, 0, 1], [2, 1, 2, 1, 2]))
    check(("turns per game", None), [67 / 5, 147 / 5], welch([10, 12, 14, 11, 20], [30, 28, 25, 33, 31]))
    base_branching, other_branching = [3, 4, 2, 3, 4], [2, 3, 3, 3, 2]
    check(("options per decision", None), [219 / 67, 380 / 147], welch(base_branching, other_branching))
    check(("draw share", None), [0.2, 0.4], two_proportions(1, 5, 2, 5))


def test_compare_p_values_have_four_decimals():
    # draws 0 of 5 against 2 of 5: p = 0.11385..., a fifth decimal that must not show
    draws = [record(i, [] if i < 2 else [0], [1, 1], 10, 10, 20) for i in range(5)]
    none = [record(i, [0], [1, 1], 10, 10, 20) for i in range(5)]
    outcome = rp.compare([("a", rp.summarise(none, meta()), none), ("b", rp.summarise(draws, meta()), draws)])
    p = outcome["rows"][-1]["p_values"][1]
    expected = two_proportions(0, 5, 2, 5)
    assert round(expected, 5) != round(expected, 4)
    assert p == round(expected, 4)


def test_compare_table_is_laid_out_as_in_the_guide():
    """docs/cli.md's `compare` example, from its own numbers."""
    numbers = [("win rate", 0, [0.4, 0.7], 0.177), ("mean score", 0, [1.2, 2.3], 0.013),
               ("win rate", 1, [0.6, 0.3], 0.177), ("mean score", 1, [1.4, 1.8], 0.343),
               ("turns per game", None, [323.0, 532.1], 0.004), ("options per decision", None, [19.174, 19.126], 0.617),
               ("draw share", None, [0.0, 0.0], 1.0)]
    rows = [{"metric": m, **({"seat": s} if s is not None else {}), "values": v, "p_values": [None, p],
             "significant": [False, p < 0.05]} for m, s, v, p in numbers]
    text = rp.format_compare({"configs": ["base", "base rounds_to_win=3"], "alpha": 0.05, "rows": rows}, player_name)
    assert text.split("\n") == [
        "  metric                                  base  base rounds_to_win=3   p (vs first)",
        "  win rate, Player 1                     0.400                 0.700   0.177",
        "  mean score, Player 1                   1.200                 2.300   0.013 *",
        "  win rate, Player 2                     0.600                 0.300   0.177",
        "  mean score, Player 2                   1.400                 1.800   0.343",
        "  turns per game                       323.000               532.100   0.004 *",
        "  options per decision                  19.174                19.126   0.617",
        "  draw share                             0.000                 0.000   1.000",
        "  p: the chance of a difference this large between configurations that play alike;",
        "  * marks p below 0.05: a real difference"]


# ------------------------------------------------------------------ the score figure

@pytest.mark.slow
def test_score_figure_labels_seats_by_name_and_draws_each_seats_interval():
    import matplotlib.pyplot as plt
    report = rp.summarise(BASE, meta())
    figure = rp.score_figure(BASE, report, player_name)
    try:
        histograms = [ax for ax in figure.axes if ax.get_ylabel() == "games"]
        assert [ax.get_title(loc="left") for ax in histograms] == \
            ["Player 1 (greedy): mean score 1.60", "Player 2 (random): mean score 0.80"]
        assert all(ax.yaxis.label.get_fontsize() == 8 for ax in histograms), "small labels beside small plots"
        bars = next(ax for ax in figure.axes if ax.get_title() == "Win rate per seat (95% interval)")
        from matplotlib.container import BarContainer
        [container] = [c for c in bars.containers if isinstance(c, BarContainer)]
        assert [round(p.get_height(), 4) for p in container.patches] == [0.6, 0.2]
        segments = container.errorbar.lines[2][0].get_segments()
        # each seat's error bar spans its Wilson interval (3 of 5 and 1 of 5 wins)
        expected = [wilson_interval(3, 5), wilson_interval(1, 5)]
        assert [(round(s[0][1], 3), round(s[1][1], 3)) for s in segments] == \
            [(round(lo, 3), round(hi, 3)) for lo, hi in expected]
    finally:
        plt.close(figure)


def wilson_interval(k: int, n: int) -> tuple:
    z = statistics.NormalDist().inv_cdf(0.975)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half
