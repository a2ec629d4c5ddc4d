"""The files a user hands us (scenarios, saves, logs) have JSON Schemas in dsl/schemas/
(docs/security.md, docs/scenarios.md, docs/cli.md): a file of a wrong shape is refused at its
YAML or JSON position, in the file's words, and what the schema cannot know (a cell outside a
grid, a var given a value of the wrong type) is a positioned error too: exit 1 or 2, never an
"internal error" (exit 3, kept for Boardwright's own bugs).

The last tests walk every node of each schema and put values of the wrong type or shape there.
"""
from __future__ import annotations

import copy
from pathlib import Path
import json
import re

import pytest
import yaml

from boardwright.cli.main import main
from boardwright.cli.saves import LOG_FORMAT, SAVE_FORMAT, DamagedFile, bot_states, read_saved
from boardwright.dsl.errors import UsageError
from boardwright.dsl.schema_words import SCHEMA_DIR, json_position
from boardwright.interpreter.bots.registry import make_bot
from boardwright.interpreter.compile.load import load_game
from boardwright.interpreter.testing.scenario import run_scenario
from conftest import SMALL_DATA


def run(tmp_path, text: str, name: str = "s"):
    path = tmp_path / f"{name}.scenario.yaml"
    path.write_text(text)
    return path, run_scenario(path)


def only_failure(tmp_path, text: str) -> str:
    path, outcome = run(tmp_path, text)
    assert outcome.failures, "the scenario should fail"
    failure = "\n".join(outcome.failures)
    assert "internal error" not in failure and "a bug in Boardwright" not in failure, failure
    assert failure.startswith(f"{path}:"), failure
    return failure


def position(failure: str) -> tuple[int, int]:
    line, column = re.match(r"[^:]+:(\d+):(\d+): ", failure).groups()
    return int(line), int(column)


# ------------------------------------------------------------------ the findings of issue 31

PUNTO = "game: punto\nplayers: 2\n"
POINT_CITY = "game: point-city\nplayers: 2\n"

MALFORMED = [
    # (scenario text, (line, column), words of the message)
    (PUNTO + 'state:\n  zones:\n    table: {"1,2,3": [green 3]}\n', (5, 13),
     "'table': a cell key is two integers `x,y`, got `1,2,3`"),
    (PUNTO + "state:\n  zones:\n    table: [green 3]\n", (5, 5),
     "'table' is a grid: write it as a mapping from cells"),
    (PUNTO + "state:\n  zones:\n    table: 5\n", (5, 12), "'table': a zone is a list of labels"),
    (PUNTO + "state:\n  zones:\n    deck/0: {\"0,0\": [green 3]}\n", (5, 5),
     "'deck/0' is a stack or pile: write its labels as a list"),
    (PUNTO + "expect:\n  vars: {starter: {cell: 1}}\n", (4, 26), "'cell': a cell is two whole numbers `[x, y]`, got `1`"),
    (PUNTO + "expect:\n  lines: [5]\n", (4, 11), "item 1 of 'lines': score lines of a seat are a mapping"),
    (PUNTO + "expect:\n  zones: {table: [green 3]}\n", (4, 11), "'table' is a grid"),
    (PUNTO + "expect:\n  zones: {table: 3}\n", (4, 18), "'table': a zone is a list of labels"),
    (PUNTO + "state:\n  vars: {starter: 7}\n", (4, 10), "'starter' holds seats, from 0 to 1, not `7`"),
    (PUNTO + "state:\n  vars: {wins: 3}\n", (4, 10), "'wins' is an int per player: write a list of 2 values"),
    (PUNTO + "expect:\n  vars: {wins: [0, yes]}\n", (4, 20), "'wins' holds whole numbers, not `true`"),
    (PUNTO + "expect:\n  vars: {nothing: 1}\n", (4, 3), "vars: no variable 'nothing'"),
    (POINT_CITY + "state:\n  vars:\n    face: {Bungalow: 3}\n", (5, 12),
     "'face' holds Side members (resource, building), not `3`"),
    (POINT_CITY + "state:\n  vars:\n    face: [building]\n", (5, 5),
     "'face' is a Side per Card: write a mapping from Card labels to values"),
    (POINT_CITY + "expect:\n  vars:\n    face: {Bungalow: [1]}\n", (5, 12), "'face' holds Side members"),
    (POINT_CITY + "state:\n  vars:\n    face: {Nope: building}\n", (5, 12), "no Card labelled 'Nope'"),
    (POINT_CITY + "state:\n  zones:\n    market: {\"6,0\": [Park]}\n", (5, 14),
     "scenario: cell (6, 0) is outside the grid 'market'"),
    (POINT_CITY + "state:\n  zones:\n    market: {\"0,0\": [Park, Cottage]}\n", (5, 14),
     "scenario: cell (0, 0) of 'market' is occupied and the grid is not 'stacked'"),
]


@pytest.mark.parametrize("text, at, words", MALFORMED)
def test_a_malformed_scenario_is_a_positioned_scenario_error(tmp_path, text, at, words):
    failure = only_failure(tmp_path, text)
    assert words in failure
    assert position(failure) == at, failure


def test_a_folder_of_malformed_scenarios_fails_with_exit_1_and_no_internal_error(tmp_path, capsys):
    for number, (text, _, _) in enumerate(MALFORMED):
        (tmp_path / f"bad{number}.scenario.yaml").write_text(text)
    assert main(["test", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "internal error" not in out and out.count("FAIL ") == len(MALFORMED)
    assert out.rstrip().endswith(f"0 passed, {len(MALFORMED)} failed")


# Players take cards from a deck in turn; `marked` is a var the rules never touch.
TINY = """\
game "Tiny"
players 2
data "cards.yaml"
zone deck: stack hidden
zone hand: pile per player
var marked: player = none
setup { move components(Card) to deck }
play {
  let p = 0
  while not empty(deck) {
    turn p {
      choose card from contents(deck) prompt "Take a card" label "{card}"
      move card to hand[p]
      log "{p} takes {card}"
    }
    p = next(p)
  }
}
"""


def tiny(tmp_path) -> str:
    (tmp_path / "cards.yaml").write_text(SMALL_DATA)
    (tmp_path / "tiny.game").write_text(TINY)
    return "game: tiny.game\n"


def test_log_includes_takes_one_text_or_a_list(tmp_path):
    head = tiny(tmp_path) + "moves: [0, 0]\nexpect:\n"
    _, outcome = run(tmp_path, head + "  log_includes: [Player 1 takes, Player 2 takes]\n")
    assert outcome.passed, outcome.failures
    failure = only_failure(tmp_path, head + "  log_includes: [Player 1 takes, no such words]\n")
    assert "log: no line contains 'no such words'" in failure and "no line contains 'Player 1" not in failure
    _, outcome = run(tmp_path, head + "  log_includes: Player 2 takes\n")
    assert outcome.passed, outcome.failures


def test_options_failures_list_the_options_labels(tmp_path):
    failure = only_failure(tmp_path, PUNTO + 'expect:\n  options_include: ["9,9"]\n')
    assert "options: expected '9,9' among the options: (0, 0)" in failure and "0,0" not in failure


@pytest.mark.parametrize("written", ["none", "null", "~"])
def test_none_is_writable_in_scenario_vars(tmp_path, written):
    head = tiny(tmp_path)
    _, outcome = run(tmp_path, head + "state:\n  vars: {marked: 1}\nmoves: [0]\nexpect:\n  vars: {marked: 1}\n")
    assert outcome.passed, outcome.failures
    text = head + f"state:\n  vars: {{marked: 1}}\nexpect:\n  vars: {{marked: {written}}}\n"
    assert f"vars: marked expected {None if written != 'none' else 'none'!r}, is 1" in only_failure(tmp_path, text)
    text = head + f"state:\n  vars: {{marked: {written}}}\nexpect:\n  vars: {{marked: {written}}}\n"
    _, outcome = run(tmp_path, text)
    assert outcome.passed, outcome.failures
    # the var really holds none (not the text 'none')
    from boardwright.interpreter.testing.scenario import scenario_position
    game = load_game(str(tmp_path / "tiny.game"))
    st = scenario_position(game, {"players": 2, "state": {"vars": yaml.safe_load(f"{{marked: {written}}}")}})
    assert st.vars["marked"] is None


# ------------------------------------------------------------------ saves and logs

def punto_file(fmt: str, moves: int = 3) -> dict:
    """A save or log of Punto, made as `play` makes one: a human against a random bot."""
    game = load_game("punto")
    seats = ["human", "random"]
    st = game.new_state(2, 5)
    made = []
    for _ in range(moves):
        decision = game.decision(st)
        option = decision.options[0]
        made.append({"player": decision.player, "seat": seats[decision.player], "prompt": decision.prompt,
                     "id": option.id, "label": option.label})
        game.apply(st, option.id)
    data = {"format": fmt, "game": "punto", "variant": None, "params": {}, "players": 2, "seed": 5,
            "seats": seats, "moves": made}
    if fmt == SAVE_FORMAT:
        data["bots"] = bot_states({1: make_bot("random", 1, game)}, seats)
        data["state"] = json.loads(json.dumps(st.to_json()))
    return data


def test_a_log_whose_moves_lack_labels_is_damaged(tmp_path, capsys):
    log = punto_file(LOG_FORMAT)
    for move in log["moves"]:
        del move["label"]
    path = tmp_path / "game.log.json"
    path.write_text(json.dumps(log, indent=1))
    assert main(["replay", str(path), "--step", "2"]) == 2
    err = capsys.readouterr().err
    assert "the game log is damaged: item 1 of 'moves' needs the key 'label'" in err
    line = int(re.search(r":(\d+):\d+\)$", err.strip()).group(1))
    assert path.read_text().splitlines()[line - 1].strip() == "{", err      # the first move


def test_a_damaged_log_names_the_line_and_column_of_the_problem(tmp_path, capsys):
    log = punto_file(LOG_FORMAT)
    log["moves"][1]["player"] = "one"
    path = tmp_path / "game.log.json"
    path.write_text(json.dumps(log, indent=1))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "'player' of item 2 of 'moves' must be a whole number, not 'one'" in err
    line = int(re.search(r":(\d+):\d+\)$", err.strip()).group(1))
    assert '"player": "one"' in path.read_text().splitlines()[line - 1]


def test_a_replayed_move_that_is_not_an_option_is_at_its_line(tmp_path):
    save = punto_file(SAVE_FORMAT)
    save["moves"][2]["id"] = "99,99"
    path = tmp_path / "game.save.json"
    path.write_text(json.dumps(save, indent=1))
    with pytest.raises(DamagedFile) as info:
        read_saved(str(path), SAVE_FORMAT, load_game)
    text = str(info.value)
    assert "move 3 ('99,99') is not one of the options" in text
    line = int(re.search(r":(\d+):\d+\)$", text).group(1))
    assert '"id": "99,99"' in path.read_text().splitlines()[line - 1]


def test_a_save_needs_its_bots_and_state(tmp_path):
    save = punto_file(SAVE_FORMAT)
    del save["state"]
    path = tmp_path / "game.save.json"
    path.write_text(json.dumps(save))
    with pytest.raises(DamagedFile, match="the file needs the key 'state'"):
        read_saved(str(path), SAVE_FORMAT, load_game)


def test_json_positions_of_keys_values_and_items():
    text = '{"a": 1,\n "b": [10, {"c": "x"}, 30],\n "d": {}}'
    assert json_position(text, []) == (1, 1)
    assert json_position(text, ["b"]) == (2, 7)
    assert json_position(text, ["b"], key=True) == (2, 2)
    assert json_position(text, ["b", 1, "c"]) == (2, 18)
    assert json_position(text, ["b", 2]) == (2, 24)
    assert json_position(text, ["b", 7]) == (2, 7)          # past the end: the list itself
    assert json_position(text, ["zz"]) == (1, 1)


# ------------------------------------------------------------------ the schemas themselves

@pytest.mark.parametrize("name", ["scenario.schema.json", "saved-game.schema.json", "components.schema.json"])
def test_each_schema_is_a_valid_json_schema(name):
    import jsonschema
    jsonschema.Draft202012Validator.check_schema(json.loads((SCHEMA_DIR / name).read_text()))


def test_every_bundled_and_documented_scenario_matches_the_schema():
    from pathlib import Path
    from boardwright.dsl.schema_words import validator
    repo = Path(__file__).resolve().parents[1]
    files = sorted((repo / "games").rglob("*.scenario.yaml")) + sorted((repo / "docs").rglob("*.scenario.yaml"))
    assert len(files) > 100
    for path in files:
        errors = list(validator("scenario.schema.json").iter_errors(yaml.safe_load(path.read_text())))
        assert not errors, (path, errors[0].message)


def test_a_save_written_by_play_matches_the_schema():
    from boardwright.dsl.schema_words import validator
    for fmt in (SAVE_FORMAT, LOG_FORMAT):
        assert not list(validator("saved-game.schema.json").iter_errors(punto_file(fmt)))


# ------------------------------------------------------------------ every node of each schema

OTHER_VALUES = [None, True, 7, -1, 1.5, "text", "", [], [None], [[1, 2]], {}, {"k": {"k": [1]}}, {"cell": "x"}]
BAD_KEYS = ["1,2,3", "x", "", "1,", "99999999999,0"]


def _resolve(schema: dict, root: dict) -> tuple[dict, str]:
    name = ""
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = root["$defs"][name]
    return schema, name


def schema_nodes(schema: dict, root: dict, base, path=(), refs=frozenset()):
    """(path, schema node) for every node of a schema reachable from a document, following
    `properties`, `additionalProperties`, `items` and `then`/`else` (a `$defs` entry once per
    path: recursive values are walked one level deep); keys and indexes that the document
    `base` lacks are taken as a sample ("x", 0)."""
    node, name = _resolve(schema, root)
    yield path, node
    if name and name in refs:
        return
    refs = refs | {name}
    here = base
    branches = [node] + [_resolve(node[k], root)[0] for k in ("then", "else") if isinstance(node.get(k), dict)]
    for branch in branches:
        for key, sub in branch.get("properties", {}).items():
            yield from schema_nodes(sub, root, here.get(key) if isinstance(here, dict) else None,
                                    path + (key,), refs)
        extra = branch.get("additionalProperties")
        if isinstance(extra, dict):
            keys = [k for k in (here or {}) if k not in branch.get("properties", {})] if isinstance(here, dict) else []
            for key in keys[:3] or ["x"]:
                yield from schema_nodes(extra, root, here.get(key) if isinstance(here, dict) else None,
                                        path + (key,), refs)
        if isinstance(branch.get("items"), dict):
            yield from schema_nodes(branch["items"], root, here[0] if isinstance(here, list) and here else None,
                                    path + (0,), refs)


def put(document, path, value):
    """A copy of `document` with `value` at `path` (missing mappings and lists made on the way);
    None when the document has a list where the path names a key, or the other way round."""
    out = copy.deepcopy(document)
    node = out
    for step, following in zip(path, path[1:]):
        if isinstance(node, dict) != isinstance(step, str):
            return None
        empty = [] if isinstance(following, int) else {}
        if isinstance(node, dict):
            if not isinstance(node.get(step), (dict, list)):
                node[step] = empty
            node = node[step]
        else:
            while len(node) <= step:
                node.append(copy.deepcopy(empty))
            if not isinstance(node[step], (dict, list)):
                node[step] = empty
            node = node[step]
    if isinstance(node, dict) != isinstance(path[-1], str):
        return None
    if isinstance(node, dict):
        node[path[-1]] = value
    else:
        while len(node) <= path[-1]:
            node.append(None)
        node[path[-1]] = value
    return out


def _json_type(value) -> str:
    return {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string",
            list: "array", dict: "object"}[type(value)]


SHAPES = [[None], [[1, 2]], {"k": {"k": [1]}}, {"cell": "x"}, []]


def wrong_values(node: dict, number: int, every: bool) -> list:
    """Values for a schema node: with `every`, all of OTHER_VALUES; else one of a JSON type the
    node does not take and one of a wrong shape, chosen by the node's number (deterministic)."""
    if every:
        return OTHER_VALUES
    types = node.get("type", [])
    types = [types] if isinstance(types, str) else types
    others = [v for v in OTHER_VALUES if _json_type(v) not in types and
              not (_json_type(v) == "integer" and "number" in types)] or OTHER_VALUES
    return [others[number % len(others)], SHAPES[number % len(SHAPES)]]


def mutations(schema: dict, base: dict, every: bool = False):
    """Documents that differ from `base` at one node of the schema: a value of another JSON
    type or of a wrong list or mapping shape there, or a key a `propertyNames` refuses."""
    seen = set()
    for number, (path, node) in enumerate(schema_nodes(schema, schema, base)):
        if not path:
            for value in OTHER_VALUES:
                yield "the document", value
            continue
        for value in wrong_values(node, number, every):
            document = put(base, path, value)
            key = (path, json.dumps(value))
            if key not in seen and document is not None:
                seen.add(key)
                yield f"{'.'.join(map(str, path))} = {json.dumps(value)}", document
        if "propertyNames" in node:
            for bad in BAD_KEYS if every else BAD_KEYS[number % len(BAD_KEYS):][:1]:
                document = put(base, path, {bad: ["green 3"]})
                if document is not None:
                    yield f"{'.'.join(map(str, path))} with the key {bad!r}", document


FULL_SCENARIO = {
    "name": "every key", "description": "a scenario with every key of the schema",
    "game": "punto", "variant": "team", "players": 4, "seed": 3,
    "state": {"zones": {"table": {"0,0": ["green 3"], "1,0": "red 1"}, "deck/0": ["blue 5"]},
              "top": {"deck/1": ["green 2"]}, "vars": {"starter": 1, "wins": [0, 0, 0, 0], "owner": {"red 2": 1},
                                                      "round_winner": None}},
    "moves": ["2,0", 0],
    "expect": {"options": ["1,1"], "options_include": [0], "options_exclude": ["0,0"], "player": 0,
               "prompt": "Place", "zones": {"table": {"0,0": "green 3"}, "deck/2": []},
               "vars": {"rounds": 0, "wins": [0, 0, 0, 0], "owner": {"red 2": 1}},
               "scores": [0, 0, 0, 0], "lines": [{"Rounds won": 0}], "winners": [], "finished": False,
               "error": "nothing", "turns": [1, 1, 0, 0], "log_includes": ["Player"], "invariants": True,
               "endings": [], "properties": False, "opponents": {"The bot": {"total": 1}},
               "bot_chooses": {"bots": ["random"], "one_of": ["0,0", 1], "seeds": 1}},
}


def test_the_full_scenario_passes_the_schema(tmp_path):
    path, outcome = run(tmp_path, yaml.safe_dump(FULL_SCENARIO))
    assert all("error: scenario: " not in f or "expected" in f for f in outcome.failures), outcome.failures


# libyaml's writer where installed: the same documents, read back to the same data, several
# times faster than the pure one (the walk writes 1,600 of them).
FAST_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def walk_scenario_schema(tmp_path, capsys, monkeypatch, every: bool) -> int:
    from functools import lru_cache
    from boardwright.interpreter.testing import scenario as runner
    monkeypatch.setattr(runner, "load_game", lru_cache(maxsize=None)(load_game))     # one load per game
    schema = json.loads((SCHEMA_DIR / "scenario.schema.json").read_text())
    made = 0
    for number, (what, document) in enumerate(mutations(schema, FULL_SCENARIO, every)):
        path = tmp_path / f"m{number}.scenario.yaml"
        path.write_text(f"# {what}\n" + yaml.dump(document, Dumper=FAST_DUMPER))
        for failure in run_scenario(path).failures:
            assert "internal error" not in failure and "Traceback" not in failure, (what, failure)
            assert failure.startswith(f"{path}:"), (what, failure)
        made += 1
    # the command itself, on a sample: exit 1, no internal error
    sample = [str(p) for p in sorted(tmp_path.glob("m*.scenario.yaml"))[::25]]
    assert main(["test", *sample]) == 1
    out = capsys.readouterr().out
    assert "internal error" not in out and out.splitlines()[-1].endswith(" failed")
    return made


def test_every_node_of_the_scenario_schema_refuses_wrong_shapes_at_their_place(tmp_path, capsys, monkeypatch):
    assert walk_scenario_schema(tmp_path, capsys, monkeypatch, every=False) > 200


@pytest.mark.slow
def test_every_node_of_the_scenario_schema_refuses_every_wrong_value(tmp_path, capsys, monkeypatch):
    assert walk_scenario_schema(tmp_path, capsys, monkeypatch, every=True) > 1200


@pytest.mark.parametrize("fmt, every", [(LOG_FORMAT, False), (SAVE_FORMAT, False),
                                        pytest.param(LOG_FORMAT, True, marks=pytest.mark.slow),
                                        pytest.param(SAVE_FORMAT, True, marks=pytest.mark.slow)])
def test_every_node_of_the_save_schema_refuses_wrong_shapes_with_exit_2(tmp_path, fmt, every):
    schema = json.loads((SCHEMA_DIR / "saved-game.schema.json").read_text())
    base = punto_file(fmt, moves=2)
    base["params"] = {"rounds_to_win": "2"}
    if fmt == LOG_FORMAT:
        base["bots"] = [{"seat": 1, "bot": "random", "random": [0] * 625}]
    made = 0
    for number, (what, document) in enumerate(mutations(schema, base, every)):
        path = tmp_path / f"m{number}.json"
        path.write_text(json.dumps(document, indent=1))
        try:
            read_saved(str(path), fmt, load_game)
        except UsageError as err:       # exit 2 (cli/main.py), naming the file
            assert str(path) in str(err), (what, str(err))
        made += 1
    assert made > (150 if every else 40)


def test_replay_shows_the_replayed_label_not_the_files(tmp_path, capsys):
    # the log is untrusted: what replay shows comes from the rules, never from the file
    log = punto_file(LOG_FORMAT)
    true_label = log["moves"][1]["label"]
    for move in log["moves"]:
        move["label"] = "anything at all"
    path = tmp_path / "game.log.json"
    path.write_text(json.dumps(log))
    assert main(["replay", str(path), "--step", "2"]) == 0
    out = capsys.readouterr().out
    assert f"Player 2 chose {true_label}" in out and "anything at all" not in out


@pytest.mark.parametrize("schema, instance, expected", [
    ({"type": "string", "minLength": 2}, "a", "'x' must be at least 2 characters long"),
    ({"type": "string", "maxLength": 1}, "ab", "'x' must be at most 1 character long"),
    ({"type": "object", "maxProperties": 1}, {"a": 1, "b": 2}, "'x' must have at most 1 key"),
    ({"type": "object", "minProperties": 1}, {}, "'x' must have at least 1 key"),
    ({"const": 3}, 4, "'x' must be `3`, not `4`"),
    ({"not": {"type": "integer"}, "errorMessage": "no whole numbers"}, 5, "'x': no whole numbers, got `5`"),
])
def test_schema_errors_are_worded_for_each_kind_of_rule(schema, instance, expected):
    # Each kind of JSON Schema rule says what belongs at the place, in the file's words.
    import jsonschema

    from boardwright.dsl.schema_words import schema_message
    wrapped = {"type": "object", "properties": {"x": schema}}
    error = next(jsonschema.Draft202012Validator(wrapped).iter_errors({"x": instance}))
    where, message, _ = schema_message(error)
    assert where == ["x"]
    assert message == expected


def test_options_exclude_fails_on_a_label_no_option_could_have(tmp_path):
    # Punto's labels are cells "(x, y)": "(5, 5)" is not offered at the first move but could
    # be later, "(5,5)" could never be (a typo that would make the exclusion pass vacuously).
    _, outcome = run(tmp_path, PUNTO + 'expect:\n  options_exclude: ["(5, 5)", "5,5", "(-3, 12)"]\n')
    assert outcome.passed, outcome.failures
    failure = only_failure(tmp_path, PUNTO + 'expect:\n  options_exclude: ["(5, 5)", "(5,5)"]\n')
    assert "options_exclude: '(5,5)' could never be offered here" in failure and "'(5, 5)'" not in failure
    assert "options_exclude:" in failure.splitlines()[1]        # the failure points at its key
    # The tiny game's labels are cards: "spades 3" is not offered after the deck was emptied
    # of it, "spade 3" or "clubs 3" never is.
    head = tiny(tmp_path) + "moves: [\"spades 3\"]\nexpect:\n"
    _, outcome = run(tmp_path, head + '  options_exclude: ["spades 3"]\n')
    assert outcome.passed, outcome.failures
    failure = only_failure(tmp_path, head + '  options_exclude: ["spade 3", "clubs 3"]\n')
    assert "no option, component or player uses the word 'spade' (did you mean 'spades'?)" in failure
    assert "the word 'clubs'" in failure


def test_a_failure_lists_the_first_labels_of_a_long_option_list(tmp_path):
    game = Path(__file__).resolve().parent.parent / "docs" / "examples" / "polyomino" / "polyomino.game"
    failure = only_failure(tmp_path, f"game: {game}\nplayers: 2\nexpect:\n  options_include: ['I1 on (0, 0)']\n")
    from test_testbeds import POLYOMINO, reference
    offered = len(reference(POLYOMINO).Polyomino(0).options)        # the plain-Python enumeration
    listed = failure.split("among the options: ")[1].split("\n")[0]
    assert listed.count(" on (") == 30 and f"; ... and {offered - 30} more" in listed
