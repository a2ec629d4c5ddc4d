"""A data file's provenance in the wrong shape gets a message in the language's words, at the
provenance, never the schema's raw text quoting the whole value (dsl/data.py)."""
from __future__ import annotations

import pytest

from boardwright.dsl.errors import RuleFileError
from boardwright.dsl.loader import check_game

KIND = "components:\n  Tile:\n    attributes: {v: int}\n    items:\n      - {v: 1}\n"
LONG = "Numbers from the printed cards, " * 4


@pytest.mark.parametrize("provenance, line, column, message", [
    (f"provenance:\n  text: \"{LONG}\"\n", 2, 3, "'provenance' needs the key 'parts'"),
    ("provenance:\n  text: t\n  parts:\n    - {what: all}\n", 4, 7, "item 1 of 'parts' needs the key 'representative'"),
    ("provenance: 3\n", 1, 13, "'provenance' must be a text or a mapping (key: value lines), not `3`"),
])
def test_a_provenance_of_the_wrong_shape_is_explained(tmp_path, provenance, line, column, message):
    (tmp_path / "t.yaml").write_text(provenance + KIND)
    game = tmp_path / "p.game"
    game.write_text('game "P"\nplayers 2\ndata "t.yaml"\nplay { }\n')
    with pytest.raises(RuleFileError) as caught:
        check_game(game)
    [d] = caught.value.diagnostics
    assert (d.message, d.span.line, d.span.column, d.code) == (message, line, column, "E703")
    assert "is not valid under any" not in d.message and "representative: true or false" in d.hint
