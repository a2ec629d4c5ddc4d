"""The checker's declarations: the types they give (types, zones, vars, params, fns) and the
names of the game that a body may use.

A mixin of `Checker` (dsl/checker.py): it uses the checker's `spec`, `error`, `expr` and `expect`.
"""
from __future__ import annotations

from . import ast
from .ast_walk import walk
from .build_ast import MAX_LITERAL_DIGITS
from .check_scope import GLOBALS, Scope
from .errors import did_you_mean, listing
from .types import ANY, INT, PLACEMENT, PLAYER, SCALARS, compatible, list_of

ZONE_KINDS = ("stack", "pile", "grid")
VISIBILITIES = ("public", "hidden", "owner", "top")
ZONE_OPTIONS = {"stack": VISIBILITIES, "pile": VISIBILITIES,
                "grid": VISIBILITIES + ("stacked", "extent", "size", "blocked")}


class DeclarationChecks:
    """Types declarations and resolves the game's names (params, vars, zones, members, globals)."""

    def type_ref(self, ref) -> str:
        if isinstance(ref, ast.ListTypeRef):
            return list_of(self.type_ref(ref.element))
        known = list(SCALARS) + [PLACEMENT] + list(self.spec.enums) + list(self.spec.kinds) + list(self.spec.records)
        if ref.name in known and ref.name not in ("none", "any"):
            return ref.name
        if id(ref) in self.unknown_type_refs:       # a var's type is read at each use: said once
            return ANY
        self.unknown_type_refs.add(id(ref))
        return self.error(ref.span, f"unknown type '{ref.name}'",
                          did_you_mean(ref.name, [k for k in known if k not in ("none", "any")]) or
                          "types: int, bool, str, player, cell, an enum, a component kind, a record, or 'list of' a type")

    def record(self, decl: ast.RecordDecl) -> None:
        """A record's name is a type of its own; its fields have distinct names and known types."""
        spec = self.spec
        taken = ("a component kind" if decl.name in spec.kinds else "an enum" if decl.name in spec.enums
                 else "a built-in type" if decl.name in SCALARS else "")
        if taken:
            self.error(decl.span, f"'{decl.name}' is {taken} and cannot be redeclared as a record",
                       "choose another name")
        seen = set()
        for f in decl.fields:
            if f.name in seen:
                self.error(f.span, f"field '{f.name}' of record {decl.name} is declared twice")
            seen.add(f.name)
        self.record_fields(decl.name)

    def record_fields(self, name: str) -> dict:
        """Field name -> type of a record, in declaration order (the first of a name declared
        twice); worked out once, so a field of an unknown type is reported once."""
        cache = self.record_field_types
        if name not in cache:
            fields: dict = {}
            for f in self.spec.records[name].fields:
                t = self.type_ref(f.type)
                fields.setdefault(f.name, t)
            cache[name] = fields
        return cache[name]

    def zone_type(self, decl: ast.ZoneDecl) -> str:
        holds = decl.holds or (next(iter(self.spec.kinds)) if len(self.spec.kinds) == 1 else ANY)
        base = "grid" if decl.kind == "grid" else "zone"
        t = f"{base} of {holds}"
        return list_of(t) if any(o.name == "per player" for o in decl.options) else t

    def zone(self, decl: ast.ZoneDecl) -> None:
        if decl.kind not in ZONE_KINDS:
            self.error(decl.kind_span, f"unknown zone kind '{decl.kind}'",
                       did_you_mean(decl.kind, ZONE_KINDS) or "zone kinds: stack, pile, grid")
            return
        if decl.holds is not None and decl.holds not in self.spec.kinds:
            self.error(decl.span, f"unknown component kind '{decl.holds}'",
                       did_you_mean(decl.holds, self.spec.kinds))
        elif decl.holds is None and len(self.spec.kinds) > 1:
            self.error(decl.span, f"zone '{decl.name}' must say which components it holds",
                       f"write 'zone {decl.name}: {decl.kind} of KIND' with one of {listing(self.spec.kinds)}")
        allowed = ZONE_OPTIONS[decl.kind]
        shapes = {"extent": 2, "size": 2, "blocked": 2}
        visibility = [o for o in decl.options if o.name in VISIBILITIES]
        if len(visibility) > 1:
            self.error(visibility[1].span, "a zone has one visibility")
        for option in decl.options:
            if option.name == "per player":
                continue
            if option.name not in allowed:
                self.error(option.span, f"unknown option '{option.name}' for a {decl.kind}",
                           did_you_mean(option.name, allowed) or f"options: {', '.join(allowed)}, per player")
            elif len(option.values) != shapes.get(option.name, 0):
                want = {"extent": "'extent W x H'", "size": "'size W x H'", "blocked": "'blocked (X, Y)'"}
                self.error(option.span, f"option '{option.name}' takes "
                           + (want.get(option.name) or "no value"))
            for value in dict.fromkeys(option.values):
                if isinstance(value, str) and value.lstrip("-").isdigit():      # too long to read (build_ast)
                    self.error(option.span, f"a number of {len(value.lstrip('-')):,} digits: "
                               f"at most {MAX_LITERAL_DIGITS} (docs/security.md)")
                elif isinstance(value, str) and self.param_types.get(value) not in (INT, ANY):
                    known = value in self.param_types
                    self.error(option.span, f"'{value}' in option '{option.name}' is not an int param",
                               (not known and did_you_mean(value, self.spec.params)) or
                               (f"'{value}' is a {self.param_types[value]} param; " if known else "")
                               + "a zone's shape takes whole numbers or int params")
        names = {o.name for o in decl.options}
        if "extent" in names and "size" in names:
            self.error(decl.span, "a grid has either a fixed 'size' or a floating 'extent', not both")
        if "blocked" in names and "size" not in names:
            self.error(decl.span, "blocked cells need a grid of fixed 'size'")

    def var(self, decl: ast.VarDecl) -> None:
        t = self.type_ref(decl.type)
        if decl.per is not None and decl.per != "player" and decl.per not in self.spec.kinds:
            self.error(decl.span, f"'per {decl.per}': expected 'per player' or 'per' a component kind",
                       did_you_mean(decl.per, ["player"] + list(self.spec.kinds)))
        if decl.init is not None:
            scope = Scope({"p": PLAYER} if decl.per == "player" else {}, kind="param")
            self.expect(decl.init, t, scope, f"the initial value of '{decl.name}'")

    def params_scope(self, params) -> dict:
        names = {}
        for p in params:
            if p.name in names:
                self.error(p.span, f"parameter '{p.name}' is declared twice")
            names[p.name] = self.type_ref(p.type)
        return names

    def fn(self, decl: ast.FnDecl) -> None:
        result = self.fn_return(decl.name)
        if decl.returns is not None:
            declared = self.type_ref(decl.returns)
            body = self.types.get(id(decl.body), ANY)
            if not compatible(declared, body):
                self.error(decl.body.span, f"'{decl.name}' should return {declared}, but its body is {body}")
        return result

    def fn_return(self, name: str) -> str:
        if name in self.fn_returns:
            return self.fn_returns[name]
        decl = self.spec.fns[name]
        if name in self._inferring:
            return self.type_ref(decl.returns) if decl.returns else ANY
        self._inferring.add(name)
        body = self.expr(decl.body, Scope(self.params_scope(decl.params), kind="fn"))
        self._inferring.discard(name)
        result = self.type_ref(decl.returns) if decl.returns else body
        self.fn_returns[name] = result
        return result

    def params_used_by(self, fn_name: str) -> set:
        """The params a fn reads, directly or through the fns it calls."""
        used, seen, todo = set(), set(), [fn_name]
        while todo:
            decl = self.spec.fns.get(todo.pop())
            if decl is None or decl.name in seen:
                continue
            seen.add(decl.name)
            local = {p.name for p in decl.params}
            for node in walk(decl.body):
                if isinstance(node, ast.ListComp):
                    local.update(c[1] for c in node.all_clauses() if c[0] == "for")
                elif isinstance(node, ast.LetIn):
                    local.add(node.name)
                elif isinstance(node, ast.Name) and node.id in self.spec.params and node.id not in local:
                    used.add(node.id)
                elif isinstance(node, ast.Call):
                    todo.append(node.func)
        return used

    def global_type(self, name: str) -> str | None:
        spec = self.spec
        if name in self.param_types:
            return self.param_types[name]
        if name in spec.params:
            return ANY      # used before its declaration was typed
        if name in spec.vars:
            decl = spec.vars[name]
            t = self.type_ref(decl.type)
            return list_of(t) if decl.per is not None else t
        if name in spec.zones:
            return self.zone_type(spec.zones[name])
        if name in self.members:
            return self.members[name]
        if name in GLOBALS:
            return GLOBALS[name]
        return None

    def describe(self, name: str) -> str:
        spec = self.spec
        for table, what in ((spec.params, "param"), (spec.zones, "zone"), (spec.fns, "function"),
                            (spec.procs, "procedure"), (self.members, "enum member"), (GLOBALS, "built-in name")):
            if name in table:
                return f"{what} '{name}'"
        return ""
