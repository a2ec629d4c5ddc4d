"""Statistics and simulation edges: intervals and p-values with no games, histogram bins
for wide or fractional scores, and clear messages when an optional package is missing.

Expected values are computed independently: the Wilson interval and the two-proportion
z-test from their textbook formulas, bin edges from the rule in report._bins' docstring.
"""
from __future__ import annotations

import math
import sys

import pytest

from boardwright.dsl.errors import UsageError
from boardwright.interpreter.playtest import report
from boardwright.interpreter.playtest.simulate import simulate_records
from conftest import cached_game


def test_no_games_give_the_widest_interval_and_no_evidence():
    assert report.wilson(0, 0) == (0.0, 1.0)
    assert report.proportion_p(3, 0, 2, 10) == 1.0
    assert report.proportion_p(3, 10, 2, 0) == 1.0


def test_identical_all_or_nothing_samples_are_no_evidence():
    # pooled proportion 1: no variance, no difference
    assert report.proportion_p(10, 10, 5, 5) == 1.0


def test_the_wilson_interval_matches_its_formula():
    z = 1.959963984540054
    n, p = 40, 0.25
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert report.wilson(10, 40) == (round(centre - half, 4), round(centre + half, 4))


def test_two_proportions_far_apart_have_a_small_p_value():
    # 30/50 against 10/50: z = 0.4 / sqrt(0.4 * 0.6 * 0.04) = 4.08..., p = erfc(z / sqrt 2)
    z = 0.4 / math.sqrt(0.4 * 0.6 * (2 / 50))
    assert report.proportion_p(30, 50, 10, 50) == pytest.approx(math.erfc(z / math.sqrt(2)))


def test_whole_scores_in_a_short_range_get_one_bin_each():
    assert report._bins([3, 5, 4], whole=True) == [2.5, 3.5, 4.5, 5.5]


def test_whole_scores_in_a_wide_range_get_twenty_whole_bins():
    edges = report._bins([0, 100], whole=True)
    assert edges[0] == -0.5 and all(b - a == 5 for a, b in zip(edges, edges[1:]))
    assert edges[-1] >= 100


def test_fractional_scores_get_twenty_equal_bins():
    edges = report._bins([0.0, 2.0], whole=False)
    assert edges[0] == 0.0 and len(edges) == 22
    assert edges[1] == pytest.approx(0.1)


def test_no_scores_still_give_bins():
    assert report._bins([], whole=True) == [-0.5, 0.5, 1.5]


def test_plots_without_matplotlib_ask_for_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)     # import matplotlib raises ImportError
    with pytest.raises(UsageError, match=r"--plot needs matplotlib: pip install 'boardwright\[plot\]'"):
        report._pyplot()


def test_a_cluster_without_dask_asks_for_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    game = cached_game("punto")
    with pytest.raises(UsageError, match=r"--cluster needs Dask: pip install 'boardwright\[cluster\]'"):
        simulate_records(game, 2, 1, 1, ["random", "random"], cluster="tcp://127.0.0.1:1", ref=("punto", None, ()))


def test_the_number_of_bots_must_match_the_players():
    game = cached_game("punto")
    with pytest.raises(UsageError, match="3 bots for 2 players"):
        simulate_records(game, 2, 1, 1, ["random", "random", "random"])
