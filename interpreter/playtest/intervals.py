"""Every measure of a batch of simulated games as a value with its 95% interval: the
statistics that `sweep` tabulates and plots and that `tune` aims at.

A proportion (a seat's win rate, shared wins, a named ending's share) gets the Wilson
interval, a mean (length, lead changes, the rule file's `measure`s) Student's t interval:
both are report.py's.
"""
from __future__ import annotations

from .report import mean_interval, wilson


def proportion(successes: float, n: int) -> tuple[float, float, float]:
    """(share, low, high): a proportion with its 95% Wilson interval."""
    low, high = wilson(successes, n)
    return (successes / n if n else 0.0, low, high)


def _share(record: dict, seat: int) -> float:
    winners = record["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def measure_rows(records: list[dict], players: int, player_name=lambda p: f"Player {p + 1}") -> dict:
    """Every measure of the games: name -> (value, low, high), in a stable order. Names:
    'win rate Player 1'..., 'win rate BOT' per bot when the seats have different bots,
    'first player win rate', 'length' (turns), 'ties', 'lead changes', 'ending NAME' (share of
    games a named ending decided) and the rule file's measures by their titles."""
    n = len(records)
    rows: dict = {}
    for p in range(players):
        rows[f"win rate {player_name(p)}"] = proportion(sum(_share(r, p) for r in records), n)
    bots = list(dict.fromkeys(spec for r in records for spec in r["bots"]))
    if len(bots) > 1:
        for bot in bots:
            seats = [(r, p) for r in records for p, spec in enumerate(r["bots"]) if spec == bot]
            rows[f"win rate {bot}"] = proportion(sum(_share(r, p) for r, p in seats), len(seats))
    firsts = [r for r in records if r["first_player"] is not None]
    if firsts:
        rows["first player win rate"] = proportion(sum(_share(r, r["first_player"]) for r in firsts), len(firsts))
    rows["length"] = mean_interval(r["turns"] for r in records)
    rows["ties"] = proportion(sum(1 for r in records if len(r["winners"]) > 1), n)
    rows["lead changes"] = mean_interval(r["lead_changes"] for r in records)
    endings = list(dict.fromkeys(name for r in records for name in r.get("endings") or []))
    for name in endings:
        rows[f"ending {name}"] = proportion(sum(1 for r in records if name in (r.get("endings") or [])), n)
    titles = list(dict.fromkeys(t for r in records for t in (r.get("measures") or {})))
    for title in titles:
        rows[title] = mean_interval((r.get("measures") or {}).get(title, 0) for r in records)
    return rows


def rounded(row: tuple, digits: int = 4) -> dict:
    """A (value, low, high) row as JSON: {"value": v, "ci95": [low, high]}."""
    value, low, high = row
    return {"value": round(value, digits), "ci95": [round(low, digits), round(high, digits)]}
