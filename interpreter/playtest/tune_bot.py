"""`boardwright tune GAME --bot mcts`: search a bot's settings for one game by rotated
self-play against an opponent bot (`greedy`), at a CPU budget per decision.

The search is optuna's (docs/playtesting.md#tuning-a-bot says why): a seeded TPE sampler
proposes settings from `SPACE`; each candidate plays the same seeded, rotated 2-player games
(game index k with the same seed for every candidate), in batches; after each batch its win
rate so far is reported, and a successive-halving pruner stops candidates that trail the
others at the same number of games; a candidate that cannot pass the complete candidates
that would be confirmed even if it won every game left stops too (`hopeless`: it could
never be confirmed, so the answer is the same without its games). A candidate whose measured CPU time per decision (its
decisions with more than one option) exceeds the budget is stopped too, and the same
settings with fewer iterations, fitted to the budget by the cost it measured, are tried
next: its CPU per decision is split into a fixed part (what a search spends before its
first iteration: the shortlist, decisive moves, whole moves) and a cost per iteration,
both measured on the decisions it met, and the iterations are those whose predicted cost
is `FIT` of the budget (`fitted_iterations`). A candidate stopped before the end of any
game first plays a whole game at `PROBE` iterations, as its fixed part can grow over a
game (`cost_model`); where the fixed part leaves no room for the fewest iterations, the
same search over a cheaper shortlist is tried instead (`refitted`, `cheaper_shortlist`).
A fitted candidate still over budget is
fitted again from its own measurement, at most `REFITS` times in all; one whose fixed
part alone is over the budget is not (its row's `why` says so). A candidate that played
all its games whole, well under the budget, is fitted again upwards from those games'
cost, within the same `REFITS` (`raised_iterations`: a game's first decisions can read
its cost far too high). A candidate fitted down to fewer rounds that fails one of the
game's bot puzzles gets its rounds back with cheaper playouts (`cheaper_playouts`), within
the same `REFITS`. The fitting itself is in `tune_fit`. The best few
complete candidates then play a confirmation run on other seeds, and the best of those,
with its win rate's 95% Wilson interval, becomes the `bot` declaration.

Everything but the budget check depends only on the seeds: trials run one after another,
and a trial's games give the same records on one process, several or a cluster. The budget
check reads the clock: a candidate within a few percent of the budget may pass on one run
and not on another (the settings are then near the edge anyway), and a fitted candidate's
iterations are rounded down to a step of `ROUND_ITERATIONS` so that a few percent of noise
seldom changes them.
"""
from __future__ import annotations

import math
import time

from ...dsl.bot_settings import BOT_SETTINGS
from ...dsl.errors import UsageError
from ..bots.mcts import SearchLimitReached
from ..bots.registry import make_bot
from ..run.processes import forked_pool
from .report import wilson
from .simulate import _batches, _load, game_seed, seat_bots, worker_failure
from .tune_fit import PROBE, cheaper_playouts, needs_probe, raised_iterations, refitted

# The settings searched, per bot: name -> ("int" | "float", low, high, log scale?) or
# ("choice", values). Settings not listed keep the bot's defaults (BOT_SETTINGS).
SPACE: dict[str, dict[str, tuple]] = {
    "mcts": {
        "iterations": ("int", 8, 2000, True),
        "exploration": ("float", 0.1, 2.0, True),
        "width": ("choice", (0, 2, 4, 6, 12)),
        "follow": ("choice", (0, 200)),
        "depth": ("choice", (0, 4, 15, 1000)),
        "guide": ("choice", (1, 2, 4, 8, 1000)),
        "whole": ("choice", (0, 1)),
        "margin": ("choice", (0, 2, 4, 10)),
        "paired": ("choice", (0, 1)),
        "decisive": ("choice", (0, 1, 2)),
        "widen": ("choice", (0, 0.5, 1, 2)),
        "mast": ("choice", (0, 0.5, 0.9)),
        "history": ("choice", (0, 1, 3)),
        "reuse": ("choice", (0, 1)),
    },
}
# Settings that change nothing unless others have certain values are searched only then
# (else they keep their defaults and stay out of the declaration): `SPACE` lists them after
# the settings they depend on.
WHEN: dict[str, dict] = {
    "mcts": {
        "guide": lambda s: s["depth"] > 0,                  # playouts
        "whole": lambda s: s["depth"] > 0,
        "margin": lambda s: s["depth"] > 0,                 # games finished in a playout
        "widen": lambda s: not s["paired"],                 # the tree's
        "mast": lambda s: not s["paired"] and s["depth"] > 0 and s.get("guide") == 1,  # random playouts
        "history": lambda s: not s["paired"],               # the tree's selection
        "reuse": lambda s: not s["paired"] and not s["follow"],     # a tree of single decisions
    },
}
# The first candidates of every search, the same for every game (the settings not named are
# the sampler's): the bot's general defaults (a tree without playouts), a tree whose leaves
# are played out to the end with each decision the best of a few sampled options, and paired
# playouts of a few guided decisions over a shortlist of two (the three kinds of search the
# bundled games' hand-tuned declarations use), and flat Monte Carlo: paired random playouts
# to the end over the shortlist, the cheapest playouts any game has (the general game
# players' baseline). Their iterations are fitted down or up to the budget as they play;
# the sampler then learns from them.
STARTS: dict[str, list] = {
    "mcts": [
        {"iterations": 400, "exploration": 0.7, "width": 6, "follow": 0, "depth": 0, "paired": 0,
         "decisive": 0, "widen": 0, "history": 0, "reuse": 0},
        {"iterations": 30, "exploration": 0.7, "width": 6, "follow": 0, "depth": 1000, "guide": 4, "whole": 0,
         "margin": 0, "paired": 0, "decisive": 0, "widen": 0, "history": 0, "reuse": 0},
        {"iterations": 60, "exploration": 0.7, "width": 2, "follow": 0, "depth": 15, "guide": 8, "whole": 0,
         "margin": 0, "paired": 1, "decisive": 0},
        {"iterations": 30, "exploration": 0.7, "width": 6, "follow": 0, "depth": 1000, "guide": 1, "whole": 0,
         "margin": 0, "paired": 1, "decisive": 0},
    ],
}
CONFIRM_SEED_OFFSET = 7_919        # the confirmation plays other games than the search
LIMIT = 12                         # a single search may take this many budgets before its game stops
                                   # (a game's costliest decisions may take ten times its mean)
EARLY = (10, 2)                    # after 10 decisions, a mean of twice the budget stops the game too
WHOLE = 1.25                       # a whole game at a mean past this many budgets drops the candidate at once
REFITS = 2                         # a candidate's settings are fitted again at most this many times in all


def tuned_settings(bot: str) -> dict:
    """The search space of `bot` (a usage error for a bot that has nothing to tune)."""
    if bot not in SPACE:
        tunable = ", ".join(SPACE)
        raise UsageError(f"tune --bot {bot}: only {tunable} has settings to tune" if bot in BOT_SETTINGS
                         else f"tune --bot: unknown bot '{bot}'; bots with settings to tune: {tunable}")
    return {name: spec for name, spec in SPACE[bot].items() if name in BOT_SETTINGS[bot]}


def spec_of(bot: str, settings: dict) -> str:
    """The bot spec (as on the command line) of a candidate's settings, in `SPACE` order."""
    return ":".join([bot] + [f"{k}={_number(v)}" for k, v in settings.items()])


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _suggest(trial, bot: str, space: dict) -> dict:
    settings: dict = {}
    when = WHEN.get(bot, {})
    for name, spec in space.items():
        if name in when and not when[name](settings):
            continue
        if spec[0] == "int":
            settings[name] = trial.suggest_int(name, spec[1], spec[2], log=spec[3])
        elif spec[0] == "float":
            settings[name] = round(trial.suggest_float(name, spec[1], spec[2], log=spec[3]), 3)
        else:
            settings[name] = trial.suggest_categorical(name, list(spec[1]))
    return settings


# ----------------------------------------------------------------------------- games
def play_measured(game, seed: int, index: int, candidate: str, opponent: str, budget: float | None = None,
                  confirm: bool = False) -> dict:
    """One rotated 2-player game between the `candidate` bot (seat index mod 2) and the
    `opponent`: the candidate's share of the victory, and its CPU time and decisions (those
    with more than one option). The candidate is made without the rule file's declared
    settings (its spec names every tuned setting); the opponent with them. With a `budget`,
    a search that runs past `LIMIT` times it, or a mean past `EARLY` times it over the
    game's first decisions, stops the game (`over` is then True): its candidate is over
    budget whatever its other decisions cost, and a candidate never stopped so played
    exactly as it would have without the limit. In a `confirm` game only `LIMIT` stops it
    (a runaway search): the confirmation judges the budget by the mean over all its games,
    the figure the declaration states, so one slow game on a busy machine does not drop a
    candidate within the budget."""
    game_s = game_seed(seed, index)
    specs = seat_bots([candidate, opponent], index, True)
    seat = index % 2                # where seat_bots puts the first bot
    bots = [make_bot(spec, f"{game_s}:{p}", None if p == seat else game) for p, spec in enumerate(specs)]
    if budget is not None:
        bots[seat].limit = LIMIT * budget
    meter = bots[seat].meter = [0.0, 0]     # the searches' setup CPU and iterations (`MCTSBot.meter`)
    st = game.new_state(2, game_s)
    cpu, decisions = 0.0, 0

    def record(share: float, over: bool, **more) -> dict:
        return {"index": index, "share": share, "cpu": cpu, "decisions": decisions, "over": over,
                "setup": meter[0], "iterations": meter[1], "whole": not over or "whole" in more, **more}

    while not st.finished:
        mover = st.pending.player
        if mover == seat and len(st.pending.values) > 1:
            start = time.process_time()
            try:
                choice = bots[mover].choose(game, st)
            except SearchLimitReached:
                cpu += time.process_time() - start
                decisions += 1
                return record(0.0, True, limit=True)
            cpu += time.process_time() - start
            decisions += 1
            if budget is not None and not confirm and decisions >= EARLY[0] and cpu > EARLY[1] * budget * decisions:
                return record(0.0, True)
        else:
            choice = bots[mover].choose(game, st)
        game.apply_index(st, choice)
    winners = game.result(st).winners
    share = 1 / len(winners) if seat in winners else 0.0
    if budget is not None and not confirm and cpu > WHOLE * budget * decisions:
        return record(share, True, whole=True)
    return record(share, False)


def _play_jobs(job: tuple) -> list:
    ref, seed, indexes, candidate, opponent, budget, confirm = job
    game = _load(ref)
    return [play_measured(game, seed, i, candidate, opponent, budget, confirm) for i in indexes]


class GameRunner:
    """Plays a candidate's games here, over a pool of forked workers, or on a Dask cluster;
    the records come back in game order whichever way they were played."""

    def __init__(self, game, ref: tuple, workers: int = 1, cluster: str | None = None):
        self.game, self.ref, self.workers, self.cluster = game, ref, workers, cluster
        self.pool = self.client = None

    def __enter__(self):
        if self.cluster:
            try:
                from dask.distributed import Client
            except ImportError:
                raise UsageError("--cluster needs Dask: pip install 'boardwright[cluster]'")
            try:
                self.client = Client(self.cluster, timeout=10)
            except (OSError, TimeoutError, ValueError) as exc:
                raise UsageError(f"cannot reach the Dask scheduler at {self.cluster}: {exc}")
        elif self.workers > 1:
            self._pool_context = forked_pool(self.workers)
            self.pool = self._pool_context.__enter__()
        return self

    def __exit__(self, *exc):
        if self.client is not None:
            self.client.close()
        if self.pool is not None:
            return self._pool_context.__exit__(*exc)
        return False

    def play(self, seed: int, indexes: list, candidate: str, opponent: str, budget: float | None = None,
             confirm: bool = False) -> list:
        if self.client is not None:
            from dask.distributed import as_completed
            jobs = [(self.ref, seed, b, candidate, opponent, budget, confirm) for b in _batches(indexes, len(indexes))]
            try:
                parts = [f.result() for f in as_completed(self.client.map(_play_jobs, jobs, pure=False))]
            except Exception as exc:        # raised on a worker: say what is wrong with it
                raise worker_failure(self.cluster, exc) from None
        elif self.pool is not None:
            jobs = [(self.ref, seed, [i], candidate, opponent, budget, confirm) for i in indexes]
            parts = self.pool.map(_play_jobs, jobs)
        else:
            parts = [[]]
            for i in indexes:       # (a game over budget drops the candidate: the rest would be lost work)
                parts[0].append(play_measured(self.game, seed, i, candidate, opponent, budget, confirm))
                if parts[0][-1]["over"]:
                    break
        return sorted((r for part in parts for r in part), key=lambda r: r["index"])


# ----------------------------------------------------------------------------- the search
def tune_bot(game, ref: tuple, bot: str = "mcts", opponent: str = "greedy", budget: float = 0.25,
             trials: int = 30, games: int = 40, batch: int = 8, confirm: int = 3, confirm_games: int = 100,
             seed: int = 1, workers: int = 1, cluster: str | None = None, progress=None,
             puzzles=None) -> dict:
    """Search `bot`'s settings for `game` (see the module docstring); return a report with
    every trial, the confirmed candidates and the chosen settings (`best`). `puzzles`, if
    given, takes a candidate's spec and returns the failures of the game's bot puzzles it
    plays (checked once its games are complete): one that fails any is never confirmed."""
    try:
        import optuna
    except ImportError:
        raise UsageError("tune needs optuna: pip install 'boardwright[tune]' (or pip install optuna)")
    space = tuned_settings(bot)
    if budget <= 0 or not math.isfinite(budget):
        raise UsageError(f"--decision-seconds must be a positive number of CPU seconds, not {budget}")
    if batch % 2:
        raise UsageError(f"--batch must be even (each batch plays both seatings alike), not {batch}")
    if games < batch:
        raise UsageError(f"--games ({games}) must be at least --batch ({batch})")
    make_bot(opponent, 0, game)     # a bad opponent spec is a usage error, before any work
    game.setup_state(2, 0)          # so is a game without 2-player seats
    total = trials * games + confirm * confirm_games
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if progress is not None:
            progress(min(done[0], total), total)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed),
                                pruner=optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=3))
    for start in STARTS.get(bot, [])[:trials]:
        study.enqueue_trial({k: v for k, v in start.items() if k in space})
    rows: list = []
    with GameRunner(game, ref, workers, cluster) as runner:
        def objective(trial):
            settings = _suggest(trial, bot, space)
            spec = spec_of(bot, settings)
            row = {"trial": trial.number, "spec": spec, "games": 0, "wins": 0.0, "cpu": 0.0, "decisions": 0,
                   "setup": 0.0, "iterations_run": 0, "whole_games": 0, "state": "complete",
                   "fitted_from": trial.user_attrs.get("fitted_from")}
            refits = trial.user_attrs.get("refits", 0)
            rows.append(row)
            for step, start in enumerate(range(0, games, batch)):
                records = runner.play(seed, list(range(start, min(games, start + batch))), spec, opponent, budget)
                _add(row, records)
                tick(len(records))
                if row["cpu_per_decision"] > budget or any(r["over"] for r in records):
                    row["state"] = "over budget"
                    tick(games - row["games"])
                    if refits >= REFITS:
                        row["why"] = f"{row['cpu_per_decision']:.3f} s per decision; fitted {refits} times: not again"
                    elif "iterations" in settings:
                        low, probe = space["iterations"][1], None
                        if needs_probe(settings, row, records, budget, low):
                            probe = runner.play(seed, [0], spec_of(bot, dict(settings, iterations=PROBE)), opponent,
                                                budget)[0]
                            probe["iterations_each"] = PROBE
                            row["probe"] = probe
                        refit, row["why"] = refitted(settings, row, records, budget, low, probe)
                        if refit is not None:
                            rounds = max(trial.user_attrs.get("rounds", 0), settings["iterations"])  # before any fit
                            study.enqueue_trial(refit, user_attrs={"fitted_from": trial.number, "refits": refits + 1,
                                                                   "rounds": rounds})
                    raise optuna.TrialPruned()
                trial.report(row["win_rate"], step)
                # (after the last batch: nothing to save)
                if row["games"] < games and ((why := hopeless(row, rows, games, confirm)) or trial.should_prune()):
                    row["state"] = "pruned"
                    if why:
                        row["why"] = why
                    tick(games - row["games"])
                    raise optuna.TrialPruned()
            back = None
            if puzzles is not None and (failures := puzzles(spec)):
                row["state"], row["puzzle_failures"] = "fails a bot puzzle", failures
                rounds = trial.user_attrs.get("rounds", 0)
                if refits < REFITS and rounds > settings.get("iterations", rounds):    # fitted down: its rounds back
                    back, why = cheaper_playouts(settings, row, budget, rounds)
                    if back is not None:
                        row["why"] = why
                        study.enqueue_trial(back, user_attrs={"fitted_from": trial.number, "refits": refits + 1})
            if "iterations" in settings and refits < REFITS and back is None:     # well under the budget: more
                more, why = raised_iterations(settings, row, budget, space["iterations"][2])
                if more is not None:
                    row["why"] = why
                    study.enqueue_trial(dict(settings, iterations=more),
                                        user_attrs={"fitted_from": trial.number, "refits": refits + 1})
            return row["win_rate"]

        study.optimize(objective, n_trials=trials)
        complete = sorted((r for r in rows if r["state"] == "complete"),
                          key=lambda r: (-r["win_rate"], r["trial"]))
        confirmed = []
        for row in complete[:confirm]:
            records = runner.play(seed + CONFIRM_SEED_OFFSET, list(range(confirm_games)), row["spec"], opponent, budget,
                                  confirm=True)
            result = {"trial": row["trial"], "spec": row["spec"], "games": 0, "wins": 0.0, "cpu": 0.0, "decisions": 0,
                      "setup": 0.0, "iterations_run": 0}
            _add(result, records)
            result["over"] = any(r["over"] for r in records)
            result["ci95"] = wilson(result["wins"], result["games"])
            result["search_win_rate"] = row["win_rate"]
            confirmed.append(result)
            tick(confirm_games)
    within = [r for r in confirmed if r["cpu_per_decision"] <= budget and not r["over"]]
    # ties go to the earlier trial, not the cheaper one: the clock must not make 1 and 2 workers differ
    best = max(within, key=lambda r: (r["win_rate"], -r["trial"])) if within else None
    if progress is not None:
        progress(total, total)
    return {"game": game.title, "variant": game.variant, "bot": bot, "opponent": opponent, "budget": budget,
            "seed": seed, "trials": rows, "games_per_trial": games, "batch": batch,
            "confirm_seed": seed + CONFIRM_SEED_OFFSET, "confirmed": confirmed, "best": best}


def _first_choice(failures: list) -> str:
    """The first failure's place and, for a bot puzzle, the wrong choice it names (the
    `place` and `choice` a scenario's failure carries, interpreter/testing/scenario.py)."""
    place, choice = getattr(failures[0], "place", ""), getattr(failures[0], "choice", "")
    return place + (": " + choice if choice else "")


def hopeless(row: dict, rows: list, games: int, confirm: int) -> str | None:
    """Why `row` can never be among the `confirm` best complete candidates, or None: its wins
    so far plus every game it has left are no more than the wins of the `confirm`-th best
    complete candidate (earlier, so it wins a tie; and the `confirm`-th best only gets
    better as trials complete). Decided by game results alone: the same on any workers."""
    rivals = sorted((r["wins"] for r in rows if r["state"] == "complete" and r is not row), reverse=True)
    if len(rivals) < confirm:
        return None
    most = row["wins"] + games - row["games"]
    if most > rivals[confirm - 1]:
        return None
    return (f"{row['wins']:g} of {row['games']} won: at most {most:g} of {games}, not more than the "
            f"{_ordinal(confirm)} best complete candidate's {rivals[confirm - 1]:g}")


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def _add(row: dict, records: list) -> None:
    """Add a batch of game records to a candidate's totals (in game order: the same sums on
    any number of workers)."""
    for r in records:
        row["games"] += 1
        row["wins"] += r["share"]
        row["cpu"] += r["cpu"]
        row["decisions"] += r["decisions"]
        row["setup"] += r["setup"]
        row["iterations_run"] += r["iterations"]
        row["whole_games"] = row.get("whole_games", 0) + r.get("whole", True)
    row["win_rate"] = round(row["wins"] / row["games"], 4)
    row["cpu_per_decision"] = round(row["cpu"] / max(1, row["decisions"]), 4)


# ----------------------------------------------------------------------------- output
def declaration(report: dict, command: str) -> str:
    """The `bot` declaration of the chosen settings, with a comment saying how it measured."""
    best = report["best"]
    name, _, settings = best["spec"].partition(":")
    lo, hi = best["ci95"]
    return (f"# Tuned by `boardwright tune`: won {best['win_rate']:.3f} (95% interval {lo:.3f} to {hi:.3f}) of\n"
            f"# {best['games']} rotated 2-player games against {report['opponent']} (seed {report['confirm_seed']}),"
            f" {best['cpu_per_decision']:.3f} CPU s per decision.\n"
            f"# Rerun: {command}\n"
            f'bot {name} "{settings}"\n')


def format_tune(report: dict, command: str) -> str:
    title = report["game"] + (f" ({report['variant']})" if report.get("variant") else "")
    states = [r["state"] for r in report["trials"]]
    out = [f"{title}: tuned {report['bot']} against {report['opponent']}, {len(states)} trials of up to "
           f"{report['games_per_trial']} rotated games (seed {report['seed']}), budget {report['budget']:g} CPU s "
           f"per decision",
           f"  trials: {states.count('complete')} complete, {states.count('pruned')} pruned, "
           f"{states.count('over budget')} over budget"
           + (f", {failing} failing a bot puzzle" if (failing := states.count("fails a bot puzzle")) else "")
           + (f" ({fitted} with iterations fitted to the budget)"
              if (fitted := sum(r.get("fitted_from") is not None for r in report["trials"])) else ""),
           *(f"    trial {r['trial']} {r['state']}: {r['why']}" for r in report["trials"] if r.get("why")),
           *(f"    trial {r['trial']} {r['state']}: {_first_choice(r['puzzle_failures'])}"
             for r in report["trials"] if r.get("puzzle_failures")),
           *([f"  bot puzzles: {len(report['puzzles'])} in the game's scenarios/, played by every complete "
              "candidate; one that fails any is not confirmed"] if report.get("puzzles") else []),
           f"  confirmed on {report['confirmed'][0]['games'] if report['confirmed'] else 0} other games "
           f"(seed {report['confirm_seed']}):"]
    for r in report["confirmed"]:
        lo, hi = r["ci95"]
        out.append(f"    {r['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]  {r['cpu_per_decision']:.3f} CPU s  "
                   f"(search {r['search_win_rate']:.3f})  {r['spec']}")
    if report["best"] is None:
        out.append("  no candidate completed its games within the budget"
                   + (" and passed the game's bot puzzles" if report.get("puzzles") else "")
                   + ": raise --decision-seconds or --trials")
    else:
        out.append(declaration(report, command).rstrip("\n"))
    return "\n".join(out)
