"""What the element table looks at about the whole hand.

:class:`HandFacts` holds what is the same for every reading (the tiles, the melds, the way the hand
was won, the wait), computed once per hand in flat fields (kind sets as bitmasks) so that each
row of :mod:`scoring.mcr.elements` is a few integer tests. What one reading decides (its sets, its
pair, where the winning tile sits, which pungs stay concealed) is carried by the reading itself,
:class:`scoring.mcr.forms.McrReading`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.decompose import KONG
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.mcr.forms import Tiles
from mahjong_camera_scorer.scoring.tiles import DRAGONS, FIRST_HONOUR, WINDS, wind_index

#: Spec §3.3: the 13 concealed tiles of Nine Gates, 1112345678999 of one suit.
NINE_GATES_SHAPE = (3, 1, 1, 1, 1, 1, 1, 1, 3)

SUIT_MASKS = tuple(((1 << 9) - 1) << (9 * s) for s in range(3))
WIND_MASK = sum(1 << k for k in WINDS)
DRAGON_MASK = sum(1 << k for k in DRAGONS)

#: Hand features: necessary conditions the element table's ``needs`` column names, so a row whose
#: condition the hand lacks is skipped with one integer test (reading features: forms.py).
(
    KONGS,
    FLAGS,
    SELF_DRAWN,
    TILE_HOG,
    LAST_TILE,
    UNIQUE_WAIT,
    NINE_GATES,
    CLOSED_HAND,
    ONE_SUIT,
    HAS_HONOURS,
    NO_HONOURS,
    NO_SIMPLES,
    NO_TERMINALS,
) = (1 << i for i in range(13))
HONOURS_MASK = WIND_MASK | DRAGON_MASK
SIMPLES_MASK = sum(1 << (s * 9 + n) for s in range(3) for n in range(1, 8))
TERMINALS_MASK = sum(1 << (s * 9 + n) for s in range(3) for n in (0, 8))
WIND_KIND = {w: wind_index(w) for w in "ESWN"}


@dataclass(slots=True, eq=False)
class HandFacts:
    """Facts of the hand that no reading changes (built once per hand, never changed)."""

    counts: list[int]  # every tile of the hand (concealed + melds), by kind
    present: int  # the kinds present, as a bitmask (bit k: kind k)
    n_suits: int  # how many of the suits m, p, s are present
    has_winds: bool
    has_dragons: bool
    open_hand: bool  # a claimed (open) meld exists
    self_drawn: bool
    flags: frozenset[str]
    seat: int  # kind index of the seat wind
    prevalent: int  # kind index of the round wind
    kongs_melded: int
    kongs_concealed: int
    kong_kinds: tuple[int, ...]
    nine_gates: bool  # concealed 1112345678999 of one suit before the win, no melds
    unique_wait: bool  # exactly one kind completes the hand (spec §2.6, A16)
    last_tile: bool  # element 27's condition (flag, or three copies in own open melds)
    options: Mapping[str, str]
    features: int  # the hand features above

    @property
    def has_honours(self) -> bool:
        return self.has_winds or self.has_dragons

    @property
    def kongs(self) -> int:
        return self.kongs_melded + self.kongs_concealed


def hand_facts(hand: Hand, options: Mapping[str, str], unique_wait: bool, tiles: Tiles) -> HandFacts:
    """``tiles`` are :func:`scoring.mcr.forms.hand_tiles`; ``unique_wait`` comes from
    :func:`scoring.mcr.forms.unique_wait` (only needed, and so only computed, when some reading
    puts the winning tile where a wait element could apply)."""
    concealed = tiles.counts
    assert hand.context.winning_tile is not None  # a won hand: score() turns one without away first
    win = hand.context.winning_tile.index
    present = tiles.present
    open_hand = False
    kongs_melded = kongs_concealed = in_open_melds = 0
    kong_kinds: list[int] = []
    if hand.melds:
        counts = list(concealed)
        for m in hand.melds:
            first = m.tiles[0].index
            for t in m.tiles:
                counts[t.index] += 1
                present |= 1 << t.index
            if m.open:
                open_hand = True
                in_open_melds += sum(1 for t in m.tiles if t.index == win)
            if m.kind == KONG:
                kong_kinds.append(first)
                if m.open:
                    kongs_melded += 1
                else:
                    kongs_concealed += 1
    else:
        counts = concealed
    n_suits = (present & SUIT_MASKS[0] != 0) + (present & SUIT_MASKS[1] != 0) + (present & SUIT_MASKS[2] != 0)
    nine_gates = False
    if not hand.melds and n_suits == 1 and present < 1 << FIRST_HONOUR:
        before = list(concealed)
        before[win] -= 1
        nine_gates = any(tuple(before[s * 9 : s * 9 + 9]) == NINE_GATES_SHAPE for s in range(3))
    flags = hand.context.flags
    self_drawn = hand.context.win_by == "self_draw"
    last_tile = "last_of_kind" in flags or in_open_melds == 3
    features = (
        (KONGS if kong_kinds else 0)
        | (FLAGS if flags else 0)
        | (SELF_DRAWN if self_drawn else 0)
        | (TILE_HOG if counts.count(4) > len(kong_kinds) else 0)
        | (LAST_TILE if last_tile else 0)
        | (UNIQUE_WAIT if unique_wait else 0)
        | (NINE_GATES if nine_gates else 0)
        | (0 if open_hand else CLOSED_HAND)
        | (ONE_SUIT if n_suits == 1 else 0)
        | (HAS_HONOURS if present & HONOURS_MASK else NO_HONOURS)
        | (0 if present & SIMPLES_MASK else NO_SIMPLES)
        | (0 if present & TERMINALS_MASK else NO_TERMINALS)
    )
    return HandFacts(
        counts,
        present,
        n_suits,
        bool(present & WIND_MASK),
        bool(present & DRAGON_MASK),
        open_hand,
        self_drawn,
        flags,
        WIND_KIND[hand.context.seat_wind],
        WIND_KIND[hand.context.round_wind],
        kongs_melded,
        kongs_concealed,
        tuple(kong_kinds),
        nine_gates,
        unique_wait,
        last_tile,
        options,
        features,
    )
