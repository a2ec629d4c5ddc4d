"""Messages stay short and cheap whatever a file declares (docs/security.md, "The limits"):
a list of names from a file is cut after LISTED names, a did-you-mean compares with a bounded
number of names, and a file with thousands of errors is reported in linear time."""
from __future__ import annotations

import pytest

from boardwright.dsl.data import load_data
from boardwright.dsl.errors import LISTED, DataError, Diagnostic, Span, did_you_mean, listing

MEMBERS = 6_000     # more than errors.SUGGESTED_AMONG

DATA = """\
provenance: "Invented for this test."
enums:
  Colour: [{members}]
components:
  Tile:
    label: "{{colour}}"
    attributes:
      colour: Colour
    items:
      - {{colour: {value}}}
"""


def data_error(tmp_path, value: str) -> str:
    path = tmp_path / "tiles.yaml"
    path.write_text(DATA.format(members=", ".join(f"m{i}" for i in range(MEMBERS)), value=value))
    with pytest.raises(DataError) as info:
        load_data(path)
    return info.value.format()


def test_a_value_not_among_thousands_of_members_lists_a_few(tmp_path):
    text = data_error(tmp_path, "purple")
    first = ", ".join(f"m{i}" for i in range(LISTED))
    assert f"'purple' is not a Colour ({first}, ... ({MEMBERS - LISTED:,} more))" in text, text[:500]
    assert len(text) < 1000


def test_a_typo_among_thousands_of_members_is_still_found(tmp_path):
    assert "did you mean 'm5998'?" in data_error(tmp_path, "m5998x")


def test_listing_and_did_you_mean_on_short_and_long_lists():
    assert listing(["a", "b"]) == "a, b" and listing([]) == ""
    names = [f"n{i}" for i in range(LISTED + 5)]
    assert listing(names) == ", ".join(names[:LISTED]) + ", ... (5 more)"
    assert did_you_mean("colur", ["colour", "value"]) == "did you mean 'colour'?"
    assert did_you_mean("zebra", [f"n{i}" for i in range(100_000)]) == ""


class CountingText(str):
    """A source text that counts how often it is split into lines."""
    splits = 0

    def splitlines(self, *args):
        CountingText.splits += 1
        return super().splitlines(*args)


def test_thousands_of_errors_split_their_source_once():
    source = CountingText("x\n" * 5000)
    quoted = [Diagnostic(Span("f.game", line, 1, line, 2), "bad").format(source) for line in range(1, 5001)]
    assert quoted[4999].splitlines()[1].strip() == "x"
    assert CountingText.splits == 1


def test_a_did_you_mean_compares_with_a_bounded_number_of_names(monkeypatch):
    import difflib
    from boardwright.dsl import errors
    compared = []
    real = difflib.get_close_matches
    monkeypatch.setattr(errors.difflib, "get_close_matches",
                        lambda name, candidates, **kw: compared.append(len(candidates)) or real(name, candidates, **kw))
    names = [f"m{i}" for i in range(100_000)]
    assert did_you_mean("m99998x", names) == "did you mean 'm99998'?"
    assert compared == [errors.SUGGESTED_AMONG]
