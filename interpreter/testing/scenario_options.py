"""What a scenario's option expectations say about the options of a decision: labels listed
for a failure, and whether an `options_exclude` text could be an option of that decision at
all (docs/scenarios.md, "options_exclude and typos")."""
from __future__ import annotations

import re

from ...dsl.errors import did_you_mean

SHOWN_OPTIONS = 30          # a failure lists this many option labels, then how many more


def listed_labels(labels: list) -> str:
    """The labels of a decision's options for a failure message (ids are for machines)."""
    if not labels:
        return "none"
    more = len(labels) - SHOWN_OPTIONS
    return "; ".join(labels[:SHOWN_OPTIONS]) + (f"; ... and {more} more" if more > 0 else "")


_WORD = re.compile(r"[^\W\d_]+")
_NUMBER = re.compile(r"-?\d+")


def label_form(text: str) -> str:
    """A label's form: each word W, each whole number N, the rest (spaces, punctuation) kept."""
    return _NUMBER.sub("N", _WORD.sub("W", text.lower()))


def never_offered(game, st, item: str, ids: list, labels: list) -> list[str]:
    """Why `item` (an options_exclude entry that is not offered) could not be an option of
    this decision in any position, or nothing if it could. It could when it has the form of
    an offered id or label (numbers may differ: the cells and counts of another position)
    and each of its words is one that the game's options (ids or labels), components or players use. A
    label with a typo ('(5,5)' for '(5, 5)', 'I1 at' for 'I1 on', 'forset') passes an
    exclusion vacuously, so it is a failure."""
    forms = {label_form(text) for text in ids + labels}
    if label_form(item) not in forms:
        examples = "; ".join(dict.fromkeys(labels))
        examples = examples if len(examples) < 200 else examples[:200] + "..."
        return [f"options_exclude: {item!r} could never be offered here: no option of this decision has its "
                f"form (numbers aside); the options read like: {examples}"]
    # an offered id's words too: a placement's id has a 't' before its orientation ('red-l@3,4t2')
    known = {w for text in ids + labels + list(game.labels) + [game.player_name(p) for p in range(st.players)]
             for w in _WORD.findall(text.lower())}
    known |= {str(m).lower() for members in game.spec.enums.values() for m in members}
    unknown = [w for w in _WORD.findall(item.lower()) if w not in known]
    if unknown:
        hint = did_you_mean(unknown[0], known)
        return [f"options_exclude: {item!r} could never be offered here: no option, component or player uses "
                f"the word {unknown[0]!r}" + (f" ({hint})" if hint else "")]
    return []
