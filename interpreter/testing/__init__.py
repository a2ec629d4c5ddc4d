"""Testing rules: scenario files and bot puzzles, Hypothesis fuzzing of invariants, rule
coverage, and the pytest plugin that runs scenarios as tests."""
