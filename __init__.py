"""Boardwright: a rules-as-data engine for tabletop games."""
