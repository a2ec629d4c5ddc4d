"""Playtest statistics: seeded bot games (serial, worker processes or Dask), their report and
comparison, the bot ladder, decision quality against a gold search, and the benchmark."""
