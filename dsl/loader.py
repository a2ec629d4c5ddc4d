"""Load a game's spec: find the rule file, merge a variant over its base, load data, check.

`check_game(path, variant=None)` returns the checked spec; `load_game` (interpreter/compile/load.py)
compiles it into a runnable game. `path` is a `.game` file, a game
folder, or the name of a bundled game; `variant` is a variant name (a `NAME.game` file
beside the base) or a path. Every problem found is raised at once as a `BoardwrightError`.
"""
from __future__ import annotations

import re
from pathlib import Path

from . import ast
from .checker import Checker
from .data import load_data
from .grammar import reserved_word_problems
from .errors import SOURCES, DataError, Diagnostic, RuleFileError, Span, UsageError, clipped, did_you_mean, listing, read_regular
from .parsed import parse_file
from .spec import GameSpec

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"


def bundled_games() -> list[str]:
    return sorted(p.name for p in GAMES_DIR.iterdir() if p.is_dir() and any(p.glob("*.game")))


def resolve_game(target: str | Path) -> Path:
    """The base rule file for a path, a folder or a bundled name."""
    path = Path(target)
    if _is_file(path):
        return path
    if not _exists(path) and _is_dir(GAMES_DIR / str(target)):
        path = GAMES_DIR / str(target)
    if _is_dir(path):
        candidates = [path / f"{path.name}.game"] + sorted(path.glob("*.game"))
        for candidate in candidates:
            if _is_file(candidate) and _is_base(candidate):
                return candidate
        raise UsageError(f"no base rule file (one starting with 'game \"...\"') in {path}")
    shown = str(target) if len(str(target)) <= 200 else str(target)[:200] + "..."
    hint = did_you_mean(shown, bundled_games())
    raise UsageError(f"no game '{shown}': not a file, a folder or a bundled game "
                     f"({', '.join(bundled_games())})" + (f"; {hint}" if hint else ""))


def _is_base(path: Path) -> bool:
    """Whether a rule file is a base game (its first declaration is not 'variant')."""
    try:
        text = read_regular(path).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return not line.startswith("variant")
    return True


def variants_of(base: Path) -> list[str]:
    """The variants beside a base: the regular `*.game` files that begin with 'variant' (a FIFO
    or a link to a device named `*.game` is never opened)."""
    return sorted(p.stem for p in base.parent.glob("*.game") if p != base and p.is_file() and not _is_base(p))


def resolve_variant(base: Path, variant: str) -> Path:
    path = Path(variant)
    if path.suffix == ".game" and _is_file(path):
        return path
    candidate = base.parent / f"{variant}.game"
    if _is_file(candidate) and candidate != base:
        return candidate
    known = variants_of(base)
    shown = clipped(variant)
    hint = did_you_mean(shown, known)
    raise UsageError(f"no variant '{shown}' of {base.name}; variants: {listing(known) or 'none'}"
                     + (f"; {hint}" if hint else ""))


BASE = "base"


def names_base(base: Path, variant: str) -> bool:
    """Whether `--variant` names the base game itself: `base`, or the base rule file's path."""
    if variant == BASE:
        return True
    path = Path(variant)
    return path.suffix == ".game" and _is_file(path) and path.resolve() == base.resolve()


def check_game(path: str | Path, variant: str | None = None, warnings: bool = False):
    """Parse, merge and check; return (GameSpec, expression types) or raise with all problems.
    With `warnings`, also look for what is legal but suspicious (spec.warnings; dsl/lint.py)."""
    file = Path(path)
    module = parse_file(file) if _is_file(file) else None
    if module is not None and _variant_decl(module) is not None:
        # A variant file given directly: load its base, then the variant over it.
        decl = _variant_decl(module)
        base, problem = variant_base(file, decl.base, decl.span)
        if problem is not None:
            raise RuleFileError(problem)
        variant_module, base_file = module, base
        if not _is_file(base):
            raise RuleFileError(Diagnostic(decl.span, f"the base game '{decl.base}' does not exist",
                                           _missing_base_hint(decl.base)))
        module = parse_file(base)
    else:
        base_file = resolve_game(path)
        module = module if module is not None and file == base_file else parse_file(base_file)
        variant_module = None
        if variant and not names_base(base_file, variant):
            variant_module = parse_file(resolve_variant(base_file, variant))
    diagnostics: list[Diagnostic] = reserved_word_problems(module)
    if variant_module is not None:
        diagnostics += reserved_word_problems(variant_module)
    spec = GameSpec(title="", path=str(base_file))
    data_ok = _merge(spec, module, base_file, diagnostics, is_variant=False)
    if variant_module is not None:
        vdecl = _variant_decl(variant_module)
        if vdecl is None:
            diagnostics.append(Diagnostic(_first_span(variant_module), "a variant file must begin with "
                                          "'variant \"TITLE\" extends \"BASE.game\"'"))
        else:
            spec.variant = vdecl.title
            spec.variant_path = vdecl.span.file
            target, _ = variant_base(Path(vdecl.span.file), vdecl.base, vdecl.span)
            target = target.resolve() if target is not None else None
            if target != base_file.resolve():
                diagnostics.append(Diagnostic(vdecl.span, f"this variant extends '{vdecl.base}', "
                                              f"not {base_file.name}"))
        data_ok = _merge(spec, variant_module, Path(variant_module.span.file), diagnostics, is_variant=True) and data_ok
    if not data_ok:
        # Without its components the rules would report every kind and enum as unknown.
        raise RuleFileError(diagnostics)
    checker = Checker(spec)
    problems = diagnostics + checker.check()
    if problems:
        problems = sorted(problems, key=lambda d: (d.span.file, d.span.line, d.span.column))
        if variant_module is not None:
            problems = _with_variant_notes(problems, variant_module)
        err = RuleFileError(problems)
        # What did check, for tools that work on a file with errors (the language server).
        err.spec, err.types = spec, checker.types
        raise err
    if not warnings:
        return spec, checker.types
    from .lint import lint, names_in
    used_by_variants = set()
    if variant_module is None:
        for name in variants_of(base_file):
            try:
                used_by_variants |= names_in(parse_file(base_file.parent / f"{name}.game"))
            except RuleFileError:
                pass                # its own validation reports it
    spec.warnings = lint(spec, variant_module, module, used_by_variants)
    return spec, checker.types


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _with_variant_notes(problems: list, variant: ast.Module) -> list:
    """After each error in the base file, a note pointing at the variant declarations whose
    names the erring line uses: the variant changed them, so they likely caused it."""
    declared = {}
    for item in variant.items:
        name = getattr(item, "name", None)
        if name is not None and type(item) in _NAMED:
            declared[name] = item
    out = []
    for problem in problems:
        out.append(problem)
        if problem.span.file == variant.span.file or problem.severity != "error" or problem.span.line < 1:
            continue
        lines = SOURCES.get(problem.span.file, "").splitlines()
        if problem.span.line > len(lines):
            continue
        words = _WORD.findall(lines[problem.span.line - 1])
        for word in dict.fromkeys(words):
            if word in declared:
                item = declared[word]
                out.append(Diagnostic(item.span, f"the variant declares '{word}' here; the error above "
                                      f"is in the base game's rules that use it", severity="note"))
    return out


def _variant_decl(module: ast.Module):
    return next((i for i in module.items if isinstance(i, ast.VariantDecl)), None)


def _first_span(module: ast.Module) -> Span:
    return module.items[0].span if module.items else Span(module.span.file, 1, 1, 1, 2)


_NAMED = {ast.ParamDecl: "params", ast.ZoneDecl: "zones", ast.VarDecl: "vars",
          ast.FnDecl: "fns", ast.ProcDecl: "procs", ast.RecordDecl: "records"}
_WORDS = {ast.ParamDecl: "param", ast.ZoneDecl: "zone", ast.VarDecl: "var", ast.FnDecl: "fn",
          ast.ProcDecl: "proc", ast.RecordDecl: "record"}
_SINGLE = {ast.SetupDecl: "setup", ast.PlayDecl: "play", ast.WinnersDecl: "winners",
           ast.HeuristicDecl: "heuristic", ast.BriefDecl: "brief"}


def _merge(spec: GameSpec, module: ast.Module, file: Path, diagnostics: list, is_variant: bool) -> bool:
    """Add a file's declarations to the spec; a variant's replace the base's of the same name.

    Returns False if a data file could not be loaded."""
    data_ok = True
    seen: dict = {}
    base_score, base_heuristic = spec.score, spec.heuristic

    def once(key, decl, what):
        if key in seen:
            diagnostics.append(Diagnostic(decl.span, f"{what} is declared twice in this file",
                                          f"first declared at line {seen[key].span.line}"))
        seen[key] = decl

    for item in module.items:
        if isinstance(item, ast.GameDecl):
            if is_variant:
                diagnostics.append(Diagnostic(item.span, "a variant file has no 'game' line",
                                              "it begins with 'variant \"TITLE\" extends \"BASE.game\"'"))
            spec.title = item.title
        elif isinstance(item, ast.VariantDecl):
            if is_variant and item is not _variant_decl(module):
                diagnostics.append(Diagnostic(item.span, "a variant file has one 'variant' line",
                                              f"the first is at line {_variant_decl(module).span.line}"))
            if not is_variant:
                diagnostics.append(Diagnostic(item.span, "'variant' must be the first line of a variant file"))
        elif isinstance(item, ast.PlayersDecl):
            once("players", item, "'players'")
            spec.players = item
        elif isinstance(item, ast.DataDecl):
            data_ok = _load_data(spec, item, file, diagnostics) and data_ok
        elif isinstance(item, ast.EnumDecl):
            once(("enum", item.name), item, f"enum '{item.name}'")
            _add_enum(spec, item.name, tuple(item.members), item.span, diagnostics)
        elif type(item) in _NAMED:
            table = getattr(spec, _NAMED[type(item)])
            if item.name in seen:
                once(item.name, item, f"'{item.name}'")
            else:
                seen[item.name] = item
                for other_type, other_table in _NAMED.items():
                    other = getattr(spec, other_table).get(item.name)
                    if other_table != _NAMED[type(item)] and other is not None:
                        # Only a variant gets here: a declaration of the base has the name.
                        diagnostics.append(Diagnostic(
                            item.span, f"'{item.name}' is a {_WORDS[other_type]} of the base game; "
                            f"a variant replaces it only with a {_WORDS[other_type]}",
                            f"declared at {other.span}"))
            table[item.name] = item
        elif type(item) in _SINGLE:
            key = _SINGLE[type(item)]
            once(key, item, f"'{key}'")
            setattr(spec, key, item)
        elif isinstance(item, ast.ScoreDecl):
            once(item.kind, item, f"'{item.kind}'")
            setattr(spec, item.kind, item)
        elif isinstance(item, ast.InvariantDecl):
            once(("invariant", item.title), item, f"invariant \"{item.title}\"")
            spec.invariants[item.title] = item
        elif isinstance(item, ast.MeasureDecl):
            once(("measure", item.title), item, f"measure \"{item.title}\"")
            spec.measures[item.title] = item
        elif isinstance(item, ast.LabelDecl):
            once(("label", item.kind), item, f"the label of {item.kind}")
            spec.labels[item.kind] = item
        elif isinstance(item, ast.OpponentDecl):
            once(("opponent", item.title), item, f"opponent \"{item.title}\"")
            spec.opponents[item.title] = item
        elif isinstance(item, ast.BotDecl):
            once(("bot", item.bot), item, f"bot '{item.bot}'")
            spec.bots[item.bot] = item
    if is_variant and base_heuristic is not None and spec.heuristic is base_heuristic \
            and base_score is not None and spec.score is not base_score:
        spec.heuristic_score = base_score       # the sheet the base's heuristic was written for
    if not is_variant and not spec.title:
        diagnostics.append(Diagnostic(_first_span(module), "a rule file begins with 'game \"TITLE\"'",
                                      "a variant begins with 'variant \"TITLE\" extends \"BASE.game\"'"))
    return data_ok


def _add_enum(spec: GameSpec, name: str, members: tuple, span: Span, diagnostics: list) -> None:
    if name in spec.enums and spec.enums[name] != members:
        diagnostics.append(Diagnostic(span, f"enum '{name}' is declared with other members elsewhere"))
    owner = spec.member_enum
    for m in members:
        if m in owner and owner[m] != name:
            diagnostics.append(Diagnostic(span, f"'{m}' is already a member of enum '{owner[m]}'"))
    spec.enums[name] = members
    spec.enum_spans[name] = span


MAX_PATH_TEXT = 255             # one file name's limit on common systems; longer is a mistake


def confined_path(file: Path, relative: str, span: Span, what: str):
    """(path, None) for a path named in `file` that stays inside `file`'s folder, or
    (None, diagnostic): an absolute path, `..` above the folder or a symlink that leaves it
    would let a shared rule file read any file on the player's machine."""
    folder = file.parent.resolve()
    hint = f"name a file in the folder of {Path(file).name} or below it"
    if len(relative) > MAX_PATH_TEXT or "\0" in relative:
        return None, Diagnostic(span, f"{what} path is too long or not a file name", hint)
    if Path(relative).is_absolute() or relative.startswith("~"):
        return None, Diagnostic(span, f"{what} '{relative}' is an absolute path", hint)
    try:
        target = (folder / relative).resolve()
    except (OSError, RuntimeError) as exc:          # a symlink loop, a name over the system limit
        return None, Diagnostic(span, f"{what} '{relative}' cannot be opened: {getattr(exc, 'strerror', None) or exc}", hint)
    if not target.is_relative_to(folder):
        return None, Diagnostic(span, f"{what} '{relative}' is outside the game folder", hint)
    return target, None


def variant_base(file: Path, base: str, span: Span):
    """(path, None) for the base a variant `extends`: a bundled game by its name
    (`extends "NAME"`: always the bundled one), or a rule file in the variant's folder
    (`extends "./NAME"` or `"NAME.game"`); else (None, diagnostic)."""
    if "/" not in base and "\\" not in base and not base.endswith(".game") and base in bundled_games():
        # The bundled game, never a file or folder of that name in the current folder.
        return resolve_game(GAMES_DIR / base), None
    return confined_path(file, base, span, "the base game")


def _missing_base_hint(base: str) -> str:
    """`extends "punt"`: a bare name is most likely a misspelt bundled game."""
    if "/" in base or "\\" in base or base.endswith(".game"):
        return "the path is relative to the variant file"
    close = did_you_mean(base, bundled_games())
    names = ", ".join(sorted(bundled_games()))
    return close or f"not a bundled game ({names}); a file of yours is named by its path, e.g. \"./NAME.game\""


def _is_file(path: Path) -> bool:
    """Path.is_file, False for a name the system refuses (too long, a NUL in it)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _load_data(spec: GameSpec, decl: ast.DataDecl, file: Path, diagnostics: list) -> bool:
    """Load a data file into the spec; False if it is missing or invalid."""
    path, problem = confined_path(file, decl.path, decl.span, "data file")
    if problem is not None:
        diagnostics.append(problem)
        return False
    if not _is_file(path):
        diagnostics.append(Diagnostic(decl.span, f"data file '{decl.path}' not found",
                                      f"looked in {file.parent}"))
        return False
    try:
        data = load_data(path)
    except DataError as err:
        diagnostics.extend(err.diagnostics)
        return False
    spec.data.append(data)
    for name, members in data.enums.items():
        _add_enum(spec, name, tuple(members), decl.span, diagnostics)
    for name, kind in data.kinds.items():
        if name in spec.kinds:
            diagnostics.append(Diagnostic(decl.span, f"component kind '{name}' is defined twice"))
        spec.kinds[name] = kind
    return True
