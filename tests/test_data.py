"""Component data files: expansion of `product` and `copies`, and errors at YAML lines."""
from __future__ import annotations

import textwrap
from collections import Counter

import pytest

from boardwright.dsl.data import DataSet, load_data
from boardwright.dsl.errors import DataError

VALID = """\
provenance: >
  Test deck: three colours, values 1 to 4, two copies of each, plus three jokers.
enums:
  Colour: [red, blue, green]
components:
  Card:
    label: "{colour} {value}"
    attributes:
      colour: Colour
      value: int
      wild: bool
      tags: list of str
    items:
      - product:
          colour: [red, blue, green]
          value: [1, 2, 3, 4]
        wild: false
        tags: []
        copies: 2
      - colour: red
        value: 0
        wild: true
        tags: [joker, bonus]
        copies: 3
  Token:
    attributes:
      worth: int
    items:
      - worth: 5
"""


def write(tmp_path, text: str, name: str = "data.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def errors(tmp_path, text: str) -> list:
    with pytest.raises(DataError) as info:
        load_data(write(tmp_path, text))
    return info.value.diagnostics


def only(tmp_path, text: str):
    diags = errors(tmp_path, text)
    assert len(diags) == 1, [d.message for d in diags]
    return diags[0]


def at(diag) -> tuple:
    return diag.span.line, diag.span.column


# ----------------------------------------------------------------------------- valid data
def test_product_and_copies_expand(tmp_path):
    data = load_data(write(tmp_path, VALID))
    assert isinstance(data, DataSet)
    card = data.kinds["Card"]
    assert len(card.items) == 3 * 4 * 2 + 3
    combos = Counter((i["colour"], i["value"]) for i in card.items if not i["wild"])
    assert len(combos) == 12
    assert set(combos.values()) == {2}
    assert combos[("green", 4)] == 2


def test_items_carry_every_attribute_value(tmp_path):
    card = load_data(write(tmp_path, VALID)).kinds["Card"]
    assert card.items[0] == {"colour": "red", "value": 1, "wild": False, "tags": []}
    jokers = [i for i in card.items if i["wild"]]
    assert jokers == [{"colour": "red", "value": 0, "wild": True, "tags": ["joker", "bonus"]}] * 3
    # each expanded item is its own dict
    card.items[0]["value"] = 99
    assert card.items[1]["value"] == 1


def test_product_order_is_row_major(tmp_path):
    card = load_data(write(tmp_path, VALID)).kinds["Card"]
    firsts = [(i["colour"], i["value"]) for i in card.items[:16:2]]
    assert firsts == [("red", 1), ("red", 2), ("red", 3), ("red", 4),
                      ("blue", 1), ("blue", 2), ("blue", 3), ("blue", 4)]


def test_kinds_enums_labels_and_provenance(tmp_path):
    path = write(tmp_path, VALID)
    data = load_data(path)
    assert data.path == str(path)
    assert data.provenance.startswith("Test deck")
    assert data.enums == {"Colour": ["red", "blue", "green"]}
    assert list(data.kinds) == ["Card", "Token"]
    card = data.kinds["Card"]
    assert card.attributes == {"colour": "Colour", "value": "int", "wild": "bool", "tags": "list of str"}
    assert card.label == "{colour} {value}"
    token = data.kinds["Token"]
    assert token.label is None and token.items == [{"worth": 5}]


def test_yaml_anchors_and_merge_keys(tmp_path):
    data = load_data(write(tmp_path, """\
        provenance: x
        components:
          Tile:
            attributes: {value: int, big: bool}
            items:
              - &small {value: 1, big: false}
              - *small
              - <<: *small
                big: true
        """))
    assert data.kinds["Tile"].items == [{"value": 1, "big": False}, {"value": 1, "big": False},
                                        {"value": 1, "big": True}]


# ----------------------------------------------------------------------------- YAML errors
def test_bad_yaml_points_at_the_line(tmp_path):
    diag = only(tmp_path, """\
        provenance: x
        components:
          Tile:
            attributes:
              value: int
            items:
              - value: [1, 2
        """)
    assert at(diag) == (7, 21)          # the end of the unfinished list, not past the file
    assert diag.message == "invalid YAML: expected ',' or ']', but got '<stream end>'"
    assert diag.hint == "while parsing a flow sequence at line 7, column 16"


def test_bad_indentation(tmp_path):
    diag = only(tmp_path, "provenance: x\ncomponents:\n  Tile:\n    items: [1]\n   attributes: {}\n")
    assert diag.span.line == 5
    assert diag.message.startswith("invalid YAML:")


def test_tab_indentation(tmp_path):
    diag = only(tmp_path, "provenance: x\ncomponents:\n\tTile: {}\n")
    assert at(diag) == (3, 1)
    assert "'\\t'" in diag.message


def test_python_tags_are_refused(tmp_path):
    diag = only(tmp_path, "provenance: !!python/object:os.system x\ncomponents: {}\n")
    assert at(diag) == (1, 13)
    assert "could not determine a constructor" in diag.message


def test_several_yaml_documents(tmp_path):
    diag = only(tmp_path, "provenance: x\n---\nprovenance: y\n")
    assert at(diag) == (2, 1)
    assert diag.message == ("invalid YAML: expected a single document in the stream, "
                            "but found another document")


def test_runaway_copies_and_products_are_refused(tmp_path):
    diags = errors(tmp_path, """\
        provenance: x
        components:
          Tile:
            attributes: {a: int, b: int}
            items:
              - {a: 1, b: 1}
              - product: {a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], b: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}
                copies: 1000000
        """)
    assert [(at(d), d.message) for d in diags] == [
        ((7, 9), "too many components: this item brings the total to 100000001; "
                 "a data file may have at most 100000")]


def test_deep_nesting_is_refused_before_it_exhausts_the_stack(tmp_path):
    diag = only(tmp_path, "provenance: x\ncomponents:\n  Tile:\n    attributes: {v: int}\n    items:\n"
                          "      - v: " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert at(diag) == (6, 107)
    assert diag.message == "the YAML nests more than 100 levels deep"


def test_alias_inside_its_own_value(tmp_path):
    diag = only(tmp_path, "provenance: x\ncomponents: &all\n  Tile: *all\n")
    assert at(diag) == (2, 13)
    assert diag.message == "an alias is used inside the value it names"


def test_alias_bomb(tmp_path):
    lines = ["provenance: x", "a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    lines += ["components: {Tile: {attributes: {v: int}, items: [{v: *a8}]}}"]
    diag = only(tmp_path, "\n".join(lines) + "\n")
    assert diag.span.line == 7
    assert diag.message == "aliases repeat this value into more than 1000000 values"


def test_empty_file(tmp_path):
    diag = only(tmp_path, "# nothing here\n")
    assert diag.message == "the data file is empty"


def test_not_utf8(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes("provenance: caf\xe9\n".encode("latin-1"))
    with pytest.raises(DataError) as info:
        load_data(path)
    assert "not UTF-8" in info.value.diagnostics[0].message


def test_missing_file(tmp_path):
    with pytest.raises(DataError) as info:
        load_data(tmp_path / "nowhere.yaml")
    assert "cannot read data file" in info.value.diagnostics[0].message


def test_duplicate_key(tmp_path):
    diag = only(tmp_path, """\
        provenance: x
        components:
          Tile:
            attributes: {value: int}
            items:
              - value: 1
                value: 2
        """)
    assert at(diag) == (7, 9)
    assert diag.message == "the key 'value' is given twice"
    assert diag.hint == "first given at line 6"


def test_key_that_is_not_a_name(tmp_path):
    diags = errors(tmp_path, """\
        provenance: x
        components:
          Tile:
            attributes:
              yes: bool
              2: int
            items:
              - {}
        """)
    assert [(at(d), d.message) for d in diags] == [((5, 7), "the key 'yes' is not a name"),
                                                   ((6, 7), "the key '2' is not a name")]
    assert diags[0].hint == "quote it to make it a name"


# ----------------------------------------------------------------------------- schema errors
def test_unknown_key_points_at_the_key(tmp_path):
    diag = only(tmp_path, """\
        provenance: x
        components:
          Tile:
            attributes: {value: int}
            items:
              - value: 1
            lable: "{value}"
        """)
    assert (diag.span.line, diag.span.column, diag.span.end_column) == (7, 5, 10)
    assert diag.message == "unknown key 'lable' in components.Tile"
    assert diag.hint == "did you mean 'label'?"


def test_unknown_top_level_key(tmp_path):
    diag = only(tmp_path, "provenance: x\nenum:\n  Colour: [red]\ncomponents:\n"
                          "  Tile:\n    attributes: {}\n    items: [{}]\n")
    assert at(diag) == (2, 1)
    assert diag.message == "unknown key 'enum'"
    assert diag.hint == "did you mean 'enums'?"


def test_missing_required_key(tmp_path):
    diag = only(tmp_path, "components:\n  Tile:\n    attributes: {}\n    items: [{}]\n")
    assert diag.message == "the file needs the key 'provenance'"
    assert diag.hint == "add the missing key"


def test_schema_patterns_and_bounds(tmp_path):
    diags = errors(tmp_path, """\
        provenance: x
        components:
          tile:
            attributes:
              Value: int
            items:
              - copies: 0
        """)
    assert [at(d) for d in diags] == [(3, 3), (5, 7), (7, 17)]
    assert diags[2].message == "'copies' of item 1 of 'items' must be at least 1, not `0`"


def test_wrong_attribute_type_points_at_the_value(tmp_path):
    diags = errors(tmp_path, """\
        provenance: x
        components:
          Tile:
            attributes:
              value: int
              wild: bool
              name: str
            items:
              - {value: 1, wild: false, name: a}
              - value: two
                wild: false
                name: b
              - value: 3
                wild: 1
                name: 7
        """)
    assert [(at(d), d.message) for d in diags] == [
        ((10, 16), "Tile.value: expected an integer, got 'two'"),
        ((14, 15), "Tile.wild: expected true or false, got 1"),
        ((15, 15), "Tile.name: expected a string, got 7"),
    ]


def test_list_attribute_type(tmp_path):
    diag = only(tmp_path, """\
        provenance: x
        components:
          Tile:
            attributes: {sides: list of int}
            items:
              - sides: [1, 2]
              - sides: 3
        """)
    assert diag.span.line == 7
    assert diag.message == "Tile.sides: expected a list, got 3"


def test_enum_value_not_in_the_enum(tmp_path):
    diag = only(tmp_path, """\
        provenance: x
        enums:
          Colour: [red, blue]
        components:
          Tile:
            attributes: {colour: Colour}
            items:
              - colour: gren
        """)
    assert at(diag) == (8, 17)
    assert diag.message == "Tile.colour: 'gren' is not a Colour (red, blue)"


def test_enum_value_in_a_product_points_at_the_entry(tmp_path):
    diags = errors(tmp_path, """\
        provenance: x
        enums:
          Colour: [red, blue]
        components:
          Tile:
            attributes: {colour: Colour, value: int}
            items:
              - product:
                  colour: [red, bleu]
                  value: [1, 2, x]
        """)
    # Each bad entry is reported once, although the product repeats it in several items.
    assert [(d.span.line, d.span.column, d.span.end_column, d.message) for d in diags] == [
        (9, 25, 29, "Tile.colour: 'bleu' is not a Colour (red, blue); did you mean 'blue'?"),
        (10, 25, 26, "Tile.value: expected an integer, got 'x'"),
    ]


def test_unknown_attribute_in_an_item(tmp_path):
    diag = only(tmp_path, """\
        provenance: x
        components:
          Tile:
            attributes: {value: int}
            items:
              - value: 1
                valeu: 2
        """)
    assert at(diag) == (7, 9)
    assert diag.message == "unknown attribute 'valeu' of Tile"
    assert diag.hint == "did you mean 'value'?"


def test_item_missing_an_attribute(tmp_path):
    diag = only(tmp_path, """\
        provenance: x
        components:
          Tile:
            attributes: {value: int, name: str}
            items:
              - value: 1
        """)
    assert at(diag) == (6, 9)
    assert diag.message == "a Tile item has no value for 'name'"


def test_unknown_attribute_type_is_reported_once(tmp_path):
    diag = only(tmp_path, """\
        provenance: x
        enums:
          Colour: [red]
        components:
          Tile:
            attributes:
              colour: Color
            items:
              - colour: red
        """)
    assert at(diag) == (7, 15)
    assert diag.message == "unknown attribute type 'Color'"
    assert diag.hint == "did you mean 'Colour'?"


def test_data_error_format_quotes_the_yaml_line(tmp_path):
    with pytest.raises(DataError) as info:
        load_data(write(tmp_path, "provenance: x\ncomponents:\n  Tile:\n    attributes: {v: int}\n"
                                  "    items:\n      - v: no\n"))
    text = info.value.format()
    assert text.splitlines() == [
        f"{tmp_path / 'data.yaml'}:6:12: error: Tile.v: expected an integer, got False [E704]",
        "          - v: no",
        "               ^^",
        "    hint: YAML reads an unquoted no as false: quote it"]


@pytest.mark.slow
def test_every_bundled_data_file_marks_which_numbers_are_representative():
    """Each bundled data file's provenance is machine-readable: parts that say which numbers
    are printed facts (with their source) and which were written for the project, and
    `boardwright info` shows the latter."""
    import subprocess
    import sys
    from boardwright.dsl.loader import GAMES_DIR
    from boardwright.dsl.data import load_data
    for path in sorted(GAMES_DIR.glob("*/*.yaml")):
        data = load_data(path)
        assert data.provenance_parts, path
        assert all(part["representative"] or part.get("source") for part in data.provenance_parts), path
    assert load_data(GAMES_DIR / "punto" / "cards.yaml").representative == []
    assert "the road layouts of the tiles" in load_data(GAMES_DIR / "urban-panic" / "tiles.yaml").representative
    out = subprocess.run([sys.executable, "-m", "boardwright", "info", "happy-city"], capture_output=True, text=True).stdout
    assert "cards.yaml: representative (not printed): English card names; the 38 red specials" in out
