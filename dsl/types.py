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
    """The common type of two branches (of a conditional, or the sides of an operator)."""
    return unify_all([a, b])


def unify_all(types: list) -> str:
    """The common type of several values (the items of a list, the arms of a case): the one
    type they share, `none` and `any` aside (an unknown type fits every other); `int` for ints
    and players; a list of the common type of their items for lists; else `any`. All at once,
    so that items of two kinds make `any` whatever comes after them: `[5, "ab", true]` is a
    list of any, not of bool."""
    known = [t for t in dict.fromkeys(types) if t not in (NONE, ANY)]
    if not known:
        return types[0] if types else NONE
    if len(known) == 1:
        return known[0]
    if set(known) == {INT, PLAYER}:
        return INT
    if all(is_list(t) for t in known):
        return list_of(unify_all([element(t) for t in known]))
    return ANY
