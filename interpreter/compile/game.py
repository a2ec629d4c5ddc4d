"""Whole games: `compile_game` compiles a checked GameSpec into a runnable `Game`, with its
params and vars set up, its score sheets, winners, labels, invariants, measures, heuristic and brief.
"""
from __future__ import annotations

from ...dsl.errors import Diagnostic, InvariantError, RuleError
from ..run.builtins import RUNTIME_FAILURES, Problem, failure_diagnostic
from ..run.engine import Game, Result
from .analysis import draws_random
from .compiler import Compiler
from .pieces import Env
from .variant_values import with_variant_lines


def compile_game(spec, types: dict):
    """Compile a checked GameSpec into a runnable `Game`."""
    game = Game(spec)
    game.param_types = {name: types.get(id(decl.value), "any") for name, decl in spec.params.items()}
    compiler = Compiler(game, spec, types)
    game.record_vars = {name: compiler.renderer(compiler.declared_type(decl.type)) for name, decl in spec.vars.items()
                        if compiler.declared_type(decl.type).split(" of ")[-1] in spec.records}
    for name, decl in spec.fns.items():
        compiler.function(decl)
    bodies = {name: (decl.body, decl.params) for name, decl in spec.procs.items()}
    for key in ("setup", "play"):
        decl = getattr(spec, key)
        if decl is not None:
            bodies[key] = (decl.body, ())
    for name, (stmts, params) in bodies.items():
        game.code[name] = compiler.body(name, stmts, params)
    game.code_sizes.update({name: code.nslots for name, code in game.code.items()})

    params = [(name, compiler.standalone(spec.params[name].value)) for name in spec.param_order()[0]]
    inits = []
    for name, decl in spec.vars.items():
        init = compiler.standalone(decl.init, ["p"]) if decl.init is not None else None
        inits.append((name, decl.per, init))
    score_lines = _lines(compiler, spec.score.lines, [spec.score.var]) if spec.score else []
    base_lines = (_lines(compiler, spec.heuristic_score.lines, [spec.heuristic_score.var])
                  if spec.heuristic_score is not None else None)
    tiebreak_lines = _lines(compiler, spec.tiebreak.lines, [spec.tiebreak.var]) if spec.tiebreak else []
    winners = compiler.standalone(spec.winners.value) if spec.winners is not None else None
    opponent_lines = [(title, _lines(compiler, decl.lines)) for title, decl in spec.opponents.items()]
    compiler.static_labels = True       # a label's text shows other components by their data label
    shown = {kind: (compiler.standalone(decl.value, [decl.var]), decl.span) for kind, decl in spec.labels.items()}
    compiler.static_labels = False
    invariants = [(title, compiler.standalone(decl.value), decl.span) for title, decl in spec.invariants.items()]
    measured = [(title, compiler.standalone(decl.value), decl.span) for title, decl in spec.measures.items()]
    judge = (compiler.standalone(spec.heuristic.value, [spec.heuristic.var])
             if spec.heuristic is not None else None)
    told = compiler.standalone(spec.brief.value, [spec.brief.var]) if spec.brief is not None else None

    ns = compiler.assemble()

    def resolve(pair):
        return (ns[pair[0]], pair[1]) if pair is not None else None

    for site in game.choices.values():
        site.prompt = ns[site.prompt] if site.prompt in ns else _constant_text(site.prompt)
        site.label = ns[site.label] if site.label is not None else None
        site.ident = ns[site.ident] if site.ident is not None else None
    params = [(name, resolve(pair)) for name, pair in params]
    inits = [(name, per, resolve(init)) for name, per, init in inits]
    score_lines = [(title, ns[f], env, span) for title, f, env, span in score_lines]
    if base_lines is not None:
        base_lines = [(title, ns[f], env, span) for title, f, env, span in base_lines]
    tiebreak_lines = [(title, ns[f], env, span) for title, f, env, span in tiebreak_lines]
    winners = resolve(winners)
    opponent_lines = [(title, [(t, ns[f], env, span) for t, f, env, span in sheet]) for title, sheet in opponent_lines]
    invariants = [(title, resolve(pair), span) for title, pair, span in invariants]
    measured = [(title, resolve(pair), span) for title, pair, span in measured]
    for kind, (pair, span) in shown.items():
        fn, env = resolve(pair)
        game.shown_labels[kind] = lambda st, c, fn=fn, env=env, span=span: _evaluate(fn, env, st, [c], span)

    # Params are the same in every game of a player count (and --set), unless they draw random
    # numbers: worked out once per player count. A per-component var's start value is the
    # same for every component unless it draws random numbers: worked out once per game.
    fixed_params = not any(draws_random(spec.params[name].value, spec) for name, _ in params)
    known_params: dict = {}
    single_inits = {name for name, decl in spec.vars.items()
                    if decl.init is not None and not draws_random(decl.init, spec)}
    # Nor do the vars' start values when none draws random numbers (the zones they could read
    # are as setup_state made them): all of st.vars is then worked out once per player count.
    # Their lists are shared between games as between copies of a state: never changed in place.
    fixed_vars = fixed_params and len(single_inits) == sum(1 for d in spec.vars.values() if d.init is not None)
    known_vars: dict = {}

    def initialize_vars(st):
        key = (st.players, tuple(sorted(game.param_overrides.items()))) if fixed_params else None
        if fixed_vars:
            known = known_vars.get(key)
            if known is not None:
                st.vars.update(known)
                return
        known = known_params.get(key) if key is not None else None
        if known is not None:
            st.vars.update(known)
        else:
            for name, (fn, env) in params:
                if name in game.param_overrides:
                    st.vars[name] = game.param_overrides[name]
                else:
                    st.vars[name] = _evaluate(fn, env, st, decl_span=spec.params[name].span)
            _check_zone_numbers(spec, st.vars)
            if key is not None:
                known_params[key] = {name: st.vars[name] for name, _ in params}
        for name, per, init in inits:
            if init is None:
                value = lambda p=None: None
            else:
                fn, env = init
                value = lambda p=None, fn=fn, env=env, name=name: _evaluate(
                    fn, env, st, [p], spec.vars[name].span)
            if per == "player":
                st.vars[name] = [value(p) for p in range(st.players)]
            elif per is not None and name in single_inits and game.components:    # by component id
                st.vars[name] = [value()] * len(game.components)
            elif per is not None:
                st.vars[name] = [value() for _ in range(len(game.components))]
            else:
                st.vars[name] = value()
        if fixed_vars:
            known_vars[key] = dict(st.vars)

    score_sign = game.score_sign = -1 if spec.score is not None and spec.score.lowest_wins else 1
    tie_sign = -1 if spec.tiebreak is not None and spec.tiebreak.lowest_wins else 1

    def scores(st):
        st.memo.clear()
        return tuple(sum(_line_values(score_lines, st, p)) for p in range(st.players))

    def result(st):
        st.memo.clear()
        lines = tuple(_sheet(score_lines, st, p) for p in range(st.players))
        ties = tuple(_sheet(tiebreak_lines, st, p) for p in range(st.players))
        scores = tuple(sum(line.values()) for line in lines)
        if winners is not None:
            fn, env = winners
            chosen = _evaluate(fn, env, st, [], spec.winners.span)
            won = tuple(sorted(set(chosen)))
        else:
            # The best key is the highest: a lowest-wins score or tiebreak counts negated.
            keys = [(score_sign * scores[p],) + tuple(tie_sign * v for v in ties[p].values())
                    for p in range(st.players)]
            best = max(keys)
            won = tuple(p for p in range(st.players) if keys[p] == best)
        sheets = tuple((title, _sheet(sheet, st, None))
                       for title, sheet in opponent_lines)
        if winners is None and sheets and max(score_sign * s for s in scores) <= max(
                score_sign * sum(s.values()) for _, s in sheets):
            won = ()            # a scripted opponent must be beaten: equalling it is not enough
        return Result(scores, lines, ties, won, sheets)

    def for_a_seat(pair, span):
        """(state, seat) -> the value of a declaration for one player (heuristic, brief)."""
        fn, env = resolve(pair)

        def evaluate(st, p):
            st.memo.clear()
            return _evaluate(fn, env, st, [p], span)
        return evaluate

    if judge is not None:
        game.heuristic = for_a_seat(judge, spec.heuristic.span)
    if judge is not None and base_lines is not None:
        def sheet_total(lines):
            def total(st, p):
                st.memo.clear()
                return score_sign * sum(_line_values(lines, st, p))
            return total
        game.heuristic = with_variant_lines(game, game.heuristic, sheet_total(score_lines), sheet_total(base_lines))
    if told is not None:
        game.brief = for_a_seat(told, spec.brief.span)

    def failing_invariants(st):
        st.memo.clear()
        failed = []
        for title, (fn, env), span in invariants:
            try:
                holds = _evaluate(fn, env, st, [], span)
            except RuleError as err:
                raise InvariantError(title, err) from None
            if not holds:
                failed.append((title, span))
        return failed

    def measures(st):
        st.memo.clear()
        return {title: int(_evaluate(fn, env, st, [], span)) for title, (fn, env), span in measured}

    game.initialize_vars = initialize_vars
    game.measures = measures
    game.result = result
    game.scores = scores
    game.failing_invariants = failing_invariants
    return game


def _constant_text(text: str):
    return lambda st, L: text


def _lines(compiler: Compiler, lines, names=()) -> list:
    """Score lines as (title, function name, locals, span); `names` are the locals they are given."""
    out = []
    for line in lines:
        fn, env = compiler.standalone(line.value, names, line.span)
        out.append((line.title, fn, env, line.span))
    return out


def _sheet(lines: list, st, seat) -> dict:
    """Score lines (as made by `_lines`) for one seat (None: no seat): title -> value."""
    return {line[0]: value for line, value in zip(lines, _line_values(lines, st, seat))}


def _line_values(lines: list, st, seat) -> list:
    """The values of score lines for one seat, in order. Expressions never write their
    locals, so one list serves every line."""
    L = [seat] + [None] * max((env.size for _, _, env, _ in lines), default=0)
    values = []
    span = None
    try:
        for _, fn, _, span in lines:
            values.append(fn(st, L))
    except Problem as problem:
        raise RuleError(Diagnostic(span, str(problem))) from None
    except RUNTIME_FAILURES as exc:
        raise RuleError(failure_diagnostic(span, exc)) from None
    return values


def _check_zone_numbers(spec, values: dict) -> None:
    """A grid's `size` or `extent` given by a param (known before setup) must be a whole
    number of at least 1 once the params, a variant's or `--set`'s included, are worked out."""
    for decl in spec.zones.values():
        for option in decl.options:
            if option.name not in ("size", "extent"):
                continue
            for number in option.values:
                value = values.get(number) if isinstance(number, str) else number
                if isinstance(number, str) and (type(value) is not int or value < 1):
                    raise RuleError(Diagnostic(option.span, f"'{option.name}' of zone '{decl.name}' needs whole "
                                               f"numbers of at least 1, but the param '{number}' is {value!r}"))


def _evaluate(fn, env: Env, st, args=(), decl_span=None):
    L = list(args) + [None] * (env.size - len(args))
    try:
        return fn(st, L)
    except Problem as problem:
        raise RuleError(Diagnostic(decl_span, str(problem))) from None
    except RUNTIME_FAILURES as exc:
        raise RuleError(failure_diagnostic(decl_span, exc)) from None

