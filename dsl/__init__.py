"""The rule language: grammar, AST, checker, data schemas and loader."""
