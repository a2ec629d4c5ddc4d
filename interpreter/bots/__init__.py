"""The bots: random, greedy and information-set MCTS, with what they share (determinizing hidden
zones, the values of positions)."""
