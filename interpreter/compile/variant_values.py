"""A base game's heuristic in a variant that scores differently.

A variant may replace `score` and keep the base's `heuristic`, which was written for the
base's score sheet: judged by it alone, the bots would never see the variant's new score
lines (a goal worth points, a bonus). So the bots judge such a variant by the heuristic
plus what the variant's sheet gives beyond the base's, counted in heuristic units: a
heuristic says how promising a position is on its own scale (one may count a round won as
1000, another a point as 4), so the scale is measured, once per game, as the
least-squares slope of the heuristic against the base's score over the final positions of
a few random games with fixed seeds (the same on every machine and worker). Final
positions, because there a heuristic has no promise left to weigh, only what was made
(in the middle of a game its estimate of what is to come blurs the slope; docs/language.md,
`heuristic`, gives measured figures). Without a measurable slope (the final scores never
varied, or the slope is not positive), a point counts as one unit.
"""
from __future__ import annotations

import random

SCALE_GAMES = 16                # random games whose final positions measure the scale
SCALE_DECISIONS = 2_000         # a game still running after this many decisions is cut short


def with_variant_lines(game, heuristic, variant_total, base_total):
    """`heuristic(st, p)` plus the scale times (variant_total - base_total)(st, p)."""
    scale: list = []

    def judge(st, p):
        if not scale:
            scale.append(measure_scale(game, heuristic, base_total))
        return heuristic(st, p) + scale[0] * (variant_total(st, p) - base_total(st, p))

    judge.scale = scale             # for reports and tests: [the scale] once measured
    return judge


def measure_scale(game, heuristic, base_total) -> float:
    """Heuristic units per point of the base's score: the least-squares slope over the final
    positions of SCALE_GAMES random games; 1.0 when the scores never vary or the slope is
    not positive."""
    pairs = []
    for seed in range(SCALE_GAMES):
        rng = random.Random(seed)
        st = game.new_state(game.min_players, seed)
        for _ in range(SCALE_DECISIONS):
            if st.finished:
                break
            game.apply_index(st, rng.randrange(len(st.pending.values)))
        pairs.extend((base_total(st, p), heuristic(st, p)) for p in range(st.players))
    n = len(pairs)
    mean_s = sum(s for s, _ in pairs) / n
    mean_h = sum(h for _, h in pairs) / n
    spread = sum((s - mean_s) ** 2 for s, _ in pairs)
    if spread == 0:
        return 1.0
    slope = sum((s - mean_s) * (h - mean_h) for s, h in pairs) / spread
    return slope if slope > 0 else 1.0
