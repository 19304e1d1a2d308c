"""Limit hands (*grandi giochi*): a pluggable table, empty by default (spec §5.1, D-17).

The seed mentions *grandi giochi* but lists them on another page of the club's site that was not
supplied, so this module invents no hand and no value. A caller who has the club's list fills a
:class:`LimitHandTable` (or the module's :data:`LIMIT_HANDS`) with :class:`LimitHand` rows; a
winning hand that matches one scores its value (None = the limit) instead of base × 2^doubles.

Two *grandi giochi* are named by the seed itself, without a value (:data:`SEED_GRANDI_GIOCHI`):
*"Se sono tutte coppie di testa, o se è mano purissima, si tratta di un 'grande gioco' (lo
vedremo in seguito)"*. Option ``seed_limit_hands`` says whether they are only flagged (default)
or scored at the limit. :data:`POSSIBLE_LIMIT_HANDS` are hands the spec asks to *flag* (many
classical rule sets treat them as limit hands); they are scored with doubles all the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.classical.context import is_head
from mahjong_camera_scorer.scoring.decompose import SEVEN_PAIRS, Decomposition
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.tiles import DRAGONS, FIRST_HONOUR, WINDS, counts34

Matcher = Callable[[Hand, Decomposition], bool]


@dataclass(frozen=True, slots=True)
class LimitHand:
    """One limit hand: its name, when a winning reading is it, its value (None = the limit)."""

    name: str
    matches: Matcher
    value: int | None = None
    source: str = ""


class LimitHandTable:
    """An ordered, caller-filled collection of :class:`LimitHand` rows."""

    def __init__(self, entries: Iterable[LimitHand] = ()) -> None:
        self._entries: list[LimitHand] = list(entries)

    def register(self, entry: LimitHand) -> None:
        self._entries.append(entry)

    def __iter__(self) -> Iterator[LimitHand]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


#: The table ``score()`` uses unless given another: empty until the club's list is supplied.
LIMIT_HANDS = LimitHandTable()


def _kinds(hand: Hand) -> list[int]:
    return [t.index for t in hand.all_tiles()]


def _one_suit_no_honours(hand: Hand) -> bool:
    kinds = _kinds(hand)
    return all(k < FIRST_HONOUR for k in kinds) and len({k // 9 for k in kinds}) == 1


SEED_GRANDI_GIOCHI: tuple[LimitHand, ...] = (
    LimitHand(
        "Seven pairs of terminals/honours (tutte coppie di testa)",
        lambda h, r: r.form == SEVEN_PAIRS and all(is_head(k) for k in _kinds(h)),
        source="Tutte coppie: 'Se sono tutte coppie di testa ... si tratta di un grande gioco'",
    ),
    LimitHand(
        "Seven pairs, purest hand (tutte coppie, mano purissima)",
        lambda h, r: r.form == SEVEN_PAIRS and _one_suit_no_honours(h),
        source="Tutte coppie: '... o se è mano purissima, si tratta di un grande gioco'",
    ),
)


def _pung_kinds(r: Decomposition) -> list[int]:
    return [g.first for g in r.pungs]


def _nine_gates(hand: Hand, r: Decomposition) -> bool:
    c = counts34(hand.concealed)
    if hand.melds or not _one_suit_no_honours(hand):
        return False
    s = 9 * (next(t.index for t in hand.concealed) // 9)
    need = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    return all(c[s + n] >= need[n] for n in range(9))


#: Spec D-17: "flag them possible_limit_hand until the club's list is added". Names only.
POSSIBLE_LIMIT_HANDS: tuple[tuple[str, Matcher], ...] = (
    ("all honours", lambda h, r: all(k >= FIRST_HONOUR for k in _kinds(h))),
    ("all terminals", lambda h, r: all(k < FIRST_HONOUR and k % 9 in (0, 8) for k in _kinds(h))),
    ("big three dragons", lambda h, r: sum(k in DRAGONS for k in _pung_kinds(r)) == 3),
    ("four winds", lambda h, r: sum(k in WINDS for k in _pung_kinds(r)) == 4),
    ("four concealed pungs", lambda h, r: sum(1 for g in r.pungs if g.kind == "pung" and g.concealed) == 4),
    ("all eight bonus tiles", lambda h, r: len(h.bonus_tiles) == 8),
    (
        "four identical chows in one suit",
        lambda h, r: len(r.chows) == 4 and len({g.first for g in r.chows}) == 1,
    ),
    ("nine gates", _nine_gates),
)


def possible_limit_hands(hand: Hand, reading: Decomposition) -> list[str]:
    return [name for name, matches in POSSIBLE_LIMIT_HANDS if matches(hand, reading)]
