"""The per-cell data of shapes (dsl/shapes.py) checked against a kind's `cell_attributes`, each
problem at its place in the YAML: a cell that gives no values, an unknown cell attribute, a
value of the wrong type, a missing one."""
from __future__ import annotations

from .errors import Diagnostic, did_you_mean, listing
from .schema_words import key_node_at, mark_span, node_at


def cell_value_problems(name, root, path: list, kind, shape, enums: dict, skip, type_problem):
    """The per-cell data of a shape against the kind's `cell_attributes`: every cell of a kind
    that declares them gives each one, of its type; no cell gives an undeclared one."""
    cells = [] if isinstance(shape, str) else shape
    if kind.cell_attributes and (isinstance(shape, str) or not cells):
        yield Diagnostic(mark_span(name, node_at(root, path)),
                         f"{kind.name} declares cell_attributes ({listing(kind.cell_attributes)}), so each cell "
                         f"of its shape gives them", "write the shape as a list: [{at: [0, 0], ...}, ...]")
    places = [tuple(c["at"]) if isinstance(c, dict) else tuple(c) for c in cells]
    for index, cell in enumerate(cells):
        node = node_at(root, path + [index])
        if places[index] in places[:index]:
            yield Diagnostic(mark_span(name, node), f"the cell {list(places[index])} appears twice in the shape")
        if not isinstance(cell, dict):
            if kind.cell_attributes:
                yield Diagnostic(mark_span(name, node),
                                 f"the cell {cell} of a {kind.name} shape gives no cell attributes; "
                                 f"{kind.name} declares {listing(kind.cell_attributes)}",
                                 f"write it {{at: {cell}, {', '.join(f'{a}: ...' for a in kind.cell_attributes)}}}")
            continue
        for attr, value in cell.items():
            if attr == "at" or attr in skip:
                continue
            if attr not in kind.cell_attributes:
                yield Diagnostic(mark_span(name, key_node_at(root, path + [index, attr])),
                                 f"unknown cell attribute '{attr}' of {kind.name}",
                                 did_you_mean(attr, kind.cell_attributes) or
                                 f"declare it under components.{kind.name}.cell_attributes")
                continue
            problem = type_problem(kind.cell_attributes[attr], value, enums)
            if problem:
                yield Diagnostic(mark_span(name, node_at(root, path + [index, attr])),
                                 f"the cell {cell['at']} of a {kind.name} shape: {attr}: {problem}")
        missing = [a for a in kind.cell_attributes if a not in cell]
        if missing:
            yield Diagnostic(mark_span(name, node),
                             f"the cell {cell['at']} of a {kind.name} shape gives no '{missing[0]}'",
                             f"every cell gives each of: {listing(kind.cell_attributes)}")
