"""Every bundled game, in each of its variants and at each player count it allows, has at
least one scenario (docs/testing.md lists them). A new variant or a wider player range
without a scenario for it fails here."""
from __future__ import annotations

import yaml

from conftest import all_game_variants, cached_game, scenario_paths


def covered() -> set:
    cells = set()
    for path in scenario_paths():
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        game = cached_game(data["game"], data.get("variant"))
        cells.add((data["game"], data.get("variant"), data.get("players", game.min_players)))
    return cells


def test_every_game_variant_and_player_count_has_a_scenario():
    wanted = {(name, variant, players) for name, variant in all_game_variants()
              for players in range(cached_game(name, variant).min_players, cached_game(name, variant).max_players + 1)}
    assert len(wanted) == 28        # Punto 3 + 1, Happy City 4 + 4, Point City 3 + 4 solo, Urban Panic 3 x 3
    missing = sorted(wanted - covered(), key=str)
    assert not missing, f"no scenario for (game, variant, players): {missing}"
