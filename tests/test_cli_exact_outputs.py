'''Whole outputs of commands, compared with `==` (every line, every indent, every word):
`explain` and `info` of a small game written here, `test` of passing, failing and missing
scenarios, and the machine trace of a hot-seat game whose every move is given. The expected
texts are written by hand from the rule files below (what each declaration says, what each
move does), in the layouts docs/cli.md, docs/scenarios.md and docs/logs.md show.'''
from __future__ import annotations

import io
import json
import sys

import pytest

from boardwright.cli.main import main

from conftest import SMALL_DATA as CARDS


TINY = r'''# Tiny: a game for the explain test.
game "Tiny"
players 2..3
data "cards.yaml"

# How many cards each player draws.
param deal_size = 2
param target = 5   # a "#" in a string is no comment

zone deck: stack hidden
zone hand: pile per player owner
zone board: grid extent 3 x 3
zone pool: grid size 3 x 3 blocked (1, 1) blocked (0, 2)

# A card and when it was played.
record Pick { card: Card, turn_no: int }

var points: int per player = 0
var played: Card = none

fn worth(c: Card) -> int {
  let bonus = 1
  return c.rank + bonus
}

fn mark() -> str = "no \"#\" here"   # a "quoted" mark

proc deal(p: player, n: int) {
  for i in range(n) if i < 5 {
    if empty(deck) { return }
    move top(deck) to hand[p]
  }
}

setup {
  move components(Card) to deck
  shuffle deck
  for p in players { deal(p, deal_size) }
}

play {
  let p = 0
  while max(points) < target {
    turn p {
      choose card from contents(hand[p]) prompt "Play a card"
      if card.rank == 3 {
        points[p] += worth(card)
      } elif card.rank == 2 {
        points[p] -= 1
      } else {
        points[p] = 0
      }
      played = card
      move card to bottom of deck
      log "{p} plays {card}"
      if empty(hand[p]) { finish "out of cards" }
    }
    p = next(p)
  }
}

score p { "Points": points[p] }
tiebreak p { "Cards left": -size(hand[p]) }

opponent "The house" { "Fixed": 3 }

invariant "six cards": size(deck) + sum([size(hand[p]) for p in players]) + size(board) <= 6
measure "lead" = max(points) - min(points)
'''

SHORT = '''# Short: a quicker game.
variant "Short" extends "tiny.game"
players 2

param target = 3
zone spare: pile
var rounds: int = 0
fn worth(c: Card) -> int = c.rank * 2
measure "spread" = max(points)
bot greedy "lookahead=10"
score p, lowest wins { "Points": points[p] }
'''

# Each line from the rule file above: the players line, the data file's 6 cards (2 suits x 3
# ranks) and its provenance, the comments above and after declarations as notes (a '#' inside
# a string is not a comment), a zone's options in words, a fn body's `let` as "where", the
# statements in words, the opponent's rule of the end.
TINY_EXPLAINED = '''Tiny: 2 to 3 players

Components
  Card (6): suit: Suit, rank: int
  enum Suit: hearts, spades
  record Pick: card: Card, turn_no: int  -- A card and when it was played.
  data cards.yaml: test data

Params (change one with --set NAME=VALUE)
  deal_size = 2  -- How many cards each player draws.
  target = 5  -- a "#" in a string is no comment

Zones
  deck: a stack (hidden)
  hand: a pile (owner), one per player
  board: a grid (extent 3 x 3)
  pool: a grid (size 3 x 3, blocked at (1, 1), blocked at (0, 2))

State
  points: int per player, starts at 0
  played: Card, starts at none

Definitions
  worth(c: Card) -> int = c.rank + bonus, where bonus = 1
  mark() -> str = "no \\"#\\" here"  -- a "quoted" mark

Setup (before play, no choices)
  move components(Card) to deck
  shuffle deck
  for each p in players:
    do deal(p, deal_size)

Play (a turn is each 'turn of' block)
  let p be 0
  repeat while max(points) < target:
    turn of p:
      the current player chooses card from contents(hand[p]) (asked: "Play a card")
      if card.rank == 3:
        add to points[p]: worth(card)
      otherwise, if card.rank == 2:
        take from points[p]: 1
      otherwise:
        set points[p] to 0
      set played to card
      move card to bottom of deck
      log "{p} plays {card}"
      if empty(hand[p]):
        the game ends: "out of cards"
    set p to next(p)

Procedure deal(p: player, n: int)
  for each i in range(n) where i < 5:
    if empty(deck):
      leave the procedure
    move top(deck) to hand[p]

The end
  the game ends when the play block is done, or when 'finish' runs
  the winners are the players with the highest score (then the tiebreak)
  and only if they beat every opponent's total: a tie with an opponent wins nothing

Scoring
  score of player p: the sum of
    Points: points[p]
  tiebreak of player p: compared in this order, when the totals are equal
    Cards left: -size(hand[p])
  opponent The house: the sum of
    Fixed: 3

Invariants (checked by 'boardwright check')
  six cards: size(deck) + sum([size(hand[p]) for p in players]) + size(board) <= 6

Measures (reported by simulate, compare, sweep and tune)
  lead = max(points) - min(points)
'''

# What short.game changes, each with the base's version; the score it replaces says that the
# lowest now wins.
SHORT_EXPLAINED = '''Short: a variant of Tiny (2 players)
Everything not listed here is as in tiny.game.

Changes
  players: 2 to 3 players -> 2 players
  changes param target:
    was: target = 5
    now: target = 3
  adds zone spare: a pile
  adds var rounds: int = 0
  changes fn worth:
    was: worth(c: Card) -> int = c.rank + bonus, where bonus = 1
    now: worth(c: Card) -> int = c.rank * 2
  adds measure spread = max(points)
  adds bot greedy "lookahead=10"
  replaces score:
    score (lowest wins) of player p: the sum of
      Points: points[p]
'''


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "tiny.game").write_text(TINY)
    (tmp_path / "short.game").write_text(SHORT)
    return tmp_path


def run(capsys, *argv):
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_prints_every_declaration_in_words(folder, capsys):
    assert run(capsys, "explain", folder / "tiny.game") == (0, TINY_EXPLAINED, "")


def test_explain_a_variant_prints_only_its_changes(folder, capsys):
    assert run(capsys, "explain", folder / "short.game") == (0, SHORT_EXPLAINED, "")
    assert run(capsys, "explain", folder / "tiny.game", "--variant", "short") == (0, SHORT_EXPLAINED, "")


def test_explain_a_variant_that_changes_nothing_says_so(folder, capsys):
    (folder / "same.game").write_text('variant "Same" extends "tiny.game"\n')
    assert run(capsys, "explain", folder / "same.game") == (0, "Same: a variant of Tiny (2 to 3 players)\n"
                                                               "Everything not listed here is as in tiny.game.\n\n"
                                                               "Changes\n"
                                                               "  none: this variant changes nothing\n", "")


def test_info_prints_the_facts_one_line_each(folder, capsys):
    assert run(capsys, "info", folder / "tiny.game") == (0, "Tiny: 2..3 players\n"
                                                            "params: deal_size = 2, target = 5\n"
                                                            "zones: deck, hand, board, pool\n"
                                                            "vars: points, played\n"
                                                            "components: 6 Card\n"
                                                            "variants: short\n", "")
    # a fixed player count is one number (not "2..2"), and the variant's own params and zones
    assert run(capsys, "info", folder / "short.game") == (0, "Tiny (Short): 2 players\n"
                                                             "params: deal_size = 2, target = 3\n"
                                                             "zones: deck, hand, board, pool, spare\n"
                                                             "vars: points, played, rounds\n"
                                                             "components: 6 Card\n"
                                                             "variants: short\n", "")


def test_info_json_is_every_fact_of_the_rule_file(folder, capsys):
    code, out, err = run(capsys, "info", folder / "tiny.game", "--json")
    assert (code, err) == (0, "")
    items = [{"suit": suit, "rank": rank} for suit in ("hearts", "spades") for rank in (1, 2, 3)]
    zone = {"holds": None, "per_player": False}
    assert json.loads(out) == {
        "title": "Tiny", "variant": None, "file": str(folder / "tiny.game"), "players": {"min": 2, "max": 3},
        "params": [{"name": "deal_size", "default": "2", "value": 2}, {"name": "target", "default": "5", "value": 5}],
        "variants": ["short"],
        "zones": [{"name": "deck", "kind": "stack", **zone, "options": {"hidden": []}},
                  {"name": "hand", "kind": "pile", **zone, "per_player": True, "options": {"owner": []}},
                  {"name": "board", "kind": "grid", **zone, "options": {"extent": ["3", "3"]}},
                  # both blocked cells (a zone may name several), each as written
                  {"name": "pool", "kind": "grid", **zone,
                   "options": {"size": ["3", "3"], "blocked": [["1", "1"], ["0", "2"]]}}],
        "vars": [{"name": "points", "type": "int", "per": "player"}, {"name": "played", "type": "Card", "per": None}],
        "enums": {"Suit": ["hearts", "spades"]},
        "components": [{"kind": "Card", "count": 6, "attributes": {"suit": "Suit", "rank": "int"}, "items": items}],
        "data": [{"file": "cards.yaml", "provenance": "test data", "parts": [], "representative": []}],
        "score_direction": "highest"}
    assert out.startswith('{\n  "title": "Tiny",\n  "variant": null,\n'), "indented by two spaces"
    code, out, _ = run(capsys, "info", folder / "short.game", "--json")
    facts = json.loads(out)
    assert (facts["variant"], facts["file"], facts["players"], facts["score_direction"]) == (
        "Short", str(folder / "short.game"), {"min": 2, "max": 2}, "lowest")


# ---------------------------------------------------------------------------- test
def scenario(folder, name: str, player: int):
    path = folder / f"{name}.scenario.yaml"
    path.write_text(f"name: {name}\ngame: punto\nplayers: 2\nexpect:\n  player: {player}\n")
    return path


def test_test_prints_a_line_per_scenario_and_the_summary_with_its_status(capsys, tmp_path):
    good, bad, missing = scenario(tmp_path, "good", 0), scenario(tmp_path, "bad", 1), tmp_path / "gone.scenario.yaml"
    assert run(capsys, "test", good) == (0, f"PASS {good}: good\n1 passed, 0 failed\n", "")
    # Punto's first decision is seat 0's: the expectation of seat 1 fails at its line (5, column 3)
    assert run(capsys, "test", good, bad) == (1, f"PASS {good}: good\nFAIL {bad}: bad\n"
                                                 f"     {bad}:5:3: error: player: expected seat 1 to choose, got 0\n"
                                                 "           player: 1\n"
                                                 "           ^^^^^^\n"
                                                 "1 passed, 1 failed\n", "")
    assert run(capsys, "test", missing, good) == (2, f"FAIL {missing}: no such scenario file\nPASS {good}: good\n"
                                                     "1 passed, 1 failed\n", "")


# ---------------------------------------------------------------------------- the trace
DUEL = """game "Duel"
players 2
data "cards.yaml"

zone deck: stack
zone hand: pile per player
zone played: pile

var points: int per player = 0

setup {
  move components(Card) to deck
  for p in players {
    move top(deck) to hand[p]
    move top(deck) to hand[p]
  }
}

play {
  for round in range(2) {
    for p in players {
      turn p {
        choose card from contents(hand[p]) prompt "Play a card"
        points[p] += card.rank
        move card to played
      }
    }
  }
}

score p { "Points": points[p] }
opponent "The house" { "Fixed": 5 }
"""


def test_the_trace_of_a_game_played_move_by_move_is_every_decision_and_the_end(capsys, monkeypatch, folder):
    """The deck is the six cards in data order (hearts 1..3, spades 1..3), its top the last; each
    player takes two from the top: Player 1 spades 3 and spades 2, Player 2 spades 1 and hearts 3.
    Player 1 plays their second card (spades 2), Player 2 their first (spades 1), then each the
    card left: 2 + 3 = 5 and 1 + 3 = 4 points. The house's 5 ties the best player, and a tie
    with an opponent wins nothing: no winners."""
    game, path, log = folder / "duel.game", folder / "duel.jsonl", folder / "duel.log"
    game.write_text(DUEL)
    monkeypatch.setattr(sys, "stdin", io.StringIO("2\n1\n1\n1\n"))
    code, _, err = run(capsys, "play", game, "--seats", "human,human", "--trace", path, "--log", log)
    assert (code, err) == (0, "")

    def card(name):
        return {"id": name.replace(" ", "-"), "label": name}

    def decision(step, player, options, choice):
        return {"type": "decision", "step": step, "player": player, "seat": "human", "prompt": "Play a card",
                "options": [card(o) for o in options], "choice": choice, **card(options[choice])}

    expected = [
        {"type": "start", "format": "boardwright-trace/1", "game": str(game), "variant": None, "params": {},
         "players": 2, "seed": 1, "seats": ["human", "human"]},
        decision(0, 0, ["spades 3", "spades 2"], 1), decision(1, 1, ["spades 1", "hearts 3"], 0),
        decision(2, 0, ["spades 3"], 0), decision(3, 1, ["hearts 3"], 0),
        {"type": "end", "finished": True, "steps": 4, "scores": [5, 4], "lines": [{"Points": 5}, {"Points": 4}],
         "tiebreaks": [{}, {}], "winners": [], "opponents": [{"title": "The house", "lines": {"Fixed": 5}}]}]
    text = path.read_text(encoding="utf-8")
    assert [json.loads(line) for line in text.splitlines()] == expected
    # one compact JSON object a line
    assert text.splitlines()[1].startswith('{"type":"decision","step":0,"player":0,"seat":"human",')
    # the trace of the logged game, replayed, is the same text
    assert run(capsys, "replay", log, "--json") == (0, text, "")
    assert run(capsys, "replay", log, "--json", "--step", "1") == (
        2, "", "boardwright: error: --json prints the whole game: leave out --step\n")
    assert run(capsys, "replay", log, "--step", "5") == (2, "", "boardwright: error: --step must be between 0 and 4\n")
    # stepping through it: next, back, back again at the start (it stays there), a step past
    # the end (refused), the last step (the final table), quit
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\np\np\n9\n4\nq\n"))
    prompt = "replay (n next, p previous, N go to step, q quit)> "
    start = ("\n-- step 0 of 4: the start\n== Duel — turn 1\ndeck: hearts 1, hearts 2\nhand of Player 1: spades 3, spades 2\n"
             "hand of Player 2: spades 1, hearts 3\npoints: Player 1: 0, Player 2: 0\n")
    assert run(capsys, "replay", log) == (0, start + prompt + (
        "\n-- step 1 of 4: Player 1 chose spades 2\n== Duel — turn 2\ndeck: hearts 1, hearts 2\nhand of Player 1: spades 3\n"
        "hand of Player 2: spades 1, hearts 3\nplayed: spades 2\npoints: Player 1: 2, Player 2: 0\n") + prompt
        + start + prompt + start + prompt + "type n, p, a step from 0 to 4, or q\n" + prompt + (
        "\n-- step 4 of 4: Player 2 chose hearts 3\n== Duel — turn 4\ndeck: hearts 1, hearts 2\n"
        "played: spades 2, spades 1, spades 3, hearts 3\npoints: Player 1: 5, Player 2: 4\n== Final scores\n"
        "           Player 1   Player 2  The house\n"
        "Points            5          4           \n"
        "Fixed                                   5\n"
        "Total             5          4          5\n"
        "Winner: The house\n") + prompt, "")


# ---------------------------------------------------------------------------- validate
ONE_WARNING = """game "One"
players 2
zone spare: pile
play {
  turn 0 { choose n from [1, 2] }
}
"""


def test_validate_counts_the_warnings_in_words_and_prints_each(capsys, tmp_path, folder):
    one = tmp_path / "one.game"
    one.write_text(ONE_WARNING)
    warning = (f"{one}:3:6: warning: zone 'spare' is never used [W902]\n"
               "    zone spare: pile\n"
               "         ^^^^^\n"
               "    hint: remove it, or use it in a rule\n")
    assert run(capsys, "validate", one) == (0, f"ok: {one}: One (1 warning)\n", warning)
    assert run(capsys, "validate", one, "--strict") == (1, f"failed (--strict): {one}: One (1 warning)\n", warning)
    code, out, err = run(capsys, "validate", one, "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out) == [{"target": str(one), "ok": True, "diagnostics": [
        {"file": str(one), "line": 3, "column": 6, "end_line": 3, "end_column": 11, "severity": "warning",
         "code": "W902", "message": "zone 'spare' is never used", "hint": "remove it, or use it in a rule"}]}]
    # tiny.game leaves a zone and a fn unused: two warnings
    code, out, _ = run(capsys, "validate", folder / "tiny.game")
    assert (code, out) == (0, f"ok: {folder / 'tiny.game'}: Tiny (2 warnings)\n")


# ---------------------------------------------------------------------------- simulate --out
BROKEN = """game "Broken"
players 2

play {
  turn 0 {
    choose n from [5]
    log "{[1, 2][n]}"
  }
}
"""


def test_simulate_out_writes_the_failing_game_as_a_scenario(capsys, monkeypatch, tmp_path):
    """The first game fails at its first decision (the only option, 5, indexes past a list of
    two): game 1 of the simulation, its seed S * 1000003 + 0 with S = 1 (docs/cli.md), the one
    move 5, written as a scenario that expects the game to run cleanly."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.game").write_text(BROKEN)
    assert run(capsys, "simulate", "broken.game", "--players", "2", "--games", "3", "--out", "found.scenario.yaml") == (
        1, "", "scenario written to found.scenario.yaml: replay it with 'boardwright test found.scenario.yaml'\n"
               "broken.game:7:5: error: rule failed: an index out of range: past the end of a list\n"
               '        log "{[1, 2][n]}"\n'
               "        ^^^^^^^^^^^^^^^^^\n"
               "    in game 1 of the simulation (2 players, seed 1000003), at decision 1 (the choices so far: 5)\n")
    assert (tmp_path / "found.scenario.yaml").read_text() == (
        "name: 'found by simulate: game 1, decision 1'\n"
        "description: 'broken.game:7: rule failed: an index out of range: past the end of a list'\n"
        "game: broken.game\nplayers: 2\nseed: 1000003\nmoves:\n- '5'\nexpect:\n  invariants: true\n  properties: true\n")


def test_compare_of_two_configurations_names_the_games_bots_and_seed_first(capsys, folder):
    """Two configurations are enough (the base and its variant); the first line says what
    was played: the game, the games per configuration, the players, each seat's bot, the seed."""
    code, out, err = run(capsys, "compare", folder / "tiny.game", "--players", "2", "--variant", "base",
                         "--variant", "short", "--games", "2", "--seed", "7")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "Tiny: 2 games per configuration, 2 players, bots random,random, seed 7"


# ---------------------------------------------------------------------------- fmt
def test_fmt_names_each_file_it_checks_or_rewrites_and_counts_the_tidy_ones(capsys, tmp_path):
    """`players   2` is not the canonical layout (one space); `--check` and `--diff` change
    nothing and exit 1 while a file is untidy; fmt rewrites it; then both files are tidy."""
    messy, tidy = tmp_path / "messy.game", tmp_path / "tidy.game"
    messy.write_text(ONE_WARNING.replace("players 2", "players   2"))
    tidy.write_text(ONE_WARNING)
    assert run(capsys, "fmt", "--check", messy, tidy) == (1, f"not formatted: {messy}\n", "")
    code, out, err = run(capsys, "fmt", "--diff", messy)
    assert (code, err) == (1, "") and out.startswith(f"--- {messy}\n+++ {messy} (formatted)\n")
    assert "\n-players   2\n+players 2\n" in out
    assert run(capsys, "fmt", tidy) == (0, "", "")
    assert run(capsys, "fmt", messy, tidy) == (0, f"formatted {messy}\n", "")
    assert messy.read_text() == ONE_WARNING
    assert run(capsys, "fmt", "--check", messy) == (0, "ok: 1 file already in the canonical layout\n", "")
    assert run(capsys, "fmt", "--diff", messy, tidy) == (0, "ok: 2 files already in the canonical layout\n", "")


# ---------------------------------------------------------------------------- the play screen's layout
def test_a_decision_with_no_option_keyed_on_the_table_is_never_laid_out_as_keyed(monkeypatch):
    """cli/option_pages.py fit_screen: with no table keys (no option names a cell), no layout
    may say its options are keyed: the play screen would print the keys' line ("or type the
    letter by a cell of the  () ...") over nothing. Point City's first decision at every
    screen height from 10 to 40 lines (the mutant `if keys.options or True` chose a keyed
    layout at the last compact level, at 14 lines and more)."""
    from boardwright.cli.option_pages import fit_screen
    from boardwright.cli.table_keys import TableKeys
    from boardwright.interpreter.compile.load import load_game
    game = load_game("point-city", None)
    st = game.new_state(2, 1)
    decision = game.decision(st)
    labels = [o.label for o in decision.options]
    seen = game.observe(st, decision.player)
    monkeypatch.setenv("COLUMNS", "80")
    keyed_at = []
    for height in range(10, 41):
        monkeypatch.setenv("LINES", str(height))
        if fit_screen(game, seen, labels, "head", TableKeys(), (None, 0))[2]:
            keyed_at.append(height)
    assert keyed_at == []
