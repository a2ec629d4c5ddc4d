"""Warnings: what is legal but suspicious in a game that checks without errors.

A param, zone, var, fn, proc or component kind that no rule uses; a statement that can never
run; a variant that changes nothing; a score line that is always 0. Warnings never stop a
game from loading; `validate --strict` refuses them. Their codes are the W codes of
dsl/codes.py.
"""
from __future__ import annotations

import re

from . import ast
from .ast_walk import walk
from .errors import SOURCES, Diagnostic, Span, did_you_mean
from .spec import GameSpec

_STOPS = (ast.Break, ast.Continue, ast.Return, ast.Finish, ast.Fail)


def _decl_roots(spec: GameSpec) -> list:
    roots = [*spec.params.values(), *spec.zones.values(), *spec.vars.values(), *spec.fns.values(),
             *spec.procs.values(), *spec.invariants.values(), *spec.labels.values(), *spec.opponents.values()]
    roots += [d for d in (spec.setup, spec.play, spec.score, spec.tiebreak, spec.winners, spec.heuristic,
                          spec.brief) if d]
    return roots


def _used_names(spec: GameSpec) -> dict[str, set]:
    """Names each declaration uses (its own name excluded), by declaration name ('' for blocks)."""
    used: dict[str, set] = {}
    for root in _decl_roots(spec):
        names = names_in(root)
        key = getattr(root, "name", "")
        if isinstance(root, (ast.FnDecl, ast.ProcDecl)):
            names.discard(key)          # a recursive call is no use
        used.setdefault(key, set()).update(names)
    return used


def names_in(root) -> set:
    """Every name a tree refers to: names, calls, types, kinds of zones and vars."""
    names = set()
    for node in walk(root):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Call):
            names.add(node.func)
        elif isinstance(node, (ast.CallStmt, ast.Assign)):
            names.add(node.name)
        elif isinstance(node, (ast.TypeRef,)):
            names.add(node.name)
        elif isinstance(node, ast.ZoneDecl) and node.holds:
            names.add(node.holds)
        elif isinstance(node, ast.ZoneOption):
            names.update(v for v in node.values if isinstance(v, str))     # `size side x side`
        elif isinstance(node, ast.VarDecl) and node.per:
            names.add(node.per)
        elif isinstance(node, ast.LabelDecl):
            names.add(node.kind)
    return names


def _name_span(decl, name: str) -> Span:
    """The span of `name` on the first line of a declaration (the whole start if not found)."""
    span = decl.span
    lines = SOURCES.get(span.file, "").splitlines()
    if 0 < span.line <= len(lines):
        match = re.compile(rf"\b{re.escape(name)}\b").search(lines[span.line - 1], span.column - 1)
        if match:
            return Span(span.file, span.line, match.start() + 1, span.line, match.end() + 1)
    return Span(span.file, span.line, span.column, span.line, span.column + 1)


def lint(spec: GameSpec, variant_module: ast.Module | None = None, base_module: ast.Module | None = None,
         used_by_variants: set = frozenset()) -> list:
    """The warnings of a checked game, in file order. With a variant, only the variant file's.
    `used_by_variants`: names the base's variants use (a base declaration kept for them is used)."""
    warnings: list[Diagnostic] = []
    used = _used_names(spec)
    used["<variants>"] = set(used_by_variants)
    everything = set().union(*used.values()) if used else set()

    def used_elsewhere(name: str) -> bool:
        return any(name in names for key, names in used.items() if key != name)

    replaced = base_module if variant_module is not None else None     # what a variant's names may replace

    def unused(decl, name: str, word: str, verb: str, node, otherwise: str) -> Diagnostic:
        return Diagnostic(_name_span(decl, name), f"{word} '{name}' is never {verb}",
                          _misspelt_base_name(replaced, node, word, name) or otherwise, "warning")

    for table, word, node in ((spec.params, "param", ast.ParamDecl), (spec.zones, "zone", ast.ZoneDecl),
                              (spec.vars, "var", ast.VarDecl)):
        for name, decl in table.items():
            if not used_elsewhere(name):
                warnings.append(unused(decl, name, word, "used", node, "remove it, or use it in a rule"))
    for table, word, verb, node in ((spec.fns, "fn", "used", ast.FnDecl), (spec.procs, "proc", "called", ast.ProcDecl)):
        for name, decl in table.items():
            if not used_elsewhere(name) and not (word == "fn" and name in spec.kinds):
                warnings.append(unused(decl, name, word, verb, node, "remove it, or call it from a rule"))
    for kind in spec.kinds.values():
        if kind.name not in everything:
            data_decl = _data_line(base_module, variant_module)
            if data_decl is not None:
                warnings.append(Diagnostic(_name_span(data_decl, "data"), f"component kind '{kind.name}' is never used",
                                           f"no zone, var, type or rule names {kind.name}", "warning"))
    for root in _decl_roots(spec):
        warnings.extend(_unreachable(root))
    for decl in (spec.score, spec.tiebreak):
        if decl is not None:
            for line in decl.lines:
                if constant(line.value) == 0:
                    warnings.append(Diagnostic(line.span, f"this score line is always 0: \"{line.title}\"",
                                               "it never changes a score; remove it or fix its value", "warning"))
    if variant_module is not None and base_module is not None:
        warnings.extend(_empty_variant(variant_module, base_module))
        warnings = [w for w in warnings if w.span.file == variant_module.span.file]
    return sorted(warnings, key=lambda d: (d.span.file, d.span.line, d.span.column))


def _misspelt_base_name(base_module, node, word: str, name: str) -> str:
    """A variant's unused declaration that is near one of the base's: most likely meant to
    replace it (`param sid = 6` for `side`, `fn pric` for `price`)."""
    if base_module is None:
        return ""
    names = [item.name for item in base_module.items if isinstance(item, node)]
    if name in names:
        return ""
    close = did_you_mean(name, names)
    return f"the base game has no {word} '{name}' to replace; {close}" if close else ""


def _data_line(*modules):
    for module in modules:
        if module is not None:
            for item in module.items:
                if isinstance(item, ast.DataDecl):
                    return item
    return None


def _blocks(node):
    """The statement blocks directly inside a statement or a declaration."""
    if isinstance(node, ast.If):
        yield from (body for _, body in node.branches)
        if node.orelse is not None:
            yield node.orelse
    elif isinstance(node, (ast.For, ast.While, ast.Turn, ast.ProcDecl, ast.SetupDecl, ast.PlayDecl)):
        yield node.body


def _unreachable(root) -> list:
    found = []
    todo = [root]
    while todo:
        node = todo.pop()
        for body in _blocks(node):
            for i, stmt in enumerate(body):
                if isinstance(stmt, _STOPS) and i + 1 < len(body):
                    word = type(stmt).__name__.lower()
                    found.append(Diagnostic(body[i + 1].span, f"this statement can never run: it follows '{word}'",
                                            f"remove it, or move the '{word}'", "warning"))
                    break
            todo.extend(body)
        if isinstance(node, ast.If):
            for cond, body in node.branches:
                if constant(cond) is False and body:
                    found.append(Diagnostic(body[0].span, "this statement can never run: its condition is always false",
                                            "", "warning"))
        elif isinstance(node, (ast.While, ast.For)) and node.body and (
                constant(node.condition) is False if isinstance(node, ast.While) else
                (node.condition is not None and constant(node.condition) is False)):
            found.append(Diagnostic(node.body[0].span, "this statement can never run: its condition is always false",
                                    "", "warning"))
    return found


def constant(e):
    """The value of an expression made of literals alone, or None when it depends on the game."""
    if isinstance(e, ast.Literal):
        return e.value
    if isinstance(e, ast.Unary):
        v = constant(e.operand)
        if e.op == "not" and isinstance(v, bool):
            return not v
        if e.op in "+-" and isinstance(v, int) and not isinstance(v, bool):
            return -v if e.op == "-" else v
        return None
    if isinstance(e, ast.Binary):
        left, right = constant(e.left), constant(e.right)
        if e.op == "*" and (left == 0 and left is not False or right == 0 and right is not False):
            return 0                # zero times anything
        if e.op == "and" and (left is False or right is False):
            return False
        if e.op == "or" and (left is True or right is True):
            return True
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (left, right)):
            return None
        ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
               "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
               "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
        return ops[e.op](left, right) if e.op in ops else None
    if isinstance(e, ast.Conditional):
        test = constant(e.test)
        if isinstance(test, bool):
            return constant(e.then if test else e.orelse)
        then, orelse = constant(e.then), constant(e.orelse)
        return then if then is not None and then == orelse and type(then) is type(orelse) else None
    return None


def _empty_variant(variant: ast.Module, base: ast.Module) -> list:
    from .formatter import strip_spans
    decl = next((i for i in variant.items if isinstance(i, ast.VariantDecl)), None)
    if decl is None:
        return []
    base_items = {strip_spans(i) for i in base.items}
    changes = [i for i in variant.items if not isinstance(i, ast.VariantDecl) and strip_spans(i) not in base_items]
    if changes:
        return []
    return [Diagnostic(decl.span, "this variant changes nothing: it declares nothing its base does not",
                       "add the params, zones, rules... it changes", "warning")]
