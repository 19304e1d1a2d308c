"""Tile patterns of the special hands (seed L124-322), each a function Shape → groupings.

Two families. Hands built on an ordinary reading (4 sets + a pair: Pure Hand, All Honours, Heads
and Tails, Lily of the Valley, …) filter :meth:`Shape.standard`. The others (pairs hands, runs,
single tiles) read the counts of all tiles and build their one grouping, which
:func:`~scoring.australian.shape.attach_melds` then checks against the declared sets.
A pattern yields nothing when the tiles do not fit. Values and claims live in :mod:`.special`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mahjong_camera_scorer.scoring.australian.context import AustralianContext
from mahjong_camera_scorer.scoring.australian.parts import (
    CHOW,
    DRAGONS,
    GREEN,
    KONG,
    PAIR,
    PUNG,
    RED,
    RUN,
    SINGLE,
    WHITE,
    Part,
    is_teste,
)
from mahjong_camera_scorer.scoring.australian.shape import Grouping, Shape
from mahjong_camera_scorer.scoring.tiles import FIRST_HONOUR, N_KINDS, WINDS

Pattern = Callable[[Shape, AustralianContext], Iterator[Grouping]]

GREEN_BAMBOO = (19, 20, 21, 23, 25)  # 2 3 4 6 8 s (L186, L243)
RED_BAMBOO = (18, 22, 24, 26)  # 1 5 7 9 s (L191, L243, L289)
BAMBOO = tuple(range(18, 27))
TESTE = tuple(k for k in range(N_KINDS) if is_teste(k))
SUITS = (0, 1, 2)


def _n(suit: int, number: int) -> int:
    return 9 * suit + number - 1


def _present(shape: Shape) -> set[int]:
    return {k for k in range(N_KINDS) if shape.counts[k]}


def _pung(shape: Shape, k: int) -> Part:
    return Part(KONG if k in shape.kongs else PUNG, k)


def _winds_with_pair(shape: Shape) -> list[Part] | None:
    """One of each wind plus a fifth wind making a pair (Windy Ones/Nines, Windy Chows)."""
    c = [shape.counts[w] for w in WINDS]
    if sorted(c) != [1, 1, 1, 2]:
        return None
    return [Part(PAIR if n == 2 else SINGLE, w) for w, n in zip(WINDS, c, strict=True)]


def _one_of_each(kinds: tuple[int, ...] | range) -> list[Part]:
    return [Part(SINGLE, k) for k in kinds]


# -- ordinary-reading patterns ----------------------------------------------------------------
def reading(test: Callable[[Grouping, Shape, AustralianContext], bool]) -> Pattern:
    """A pattern that is an ordinary reading (4 sets + pair) meeting ``test``."""

    def pattern(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
        return (g for g in shape.standard() if test(g, shape, ctx))

    pattern.__doc__ = test.__doc__
    pattern.test = test  # type: ignore[attr-defined]  # evaluated per reading by .evaluate
    return pattern


def _sets(g: Grouping) -> list[Part]:
    return [p for p in g if p.kind != PAIR]


def _pair(g: Grouping) -> Part:
    return next(p for p in g if p.kind == PAIR)


def _set_kinds(g: Grouping) -> list[int]:
    return sorted(p.first for p in g if p.is_set)


def all_sets_pungs(g: Grouping) -> bool:
    return all(p.is_set for p in _sets(g))


def pure_hand(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Mano pura: 'interamente di un unico seme, senza Onori' (L127), an ordinary hand."""
    return len(shape.suits) == 1 and shape.honours == 0


def all_kongs(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Mano di tutti poker (L132): four kongs and the pair."""
    return sum(p.kind == KONG for p in g) == 4


def buried_treasure(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Tesoro Sepolto (L137, [2] L318): any 4 sets + pair, all drawn from the wall, no kongs."""
    return not shape.melds


def mixed_concealed_pungs(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Mano di tutti tris coperti mista (L141): as Buried Treasure, but all concealed pungs."""
    return not shape.melds and all(p.kind == PUNG for p in _sets(g))


def all_honours(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Mano di tutti Onori (L146), read as all Teste, suits mixing (A-05); terminals only or
    honours only is Heads and Tails or All Winds and Dragons "instead" (§3.6 #5)."""
    terminals = sum(shape.counts[:FIRST_HONOUR])
    return all_sets_pungs(g) and shape.kinds_in(TESTE) and terminals > 0 and shape.honours > 0


def imperial_jade(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Mano imperiale di giada (L186, [4] L321): all green, at most one chow, Green Dragon."""
    return (
        shape.kinds_in((*GREEN_BAMBOO, GREEN))
        and sum(p.chows for p in g) <= 1
        and (shape.counts[GREEN] > 0 or not ctx.on("jade_requires_green_dragon"))
    )


def royal_ruby(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Mano reale di rubino (L191): 1, 5, 7, 9 of bamboo and Red Dragons (A-21)."""
    return (
        all_sets_pungs(g)
        and shape.kinds_in((*RED_BAMBOO, RED))
        and (shape.counts[RED] > 0 or not ctx.on("ruby_requires_red_dragon"))
    )


def heads_and_tails(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Mano di 1 e 9 (L211): pungs/kongs of terminals only."""
    return all_sets_pungs(g) and shape.kinds_in(k for k in TESTE if k < FIRST_HONOUR)


def winds_and_dragons(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Mano di Venti e di Draghi (L216): pungs/kongs of honours only."""
    return all_sets_pungs(g) and shape.kinds_in(range(FIRST_HONOUR, N_KINDS))


def three_great_scholars(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """I tre grandi sapienti (L221): a pung/kong of each dragon."""
    return set(DRAGONS) <= set(_set_kinds(g))


def four_blessings(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Le quattro benedizioni (L226): a pung/kong of each wind."""
    return set(WINDS) <= set(_set_kinds(g))


def ruby_jade(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Giada rubino (L243): pungs of Green and Red Dragons, of a green and of a red bamboo, and a
    pair of any bamboo (kongs count as pungs, A-22)."""
    if not all_sets_pungs(g) or _pair(g).first not in BAMBOO:
        return False
    kinds = _set_kinds(g)
    rest = [k for k in kinds if k not in (GREEN, RED)]
    return (
        GREEN in kinds
        and RED in kinds
        and len(rest) == 2
        and any(a in GREEN_BAMBOO and b in RED_BAMBOO for a, b in (rest, rest[::-1]))
    )


def _lily(
    dragons: tuple[int, ...], bamboos: tuple[int, ...]
) -> Callable[[Grouping, Shape, AustralianContext], bool]:
    def test(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
        if not all_sets_pungs(g):
            return False
        kinds = _set_kinds(g)
        rest = [k for k in kinds if k not in dragons]
        pair = _pair(g).first
        return (
            all(d in kinds for d in dragons)
            and len(rest) == 4 - len(dragons)
            and all(k in bamboos for k in rest)
            and pair in bamboos
            and pair not in rest
        )

    return test


def lily_of_the_valley(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Il giglio della valle (L284): White and Green Dragons, two green bamboos, a third as pair."""
    return _lily((WHITE, GREEN), GREEN_BAMBOO)(g, shape, ctx)


def red_lily(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Giglio rosso (L289): as the Lily with Red Dragons and red bamboos (A-23)."""
    dragons = (WHITE, RED) if ctx.opts["red_lily_composition"] == "white_and_red" else (RED,)
    return _lily(dragons, RED_BAMBOO)(g, shape, ctx)


def chinese_odds(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Dispari cinesi (L299): pungs and pair of odd numbers of one suit."""
    return (
        all_sets_pungs(g)
        and len(shape.suits) == 1
        and shape.kinds_in(k for k in range(FIRST_HONOUR) if k % 9 % 2 == 0)
    )


def heavenly_paradise(g: Grouping, shape: Shape, ctx: AustralianContext) -> bool:
    """Paradiso celeste (L309, [5] L322): pungs of the three dragons and of the seat wind, which must
    be the round wind, a pair of another wind, and a bouquet."""
    bouquet = all(b in ctx.bonus for b in range(34, 38)) or all(b in ctx.bonus for b in range(38, 42))
    pair = _pair(g).first
    return (
        ctx.seat == ctx.round
        and bouquet
        and set(DRAGONS) | {ctx.seat} <= set(_set_kinds(g))
        and pair in WINDS
        and pair != ctx.seat
    )


# -- tile-count patterns ----------------------------------------------------------------------
def seven_pairs(shape: Shape, ctx: AustralianContext, *, quads: bool | None = None) -> Iterator[Grouping]:
    """Seven pairs; four identical tiles are two pairs unless ``distinct_pairs_required`` (A-20)."""
    allowed = (0, 2, 4) if (quads if quads is not None else not ctx.on("distinct_pairs_required")) else (0, 2)
    if shape.melds or sum(shape.counts) != 14 or any(n not in allowed for n in shape.counts):
        return
    yield tuple(Part(PAIR, k) for k in range(N_KINDS) for _ in range(shape.counts[k] // 2))


def pairs_pattern(test: Callable[[Shape, AustralianContext], bool], *, quads: bool | None = None) -> Pattern:
    def pattern(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
        if test(shape, ctx):
            yield from seven_pairs(shape, ctx, quads=quads)

    pattern.__doc__ = test.__doc__
    return pattern


def all_pairs(shape: Shape, ctx: AustralianContext) -> bool:
    """Mano di tutte coppie (L166): seven pairs of one suit plus honours (with no honours: #10)."""
    return len(shape.suits) <= 1 and shape.honours > 0


def heavenly_twins(shape: Shape, ctx: AustralianContext) -> bool:
    """Gemelli divini (L171): seven pairs of one suit, no honours."""
    return len(shape.suits) == 1 and shape.honours == 0


def all_pair_honours(shape: Shape, ctx: AustralianContext) -> bool:
    """Mano di tutte coppie di Teste (L176): seven pairs of Teste (mixed terminals, A-05)."""
    mixed_ok = ctx.on("all_pair_honours_allow_mixed_terminals")
    return shape.kinds_in(TESTE) and (len(shape.suits) <= 1 or mixed_ok)


def jade_pairs(shape: Shape, ctx: AustralianContext) -> bool:
    """Imperial Jade as seven pairs ([4] L321)."""
    return shape.kinds_in((*GREEN_BAMBOO, GREEN)) and (
        shape.counts[GREEN] > 0 or not ctx.on("jade_requires_green_dragon")
    )


def ruby_pairs(shape: Shape, ctx: AustralianContext) -> bool:
    """Royal Ruby as seven pairs (L192)."""
    red_ok = shape.counts[RED] > 0 or not ctx.on("ruby_requires_red_dragon")
    return shape.kinds_in((*RED_BAMBOO, RED)) and red_ok


def sparrows_sanctuary(shape: Shape, ctx: AustralianContext) -> bool:
    """Il santuario dei passeri (L268): two pairs of 1 bamboo and a pair of each green bamboo."""
    want = {18: 4, 19: 2, 20: 2, 21: 2, 23: 2, 25: 2}
    return all(shape.counts[k] == want.get(k, 0) for k in range(N_KINDS))


def wriggling_snake(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """Il serpente che si contorce (L151): 1-9 of one suit, one of each wind, one more of those."""
    if shape.melds or sum(shape.counts) != 14:
        return
    for s in SUITS:
        run = range(_n(s, 1), _n(s, 9) + 1)
        kinds = set(run) | set(WINDS)
        if _present(shape) <= kinds and all(shape.counts[k] >= 1 for k in kinds):
            extra = next(k for k in kinds if shape.counts[k] == 2)
            winds = [Part(PAIR if w == extra else SINGLE, w) for w in WINDS]
            tail = [Part(SINGLE, extra)] if extra < FIRST_HONOUR else []
            yield (Part(RUN, run[0], 9), *winds, *tail)


def knitting(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """La maglia (L156): seven numbers of one suit each matched by the same number of another
    suit, always the same two suits; numbers may repeat (A-20)."""
    suits = sorted(shape.suits)
    if shape.melds or shape.honours or len(suits) != 2 or sum(shape.counts) != 14:
        return
    a, b = suits
    limit = 1 if ctx.on("distinct_pairs_required") else 4
    if all(shape.counts[9 * a + i] == shape.counts[9 * b + i] <= limit for i in range(9)):
        yield tuple(Part(SINGLE, k) for k in range(N_KINDS) for _ in range(shape.counts[k]))


def triple_knitting(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """Tripla maglia (L161): four numbers in all three suits plus one number in two suits."""
    if shape.melds or shape.honours or sum(shape.counts) != 14:
        return
    distinct = ctx.on("distinct_pairs_required")
    doubles = 0
    triples = 0
    for i in range(9):
        c = [shape.counts[9 * s + i] for s in SUITS]
        t = min(c)
        rest = sorted(n - t for n in c)
        if rest not in ([0, 0, 0], [0, 1, 1]) or (distinct and t + rest[2] > 1):
            return
        triples += t
        doubles += rest[2]
    if (triples, doubles) == (4, 1):
        yield tuple(Part(SINGLE, k) for k in range(N_KINDS) for _ in range(shape.counts[k]))


def thirteen_unique_wonders(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """Meraviglia solitaria (L181): one of each Teste and one of them doubled."""
    if (
        shape.melds
        or sum(shape.counts) != 14
        or not _present(shape) <= set(TESTE)
        or any(shape.counts[k] == 0 for k in TESTE)
    ):
        return
    yield tuple(Part(PAIR if shape.counts[k] == 2 else SINGLE, k) for k in TESTE)


def windy_dragons(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """Draghi ventosi (L196): pungs - not kongs - of two dragons and a pair of each wind."""
    dragons = [d for d in DRAGONS if shape.counts[d]]
    if (
        shape.kongs
        or len(dragons) != 2
        or any(shape.counts[d] != 3 for d in dragons)
        or any(shape.counts[w] != 2 for w in WINDS)
        or sum(shape.counts) != 14
    ):
        return
    yield (*(Part(PUNG, d) for d in dragons), *(Part(PAIR, w) for w in WINDS))


def _one_suit_counts(shape: Shape) -> int | None:
    """The single suit of a hand with no honours, or None."""
    if shape.honours or len(shape.suits) != 1:
        return None
    return next(iter(shape.suits))


def gates_of_heaven(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """I cancelli del paradiso (L201): 111 + 2-8 + 999 of one suit + one more of 2-8."""
    s = _one_suit_counts(shape)
    if s is None or shape.kongs or sum(shape.counts) != 14:
        return
    c = shape.counts[9 * s : 9 * s + 9]
    if c[0] == 3 and c[8] == 3 and all(n >= 1 for n in c[1:8]):
        extra = next(_n(s, i + 1) for i in range(1, 8) if c[i] == 2)
        yield (Part(PUNG, _n(s, 1)), Part(RUN, _n(s, 2), 7), Part(PUNG, _n(s, 9)), Part(SINGLE, extra))


def run_pung_and_pair(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """Serie, tris e coppia (L206): 1-9 of one suit, a pung and a pair, all of that suit."""
    s = _one_suit_counts(shape)
    if s is None or shape.kongs or sum(shape.counts) != 14:
        return
    rest = [n - 1 for n in shape.counts[9 * s : 9 * s + 9]]
    if min(rest) < 0 or sorted(rest)[-2:] != [2, 3]:
        return
    yield (Part(RUN, _n(s, 1), 9), Part(PUNG, _n(s, rest.index(3) + 1)), Part(PAIR, _n(s, rest.index(2) + 1)))


def _run_1_to_7(shape: Shape, extra_allowed: int) -> Iterator[list[Part]]:
    """1-7 of one suit (one each, ``extra_allowed`` more of them): the run and the extra tiles."""
    for s in sorted(shape.suits):
        c = shape.counts[9 * s : 9 * s + 9]
        if c[7] or c[8] or any(n == 0 for n in c[:7]) or sum(c) != 7 + extra_allowed:
            continue
        extras = [Part(SINGLE, _n(s, i + 1)) for i in range(7) for _ in range(c[i] - 1)]
        yield [Part(RUN, _n(s, 1), 7), *extras]


def gertie_s_garter(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """La giarrettiera di Gertie (L248): knitting of exactly 1-7 in two suits."""
    if shape.melds or shape.honours or len(shape.suits) != 2 or sum(shape.counts) != 14:
        return
    if all(shape.counts[9 * s + i] == (1 if i < 7 else 0) for s in shape.suits for i in range(9)):
        yield tuple(Part(SINGLE, k) for k in range(N_KINDS) if shape.counts[k])


def greta_s_garden(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """Il giardino di Greta (L253): one of each dragon and wind and 1-7 of one suit; no pair."""
    honours = range(FIRST_HONOUR, N_KINDS)
    if shape.melds or len(shape.suits) != 1 or any(shape.counts[k] != 1 for k in honours):
        return
    for run in _run_1_to_7(shape, 0):
        yield (*_one_of_each(range(FIRST_HONOUR, N_KINDS)), *run)


def windy_chows(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """Serie ventose (L258): one of each wind, a chow in each suit, one more wind as the pair."""
    winds = _winds_with_pair(shape)
    if winds is None or any(shape.counts[d] for d in DRAGONS):
        return
    chows = []
    for s in SUITS:
        c = shape.counts[9 * s : 9 * s + 9]
        starts = [i for i in range(7) if c[i] == c[i + 1] == c[i + 2] == 1 and sum(c) == 3]
        if not starts:
            return
        chows.append(Part(CHOW, _n(s, starts[0] + 1)))
    yield (*chows, *winds)


def hitler_s_mistake(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """L'errore di Hitler (L263): a concealed dragon pung (not kong), one of each wind, 1-7."""
    dragons = [d for d in DRAGONS if shape.counts[d]]
    if (
        shape.melds
        or len(dragons) != 1
        or shape.counts[dragons[0]] != 3
        or len(shape.suits) != 1
        or any(shape.counts[w] != 1 for w in WINDS)
    ):
        return
    for run in _run_1_to_7(shape, 0):
        yield (Part(PUNG, dragons[0]), *_one_of_each(WINDS), *run)


def windy_terminals(number: int) -> Pattern:
    def pattern(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
        winds = _winds_with_pair(shape)
        pungs = [_n(s, number) for s in SUITS]
        if (
            winds is None
            or any(shape.counts[k] != 3 for k in pungs)
            or sum(shape.counts) != 14
            or any(shape.counts[d] for d in DRAGONS)
        ):
            return
        yield (*(_pung(shape, k) for k in pungs), *winds)

    pattern.__doc__ = (
        f"{number} ventosi (L273, L278): a pung/kong of {number} in each suit, one of "
        "each wind and a fifth wind as the pair."
    )
    return pattern


def red_lantern(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """Lanterna rossa (L294): pungs/kongs of Red Dragons and the seat wind, 1-7 of one suit with
    one number doubled as the pair."""
    if shape.counts[RED] != 3 or shape.counts[ctx.seat] != 3 or shape.honours != 6 or len(shape.suits) != 1:
        return
    for run in _run_1_to_7(shape, 1):
        yield (_pung(shape, RED), _pung(shape, ctx.seat), *run)


def dragonfly(shape: Shape, ctx: AustralianContext) -> Iterator[Grouping]:
    """Libellula (L304): one of each dragon, a pung/kong in each suit and a pair of suit tiles."""
    if any(shape.counts[d] != 1 for d in DRAGONS) or any(shape.counts[w] for w in WINDS):
        return
    pungs, pairs = [], []
    for k in range(FIRST_HONOUR):
        n = shape.counts[k]
        if n == 3:
            pungs.append(_pung(shape, k))
        elif n == 2:
            pairs.append(Part(PAIR, k))
        elif n:
            return
    if sorted(p.first // 9 for p in pungs) == [0, 1, 2] and len(pairs) == 1:
        yield (*_one_of_each(DRAGONS), *pungs, *pairs)
