"""No text from a rule file or a data file becomes Python source except as a literal made by the
compiler's quoting (`repr`, interpreter/compile/expressions.py `literal`; docs/security.md):
hostile names, strings and labels (Python keywords, dunders, quotes of every kind, backslashes,
newlines, NULs, odd unicode, code that would run if it were spliced in) either are refused
with a positioned error or compile into a module that runs, and every value comes back out of
the game exactly as it was written.

Scenarios, saves, logs and `--set` never reach the generated source: they become values of a
state (tests/test_fuzz_inputs.py throws hostile ones at every loader)."""
from __future__ import annotations

import keyword
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from boardwright.dsl.errors import BoardwrightError
from boardwright.dsl.grammar import GRAMMAR, RESERVED_WORDS
from boardwright.interpreter.compile.load import load_game
from conftest import examples

MARKER = "boardwright-hostile-marker"
# Texts that would run code (and create MARKER) if a quote of theirs ended a Python literal.
BREAKOUTS = [f"{quote}); __import__('os').system('touch {MARKER}'); ({quote}" for quote in
             ["'", '"', "'''", '"""', "\\'", '\\"', "\\\\'"]] + [
    f"\n__import__('os').system('touch {MARKER}')\n", f"' + __import__('pathlib').Path('{MARKER}').touch() + '",
    f"\\N\\x00\\u0041\\'; open('{MARKER}', 'w') #"]

# Letters that quoting must survive (no braces: in a rule text a pair of them is a placeholder).
TEXT = st.text(st.sampled_from(list("a'\"\\\n\t #:;()[]=+.x") + ["\u00e9", "\u202e", "\u0301", "\U0001d54f",
                                                                  "\ufeff", "\x00", "\r", "\x1b", "\u2028"]),
               max_size=30)
NAMES = st.one_of(st.sampled_from(sorted(keyword.kwlist) + ["__import__", "__class__", "__builtins__", "__dict__",
                                                             "eval", "exec", "st", "L", "F", "_C", "_k0", "_p_x",
                                                             "self", "os", "sys", "_", "__", "print"]),
                  st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_]{0,12}\Z"))


LANGUAGE_WORDS = set(re.findall(r'"([a-z_]+)"', GRAMMAR.read_text())) | set(RESERVED_WORDS)


def quoted(text: str) -> str:
    """`text` (without braces: a pair is a placeholder) as a string literal of the rule language,
    with its escapes \\" \\\\ \\n \\t."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def yaml_quoted(text: str) -> str:
    import json
    return json.dumps(text.replace("{", "{{").replace("}", "}}"), ensure_ascii=False)     # a JSON string is a YAML string


def game_text(title: str, name: str, var: str, text: str) -> str:
    return f"""game {quoted(title)}
players 2
data "cards.yaml"
param {name} = 7
var {var}: int = 0
var said: str = ""
zone deck: stack
setup {{ move components(Card) to deck }}
play {{
  {var} = {name}
  said = {quoted(text)}
  log {quoted(text)}
  for c in contents(deck) {{ log "{{c}}" }}
}}
"""


def run_game(tmp_path, title: str, name: str, var: str, text: str, label: str):
    """(game, final state) of the hostile game, or the BoardwrightError that refused it."""
    folder = tmp_path
    (folder / "cards.yaml").write_text(f"provenance: test\ncomponents:\n  Card:\n    label: {yaml_quoted(label)}\n"
                                       "    attributes: {rank: int}\n    items:\n      - {rank: 1}\n", encoding="utf-8", errors="surrogatepass")
    path = folder / "hostile.game"
    path.write_text(game_text(title, name, var, text), encoding="utf-8", errors="surrogatepass")
    try:
        game = load_game(str(path))
        state = game.new_state(2, 0)
        assert game.decision(state) is None, "the game ends without a decision"
    except BoardwrightError as refused:
        return None, refused
    return game, state


def check_case(tmp_path, monkeypatch, title, name, var, text, label) -> bool:
    monkeypatch.chdir(tmp_path)
    game, state = run_game(tmp_path, title, name, var, text, label)
    assert not (tmp_path / MARKER).exists(), "a text ran as code"
    if game is None:
        refused = state.format()
        assert "hostile.game:" in refused or "cards.yaml" in refused, refused     # a positioned error
        # refused only for what the language forbids: a NUL or CR in a string, a name declared
        # twice, or one of its own words as a name
        assert any(c in title + text for c in "\x00\r") or name == var or {name, var} & LANGUAGE_WORDS, refused
        return False
    source = game.generated.source
    compile(source, "generated", "exec")
    # every text and name comes back exactly
    assert state.vars[var] == 7 and state.vars[name] == 7
    assert state.vars["said"] == text
    assert text in state.log and label in state.log, (text, label, state.log)
    assert game.title == title
    # and reaches the generated source only as the quoting function writes it
    for value in (text,):
        if len(value) > 2 and value.isascii() and "\\" not in value and "'" not in value and '"' not in value \
                and "\n" not in value:
            assert all(repr(value) in line or value not in line for line in source.splitlines())
    return True


@pytest.mark.parametrize("text", BREAKOUTS)
def test_a_string_that_would_break_out_of_its_quotes_stays_a_string(tmp_path, monkeypatch, text):
    assert check_case(tmp_path, monkeypatch, title=text.replace("\n", " "), name="class", var="__import__",
                      text=text, label=text.replace("\n", " "))
    assert not (tmp_path / MARKER).exists()


@settings(max_examples=examples(30), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(title=TEXT.filter(str.strip), name=NAMES, var=NAMES, text=TEXT, label=TEXT.filter(str.strip))
@example(title='"""', name="lambda", var="__class__", text='\\"""\\n', label="' + '")
def test_hostile_names_and_texts_compile_and_round_trip(tmp_path, monkeypatch, title, name, var, text, label):
    for stale in tmp_path.iterdir():
        stale.unlink()
    check_case(tmp_path, monkeypatch, title, name, var, text, label)
