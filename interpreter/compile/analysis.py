"""Analyses of a checked spec made once when a game is compiled: which fns are worth memoising
and which variables they read, which procedures never wait for a choice, which fns call
themselves or draw random numbers; and walking and comparing rule trees.
"""
from __future__ import annotations

from ...dsl import ast


def worth_memoising(decl, spec) -> bool:
    """A fn is memoised when its body loops (a comprehension, or a built-in that searches:
    `placements_of`) and its arguments can be dict keys (no lists); fns that draw random numbers
    (`shuffled`) are never memoised."""
    loops = hashable = True
    found_loop = False
    for node in walk(decl.body):
        if isinstance(node, ast.ListComp) or (isinstance(node, ast.Call) and node.func == "placements_of"
                                              and node.func not in spec.fns):
            found_loop = True
        if isinstance(node, ast.Call) and node.func == "shuffled":
            loops = False
    for p in decl.params:
        if isinstance(p.type, ast.ListTypeRef):
            hashable = False
    return loops and hashable and found_loop and not calls_random(decl.name, spec, set())


def readers(spec, memoised: set) -> dict:
    """Variable (or param) name -> the memoised fns whose value may depend on it."""
    reads: dict = {}
    for name, decl in spec.fns.items():
        reads[name] = ({n.id for n in walk(decl.body) if isinstance(n, ast.Name)},
                       {n.func for n in walk(decl.body) if isinstance(n, ast.Call) and n.func in spec.fns})
    out: dict = {}
    for fn in memoised:
        seen, todo, names = {fn}, [fn], set()
        while todo:
            names_read, calls = reads[todo.pop()]
            names |= names_read
            for c in calls - seen:
                seen.add(c)
                todo.append(c)
        for n in names:
            if n in spec.vars or n in spec.params:
                out.setdefault(n, set()).add(fn)
    return out


def reads_turn(spec, memoised: set) -> bool:
    """Whether a memoised fn may see what beginning a turn changes: the current player
    (`current`) or the turns played (`turns_played`), directly or through the fns it calls."""
    seen, todo = set(memoised), list(memoised)
    while todo:
        for node in walk(spec.fns[todo.pop()].body):
            if (isinstance(node, ast.Name) and node.id == "current") or (
                    isinstance(node, ast.Call) and node.func == "turns_played"):
                return True
            if isinstance(node, ast.Call) and node.func in spec.fns and node.func not in seen:
                seen.add(node.func)
                todo.append(node.func)
    return False


def choice_free(spec) -> set:
    """The procedures that never wait for a choice: no `choose` in them or in any procedure
    they call, and none of them calls itself (directly or through others)."""
    calls, chooses = {}, set()
    for name, decl in spec.procs.items():
        nodes = list(walk(decl.body))
        calls[name] = {n.name for n in nodes if isinstance(n, ast.CallStmt)}
        if any(isinstance(n, ast.Choose) for n in nodes):
            chooses.add(name)
    free = set()
    for name in calls:
        reached, todo, cyclic = set(), [name], False
        while todo:
            for callee in calls.get(todo.pop(), ()):
                if callee == name:
                    cyclic = True
                if callee not in reached:
                    reached.add(callee)
                    todo.append(callee)
        if not cyclic and name not in chooses and not reached & chooses and reached <= set(calls):
            free.add(name)
    return free


def recursive(name: str, spec) -> bool:
    """Whether a fn can call itself (directly or through others)."""
    todo, seen = [name], set()
    while todo:
        current = todo.pop()
        for node in walk(spec.fns[current].body):
            if isinstance(node, ast.Call) and node.func in spec.fns:
                if node.func == name:
                    return True
                if node.func not in seen:
                    seen.add(node.func)
                    todo.append(node.func)
    return False


def calls_random(name: str, spec, seen: set) -> bool:
    if name in seen or name not in spec.fns:
        return False
    seen.add(name)
    for node in walk(spec.fns[name].body):
        if isinstance(node, ast.Call) and (node.func == "shuffled" or calls_random(node.func, spec, seen)):
            return True
    return False


def draws_random(expr, spec) -> bool:
    """Whether evaluating `expr` may draw random numbers (`shuffled`, directly or in a fn)."""
    return any(isinstance(node, ast.Call) and (node.func == "shuffled" or calls_random(node.func, spec, set()))
               for node in walk(expr))


def shape(node):
    """A node without its spans: two writings of the same expression compare equal."""
    if isinstance(node, (list, tuple)):
        return tuple(shape(item) for item in node)
    if isinstance(node, ast.Node):
        return (type(node).__name__,) + tuple(shape(v) for k, v in vars(node).items() if k != "span")
    return node


def walk(node):
    yield node
    if isinstance(node, (list, tuple)):
        for item in node:
            yield from walk(item)
    elif isinstance(node, ast.Node):
        for value in vars(node).values():
            if isinstance(value, (ast.Node, list, tuple)):
                yield from walk(value)



# Built-ins too cheap to be worth keeping when their arguments are names or literals.
_CHEAP_CALLS = {"len", "abs", "next", "previous", "components", "empty", "size", "top", "index_of",
                "occurrences"}


def invariants(var: str, parts, spec) -> list:
    """In a comprehension over `var`, its element and filter (`parts`): the largest calls and
    inner comprehensions that do not read `var` and draw no random numbers. Such a part has
    the same value for every element (nothing changes while an expression is worked out),
    so the compiled comprehension works it out where it is first needed and keeps it (the
    frontier of `c not in sides(p)` once per list, not once per cell). Parts inside an inner
    comprehension or a `let` are not looked at (they may read the names those bind)."""
    found: list = []

    def visit(node) -> None:
        if isinstance(node, (ast.Call, ast.ListComp)) and not _reads(node, var) and not draws_random(node, spec):
            cheap = (isinstance(node, ast.Call) and node.func in _CHEAP_CALLS and node.func not in spec.fns
                     and all(isinstance(a, (ast.Name, ast.Literal)) for a in node.args))
            if not cheap:
                found.append(node)
                return
        if isinstance(node, (ast.ListComp, ast.LetIn)):
            return
        for child in _children(node):
            visit(child)

    for part in parts:
        if part is not None:
            visit(part)
    return found


def repeated_parts(body, spec) -> list:
    """In a fn's body, the calls written more than once alike (by `shape`) that draw no
    random numbers, as lists of their nodes: each has one value while the body is worked
    out (nothing changes meanwhile), so the compiled fn works it out where first needed and
    keeps it (`top_at(city[p], c)` once, not once per attribute read of it). Calls inside a
    comprehension or a `let` are not looked at (they may read the names those bind), nor a
    `case`'s arms (compiled in a scope of their own), nor the right side of `in` (the
    compiler may ask a set made from it there), nor cheap calls."""
    alike: dict = {}
    shunned: set = set()

    def visit(node) -> None:
        if isinstance(node, (ast.ListComp, ast.LetIn)):
            return
        if isinstance(node, ast.Case):      # its arms are compiled inside a lambda: a scope of their own
            visit(node.subject)
            return
        if isinstance(node, ast.Binary) and node.op in ("in", "not in"):
            shunned.add(repr(shape(node.right)))
        if (isinstance(node, ast.Call) and not draws_random(node, spec)
                and not (node.func in _CHEAP_CALLS and node.func not in spec.fns
                         and all(isinstance(a, (ast.Name, ast.Literal)) for a in node.args))):
            alike.setdefault(repr(shape(node)), []).append(node)
        for child in _children(node):
            visit(child)

    visit(body)
    return [nodes for key, nodes in alike.items() if len(nodes) > 1 and key not in shunned]


def _reads(node, var: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == var for n in walk(node))


def _children(node):
    """The nodes right below `node` (through tuples: a `case`'s arms are pairs)."""
    stack = [v for k, v in vars(node).items() if k != "span"]
    while stack:
        value = stack.pop(0)
        if isinstance(value, ast.Node):
            yield value
        elif isinstance(value, tuple):
            stack[:0] = list(value)
