"""Issue 31 tried again from outside: every finding of the issue as a command a user (or an
attacker) runs in a fresh folder, in a subprocess, under a 10 s timeout.

    python3 tests/outside_issue31.py [NAME-SUBSTRING...]

Not part of the suite (the name does not start with `test_`): each finding has an in-process
test named in docs/security.md's findings table; this script is the check from outside that
the issue asks for ("every case gives a positioned, user-blaming message and exit 1 or 2").
A case passes when the command ends within the timeout, prints no traceback and no "internal
error", and meets the case's own check (an exit code, a position `FILE:LINE:COL`, no raw
escape, no file left behind). Prints one line per case and exits 1 if any failed.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TIMEOUT = 10
REPO = Path(__file__).resolve().parents[1]
HERE = Path(tempfile.mkdtemp(prefix="bw-outside-"))
HERE.chmod(0o755)       # readable by the ordinary user some cases run as
CACHE = HERE / "cache"

BASE = (REPO / "tests" / "golden" / "support" / "base.game").read_text()
TILES = (REPO / "tests" / "golden" / "support" / "tiles.yaml").read_text()


def env(**extra) -> dict:
    result = dict(os.environ, BOARDWRIGHT_CACHE=str(CACHE), PYTHONPATH=os.environ.get("PYTHONPATH", str(REPO.parent)),
                  COLUMNS="100")
    result.pop("PYTHONDONTWRITEBYTECODE", None)
    result.update(extra)
    return result


class Result:
    def __init__(self, code, out, err, seconds):
        self.code, self.out, self.err, self.seconds = code, out, err, seconds
        self.text = out + err


def bw(*argv, cwd=None, stdin="", timeout=TIMEOUT, umask=None, user_nobody=False, **extra) -> Result:
    """`python -m boardwright ARGV`; `user_nobody`: as an ordinary user when run as root (for
    whom no folder is read-only), without the disk cache."""
    start = time.perf_counter()

    def preexec():
        os.umask(umask)
    # root without the capabilities that let it write where it may not
    prefix = (["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]
              if user_nobody and os.getuid() == 0 and shutil.which("setpriv") else [])
    try:
        done = subprocess.run([*prefix, sys.executable, "-m", "boardwright", *map(str, argv)], cwd=cwd or HERE,
                              input=stdin.encode(), capture_output=True, timeout=timeout, env=env(**extra),
                              preexec_fn=preexec if umask is not None else None)
    except subprocess.TimeoutExpired as hang:
        return Result("hang", (hang.stdout or b"").decode("utf-8", "replace"),
                      (hang.stderr or b"").decode("utf-8", "replace"), timeout)
    return Result(done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"),
                  time.perf_counter() - start)


def folder(name: str, game: str = BASE, data: str = TILES) -> Path:
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    (path / "base.game").write_text(game)
    (path / "tiles.yaml").write_text(data)
    return path


def with_statement(name: str, statement: str, head: str = "") -> Path:
    """base.game with a statement after `shuffle bag` (line 18 of the setup) and declarations."""
    text = BASE.replace("  shuffle bag\n", f"  shuffle bag\n  {statement}\n")
    text = text.replace("var points: int per player = 0\n", "var points: int per player = 0\n" + head)
    return folder(name, text) / "base.game"


CASES = []


def case(name):
    def register(check):
        CASES.append((name, check))
        return check
    return register


def clean(result: Result, codes=(1, 2), position: str | None = None) -> str | None:
    """Why a result fails the issue's goal, or None."""
    if result.code == "hang":
        return f"hang > {TIMEOUT} s"
    if "Traceback" in result.text:
        return "traceback: " + result.text.strip().splitlines()[-1][:200]
    if "internal error" in result.text or "a bug in Boardwright" in result.text:
        return "internal error: " + result.text.strip()[:300]
    if result.code not in codes:
        return f"exit {result.code} (wanted {codes}): {result.text.strip()[:300]}"
    if position and not re.search(position, result.text):
        return f"no position /{position}/ in: {result.text.strip()[:400]}"
    return None


# ------------------------------------------------------------------ scenarios

PUNTO = "game: punto\nplayers: 2\n"
POINT_CITY = "game: point-city\nplayers: 2\n"
MALFORMED = {
    "cell key of three numbers": PUNTO + 'state:\n  zones:\n    table: {"1,2,3": [green 3]}\n',
    "list for a grid": PUNTO + "state:\n  zones:\n    table: [green 3]\n",
    "int for a grid": PUNTO + "state:\n  zones:\n    table: 5\n",
    "expect vars cell mapping": PUNTO + "expect:\n  vars: {starter: {cell: 1}}\n",
    "expect lines [5]": PUNTO + "expect:\n  lines: [5]\n",
    "per-component var wrong value": POINT_CITY + "state:\n  vars:\n    face: {Bungalow: 3}\n",
    "expect zones list for a grid": PUNTO + "expect:\n  zones: {table: [green 3]}\n",
    "expect zones int for a grid": PUNTO + "expect:\n  zones: {table: 3}\n",
    "expect zones int": PUNTO + "expect:\n  zones: 3\n",
    "cell outside the grid": POINT_CITY + "state:\n  zones:\n    market: {\"6,0\": [Park]}\n",
}


def scenario_case(label, text):
    @case(f"scenario: {label}")
    def check():
        path = HERE / "scenarios" / (re.sub(r"\W+", "-", label) + ".scenario.yaml")
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
        return clean(bw("test", path), (1,), re.escape(str(path)) + r":\d+:\d+: ")


for _label, _text in MALFORMED.items():
    scenario_case(_label, _text)


@case("scenario: a folder of all the malformed shapes reaches its summary")
def _():
    result = bw("test", HERE / "scenarios")
    return clean(result, (1,), rf"0 passed, {len(MALFORMED)} failed")


@case("validate: a 5,000-character target")
def _():
    return clean(bw("validate", "x" * 5000), (2,))


def punto_log(name="log.json") -> Path:
    path = HERE / name
    result = bw("play", "punto", "--players", "2", "--seats", "random,random", "--seed", "3", "--log", path)
    assert result.code == 0, result.text
    return path


@case("replay: a log whose moves lack 'label'")
def _():
    path = punto_log("nolabel.json")
    data = json.loads(path.read_text())
    for move in data["moves"]:
        del move["label"]
    path.write_text(json.dumps(data, indent=1))
    return clean(bw("replay", path, "--step", "2"), (2,), r"damaged.*:\d+:\d+")


# ------------------------------------------------------------------ caches

PLANT = HERE / "planted-code-ran"


class Planted:
    def __reduce__(self):
        return (os.system, (f"touch {PLANT}",))


@case("cache: a planted pickle in a per-project cache is not loaded")
def _():
    import pickle
    project = folder("unpacked")
    result = bw("validate", "base.game", cwd=project, BOARDWRIGHT_CACHE=".bwcache")
    if result.code != 0:
        return "first validate failed: " + result.text
    files = [p for p in (project / ".bwcache").rglob("*") if p.is_file()]
    if not files:
        return "no cache files were written"
    payload = pickle.dumps(Planted())
    for number, path in enumerate(files):
        # raw pickles, and pickles behind a header that looks like a signature
        path.write_bytes(payload if number % 2 else b"BWC1" + b"\0" * 32 + payload)
    result = bw("validate", "base.game", cwd=project, BOARDWRIGHT_CACHE=".bwcache")
    if PLANT.exists():
        return "the planted pickle ran"
    return clean(result, (0,))


@case("cache: umask 002 - files private, read back on the next run")
def _():
    project = folder("umask")
    cache = HERE / "umask-cache"
    first = bw("validate", "base.game", cwd=project, umask=0o002, BOARDWRIGHT_CACHE=str(cache))
    files = {p: p.stat() for p in cache.rglob("*") if p.is_file()}
    loose = [p for p, s in files.items() if s.st_mode & 0o077]
    second = bw("validate", "base.game", cwd=project, umask=0o002, BOARDWRIGHT_CACHE=str(cache))
    rewritten = [p for p, s in files.items() if p.stat().st_mtime_ns != s.st_mtime_ns or p.stat().st_ino != s.st_ino]
    if loose:
        return f"group/other bits on {loose[:2]}"
    if rewritten:
        return f"rewritten on the second run: {[p.name for p in rewritten][:3]}"
    return clean(first, (0,)) or clean(second, (0,))


@case("cache: a FIFO at every cache file's name")
def _():
    project = folder("fifo-cache")
    cache = HERE / "fifo-cache-dir"
    bw("validate", "base.game", cwd=project, BOARDWRIGHT_CACHE=str(cache))
    for path in [p for p in cache.rglob("*") if p.is_file()]:
        path.unlink()
        os.mkfifo(path, 0o600)
    return clean(bw("validate", "base.game", cwd=project, BOARDWRIGHT_CACHE=str(cache)), (0,))


# ------------------------------------------------------------------ terminal escapes

EVIL = "\x1b]0;pwned\x07\x1b[2J\x1b[31m"


def escape_folder():
    game = BASE.replace('game "Golden base"', f'game "T{EVIL}"').replace(
        'prompt "Where?"', f'prompt "Where{EVIL}?"').replace(
        "      points[p] += bonus(p)\n", f"      points[p] += bonus(p)\n      log \"L{EVIL}\"\n")
    data = TILES.replace('label: "{colour} {value}"', 'label: "{colour} {value}\\e[31m\\e]0;x\\a"')
    return folder("escapes", game, data)


for _argv in (["validate"], ["info"], ["explain"], ["simulate", "--players", "2", "--games", "2"],
              ["play", "--players", "2", "--seats", "random,random"], ["compile"]):
    def _make(argv):
        @case(f"escapes: {' '.join(argv)}")
        def check():
            path = escape_folder() / "base.game"
            result = bw(argv[0], path, *argv[1:])
            if "\x1b" in result.text or "\x07" in result.text:
                return "a raw escape reached the terminal: " + repr(result.text[:200])
            return clean(result, (0, 1))
    _make(_argv)


@case("escapes: replay of a log of that game")
def _():
    path = escape_folder() / "base.game"
    log = HERE / "escapes.log.json"
    bw("play", path, "--players", "2", "--seats", "random,random", "--log", log)
    result = bw("replay", log, stdin="n\nn\nq\n")
    if "\x1b" in result.text or "\x07" in result.text:
        return "a raw escape reached the terminal: " + repr(result.text[:200])
    return clean(result, (0,))


# ------------------------------------------------------------------ fmt

@case("fmt: a lone CR in a comment stays a comment")
def _():
    text = BASE.replace("param target = 5\n", "param target = 5  # five\rparam target = 7\n")
    path = folder("fmt-cr", text) / "base.game"
    before = bw("info", path)
    result = bw("fmt", path)
    after = bw("info", path)
    if before.out != after.out:
        return f"fmt changed the meaning: {before.text[:200]!r} -> {after.text[:200]!r}"
    return clean(result, (0,))


@case("fmt: a file that is not UTF-8")
def _():
    path = folder("fmt-bytes") / "base.game"
    path.write_bytes(path.read_bytes().replace(b"Golden", b"Gol\xffden"))
    return clean(bw("fmt", path), (1, 2), r"base\.game:2:\d+")


@case("fmt: a read-only file")
def _():
    path = folder("fmt-ro", BASE.replace("param target = 5", "param   target=5")) / "base.game"
    path.chmod(0o444)
    before = path.read_bytes()
    result = bw("fmt", path, user_nobody=True)
    if path.read_bytes() != before:
        return "the read-only file changed"
    return clean(result, (1, 2), r"base\.game")


@case("fmt: a read-only folder (no temporary file)")
def _():
    root = folder("fmt-rodir", BASE.replace("param target = 5", "param   target=5"))
    root.chmod(0o555)
    try:
        result = bw("fmt", root / "base.game", user_nobody=True)
    finally:
        root.chmod(0o755)
    return clean(result, (0, 1, 2))


@case("fmt: a full disk leaves the rule file whole")
def _():
    return full_disk_check("fmt")


# ------------------------------------------------------------------ rule files

def rule_case(label, game, argv=("validate",), codes=(1,), position=r"base\.game:\d+:\d+", data=TILES, timeout=TIMEOUT):
    @case(label)
    def check():
        path = folder(re.sub(r"\W+", "-", label)[:60], game, data) / "base.game"
        return clean(bw(argv[0], path, *argv[1:], timeout=timeout), codes, position)


rule_case("rules: a proc named setup", BASE.replace("fn bonus", "proc setup() { points[0] += 1 }\nfn bonus"))
for _seats in ("[7]", "[0 - 1]", "[none]"):
    for _argv in (("simulate", "--players", "2", "--games", "2"), ("check", "--players", "2"),
                  ("play", "--players", "2", "--seats", "random,random")):
        rule_case(f"rules: by each p in {_seats}, {_argv[0]}",
                  BASE.replace('choose spot from [(0, 0), (1, 1)] prompt "Where?"',
                               f'choose spot from [(0, 0), (1, 1)] by each q in {_seats} prompt "Where?"')
                  .replace("move top(bag) to board at spot", "move top(bag) to board at (0, 0)"),
                  _argv, position=r"base\.game:23:\d+")
rule_case("rules: a NUL in a title", BASE.replace("Golden base", "Gol\0den"))
rule_case("rules: a \\x00 escape in a title", BASE.replace("Golden base", "Gol\\x00den"))
rule_case("rules: a 400-digit score", BASE.replace('"Points": points[p]', '"Points": ' + "7" * 400),
          ("simulate", "--players", "2", "--games", "2"), codes=(0, 1), position=None)
rule_case("rules: a huge computed score", BASE.replace('"Points": points[p]', '"Points": points[p] + pow2(20000)')
          .replace("fn bonus", "fn pow2(n: int) -> int = if n == 0 then 1 else 2 * pow2(n - 1)\nfn bonus"),
          ("simulate", "--players", "2", "--games", "2"), codes=(1,))
rule_case("rules: a 70-deep nested product", BASE.replace("points[p] += bonus(p)",
                                                          "points[p] += " + "(" * 70 + "1" + " * 2)" * 70),
          ("simulate", "--players", "2", "--games", "1"), codes=(0, 1), position=None)
rule_case("rules: a 300-deep nested expression", BASE.replace("points[p] += bonus(p)",
                                                              "points[p] += " + "(" * 300 + "1" + " + 2)" * 300),
          ("simulate", "--players", "2", "--games", "1"), codes=(0, 1), position=None)
rule_case("rules: 2,000-deep nested list", BASE.replace("points[p] += bonus(p)",
                                                        "points[p] += len(" + "[" * 2000 + "1" + "]" * 2000 + ")"),
          ("validate",), codes=(0, 1), position=None)
rule_case("rules: bot asks for an unbounded budget", BASE + 'bot mcts "iterations=1000000000000"\n')
rule_case("rules: bot asks for infinite seconds", BASE + 'bot mcts "seconds=inf"\n')
rule_case("rules: lines_through on a huge window", BASE.replace("points[p] += bonus(p)",
                                                               "points[p] += len(lines_through(board, spot, 1000000000))"),
          ("simulate", "--players", "2", "--games", "2"), codes=(0, 1), position=None)
rule_case("rules: lines_through on a big grid", BASE.replace("grid size 3 x 3", "grid size 3000 x 3000").replace(
    "points[p] += bonus(p)", "points[p] += len(lines_through(board, spot, 2999))"),
    ("simulate", "--players", "2", "--games", "2"), codes=(0, 1), position=None)
rule_case("rules: an exponential recursion",
          BASE.replace("fn bonus(p: player) -> int = 1", "fn fib(n: int) -> int = if n < 2 then n else fib(n - 1) + fib(n - 2)\n"
                       "fn bonus(p: player) -> int = fib(60) % 7"),
          ("simulate", "--players", "2", "--games", "1"), position=r"base\.game:13:1")
rule_case("rules: nested inlined fns",
          BASE.replace("fn bonus(p: player) -> int = 1",
                       "fn f0(n: int) -> int = n + 1\n" + "".join(f"fn f{i}(n: int) -> int = f{i-1}(n) + f{i-1}(n + 1)\n"
                                                                   for i in range(1, 40))
                       + "fn bonus(p: player) -> int = f39(1) % 7"),
          ("simulate", "--players", "2", "--games", "1"), position=r"base\.game:\d+:1")
rule_case("rules: a file of 12,000 lines and 4,000 errors", BASE * 400, timeout=30)


def limit_case(label, statement, head="", argv=("simulate", "--players", "2", "--games", "1"), codes=(1,),
               position=r"base\.game:1[89]:\d+"):
    @case(label)
    def check():
        path = with_statement(re.sub(r"\W+", "-", label)[:60], statement, head)
        return clean(bw(argv[0], path, *argv[1:]), codes, position)


limit_case("limits: quadratic membership", "for k in [range(1000000)] { let l = [x for x in k if x in k] }")
limit_case("limits: any * a big number", 'let n = ["ab", 1][0] * 100000000')
limit_case("limits: any % formatting", 'let n = ["%0900000000d", 1][0] % 5')
limit_case("limits: any < ", 'let n = ["ab", 1][0] < 5')
limit_case("limits: any // ", 'let n = ["ab", 1][0] // 5')
limit_case("limits: flatten of deep nesting", "for i in range(100000) { v = [v] }\n  log \"{len(flatten(v))}\"",
           head="var v: list of any = []\n", codes=(0, 1), position=None)
limit_case("limits: rendering of deep nesting", "for i in range(100000) { v = [v] }\n  log \"{v}\"",
           head="var v: list of any = []\n", codes=(0, 1), position=None)
limit_case("limits: rendering of deep nesting, check", "for i in range(100000) { v = [v] }\n  log \"{v}\"",
           head="var v: list of any = []\n", argv=("check", "--players", "2"), codes=(0, 1), position=None)


@case("limits: a 20 MB data file")
def _():
    path = folder("bigdata") / "base.game"
    with open(path.parent / "tiles.yaml", "a") as out:
        out.write("# " + "x" * 20_000_000 + "\n")
    return clean(bw("validate", path), (1, 2), r"tiles\.yaml")


@case("limits: a data file of 100,000 items")
def _():
    data = TILES.replace("      - product:", "      - {colour: red, value: 1, copies: 2000000}\n      - product:")
    path = folder("bigitems", BASE, data) / "base.game"
    return clean(bw("validate", path), (1,), r"tiles\.yaml:\d+")


@case("check: a game of thousands of decisions")
def _():
    game = BASE.replace("  for p in players {\n    turn p {", "  for r in range(3000) { for p in players {\n    turn p {") \
               .replace("      move top(bag) to board at spot\n", "") \
               .replace("    }\n  }\n}\n\nscore", "    }\n  } }\n}\n\nscore")
    path = folder("long-check", game) / "base.game"
    return clean(bw("check", path, "--players", "2", "--examples", "1", timeout=30), (0, 1), None)


@case("compare: games that make no decision")
def _():
    game = BASE.replace(BASE[BASE.index("play {"):BASE.index("score p")], "play { points[0] += 1 }\n\n")
    path = folder("nodecision", game) / "base.game"
    return clean(bw("compare", path, "--players", "2", "--games", "2", "--set", "target=1", "--set", "target=2"),
                 (0, 1, 2))


# ------------------------------------------------------------------ new, CLI values

@case("new: a 300-character name")
def _():
    return clean(bw("new", "n" * 300, cwd=HERE), (2,))


@case("new: over a dangling symlink")
def _():
    (HERE / "dangling").unlink(missing_ok=True)
    os.symlink(HERE / "nowhere", HERE / "dangling")
    return clean(bw("new", "dangling", cwd=HERE), (2,))


@case("new: in a read-only folder")
def _():
    ro = HERE / "readonly"
    ro.mkdir(exist_ok=True)
    ro.chmod(0o555)
    try:
        return clean(bw("new", "game", cwd=ro, user_nobody=True), (2,))
    finally:
        ro.chmod(0o755)


for _argv in (["simulate", "punto", "--games", "2147483648"], ["simulate", "punto", "--variant", "v" * 300],
              ["play", "punto", "--seats", "random,random", "--log", ""],
              ["simulate", "punto", "--games", "99999999999999999999999"], ["simulate", "punto", "--csv", ""], ["simulate", "punto", "--bots", "gredy"]):
    def _make(argv):
        @case("cli: " + " ".join(a if len(a) < 20 else a[:8] + "..." for a in argv))
        def check():
            return clean(bw(*argv), (2,))
    _make(_argv)


# ------------------------------------------------------------------ odd files beside a game

def odd_folder(kind):
    root = folder(f"odd-{kind}")
    if kind == "fifo":
        os.mkfifo(root / "trap.game")
    else:
        os.symlink("/dev/zero", root / "trap.game")
    return root


for _kind in ("fifo", "zero"):
    for _argv in (["validate"], ["info"], ["fmt", "--check"], ["explain"], ["validate", "--strict"]):
        def _make(kind, argv):
            @case(f"odd files: a {kind} named *.game, {' '.join(argv)}")
            def check():
                root = odd_folder(kind)
                return clean(bw(argv[0], root / "base.game", *argv[1:]), (0, 1))
        _make(_kind, _argv)

    def _make_folder(kind):
        @case(f"odd files: a {kind} named *.game, fmt --check FOLDER and validate FOLDER")
        def check():
            root = odd_folder(kind)
            return clean(bw("fmt", "--check", root), (0, 1, 2)) or clean(bw("validate", root), (0, 1, 2))
    _make_folder(_kind)


@case("odd files: a data file that is a FIFO")
def _():
    root = folder("fifo-data")
    (root / "tiles.yaml").unlink()
    os.mkfifo(root / "tiles.yaml")
    return clean(bw("validate", root / "base.game"), (1,), r"base\.game:4:\d+")


@case("odd files: a FIFO as a log to replay")
def _():
    os.mkfifo(HERE / "fifo.log.json")
    return clean(bw("replay", HERE / "fifo.log.json"), (2,))


# ------------------------------------------------------------------ full disk, signals

FULL = Path("/tmp/bw-outside-full")


def full_disk() -> bool:
    FULL.mkdir(exist_ok=True)
    if os.path.ismount(FULL):
        subprocess.run(["umount", FULL], check=False)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", FULL], capture_output=True).returncode == 0


def full_disk_check(command):
    if not full_disk():
        return "SKIP: cannot mount a tmpfs"
    try:
        text = BASE.replace("param target = 5", "param   target=5") + "# " + "y" * 20000 + "\n"
        path = FULL / "base.game"
        path.write_text(text)
        (FULL / "tiles.yaml").write_text(TILES)
        filler = FULL / "filler"
        try:
            with open(filler, "wb") as out:
                while True:
                    out.write(b"\0" * 1024)
                    out.flush()
        except OSError:
            pass
        if command == "fmt":
            result = bw("fmt", path)
            if path.read_text() != text:
                return "the rule file was cut short"
            leftovers = [p.name for p in FULL.iterdir() if p.name not in ("base.game", "tiles.yaml", "filler")]
            return (f"left behind: {leftovers}" if leftovers else None) or clean(result, (1, 2))
        if command == "csv":
            result = bw("simulate", "punto", "--players", "2", "--games", "2", "--csv", FULL / "out.csv")
            filler.unlink()
            return clean(result, (1, 2)) or (None if "Games" in result.out or "games" in result.out
                                             else "the report is lost: " + result.text[:300])
        if command == "log":
            result = bw("play", "punto", "--players", "2", "--seats", "random,random", "--log", FULL / "g.log.json")
            leftovers = [p.name for p in FULL.iterdir() if p.name not in ("base.game", "tiles.yaml", "filler")]
            return (f"left behind: {leftovers}" if leftovers else None) or clean(result, (1, 2))
    finally:
        subprocess.run(["umount", FULL], check=False)


@case("full disk: simulate --csv keeps the report")
def _():
    return full_disk_check("csv")


@case("full disk: play --log")
def _():
    return full_disk_check("log")


@case("log in a read-only folder")
def _():
    ro = HERE / "ro-log"
    ro.mkdir(exist_ok=True)
    log = ro / "g.log.json"
    log.write_text("{}")
    ro.chmod(0o555)
    try:
        return clean(bw("play", "punto", "--players", "2", "--seats", "random,random", "--log", log, user_nobody=True),
                     (1, 2))
    finally:
        ro.chmod(0o755)


@case("SIGTERM during play --log leaves no temporary file")
def _():
    root = HERE / "sigterm"
    root.mkdir(exist_ok=True)
    log = root / "g.log.json"
    for delay in (1.5, 2.5):
        proc = subprocess.Popen([sys.executable, "-m", "boardwright", "play", "punto", "--players", "2", "--seats",
                                 "random,random", "--log", str(log), "--seed", "1"], env=env(), cwd=root,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(delay)
        proc.send_signal(signal.SIGTERM)
        err = proc.communicate(timeout=TIMEOUT)[1].decode()
        if "Traceback" in err:
            return "traceback: " + err[-300:]
    leftovers = [p.name for p in root.iterdir() if p.name != "g.log.json"]
    if leftovers:
        return f"left behind: {leftovers}"
    if log.exists():
        json.loads(log.read_text())
    return None


@case("SIGTERM while a human is asked, with --log")
def _():
    root = HERE / "sigterm-human"
    root.mkdir(exist_ok=True)
    log = root / "g.log.json"
    proc = subprocess.Popen([sys.executable, "-m", "boardwright", "play", "punto", "--players", "2", "--seats",
                             "human,random", "--log", str(log), "--seed", "1"], env=env(), cwd=root,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    proc.stdin.write(b"1\n")
    proc.stdin.flush()
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    err = proc.communicate(timeout=TIMEOUT)[1].decode()
    leftovers = [p.name for p in root.iterdir() if p.name != "g.log.json"]
    if "Traceback" in err:
        return "traceback: " + err[-300:]
    if leftovers:
        return f"left behind: {leftovers}"
    if not log.exists() or not json.loads(log.read_text())["moves"]:
        return "the human's move is not on disk"
    return None


# ------------------------------------------------------------------ extends, replay, messages

@case("extends \"punto\" with a punto file and folder in the current folder")
def _():
    root = HERE / "extends"
    root.mkdir(exist_ok=True)
    (root / "punto").write_text("SECRET-CONTENTS\n")
    (root / "punto.game").write_text("SECRET-CONTENTS\n")
    (root / "v.game").write_text('variant "V" extends "punto"\n')
    result = bw("validate", "v.game", cwd=root)
    if "SECRET" in result.text:
        return "the local file was read: " + result.text[:300]
    return clean(result, (0,))


@case("extends \"punt\" (a typo) suggests punto")
def _():
    root = HERE / "extends-typo"
    root.mkdir(exist_ok=True)
    (root / "v.game").write_text('variant "V" extends "punt"\n')
    result = bw("validate", "v.game", cwd=root)
    return clean(result, (1,), r"v\.game:1:\d+") or (None if "punto" in result.text else "no did-you-mean")


LONG_GAME = """game "Long"
players 2
var n: int = 0
play {
  for r in range(MOVES) {
    for p in players {
      turn p { choose x from [1, 2] prompt "Pick" n += x }
    }
  }
}
score p { "n": n }
"""


@case("replay: a 40,000-move log")
def _():
    root = HERE / "long"
    root.mkdir(exist_ok=True)
    (root / "long.game").write_text(LONG_GAME.replace("MOVES", "20000"))
    log = root / "long.log.json"
    made = bw("play", root / "long.game", "--seats", "random,random", "--log", log, timeout=120)
    if made.code != 0:
        return "could not make the log: " + made.text[-300:]
    return clean(bw("replay", log, "--step", "40000", timeout=TIMEOUT * 2), (0,))


for _label, _scenario, _at in (("a scenario move not among 100,000 options", "moves: [nope]\n", ":3:"),
                               ("options_include on 100,000 options", "expect:\n  options_include: [nope]\n", ":")):
    def _make(label, scenario, at):
        @case(f"messages: {label}")
        def check():
            root = HERE / re.sub(r"\W+", "-", label)
            root.mkdir(exist_ok=True)
            (root / "g.game").write_text('game "G"\nplayers 2\nplay { turn 0 { choose x from range(100000) prompt "P" } }\n'
                                         'score p { "s": 0 }\n')
            (root / "s.scenario.yaml").write_text("game: g.game\nplayers: 2\n" + scenario)
            result = bw("test", root / "s.scenario.yaml")
            if len(result.text) > 3000:
                return f"a message of {len(result.text)} characters"
            return clean(result, (1,), r"s\.scenario\.yaml" + at + r"\d+")
    _make(_label, _scenario, _at)


@case("messages: a data value not among 100,000 enum members")
def _():
    members = ", ".join(f"m{i}" for i in range(100000))
    data = TILES.replace("Colour: [red, blue]", f"Colour: [red, blue, {members}]").replace(
        "colour: [red, blue]", "colour: [red, purple]")
    path = folder("longenum", BASE, data) / "base.game"
    result = bw("validate", path, timeout=30)        # reading 100,000 members takes seconds
    if len(result.text) > 3000:
        return f"a message of {len(result.text)} characters"
    return clean(result, (1,), r"tiles\.yaml:\d+")


# ------------------------------------------------------------------ the language server

def lsp_session(actions, timeout=TIMEOUT):
    sys.path.insert(0, str(REPO / "tests"))
    import test_lsp
    os.environ.update(env())
    test_lsp.TIMEOUT = timeout
    client = test_lsp.Client()
    try:
        client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        client.send("initialized", {}, request=False)
        return actions(client, test_lsp)
    finally:
        try:
            client.send("exit", None, request=False)
            client.proc.wait(timeout=5)
        except Exception:
            client.proc.kill()


@case("lsp: requests for a document that is not open")
def _():
    def actions(client, module):
        uri = (HERE / "never-opened.game").as_uri()
        for method in ("textDocument/hover", "textDocument/definition", "textDocument/completion",
                       "textDocument/documentSymbol", "textDocument/formatting", "textDocument/signatureHelp"):
            ident = client.send(method, {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0},
                                         "options": {"tabSize": 2, "insertSpaces": True}})
            reply = client.wait(lambda m: m.get("id") == ident)
            if "Traceback" in json.dumps(reply) or ("error" in reply and reply["error"].get("code") != -32601):
                return f"{method}: {json.dumps(reply)[:300]}"
        return None
    return lsp_session(actions)


@case("lsp: 2,000 quick edits")
def _():
    def actions(client, module):
        path = HERE / "burst.game"
        path.write_text(BASE)
        uri = path.as_uri()
        client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "boardwright", "version": 1,
                                                              "text": BASE}}, request=False)
        start = time.perf_counter()
        for version in range(2, 2002):
            client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                   "contentChanges": [{"text": BASE.replace("5", str(version))}]},
                        request=False)
        ident = client.send("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 7}})
        client.wait(lambda m: m.get("id") == ident)
        seconds = time.perf_counter() - start
        return f"{seconds:.1f} s to answer after 2,000 edits" if seconds > TIMEOUT else None
    return lsp_session(actions, timeout=60)


@case("lsp: a FIFO and a /dev/zero link beside the opened game")
def _():
    root = odd_folder("fifo")
    os.symlink("/dev/zero", root / "zero.game")

    def actions(client, module):
        path = root / "base.game"
        client.send("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "boardwright",
                                                              "version": 1, "text": BASE}}, request=False)
        ident = client.send("textDocument/hover", {"textDocument": {"uri": path.as_uri()},
                                                   "position": {"line": 5, "character": 7}})
        client.wait(lambda m: m.get("id") == ident)
        return None
    try:
        return lsp_session(actions)
    except Exception as error:          # queue.Empty: no answer in time
        return f"no answer: {type(error).__name__}"


@case("lsp: positions out of range, a huge and a deeply nested document")
def _():
    def actions(client, module):
        path = HERE / "huge.game"
        for text in (BASE * 400, "game \"x\"\nplayers 2\nplay { log \"{" + "(" * 50000 + "}\" }\n"):
            client.send("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "boardwright",
                                                                  "version": 1, "text": text}}, request=False)
            ident = client.send("textDocument/hover", {"textDocument": {"uri": path.as_uri()},
                                                       "position": {"line": 10 ** 9, "character": 10 ** 9}})
            reply = client.wait(lambda m: m.get("id") == ident)
            if "error" in reply:
                return json.dumps(reply)[:300]
        return None
    return lsp_session(actions, timeout=30)


def main(argv) -> int:
    failed = 0
    for name, check in CASES:
        if argv and not any(word in name for word in argv):
            continue
        start = time.perf_counter()
        try:
            problem = check()
        except Exception as error:          # the harness itself
            problem = f"HARNESS: {type(error).__name__}: {error}"
        mark = "ok  " if problem is None else ("skip" if problem.startswith("SKIP") else "FAIL")
        failed += mark == "FAIL"
        print(f"{mark} {time.perf_counter() - start:5.1f}s  {name}" + ("" if problem is None else f"\n       {problem}"),
              flush=True)
    print(f"{failed} failed; files in {HERE}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
