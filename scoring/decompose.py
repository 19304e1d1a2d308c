"""Every way to read a winning hand, with every place the winning tile can take.

All rule systems share this: a hand like ``111222333m`` is three pungs *or* three chows, and a
winning tile may sit in a chow (two-sided, edge or closed wait), in a pung (dual-pung wait) or in
the pair (pair wait). Each way is a :class:`Decomposition` of the hand into its
:class:`Component` s (sets, pairs, singles); scorers value each and keep the best, which is what
every seed demands ("the highest-scoring reading always wins").

The work is done on 34-long count vectors with memoised recursion: partitions of the concealed
part depend only on its counts, so the same sub-problem is never solved twice in a batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.tiles import FIRST_HONOUR, N_KINDS, TERMINALS_AND_HONOURS, counts34

CHOW, PUNG, KONG, PAIR, SINGLE = "chow", "pung", "kong", "pair", "single"

STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS = "standard", "seven_pairs", "thirteen_orphans"

#: Wait kinds. ``thirteen_orphans`` is the single-tile wait of thirteen orphans on the missing
#: orphan; a thirteen-orphans hand whose winning tile formed its pair has wait ``pair``.
TWO_SIDED, EDGE, CLOSED, PAIR_WAIT, DUAL_PUNG, ORPHAN_WAIT = (
    "two_sided",
    "edge",
    "closed",
    "pair",
    "dual_pung",
    "thirteen_orphans",
)
#: Each wait kind as a reader sees it: the English message of the catalog (:mod:`scoring.i18n`);
#: the kinds above are identifiers (the JSON's), never shown.
WAIT_WORDS = {
    TWO_SIDED: "two-sided",
    EDGE: "edge",
    CLOSED: "closed",
    PAIR_WAIT: "pair",
    DUAL_PUNG: "dual pung",
    ORPHAN_WAIT: "thirteen orphans",
}


@dataclass(frozen=True, slots=True)
class Component:
    """One part of a decomposition: a set (chow, pung, kong), a pair, or a single tile (thirteen
    orphans). (Not a :class:`scoring.hand.Meld`, which is a set declared at the table.)

    ``concealed`` is False for an open meld *and* for a set completed by a discarded winning tile
    (every seed treats a pung finished by a discard as exposed). ``declared`` marks sets that were
    melds before the win (open sets and concealed kongs). ``winning`` marks the group the winning
    tile completes in this reading.
    """

    kind: str
    first: int
    concealed: bool = True
    declared: bool = False
    winning: bool = False

    @property
    def kinds(self) -> tuple[int, ...]:
        """The tile kinds the group holds, with repeats (a pung of 5m is (4, 4, 4))."""
        if self.kind == CHOW:
            return (self.first, self.first + 1, self.first + 2)
        n = {PUNG: 3, KONG: 4, PAIR: 2, SINGLE: 1}[self.kind]
        return (self.first,) * n

    @property
    def is_pung_like(self) -> bool:
        """Pungs and kongs: most patterns treat a kong as a pung."""
        return self.kind in (PUNG, KONG)

    @property
    def suit(self) -> int:
        """0, 1, 2 for m, p, s; 3 for honours."""
        return min(self.first // 9, 3)

    @property
    def has_terminal_or_honour(self) -> bool:
        f = self.first
        if f >= FIRST_HONOUR:
            return True
        if self.kind == CHOW:
            return f % 9 in (0, 6)
        return f % 9 in (0, 8)


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One way to read a complete hand: its form, its components (``groups``) and the wait.

    Components are ordered: declared melds first (in the hand's order), then concealed sets by tile,
    then the pair (standard form). ``win_group`` indexes the group holding the winning tile, or is
    -1 when there is no winning tile (a loser's hand, nagashi).
    """

    form: str
    groups: tuple[Component, ...]
    wait: str | None
    win_group: int

    @property
    def sets(self) -> tuple[Component, ...]:
        return tuple(g for g in self.groups if g.kind in (CHOW, PUNG, KONG))

    @property
    def pairs(self) -> tuple[Component, ...]:
        return tuple(g for g in self.groups if g.kind == PAIR)

    @property
    def pair(self) -> Component | None:
        """The pair of a standard hand (None for other forms)."""
        if self.form != STANDARD:
            return None
        return next((g for g in self.groups if g.kind == PAIR), None)

    @property
    def chows(self) -> tuple[Component, ...]:
        return tuple(g for g in self.groups if g.kind == CHOW)

    @property
    def pungs(self) -> tuple[Component, ...]:
        """Pungs and kongs."""
        return tuple(g for g in self.groups if g.kind in (PUNG, KONG))

    @property
    def kongs(self) -> tuple[Component, ...]:
        return tuple(g for g in self.groups if g.kind == KONG)


# --------------------------------------------------------------------------------------------
# Partitions of a count vector
# --------------------------------------------------------------------------------------------
Partition = tuple[tuple[str, int], ...]


@lru_cache(maxsize=1 << 17)
def _partitions(counts: tuple[int, ...], suited: bool, n_sets: int, need_pair: bool) -> tuple[Partition, ...]:
    """All multisets of ``n_sets`` sets (+ a pair) that use exactly ``counts``, counts of
    consecutive kinds of one suit (``suited``: chows allowed) or of the honours, indexed from 0.

    Each call settles every copy of the lowest kind present at once (as a pair, a pung and/or the
    start of k chows), so no partition is produced twice.
    """
    n = len(counts)
    i = 0
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        return ((),) if n_sets == 0 and not need_pair else ()
    c = counts[i]
    out: list[Partition] = []
    can_chow = suited and i + 2 < n
    for p in (0, 1) if need_pair else (0,):
        for q in (0, 1):
            k = c - 2 * p - 3 * q
            if k < 0 or q + k > n_sets:
                continue
            if k and not (can_chow and counts[i + 1] >= k and counts[i + 2] >= k):
                continue
            rest = list(counts)
            rest[i] = 0
            if k:
                rest[i + 1] -= k
                rest[i + 2] -= k
            head: Partition = ((PAIR, i),) * p + ((PUNG, i),) * q + ((CHOW, i),) * k
            for tail in _partitions(tuple(rest), suited, n_sets - q - k, need_pair and not p):
                out.append(head + tail)
    return tuple(out)


_BLOCKS = ((0, 9), (9, 18), (18, 27), (FIRST_HONOUR, N_KINDS))


def _run_partitions(lo: int, block: tuple[int, ...]) -> tuple[int, tuple[Partition, ...]]:
    """Partitions of one suit (or the honours) on its own: sets only, or sets and the pair, as
    its tile count says; as (shift, partitions indexed from the first kind held). Suits never
    share a set, so a hand's partitions are the products of its blocks' partitions, and the same
    run of kinds (from the first to the last kind held) has the same partitions wherever it sits
    in a suit, so they are worked out (and memoised) once for every place and every suit."""
    total = sum(block)
    if total % 3 == 1:
        return 0, ()
    if not total:
        return 0, ((),)
    start, end = 0, len(block)
    while not block[start]:
        start += 1
    while not block[end - 1]:
        end -= 1
    return lo + start, _partitions(block[start:end], lo < FIRST_HONOUR, total // 3, total % 3 == 2)


@lru_cache(maxsize=1 << 14)
def _block_partitions(lo: int, block: tuple[int, ...]) -> tuple[Partition, ...]:
    """A block's partitions in place (kind indices of the whole hand)."""
    shift, local = _run_partitions(lo, block)
    if not shift:
        return local
    return tuple([tuple([(kind, shift + i) for kind, i in part]) for part in local])


Block = tuple[int, tuple[int, ...]]


def _held_blocks(counts: list[int] | tuple[int, ...], n_sets: int) -> list[Block] | None:
    """The non-empty blocks (first kind, counts) of concealed counts that are to hold ``n_sets``
    sets and one pair, or None when the tile numbers already rule it out (a block of 3k+1 tiles
    fails later, in its own partitions)."""
    if sum(counts) != 3 * n_sets + 2:
        return None
    counts = tuple(counts)
    out = []
    pairs = 0
    for lo, hi in _BLOCKS:
        block = counts[lo:hi]
        size = sum(block)
        if not size:
            continue
        if size % 3 == 2:
            pairs += 1
            if pairs > 1:
                return None
        out.append((lo, block))
    return out


def standard_partitions(counts: list[int] | tuple[int, ...], n_sets: int) -> tuple[Partition, ...]:
    """Partitions of concealed counts into ``n_sets`` sets and one pair (empty if impossible)."""
    blocks = _held_blocks(counts, n_sets)
    if blocks is None:
        return ()
    parts: tuple[Partition, ...] | None = None
    for lo, block in blocks:
        options = _block_partitions(lo, block)
        if not options:
            return ()
        parts = options if parts is None else tuple([head + tail for head in parts for tail in options])
    return ((),) if parts is None else parts


def is_seven_pairs(counts: list[int] | tuple[int, ...], *, allow_quads: bool = False) -> bool:
    """Seven pairs: 14 tiles in pairs. ``allow_quads`` lets four identical tiles be two pairs (MCR)."""
    if sum(counts) != 14:
        return False
    if allow_quads:
        return all(c in (0, 2, 4) for c in counts)
    return counts.count(2) == 7  # seven kinds of two hold all 14 tiles


def is_thirteen_orphans(counts: list[int] | tuple[int, ...]) -> bool:
    """One of each terminal and honour plus a second of one of them."""
    if not counts[0]:  # the 1 of characters is one of them: most hands stop here
        return False
    return (
        sum(counts) == 14
        and all(counts[i] >= 1 for i in TERMINALS_AND_HONOURS)
        and all(counts[i] == 0 for i in range(N_KINDS) if i not in TERMINALS_AND_HONOURS)
    )


@lru_cache(maxsize=1 << 16)
def _complete(counts: tuple[int, ...], n_sets: int, special: bool, allow_quads: bool) -> bool:
    if standard_partitions(counts, n_sets):
        return True
    return (
        special
        and n_sets == 4
        and (is_seven_pairs(counts, allow_quads=allow_quads) or is_thirteen_orphans(counts))
    )


def is_complete(
    counts: list[int] | tuple[int, ...],
    n_sets: int = 4,
    *,
    special_forms: bool = True,
    seven_pairs_quads: bool = False,
) -> bool:
    """Whether concealed counts finish a hand that still needs ``n_sets`` sets and a pair."""
    return _complete(tuple(counts), n_sets, special_forms, seven_pairs_quads)


def winning_kinds(
    counts: list[int] | tuple[int, ...],
    n_sets: int = 4,
    *,
    special_forms: bool = True,
    seven_pairs_quads: bool = False,
    held: list[int] | None = None,
) -> list[int]:
    """The kinds that would complete a waiting hand (13-tile counts for a hand with no melds).

    ``held`` counts every copy the player already shows (concealed + melds); a kind whose four
    copies are all held cannot be waited on.
    """
    held = held if held is not None else list(counts)
    out = []
    c = list(counts)
    for k in range(N_KINDS):
        if held[k] >= 4:
            continue
        c[k] += 1
        if _complete(tuple(c), n_sets, special_forms, seven_pairs_quads):
            out.append(k)
        c[k] -= 1
    return out


# --------------------------------------------------------------------------------------------
# Readings of a hand
# --------------------------------------------------------------------------------------------
def chow_wait(first: int, win: int) -> str:
    """Wait kind of a chow starting at ``first`` completed by ``win``."""
    pos = win - first
    if pos == 1:
        return CLOSED
    if pos == 0:
        return EDGE if first % 9 == 6 else TWO_SIDED
    return EDGE if first % 9 == 0 else TWO_SIDED


_KINDS = (CHOW, PUNG, KONG, PAIR, SINGLE)
#: Groups are immutable values, so each one a reading can hold is built once and shared:
#: a concealed set or pair (_HELD[kind][first]), a declared meld (_DECLARED[kind][concealed][first])
#: and the group the winning tile completes (_WINNING[kind][concealed][first]).
_HELD = {kind: tuple(Component(kind, f) for f in range(N_KINDS)) for kind in _KINDS}
_DECLARED = {
    kind: tuple(tuple(Component(kind, f, c, True) for f in range(N_KINDS)) for c in (False, True))
    for kind in _KINDS
}
_WINNING = {
    kind: tuple(tuple(Component(kind, f, c, False, True) for f in range(N_KINDS)) for c in (False, True))
    for kind in _KINDS
}


def readings(
    hand: Hand, *, seven_pairs: bool = True, thirteen_orphans: bool = True, seven_pairs_quads: bool = False
) -> list[Decomposition]:
    """Every reading of a complete hand, one per (partition, place of the winning tile).

    An empty list means the tiles do not form a winning shape. Without a winning tile (a loser's
    hand is scored elsewhere) each partition is returned once with ``win_group = -1``.
    """
    counts = counts34(hand.concealed)
    # a meld keeps its tiles sorted, so its first tile is its lowest (Meld.first)
    declared = tuple([_DECLARED[m.kind][not m.open][m.tiles[0].index] for m in hand.melds])
    n_sets = 4 - len(declared)
    win = hand.context.winning_tile.index if hand.context.winning_tile is not None else -1
    by_discard = hand.context.win_by == "discard"
    out: list[Decomposition] = []
    blocks = _held_blocks(counts, n_sets) if n_sets >= 0 else None
    if blocks is not None:
        # standard_partitions as Groups: the product of the blocks' partitions, sets and pairs apart
        combos: Sequence[tuple[tuple[Component, ...], tuple[Component, ...]]] | None = None
        for lo, block in blocks:
            options = _block_groups(lo, block)
            if not options:
                combos = ()
                break
            combos = (
                options
                if combos is None
                else [
                    (sets + more_sets, pairs + more_pairs)
                    for sets, pairs in combos
                    for more_sets, more_pairs in options
                ]
            )
        for sets, pairs in (((), ()),) if combos is None else combos:
            out.extend(_placed(STANDARD, declared, sets + pairs, win, by_discard))
    if not declared:
        if seven_pairs and is_seven_pairs(counts, allow_quads=seven_pairs_quads):
            held = tuple([_HELD[PAIR][i] for i in range(N_KINDS) for _ in range(counts[i] // 2)])
            out.extend(_placed(SEVEN_PAIRS, (), held, win, by_discard))
        if thirteen_orphans and is_thirteen_orphans(counts):
            out.append(_orphans_reading(counts, win, by_discard))
    return out


@lru_cache(maxsize=1 << 14)
def _block_groups(
    lo: int, block: tuple[int, ...]
) -> tuple[tuple[tuple[Component, ...], tuple[Component, ...]], ...]:
    """A block's partitions as concealed components in place: (the sets by tile, the pair) for each."""
    shift, local = _run_partitions(lo, block)
    out = []
    for part in local:
        sets: list[Any] = []
        pairs: list[Any] = []
        for kind, i in part:
            (pairs if kind == PAIR else sets).append(_HELD[kind][shift + i])
        out.append((tuple(sets), tuple(pairs)))
    return tuple(out)


def _placed(
    form: str, declared: tuple[Component, ...], held: tuple[Component, ...], win: int, by_discard: bool
) -> list[Decomposition]:
    """The readings of one partition, one per place of the winning tile. ``held`` are the
    concealed sets by tile, then the pair(s): after the declared melds, the documented order.
    Not memoised: a placement rarely recurs in unseen hands."""
    base = declared + held
    if win < 0:
        return [Decomposition(form, base, None, -1)]
    out: list[Decomposition] = []
    seen: set[tuple[str, int]] = set()
    concealed = not by_discard
    for gi in range(len(declared), len(base)):  # a declared meld never holds the winning tile
        g = base[gi]
        kind, first = g.kind, g.first
        if kind == CHOW:
            if not first <= win <= first + 2:
                continue
            wait = chow_wait(first, win)
        elif first != win:
            continue
        else:
            wait = PAIR_WAIT if kind == PAIR else DUAL_PUNG
        if (kind, first) in seen:
            continue
        seen.add((kind, first))
        groups = list(base)
        groups[gi] = _WINNING[kind][concealed][first]
        out.append(Decomposition(form, tuple(groups), wait, gi))
    return out


def _orphans_reading(counts: list[int], win: int, by_discard: bool) -> Decomposition:
    paired = next(i for i in TERMINALS_AND_HONOURS if counts[i] == 2)
    groups = [Component(PAIR, paired) if i == paired else Component(SINGLE, i) for i in TERMINALS_AND_HONOURS]
    if win < 0:
        return Decomposition(THIRTEEN_ORPHANS, tuple(groups), None, -1)
    gi = TERMINALS_AND_HONOURS.index(win)
    g = groups[gi]
    groups[gi] = Component(g.kind, g.first, concealed=not by_discard, winning=True)
    return Decomposition(THIRTEEN_ORPHANS, tuple(groups), PAIR_WAIT if win == paired else ORPHAN_WAIT, gi)


def shape_error(hand: Hand) -> str:
    """A precise reason why a hand has no reading (used in 'not a winning hand' messages)."""
    n_sets = 4 - len(hand.melds)
    have = len(hand.concealed)
    need = 3 * n_sets + 2
    if n_sets < 0:
        return f"{len(hand.melds)} declared sets: a hand has at most 4"
    if have != need:
        kongs = sum(1 for m in hand.melds if m.kind == "kong")
        return (
            f"not a complete hand: {have} concealed tiles with {len(hand.melds)} declared sets "
            f"({kongs} kongs); a winning hand needs {need}"
        )
    return "not a winning hand: the tiles do not form 4 sets and a pair (nor a special hand)"
