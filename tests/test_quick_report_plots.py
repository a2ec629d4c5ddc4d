"""Quick counterparts of the slow simulate/compare report tests: the text report's bot
lines and per-bot table (docs/cli.md, `simulate`), scripted opponents, and the PNGs of
`--plot` for simulate and compare, on hand-made game records whose numbers are worked out
here by hand."""
from __future__ import annotations

import math
import statistics
import struct


from boardwright.interpreter.playtest import report as rp


def player_name(seat: int) -> str:
    return f"Player {seat + 1}"


def record(index, bots, scores, winners, turns=10, opponents=None, endings=None):
    return {"index": index, "seed": index, "turns": turns, "decisions": turns, "options": 2 * turns,
            "lead_changes": 1, "first_player": 0, "winners": winners, "bots": bots, "scores": scores,
            "lines": [{"Rounds won": s} for s in scores], "endings": endings or [],
            **({"opponents": opponents} if opponents is not None else {})}


def meta(bots, rotate, players=2, **extra):
    return {"game": "Punto", "variant": None, "players": players, "seed": 1, "bots": bots,
            "rotate": rotate, "seconds": 1.1, **extra}


def docs_example_records() -> list:
    """docs/cli.md's rotated example: 10 games, greedy (2 rounds) beats random (0) in all of
    them, greedy sitting at seat 0 in even games and at seat 1 in odd ones."""
    out = []
    for i in range(10):
        bots = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        seat = bots.index("greedy")
        out.append(record(i, bots, [2 if p == seat else 0 for p in range(2)], [seat]))
    return out


def wilson(k: float, n: int) -> tuple:
    z = statistics.NormalDist().inv_cdf(0.975)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


# ------------------------------------------------------------------ the text report

def test_rotated_report_names_the_bots_and_adds_the_per_bot_table_of_the_docs():
    report = rp.summarise(docs_example_records(), meta(["greedy", "random"], True,
                                                       bot_settings={"greedy": "greedy (lookahead=200)",
                                                                     "random": "random"}))
    lines = rp.format_report(report, player_name).splitlines()
    # These lines are docs/cli.md's example output, word for word.
    assert lines[1] == ("  bots: Player 1 greedy, Player 2 random in the first game, rotated over the "
                        "seats from game to game")
    assert "  Player 1    0.500  0.237-0.763        1.000  1.054  Rounds won 1.000" in lines
    assert "  Player 2    0.500  0.237-0.763        1.000  1.054  Rounds won 1.000" in lines
    table = lines.index("  bot (all its seats)  win rate  95% interval  mean score")
    assert lines[table + 1:table + 4] == ["  greedy                  1.000  0.723-1.000        2.000",
                                          "  random                  0.000  0.000-0.278        0.000",
                                          "  bot settings: greedy (lookahead=200); random"]


def test_fixed_different_bots_label_each_seat_and_need_no_per_bot_table():
    recs = [record(0, ["greedy", "random"], [2, 0], [0]), record(1, ["greedy", "random"], [1, 2], [1])]
    report = rp.summarise(recs, meta(["greedy", "random"], False))
    lines = rp.format_report(report, player_name).splitlines()
    assert lines[1] == "  bots: Player 1 greedy, Player 2 random"
    assert any(line.startswith("  Player 1 (greedy)    0.500") for line in lines)
    assert any(line.startswith("  Player 2 (random)    0.500") for line in lines)
    assert not any("bot (all its seats)" in line for line in lines), "one bot per seat: the seat table says it all"


def test_one_bot_at_two_of_three_seats_gets_the_per_bot_table_too():
    recs = [record(0, ["greedy", "greedy", "random"], [3, 1, 0], [0], )]
    report = rp.summarise(recs, meta(["greedy", "greedy", "random"], False, players=3))
    text = rp.format_report(report, player_name)
    assert "bot (all its seats)" in text
    # greedy played 2 seats and won 1 of those 2 seat-games; its mean score is (3 + 1) / 2
    [row] = [line.split() for line in text.splitlines() if line.startswith("  greedy ")]
    assert row[:2] == ["greedy", "0.500"] and row[-1] == "2.000"


def test_scripted_opponent_line_counts_the_games_no_seat_won():
    recs = [record(0, ["greedy", "greedy"], [5, 4], [], opponents={"The bot": 30}),
            record(1, ["greedy", "greedy"], [9, 4], [0], opponents={"The bot": 7})]
    report = rp.summarise(recs, meta(["greedy", "greedy"], False))
    text = rp.format_report(report, player_name)
    # the opponent won game 0 (no seat did); its mean score is (30 + 7) / 2
    assert "  The bot (scripted opponent): won 1 of 2 games, mean score 18.500" in text
    assert "draws (nobody won): 0 of 2" in text, "a game the opponent won is no draw"


# ------------------------------------------------------------------ simulate --plot

def histogram_bins(values, whole):
    return rp._bins(values, whole)


def test_score_bins_one_per_whole_score_or_twenty_equal_ones():
    assert histogram_bins([0, 3, 1], True) == [-0.5, 0.5, 1.5, 2.5, 3.5]
    assert histogram_bins([0, 40], True) == [v - 0.5 for v in range(42)]      # 41 scores: still one bin each
    wide = histogram_bins([0, 100], True)           # 100 / 20 = 5 points per bin, on whole-number edges
    assert wide[0] == -0.5 and {b - a for a, b in zip(wide, wide[1:])} == {5} and wide[-1] >= 100
    odd = histogram_bins([0.0, 1.5], False)
    steps = [b - a for a, b in zip(odd, odd[1:])]
    assert odd[0] == 0.0 and odd[-1] >= 1.5 and all(math.isclose(s, 1.5 / 20) for s in steps)
    assert histogram_bins([], True) == [-0.5, 0.5, 1.5]
    assert rp._whole([1, 2.0]) and not rp._whole([1, 2.5])


def png_size(path) -> tuple:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_simulate_plot_writes_a_png_with_a_histogram_per_seat_and_rate_bars(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt
    from matplotlib.container import BarContainer
    recs = docs_example_records()
    report = rp.summarise(recs, meta(["greedy", "random"], True))
    path = tmp_path / "plot.png"
    closed = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig=None: (closed.append(fig), real_close(fig)))
    rp.plot(str(path), recs, report, player_name)
    width, height = png_size(path)
    assert width > 300 and height > 200
    [figure] = closed                       # the figure the PNG was drawn from, closed by plot
    histograms = [ax for ax in figure.axes if ax.get_ylabel() == "games"]
    # rotated seats: labelled by player only, each seat's mean score is 1 (2 in half its games)
    assert [ax.get_title(loc="left") for ax in histograms] == \
        ["Player 1: mean score 1.00", "Player 2: mean score 1.00"]
    assert histograms[-1].get_xlabel() == "final score"
    seat_bars = next(ax for ax in figure.axes if ax.get_title() == "Win rate per seat (95% interval)")
    bot_bars = next(ax for ax in figure.axes if ax.get_title() == "Win rate per bot, all seats (95% interval)")
    [seats] = [c for c in seat_bars.containers if isinstance(c, BarContainer)]
    [bots] = [c for c in bot_bars.containers if isinstance(c, BarContainer)]
    assert [round(p.get_height(), 4) for p in seats.patches] == [0.5, 0.5]
    assert [round(p.get_height(), 4) for p in bots.patches] == [1.0, 0.0]      # greedy, random
    ends = [(round(s[0][1], 3), round(s[1][1], 3)) for s in bots.errorbar.lines[2][0].get_segments()]
    assert ends == [tuple(round(v, 3) for v in wilson(10, 10)), tuple(round(v, 3) for v in wilson(0, 10))]
    assert [t.get_text() for t in bot_bars.get_xticklabels()] == ["greedy", "random"]
    assert seat_bars.get_ylim() == (0, 1)
    assert figure._suptitle.get_text() == "Punto: 10 games, 2 players"


def test_fixed_bots_plot_labels_seats_with_bots_and_has_no_bot_panel():
    import matplotlib.pyplot as plt
    recs = [record(0, ["greedy", "random"], [2.5, 0.0], [0]), record(1, ["greedy", "random"], [1.5, 2.0], [1])]
    report = rp.summarise(recs, meta(["greedy", "random"], False, variant="team"))
    figure = rp.score_figure(recs, report, player_name)
    try:
        titles = [ax.get_title() for ax in figure.axes]
        assert "Win rate per bot, all seats (95% interval)" not in titles
        assert [ax.get_title(loc="left") for ax in figure.axes if ax.get_ylabel() == "games"] == \
            ["Player 1 (greedy): mean score 2.00", "Player 2 (random): mean score 1.00"]
        assert figure._suptitle.get_text() == "Punto (team): 2 games, 2 players"
    finally:
        plt.close(figure)


# ------------------------------------------------------------------ compare --plot

def test_compare_plot_draws_each_seats_rate_per_configuration_and_mean_turns(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt
    from matplotlib.container import BarContainer
    base = rp.summarise([record(0, ["random"] * 2, [1, 0], [0], turns=30),
                         record(1, ["random"] * 2, [1, 0], [0], turns=50)], meta(["random"] * 2, False))
    short = rp.summarise([record(0, ["random"] * 2, [0, 1], [1], turns=10),
                          record(1, ["random"] * 2, [1, 0], [0], turns=20)], meta(["random"] * 2, False))
    closed = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig=None: (closed.append(fig), real_close(fig)))
    path = tmp_path / "compare.png"
    rp.plot_compare(str(path), {"reports": [base, short], "configs": ["base", "base win_length=4"]}, player_name)
    assert png_size(path) == (int(3.2 * 3 * 100), int(4.2 * 100))     # 2 seats + 1 length panel, dpi 100
    [figure] = closed
    axes = figure.axes
    assert [ax.get_title() for ax in axes] == ["Player 1: win rate (95%)", "Player 2: win rate (95%)",
                                               "Mean turns per game"]
    heights = [[round(p.get_height(), 4) for p in ax.patches] for ax in axes]
    assert heights == [[1.0, 0.5], [0.0, 0.5], [40.0, 15.0]]    # seat rates per config; (30+50)/2, (10+20)/2
    assert [t.get_text() for t in axes[2].get_xticklabels()] == ["base", "base\nwin_length=4"]
    assert figure._suptitle.get_text() == "Punto: 2 games per configuration"
    assert [c for c in axes[0].containers if isinstance(c, BarContainer)]
