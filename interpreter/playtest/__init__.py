"""Playtest statistics: seeded bot games (serial, worker processes or Dask), their report and
comparison, sweeps of params and the tuning of params for goals, the bot ladder, decision
quality against a gold search, and the benchmark."""
