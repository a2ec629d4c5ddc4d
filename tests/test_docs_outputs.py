"""Every command output shown in the docs is what the command prints today (see
tests/regen_docs.py, which regenerates them), and the docs link only inside the repository."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import regen_docs
from forked_commands import CommandServer

REPO = Path(__file__).resolve().parents[1]


# One test per document that shows command outputs, so that parallel workers share them.
SHOWING = [d for d in regen_docs.DOCUMENTS if regen_docs.parse(d.read_text(encoding="utf-8").splitlines())[0]]


def test_some_documents_show_command_outputs():
    assert {d.name for d in SHOWING} >= {"cli.md", "tutorial.md", "scenarios.md"}


@pytest.mark.slow
@pytest.mark.parametrize("document", SHOWING, ids=[d.name for d in SHOWING])
def test_shown_outputs_match_what_the_commands_print(document):
    stale = regen_docs.process(document, write=False)
    assert not stale, ("these shown outputs differ from what the command prints; run "
                       "'python tests/regen_docs.py' and review the diff:\n" + "\n".join(stale))


# Commands whose output a forked command could get wrong: standard output and error
# interleaved as their buffers flush (standard output in blocks: `ok: punto` comes after the
# error), exit codes 0, 1 and 2, answers read from standard input up to its end.
SAMPLE = [
    (["validate", "punto"], ""),
    (["simulate", "punto", "--players", "5"], ""),
    (["validate", "nosuch.game"], ""),
    (["validate", "broken.game"], ""),
    (["validate", "punto", "broken.game"], ""),
    (["play", "point-city", "--seed", "3"], "1\nquit\n"),
    (["play", "punto", "--players", "2", "--seats", "human,random", "--seed", "1"], "zz\n99\n1\n"),
]


@pytest.mark.slow
def test_a_forked_command_prints_and_exits_as_its_subprocess_does(tmp_path):
    (tmp_path / "games").symlink_to(REPO / "games")
    (tmp_path / "broken.game").write_text('game "Broken"\nplayers two\n')
    env = regen_docs.command_env()
    env.pop("PYTHONUNBUFFERED", None)   # set on this project's machines; buffered, the order shows
    with CommandServer(tmp_path, env) as server:
        forked = [server.run(argv, stdin) for argv, stdin in SAMPLE]
    real = []
    for argv, stdin in SAMPLE:
        done = subprocess.run([sys.executable, "-m", "boardwright", *argv], cwd=tmp_path, env=env,
                              input=stdin.encode(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        real.append((done.returncode, done.stdout.decode("utf-8", "replace")))
    assert [code for code, _ in real] == [0, 2, 2, 1, 1, 0, 0]
    for (argv, _), one, other in zip(SAMPLE, forked, real):
        assert one == other, argv


def test_elisions_and_timings_are_matched_loosely():
    printed = ["head", "one", "two", "three", "tail 12.5 s"]
    assert regen_docs.matches(["head", "...", "tail 1.0 s"], printed)
    assert not regen_docs.matches(["head", "...", "other"], printed)
    assert not regen_docs.matches(["head", "one", "tail 1.0 s"], printed)
    assert regen_docs.regenerated(["x", "...", "y"], printed) == ["head", "...", "tail 12.5 s"]


def test_docs_link_only_inside_the_repository():
    outside = []
    for document in regen_docs.DOCUMENTS + sorted((REPO / "docs" / "games").glob("*.md")):
        text = document.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if re.match(r"[a-z]+://", target):
                continue
            resolved = (document.parent / target).resolve()
            if REPO.resolve() not in resolved.parents or not resolved.exists():
                outside.append(f"{document.relative_to(REPO)}: {target}")
        if document in regen_docs.DOCUMENTS:        # the games' pages cite their rulebook sources by name
            outside += [f"{document.relative_to(REPO)}: mentions shared/" for _ in re.findall(r"`shared/", text)]
    assert not outside, outside
