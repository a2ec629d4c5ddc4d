"""Rule coverage: how often each statement, branch, decision, score line and component of a
rule file was exercised over many games, and what never happened.

A designer finds dead rules this way: a branch never taken, a fallback never fired, a
card never moved after setup.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ...dsl.errors import SOURCES


@dataclass
class Coverage:
    instructions: Counter = field(default_factory=Counter)   # (code, pc) -> executions
    decisions: Counter = field(default_factory=Counter)      # choose site -> decisions made
    moved: Counter = field(default_factory=Counter)          # component id -> moves after setup
    score_lines: Counter = field(default_factory=Counter)    # title -> seat-games where non-zero
    seat_games: int = 0
    games: int = 0

    def record_result(self, result) -> None:
        self.games += 1
        for lines in result.lines:
            self.seat_games += 1
            for title, value in lines.items():
                self.score_lines[title] += 1 if value else 0


def measure_coverage(game, players_counts, games: int, seed: int) -> Coverage:
    """Play seeded random games with coverage counting switched on."""
    from ..playtest.simulate import game_seed, play_game
    cov = Coverage()
    game.coverage = cov
    try:
        for i in range(games):
            players = players_counts[i % len(players_counts)]
            _, result = play_game(game, players, game_seed(seed, i))
            cov.record_result(result)
    finally:
        game.coverage = None
    return cov


def _source(span) -> str:
    text = SOURCES.get(span.file)
    if text is None or span.line <= 0:
        return ""
    lines = text.splitlines()
    return lines[span.line - 1].strip() if span.line <= len(lines) else ""


def _where(span) -> str:
    return f"{span.file.rsplit('/', 1)[-1]}:{span.line}"


def coverage_report(game, cov: Coverage) -> dict:
    """Counts per construct, and the lists of what never ran."""
    statements, branches = [], []
    for name, code in game.code.items():
        for pc, role in enumerate(code.roles):
            entry = {"where": _where(code.spans[pc]), "line": code.spans[pc].line, "body": name,
                     "source": _source(code.spans[pc]), "count": cov.instructions[name, pc]}
            if role == "statement":
                statements.append(entry)
            elif role.startswith("branch"):
                entry["branch"] = role.split(": ", 1)[1]
                branches.append(entry)
    decisions = [{"where": _where(game.code[site[0]].spans[site[1]]),
                  "source": _source(game.code[site[0]].spans[site[1]]), "count": cov.decisions[site]}
                 for site in game.choices]
    moves_by_label = Counter()
    for c, label in enumerate(game.labels):
        moves_by_label[label] += cov.moved[c]
    lines = [{"line": title, "nonzero": cov.score_lines[title], "of": cov.seat_games}
             for title in _score_titles(game)]
    return {
        "games": cov.games,
        "statements": {"ran": sum(1 for s in statements if s["count"]), "total": len(statements)},
        "never_ran": [s for s in statements if not s["count"]],
        "branches": branches,
        "branches_never_taken": [b for b in branches if not b["count"]],
        "decisions": decisions,
        "score_lines": lines,
        "components_never_moved": sorted(label for label, n in moves_by_label.items() if n == 0),
        "statement_counts": statements,
    }


def _score_titles(game) -> list[str]:
    spec = game.spec
    return [line.title for line in spec.score.lines] if spec.score is not None else []


def format_coverage(game, report: dict) -> str:
    title = game.display_title
    out = [f"Rule coverage of {title} over {report['games']} games",
           f"  statements run: {report['statements']['ran']} of {report['statements']['total']}"]
    taken = sum(1 for b in report["branches"] if b["count"])
    out.append(f"  branches taken: {taken} of {len(report['branches'])}")
    out.append("  decisions:")
    for d in report["decisions"]:
        out.append(f"    {d['where']}: {d['count']} x  {d['source']}")
    out.append("  score lines (seat-games where non-zero):")
    for line in report["score_lines"]:
        out.append(f"    {line['line']!r}: {line['nonzero']} of {line['of']}")
    if report["never_ran"]:
        out.append("  never happened:")
        for s in report["never_ran"]:
            out.append(f"    {s['where']}: statement never ran: {s['source']}")
    if report["branches_never_taken"]:
        out.append("  branches never taken:")
        for b in report["branches_never_taken"]:
            out.append(f"    {b['where']}: {b['branch']} of: {b['source']}")
    never = report["components_never_moved"]
    if never:
        shown = ", ".join(never[:20]) + (f" and {len(never) - 20} more" if len(never) > 20 else "")
        out.append(f"  components never moved after setup: {shown}")
    if not (report["never_ran"] or report["branches_never_taken"] or never):
        out.append("  everything ran at least once")
    return "\n".join(out)
