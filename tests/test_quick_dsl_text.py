"""Rule files in words: `explain` writes expressions back as they were written (docs/cli.md,
"explain": the rules as structured text, for proof-reading); the lint warns about a statement
whose condition is always false (docs/cli.md, `validate --strict`: "a statement that can
never run"); the hover text of a declaration (its source, at most six lines, and the comment
above it: dsl/describe.py)."""
from __future__ import annotations

from boardwright.cli.main import main
from boardwright.dsl.describe import declaration_doc
from boardwright.dsl.loader import check_game

from conftest import small_body_file

BEHIND = """\
var points: int per player = 0
# How far behind the leader a player is,
# plus one once somebody scored.
fn behind(p: player) -> int {
  let best: int = max(points)
  return -(points[p] - best) + (if best > 0 then 1 else 0)
}
proc reset() {
  points[0] = 0
  points[1] = 0
  points[0] = behind(0)
  points[1] = behind(1)
  points[0] = -points[0]
  points[1] = +points[1]
}
play { reset() }
"""


def test_explain_writes_a_definition_as_its_source_says(tmp_path, capsys):
    path = small_body_file(tmp_path, BEHIND)
    assert main(["explain", str(path)]) == 0
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if line.strip().startswith("behind(")]
    assert line.strip().startswith(
        "behind(p: player) -> int = -(points[p] - best) + (if best > 0 then 1 else 0), where best = max(points)")
    assert "set points[0] to -points[0]" in out


def test_a_declaration_is_shown_with_its_comment_and_at_most_six_lines(tmp_path):
    path = small_body_file(tmp_path, BEHIND)
    spec, _ = check_game(path)
    doc = declaration_doc(spec.procs["reset"])
    source = path.read_text().splitlines()
    start = source.index("proc reset() {")
    assert doc == "```\n" + "\n".join(source[start:start + 6] + ["  ..."]) + "\n```" + f"\n\n_{spec.procs['reset'].span}_"
    doc = declaration_doc(spec.fns["behind"])
    assert doc.startswith("```\nfn behind(p: player) -> int {\n")
    assert "\n```\nHow far behind the leader a player is, plus one once somebody scored.\n\n_" in doc


def test_statements_under_an_always_false_condition_are_reported(tmp_path):
    path = small_body_file(tmp_path, """\
        var points: int per player = 0
        play {
          if false { log "never" }
          while not (true or points[0] > 0) { log "never again" }
          if points[0] > 0 or false { log "may run" }
        }
        """)
    spec, _ = check_game(path, warnings=True)
    found = [(w.span.line, w.message) for w in spec.warnings]
    never = "this statement can never run: its condition is always false"
    # the body's line 3 and 4 are the file's lines 6 and 7 (small_body_file's three header lines)
    assert (6, never) in found and (7, never) in found
    assert not [line for line, message in found if line == 8], "a condition that depends on the game is fine"
