"""The `bot` declaration: a rule file's default settings for a bot, which the command line's
settings override one by one, and which reach every place that makes bots for the game."""
from __future__ import annotations

import json

import pytest

from boardwright.cli.main import main
from boardwright.dsl.errors import RuleFileError
from boardwright.interpreter.bots.mcts import MCTSBot, _playout
from boardwright.interpreter.bots.registry import make_bot

from conftest import cached_game, make_small_game
from test_engine import HIGH_CARD   # two players, two cards each, one card played per player


def test_a_declared_setting_is_the_default_and_the_command_line_overrides_it(tmp_path):
    game = make_small_game(tmp_path, HIGH_CARD + 'bot mcts "iterations=7:depth=2"\n')
    plain = MCTSBot(0)
    bot = make_bot("mcts", 0, game)
    assert (bot.iterations, bot.depth, bot.width) == (7, 2, plain.width)
    bot = make_bot("mcts:depth=5", 0, game)
    assert (bot.iterations, bot.depth) == (7, 5)
    # Without the game (or for a bot the file says nothing about) the general defaults hold.
    assert make_bot("mcts", 0).iterations == plain.iterations
    assert make_bot("greedy", 0, game).lookahead == make_bot("greedy", 0).lookahead


def test_simulate_reports_and_plays_with_the_declared_settings(tmp_path, capsys):
    make_small_game(tmp_path, HIGH_CARD + 'bot mcts "iterations=3"\n')
    code = main(["simulate", str(tmp_path / "g.game"), "--players", "2", "--bots", "mcts,random",
                 "--games", "2", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and "iterations=3," in report["bot_settings"]["mcts"]


def test_a_variant_replaces_the_declaration_of_its_base(tmp_path):
    make_small_game(tmp_path, HIGH_CARD + 'bot mcts "iterations=7"\n')
    (tmp_path / "quick.game").write_text('variant "Quick" extends "g.game"\nbot mcts "iterations=2"\n')
    from boardwright.interpreter.compile.load import load_game
    assert make_bot("mcts", 0, load_game(tmp_path / "g.game")).iterations == 7
    assert make_bot("mcts", 0, load_game(tmp_path / "g.game", "quick")).iterations == 2


@pytest.mark.parametrize("line, words", [
    ('bot mtcs "iterations=5"', ["unknown bot 'mtcs'", "did you mean 'mcts'"]),
    ('bot mcts "deepth=3"', ["bad bot setting 'deepth=3'", "did you mean 'depth'"]),
    ('bot mcts "iterations=0"', ["must be positive"]),
    ('bot random "depth=3"', ["random takes no settings"]),
    ('bot mcts "iterations=5"\nbot mcts "iterations=6"', ["declared twice"]),
])
def test_bad_declarations_point_at_their_line(tmp_path, line, words):
    with pytest.raises(RuleFileError) as caught:
        make_small_game(tmp_path, HIGH_CARD + line + "\n")
    text = str(caught.value) + " ".join(d.hint or "" for d in caught.value.diagnostics)
    assert caught.value.diagnostics[0].span.line == HIGH_CARD.count("\n") + 1 + ("twice" in words[0])
    for word in words:
        assert word in text


@pytest.mark.slow
def test_the_bundled_declarations_are_what_tune_wrote_and_the_bots_play_them():
    # Punto, Happy City and Point City declare what `boardwright tune GAME --bot mcts` found
    # from nothing (docs/playtesting.md): tune's comment and rerun command above the line, and
    # the bot built from the game plays the declared settings. Happy City's plays paired
    # playouts to the end of the game, Point City's paired playouts of 15 decisions over whole
    # takes; Punto's is the general default spelled out.
    from boardwright.dsl.loader import resolve_game
    for name in ("punto", "happy-city", "point-city"):
        lines = resolve_game(name).read_text(encoding="utf-8").splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith('bot mcts "'))
        assert lines[at - 3].startswith("# Tuned by `boardwright tune`: won ")
        assert lines[at - 1].startswith(f"# Rerun: boardwright tune games/{name} --bot mcts")
    happy, point = make_bot("mcts", 0, cached_game("happy-city")), make_bot("mcts", 0, cached_game("point-city"))
    assert (happy.depth, happy.paired, happy.iterations) == (1000, 1, 200)
    assert (point.depth, point.paired, point.follow, point.iterations) == (15, 1, 200, 120)
    assert make_bot("mcts", 0, cached_game("punto")).depth == MCTSBot(0).depth


def test_urban_panic_searches_its_two_best_options_on_common_random_numbers():
    # Urban Panic declares 120 paired playouts of 15 decisions, each the best of 8 sampled
    # options, between its two best options (the measured reason is in its rule file and
    # docs/playtesting.md).
    bot = make_bot("mcts", 0, cached_game("urban-panic"))
    assert (bot.paired, bot.width, bot.depth, bot.guide, bot.iterations) == (1, 2, 15, 8, 120)
    assert make_bot("mcts", 0, cached_game("punto")).paired == 0


def test_playouts_choose_like_greedy_one_decision_at_a_time(tmp_path):
    # With every option looked at (guide), a playout plays the highest card in hand: the
    # option that raises the deciding seat's own score most.
    game = make_small_game(tmp_path, HIGH_CARD)
    import random
    for seed in range(5):
        st = game.new_state(2, seed)
        expected = [max(c["rank"] for c in hand) for hand in
                    ([game.components[i] for i in st.zones[f"hand/{p}"]] for p in range(2))]
        _playout(game, st, 10, 10, random.Random(seed))
        assert st.finished and list(game.result(st).scores) == expected
