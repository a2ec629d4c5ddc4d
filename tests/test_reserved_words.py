"""Reserved words are refused as names (E211), at the name, for every kind of name a rule file
gives (dsl/grammar.py RESERVED_WORDS, dsl/build_ast.py `named`), and in a variant too."""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import RuleFileError
from boardwright.dsl.grammar import RESERVED_WORDS
from boardwright.dsl.loader import check_game

BASE = 'game "R"\nplayers 2\nvar total: int = 0\n{extra}\nplay {{\n{body}\n}}\nscore p {{ "T": total }}\n'

# (declaration lines, play body lines, the reserved word, what it names, its line and column)
CASES = [
    ("fn at(i: int) -> int = i", "  total += 1", "at", "fn", 4, 4),
    ("proc by() { total += 1 }", "  total += 1", "by", "proc", 4, 6),
    ("param to = 2", "  total += 1", "to", "param", 4, 7),
    ("var from: int = 0", "  total += 1", "from", "var", 4, 5),
    ("zone of: pile", "  total += 1", "of", "zone", 4, 6),
    ("enum in { a, b }", "  total += 1", "in", "enum", 4, 6),
    ("enum Side { a, per }", "  total += 1", "per", "enum member", 4, 16),
    ("fn f(each: int) -> int = each", "  total += f(1)", "each", "parameter", 4, 6),
    ("proc g(prompt: int) { total += prompt }", "  g(1)", "prompt", "parameter", 4, 8),
    ("fn f(i: int) -> int {\n  let label = i\n  return label\n}", "  total += f(1)", "label", "local", 5, 7),
    ("", "  let to = 2\n  total += to", "to", "local", 6, 7),
    ("", "  for top in [1] { total += top }", "top", "loop variable", 6, 7),
    ("", "  total += len([1 for bottom in [1]])", "bottom", "loop variable", 6, 23),
    ("", "  choose id from [1, 2]\n  total += id", "id", "choice", 6, 10),
    ("", '  log "{len([1 for record in [1]])}"', "record", "loop variable", 6, 20),
    ("heuristic score = 0", "  total += 1", "score", "player variable", 4, 11),
    ("brief data = \"win\"", "  total += 1", "data", "player variable", 4, 7),
]


def _problems(tmp_path, extra: str, body: str) -> list:
    game = tmp_path / "r.game"
    game.write_text(BASE.format(extra=extra, body=body))
    with pytest.raises(RuleFileError) as caught:
        check_game(game)
    return caught.value.diagnostics


@pytest.mark.parametrize("extra, body, word, what, line, column", CASES, ids=[c[2] + "-" + c[3] for c in CASES])
def test_a_reserved_word_is_refused_at_the_name(tmp_path, extra, body, word, what, line, column):
    problems = [d for d in _problems(tmp_path, extra, body) if d.code == "E211"]
    assert len(problems) == 1, problems
    d = problems[0]
    assert (d.span.line, d.span.column, d.span.end_column) == (line, column, column + len(word))
    article = "an" if what[0] in "aeiou" else "a"
    assert d.message == f"'{word}' is a reserved word of the language and cannot name {article} {what}"
    assert d.hint.startswith("choose another name, e.g. '") and word not in RESERVED_WORDS - {word} | {d.hint[28:-1]}


def test_every_keyword_of_the_documented_list_is_reserved():
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
    listed = doc.split("### Reserved words", 1)[1].split("```text", 1)[1].split("```", 1)[0].split()
    assert set(listed) == RESERVED_WORDS


def test_names_that_are_keywords_only_in_a_zone_or_score_line_stay_names(tmp_path):
    game = tmp_path / "ok.game"
    game.write_text('game "R"\nplayers 2\nvar wins: int = 0\nzone board: grid extent 3 x 3\n'
                    'fn x(size: int) -> int = size + 1\n'
                    'play {\n  for lowest in [1] { wins += x(lowest) }\n}\nscore p { "T": wins }\n')
    spec, _ = check_game(game)
    assert "x" in spec.fns and "wins" in spec.vars


def test_a_variant_using_a_reserved_word_is_refused_at_the_variant(tmp_path):
    (tmp_path / "base.game").write_text(BASE.format(extra="", body="  total += 1"))
    variant = tmp_path / "v.game"
    variant.write_text('variant "V" extends "base.game"\nparam by = 2\n')
    with pytest.raises(RuleFileError) as caught:
        check_game(variant)
    [d] = [d for d in caught.value.diagnostics if d.code == "E211"]
    assert (d.span.file, d.span.line, d.span.column) == (str(variant), 2, 7)


def test_fmt_leaves_a_fn_named_x_and_its_calls_alone():
    from boardwright.dsl.formatter import format_checked
    text = ('game "F"\nplayers 2\nfn x(a: int) -> int = a + 1\nzone board: grid extent 3 x 3\n'
            'play {\n  let y = x(3) + len([x(i) for i in range(3)])\n}\nscore p { "T": x(-1) }\n')
    assert format_checked(text) == text
