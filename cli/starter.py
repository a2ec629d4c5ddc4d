"""`boardwright new NAME`: a starter game folder that validates, simulates and passes its test.

The game is small on purpose (deal cards, play one per turn, the highest total wins) and
uses each part of a rule file once, so a designer can change it into their own.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..dsl.errors import UsageError

RULES = '''# {title}: a starter game made by `boardwright new`. Each player is dealt a hand; on a
# turn you play one card and draw one; after {{rounds}} turns each, the highest total wins.
# Change it into your game: docs/tutorial.md explains every construct used here.
game "{title}"
players 2..4
data "cards.yaml"

param hand_size = 3  # cards dealt to each player
param rounds = 3     # turns each player takes

zone deck: stack hidden              # face down; nobody knows the order
zone hand: pile owner per player     # only its owner sees a hand
zone played: pile public per player  # the cards a player has played

var points: int per player = 0

setup {{
  for c in components(Card) {{ move c to deck }}
  shuffle deck
  for p in players {{
    for i in range(hand_size) {{ move top(deck) to hand[p] }}
  }}
}}

play {{
  for r in range(rounds) {{
    for p in players {{
      turn p {{
        choose card from contents(hand[p]) prompt "Play a card" label "{{card}}"
        move card to played[p]
        points[p] += card.value
        log "{{p}} plays {{card}}"
        if not empty(deck) {{ move top(deck) to hand[p] }}
      }}
    }}
  }}
}}

score p {{ "Card values": points[p] }}

invariant "every card is in one place":
  size(deck) + sum([size(hand[p]) + size(played[p]) for p in players]) + size(supply)
  == len(components(Card))
invariant "points are the values played":
  all(points[p] == sum([c.value for c in contents(played[p])]) for p in players)
'''

DATA = '''# The components of {title}: one card of each colour and value.
provenance: >
  Invented for the starter game made by `boardwright new`; replace with your game's
  components and say where the facts come from (rulebook, page).
enums:
  Colour: [red, blue, green, yellow]
components:
  Card:
    label: "{{colour}} {{value}}"
    attributes:
      colour: Colour
      value: int
    items:
      - product:
          colour: [red, blue, green, yellow]
          value: [1, 2, 3, 4, 5, 6]
'''

SCENARIO = '''name: a played card scores its value and the next player chooses
game: ../{name}.game
players: 2
seed: 1
state:
  zones:
    hand/0: [red 5, blue 1, green 2]
moves:
  - "red 5"
expect:
  player: 1
  prompt: Play a card
  vars: {{points: [5, 0]}}
  zones:
    played/0: [red 5]
  invariants: true
'''


def create_game(folder: Path) -> Path:
    name = folder.name
    if len(name) > MAX_NAME:
        raise UsageError(f"'{name[:40]}...' cannot name a game: at most {MAX_NAME} characters")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", name):
        raise UsageError(f"'{name}' cannot name a game: use letters, digits, '-' and '_'")
    try:
        taken = folder.exists() or folder.is_symlink()      # a dangling link is taken too
    except OSError as exc:
        raise UsageError(f"cannot create {folder}: {exc.strerror}") from None
    if taken:
        raise UsageError(f"{folder} already exists: choose a new name")
    title = name.replace("-", " ").replace("_", " ").strip().title()
    try:
        (folder / "scenarios").mkdir(parents=True)
        (folder / f"{name}.game").write_text(RULES.format(title=title), encoding="utf-8")
        (folder / "cards.yaml").write_text(DATA.format(title=title), encoding="utf-8")
        (folder / "scenarios" / "first-turn.scenario.yaml").write_text(SCENARIO.format(name=name), encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot create {folder}: {exc.strerror}") from None
    return folder


MAX_NAME = 100          # characters of a game's name (its folder and rule file)
