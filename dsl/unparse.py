"""Expressions and types of the AST written back as rule-file source (for `explain` and `info`)."""
from __future__ import annotations

from . import ast

# Binding strength, loosest first (as in dsl/grammar.lark).
_LEVEL = {"if": 0, "or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
          "in": 4, "not in": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6, "unary": 7, "postfix": 8}


def type_text(t) -> str:
    if isinstance(t, ast.ListTypeRef):
        return f"list of {type_text(t.element)}"
    return t.name if t is not None else ""


def _level(e) -> int:
    if isinstance(e, ast.Conditional):
        return 0
    if isinstance(e, ast.Binary):
        return _LEVEL[e.op]
    if isinstance(e, ast.Unary):
        return _LEVEL["not"] if e.op == "not" else _LEVEL["unary"]
    return _LEVEL["postfix"]


def _wrap(e, minimum: int) -> str:
    text = expr_text(e)
    return f"({text})" if _level(e) < minimum else text


def _text_literal(e: ast.Text) -> str:
    out = ""
    for part in e.parts:
        if isinstance(part, str):
            out += part.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        else:
            out += "{" + expr_text(part) + "}"
    return f'"{out}"'


def expr_text(e) -> str:
    if isinstance(e, ast.Literal):
        return {True: "true", False: "false", None: "none"}.get(e.value, str(e.value)) \
            if e.value is None or isinstance(e.value, bool) else str(e.value)
    if isinstance(e, ast.Text):
        return _text_literal(e)
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        return f"{_wrap(e.obj, _LEVEL['postfix'])}.{e.name}"
    if isinstance(e, ast.Index):
        return f"{_wrap(e.obj, _LEVEL['postfix'])}[{expr_text(e.index)}]"
    if isinstance(e, ast.LetIn):
        annotation = f": {type_text(e.type)}" if e.type is not None else ""
        return f"let {e.name}{annotation} = {expr_text(e.value)} {expr_text(e.body)}"
    if isinstance(e, ast.Slice):
        return (f"{_wrap(e.obj, _LEVEL['postfix'])}[{expr_text(e.start) if e.start else ''}:"
                f"{expr_text(e.stop) if e.stop else ''}]")
    if isinstance(e, ast.Call):
        if len(e.args) == 1 and isinstance(e.args[0], ast.ListComp) and e.args[0].span == e.span:
            return f"{e.func}({_comp_body(e.args[0])})"
        return f"{e.func}({', '.join(expr_text(a) for a in e.args)})"
    if isinstance(e, ast.Unary):
        if e.op == "not":
            return f"not {_wrap(e.operand, _LEVEL['not'])}"
        return f"{e.op}{_wrap(e.operand, _LEVEL['unary'])}"
    if isinstance(e, ast.Binary):
        level = _LEVEL[e.op]
        if level == _LEVEL["=="]:       # comparisons do not chain: both sides are sums
            return f"{_wrap(e.left, level + 1)} {e.op} {_wrap(e.right, level + 1)}"
        # Left-associative: the right side needs brackets at the same level.
        return f"{_wrap(e.left, level)} {e.op} {_wrap(e.right, level + 1)}"
    if isinstance(e, ast.Conditional):
        return f"if {_wrap(e.test, 1)} then {_wrap(e.then, 1)} else {expr_text(e.orelse)}"
    if isinstance(e, ast.CellLit):
        return f"({expr_text(e.x)}, {expr_text(e.y)})"
    if isinstance(e, ast.ListLit):
        return "[" + ", ".join(expr_text(i) for i in e.items) + "]"
    if isinstance(e, ast.RecordLit):
        return f"{e.record}(" + ", ".join(f"{f.name}: {expr_text(f.value)}" for f in e.fields) + ")"
    if isinstance(e, ast.ListComp):
        return f"[{_comp_body(e)}]"
    if isinstance(e, ast.Case):
        arms = " ".join(f"{expr_text(k)}: {expr_text(v)}" for k, v in e.arms)
        if e.default is not None:
            arms += f" else: {expr_text(e.default)}"
        return f"case {expr_text(e.subject)} {{ {arms} }}"
    return "?"


def _comp_body(e: ast.ListComp) -> str:
    text = expr_text(e.element)
    for clause in e.all_clauses():
        if clause[0] == "for":
            text += f" for {clause[1]} in {_wrap(clause[2], 1)}"
        else:
            text += f" if {_wrap(clause[1], 1)}"
    return text
