"""Information-set Monte Carlo tree search (MCTS): the bot, its search (a tree, or paired flat
Monte Carlo over a shortlist), playouts, and root parallelism over a pool of processes.
"""
from __future__ import annotations

import math
import random
import time
from contextlib import contextmanager

from ...dsl.bot_settings import BOT_SETTINGS
from .determinize import determinize
from .reuse import kept_node
from .simple import GreedyBot
from .values import _lead_value, _logistic, _own_value, evaluations, final_value, leads
from ..run.processes import forked_pool
from .whole_moves import _key, _whole_move_value, best_line, move_value


class Node:
    __slots__ = ("children", "visits", "total")

    def __init__(self, players: int):
        self.children: dict = {}
        self.visits = 0
        self.total = [0.0] * players


class SearchLimitReached(Exception):
    """A search ran past the CPU `limit` its caller set (see `MCTSBot.limit`)."""


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
    result as one after another. General enhancements, each off by default: `decisive`
    (1: a move that wins at once is taken; 2: also moves that let the next seat win at once
    are not searched), `widen` (progressive widening of the tree's nodes), `mast`
    (move-average sampling in random playouts), `history` (progressive history: a bias in
    the tree's selection towards options with a high move-average reward) and `reuse` (the
    tree kept from one decision to the next, `reuse.kept_node`)."""
    name = "mcts"
    settings = BOT_SETTINGS["mcts"]
    pool = None     # a multiprocessing pool for root parallelism (set by the command line)
    limit = None    # CPU seconds after which a search raises SearchLimitReached (set by `tune`)
    meter = None    # [setup CPU s, iterations run]: what this bot's searches add up (set by `tune`)

    def __init__(self, seed, iterations: int = 400, seconds: float | None = None, depth: int = 0,
                 guide: int = 3, exploration: float = 0.7, width: int = 6, trees: int = 1,
                 follow: int = 0, margin: float = 0, whole: int = 0, paired: int = 0, decisive: int = 0,
                 widen: float = 0, mast: float = 0, reuse: int = 0, history: float = 0):
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
        self.decisive = int(decisive)
        self.widen = float(widen)
        self.mast = float(mast)
        self.reuse = int(reuse)
        self.history = float(history)
        self._kept = None           # with `reuse`: (game, the position searched, its root, its move table)
        self.kept_visits: list = []     # with `reuse`: per search, the visits its root kept from the last

    def describe(self) -> str:
        budget = f"seconds={self.seconds:g}" if self.seconds else f"iterations={self.iterations}"
        return (f"mcts ({budget}, depth={self.depth}, guide={self.guide}, exploration={self.c:g}, width={self.width}"
                + (f", trees={self.trees}" if self.trees > 1 else "")
                + (f", follow={self.follow}" if self.follow else "")
                + (f", margin={self.margin:g}" if self.margin else "")
                + (f", whole={self.whole}" if self.whole else "")
                + (f", paired={self.paired}" if self.paired else "")
                + (f", decisive={self.decisive}" if self.decisive else "")
                + (f", widen={self.widen:g}" if self.widen else "")
                + (f", mast={self.mast:g}" if self.mast else "")
                + (f", reuse={self.reuse}" if self.reuse else "")
                + (f", history={self.history:g}" if self.history else "") + ")")

    # ------------------------------------------------------------------ search
    def search(self, game, st, root: Node | None = None, table: dict | None = None) -> Node:
        """The root of the search from `st` (the children keyed by option value); with
        several trees, their visits and totals added. A single tree may go on from a kept
        `root` and move `table` (tree reuse)."""
        if self.trees == 1:
            return _search_tree(game, st, self._config(self.iterations), self.rng.getrandbits(64), root, table,
                                self.meter)
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
                self.whole, self.paired, self.decisive, self.widen, self.mast, self.limit, self.history)

    def visits(self, game, st) -> dict:
        """Visits of each option (by option id) after a search from `st`."""
        root = self.search(game, st)
        return {oid: _visits(root, v) for oid, v in zip(game.option_ids(st), st.pending.values)}

    def reuses(self) -> bool:
        """Whether this bot keeps its tree between decisions: `reuse` with one tree, no
        paired playouts and no `follow` (whose root options stand for several decisions)."""
        return bool(self.reuse) and self.trees == 1 and not self.paired and not self.follow

    def choose(self, game, st) -> int:
        if len(st.pending.values) == 1:
            return 0
        if self.reuses():
            root, table = self._kept_tree(game, st)
            root = self.search(game, st, root, table)
            self._kept = (game, st.copy(), root, table)
        else:
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

    def _kept_tree(self, game, st) -> tuple:
        """The kept tree's node for `st` and the kept move table, or a fresh start (None, {})."""
        kept, self._kept = self._kept, None
        node = kept_node(game, kept[1], kept[2], st) if kept is not None and kept[0] is game else None
        self.kept_visits.append(node.visits if node is not None else 0)
        return (node, kept[3]) if node is not None else (None, {})


_POOL_GAME = [None]     # the game the root-parallel pool's processes inherited when forked


@contextmanager
def root_parallel(game, workers: int):
    """While open, MCTS bots with `trees` > 1 playing `game` search their trees over
    `workers` forked processes (the same visits as one after another)."""
    if workers < 2:
        yield
        return
    _POOL_GAME[0] = game
    try:
        with forked_pool(workers) as pool:
            MCTSBot.pool = pool
            yield
    finally:
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


def _search_tree(game, st, config: tuple, seed: int, kept: Node | None = None, table: dict | None = None,
                 meter: list | None = None) -> Node:
    """One information-set tree searched from `st` for the seat that decides there (going on
    from the `kept` node of an earlier search and its move `table`, if given). With a
    `meter`, the CPU time before the first iteration (the shortlist, decisive moves, whole
    moves: a cost the iterations do not change) and the iterations run are added to it."""
    iterations, seconds, depth, guide, c, width, follow, margin, whole, paired, decisive, widen, mast, limit, \
        history = config
    began = time.process_time()
    stop = began + limit if limit else None
    rng = random.Random(seed)
    seat = st.pending.player
    root = Node(st.players) if kept is None else kept
    base = leads(evaluations(game, st))
    sample = determinize(game, st, seat, rng)
    if widen and not width:     # wide decisions: the logistic's unit from a sample of the options
        shortlist, scale = _sampled_scale(game, sample, base[seat], rng)
    else:
        shortlist, scale = _shortlist(game, sample, base[seat], width, rng)
    if decisive:
        try:        # (trying every option against every answer may cost many budgets in a wide game)
            win, safe = decisive_options(game, sample, seat, decisive > 1, stop)
        except SearchLimitReached:
            _metered(meter, time.process_time() - began, 0)
            raise
        shortlist = [win] if win is not None else ([i for i in shortlist if i in safe] or sorted(safe))
    if len(shortlist) == 1 < len(st.pending.values):    # `width` left one option: the choice
        root = Node(st.players)
        only = root.children[_key(st.pending.values[shortlist[0]])] = Node(st.players)
        only.visits = root.visits = 1
        _metered(meter, time.process_time() - began, 0)
        return root
    # With `follow`, a root option stands for a whole move: it is followed by the seat's best
    # next choices within its turn (as greedy judges them), so the search compares whole moves.
    lines = {i: best_line(game, sample, i, seat, [follow], _lead_value, rng)[1] for i in shortlist} if follow else {}
    deadline = time.perf_counter() + seconds if seconds else None
    _metered(meter, time.process_time() - began, 0)
    if paired:
        return _paired_search(game, st, root, shortlist, lines, base, scale, config, rng, deadline, stop, meter)
    # move averages: (mover, option id) -> [reward sum, count]
    table = (table if table is not None else {}) if mast or history else None
    root_values = st.pending.values
    root_ids = [_key(v) for v in root_values]    # every determinization shares the root's options
    done = 0
    while (done < iterations) if deadline is None else (time.perf_counter() < deadline or done == 0):
        if stop is not None and time.process_time() > stop:
            _metered(meter, 0.0, done)
            raise SearchLimitReached()
        det = determinize(game, st, seat, rng)
        node, path = root, [root]
        moves = [] if table is not None else None
        while not det.finished:
            values = det.pending.values
            ids = root_ids if values is root_values else [_key(v) for v in values]
            mover = det.pending.player
            allowed = shortlist if node is root else range(len(ids))
            untried = [i for i in allowed if ids[i] not in node.children]
            # (widening counts the children of the options offered here: a node of an
            # information-set tree also holds children of options other determinizations offered)
            if untried and (not widen or len(allowed) - len(untried) < widen * math.sqrt(node.visits + 1)):
                i = rng.choice(untried)
                child = node.children[ids[i]] = Node(det.players)
                game.apply_index(det, i)
                if moves is not None:
                    moves.append((mover, ids[i]))
                if node is root and lines:
                    _follow(game, det, seat, lines[i])
                path.append(child)
                break
            if len(values) == 1:
                best = 0
            else:
                log_n = math.log(node.visits + 1)
                best, best_score = 0, -1.0
                for i in allowed:
                    child = node.children.get(ids[i])
                    if child is None:       # not yet let in by progressive widening
                        continue
                    score = child.total[mover] / child.visits + c * math.sqrt(log_n / child.visits)
                    if history:     # progressive history: W H(a) / (n(a) (1 - mean(a)) + 1)
                        entry = table.get((mover, ids[i]))
                        score += history * (entry[0] / entry[1] if entry else 0.5) / \
                            (child.visits - child.total[mover] + 1)
                    if score > best_score:
                        best, best_score = i, score
            game.apply_index(det, best)
            if moves is not None:
                moves.append((mover, ids[best]))
            if node is root and lines:
                _follow(game, det, seat, lines[best])
            node = node.children[ids[best]]
            path.append(node)
        _playout(game, det, depth, guide, rng, whole, mast, table, moves)
        reward = _leaf_value(game, det, margin, base, scale)
        for n in path:
            n.visits += 1
            total = n.total
            for p, r in enumerate(reward):
                total[p] += r
        if moves:
            for mover, oid in moves:
                entry = table.get((mover, oid))
                if entry is None:
                    table[(mover, oid)] = [reward[mover], 1]
                else:
                    entry[0] += reward[mover]
                    entry[1] += 1
        done += 1
    _metered(meter, 0.0, done)
    return root


def _metered(meter: list | None, setup: float, iterations: int) -> None:
    if meter is not None:
        meter[0] += setup
        meter[1] += iterations


def decisive_options(game, st, seat: int, anti: bool, stop: float | None = None) -> tuple:
    """Decisive and anti-decisive moves (Teytaud and Teytaud 2010): an option after which
    `seat` alone has won at once (returned first, else None), and the options worth
    searching: with `anti`, those after which the next seat to decide, an opponent, has no
    option that wins the game at once for it alone (all of them when none is safe). Past
    the CPU time `stop`, SearchLimitReached is raised before the next option is tried."""
    n = len(st.pending.values)
    safe = set(range(n))
    for i in range(n):
        if stop is not None and time.process_time() > stop:
            raise SearchLimitReached()
        trial = st.copy()
        trial.quiet = True          # imagined: its log is never read
        game.apply_index(trial, i)
        if trial.finished:
            if list(game.result(trial).winners) == [seat]:
                return i, {i}
            continue
        if anti and trial.pending.player != seat and _has_winning_reply(game, trial):
            safe.discard(i)
    return None, safe or set(range(n))


def _has_winning_reply(game, st) -> bool:
    mover = st.pending.player
    for j in range(len(st.pending.values)):
        trial = st.copy()
        trial.quiet = True
        game.apply_index(trial, j)
        if trial.finished and list(game.result(trial).winners) == [mover]:
            return True
    return False


def _paired_search(game, st, root: Node, shortlist: list, lines: dict, base: list, scale: float,
                   config: tuple, rng: random.Random, deadline, stop=None, meter=None) -> Node:
    """Flat Monte Carlo with common random numbers: each round draws one determinization and
    one playout seed and plays every shortlisted root option from them, so the options meet
    the same hidden order and the same playout luck, and their difference is the option's
    own. Rounds go on while the iterations (one per option played) or the time last."""
    iterations, _, depth, guide, _, _, _, margin, whole, _, _, _, _, _, _ = config
    seat = st.pending.player
    ids = [_key(v) for v in st.pending.values]
    for i in shortlist:
        root.children[ids[i]] = Node(st.players)
    done = 0
    while (done < iterations) if deadline is None else (time.perf_counter() < deadline or done == 0):
        if stop is not None and time.process_time() > stop:
            _metered(meter, 0.0, done)
            raise SearchLimitReached()
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
    _metered(meter, 0.0, done)
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


SCALE_SAMPLE = 16      # options judged for the logistic's unit under progressive widening


def _sampled_scale(game, st, base: float, rng: random.Random) -> tuple[list, float]:
    """Every root option, and the logistic's unit as `_shortlist` works it out, but from at
    most SCALE_SAMPLE options drawn at random: with progressive widening and no shortlist
    (`widen`, `width=0`), judging each of hundreds of options once would cost more than
    the search."""
    seat, n = st.pending.player, len(st.pending.values)
    drawn = range(n) if n <= SCALE_SAMPLE else rng.sample(range(n), SCALE_SAMPLE)
    steps = [move_value(game, st, i, seat, [0], _lead_value, rng) - base for i in drawn]
    changes = [v for v in steps if abs(v) < 1e11]
    return list(range(n)), max(1.0, (max(changes) - min(changes)) / 2) if changes else 1.0


def _shortlist(game, st, base: float, width: int, rng: random.Random) -> tuple[list, float]:
    """The root options the search considers and the unit of its logistic. Each option is
    judged as a whole move by the deciding seat's lead (as `greedy` does, but against the
    others): the best `width` of them (and any tied with the last; 0: all) are searched.
    The unit is half the spread (at least 1) of the lead's change over the options, each
    judged at once. (An option that ends its mover's move at once is judged once: looking
    further finds nothing more.)"""
    seat, n = st.pending.player, len(st.pending.values)
    cuts = [[] for _ in range(n)]
    judged = [move_value(game, st, i, seat, [0], _lead_value, rng, cuts[i]) for i in range(n)]
    steps = [v - base for v in judged]
    changes = [v for v in steps if abs(v) < 1e11]
    scale = max(1.0, (max(changes) - min(changes)) / 2) if changes else 1.0
    if not width or width >= n:
        return list(range(n)), scale
    lookahead = GreedyBot.settings["lookahead"][2]
    values = [move_value(game, st, i, seat, [lookahead], _lead_value, rng) if cuts[i] else judged[i]
              for i in range(n)]
    cut = sorted(values, reverse=True)[width - 1]
    return [i for i in range(n) if values[i] >= cut], scale


def _playout(game, det, depth: int, guide: int, rng: random.Random, whole: int = 0, mast: float = 0,
             table: dict | None = None, moves: list | None = None) -> None:
    """Up to `depth` decisions, each the best for its decider among `guide` sampled options;
    with `whole`, each sampled option judged as a whole move (`_whole_move_value`). With
    `mast` and `guide` 1, move-average sampling (MAST, Finnsson and Bjornsson 2008): a share
    `mast` of the decisions take the option with the best mean reward for its mover so far
    in this search (`table`; an option never played counts 0.5), the others one at random;
    the moves made are added to `moves`."""
    for _ in range(depth):
        if det.finished:
            return
        n = len(det.pending.values)
        if guide <= 1 or n == 1:
            if mast and n > 1:
                _mast_step(game, det, n, mast, table, moves, rng)
            else:
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
        det.become(best_state)


def _mast_step(game, det, n: int, mast: float, table: dict, moves: list, rng: random.Random) -> None:
    mover = det.pending.player
    ids = [_key(v) for v in det.pending.values]
    if rng.random() < mast:
        means = []
        for oid in ids:
            entry = table.get((mover, oid))
            means.append(entry[0] / entry[1] if entry else 0.5)
        top = max(means)
        index = rng.choice([i for i in range(n) if means[i] == top])
    else:
        index = rng.randrange(n)
    moves.append((mover, ids[index]))
    game.apply_index(det, index)


def _visits(root: Node, value) -> int:
    child = root.children.get(_key(value))
    return child.visits if child is not None else 0
