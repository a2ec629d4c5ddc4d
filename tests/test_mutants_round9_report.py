"""Round 9 of mutation testing (docs/testing.md "Round 9"): whole kinds of what a user sees of
`interpreter/playtest/report.py` (simulate's and compare's text, JSON and `--plot` figures,
compare's p-values), pinned line by line, key by key, tick by tick (cli/render.py's are in
tests/test_mutants_round9_render.py). Expected values come from docs/cli.md's layouts and are worked out here by hand
(or by textbook formulas: the Wilson interval, Student's t from its table), never copied from
the engine's output."""
from __future__ import annotations

import math
import statistics

import pytest

from boardwright.interpreter.playtest import report as rp

Z = statistics.NormalDist().inv_cdf(0.975)
T975 = {2: 4.3027, 3: 3.1824}          # Student's t, 0.975 quantile (a textbook's table, 4 decimals)


def player_name(seat: int) -> str:
    return f"Player {seat + 1}"


def wilson(k: float, n: int) -> tuple:
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def interval(k: float, n: int) -> str:
    """The text's interval: the JSON's figures (4 decimals) to 3 decimals."""
    low, high = (round(v, 4) for v in wilson(k, n))
    return f"{low:.3f}-{high:.3f}"


def game(index, bots, scores, winners, turns, decisions, options, lead_changes, first, endings=(),
         measures=None, opponents=None):
    return {"index": index, "seed": 100 + index, "bots": list(bots), "scores": list(scores),
            "lines": [{"Points": s} for s in scores], "winners": list(winners), "turns": turns,
            "decisions": decisions, "options": options, "lead_changes": lead_changes, "first_player": first,
            "endings": list(endings), **({"measures": measures} if measures is not None else {}),
            **({"opponents": opponents} if opponents is not None else {})}


# Three seats, fixed different bots (greedy at two seats): every seat labelled with its bot, and a
# per-bot table (one bot at several seats beside another); a variant, endings, a measure.
FIXED_BOTS = ["greedy", "greedy", "random"]
FIXED = [game(0, FIXED_BOTS, [3, 1, 0], [0], 10, 8, 24, 2, 0, ["timeout"], {"gap": 2}),
         game(1, FIXED_BOTS, [2, 2, 2], [1, 2], 12, 10, 20, 0, 1, [], {"gap": 0}),
         game(2, FIXED_BOTS, [1, 1, 1], [], 6, 6, 6, 1, 2, ["timeout", "stuck"], {"gap": 0}),
         game(3, FIXED_BOTS, [0, 1, 4], [2], 20, 16, 48, 3, None, [], {"gap": 3})]
FIXED_META = {"game": "Race", "variant": "team", "players": 3, "seed": 7, "bots": FIXED_BOTS, "rotate": False,
              "seconds": 2.36, "bot_settings": {"greedy": "greedy (lookahead=200)", "random": "random"}}

# Two seats, bots rotated, one bot spec longer than the per-bot table's 20 columns, a scripted
# opponent, thirds everywhere (so every rounding shows).
LONG = "greedy:lookahead=1000"
ROTATED = [game(0, [LONG, "random"], [5, 2], [0], 7, 7, 14, 1, 0, measures={"gap": 1}, opponents={"Dealer": 4}),
           game(1, ["random", LONG], [1, 3], [], 9, 9, 9, 0, 1, measures={"gap": 4}, opponents={"Dealer": 9}),
           game(2, [LONG, "random"], [4, 4], [0, 1], 8, 8, 24, 2, 0, measures={"gap": 2}, opponents={"Dealer": 1})]
ROTATED_META = {"game": "Duel", "variant": None, "players": 2, "seed": 1, "bots": [LONG, "random"], "rotate": True,
                "seconds": 0.04}


# ------------------------------------------------------------------ the text report, every line

def test_the_text_report_of_fixed_bots_with_a_variant_endings_and_a_measure_line_by_line():
    """docs/cli.md, simulate: the report's lines in their order and columns (the seat column as
    wide as its longest label), every figure worked out by hand from the four games above.
    Kills the title without its variant (`report['VARIANT']`, the census of round 9), any
    column width, label, legend or figure of the report."""
    lines = rp.format_report(rp.summarise(FIXED, FIXED_META), player_name).splitlines()
    # first mover: seat 0 won game 0 (1), seat 1 shared game 1 (1/2), seat 2 lost game 2 (0);
    # game 3 names no first mover: 1.5 / 3 = 0.500, minus the even share 1/3
    assert lines == [
        "Race (team): 4 games, 3 players, seed 7",
        "  bots: Player 1 greedy, Player 2 greedy, Player 3 random",
        "                    win rate  95% interval  mean score     sd  score lines",
        f"  Player 1 (greedy)    0.250  {interval(1, 4)}        1.500  1.291  Points 1.500",
        f"  Player 2 (greedy)    0.125  {interval(0.5, 4)}        1.250  0.500  Points 1.250",
        f"  Player 3 (random)    0.375  {interval(1.5, 4)}        1.750  1.708  Points 1.750",
        "  bot (all its seats)  win rate  95% interval  mean score",
        f"  greedy                  0.188  {interval(1.5, 8)}        1.375",
        f"  random                  0.375  {interval(1.5, 4)}        1.750",
        "  bot settings: greedy (lookahead=200); random",
        "  game length: 12.000 turns on average (sd 5.888, shortest 6, longest 20)",
        "  options per decision: 2.450 on average; lead changes: 1.500 per game",
        "  shared wins: 0.250 of games; draws (nobody won): 1 of 4",
        "  first-player advantage: +0.167 (the first mover won 0.500; fair is 0.333)",
        '  games decided by named endings and fallbacks: "timeout" 2, "stuck" 1',
        # gap 2, 0, 0, 3: mean 1.25, sd 1.5, half width t(3) * 1.5 / 2
        f'  measure "gap": 1.250 on average (95% interval {1.25 - T975[3] * 0.75:.3f}-{1.25 + T975[3] * 0.75:.3f})',
        "  win rate: games won per game, a win shared by k players counting 1/k; the",
        "  true rate lies in the 95% interval with 95% confidence (more games narrow it)",
        "  2.4 s"]


def test_the_text_report_of_rotated_bots_with_a_long_bot_and_a_scripted_opponent_line_by_line():
    """docs/cli.md, simulate --rotate: seats labelled by player only (8 columns), the per-bot
    table as wide as its longest bot spec (21 > 20), the scripted opponent's line, no settings,
    endings or measure lines when there are none to show."""
    report = rp.summarise(ROTATED, ROTATED_META)
    report.pop("measures")
    lines = rp.format_report(report, player_name).splitlines()
    assert lines == [
        "Duel: 3 games, 2 players, seed 1",
        f"  bots: Player 1 {LONG}, Player 2 random in the first game, rotated over the seats from game to game",
        "           win rate  95% interval  mean score     sd  score lines",
        f"  Player 1    0.500  {interval(1.5, 3)}        3.333  2.082  Points 3.333",
        f"  Player 2    0.167  {interval(0.5, 3)}        3.000  1.000  Points 3.000",
        "  bot (all its seats)   win rate  95% interval  mean score",
        f"  {LONG}    0.500  {interval(1.5, 3)}        4.000",
        f"  random                   0.167  {interval(0.5, 3)}        2.333",
        "  Dealer (scripted opponent): won 1 of 3 games, mean score 4.667",
        "  game length: 8.000 turns on average (sd 1.000, shortest 7, longest 9)",
        "  options per decision: 1.958 on average; lead changes: 1.000 per game",
        "  shared wins: 0.333 of games; draws (nobody won): 0 of 3",
        "  first-player advantage: +0.000 (the first mover won 0.500; fair is 0.500)",
        "  win rate: games won per game, a win shared by k players counting 1/k; the",
        "  true rate lies in the 95% interval with 95% confidence (more games narrow it)",
        "  0.0 s"]


# ------------------------------------------------------------------ the JSON summary, every key

def test_the_json_summary_has_every_documented_key_with_four_decimals():
    """docs/cli.md, simulate --json: every key, each figure rounded to 4 decimals (thirds
    everywhere, so a 5-decimal rounding shows). Kills `round(mean, 5)` of a measure (the census
    of round 9) and the rounding of every other figure."""
    report = rp.summarise(ROTATED, ROTATED_META)
    gap_sd = statistics.stdev([1, 4, 2])
    gap_half = T975[2] * gap_sd / math.sqrt(3)
    ends = (7 / 3 - gap_half, 7 / 3 + gap_half)
    assert all(round(end, 5) != round(end, 4) for end in ends), "the data show a fifth decimal"
    assert report == {
        **ROTATED_META,
        "games": 3, "wins": [1.5, 0.5], "draws": 0, "scores": [3.3333, 3.0],
        "turns": {"mean": 8.0, "min": 7, "max": 9, "sd": 1.0},
        "decisions": {"mean": 8.0},
        "branching": round(47 / 24, 4), "ties": 0.3333, "first_player_advantage": 0.0, "lead_changes": 1.0,
        "endings": {},
        "seats": [{"seat": 0, "wins": 1.5, "win_rate": 0.5, "ci95": tuple(round(v, 4) for v in wilson(1.5, 3)),
                   "score_mean": 3.3333, "score_sd": round(statistics.stdev([5, 1, 4]), 4),
                   "lines": {"Points": 3.3333}},
                  {"seat": 1, "wins": 0.5, "win_rate": 0.1667, "ci95": tuple(round(v, 4) for v in wilson(0.5, 3)),
                   "score_mean": 3.0, "score_sd": 1.0, "lines": {"Points": 3.0}}],
        "by_bot": [{"bot": LONG, "seat_games": 3, "wins": 1.5, "win_rate": 0.5,
                    "ci95": tuple(round(v, 4) for v in wilson(1.5, 3)), "score_mean": 4.0},
                   {"bot": "random", "seat_games": 3, "wins": 0.5, "win_rate": 0.1667,
                    "ci95": tuple(round(v, 4) for v in wilson(0.5, 3)), "score_mean": 2.3333}],
        "opponents": [{"opponent": "Dealer", "wins": 1, "score_mean": 4.6667}],
        "measures": {"gap": {"mean": 2.3333, "ci95": [round(end, 4) for end in ends]}}}


# Student's t, 0.975 quantile, from a textbook table (4 decimals)
T_TABLE = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 6: 2.4469, 7: 2.3646, 8: 2.3060, 9: 2.2622,
           10: 2.2281, 11: 2.2010, 12: 2.1788, 13: 2.1604, 14: 2.1448, 15: 2.1314, 16: 2.1199, 17: 2.1098, 18: 2.1009,
           19: 2.0930, 20: 2.0860, 21: 2.0796, 22: 2.0739, 23: 2.0687, 24: 2.0639, 25: 2.0595, 26: 2.0555,
           27: 2.0518, 28: 2.0484, 29: 2.0452, 30: 2.0423, 40: 2.0211, 60: 2.0003, 120: 1.9799}


@pytest.mark.parametrize("df", sorted(T_TABLE))
def test_the_t_quantile_is_the_printed_table_and_past_it_within_a_hundredth_of_a_percent(df):
    """interpreter/playtest/report.py t_quantile (a measure's 95% interval, docs/cli.md): up to
    10 degrees of freedom the table itself, above it an expansion "within 0.01%" of the exact
    quantile, as its docstring says; every df from 1 to 30 and a few beyond. Kills `19 / z ** 5`
    in the third term (0.05% off at df 11) and a table entry changed (`3.3646` for df 7), both
    census survivors of round 9 that the older test's four dfs within 0.002 let pass."""
    assert abs(rp.t_quantile(df) - T_TABLE[df]) / T_TABLE[df] < 1e-4

# ------------------------------------------------------------------ the --plot figures, every element

def rate_panel(ax) -> dict:
    """Everything a reader sees of a win-rate panel: bars, their colours and 95% intervals (the
    error bars' ends and caps), tick labels, the even-share line, scale, legend and title."""
    from matplotlib.colors import to_hex
    from matplotlib.container import BarContainer
    [bars] = [c for c in ax.containers if isinstance(c, BarContainer)]
    _, caps, (stems,) = bars.errorbar.lines
    [even] = [line for line in ax.get_lines() if line not in caps]
    legend = ax.get_legend()
    ticks = ax.get_xticklabels()
    return {"heights": [round(p.get_height(), 4) for p in bars.patches],
            "colours": [to_hex(p.get_facecolor()) for p in bars.patches],
            "intervals": [(round(s[0][1], 4), round(s[1][1], 4)) for s in stems.get_segments()],
            "caps": sorted({cap.get_markersize() for cap in caps}),
            "ticks": [t.get_text() for t in ticks], "tick sizes": {t.get_fontsize() for t in ticks},
            "tick rotations": {t.get_rotation() for t in ticks},
            "even share": (list(even.get_ydata()), to_hex(even.get_color()), even.get_linestyle(),
                           even.get_linewidth(), even.get_label()),
            "ylim": ax.get_ylim(), "ylabel": ax.get_ylabel(),
            "legend": ([t.get_text() for t in legend.get_texts()], {t.get_fontsize() for t in legend.get_texts()},
                       legend._loc),
            "title": (ax.get_title(), ax.title.get_fontsize())}


def cycle(i: int) -> str:
    """Matplotlib's default colour cycle, 'C0', 'C1', ... (its tab10 palette)."""
    return ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"][i]


def expected_panel(rates, ks, n, labels, players, title, colours, rotation=0):
    return {"heights": rates, "colours": colours,
            "intervals": [tuple(round(v, 4) for v in wilson(k, m)) for k, m in zip(ks, n)],
            "caps": [10.0],                      # capsize 5 points: caps 2 * 5 wide
            "ticks": labels, "tick sizes": {8.0}, "tick rotations": {float(rotation)},
            "even share": ([1 / players, 1 / players], "#808080", "--", 1.0, f"even share 1/{players}"),
            "ylim": (0.0, 1.0), "ylabel": "win rate",
            "legend": ([f"even share 1/{players}"], {8.0}, 0),      # loc "best" is code 0
            "title": (title, 10.0)}


@pytest.fixture
def pyplot():
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt
    figures = []
    yield figures
    for figure in figures:
        plt.close(figure)


def test_every_element_of_the_simulate_figure_with_rotated_bots(pyplot):
    """docs/cli.md, simulate --plot: per seat a histogram of final scores (one above the other,
    one scale, whole-number ticks for whole-number scores), the win rate per seat and per bot
    with their 95% intervals. Kills the score axis's ticks without `integer=True` (the fresh
    sample of seed 31), the even-share line's width (the census of round 9) and any other
    size, colour, label, tick or scale of the figure."""
    from matplotlib.colors import to_hex
    report = rp.summarise(ROTATED, ROTATED_META)
    figure = rp.score_figure(ROTATED, report, player_name)
    pyplot.append(figure)
    figure.canvas.draw()
    assert tuple(figure.get_size_inches()) == (12.0, max(4.5, 1.6 * 2 + 1.5))
    assert figure._suptitle.get_text() == "Duel: 3 games, 2 players"
    histograms = [ax for ax in figure.axes if ax.get_ylabel() == "games"]
    assert len(histograms) == 2
    for seat, (ax, scores, mean) in enumerate(zip(histograms, ([5, 1, 4], [2, 3, 4]), ("3.33", "3.00"))):
        # one bin per whole score from 1 to 5, shared by both seats, the seat's colour, white edges
        assert [(p.get_x(), p.get_width()) for p in ax.patches] == [(s - 0.5, 1.0) for s in range(1, 6)]
        assert [p.get_height() for p in ax.patches] == [scores.count(s) for s in range(1, 6)]
        assert {to_hex(p.get_facecolor()) for p in ax.patches} == {cycle(seat)}
        assert {to_hex(p.get_edgecolor()) for p in ax.patches} == {"#ffffff"}
        [line] = ax.get_lines()                  # the mean, in black
        assert (list(line.get_xdata()), to_hex(line.get_color()), line.get_linewidth()) == \
            ([round(statistics.fmean(scores), 4)] * 2, "#000000", 1.0)
        assert (ax.get_title(loc="left"), ax._left_title.get_fontsize()) == \
            (f"Player {seat + 1}: mean score {mean}", 9.0)
        assert ax.yaxis.label.get_fontsize() == 8.0
        low, high = ax.get_xlim()
        xticks = [t for t in ax.get_xticks() if low <= t <= high]
        assert xticks and all(float(t).is_integer() for t in xticks), xticks     # whole-number scores
        low, high = ax.get_ylim()
        yticks = [t for t in ax.get_yticks() if low <= t <= high]
        assert 2 <= len(yticks) <= 4 and all(float(t).is_integer() for t in yticks), yticks   # a few whole counts
    seats, bots = (next(ax for ax in figure.axes if ax.get_title() == title)
                   for title in ("Win rate per seat (95% interval)", "Win rate per bot, all seats (95% interval)"))
    assert rate_panel(seats) == expected_panel([0.5, 0.1667], [1.5, 0.5], [3, 3], ["Player 1", "Player 2"], 2,
                                               "Win rate per seat (95% interval)", [cycle(0), cycle(1)])
    # a bot's settings go on a line of their own (after ':'); a line longer than 10 characters
    # turns every label by 30 degrees
    assert rate_panel(bots) == expected_panel([0.5, 0.1667], [1.5, 0.5], [3, 3], [LONG.replace(":", "\n"), "random"], 2,
                                              "Win rate per bot, all seats (95% interval)", [cycle(0), cycle(1)],
                                              rotation=30)


def test_fractional_scores_get_twenty_bins_and_ticks_between_whole_numbers(pyplot):
    """docs/cli.md: whole-number ticks only for whole-number scores; fractional scores get 20
    equal bins and the axis's own ticks (halves here)."""
    records = [game(i, ["random"] * 2, [s, 2 - s], [0] if s > 1 else [1], 10, 10, 20, 0, 0)
               for i, s in enumerate([0.0] * 8 + [0.5, 2.0])]
    report = rp.summarise(records, {**ROTATED_META, "bots": ["random"] * 2, "rotate": False})
    figure = rp.score_figure(records, report, player_name)
    pyplot.append(figure)
    figure.canvas.draw()
    assert tuple(figure.get_size_inches()) == (10.0, 4.7)             # no bot panel: 10 inches wide
    first = next(ax for ax in figure.axes if ax.get_ylabel() == "games")
    assert [round(p.get_x(), 4) for p in first.patches] == [round(i * 0.1, 4) for i in range(21)]
    low, high = first.get_xlim()
    assert any(not float(t).is_integer() for t in first.get_xticks() if low <= t <= high)
    low, high = first.get_ylim()                    # 8 games in the first bin: a few whole counts
    yticks = [t for t in first.get_yticks() if low <= t <= high]
    assert 2 <= len(yticks) <= 4 and all(float(t).is_integer() for t in yticks), yticks


def test_every_element_of_the_compare_figure(pyplot, monkeypatch, tmp_path):
    """docs/cli.md, compare --plot: per seat, the win rate under each configuration (95%
    interval), and the mean game length under each configuration, each configuration in its
    own colour in every panel. Kills the length bars without their configurations' colours
    (the census of round 9) and any other size, colour, label or tick of the figure."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex
    three = ["random"] * 3
    base = rp.summarise([game(0, three, [1, 0, 0], [0], 30, 30, 60, 0, 0),
                         game(1, three, [0, 1, 0], [1], 50, 50, 100, 0, 0)], {**ROTATED_META, "players": 3,
                                                                               "bots": three, "rotate": False})
    other = rp.summarise([game(0, three, [0, 0, 1], [2], 10, 10, 20, 0, 0),
                          game(1, three, [1, 1, 0], [0, 1], 20, 20, 40, 0, 0)], {**ROTATED_META, "players": 3,
                                                                                  "bots": three, "rotate": False})
    kept = []
    monkeypatch.setattr(plt, "close", lambda fig=None: kept.append(fig))
    names = ["base", "base rounds=3", "short"]
    rp.plot_compare(str(tmp_path / "c.png"), {"reports": [base, other, base], "configs": names}, player_name)
    [figure] = kept
    pyplot.append(figure)
    assert tuple(figure.get_size_inches()) == (3.2 * 4, 4.2)           # 3 seats + the length panel
    assert figure._suptitle.get_text() == "Duel: 2 games per configuration"
    colours = [cycle(0), cycle(1), cycle(2)]
    wins = ([1, 0.5, 1], [1, 0.5, 1], [0, 1, 0])         # per seat: wins in base, other, base (2 games each)
    labels = ["base", "base rounds=3", "short"]           # "base rounds=3" is 13 characters: turned by 30
    for seat in range(3):
        assert rate_panel(figure.axes[seat]) == expected_panel(
            [round(k / 2, 4) for k in wins[seat]], wins[seat], [2, 2, 2], labels, 3,
            f"Player {seat + 1}: win rate (95%)", colours, rotation=30)
    lengths = figure.axes[3]
    assert [p.get_height() for p in lengths.patches] == [40.0, 15.0, 40.0]
    assert [to_hex(p.get_facecolor()) for p in lengths.patches] == colours
    assert [t.get_text() for t in lengths.get_xticklabels()] == ["base", "base\nrounds=3", "short"]
    assert {t.get_fontsize() for t in lengths.get_xticklabels()} == {8.0}
    assert (lengths.get_title(), lengths.title.get_fontsize()) == ("Mean turns per game", 10.0)


# ------------------------------------------------------------------ compare's p-values at their edges

@pytest.mark.parametrize("a, b, p", [
    ([2, 2, 2], [2, 2], 1.0),          # no spread and the same mean: no evidence of a difference
    ([1, 1, 1], [3, 3], 0.0),          # no spread and different means: certainly different
    ([2], [1, 5], 1.0),                # one value has no variance: nothing to test
    ([1, 5], [2], 1.0)])
def test_welchs_p_value_of_samples_without_spread_or_too_small(a, b, p):
    """compare (docs/cli.md): Welch's t-test where its formula divides by zero. Kills `2.0` for
    equal means without spread (the census of round 9: a p-value above 1)."""
    assert rp.welch_p(a, b) == p


def test_a_measure_that_never_varies_shows_p_one_and_no_star_in_compare():
    """compare's table (docs/cli.md): a measure equal in every game of both configurations is
    no difference: p 1.000, not marked."""
    base = [game(i, ["random"] * 2, [1, 0], [0], 10, 10, 20, 0, 0, measures={"gap": 2}) for i in range(3)]
    result = rp.compare([("base", rp.summarise(base, {**ROTATED_META, "rotate": False}), base),
                         ("same", rp.summarise(base, {**ROTATED_META, "rotate": False}), base)])
    [row] = [row for row in result["rows"] if row["metric"] == 'measure "gap"']
    assert (row["values"], row["p_values"], row["significant"]) == ([2.0, 2.0], [None, 1.0], [False, False])
    [line] = [line for line in rp.format_compare(result, player_name).splitlines() if 'measure "gap"' in line]
    assert line.endswith("   1.000")



def welch_by_hand(a, b) -> float:
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return 2 * (1 - statistics.NormalDist().cdf(abs(statistics.fmean(a) - statistics.fmean(b)) / se))


def proportions_by_hand(x1, n1, x2, n2) -> float:
    pooled = (x1 + x2) / (n1 + n2)
    z = abs(x1 / n1 - x2 / n2) / math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return 2 * (1 - statistics.NormalDist().cdf(z))


def test_every_p_value_of_compare_is_its_tests_to_four_decimals():
    """compare (docs/cli.md: "a two-proportion z-test for rates, Welch's t-test for means";
    `--json` keeps four decimals): each metric's p-value, worked out here by the textbook
    formulas, to 4 decimals. Kills a whole-number rounding of the turns' p-value (the third
    census of report.py, round 9) and of any other metric's."""
    def games(rows):
        return [game(i, ["random"] * 2, scores, winners, turns, turns, options, 0, 0)
                for i, (scores, winners, turns, options) in enumerate(rows)]
    a = games([([3, 1], [0], 10, 25), ([2, 2], [], 12, 30), ([0, 4], [1], 9, 30), ([5, 0], [0], 14, 30)])
    b = games([([1, 3], [1], 12, 41), ([0, 2], [1], 15, 60), ([2, 2], [], 11, 50), ([1, 1], [], 16, 40)])
    meta_ = {**ROTATED_META, "rotate": False, "bots": ["random"] * 2}
    result = rp.compare([("a", rp.summarise(a, meta_), a), ("b", rp.summarise(b, meta_), b)])
    got = {(row["metric"], row.get("seat")): row["p_values"][1] for row in result["rows"]}
    wins = ([2, 1], [0, 2])                         # per configuration, seat 0's and seat 1's wins
    expected = {("turns per game", None): welch_by_hand([10, 12, 9, 14], [12, 15, 11, 16]),
                ("options per decision", None): welch_by_hand([2.5, 2.5, 30 / 9, 30 / 14],
                                                              [41 / 12, 4, 50 / 11, 2.5]),
                ("draw share", None): proportions_by_hand(1, 4, 2, 4)}
    for seat in range(2):
        expected[("win rate", seat)] = proportions_by_hand(wins[0][seat], 4, wins[1][seat], 4)
        scores = ([[3, 2, 0, 5], [1, 2, 4, 0]][seat], [[1, 0, 2, 1], [3, 2, 2, 1]][seat])
        expected[("mean score", seat)] = welch_by_hand(*scores)
    assert got == {key: round(p, 4) for key, p in expected.items()}
    assert all(0.0001 < p < 0.9999 for p in got.values()), got        # no p-value is a whole number
    # docs/cli.md, compare --json: `configs`, `alpha`, `rows` and `reports` (each configuration's
    # whole simulate report, which --plot draws from); the third census of round 9 renamed `reports`
    assert result["configs"] == ["a", "b"] and result["alpha"] == 0.05
    assert set(result) == {"configs", "alpha", "rows", "reports"}
    assert result["reports"] == [rp.summarise(a, meta_), rp.summarise(b, meta_)]


def test_a_measures_p_value_in_compare_has_four_decimals_like_every_other():
    """compare --json (docs/cli.md: `p_values`; "JSON keeps four" decimals): a measure's p-value
    is Welch's, worked out here by its textbook formula, to 4 decimals. Kills `round(p, )` (the
    census of round 9: the p-value rounded to a whole 0 or 1)."""
    def games(gaps):
        return [game(i, ["random"] * 2, [1, 0], [0], 10, 10, 20, 0, 0, measures={"gap": g}) for i, g in enumerate(gaps)]
    a, b = [1, 2, 4], [3, 5, 6]
    meta_ = {**ROTATED_META, "rotate": False}
    result = rp.compare([("base", rp.summarise(games(a), meta_), games(a)),
                         ("more", rp.summarise(games(b), meta_), games(b))])
    [row] = [row for row in result["rows"] if row["metric"] == 'measure "gap"']
    se = math.sqrt(statistics.variance(a) / 3 + statistics.variance(b) / 3)
    z = abs(statistics.fmean(a) - statistics.fmean(b)) / se
    assert row["p_values"] == [None, round(2 * (1 - statistics.NormalDist().cdf(z)), 4)]
    assert 0 < row["p_values"][1] < 1



def test_the_win_rate_legend_finds_its_best_place_whatever_the_users_matplotlib_settings(pyplot, monkeypatch):
    """interpreter/playtest/report.py _rate_bars: the legend of the even-share line is placed
    where it hides the fewest bars (`loc="best"`), also when the user's matplotlibrc puts legends
    elsewhere. Kills `loc=None` (the census of round 9: the legend then follows the rc file)."""
    import matplotlib
    monkeypatch.setitem(matplotlib.rcParams, "legend.loc", "upper right")
    figure = rp.score_figure(ROTATED, rp.summarise(ROTATED, ROTATED_META), player_name)
    pyplot.append(figure)
    panels = [ax for ax in figure.axes if ax.get_legend() is not None]
    assert len(panels) == 2 and {ax.get_legend()._loc for ax in panels} == {0}       # 0: "best"


def test_two_games_already_have_a_spread_and_one_game_has_none():
    """docs/cli.md, simulate: `sd` is the standard deviation of the scores (and of the game
    lengths): two games are enough for one (n - 1 = 1), one game gives 0. Kills `len(values) > 2`
    (the second census of round 9: the spread of two games shown as 0)."""
    two = [game(0, ["random"] * 2, [1, 4], [1], 10, 10, 20, 0, 0),
           game(1, ["random"] * 2, [3, 4], [0], 14, 14, 28, 0, 0)]
    report = rp.summarise(two, {**ROTATED_META, "bots": ["random"] * 2, "rotate": False})
    assert [s["score_sd"] for s in report["seats"]] == [round(math.sqrt(2), 4), 0.0]     # (1 - 2)² + (3 - 2)², / 1
    assert report["turns"]["sd"] == round(math.sqrt(8), 4)                               # 2² + 2², / 1
    one = rp.summarise(two[:1], {**ROTATED_META, "bots": ["random"] * 2, "rotate": False})
    assert ([s["score_sd"] for s in one["seats"]], one["turns"]["sd"]) == ([0.0, 0.0], 0.0)


@pytest.mark.parametrize("names, rotation", [(["a", "b", "c"], 0.0), (["a", "b", "c", "d"], 30.0),
                                             (["a", "ten chars!", "c"], 0.0), (["a", "eleven char", "c"], 30.0)])
def test_win_rate_labels_turn_when_there_are_more_than_three_or_a_line_is_longer_than_ten(
        pyplot, monkeypatch, tmp_path, names, rotation):
    """interpreter/playtest/report.py _rate_bars (compare --plot): up to three short labels stand
    upright; a fourth bar, or a label line of 11 characters or more, turns them all by 30 degrees
    so that they do not overlap."""
    import matplotlib.pyplot as plt
    kept = []
    monkeypatch.setattr(plt, "close", lambda fig=None: kept.append(fig))
    report = rp.summarise(ROTATED, ROTATED_META)
    rp.plot_compare(str(tmp_path / "c.png"), {"reports": [report] * len(names), "configs": names}, player_name)
    [figure] = kept
    pyplot.append(figure)
    assert {t.get_rotation() for ax in figure.axes[:2] for t in ax.get_xticklabels()} == {rotation}


def test_a_plot_without_matplotlib_says_exactly_what_to_install(monkeypatch):
    """docs/cli.md: `--plot` needs `pip install 'boardwright[plot]'`, and without it the command
    says so: the whole message, nothing before or after it (a regex search let a garbled one
    pass: the second census of round 9)."""
    import sys

    from boardwright.dsl.errors import UsageError
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(UsageError) as caught:
        rp._pyplot()
    assert str(caught.value) == "--plot needs matplotlib: pip install 'boardwright[plot]'"


# ------------------------------------------------------------------ tune --param --plot, every element

@pytest.mark.parametrize("values, best, positions, shown", [
    ([3, 1, 2], 1, [3, 1, 2], "1"),                                  # a number: at its value
    (["a", "b", "a"], "b", [0, 1, 0], "b"),                          # names: in order of first appearance
    ([True, False, True], False, [0, 1, 0], "false")])               # yes/no as names, written as in a rule file
def test_every_element_of_the_tune_plot(pyplot, monkeypatch, tmp_path, values, best, positions, shown):
    """docs/cli.md, tune --param --plot: "each trial's loss with the best so far" (left) and the
    loss against the first param with the confirmed best marked (right); a trial that broke the
    rules (no loss) is left out. Kills the right-hand dots' colour and its legend's size (the
    census of round 9) and any other colour, size, label or place of the figure."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex

    from boardwright.interpreter.playtest.tune_report import plot_tune
    kept = []
    monkeypatch.setattr(plt, "close", lambda fig=None: kept.append(fig))
    losses = [0.3, 0.1, 0.2]
    trials = [{"params": {"x": v}, "losses": [loss, 9.0]} for v, loss in zip(values, losses)]
    result = {"game": "Fake", "goals": ["first-player=0.5", "length=20"], "params": ["x"],
              "trials": trials[:2] + [{"params": {"x": values[0]}, "rule_error": "boom"}] + trials[2:],
              "best": {"params": {"x": best}}}
    plot_tune(str(tmp_path / "t.png"), result)
    [figure] = kept
    pyplot.append(figure)
    assert tuple(figure.get_size_inches()) == (10.0, 4.0)
    assert figure._suptitle.get_text() == "Fake: tune for first-player=0.5; length=20"
    left, right = figure.axes
    [dots] = left.collections
    assert [list(p) for p in dots.get_offsets()] == [[0, 0.3], [1, 0.1], [2, 0.2]]
    assert (list(dots.get_sizes()), to_hex(dots.get_facecolor()[0]), dots.get_label()) == ([14.0], cycle(0), "trial")
    [step] = left.get_lines()
    assert (list(step.get_xdata()), list(step.get_ydata()), step.get_drawstyle(), to_hex(step.get_color()),
            step.get_label()) == ([0, 1, 2], [0.3, 0.1, 0.1], "steps-post", cycle(1), "best so far")
    assert (left.get_xlabel(), left.get_ylabel()) == ("trial", "off by (first-player=0.5)")
    [dots] = right.collections
    assert [list(p) for p in dots.get_offsets()] == [[x, loss] for x, loss in zip(positions, losses)]
    assert (list(dots.get_sizes()), to_hex(dots.get_facecolor()[0])) == ([14.0], cycle(0))
    [mark] = right.get_lines()
    at = positions[values.index(best)]
    assert (list(mark.get_xdata()), to_hex(mark.get_color()), mark.get_linestyle(), mark.get_label()) == \
        ([at, at], cycle(2), "--", f"confirmed best x={shown}")
    assert (right.get_xlabel(), right.get_ylabel()) == ("x", "off by (search games)")
    for ax, texts in ((left, ["trial", "best so far"]), (right, [f"confirmed best x={shown}"])):
        legend = ax.get_legend()
        assert [t.get_text() for t in legend.get_texts()] == texts
        assert {t.get_fontsize() for t in legend.get_texts()} == {8.0}


# ------------------------------------------------------------------ tune --param's text and variant file

def _docs_block(start: str, end: str) -> list:
    """The lines of docs/cli.md between the line starting `$ boardwright START` and `$ END`."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    return text.split(f"$ {start}", 1)[1].split("\n", 1)[1].split(f"$ {end}", 1)[0].splitlines()


def _goal(value, low, high, loss, loss_low, loss_high) -> dict:
    return {"goal": "first-player=0.5", "measure": "first player win rate", "value": value, "ci95": [low, high],
            "loss": loss, "loss_ci95": [loss_low, loss_high]}


def _docs_tune_result() -> dict:
    """docs/cli.md's `tune race.game ... --write fair.game` example, as the command's JSON holds it."""
    def entry(k, games, *goal):
        return {"params": {"head_start": k}, "games": games, "goals": [_goal(*goal)]}
    shown = [entry(8, 150, 0.693, 0.616, 0.761, 0, 0, 0), entry(13, 150, 0.233, 0.173, 0.307, 0, 0, 0),
             entry(6, 50, 0.8, 0.67, 0.888, 0, 0, 0), entry(7, 50, 0.8, 0.67, 0.888, 0, 0, 0),
             entry(15, 50, 0.16, 0.083, 0.285, 0, 0, 0)]
    return {"game": "Head start race", "variant": None, "players": 2, "seed": 1, "bots": ["random", "random"],
            "params": ["head_start"], "goals": ["first-player=0.5"], "games_played": 2000, "budget": 2000,
            "best": entry(10, 200, 0.465, 0.397, 0.534, 0.035, 0.0, 0.103),
            "confirmed": [entry(11, 200, 0.385, 0.32, 0.454, 0.115, 0.046, 0.18),
                          entry(12, 200, 0.29, 0.232, 0.356, 0.21, 0.144, 0.269)],
            "told_apart": False, "candidates": shown + [entry(k, 50, 0.1, 0.0, 0.2, 0, 0, 0) for k in range(8)],
            "seconds": 3.24, "fixed": {}}


def test_the_tune_report_and_the_variant_it_writes_are_the_docs_example_line_for_line():
    """docs/cli.md, tune --param: the report and the written variant file of the example,
    from the same figures. Kills the variant's comment in capitals and the bots line saying
    "at every seat" of different bots (the census of tune_report.py of round 9), and any other
    word or figure of either."""
    from boardwright.interpreter.playtest.param_ranges import parse_range
    from boardwright.interpreter.playtest.tune_report import format_tune, variant_text
    result = _docs_tune_result()
    command = ("boardwright tune race.game --players 2 --param head_start=0..20 --goal first-player=0.5 "
               "--budget 2000 --seed 1")
    assert format_tune(result).splitlines() == _docs_block("boardwright tune race.game", "head -n 20 fair.game")
    written = variant_text(result, "race.game", "fair", [parse_range("head_start=0..20")], command)
    assert written.splitlines() == _docs_block("head -n 20 fair.game", "boardwright validate")
    other = {**result, "variant": "team", "bots": ["random", "greedy"], "goals": ["first-player=0.5", "length=20"],
             "told_apart": True, "candidates": result["candidates"][:2], "games_played": 12345,
             "failed": [{"params": {"head_start": 20}, "rule_error": "an index out of range"}]}
    lines = format_tune(other).splitlines()
    assert lines[:3] == [
        "Head start race (team): tune head_start for first-player=0.5; length=20, 2 players, seed 1",
        "  bots: random,greedy; NSGA-II (Pareto front) search, successive halving, then 3 candidates confirmed "
        "on fresh games",
        "  12,345 games of a budget of 2,000"]
    assert not any(line.startswith("  the confirmation cannot tell") for line in lines)
    assert "  other candidates, by their search games:" in lines
    assert "  rule error at head_start=20: an index out of range (left out)" in lines


def test_one_seat_and_one_game_have_their_own_report_lines_and_intervals():
    """A solo game's report (docs/cli.md: "bots: random at every seat") and a report of one game
    (the Wilson interval of 1 of 1 and 0 of 1, worked out here; a measure's mean and interval);
    the first-player advantage of a three-seat table to 4 decimals. Kills the bot line reading a
    second seat (the census of round 9: a solo game crashed), a measure of one game taken for
    none (`n == 1`), and `round(..., 5)` of the advantage."""
    solo = [game(0, ["random"], [4], [0], 5, 5, 10, 0, 0)]
    report = rp.summarise(solo, {**ROTATED_META, "players": 1, "bots": ["random"], "rotate": False})
    lines = rp.format_report(report, player_name).splitlines()
    assert lines[1] == "  bots: random at every seat"
    assert report["seats"][0]["ci95"] == tuple(round(v, 4) for v in wilson(1, 1))
    two = rp.summarise([game(0, ["random"] * 2, [1, 0], [0], 5, 5, 10, 0, 0)],
                       {**ROTATED_META, "bots": ["random"] * 2, "rotate": False})
    assert [s["ci95"] for s in two["seats"]] == [tuple(round(v, 4) for v in wilson(k, 1)) for k in (1, 0)]
    assert rp.wilson(0, 0) == (0.0, 1.0)
    one = rp.summarise([game(0, ["random"] * 2, [1, 0], [0], 5, 5, 10, 0, 0, measures={"gap": 3})],
                       {**ROTATED_META, "bots": ["random"] * 2, "rotate": False})
    assert one["measures"] == {"gap": {"mean": 3.0, "ci95": [3.0, 3.0]}}     # one game: no spread to widen it
    assert rp.mean_interval([]) == (0.0, 0.0, 0.0)
    assert rp.summarise(FIXED, FIXED_META)["first_player_advantage"] == round(1.5 / 3 - 1 / 3, 4) == 0.1667


def test_the_plot_is_a_png_whatever_its_file_is_called_and_whatever_the_users_matplotlib_saves(
        monkeypatch, tmp_path):
    """docs/cli.md: `--plot FILE.png` draws a PNG: also for a name without `.png` and a
    matplotlibrc whose `savefig.format` is another. Kills `format=None` (the census of round 9:
    an SVG written) and `dpi=101` (the census of round 9)."""
    import struct

    import matplotlib
    monkeypatch.setitem(matplotlib.rcParams, "savefig.format", "svg")
    path = tmp_path / "plot"
    rp.plot(str(path), ROTATED, rp.summarise(ROTATED, ROTATED_META), player_name)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # saved at 100 dots per inch: the PNG's pHYs chunk gives pixels per metre, 100 / 0.0254
    at = data.index(b"pHYs")
    assert struct.unpack(">IIB", data[at + 4:at + 13]) == (round(100 / 0.0254),) * 2 + (1,)


def test_a_copied_variant_keeps_its_lines_sets_its_declared_params_and_adds_the_others_after_a_blank_line(tmp_path):
    """docs/cli.md, tune --write of a variant: "each tuned or --set param's declaration is
    replaced in place (the others added at the end), and everything else is kept as it was",
    under the header that says how it was found. The whole file, line by line. Kills the blank
    line before the added params garbled (the second census of tune_report.py, round 9)."""
    from boardwright.interpreter.playtest.param_ranges import parse_range
    from boardwright.interpreter.playtest.tune_report import variant_text
    source = tmp_path / "party.game"
    source.write_text('# old header\nvariant "Party" extends "urban-panic"\n\nparam timer_ticks = 5  # ticks\n'
                      "param timer_bonus = 5\n", encoding="utf-8")
    result = {"games_played": 1200, "best": {"games": 40, "params": {"timer_ticks": 2}, "goals": []},
              "fixed": {"spawn_rate": "3", "rounds": "4"}}
    text = variant_text(result, "urban-panic", "short", [parse_range("timer_ticks=0..9")], "boardwright tune x",
                        str(source))
    assert text.splitlines() == [
        'variant "short" extends "urban-panic"', "",
        "# Written by `boardwright tune`: boardwright tune x.",
        "# The confirmed best of 1,200 games, by 40 confirmation games:",
        "# The declarations of party.game, with the params above set:", "",
        "param timer_ticks = 2  # ticks", "param timer_bonus = 5", "", "param spawn_rate = 3", "param rounds = 4"]


def test_a_game_without_a_decision_has_zero_options_per_decision_in_the_csv(tmp_path):
    """docs/cli.md, simulate --csv: `options_per_decision` per game; a game its rules end before
    any decision has none to divide by: 0, as the report's `branching` of no decisions. Kills the
    guard dropped (the census of round 9: a ZeroDivisionError after all the games were played)."""
    import csv
    path = tmp_path / "games.csv"
    games = [game(0, ["random"] * 2, [0, 0], [], 1, 0, 0, 0, 0), game(1, ["random"] * 2, [1, 0], [0], 4, 3, 7, 0, 0)]
    rp.write_csv(str(path), games, 2)
    rows = list(csv.DictReader(path.open(newline="", encoding="utf-8")))
    assert [row["options_per_decision"] for row in rows] == ["0", str(round(7 / 3, 4))]
