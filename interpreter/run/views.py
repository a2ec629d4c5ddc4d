"""What a player sees: which zones a seat may look into, and a position as one seat (or a
spectator) sees it, hidden zones by their size only. A mixin of `Game`.
"""
from __future__ import annotations

from .state import State


class Views:
    """The methods of `Game` (engine.py) that show a position to a seat."""

    def labelled(self, st: State, value):
        """Component ids (in a value or a list of values) as labels, for display."""
        if type(value) is list:
            return [self.labelled(st, v) for v in value]
        return value if value is None else self.label_of(st, value)

    def record_text(self, st: State, name: str, value):
        """A var holding records, in words (per player: one text per seat)."""
        show = self.record_vars[name]
        if name in self.per_player_vars and type(value) is list:
            return [None if v is None else show(v, st) for v in value]
        return None if value is None else show(value, st)

    def visible_to(self, key: str, player: int | None) -> bool:
        """Whether `player` (None: a spectator) sees the contents and order of zone `key`."""
        name, _, owner = key.partition("/")
        visibility = self.zone_meta[name][1]
        return visibility == "public" or (visibility == "owner" and player is not None and owner == str(player))

    def unseen_zones(self, st: State, seat: int) -> tuple:
        """The keys of the zones of `st` that `seat` cannot see (the same for every state of a
        player count: worked out once)."""
        key = (st.players, seat)
        keys = self._unseen.get(key)
        if keys is None:
            keys = self._unseen[key] = tuple(k for k in st.zones if not self.visible_to(k, seat))
        return keys

    def cell_glyph(self, st, c: int, cell) -> list:
        """How component c is drawn on a cell it covers: the glyph of its shape's cell there
        when its glyph names cell attributes (a domino's half), else its own."""
        glyphs = self.cell_glyphs[c]
        where = st.loc[c]
        if glyphs is None or len(where) != 4 or cell not in where[3]:
            return self.glyphs[c]
        return glyphs[self.parts[c][where[2]][where[3].index(cell)]]

    def observe(self, st: State, player: int | None) -> dict:
        """What `player` may see (None: a spectator): hidden zones show only their size."""
        zones = {}
        for key, content in st.zones.items():
            kind, visibility, _ = self.zone_meta[key.split("/")[0]]
            visible = self.visible_to(key, player)
            if kind == "grid" and not visible:
                zones[key] = {"size": sum(map(len, content.values()))}
            elif kind == "grid":
                zones[key] = {f"{c[0]},{c[1]}": [self.label_of(st, i) for i in stack]
                              for c, stack in sorted(content.items(), key=lambda kv: (kv[0][1], kv[0][0]))}
            elif visible:
                zones[key] = [self.label_of(st, i) for i in content]
            elif visibility == "top":
                zones[key] = {"size": len(content), "top": self.label_of(st, content[-1]) if content else None}
            else:
                zones[key] = {"size": len(content)}
        shown_vars = {name: (self.labelled(st, value) if name in self.component_vars
                             else self.record_text(st, name, value) if name in self.record_vars else value)
                      for name, value in st.vars.items()}
        seen = {"players": st.players, "current": st.current, "turns": list(st.turns),
                "finished": st.finished, "zones": zones, "vars": shown_vars, "log": list(st.log[-10:])}
        details = {key: [self.details[i] for i in st.zones[key]] for key, content in zones.items()
                   if type(content) is list and any(self.details[i] for i in st.zones[key])}
        if details:
            seen["details"] = details       # beside the labels of shown stacks and piles
        pictures = {key: {f"{c[0]},{c[1]}": self.cell_glyph(st, stack[-1], c) for c, stack in content.items() if stack}
                    for key, content in st.zones.items()
                    if key.split("/")[0] in self.cell_pictures and "size" not in zones[key]}
        if pictures:
            seen["glyphs"] = pictures       # how grid cells are drawn, for zones whose kind has a glyph
            pieces = {key: {f"{c[0]},{c[1]}": stack[-1] for c, stack in st.zones[key].items()
                            if stack and self.orientations[stack[-1]] is not None} for key in pictures}
            if any(pieces.values()):
                seen["pieces"] = {key: cells for key, cells in pieces.items() if cells}   # drawn as units
        p = st.pending
        if p is not None:
            mine = p.player == player
            seen["decision"] = {"player": p.player, "prompt": self.prompt(st) if mine else None,
                                "options": [{"id": i, "label": l} for i, l in
                                            zip(self.option_ids(st), self.option_labels(st))] if mine else None}
        if st.sealed is not None:
            # A simultaneous decision: everyone sees who has chosen, only the owner what.
            chosen = [seat for seat, _ in st.sealed.chosen]
            seen["sealed"] = {"players": list(st.sealed.players), "chosen": sorted(chosen),
                              "yours": self.sealed_choice_label(st, player) if player in chosen else None}
        return seen
