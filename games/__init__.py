"""Bundled games: each folder holds a rule file, its variants, data and scenarios."""
