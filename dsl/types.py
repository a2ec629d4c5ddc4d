"""Static types of the rule language, written as text: "int", "Card", "list of cell".

Scalars: int, bool, str, player, cell, none, any. An enum or component kind is named by
itself. Zones are "zone of K" (stack or pile) and "grid of K". Lists nest: "list of list of cell".
"""
from __future__ import annotations

SCALARS = ("int", "bool", "str", "player", "cell", "none", "any")
INT, BOOL, STR, PLAYER, CELL, NONE, ANY = SCALARS


# A placement of a shaped component on a grid (`placements_of`, docs/language.md): a value with
# fields, like a cell's x and y. Kept to itself here, beside the scalars.
PLACEMENT = "placement"
PLACEMENT_FIELDS = {"piece": ANY, "at": CELL, "turn": INT, "cells": "list of cell"}


def list_of(t: str) -> str:
    return "list of " + t


def is_list(t: str) -> bool:
    return t.startswith("list of ")


def element(t: str) -> str:
    return t[len("list of "):] if is_list(t) else ANY


def is_zone(t: str) -> bool:
    return t.startswith("zone of ") or t.startswith("grid of ")


def is_grid(t: str) -> bool:
    return t.startswith("grid of ")


def zone_holds(t: str) -> str:
    return t.split(" of ", 1)[1] if is_zone(t) else ANY


def numeric(t: str) -> bool:
    return t in (INT, PLAYER, ANY)


def compatible(expected: str, actual: str) -> bool:
    """Whether a value of type `actual` may stand where `expected` is required."""
    if expected == actual or ANY in (expected, actual) or actual == NONE:
        return True
    if {expected, actual} == {INT, PLAYER}:
        return True             # players are seat numbers
    if is_list(expected) and is_list(actual):
        return compatible(element(expected), element(actual))
    if is_zone(expected) and is_zone(actual):
        return expected.split(" of ")[0] == actual.split(" of ")[0] and compatible(
            zone_holds(expected), zone_holds(actual))
    return False


def unify(a: str, b: str) -> str:
    """The common type of two branches (of a conditional, or items of a list)."""
    if a == b or b in (NONE, ANY):
        return a
    if a in (NONE, ANY):
        return b
    if {a, b} == {INT, PLAYER}:
        return INT
    if is_list(a) and is_list(b):
        return list_of(unify(element(a), element(b)))
    return ANY
