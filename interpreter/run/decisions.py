"""Decisions: the options of the pending choice (ids, labels, the prompt), finding and applying
the one a player takes, and simultaneous (sealed) choices. A mixin of `Game`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ...dsl.errors import Diagnostic, IllegalMove, RuleError
from .builtins import RUNTIME_FAILURES, Problem, failure_diagnostic
from .labels import _unique
from .limits import reset_work
from .state import Pending, Sealed, State

_NOT_CHOSEN = object()

DECISION_LIMIT = 100_000        # decisions in one game


@dataclass(frozen=True)
class Option:
    id: str
    label: str
    value: object


@dataclass(frozen=True)
class Decision:
    player: int
    prompt: str
    options: tuple


class Decisions:
    """The decision methods of `Game` (engine.py)."""

    def decision(self, st: State) -> Decision | None:
        p = st.pending
        if p is None:
            return None
        ids, labels = self.option_ids(st), self.option_labels(st)
        return Decision(p.player, self.prompt(st), tuple(Option(i, l, v) for i, l, v in zip(ids, labels, p.values)))

    def options_now(self, st: State, pending: Pending) -> tuple:
        """Work out the option values of `pending`, the decision `st` stops at (Pending.later
        calls this when they are first asked for). A problem is a rule error at the choose."""
        body, pc = self.code[pending.site[0]], pending.site[1]
        reset_work()            # the options get the work budget of one run (limits.py)
        try:
            return tuple(pending._source(st, st.frames[-1][2]))
        except Problem as problem:
            raise self._with_callers(self._rule_error(body, pc, problem), st) from None
        except RUNTIME_FAILURES as exc:
            raise self._with_callers(RuleError(failure_diagnostic(self.error_span(body, pc), exc)), st) from None

    def prompt(self, st: State) -> str:
        return self.choices[st.pending.site].prompt(st, st.frames[-1][2])

    def option_labels(self, st: State) -> list[str]:
        p = st.pending
        site = self.choices[p.site]
        if site.label is None:
            return [site.render(v, st) for v in p.values]
        L = st.frames[-1][2]
        saved = L[p.slot]
        labels = []
        for v in p.values:
            L[p.slot] = v
            labels.append(site.label(st, L))
        L[p.slot] = saved
        return labels

    def option_ids(self, st: State) -> list[str]:
        p = st.pending
        site = self.choices[p.site]
        if site.ident is not None:
            return self.written_ids(st)
        if site.identify is None:
            return [str(i + 1) for i in range(len(p.values))]
        return _unique([site.identify(v) for v in p.values])

    def written_ids(self, st: State) -> list[str]:
        """The ids of the pending options from the choose's `id "TEXT"` clause: a rule error
        names the first id two options share (an id stands for one option in logs and saves)."""
        p = st.pending
        site = self.choices[p.site]
        L = st.frames[-1][2]
        saved = L[p.slot]
        ids: list = []
        seen: dict = {}
        try:
            for v in p.values:
                L[p.slot] = v
                i = site.ident(st, L)
                if i in seen:
                    body = self.code[p.site[0]]
                    raise self._with_callers(self._rule_error(body, p.site[1], Problem(
                        f"two options have the id '{i}' (options {seen[i] + 1} and {len(ids) + 1}): "
                        "the id clause of a choose must tell every option apart (without it, "
                        "equal ids are numbered: 'red-5', 'red-5#2')")), st)
                seen[i] = len(ids)
                ids.append(i)
        finally:
            L[p.slot] = saved
        return ids

    def option_index(self, st: State, choice) -> int:
        """Find an option by index (int), id or label (str); raise IllegalMove otherwise."""
        p = st.pending
        if p is None:
            raise IllegalMove("the game is over: there is no decision to make")
        ids = self.option_ids(st)
        if isinstance(choice, int) and not isinstance(choice, bool):
            if 0 <= choice < len(p.values):
                return choice
        else:
            text = str(choice).strip()
            if text in ids:
                return ids.index(text)
            lowered = [label.lower() for label in self.option_labels(st)]
            if text.lower() in lowered:
                return lowered.index(text.lower())
        labels = self.option_labels(st)
        shown = ", ".join(f"{i} ({l})" for i, l in list(zip(ids, labels))[:12])
        more = " ..." if len(ids) > 12 else ""
        raise IllegalMove(f"'{choice}' is not a legal option for \"{self.prompt(st)}\"; options: {shown}{more}")

    def apply(self, st: State, choice) -> State:
        return self.apply_index(st, self.option_index(st, choice))

    def apply_index(self, st: State, index: int) -> State:
        p = st.pending
        site = self.choices[p.site]
        if site.ident is not None:
            chosen = self.written_ids(st)[index]
        elif site.identify is None:
            chosen = str(index + 1)
        else:
            chosen = site.identify(p.values[index])
            if not site.injective and chosen not in site.unique_ids:    # numbered like _unique: 'red-5#2'
                identify = site.identify
                repeats = sum(1 for v in p.values[:index] if identify(v) == chosen)
                if repeats:
                    chosen = f"{chosen}#{repeats + 1}"
        if st.sealed is None:
            st.frames[-1][2][p.slot] = p.values[index]
        if self.coverage is not None:
            self.coverage.decisions[p.site] += 1
        st.pending = None
        st.history.append(chosen)
        if len(st.history) > DECISION_LIMIT:
            body = self.code[p.site[0]]
            raise RuleError(Diagnostic(body.instructions[min(p.site[1], len(body) - 1)].span,
                                       f"the game did not end after {DECISION_LIMIT:,} decisions; the last "
                                       "was made here", "check that the play block reaches its end or a "
                                       "'finish' whatever the players choose"))
        if st.sealed is not None:
            st.sealed = replace(st.sealed, chosen=st.sealed.chosen + ((p.player, p.values[index]),))
            if not self.ask_sealed(st):
                return st
        self.run(st)
        return st

    # ------------------------------------------------------------------ simultaneous decisions
    def decide_sealed(self, st: State, L: list, players, options: list, slot: int, binder: int,
                      site: tuple) -> None:
        """Begin `choose NAME from ... by each P in players`: every player chooses without
        seeing the others' choices; the choices are revealed together (see ask_sealed)."""
        if not players:
            L[slot] = [None] * st.players
            return
        st.sealed = Sealed(tuple(players), tuple(tuple(o) for o in options), (), slot, binder, site)
        self.ask_sealed(st)

    def ask_sealed(self, st: State) -> bool:
        """Ask the next player of the simultaneous decision; when everyone has chosen, reveal
        the choices as a list by seat (none for seats that did not choose) and return True."""
        sealed = st.sealed
        L = st.frames[-1][2]
        waiting = sealed.waiting()
        if waiting:
            seat = waiting[0]
            L[sealed.binder] = seat
            st.pending = Pending(seat, sealed.options[sealed.players.index(seat)], sealed.slot, sealed.site)
            return False
        by_seat = [None] * st.players
        for seat, value in sealed.chosen:
            by_seat[seat] = value
        L[sealed.slot] = by_seat
        st.sealed = None
        return True

    def sealed_choice_label(self, st: State, seat: int):
        """How `seat`'s own sealed choice is shown to that seat (None if not made yet)."""
        sealed = st.sealed
        value = next((v for p, v in sealed.chosen if p == seat), _NOT_CHOSEN)
        if value is _NOT_CHOSEN:
            return None
        site = self.choices[sealed.site]
        if site.label is None:
            return site.render(value, st)
        L = st.frames[-1][2]
        saved = L[sealed.slot], L[sealed.binder]
        L[sealed.slot], L[sealed.binder] = value, seat
        try:
            return site.label(st, L)
        finally:
            L[sealed.slot], L[sealed.binder] = saved
