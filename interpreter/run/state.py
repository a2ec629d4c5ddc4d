"""Game state as plain data: zones, variables, the RNG, and where in the rules play stands.

The program counter lives in `frames` (a stack of [code name, pc, locals]), so a state can
be copied cheaply, compared, written to JSON and read back exactly, and resumed at any
decision. Lists held in variables and locals are never changed in place (assignments copy
on write), so a copy shares them; zone containers and turn counters are copied.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from sys import getrefcount
from weakref import ref

from .records import Record, record_type
from .shaped import Placement


class Pending:
    """The decision play waits on: who chooses among which values, at which `choose`.
    Its prompt, labels and ids are derived on demand from the choose statement (`site`).
    Never changed once made (a plain class, not a frozen dataclass: one is made per decision,
    and a frozen dataclass is slow to build).

    The option values are worked out when first asked for (`values`), not when play stops:
    a bot that only needs to reach the next decision (judging an option by the position it
    leads to) never pays for the options it does not look at. Until then the pending decision
    keeps the state it belongs to (`State.copy` binds a copy to the copy) and the `evaluate`
    function of the engine that works them out (`Game.options_now`). It keeps the state by a
    weak reference: a strong one would make each state and its decision a reference cycle, so
    the thousands of positions a bot imagines and drops without asking for their options
    would wait for Python's cycle collector instead of being freed at once (in guided
    playouts the collector took a tenth of the search's CPU: docs/performance.md). A pending decision moved
    to another state is bound to it (`bound_to`, as `State.copy` and `State.become` do), and
    one still held when its state is dropped keeps the state from then on (`State.__del__`)."""
    __slots__ = ("player", "values", "slot", "site", "_state", "_evaluate", "_source")

    def __init__(self, player: int, values: tuple, slot: int, site: tuple):
        self.player = player
        self.values = values
        self.slot = slot            # the local that receives the chosen value
        self.site = site            # (code name, pc) of the choose instruction
        self._state = None          # while the values are not known: the state to find them in

    @staticmethod
    def later(player: int, slot: int, site: tuple, st, evaluate, source) -> "Pending":
        """A decision whose values `evaluate(st, pending)` works out (with the generated function
        `source`) when first asked for."""
        p = Pending.__new__(Pending)
        p.player, p.slot, p.site = player, slot, site
        p._state, p._evaluate, p._source = ref(st), evaluate, source
        return p

    def __getattr__(self, name):
        # Only reached while `values` is unset (a slot set once is found without this).
        if name != "values":
            raise AttributeError(name)
        st = self._state()
        if st is None:
            raise RuntimeError("the options of a decision whose state is gone: bind the decision to "
                               "the state that keeps it (Pending.bound_to)")
        values = self._evaluate(st, self)
        self.values = values
        self._state = None          # the state may change from now on: never read it again
        return values

    def bound_to(self, st) -> "Pending":
        """This decision as one of a copy of its state (`State.copy`): the same values, worked
        out from the copy if not yet known, so changes to the original cannot reach them."""
        if self._state is None:
            return self
        return Pending.later(self.player, self.slot, self.site, st, self._evaluate, self._source)

    def __reduce__(self):
        # Sent to another process (root-parallel search) or pickled: as a decision whose
        # values are known (the engine that works them out stays in this process).
        return Pending, (self.player, self.values, self.slot, self.site)

    def _key(self) -> tuple:
        return self.player, self.values, self.slot, self.site

    def __eq__(self, other) -> bool:
        return self._key() == other._key() if type(other) is Pending else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "Pending(player={!r}, values={!r}, slot={!r}, site={!r})".format(*self._key())


@dataclass(frozen=True)
class Sealed:
    """A simultaneous decision in progress (`choose ... by each P in LIST`): who chooses, each
    one's options, and the choices made so far. A choice stays sealed (only its owner sees it)
    until the last player has chosen; then all are revealed together as a list by seat."""
    players: tuple          # the seats that choose, in the order they are asked
    options: tuple          # per seat of `players`: its option values
    chosen: tuple           # (seat, value) pairs, in the order made
    slot: int               # the local that receives the list by seat
    binder: int             # the local that names the seat while its decision is shown
    site: tuple             # (code name, pc) of the choose instruction

    def waiting(self) -> list:
        done = {seat for seat, _ in self.chosen}
        return [p for p in self.players if p not in done]

    def only_for(self, seat: int) -> "Sealed":
        """The decision as `seat` knows it: the others' sealed choices are not made yet."""
        return replace(self, chosen=tuple((p, v) for p, v in self.chosen if p == seat))

    def to_json(self) -> dict:
        return {"players": list(self.players), "options": [encode(list(o)) for o in self.options],
                "chosen": [[p, encode(v)] for p, v in self.chosen], "slot": self.slot,
                "binder": self.binder, "site": list(self.site)}

    @staticmethod
    def from_json(data: dict) -> "Sealed":
        return Sealed(tuple(data["players"]), tuple(tuple(decode(o)) for o in data["options"]),
                      tuple((p, decode(v)) for p, v in data["chosen"]), data["slot"], data["binder"],
                      tuple(data["site"]))


class _Kept:
    """A strong reference called like a weak one (see `State.__del__`)."""
    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    def __call__(self):
        return self.state


class _RefProbe:
    """`State.__del__`'s reading of a decision's reference count, on an object only its slot
    holds: the count that means "no one else holds it", measured on this Python rather than
    assumed (what a call or a local adds to a count differs between versions)."""
    __slots__ = ("pending",)

    def count(self, _refs=getrefcount) -> int:
        p = self.pending
        return _refs(p)


def _count_alone() -> int:
    probe = _RefProbe()
    probe.pending = object()
    return probe.count()


_HELD_BY_STATE_ALONE = _count_alone()


class State:
    __slots__ = ("players", "vars", "zones", "loc", "rng", "frames", "pending", "current",
                 "turns", "finished", "history", "log", "endings", "sealed", "cache", "memo", "quiet",
                 "__weakref__")
    # `__weakref__`: a lazy Pending keeps its state by a weak reference (see Pending).
    # `quiet`: a position a bot imagines (determinize.py), whose log no one reads: `log`
    # statements write nothing there (unless their text draws random numbers). Not part of
    # the state's value either; a copy keeps it.
    # `cache` holds indexes derived from the grids (interpreter/run/indexes.py), `memo` the results
    # of pure fns while nothing changes. Neither is part of the state's value: they are not
    # compared or saved, and a copy starts with an empty memo.
    # `sealed`: the simultaneous decision in progress (a Sealed), or None.
    # `endings`: the names of the named endings (`finish "NAME"`) and fallbacks (`fallback
    # "NAME"`) that decided something in this game, each once, in the order they happened.
    DATA = ("players", "vars", "zones", "loc", "rng", "frames", "pending", "current",
            "turns", "finished", "history", "log", "endings", "sealed")

    def copy(self) -> "State":
        s = State.__new__(State)
        s.players = self.players
        s.vars = dict(self.vars)
        s.zones = {k: (v[:] if type(v) is list else {c: st[:] for c, st in v.items()})
                   for k, v in self.zones.items()}
        s.loc = self.loc[:]
        s.rng = self.rng
        s.frames = [[f[0], f[1], f[2][:]] for f in self.frames]
        p = self.pending
        s.pending = p if p is None else p.bound_to(s)
        s.current = self.current
        s.turns = self.turns[:]
        s.finished = self.finished
        s.history = self.history[:]
        s.log = self.log[:]
        s.endings = self.endings[:]
        s.sealed = self.sealed
        s.cache = dict(self.cache)      # indexes are replaced, never changed: share them
        s.memo = {}
        s.quiet = self.quiet
        return s

    def become(self, source: "State") -> None:
        """Make this state `source` itself, sharing its containers (`source` is dropped after):
        a playout keeps the sampled option it chose without copying it back. Its decision is
        bound to this state, which keeps it from now on."""
        for slot in _VALUE_SLOTS:
            setattr(self, slot, getattr(source, slot))
        p = source.pending
        self.pending = p if p is None else p.bound_to(self)

    def __eq__(self, other) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in State.DATA)

    __hash__ = None

    def __del__(self, _refs=getrefcount, _alone=_HELD_BY_STATE_ALONE, _kept=_Kept) -> None:
        # A state dropped while its decision's options are unknown and the decision is still
        # held elsewhere (`game.new_state(2, 1).pending.values`): the decision keeps the state
        # from now on, as a strong reference, so its options can still be worked out. (The
        # defaults bind what it reads: a state freed as the interpreter ends finds no globals.)
        p = self.pending
        if p is not None and p._state is not None and _refs(p) > _alone:
            p._state = _kept(self)

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict:
        zones = {}
        for key, value in self.zones.items():
            if type(value) is list:
                zones[key] = list(value)
            else:
                zones[key] = {f"{c[0]},{c[1]}": list(stack) for c, stack in sorted(value.items())}
        pending = None
        if self.pending is not None:
            p = self.pending
            pending = {"player": p.player, "values": encode(list(p.values)), "slot": p.slot,
                       "site": list(p.site)}
        return {
            "format": "boardwright-state/1",
            "players": self.players,
            "vars": {k: encode(v) for k, v in self.vars.items()},
            "zones": zones,
            "rng": str(self.rng),
            "frames": [[f[0], f[1], encode(f[2])] for f in self.frames],
            "pending": pending,
            "current": self.current,
            "turns": list(self.turns),
            "finished": self.finished,
            "history": list(self.history),
            "log": list(self.log),
            "endings": list(self.endings),
            "sealed": None if self.sealed is None else self.sealed.to_json(),
            # pieces with a shape on grids: component -> [anchor x, anchor y, orientation]
            "placed": {str(c): [where[1][0], where[1][1], where[2]]
                       for c, where in enumerate(self.loc) if len(where) == 4},
        }

    @staticmethod
    def from_json(data: dict) -> "State":
        s = State.__new__(State)
        s.players = data["players"]
        s.vars = {k: decode(v) for k, v in data["vars"].items()}
        s.zones = {}
        for key, value in data["zones"].items():
            if isinstance(value, list):
                s.zones[key] = list(value)
            else:
                s.zones[key] = {tuple(int(n) for n in c.split(",")): list(stack) for c, stack in value.items()}
        s.rng = int(data["rng"])
        s.frames = [[f[0], f[1], decode(f[2])] for f in data["frames"]]
        p = data["pending"]
        s.pending = None if p is None else Pending(p["player"], tuple(decode(p["values"])), p["slot"],
                                                   tuple(p["site"]))
        s.current = data["current"]
        s.turns = list(data["turns"])
        s.finished = data["finished"]
        s.history = list(data["history"])
        s.log = list(data["log"])
        s.endings = list(data.get("endings", []))
        s.sealed = None if data.get("sealed") is None else Sealed.from_json(data["sealed"])
        s.cache = {}
        s.memo = {}
        s.quiet = False
        s.loc = locations(s.zones, _count(s.zones), data.get("placed") or {})
        return s


def _count(zones: dict) -> int:
    """How many components the zones hold (a piece with a shape, on several cells, once)."""
    seen = set()
    for value in zones.values():
        if type(value) is list:
            seen.update(value)
        else:
            for stack in value.values():
                seen.update(stack)
    return len(seen)


def locations(zones: dict, count: int, placed: dict | None = None) -> list:
    """Where each component lies, indexed by component id: (zone key, cell or None), or for a
    piece with a shape on a grid (zone key, anchor, orientation, covered cells in row-major
    order); `placed` gives each such piece's [anchor x, anchor y, orientation]."""
    loc: list = [None] * count
    placed = placed or {}
    covering: dict = {}
    for key, value in zones.items():
        if type(value) is list:
            for c in value:
                loc[c] = (key, None)
        else:
            for cell, stack in value.items():
                for c in stack:
                    if str(c) in placed:
                        covering.setdefault(c, (key, []))[1].append(cell)
                    else:
                        loc[c] = (key, cell)
    for c, (key, cells) in covering.items():
        x, y, turn = placed[str(c)]
        loc[c] = (key, (x, y), turn, tuple(sorted(cells, key=lambda cell: (cell[1], cell[0]))))
    return loc


def encode(value):
    """Values to JSON: cells (tuples) become {"cell": [x, y]}, placements {"placement":
    [piece, [x, y], turn, [[x, y], ...]]}; records {"record": NAME, "fields": [...],
    "values": [...]} (lists: a JSON writer may sort a mapping's keys)."""
    if type(value) is tuple:
        return {"cell": [value[0], value[1]]}
    if type(value) is Placement:
        return {"placement": [value[0], list(value[1]), value[2], [list(c) for c in value[3]]]}
    if type(value) is list:
        return [encode(v) for v in value]
    if isinstance(value, Record):
        return {"record": value._name, "fields": list(value._fields), "values": [encode(v) for v in value]}
    return value


def decode(value):
    if type(value) is dict:
        if "record" in value:
            values = tuple(decode(v) for v in value["values"])
            return tuple.__new__(record_type(value["record"], tuple(value["fields"])), values)
        if "placement" in value:
            piece, (x, y), turn, cells = value["placement"]
            return Placement(piece, (x, y), turn, tuple((cx, cy) for cx, cy in cells))
        x, y = value["cell"]
        return (x, y)
    if type(value) is list:
        return [decode(v) for v in value]
    return value


def record_ending(st: State, name: str) -> None:
    """Note that the named ending or fallback `name` decided something in this game."""
    if name not in st.endings:
        st.endings.append(name)


# The slots that hold a state's value (`State.become`): all but its weak references' list.
_VALUE_SLOTS = tuple(slot for slot in State.__slots__ if slot != "__weakref__")
