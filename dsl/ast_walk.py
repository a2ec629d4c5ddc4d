"""A walk over every node of an AST (dsl.ast), iterative so that a deep tree cannot exhaust the stack."""
from __future__ import annotations

from dataclasses import fields

from . import ast


def walk(root):
    """Every AST node under root, iteratively."""
    stack = [root]
    while stack:
        obj = stack.pop()
        if isinstance(obj, ast.Node):
            yield obj
            stack.extend(getattr(obj, f.name) for f in fields(obj) if f.name != "span")
        elif isinstance(obj, tuple):
            stack.extend(obj)
