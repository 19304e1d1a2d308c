"""Goulash jokers: "i quattro 2 di Bambù possono essere considerati dei jolly" (L69).

A joker takes "qualsiasi valore il possessore desideri", which allows "due tris dello stesso pezzo".
A meld holding jokers lists its real tiles and its 2s, e.g. a pung ``5m2s2s`` (flags ``goulash``
and ``jokers``); both input forms read it as the set it stands for (``555m``) and record the
jokers in ``Hand.jokers`` (:func:`scoring.hand.declared_set`), so every rule sees the
represented tile (A-18) while :func:`tiles_error` still counts the real tiles on the table.
Concealed 2s are read every useful way by :func:`substitutions`.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement

from mahjong_camera_scorer.scoring.australian.shape import Shape
from mahjong_camera_scorer.scoring.hand import JOKER_INDEX, Hand, check_tiles
from mahjong_camera_scorer.scoring.tiles import FIRST_HONOUR, N_KINDS, Tile, counts34, parse_tiles

JOKER = JOKER_INDEX


def joker_melds(hand: Hand) -> dict[int, tuple[int, str]]:
    """Meld index → (jokers in it, the real tiles shown)."""
    return {j.meld: (j.count, j.shown) for j in hand.jokers}


def tiles_error(hand: Hand) -> str | None:
    """The core tile check, made on the real tiles when melds hold jokers."""
    jokers = joker_melds(hand)
    if not jokers:
        return check_tiles(hand, red_fives_in_set=0)
    plain = hand.with_changes(melds=tuple(m for i, m in enumerate(hand.melds) if i not in jokers))
    error = check_tiles(plain, red_fives_in_set=0)
    if error:
        return error
    counts = counts34(plain.all_tiles())
    for _i, (n, shown) in jokers.items():
        counts[JOKER] += n
        for t in parse_tiles(shown):
            counts[t.index] += 1
    for k, n in enumerate(counts):
        if n > 4:
            return f"{n} copies of {Tile(k).code} (jokers counted as 2 of bamboo): a set has only 4"
    return None


def substitutions(
    shape: Shape, *, winner: bool, keep_colour: bool
) -> Iterator[tuple[Shape, tuple[int, ...]]]:
    """Every reading of the concealed 2s of bamboo as jokers: each stays a 2s or stands for a kind.

    The kinds tried are those that can matter: for a winner the kinds held, their suit neighbours
    (chows) and the honours (a pung made of jokers), and only substitutions that give an ordinary
    reading (A-18: a joker does not stand for a single or pair tile of a special pattern); for a
    non-winner the kinds held (a joker completes a pair or pung of them).
    """
    n = shape.concealed[JOKER]
    held = {k for k in range(N_KINDS) if shape.counts[k] and k != JOKER}
    kinds = held | {JOKER}
    if winner:
        kinds |= {
            j
            for k in held
            if k < FIRST_HONOUR
            for j in range(k - 2, k + 3)
            if 0 <= j < FIRST_HONOUR and j // 9 == k // 9
        }
        kinds |= set(range(FIRST_HONOUR, N_KINDS))
    base = list(shape.concealed)
    base[JOKER] = 0
    for combo in combinations_with_replacement(sorted(kinds), n):
        c = list(base)
        for k in combo:
            c[k] += 1
        spoils = not keep_colour and any(k != JOKER for k in combo)
        s = Shape(tuple(c), shape.melds, shape.colour_kinds | (frozenset({JOKER}) if spoils else frozenset()))
        if not winner or s.standard():
            yield s, combo
