"""The interpreter: state, compiled rules, decisions, bots and simulation."""
