"""The greedy player's win rate against the calibrated solo bot (solo.game) at every value of
its two levers, from one simulation's per-game measures: the bot's scoring params change none
of the player's decisions until a move can end the game (the bot takes its cards by position,
the player judges its own city, and only a finished game's winner weighs with `greedy`), so
each game's result at any values follows, nearly, from the player's points and the bot's
buildings, civic tokens and universal cards. A tie goes to the bot.

    boardwright simulate docs/examples/point-city-calibrated/solo.game --players 1 \\
        --bots greedy --games 200 --seed 1 --csv games.csv
    python3 docs/examples/point-city-calibrated/response.py games.csv
"""
from __future__ import annotations

import csv
import math
import sys

TOKENS = range(-3, 6)       # bot_token_points, the rows
UNIVERSAL = range(-3, 4)    # bot_universal_points, the columns


def win_rate(games: list[dict], tokens: int, universal: int) -> float:
    wins = sum(1 for g in games if g["player"] > g["buildings"] + tokens * g["tokens"] + universal * g["universal"])
    return wins / len(games)


def wilson(rate: float, n: int) -> tuple[float, float]:
    z = 1.959964
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def read(path: str) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return [{"player": float(r["measure_player_points"]), "buildings": float(r["measure_bot_buildings"]),
                 "tokens": float(r["measure_bot_tokens"]), "universal": float(r["measure_bot_universal_cards"])}
                for r in csv.DictReader(f)]


def main(path: str) -> None:
    games = read(path)
    print(f"win rate of the player over {len(games)} games; rows bot_token_points, columns bot_universal_points")
    print("      " + "".join(f"{u:>7}" for u in UNIVERSAL))
    for t in TOKENS:
        print(f"{t:>6}" + "".join(f"{win_rate(games, t, u):>7.3f}" for u in UNIVERSAL))
    low, high = wilson(0.5, len(games))
    print(f"95% interval of a rate of 0.5 over {len(games)} games: {low:.3f}..{high:.3f}")


if __name__ == "__main__":
    main(sys.argv[1])
