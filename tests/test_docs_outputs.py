"""Every command output shown in the docs is what the command prints today (see
tests/regen_docs.py, which regenerates them), and the docs link only inside the repository."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import regen_docs

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
