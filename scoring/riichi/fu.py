"""Fu (mini-points), seed §4.1.1 and riichi.md §4.9.

Base: 30 for a concealed hand winning on a discard, 25 flat for Seven pairs, 20 otherwise. Then
pungs and kongs by the seed's table, +2 for each of dragon pair / seat-wind pair / prevalent-wind
pair / edge-closed-pair wait / self-draw (not with Pinfu) / open pinfu, rounded up to ten.
"""

from __future__ import annotations

import re

from mahjong_camera_scorer.scoring.decompose import Component
from mahjong_camera_scorer.scoring.i18n import Msg
from mahjong_camera_scorer.scoring.riichi.context import RiichiContext
from mahjong_camera_scorer.scoring.riichi.patterns import DRAGON_KINDS, TERMINAL_OR_HONOUR, Shape
from mahjong_camera_scorer.scoring.tiles import FIRST_HONOUR, N_KINDS, Tile

SEVEN_PAIRS_FU = 25
#: "Mini-punti Scoperto Coperto": (kind, terminal or honour) → (open, concealed)
SET_FU = {
    ("pung", False): (2, 4),
    ("pung", True): (4, 8),
    ("kong", False): (8, 16),
    ("kong", True): (16, 32),
}
CODES = tuple(Tile(k).code for k in range(N_KINDS))
WAIT_NAMES = {"edge": "edge wait", "closed": "closed wait", "pair": "pair wait"}

FuItem = tuple[str, int]


#: a fu item that names its set or pair: the label, then the tiles ("concealed pung 8p8p8p")
_WITH_TILES = re.compile(r"^(.*) ((?:\d[mpsz])+)$")


def item_words(name: str) -> Msg:
    """A fu item's name as a message of the catalog (the seed's mini-punti terms, under the riichi
    context), its tiles a field (``concealed pung {tiles}``)."""
    m = _WITH_TILES.match(name)
    if m:
        return Msg(m.group(1) + " {tiles}", {"tiles": m.group(2)}, context="riichi")
    return Msg(name, context="riichi")


def round_up(fu: int) -> int:
    """ "I mini-punti si arrotondano per eccesso alla decina successiva" (32 → 40)."""
    return -(-fu // 10) * 10


def set_fu(g: Component) -> int:
    """Fu of one pung or kong; ``concealed`` is False for a set completed by a discard (§4.1.1)."""
    opened, concealed = SET_FU[(g.kind, g.first in TERMINAL_OR_HONOUR)]
    return concealed if g.concealed else opened


def set_label(g: Component) -> str:
    return f"{'concealed' if g.concealed else 'open'} {g.kind} {CODES[g.first] * len(g.kinds)}"


#: kind ("pung"/"kong") → concealed → first kind → the set's fu item (label, fu), built once
SET_ITEMS: dict[str, tuple[tuple[FuItem, ...], ...]] = {
    kind: tuple(
        tuple((set_label(g), set_fu(g)) for g in (Component(kind, k, concealed) for k in range(N_KINDS)))
        for concealed in (False, True)
    )
    for kind in ("pung", "kong")
}
SEVEN_PAIRS_ITEMS: tuple[FuItem, ...] = (("seven pairs (flat, no rounding)", SEVEN_PAIRS_FU),)
BASE_ITEMS = {
    (True, False): ("concealed hand on a discard", 30),
    (True, True): ("self-draw base", 20),
    (False, True): ("self-draw base", 20),
    (False, False): ("open hand on a discard", 20),
}


def pair_fu(g: Component, ctx: RiichiContext) -> list[FuItem]:
    if g.first < FIRST_HONOUR:
        return []
    items: list[FuItem] = []
    name = CODES[g.first]
    if g.first in DRAGON_KINDS:
        items.append((f"dragon pair {name}", 2))
    if g.first == ctx.seat:
        items.append((f"seat wind pair {name}", 2))
    if g.first == ctx.round and (g.first != ctx.seat or ctx.options["double_wind_pair_fu"] == "4"):
        items.append((f"prevalent wind pair {name}", 2))
    return items


def fu_of(s: Shape, ctx: RiichiContext, pinfu: bool) -> tuple[int, tuple[FuItem, ...] | list[FuItem]]:
    """The rounded fu of a reading and its items before rounding (§4.9)."""
    r = s.reading
    if r.form == "seven_pairs":
        return SEVEN_PAIRS_FU, SEVEN_PAIRS_ITEMS
    items: list[FuItem] = [BASE_ITEMS[(ctx.concealed, ctx.self_drawn)]]
    pair_items: list[FuItem] = []
    for g in r.groups:
        kind = g.kind
        if kind == "pung" or kind == "kong":
            items.append(SET_ITEMS[kind][g.concealed][g.first])
        elif kind == "pair" and g.first >= FIRST_HONOUR:
            pair_items = pair_fu(g, ctx)
    if pair_items:
        items.extend(pair_items)
    wait = WAIT_NAMES.get(r.wait) if r.wait else None
    if wait:
        items.append((wait, 2))
    if ctx.self_drawn and not pinfu:
        items.append(("self-draw", 2))
    if not ctx.concealed and len(s.chows) == 4 and r.wait == "two_sided" and not pair_items:
        items.append(("open pinfu", 2))  # fn 16: an open hand never stays at 20 fu
    total = 0
    for _, fu in items:
        total += fu
    return round_up(total), items
