"""Batch play: seeded bot games and their per-game records.

`simulate` plays games (serially, over worker processes, or on a Dask cluster: the same
seed gives the same records whichever way) and `interpreter/playtest/report.py` summarises them.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from ...dsl.errors import RuleError, UsageError
from ..bots.registry import make_bot
from ..bots.simple import RandomBot
from ..run.processes import forked_pool


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


@dataclass
class GameRecord:
    """What one simulated game produced (one CSV row)."""
    index: int
    seed: int
    bots: list              # bot spec per seat
    scores: list
    lines: list             # per seat: score line -> value
    winners: list
    turns: int
    decisions: int
    options: int            # sum over decisions of the options offered
    lead_changes: int
    first_player: int | None
    opponents: dict | None = None   # scripted opponent (no seat) -> total score
    endings: list | None = None     # named endings and fallbacks that decided something (`finish "NAME"`)
    measures: dict | None = None    # the rule file's `measure` declarations: title -> value at the end


@dataclass
class FailedGame:
    """The game of a simulation in which a rule error happened: the choices made, the last of
    them the failing decision (none when setup failed)."""
    index: int
    players: int
    seed: int
    choices: list

    def describe(self) -> str:
        at = (f"at decision {len(self.choices)} (the choices so far: {' '.join(map(str, self.choices))})"
              if self.choices else "before the first decision")
        return f"in game {self.index + 1} of the simulation ({self.players} players, seed {self.seed}), {at}"


def play_game(game, players: int, seed: int, bots=None) -> tuple:
    """Play one game with bots (random by default); return (state, result)."""
    st = game.new_state(players, seed)
    if bots is None:
        bots = [RandomBot(f"{seed}:{p}") for p in range(players)]
    while not st.finished:
        game.apply_index(st, bots[st.pending.player].choose(game, st))
    return st, game.result(st)


def play_record(game, players: int, seed: int, index: int, specs: list) -> GameRecord:
    game_s = game_seed(seed, index)
    bots = [make_bot(spec, f"{game_s}:{p}", game) for p, spec in enumerate(specs)]
    leaders: list = []          # the seats leading on score after each turn
    first = None
    options = 0
    st = None
    try:
        st = game.new_state(players, game_s)
        first = st.current
        while not st.finished:
            options += len(st.pending.values)
            turns = sum(st.turns)
            game.apply_index(st, bots[st.pending.player].choose(game, st))
            if sum(st.turns) != turns:
                first = st.current if first is None else first
                scores = game.scores(st)
                best = max(scores) if game.score_sign > 0 else min(scores)
                leaders.append(tuple(p for p, s in enumerate(scores) if s == best))
    except RuleError as err:        # say which game failed, and how to play it again
        err.replay = FailedGame(index, players, game_s, list(st.history) if st is not None else [])
        raise
    result = game.result(st)
    if game.coverage is not None:
        game.coverage.record_result(result)
    changes = sum(1 for a, b in zip(leaders, leaders[1:]) if a != b)
    return GameRecord(index, game_s, list(specs), list(result.scores), [dict(l) for l in result.lines],
                      list(result.winners), sum(st.turns), len(st.history), options, changes,
                      first, {title: sum(sheet.values()) for title, sheet in result.opponents} or None,
                      list(st.endings), game.measures(st) if game.spec.measures else None)


def seat_bots(specs: list, index: int, rotate: bool) -> list:
    """The bots of game `index`: with rotation, bot k sits at seat (k + index) mod n."""
    if not rotate:
        return list(specs)
    n = len(specs)
    return [specs[(seat - index) % n] for seat in range(n)]


_LOADED: dict = {}


def remember_loaded(ref: tuple, game) -> None:
    """Make `game` the one that `ref` (target, variant, sorted settings) names in this process,
    so that workers forked from it, and batches run here, use it without loading it again."""
    _LOADED[ref] = game


def _load(ref: tuple):
    """A game for worker processes, loaded once per process."""
    if ref not in _LOADED:
        from ..compile.load import load_game
        target, variant, settings = ref
        game = load_game(target, variant)
        game.set_params(dict(settings))
        _LOADED[ref] = game
    return _LOADED[ref]


def play_batch(ref: tuple, players: int, seed: int, indexes: list, specs: list, rotate: bool) -> list:
    game = _load(ref)
    return [asdict(play_record(game, players, seed, i, seat_bots(specs, i, rotate))) for i in indexes]


def simulate_records(game, players: int, games: int, seed: int, specs: list, rotate: bool = False,
                     workers: int = 1, cluster: str | None = None, ref: tuple | None = None,
                     progress=None, first: int = 0) -> list[dict]:
    """Play the games and return their records (dicts), in game order. `progress(done, total)`
    is called as games finish, however they are played. `first`: the index of the first game
    (games first..first+games-1: more games of the same series, as `tune` adds them)."""
    if len(specs) != players:
        raise UsageError(f"{len(specs)} bots for {players} players")
    for spec in specs:
        make_bot(spec, 0, game)
    progress = progress or (lambda done, total: None)
    indexes = list(range(first, first + games))
    if cluster:
        return _on_cluster(cluster, ref, players, seed, indexes, specs, rotate, progress)
    if workers > 1:
        return _on_workers(workers, ref, players, seed, indexes, specs, rotate, progress)
    records = []
    for i in indexes:
        records.append(asdict(play_record(game, players, seed, i, seat_bots(specs, i, rotate))))
        progress(len(records), games)
    return records


def _batches(indexes: list, count: int) -> list[list]:
    """Split game indexes into about `count` consecutive batches (the seeds depend on the
    index only, so the split never changes a result)."""
    size = max(1, -(-len(indexes) // count))
    return [indexes[i:i + size] for i in range(0, len(indexes), size)]


def _on_workers(workers, ref, players, seed, indexes, specs, rotate, progress) -> list[dict]:
    batches = _batches(indexes, max(workers * 16, len(indexes) // 10))   # progress every ~10 games
    records: list = []
    with forked_pool(workers) as pool:
        jobs = [(ref, players, seed, b, specs, rotate) for b in batches]
        for part in pool.imap_unordered(_play_batch_args, jobs):
            records.extend(part)
            progress(len(records), len(indexes))
    return sorted(records, key=lambda r: r["index"])


def _play_batch_args(job: tuple) -> list:
    return play_batch(*job)


def _on_cluster(address: str, ref, players, seed, indexes, specs, rotate, progress) -> list[dict]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise UsageError("--cluster needs Dask: pip install 'boardwright[cluster]'")
    try:
        client = Client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}")
    try:
        batches = _batches(indexes, max(1, len(indexes) // 10))
        futures = client.map(play_batch, [ref] * len(batches), [players] * len(batches),
                             [seed] * len(batches), batches, [specs] * len(batches),
                             [rotate] * len(batches), pure=False)
        records: list = []
        try:
            for future in as_completed(futures):
                records.extend(future.result())
                progress(len(records), len(indexes))
        except Exception as exc:        # raised on a worker: say what is wrong with it
            raise worker_failure(address, exc) from None
    finally:
        client.close()
    return sorted(records, key=lambda r: r["index"])


def worker_failure(address: str, exc: Exception) -> Exception:
    """A cluster worker that cannot import Boardwright (or its game) is a setup problem of the
    cluster: tell the user what to install. Anything else is passed on unchanged."""
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, ImportError) or "No module named" in text:
        return UsageError(f"the Dask workers of {address} cannot run Boardwright ({text}): install it "
                          "where the workers run, the same version as here (pip install boardwright, "
                          "or pip install -e . from this checkout), then restart the workers")
    return exc
