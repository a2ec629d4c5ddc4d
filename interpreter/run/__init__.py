"""Running a compiled game: the state, the engine that runs rules to the next decision, the
built-in functions, the grid indexes, the random generator and the limits on work and size."""
