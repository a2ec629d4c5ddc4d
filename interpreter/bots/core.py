"""Bots: random, greedy and information-set Monte Carlo tree search (MCTS).

A bot sees only what its seat may see: before it looks ahead, `determinize` reorders every
zone hidden from its seat from a canonical order with the bot's own RNG and gives the copy
a fresh RNG seed, so nothing it decides depends on hidden order or on future chance.

Every bot answers a forced move (one option) at once, without looking ahead and without
drawing from its random generator. Bots are seeded, and with an iteration budget their
choices depend only on the seed and on what their seat sees; a time budget (`seconds=`)
trades that exactness for a bounded wait.
"""
from __future__ import annotations

import math
import random
import time
from contextlib import contextmanager

from ...dsl.bot_settings import BOT_SETTINGS, parse_bot_settings
from ...dsl.errors import UsageError, did_you_mean


def determinize(game, st, seat: int, rng: random.Random):
    """A copy of `st` in which what `seat` cannot see is resampled: the hidden components of
    each zone it cannot see (a grid's too, cell by cell) change places, but only with
    components it cannot tell apart (of a kind whose data declares a `back`: alike in those
    attributes; and alike in every per-component variable), so a deck stacked by tier stays
    stacked by tier."""
    d = st.copy()
    for key, zone in d.zones.items():
        if not zone or game.visible_to(key, seat):
            continue
        top = game.zone_meta[key.split("/")[0]][1] == "top"    # the top component is seen
        if type(zone) is list:
            _reshuffle(game, d, [(zone, index) for index in range(len(zone) - top)], rng)
        else:
            # (a grid's view shows only its size when the seat cannot see it, `top` or not)
            _reshuffle(game, d, [(stack, index) for stack in zone.values() for index in range(len(stack))], rng)
            for cell, stack in zone.items():
                for c in stack:
                    d.loc[c] = (key, cell)
            d.cache.pop(key, None)  # the grid's index, rebuilt when next asked for
    if d.sealed is not None:        # the others' sealed choices are not known: they choose again
        d.sealed = d.sealed.only_for(seat)
    d.rng = rng.getrandbits(64)
    return d


def _reshuffle(game, d, places: list, rng: random.Random) -> None:
    """Shuffle the components at `places` ((list, index) pairs) among those that look alike."""
    if len(places) < 2:
        return
    told_apart_by = _varying_vars(game, d, [stack[index] for stack, index in places])
    groups: dict = {}               # what the seat can tell -> places
    for place in places:
        c = place[0][place[1]]
        look = game.backs[c]
        if told_apart_by:
            look = (look, repr([d.vars[v][c] for v in told_apart_by]))
        groups.setdefault(look, []).append(place)
    for group in groups.values():
        components = sorted(stack[index] for stack, index in group)
        rng.shuffle(components)
        for (stack, index), c in zip(group, components):
            stack[index] = c


_PLAIN_TYPES = (int, str, bool, type(None))     # equal values of one of these have equal reprs


def _varying_vars(game, d, components: list) -> list:
    """The per-component variables whose values can tell `components` apart: all but those
    holding one plain value for every one of them (a deck's owner), which cannot split a
    group and need not be compared card by card."""
    varying = []
    for name in game.per_component_vars:
        column = d.vars[name]
        first = column[components[0]]
        kind = type(first)
        if kind not in _PLAIN_TYPES or any(type(column[c]) is not kind or column[c] != first
                                           for c in components):
            varying.append(name)
    return varying


def evaluations(game, st) -> list:
    """Each seat's evaluation of a position: the rule file's heuristic, else its score."""
    if game.heuristic is not None:
        return [game.heuristic(st, p) for p in range(st.players)]
    return [game.score_sign * s for s in game.result(st).scores]     # lowest-wins scores count negated


def leads(values: list) -> list:
    """Each seat's evaluation minus the mean of the others' (its own value when alone)."""
    n = len(values)
    if n == 1:
        return list(values)
    total = sum(values)
    return [v - (total - v) / (n - 1) for v in values]


def _logistic(x: float) -> float:
    if x < -60:
        return 0.0
    if x > 60:
        return 1.0
    return 1 / (1 + math.exp(-x))


def outcome(game, st) -> list[float]:
    """Each seat's share of the victory in a finished game."""
    winners = game.result(st).winners
    return [1 / len(winners) if p in winners else 0.0 for p in range(st.players)]


def final_value(game, st, margin: float) -> list[float]:
    """Each seat's value of a finished game: its share of the victory; with a `margin`
    (score points), the mean of that share and a logistic of its final score lead in units
    of `margin`, so a wide win counts more than a narrow one."""
    shares = outcome(game, st)
    if not margin:
        return shares
    margins = leads([game.score_sign * s for s in game.result(st).scores])
    return [(share + _logistic(lead / margin)) / 2 for share, lead in zip(shares, margins)]


class RandomBot:
    """Chooses uniformly among the options."""
    name = "random"
    settings = BOT_SETTINGS["random"]

    def __init__(self, seed, **_):
        self.rng = random.Random(seed)

    def describe(self) -> str:
        return self.name

    def choose(self, game, st) -> int:
        if len(st.pending.values) == 1:
            return 0
        return self.rng.randrange(len(st.pending.values))


class GreedyBot:
    """Picks the option with the best value for its own seat: the rule file's heuristic if it
    declares one, else its score; ties broken at random. It judges a whole move: when its
    seat decides again before anyone else does (a move made of several choices), the option
    is worth the best of those follow-up choices, looked at up to `lookahead` positions."""
    name = "greedy"
    settings = BOT_SETTINGS["greedy"]

    def __init__(self, seed, lookahead: int = 200):
        self.rng = random.Random(seed)
        self.lookahead = int(lookahead)

    def describe(self) -> str:
        return f"greedy (lookahead={self.lookahead})"

    def values(self, game, st) -> list:
        seat = st.pending.player
        base = determinize(game, st, seat, self.rng)
        return [move_value(game, base, index, seat, [self.lookahead], _own_value, self.rng)
                for index in range(len(st.pending.values))]

    def choose(self, game, st) -> int:
        if len(st.pending.values) == 1:
            return 0
        values = self.values(game, st)
        best = max(values)
        return self.rng.choice([i for i, v in enumerate(values) if v == best])


def _own_value(game, st, seat: int) -> float:
    """One seat's evaluation (as in `evaluations`, without judging the other seats)."""
    if game.heuristic is not None:
        return game.heuristic(st, seat)
    return game.score_sign * game.result(st).scores[seat]


def _lead_value(game, st, seat: int) -> float:
    return leads(evaluations(game, st))[seat]


def move_value(game, st, index: int, seat: int, budget: list, judge, rng: random.Random) -> float:
    """The value of option `index` for `seat` judged as a whole move (`best_line`)."""
    return best_line(game, st, index, seat, budget, judge, rng)[0]


def best_line(game, st, index: int, seat: int, budget: list, judge, rng: random.Random) -> tuple[float, tuple]:
    """The value for `seat` of option `index` judged as a whole move: after it, while the
    same seat decides again within the same turn, nothing came out of a zone the seat
    cannot see (a draw is chance: looking past it would treat one sample of the hidden
    order as known), and `budget` (a one-item list, spent as positions are looked at)
    allows, the best follow-up; then `judge(game, state, seat)`.
    A finished game is worth far more (a win) or less (a loss) than any judged position.
    Returned with the option ids of the best follow-up choices, in order."""
    trial = st.copy()
    turns = sum(trial.turns)
    unseen = _unseen_sizes(game, trial, seat)
    game.apply_index(trial, index)
    while trial.sealed is not None and trial.sealed.chosen:
        # A simultaneous decision: the others' sealed choices are unknown; guess them at
        # random so that the choices are revealed and the position can be judged.
        game.apply_index(trial, rng.randrange(len(trial.pending.values)))
    if trial.finished:
        return _finished_value(game, trial, seat), ()
    pending = trial.pending
    if budget[0] >= len(pending.values) and _same_move(game, trial, seat, turns, unseen):
        budget[0] -= len(pending.values)
        lines = [best_line(game, trial, i, seat, budget, judge, rng) for i in range(len(pending.values))]
        best = max(range(len(lines)), key=lambda i: lines[i][0])
        return lines[best][0], (_key(pending.values[best]),) + lines[best][1]
    return judge(game, trial, seat), ()


def _same_move(game, st, seat: int, turns: int, unseen: list) -> bool:
    """Whether `seat` decides again within the move that began at `turns` turns, with the
    zones it cannot see still holding `unseen` components (a draw is chance: looking past it
    would treat one sample of the hidden order as known)."""
    return (not st.finished and st.pending.player == seat and sum(st.turns) == turns
            and _unseen_sizes(game, st, seat) == unseen)


def _unseen_sizes(game, st, seat: int) -> list:
    """How many components lie in each zone that `seat` cannot see."""
    return [len(zone) for key, zone in st.zones.items() if not game.visible_to(key, seat)]


class Node:
    __slots__ = ("children", "visits", "total")

    def __init__(self, players: int):
        self.children: dict = {}
        self.visits = 0
        self.total = [0.0] * players


class MCTSBot:
    """Information-set MCTS: UCT over option ids, one tree for the seat's information set,
    a fresh determinization per iteration (so the tree holds only what the seat knows).
    A new leaf is valued after a playout of at most `depth` decisions, each the best of
    `guide` sampled options by the deciding seat's heuristic (1: random playouts; with
    `whole`, each judged at the end of its mover's move), by the leaf's change of each
    seat's lead over the others (the heuristic, else the score) through a logistic, or by
    the victory shares when the game has ended (with `margin`, mixed with the final score
    lead: `final_value`). With `paired`, flat Monte Carlo over the root shortlist instead of
    a tree (`_paired_search`); a shortlist of one is chosen without a search. `trees` > 1
    searches that many independent trees (root parallelism) with the iterations split
    among them and adds their visits; a worker pool runs them side by side with the same
    result as one after another."""
    name = "mcts"
    settings = BOT_SETTINGS["mcts"]
    pool = None     # a multiprocessing pool for root parallelism (set by the command line)

    def __init__(self, seed, iterations: int = 400, seconds: float | None = None, depth: int = 0,
                 guide: int = 3, exploration: float = 0.7, width: int = 6, trees: int = 1,
                 follow: int = 0, margin: float = 0, whole: int = 0, paired: int = 0):
        self.rng = random.Random(seed)
        self.iterations = int(iterations)
        self.seconds = float(seconds) if seconds is not None else None
        self.depth = int(depth)
        self.guide = int(guide)
        self.c = float(exploration)
        self.width = int(width)
        self.trees = int(trees)
        self.follow = int(follow)
        self.margin = float(margin)
        self.whole = int(whole)
        self.paired = int(paired)

    def describe(self) -> str:
        budget = f"seconds={self.seconds:g}" if self.seconds else f"iterations={self.iterations}"
        return (f"mcts ({budget}, depth={self.depth}, guide={self.guide}, exploration={self.c:g}, width={self.width}"
                + (f", trees={self.trees}" if self.trees > 1 else "")
                + (f", follow={self.follow}" if self.follow else "")
                + (f", margin={self.margin:g}" if self.margin else "")
                + (f", whole={self.whole}" if self.whole else "")
                + (f", paired={self.paired}" if self.paired else "") + ")")

    # ------------------------------------------------------------------ search
    def search(self, game, st) -> Node:
        """The root of the search from `st` (the children keyed by option value); with
        several trees, their visits and totals added."""
        if self.trees == 1:
            return _search_tree(game, st, self._config(self.iterations), self.rng.getrandbits(64))
        shares = [self.iterations // self.trees + (k < self.iterations % self.trees) for k in range(self.trees)]
        seeds = [self.rng.getrandbits(64) for _ in range(self.trees)]
        jobs = [(self._config(max(1, n)), s) for n, s in zip(shares, seeds)]
        if MCTSBot.pool is not None and _POOL_GAME[0] is game:
            roots = MCTSBot.pool.starmap(_search_in_worker, [(st, config, s) for config, s in jobs])
        else:
            roots = [_search_tree(game, st, config, s) for config, s in jobs]
        return _merge(roots, st.players)

    def _config(self, iterations: int) -> tuple:
        seconds = self.seconds / self.trees if self.seconds and MCTSBot.pool is None else self.seconds
        # (with a pool the trees search side by side, each for the whole time)
        return (iterations, seconds, self.depth, self.guide, self.c, self.width, self.follow, self.margin,
                self.whole, self.paired)

    def visits(self, game, st) -> dict:
        """Visits of each option (by option id) after a search from `st`."""
        root = self.search(game, st)
        return {oid: _visits(root, v) for oid, v in zip(game.option_ids(st), st.pending.values)}

    def choose(self, game, st) -> int:
        if len(st.pending.values) == 1:
            return 0
        root = self.search(game, st)
        counts = [_visits(root, v) for v in st.pending.values]
        best = max(counts)
        tied = [i for i, n in enumerate(counts) if n == best]
        if len(tied) > 1:   # equal visits: the better mean value, then at random
            seat = st.pending.player
            means = {i: root.children[_key(st.pending.values[i])].total[seat] / best if best else 0 for i in tied}
            top = max(means.values())
            tied = [i for i in tied if means[i] == top]
        return self.rng.choice(tied)


_POOL_GAME = [None]     # the game the root-parallel pool's processes inherited when forked


@contextmanager
def root_parallel(game, workers: int):
    """While open, MCTS bots with `trees` > 1 playing `game` search their trees over
    `workers` forked processes (the same visits as one after another)."""
    if workers < 2:
        yield
        return
    import multiprocessing
    _POOL_GAME[0] = game
    pool = multiprocessing.get_context("fork").Pool(workers)
    MCTSBot.pool = pool
    try:
        yield
    except BaseException:
        pool.terminate()
        raise
    else:
        # Workers finish and exit on their own: a worker terminated while it holds the task
        # queue's lock can leave another waiting for it forever.
        pool.close()
    finally:
        pool.join()
        MCTSBot.pool = None
        _POOL_GAME[0] = None


def _search_in_worker(st, config, seed) -> Node:
    return _search_tree(_POOL_GAME[0], st, config, seed)


def _merge(roots: list, players: int) -> Node:
    merged = Node(players)
    for root in roots:
        merged.visits += root.visits
        for key, child in root.children.items():
            into = merged.children.get(key)
            if into is None:
                into = merged.children[key] = Node(players)
            into.visits += child.visits
            into.total = [a + b for a, b in zip(into.total, child.total)]
    return merged


def _search_tree(game, st, config: tuple, seed: int) -> Node:
    """One information-set tree searched from `st` for the seat that decides there."""
    iterations, seconds, depth, guide, c, width, follow, margin, whole, paired = config
    rng = random.Random(seed)
    seat = st.pending.player
    root = Node(st.players)
    base = leads(evaluations(game, st))
    sample = determinize(game, st, seat, rng)
    shortlist, scale = _shortlist(game, sample, base[seat], width, rng)
    if len(shortlist) == 1 < len(st.pending.values):    # `width` left one option: the choice
        only = root.children[_key(st.pending.values[shortlist[0]])] = Node(st.players)
        only.visits = root.visits = 1
        return root
    # With `follow`, a root option stands for a whole move: it is followed by the seat's best
    # next choices within its turn (as greedy judges them), so the search compares whole moves.
    lines = {i: best_line(game, sample, i, seat, [follow], _lead_value, rng)[1] for i in shortlist} if follow else {}
    deadline = time.perf_counter() + seconds if seconds else None
    if paired:
        return _paired_search(game, st, root, shortlist, lines, base, scale, config, rng, deadline)
    done = 0
    while (done < iterations) if deadline is None else (time.perf_counter() < deadline or done == 0):
        det = determinize(game, st, seat, rng)
        node, path = root, [root]
        while not det.finished:
            values = det.pending.values
            ids = [_key(v) for v in values]
            allowed = shortlist if node is root else range(len(ids))
            untried = [i for i in allowed if ids[i] not in node.children]
            if untried:
                i = rng.choice(untried)
                child = node.children[ids[i]] = Node(det.players)
                game.apply_index(det, i)
                if node is root and lines:
                    _follow(game, det, seat, lines[i])
                path.append(child)
                break
            if len(values) == 1:
                best = 0
            else:
                mover = det.pending.player
                log_n = math.log(node.visits + 1)
                best, best_score = 0, -1.0
                for i in allowed:
                    child = node.children[ids[i]]
                    score = child.total[mover] / child.visits + c * math.sqrt(log_n / child.visits)
                    if score > best_score:
                        best, best_score = i, score
            game.apply_index(det, best)
            if node is root and lines:
                _follow(game, det, seat, lines[best])
            node = node.children[ids[best]]
            path.append(node)
        _playout(game, det, depth, guide, rng, whole)
        reward = _leaf_value(game, det, margin, base, scale)
        for n in path:
            n.visits += 1
            total = n.total
            for p, r in enumerate(reward):
                total[p] += r
        done += 1
    return root


def _paired_search(game, st, root: Node, shortlist: list, lines: dict, base: list, scale: float,
                   config: tuple, rng: random.Random, deadline) -> Node:
    """Flat Monte Carlo with common random numbers: each round draws one determinization and
    one playout seed and plays every shortlisted root option from them, so the options meet
    the same hidden order and the same playout luck, and their difference is the option's
    own. Rounds go on while the iterations (one per option played) or the time last."""
    iterations, _, depth, guide, _, _, _, margin, whole, _ = config
    seat = st.pending.player
    ids = [_key(v) for v in st.pending.values]
    for i in shortlist:
        root.children[ids[i]] = Node(st.players)
    done = 0
    while (done < iterations) if deadline is None else (time.perf_counter() < deadline or done == 0):
        det = determinize(game, st, seat, rng)
        seed = rng.getrandbits(64)
        for i in shortlist:
            trial = det.copy()
            game.apply_index(trial, i)
            if lines:
                _follow(game, trial, seat, lines[i])
            _playout(game, trial, depth, guide, random.Random(seed), whole)
            reward = _leaf_value(game, trial, margin, base, scale)
            for n in (root, root.children[ids[i]]):
                n.visits += 1
                n.total = [t + r for t, r in zip(n.total, reward)]
            done += 1
    return root


def _leaf_value(game, det, margin: float, base: list, scale: float) -> list:
    """Each seat's value of a position reached by a search: a finished game's `final_value`,
    else the change of its lead since the root (`base`) through a logistic of unit `scale`."""
    if det.finished:
        return final_value(game, det, margin)
    return [_logistic((lead - b) / scale) for lead, b in zip(leads(evaluations(game, det)), base)]


def _follow(game, det, seat: int, line: tuple) -> None:
    """Make `seat`'s choices `line` (option ids) while they are still offered to it."""
    for oid in line:
        if det.finished or det.pending.player != seat:
            return
        ids = [_key(v) for v in det.pending.values]
        if oid not in ids:
            return
        game.apply_index(det, ids.index(oid))


def _shortlist(game, st, base: float, width: int, rng: random.Random) -> tuple[list, float]:
    """The root options the search considers and the unit of its logistic. Each option is
    judged as a whole move by the deciding seat's lead (as `greedy` does, but against the
    others): the best `width` of them (and any tied with the last; 0: all) are searched.
    The unit is half the spread (at least 1) of the lead's change over the options, each
    judged at once."""
    seat, n = st.pending.player, len(st.pending.values)
    steps = [move_value(game, st, i, seat, [0], _lead_value, rng) - base for i in range(n)]
    changes = [v for v in steps if abs(v) < 1e11]
    scale = max(1.0, (max(changes) - min(changes)) / 2) if changes else 1.0
    if not width or width >= n:
        return list(range(n)), scale
    values = [move_value(game, st, i, seat, [GreedyBot.settings["lookahead"][2]], _lead_value, rng)
              for i in range(n)]
    cut = sorted(values, reverse=True)[width - 1]
    return [i for i in range(n) if values[i] >= cut], scale


def _playout(game, det, depth: int, guide: int, rng: random.Random, whole: int = 0) -> None:
    """Up to `depth` decisions, each the best for its decider among `guide` sampled options;
    with `whole`, each sampled option judged as a whole move (`_whole_move_value`)."""
    for _ in range(depth):
        if det.finished:
            return
        n = len(det.pending.values)
        if guide <= 1 or n == 1:
            game.apply_index(det, rng.randrange(n))
            continue
        mover = det.pending.player
        best, best_value, best_state = None, None, None
        sampled = rng.sample(range(n), min(guide, n))
        if whole:
            values = [_whole_move_value(game, det, i, mover) for i in sampled]
            game.apply_index(det, sampled[values.index(max(values))])
            continue
        for i in sampled:
            trial = det.copy()
            game.apply_index(trial, i)
            value = math.inf if trial.finished and mover in game.result(trial).winners else \
                (_own_value(game, trial, mover) if not trial.finished else -math.inf)
            if best_value is None or value > best_value:
                best, best_value, best_state = i, value, trial
        _assign(det, best_state)


def _whole_move_value(game, st, index: int, seat: int) -> float:
    """`seat`'s value of option `index` at the end of its move: while it decides again within
    the same turn (and nothing came out of a zone it cannot see), each next choice is the
    best for it at once; a cheap, greedy-ordered stand-in for `best_line`'s full search."""
    trial = st.copy()
    turns = sum(trial.turns)
    unseen = _unseen_sizes(game, trial, seat)
    game.apply_index(trial, index)
    while _same_move(game, trial, seat, turns, unseen):
        options = len(trial.pending.values)
        if options == 1:
            game.apply_index(trial, 0)
            continue
        best, best_value = None, None
        for i in range(options):
            step = trial.copy()
            game.apply_index(step, i)
            value = _finished_value(game, step, seat) if step.finished else _own_value(game, step, seat)
            if best_value is None or value > best_value:
                best, best_value = step, value
        trial = best
    return _finished_value(game, trial, seat) if trial.finished else _own_value(game, trial, seat)


def _finished_value(game, st, seat: int) -> float:
    """A finished game's value for `seat`: far above (a win) or below (a loss) any judged position."""
    return 1e12 * (outcome(game, st)[seat] - 0.5)


def _assign(target, source) -> None:
    for slot in type(source).__slots__:
        setattr(target, slot, getattr(source, slot))


def _key(value):
    return tuple(value) if type(value) is list else value


def _visits(root: Node, value) -> int:
    child = root.children.get(_key(value))
    return child.visits if child is not None else 0


BOTS = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}


def bot_settings(specs: list, game=None) -> dict:
    """Each bot spec with every setting spelled out (defaults included), for reports."""
    return {spec: make_bot(spec, 0, game).describe() for spec in dict.fromkeys(specs)}

def make_bot(spec: str, seed, game=None):
    """A bot from a spec like 'random', 'greedy' or 'mcts:iterations=300:depth=8'. Every
    setting must be a finite number in its range (a whole one where it counts), else a
    usage error. With a `game` whose rule file declares default settings for the bot
    (`bot mcts "depth=8"`), those apply where the spec gives none."""
    name, *settings = [part.strip() for part in str(spec).split(":")]
    if name not in BOTS:
        hint = did_you_mean(name, BOTS)
        raise UsageError(f"unknown bot '{name}'; bots: {', '.join(BOTS)}" + (f"; {hint}" if hint else ""))
    options = dict(game_bot_defaults(game, name))
    options.update(parse_bot_settings(name, settings))
    return BOTS[name](seed, **options)


def game_bot_defaults(game, name: str) -> dict:
    """The settings of bot `name` that `game`'s rule file declares (checked when it loaded)."""
    text = game.bot_defaults.get(name) if game is not None else None
    return parse_bot_settings(name, text.split(":")) if text else {}


