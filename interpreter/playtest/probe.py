"""Decision quality: how often a bot takes the choice a stronger (gold) search takes, and
what its other choices cost by the gold search's own values.

A hundred games tell two bot settings apart only when they differ by much more than the luck
of the draw; single decisions do not have that luck. `probe_decisions` plays the games that
`simulate --bots BOT,OPPONENT --rotate --seed S` plays with the first of the probed bots (the
same seeds, seats and choices) and, at the decisions of its seat, runs the gold search once
and every probed bot `repeats` times (with fresh seeds) from the same position, so the bots
are compared on the same positions. A position counts when the gold search weighed two or
more options there (a decision it leaves to one option is no decision for it).

- **agreement**: of a bot's choices, how many were the gold search's choice (the option it
  would play: the most visited, then the best mean value for the deciding seat; an option
  tied with it on both counts as well);
- **regret**: the mean of (the gold value of the gold choice) minus (the gold value of the
  bot's choice), at least 0; a choice the gold search did not weigh counts as its worst
  weighed option. Gold values are the search's mean rewards, 0 to 1 (a lost to a won game);
- the CPU seconds each spent per decision.
"""
from __future__ import annotations

import time

from ...dsl.errors import UsageError, counted
from ..bots.mcts import MCTSBot
from ..bots.registry import make_bot
from ..bots.whole_moves import _key
from .simulate import game_seed, seat_bots


def gold_values(gold: MCTSBot, game, st) -> dict:
    """For each option the gold search weighed (by option id): its visits and its mean value
    for the deciding seat."""
    seat = st.pending.player
    root = gold.search(game, st)
    values = {}
    for oid, value in zip(game.option_ids(st), st.pending.values):
        child = root.children.get(_key(value))
        if child is not None and child.visits:
            values[oid] = (child.visits, child.total[seat] / child.visits)
    return values


def probe_decisions(game, players: int, bots: list, gold: str, opponent: str, games: int, positions: int,
                    repeats: int, seed: int, progress=None) -> dict:
    """Probe each of `bots` against the `gold` search at the same positions: those of the games
    the first of them plays (see the module docstring)."""
    if len(set(bots)) != len(bots):
        raise UsageError("each bot may be probed once; give two settings to tell them apart")
    gold_bot = make_bot(gold, 0, game)
    if not isinstance(gold_bot, MCTSBot):
        raise UsageError(f"the gold search must be an mcts bot (it values the options), not '{gold}': "
                         "e.g. --gold mcts:iterations=1000")
    settings = {spec: make_bot(spec, 0, game).describe() for spec in bots}
    opponent_settings = make_bot(opponent, 0, game).describe()
    rows, per_game = [], []
    cpu = dict.fromkeys(bots, 0.0)
    gold_cpu = 0.0
    for index in range(games):
        game_s = game_seed(seed, index)
        specs = seat_bots([bots[0]] + [opponent] * (players - 1), index, True)
        probed_seat = index % players
        playing = [make_bot(spec, f"{game_s}:{p}", game) for p, spec in enumerate(specs)]
        st = game.new_state(players, game_s)
        found = decision = 0
        while not st.finished and found < positions:
            mover = st.pending.player
            if mover == probed_seat and len(st.pending.values) > 1:
                decision += 1
                start = time.process_time()
                values = gold_values(make_bot(gold, f"gold:{game_s}:{decision}", game), game, st)
                gold_cpu += time.process_time() - start
                if len(values) > 1:
                    found += 1
                    ids = game.option_ids(st)
                    choices = {}
                    for spec in bots:
                        start = time.process_time()
                        choices[spec] = [ids[make_bot(spec, f"probe:{game_s}:{decision}:{r}", game).choose(game, st)]
                                         for r in range(repeats)]
                        cpu[spec] += time.process_time() - start
                    rows.append(_judge(index, decision, values, choices))
            game.apply_index(st, playing[mover].choose(game, st))
        per_game.append({"index": index, "seed": game_s, "positions": found})
        if progress is not None:
            progress(index + 1, games)
    choices = len(rows) * repeats
    per_choice = choices or 1       # (no position: every sum is 0)
    table = [{"bot": spec, "settings": settings[spec],
              "agreement": sum(row["agreement"][spec] for row in rows),
              "regret": round(sum(row["regret"][spec] for row in rows) / per_choice, 4),
              "cpu_per_decision": round(cpu[spec] / per_choice, 4)} for spec in bots]
    return {"game": game.title, "variant": game.variant, "players": players, "seed": seed, "games": games,
            "repeats": repeats, "gold": gold, "gold_settings": gold_bot.describe(), "opponent": opponent,
            "opponent_settings": opponent_settings, "positions": len(rows), "choices": choices, "bots": table,
            "gold_cpu_per_decision": round(gold_cpu / len(rows), 4) if rows else 0.0,
            "per_game": per_game, "rows": rows}


def _judge(index: int, decision: int, values: dict, choices: dict) -> dict:
    """One position: the gold choice, the gold values, and each bot's choices, agreement and
    summed regret."""
    best = max(values, key=values.get)     # as the search itself chooses: most visits, then the best mean
    means = {oid: mean for oid, (_, mean) in values.items()}
    worst = min(means.values())
    return {"game": index, "decision": decision, "gold_choice": best,
            "gold_values": {k: round(v, 4) for k, v in means.items()}, "choices": choices,
            "agreement": {spec: sum(values.get(c) == values[best] for c in taken) for spec, taken in choices.items()},
            "regret": {spec: sum(max(0.0, means[best] - means.get(c, worst)) for c in taken)
                       for spec, taken in choices.items()}}


def format_probe(report: dict) -> str:
    lines = [f"{report['game']}" + (f" ({report['variant']})" if report["variant"] else "")
             + f", {report['players']} players, seed {report['seed']}",
             f"  gold:     {report['gold_settings']}", f"  opponent: {report['opponent_settings']}",
             f"  positions: {report['positions']} in {counted(report['games'], 'game')} "
             f"({', '.join(str(g['positions']) for g in report['per_game'])}), played by {report['bots'][0]['bot']}; "
             f"each decided {counted(report['repeats'], 'time')} by every bot"]
    if not report["choices"]:
        lines.append("  no position: the gold search never weighed two options at the probed seat's decisions")
        return "\n".join(lines)
    width = max(len("bot"), *(len(row["bot"]) for row in report["bots"]))
    lines.append(f"  {'bot':<{width}}  {'agreement':>12}  {'regret':>7}  CPU per decision")
    for row in report["bots"]:
        share = f"{row['agreement']} of {report['choices']}"
        lines.append(f"  {row['bot']:<{width}}  {share:>12}  {row['regret']:7.4f}  {row['cpu_per_decision']:.3f} s")
    lines.append("  settings:")
    lines += [f"    {row['bot']}: {row['settings']}" for row in report["bots"]]
    lines += ["  agreement: choices that were the gold search's; regret: mean gold value lost per choice (0 to 1)",
              f"  gold's CPU per decision: {report['gold_cpu_per_decision']:.3f} s"]
    return "\n".join(lines)
