"""The authoring commands, for writing rule files: `validate`, `fmt`, `lsp` (the language
server), `explain`, `info`, `new` (a starter game folder) and `compile` (the generated Python)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..dsl.errors import BoardwrightError, UsageError, counted, read_source
from ..dsl.loader import check_game, resolve_game, variants_of
from ..interpreter.compile.load import load_game
from .options import game_command


# ---------------------------------------------------------------------------- arguments
def add_validate(sub) -> None:
    p = sub.add_parser("validate", help="check rule files and report every problem")
    p.add_argument("targets", nargs="+", metavar="TARGET", help="a .game file, a game folder or a bundled name")
    p.add_argument("--variant", metavar="NAME", help="check only this variant (default: the base and every variant)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="how to print the findings")
    p.add_argument("--strict", action="store_true", help="fail on warnings too (unused declarations, dead statements...)")


def add_compile(sub) -> None:
    p = game_command(sub, "compile", "compile a game to Python and report (or print) the generated code")
    p.add_argument("--emit", action="store_true", help="print the generated Python source")


def add_fmt(sub) -> None:
    p = sub.add_parser("fmt", help="rewrite rule files in the canonical layout")
    p.add_argument("files", nargs="+", metavar="FILE", help=".game files or folders holding them")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file is not formatted")
    p.add_argument("--diff", action="store_true", help="change nothing; print what would change")


def add_lsp(sub) -> None:
    sub.add_parser("lsp", help="run the language server on stdin/stdout (for editors; needs the 'lsp' extra)")


def add_explain(sub) -> None:
    game_command(sub, "explain", "the rules as readable text; for a variant, what it changes")


def add_info(sub) -> None:
    p = game_command(sub, "info", "players, params, variants, zones and components of a game")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def add_new(sub) -> None:
    p = sub.add_parser("new", help="start a game folder: rule file, data and a scenario")
    p.add_argument("name", metavar="NAME", help="the folder to create (its last part names the game)")


# ---------------------------------------------------------------------------- validate, compile
def cmd_validate(args) -> int:
    failed = False
    report = []
    for target in args.targets:
        jobs = _validation_jobs(target, args.variant)
        for path, variant in jobs:
            label = f"{target}" + (f" --variant {variant}" if variant else "")
            try:
                spec = load_game(path, variant, warnings=True).spec     # checked and compiled, once
                ok = not (args.strict and spec.warnings)
                failed = failed or not ok
                report.append({"target": label, "ok": ok, "diagnostics": [d.as_json() for d in spec.warnings]})
                if args.format == "text":
                    title = spec.title + (f" ({spec.variant})" if spec.variant else "")
                    warned = f" ({counted(len(spec.warnings), 'warning')})" \
                        if spec.warnings else ""
                    print(f"{'ok' if ok else 'failed (--strict)'}: {label}: {title}{warned}")
                    for warning in spec.warnings:
                        print(warning.format(), file=sys.stderr)
            except UsageError:
                raise
            except BoardwrightError as err:
                failed = True
                report.append({"target": label, "ok": False, "diagnostics": [d.as_json() for d in err.diagnostics]})
                if args.format == "text":
                    print(err.format(), file=sys.stderr)
    if args.format == "json":
        print(json.dumps(report, indent=2))
    return 1 if failed else 0


def _validation_jobs(target: str, variant: str | None):
    path = Path(target)
    try:
        given_file = path.is_file()
    except (OSError, ValueError):       # a name the system refuses: resolve_game says so
        given_file = False
    if given_file:
        return [(target, variant)]
    base = resolve_game(target)
    if variant:
        return [(str(base), variant)]
    return [(str(base), None)] + [(str(base), v) for v in variants_of(base)]


def cmd_compile(args) -> int:
    game = load_game(args.game, args.variant)
    module = game.generated
    if args.emit:
        for number, (line, span) in enumerate(zip(module.lines, module.spans), 1):
            where = f"  # {span.file.rsplit('/', 1)[-1]}:{span.line}" if span is not None and line.strip() and (
                number == 1 or module.spans[number - 2] != span) else ""
            print(f"{line}{where}")
        return 0
    blocks = sum(1 for code in game.code.values() for b in code.blocks if b is not None)
    print(f"ok: {game.display_title}: {len(module.lines)} lines of Python, {len(game.spec.fns)} fns, "
          f"{len(game.code)} bodies, {blocks} blocks")
    return 0


# ---------------------------------------------------------------------------- fmt, lsp, explain, info, new
def cmd_fmt(args) -> int:
    from ..dsl.formatter import format_checked, rule_files
    files = rule_files(args.files)
    unformatted = 0
    for path in files:
        text = read_source(path)            # as the parser reads it: no newline translation
        formatted = format_checked(text, str(path))
        if formatted == text:
            continue
        unformatted += 1
        if args.diff:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), formatted.splitlines(True),
                                                       f"{path}", f"{path} (formatted)"))
        elif args.check:
            print(f"not formatted: {path}")
        else:
            _rewrite(path, formatted)
            print(f"formatted {path}")
    if args.check or args.diff:
        if not unformatted:
            print(f"ok: {counted(len(files), 'file')} already in the canonical layout")
        return 1 if unformatted else 0
    return 0


def _rewrite(path: Path, text: str) -> None:
    """Replace a rule file's text at once (a temporary file beside it, renamed over it, with the
    file's mode): an error while writing leaves the old file whole. A file that cannot be
    written is a usage error, the file untouched."""
    import os
    import stat
    from .saves import write_atomically
    target = path.resolve()
    if not os.access(target, os.W_OK):
        raise UsageError(f"cannot write {path}: it is read-only")
    try:
        write_atomically(target, text, newline="", mode=stat.S_IMODE(target.stat().st_mode))
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}; it is left unchanged") from None


def cmd_lsp(args) -> int:
    try:
        from .lsp import serve
    except ImportError as exc:
        raise UsageError(f"the language server needs pygls: pip install 'boardwright[lsp]' ({exc})")
    return serve()


def cmd_explain(args) -> int:
    from .explain import explain
    spec, _ = check_game(args.game, args.variant)
    base = check_game(spec.path)[0] if spec.variant else None
    sys.stdout.write(explain(spec, base))
    return 0


def cmd_info(args) -> int:
    from .explain import info
    spec, _ = check_game(args.game, args.variant)
    facts = info(spec, variants_of(Path(spec.path)))
    if args.json:
        print(json.dumps(facts, indent=2))
        return 0
    low, high = facts["players"]["min"], facts["players"]["max"]
    print(f"{facts['title']}" + (f" ({facts['variant']})" if facts["variant"] else "")
          + ": " + (counted(low, "player") if low == high else f"{low}..{high} players"))
    for key in ("params", "zones", "vars"):
        if facts[key]:
            print(f"{key}: " + ", ".join(p["name"] + (f" = {p['default']}" if key == "params" else "") for p in facts[key]))
    print("components: " + ", ".join(f"{c['count']} {c['kind']}" for c in facts["components"]))
    print("variants: " + (", ".join(facts["variants"]) or "none"))
    for data in facts["data"]:      # which numbers are written for the project, not printed
        if data["representative"]:
            print(f"{data['file']}: representative (not printed): " + "; ".join(data["representative"]))
    return 0


def cmd_new(args) -> int:
    from .starter import create_game
    folder = create_game(Path(args.name))
    print(f"created {folder}/: {folder.name}.game, cards.yaml, scenarios/first-turn.scenario.yaml")
    print(f"next: boardwright validate {folder} && boardwright test {folder}/scenarios")
    return 0
