"""Compiling a checked rule file into Python source and a runnable `Game`; `load.load_game` is
the public entry point from a rule file to a game."""
