"""The iterations `tune --bot` fits a candidate's settings to, from the CPU it measured
(docs/playtesting.md#tuning-a-bot).

A candidate's CPU per decision is split into a fixed part (what a search spends before its
first iteration: the shortlist, decisive moves, whole moves) and a cost per iteration, both
measured on the decisions it met (`cost_model`). A candidate over the budget gets fewer
iterations, those whose predicted cost is `FIT` of the budget (`fitted_iterations`), or,
where its fixed part leaves no room for the fewest, the same search over a cheaper
shortlist (`cheaper_shortlist`, `refitted`); a candidate that played its games well under
the budget gets more, fitted the same way from the cost of those whole games
(`raised_iterations`: the first decisions of a game can read its cost far too high, and a
candidate fitted down from them may spend a third of the budget). A search that plays more
iterations than its setting (paired playouts play every shortlisted option once a round)
cannot be fitted below what it plays (`least_iterations`). A candidate fitted down to fewer
rounds that then fails one of the game's bot puzzles gets its rounds back with cheaper
playouts (`cheaper_playouts`): few rounds are what a search misjudges a position with.
"""
from __future__ import annotations

import math

FIT = 0.7                          # a fitted candidate aims at this share of the budget (the cost varies by game)
PUZZLE_FIT = 0.9                   # ... and one given its rounds back after failing a bot puzzle, at this share
RAISE = 1.5                        # a candidate gets more iterations only where at least this many times its own fit
PROBE = 1                          # the iterations of the game that measures a candidate's fixed part over a whole game
# The iteration counts a fitted candidate may get, each about 1.25 times the one before.
ROUND_ITERATIONS = sorted({int(m * 10 ** e) for e in range(4) for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8)})


def cost_model(row: dict, probe: dict | None = None) -> tuple[float, float]:
    """A candidate's measured CPU as (fixed s per decision, s per iteration): the searches'
    setup (`MCTSBot.meter`) over its decisions, the rest over the iterations run (a search
    stopped at `LIMIT` counts the iterations it ran, so the split holds for it too). With a
    `probe` (a whole game of the same settings at one iteration, `PROBE`), each part is the
    larger of the two measurements: the fixed part grows over a game in some games (the
    shortlist's look-ahead can cost more as the board fills), so the
    first decisions alone can read far too low."""
    fixed = row["setup"] / max(1, row["decisions"])
    per_iteration = max(0.0, (row["cpu"] - row["setup"]) / max(1, row["iterations_run"]))
    if probe is not None:
        fixed = max(fixed, probe["setup"] / max(1, probe["decisions"]))
        if probe["iterations"]:
            per_iteration = max(per_iteration, (probe["cpu"] - probe["setup"]) / probe["iterations"])
    return fixed, per_iteration


def least_iterations(settings: dict, row: dict, probe: dict | None = None) -> float:
    """The iterations per decision a search of these settings plays whatever its own setting:
    a paired search plays every shortlisted option once a round, so where its searches ran
    more iterations than asked (a mean of m for a setting of n), a round is more than m - n
    (a round of r ends at most r - 1 past n); a probe at `PROBE` iterations plays one round
    a decision. 0 for a tree (it plays what it is asked, or fewer)."""
    played = row["iterations_run"] / max(1, row["decisions"]) - settings.get("iterations", 0)
    if probe is not None and probe["decisions"]:
        played = max(played, probe["iterations"] / probe["decisions"] - probe.get("iterations_each", PROBE))
    return max(0.0, played)


def _cost_text(row: dict, fixed: float, per_iteration: float) -> str:
    return f"{row['cpu_per_decision']:.3f} s per decision: {fixed:.3f} fixed + {1000 * per_iteration:.2f} ms per iteration"


def _refit_cost(row: dict, probe: dict | None) -> tuple[float, float, str]:
    """The cost model of a refit (`cost_model`) and how it is said: the measured cost, with
    the probe's whole game where one was played."""
    fixed, per_iteration = cost_model(row, probe)
    cost = _cost_text(row, fixed, per_iteration)
    if probe is not None:
        cost += f" (the larger of its games and a whole game at {probe['iterations_each']} iteration)"
    return fixed, per_iteration, cost


def _at_fit(budget: float, fixed: float, per_iteration: float) -> float:
    """The iterations whose predicted cost, fixed + iterations x per iteration, is `FIT` of the budget."""
    return (FIT * budget - fixed) / per_iteration if per_iteration else math.inf


def _rounded(wanted: float, low: int, high: float = math.inf) -> int:
    """The largest of `ROUND_ITERATIONS` up to `wanted` and `high`, at least `low`."""
    return max([n for n in ROUND_ITERATIONS if n <= min(wanted * (1 + 1e-9), high)] + [low])   # (1e-9: float sums)


def fitted_iterations(settings: dict, row: dict, records: list, budget: float, low: int,
                      probe: dict | None = None) -> tuple[int | None, str]:
    """Fewer iterations for settings found over budget, and why (or why none): those whose
    predicted CPU per decision, fixed + iterations x per iteration (`cost_model`, with the
    `probe`'s whole game if given), is `FIT` times the budget (the iterations halved as well
    where one search ran past `LIMIT` budgets: that decision's cost lies far from the mean),
    rounded down to `ROUND_ITERATIONS`, at least `low`. None where the fixed part alone is
    over the budget, where even `low` iterations are predicted over it (or the iterations a
    search plays whatever its setting, `least_iterations`), or where that is not fewer than
    it had."""
    fixed, per_iteration, cost = _refit_cost(row, probe)
    if fixed >= budget:
        return None, f"{cost}; the fixed part alone is over the budget: not refitted"
    wanted = _at_fit(budget, fixed, per_iteration)
    if any(r.get("limit") for r in records):
        wanted *= 0.5
    fitted = _rounded(wanted, low)
    least = least_iterations(settings, row, probe)
    if fixed + max(low, least) * per_iteration > budget:
        rounds = f" (its searches play at least {least:.0f} iterations a decision, a round of its shortlist)" \
            if least > low else ""
        return None, (f"{cost}; {low} iterations would cost {fixed + max(low, least) * per_iteration:.3f} s"
                      f"{rounds}: not refitted")
    if fitted >= settings["iterations"]:
        return None, f"{cost}; no fewer iterations to fit"
    return fitted, f"{cost}; refitted to {fitted} iterations"


def raised_iterations(settings: dict, row: dict, budget: float, high: int) -> tuple[int | None, str]:
    """More iterations for settings that played whole games well under the budget, and why
    (or why none): those whose predicted cost from these games (`cost_model`) is `FIT` of
    the budget, rounded down to `ROUND_ITERATIONS`, at most `high`; None unless every game
    it played was whole (a game stopped early says nothing of a game's later decisions) and
    the fit is at least `RAISE` times the iterations its searches played (a paired search
    plays whole rounds, more than its setting: more iterations that do not add a round
    change little)."""
    fixed, per_iteration = cost_model(row)
    cost = _cost_text(row, fixed, per_iteration)
    if not row["games"] or row.get("whole_games", 0) < row["games"]:
        return None, f"{cost}; not every game whole: not raised"
    played = max(settings["iterations"], row["iterations_run"] / max(1, row["decisions"]))
    wanted = _at_fit(budget, fixed, per_iteration)
    raised = _rounded(wanted, 0, high)
    if raised < RAISE * played:
        return None, f"{cost}; no more iterations to fit"
    return raised, f"{cost} over {row['games']} whole games; raised to {raised} iterations"


def needs_probe(settings: dict, row: dict, records: list, budget: float, low: int) -> bool:
    """Whether a refit of `row` needs a whole game to measure its fixed part: it met no whole
    game (stopped early), and what it measured would refit it (else nothing is to be gained:
    the fixed part only reads higher over a whole game)."""
    return not row["whole_games"] and fitted_iterations(settings, row, records, budget, low)[0] is not None


def cheaper_shortlist(settings: dict, row: dict, budget: float, low: int, probe: dict | None = None) -> dict | None:
    """The same search over a cheaper shortlist, or None: `width=0` searches every option
    judged one step only (the look-ahead that picks the best `width` is the fixed part's cost
    where it grows over a game); with `follow` (a whole move built for every shortlisted
    option, so more options cost more) a shortlist of 2 instead. Its iterations are those
    the cost per iteration alone allows at `FIT` of the budget (its own fixed part is
    measured when it plays), at most the settings' own; None where even `low` iterations
    cost over the budget, or where the shortlist is that cheap already."""
    width = 2 if settings.get("follow") else 0
    if "width" not in settings or settings["width"] == width or (width == 2 and 0 < settings["width"] < 2):
        return None
    _, per_iteration = cost_model(row, probe)
    if low * per_iteration > budget:
        return None
    wanted = _at_fit(budget, 0.0, per_iteration)        # its own fixed part is measured when it plays
    return dict(settings, width=width, iterations=min(settings["iterations"], _rounded(wanted, low)))


def refitted(settings: dict, row: dict, records: list, budget: float, low: int,
             probe: dict | None = None) -> tuple[dict | None, str]:
    """The settings to try next for an over-budget candidate, and why (or why none): where
    its fixed part leaves no room for `low` iterations within `FIT` of the budget and is the
    larger share of their cost, the same search over a cheaper shortlist
    (`cheaper_shortlist`), else fewer iterations (`fitted_iterations`)."""
    fixed, per_iteration, cost = _refit_cost(row, probe)
    if fixed + low * per_iteration > FIT * budget and fixed > low * per_iteration and \
            (cheaper := cheaper_shortlist(settings, row, budget, low, probe)) is not None:
        return cheaper, (f"{cost}; the fixed part leaves no room for {low} iterations: a cheaper "
                         f"shortlist, width={cheaper['width']} at {cheaper['iterations']} iterations")
    fewer, why = fitted_iterations(settings, row, records, budget, low, probe)
    return (dict(settings, iterations=fewer) if fewer is not None else None), why


def cheaper_playouts(settings: dict, row: dict, budget: float, rounds: int) -> tuple[dict | None, str]:
    """For a candidate fitted down from `rounds` iterations that failed a bot puzzle: its
    rounds back (or as many as fit), each playout decision the best of 2 sampled options
    instead of `guide`, and why (or None and why not). A search with few rounds misjudges
    what its playouts see (paired playouts tie, one lucky playout leads), and fewer rounds
    are what the fit took; a cheaper playout pays for them. Predicted from its whole games
    (`cost_model`), a playout decision costing one step of the rules and `guide` judged
    options (so 2 cost 3 / (1 + guide) of it), at `PUZZLE_FIT` of the budget: nearer the
    budget than a fit, as the margin a fit keeps cost the bot what the designer asked of it
    (the confirmation still judges the mean against the budget). None unless it has guided
    playouts (`depth` > 0, `guide` from 3 to 8: every option, `guide` 1000, has no known
    count) and the rounds predicted are more than it played."""
    guide, depth = settings.get("guide", 1), settings.get("depth", 0)
    if not depth or not 2 < guide <= 8 or rounds <= settings["iterations"]:
        return None, "no guided playouts to make cheaper, or no rounds to give back"
    fixed, per_iteration = cost_model(row)
    cheaper = per_iteration * 3 / (1 + guide)
    wanted = (PUZZLE_FIT * budget - fixed) / cheaper if cheaper else math.inf
    iterations = _rounded(min(wanted, rounds), 0)
    if iterations <= settings["iterations"]:
        return None, (f"{_cost_text(row, fixed, per_iteration)}; with guide=2 no more than its "
                      f"{settings['iterations']} rounds would fit")
    return dict(settings, guide=2, iterations=iterations), (
        f"{_cost_text(row, fixed, per_iteration)} over {row['games']} games; failed a bot puzzle "
        f"at {settings['iterations']} of the {rounds} rounds it was fitted from: guide=2 at {iterations} iterations")
