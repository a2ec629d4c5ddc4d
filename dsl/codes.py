"""Diagnostic codes: one stable code per kind of problem (listed in docs/diagnostics.md).

A diagnostic's code is found from its message by the first pattern below that matches, so
messages may be reworded within a kind without renumbering. A code, once given, keeps its
meaning; a retired code is not reused. E codes are errors; W codes are warnings (legal but
suspicious, refused only by `validate --strict`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    pattern: str        # a regular expression searched in the message
    summary: str


CODES = [
    # -- syntax
    Code("E101", "missing-expression", r"^unexpected '\w+'; expected an expression", "a keyword stands where an expression is missing"),
    Code("E102", "unexpected-end", r"^unexpected end of file", "the file ends inside a declaration, often an unclosed bracket"),
    Code("E103", "unexpected-character", r"^unexpected character", "a character that no token begins with (e.g. a single quote)"),
    Code("E104", "bad-placeholder", r"^in placeholder:", "a `{...}` placeholder in a string is not an expression"),
    Code("E105", "unexpected-token", r"^unexpected (?!error while)", "a token the grammar does not allow here"),
    Code("E106", "invalid-escape", r"^invalid escape", "a string escape other than \\\" \\\\ \\n \\t"),
    Code("E107", "too-deep", r"nest too deeply", "expressions or blocks nested more than 100 levels"),
    Code("E109", "number-too-long", r"^a number of [\d,]+ digits", "a number of more than 1,000 digits in a rule or data file"),
    Code("E108", "unreadable-rule-file", r"^not UTF-8 text|^cannot read (?!data)", "a rule file that cannot be read"),
    # -- structure of the game
    Code("E201", "no-players", r"declares no player counts", "no `players` line"),
    Code("E202", "bad-players", r"^invalid player counts", "a player range that is empty or below 1"),
    Code("E203", "no-play", r"has no 'play", "no `play { ... }` block"),
    Code("E204", "no-game-line", r"^a rule file begins with 'game", "the base file does not begin with `game \"TITLE\"`"),
    Code("E205", "duplicate", r"is declared twice|^invariant .* twice", "a name or a block declared twice in one file"),
    Code("E206", "reserved-name", r"cannot be redeclared|^'\w+' is already a member of enum", "a declaration takes a built-in's, an enum member's or a block's name"),
    Code("E207", "param-cycle", r"depends on itself|is used before it is declared|which is not computed yet",
         "params that depend on each other in a circle"),
    Code("E210", "bot-settings", r"^unknown bot '|^bad bot setting", "a `bot` declaration naming a bot that does not exist, or a setting it does not take"),
    Code("E211", "reserved-word", r"is a reserved word of the language", "a name that is a keyword of the language (`fn at`, `let to`)"),
    Code("E209", "not-before-start", r"is not known before the game starts", "a param or initial value reads the game's state"),
    # -- names
    Code("E301", "unknown-name", r"^unknown name", "a name that is not declared"),
    Code("E302", "unknown-function", r"^unknown function", "a call of a function that does not exist"),
    Code("E303", "unknown-procedure", r"^unknown procedure", "a call statement of a procedure that does not exist"),
    Code("E304", "unknown-attribute", r"^unknown attribute '|has no attribute|^unknown field '|has no field '", "an attribute the component kind (or a cell, a record or a placement) does not have, read in a rule"),
    Code("E305", "unknown-type", r"^unknown type|^unknown record", "a type or record name that is not int, bool, str, player, cell, placement, an enum or a kind"),
    Code("E306", "unknown-kind", r"^unknown component kind|^components\(KIND\)|' is a component kind$|^'per \w+': expected", "a component kind that the data does not define"),
    Code("E307", "not-called", r"must be called$|is a procedure: call it|its value would be unused", "a function or procedure used the wrong way round"),
    Code("E308", "shadowing", r"is already defined here|would hide a declaration", "a local name that hides another"),
    # -- types
    Code("E401", "type-mismatch", r"should be .*, not |should return .*, but|^cannot assign (?!to )", "a value of the wrong type"),
    Code("E402", "bad-argument", r"^\w+\([^)]*\): ", "a built-in function given an argument of the wrong type"),
    Code("E403", "arity", r"takes .*arguments?, got \d+", "a call with too few or too many arguments"),
    Code("E404", "operator-type", r"needs a number|needs numbers|compares numbers|^cannot add|needs a list on the right", "an operator applied to values it does not take"),
    Code("E405", "always-same", r"is never in a|^comparing .* is always", "a comparison whose answer the types already decide"),
    Code("E406", "not-indexable", r"cannot be indexed|cannot be sliced|not indexable|^an index must be", "indexing what is not a list, or with a wrong index"),
    Code("E407", "not-a-list", r"is a zone, not a list|^expected a list, got", "iterating over what is not a list"),
    Code("E408", "case-type", r"^case .* cannot be", "a case arm whose key cannot equal the subject"),
    Code("E409", "record-fields", r"is missing the field|^field '\w+' of \w+ is given twice", "a record built without one of its fields, or with one twice"),
    # -- statements
    Code("E501", "choice-in-setup", r"setup runs without choices", "`choose` inside `setup`"),
    Code("E502", "outside-loop", r"outside a loop", "`break` or `continue` outside a loop"),
    Code("E503", "bad-assignment", r"^cannot assign to ", "assigning to something that is not a var or a local"),
    Code("E504", "bad-move", r"only components move|^a move goes to a zone|holds \w+, not ", "a move of something that is not a component, or to a zone that cannot hold it"),
    Code("E505", "move-position", r"a move to a grid needs a cell|'at' is only for grids|'bottom of' is for|^'turned' lays one", "`at`, `turned` and `bottom of` on the wrong kind of zone or move"),
    Code("E506", "bad-shuffle", r"^shuffle needs", "shuffling what is not a stack or pile"),
    Code("E507", "ending-name", r"^the name of an ending or a fallback", "`finish \"NAME\"` or `fallback` with an empty name or a placeholder"),
    # -- zones
    Code("E601", "unknown-zone-kind", r"^unknown zone kind", "a zone kind other than stack, pile or grid"),
    Code("E602", "zone-holds", r"must say which components it holds", "a zone that does not say which kind it holds, with several kinds"),
    Code("E603", "unknown-zone-option", r"^unknown option", "a zone option the zone kind does not have"),
    Code("E604", "zone-option-value", r"^option '\w+' takes|is not an int param", "a zone option with the wrong values"),
    Code("E605", "zone-options-conflict", r"has one visibility|either a fixed 'size'|blocked cells need", "zone options that exclude each other"),
    Code("E606", "bad-adjacency", r"^unknown adjacency|^(reachable|linked_groups) needs", "an adjacency or side list a grid function does not know"),
    # -- data files
    Code("E701", "data-missing", r"^data file '.*' not found", "a `data` line naming a file that does not exist"),
    Code("E702", "data-yaml", r"^invalid YAML|nests more than|aliases repeat|alias is used inside|^the data file is|^cannot read data file|half of a UTF-16 surrogate", "a data file that is not readable YAML"),
    Code("E703", "data-shape", r"needs 'provenance'|^'provenance'|of 'parts' needs the key|^unknown key|^the key .* is (not a name|given twice)", "a data file whose keys or values do not fit its schema (a key unknown or missing, a value of the wrong kind or out of range)"),
    Code("E705", "data-attribute", r"unknown attribute type|unknown attribute '|\.details|\.glyph|\.label", "an attribute declaration, default, details or glyph naming what does not exist, or an item giving an attribute its kind does not declare"),
    Code("E704", "data-value", r"^\w+\.\w+( \(default\))?: |has no value for", "a component attribute with a value of the wrong type"),
    Code("E706", "data-too-many", r"^too many components", "more components than a data file may hold"),
    Code("E707", "data-conflict", r"component kind '\w+' is defined twice|declared with other members", "two data files defining one kind or enum differently"),
    Code("E709", "bad-shape", r"^a shape |^a cell of a shape|in the shape$|the shape's origin|^a cell with its own data|cell attribute|cell_attributes|of a \w+ shape", "a component's shape that is empty, repeats a cell or is not cells or a picture, or whose cells' own data (`cell_attributes`) is missing, unknown or of the wrong type"),
    # -- variants
    Code("E708", "data-outside-folder", r"^data file .*(outside the game folder|absolute path|too long|cannot be opened)", "a `data` path that leaves the folder of its rule file"),
    Code("E805", "variant-base-outside-folder", r"^the base game .*(outside the game folder|absolute path|too long|cannot be opened)", "an `extends` path that leaves the variant's folder"),
    Code("E801", "variant-base-missing", r"^the base game '.*' does not exist", "a variant extending a file that does not exist"),
    Code("E802", "variant-structure", r"^a variant file|'variant' must be the first", "a variant file that is not `variant ... extends ...` first"),
    Code("E803", "variant-replaces-other", r"of the base game; a variant replaces it only", "a variant replacing a declaration with one of another sort"),
    Code("E804", "variant-wrong-base", r"^this variant extends", "a variant given for another base game"),
    # -- warnings
    Code("W901", "unused-param", r"^param '\w+' is never used", "a param no rule reads"),
    Code("W902", "unused-zone", r"^zone '\w+' is never used", "a zone no rule names"),
    Code("W903", "unused-var", r"^var '\w+' is never (used|read)", "a var no rule reads"),
    Code("W904", "unused-fn", r"^(fn|proc) '\w+' is never (used|called)", "a fn or proc nothing calls"),
    Code("W905", "unused-kind", r"^component kind '\w+' is never used", "a component kind no rule names"),
    Code("W906", "unreachable", r"can never run", "a statement after `break`, `continue`, `return`, `finish` or `fail`, or under a condition that is always false"),
    Code("W907", "empty-variant", r"^this variant changes nothing", "a variant that overrides or adds nothing"),
    Code("W908", "zero-score-line", r"^this score line is always 0", "a score line that can never be non-zero"),
]

# First match wins: the list is in the order to try (E705 before E704 on purpose).
_COMPILED = [(c, re.compile(c.pattern)) for c in CODES]
BY_CODE = {c.code: c for c in CODES}


def code_of(message: str) -> str:
    """The code of a diagnostic message ('' if no kind matches: a bug to report)."""
    for code, pattern in _COMPILED:
        if pattern.search(message):
            return code.code
    return ""
