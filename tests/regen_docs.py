"""Regenerate the command outputs shown in the docs from real runs (`--check`: only compare).

    python tests/regen_docs.py           # rewrite every shown output that changed
    python tests/regen_docs.py --check   # list the ones that changed; exit 1 if any

A shown output is a ```text block of README.md or docs/*.md whose first line is a command,
`$ boardwright ...` (or `$ head -n N FILE`, to show the start of a file a command wrote).
Every `$ ` line is run in one scratch folder per document, in order (a later command may
read what an earlier one wrote); its standard output and error replace the lines up to the
next `$ ` line. The `boardwright` commands of a document run in forks of one server process
(tests/forked_commands.py: what a subprocess prints and exits with, without starting Python
for each command). In the scratch folder `games/` is the repository's games folder, so bundled
games resolve by name and `games/punto/...` paths read the real files; `examples/` is
docs/examples (the test beds). Commands run as on an 80 x 30 terminal (COLUMNS, LINES).

- A line `...` stands for any number of lines. Regenerating keeps as many lines before the
  first `...` and after the last one as the block shows now.
- A fenced block right after `<!-- file: NAME -->` is written to NAME in the scratch folder
  before the commands run, so a document can show a rule file or a scenario and then run it.
  An absolute path to a bundled game in it (`extends "/work/main/games/punto/punto.game"`,
  as the tutorial writes it) is taken from this repository's games folder.
- `<!-- regen: skip -->` right before a block leaves it alone (an interactive session).
- `<!-- regen: input A|B -->` right before a block types A and B (each with Enter) into its
  commands, as when answers are piped into `boardwright play`.
- Timings are not compared: `12.3 s` at the end of a line and the timing keys of JSON.

tests/test_docs_outputs.py runs the check, so the suite fails when a shown output no longer
matches what the command prints.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from checkout import import_path
from forked_commands import CommandServer

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\s*$")
FILE_MARK = re.compile(r"^<!-- file: (\S+) -->\s*$")
SKIP_MARK = "<!-- regen: skip -->"
INPUT_MARK = re.compile(r"^<!-- regen: input (.*) -->\s*$")
ELISION = "..."
BUNDLED_PATH = re.compile(r'"/[^"]*/games/([^"/]+/[^"]+)"')
TIMING = [(re.compile(r"\b\d+(\.\d+)? s$"), "<time> s"),
          (re.compile(r'"(seconds|load_and_check_ms|first_load_ms|playouts_per_second|turns_per_second|'
                      r'decisions_per_second)": [\d.]+'), r'"\1": <time>')]


@dataclass
class Shown:
    """One ```text block of commands and their outputs: lines start..end (exclusive) of the
    document, the fences excluded."""
    start: int
    end: int
    sections: list         # [(command, [output lines])]
    stdin: str = ""


def parse(lines: list[str]) -> tuple[list[Shown], list[tuple[str, str]]]:
    """The document's shown outputs and its files (name, text)."""
    shown, files = [], []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        before = lines[i - 1] if i else ""
        body = lines[i + 1:end]
        if FILE_MARK.match(before):
            files.append((FILE_MARK.match(before).group(1), "\n".join(body) + "\n"))
        elif fence.group(1) == "text" and before != SKIP_MARK and body and body[0].startswith("$ "):
            sections = []
            for line in body:
                if line.startswith("$ "):
                    sections.append((line[2:], []))
                else:
                    sections[-1][1].append(line)
            typed = INPUT_MARK.match(before)
            shown.append(Shown(i + 1, end, sections, "".join(f"{a}\n" for a in typed.group(1).split("|"))
                               if typed else ""))
        i = end + 1
    return shown, files


def command_env() -> dict:
    """The environment the shown commands run in: an 80 x 30 terminal, no colours, this checkout."""
    return dict(os.environ, COLUMNS="80", LINES="30", NO_COLOR="1", PYTHONPATH=import_path())


def run(command: str, folder: Path, stdin: str = "", server: CommandServer | None = None) -> list[str]:
    """A shown command's output lines (standard output and error as they were written); a
    `boardwright` command in a fork of `server` when one is given, else in a subprocess."""
    argv = shlex.split(command)
    if argv[0] == "boardwright" and server is not None:
        code, printed = server.run(argv[1:], stdin)
        printed = printed.replace("\r\n", "\n").replace("\r", "\n")     # as text=True reads it
    else:
        if argv[0] == "boardwright":
            argv = [sys.executable, "-m", "boardwright", *argv[1:]]
        elif argv[0] != "head":
            raise SystemExit(f"regen_docs: cannot run {command!r}: only boardwright and head commands")
        done = subprocess.run(argv, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env=command_env(), input=stdin, timeout=600)
        code, printed = done.returncode, done.stdout
    if code < 0:                        # killed by a signal: its output is no output of the command
        raise RuntimeError(f"regen_docs: {command!r} was killed by signal {-code}")
    return [line.rstrip() for line in printed.rstrip("\n").splitlines()]


def _plain(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        line = line.rstrip()
        for pattern, replacement in TIMING:
            line = pattern.sub(replacement, line)
        out.append(line)
    return out


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed output fits the shown one (`...` matching any lines)."""
    shown, printed = _plain(shown), _plain(printed)
    if ELISION not in shown:
        return shown == printed
    chunks, current = [], []
    for line in shown:
        if line == ELISION:
            chunks.append(current)
            current = []
        else:
            current.append(line)
    chunks.append(current)
    head, tail = chunks[0], chunks[-1]
    if printed[:len(head)] != head or (tail and printed[len(printed) - len(tail):] != tail):
        return False
    rest, at = printed[len(head):len(printed) - len(tail)], 0
    for chunk in chunks[1:-1]:
        found = next((k for k in range(at, len(rest) - len(chunk) + 1) if rest[k:k + len(chunk)] == chunk), None)
        if found is None:
            return False
        at = found + len(chunk)
    return len(head) + len(tail) <= len(printed)


def regenerated(shown: list[str], printed: list[str]) -> list[str]:
    """The new shown lines: all the output, or as many head and tail lines as were shown."""
    if ELISION not in shown:
        return printed
    head = shown.index(ELISION)
    tail = len(shown) - 1 - max(i for i, line in enumerate(shown) if line == ELISION)
    return printed[:head] + [ELISION] + (printed[len(printed) - tail:] if tail else [])


def process(document: Path, write: bool) -> list[str]:
    """Run a document's commands; return the commands whose shown output differs (and
    rewrite the document when `write`)."""
    lines = document.read_text(encoding="utf-8").splitlines()
    shown, files = parse(lines)
    if not shown:
        return []
    stale = []
    with tempfile.TemporaryDirectory(prefix="boardwright-docs-") as scratch:
        folder = Path(scratch)
        (folder / "games").symlink_to(REPO / "games")
        (folder / "examples").symlink_to(REPO / "docs" / "examples")
        for name, text in files:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            text = BUNDLED_PATH.sub(lambda m: f'"{folder / "games"}/{m.group(1)}"', text)
            (folder / name).write_text(text, encoding="utf-8")
        outputs = {}
        with CommandServer(folder, command_env()) as server:
            for block in shown:             # in document order: commands may need earlier files
                outputs[id(block)] = [(command, run(command, folder, block.stdin, server))
                                      for command, _ in block.sections]
    for block in reversed(shown):           # from the end, so that earlier line numbers stay right
        new_body = []
        for (command, old), (_, printed) in zip(block.sections, outputs[id(block)]):
            if not matches(old, printed):
                stale.append(f"{document.relative_to(REPO)}:{block.start}: $ {command}")
            new_body.append(f"$ {command}")
            new_body.extend(old if matches(old, printed) else regenerated(old, printed))
        lines[block.start:block.end] = new_body
    if write and stale:
        document.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return stale


def stale_outputs(documents: list, write: bool) -> list[str]:
    """`process` over several documents, two at a time (the commands run as subprocesses)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return [entry for found in pool.map(lambda d: process(d, write), documents) for entry in found]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    named = [REPO / a for a in argv if not a.startswith("--")]
    stale = stale_outputs(named or DOCUMENTS, write=not check)
    for entry in stale:
        print(("differs: " if check else "regenerated: ") + entry)
    return 1 if check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
