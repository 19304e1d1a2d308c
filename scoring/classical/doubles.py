"""Doubles (*raddoppi*, spec §3.2–§3.4): the fundamental ones for every player, the closing ones
for the winner only.

Seed, "I punti: punti e raddoppi": *"I raddoppi sono di due tipi: quelli 'fondamentali' che
valgono per tutti, e quelli 'di chiusura' che valgono solo per chi fa mah jong."*

Each row is a :class:`Double`: the spec's id and name, the doubles per occurrence, and a function
listing the occurrences (a label each, '' for a whole-hand pattern; an empty list when it does not
apply). "In all" doubles are split the way the seed counts them: a coloured snake is
*"uno derivante dal serpente, l'altro aggiunto per il fatto che è di colore"*, so F8 + F9; a
chained coloured snake is *"serpente (uno) incatenato (uno) di colore (uno)"*, so F8 + F10 + F11.
Cumulation (§3.4): *"dove non ci siano esclusioni esplicite ... i raddoppi sono cumulabili"*.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.classical.context import (
    PARTIAL,
    ClassicalContext,
    group_code,
    is_dragon,
    is_head,
)
from mahjong_camera_scorer.scoring.classical.points import pair_scores
from mahjong_camera_scorer.scoring.decompose import KONG, PUNG, SEVEN_PAIRS, STANDARD, Component
from mahjong_camera_scorer.scoring.tiles import FIRST_BONUS, FIRST_HONOUR, Tile

Occurrences = Callable[[ClassicalContext], list[str]]


@dataclass(frozen=True, slots=True)
class Double:
    id: str
    name: str
    value: int
    occurrences: Occurrences
    seed: str

    def items(self, ctx: ClassicalContext) -> list[tuple[str, int]]:
        return [
            (f"{self.id} {self.name}" + (f" {label}" if label else ""), self.value)
            for label in self.occurrences(ctx)
        ]


def _when(cond: Callable[[ClassicalContext], bool]) -> Occurrences:
    return lambda ctx: [""] if cond(ctx) else []


def _per_set(cond: Callable[[ClassicalContext, Component], bool]) -> Occurrences:
    return lambda ctx: [group_code(g) for g in ctx.pungs if cond(ctx, g)]


# -- bonus tiles -------------------------------------------------------------------------------
def _own_flower(ctx: ClassicalContext) -> list[str]:
    flower, season = ctx.own_bonus()
    if ctx.opts["own_bonus_double"] == "both":  # D-2 variant: one double for the two together
        return [f"{Tile(flower).code}+{Tile(season).code}"] if {flower, season} <= ctx.bonus else []
    return [Tile(flower).code] if flower in ctx.bonus else []


def _own_season(ctx: ClassicalContext) -> list[str]:
    season = ctx.own_bonus()[1]
    return [Tile(season).code] if ctx.opts["own_bonus_double"] == "each" and season in ctx.bonus else []


FLOWERS = frozenset(range(FIRST_BONUS, FIRST_BONUS + 4))
SEASONS = frozenset(range(FIRST_BONUS + 4, FIRST_BONUS + 8))


# -- snakes (F8–F11) ---------------------------------------------------------------------------
SNAKE, CHAINED = (0, 3, 6), (0, 2, 4, 6)


def _snake(ctx: ClassicalContext, starts: tuple[int, ...], same_suit: bool) -> list[Component] | None:
    """Chows starting at 1,4,7 (snake) or 1,3,5,7 (chained), in any suits or in one suit."""
    by_start: dict[int, list[Component]] = {}
    for g in ctx.chows:
        by_start.setdefault(g.first % 9, []).append(g)
    if any(s not in by_start for s in starts):
        return None
    if not same_suit:
        return [by_start[s][0] for s in starts]
    for suit in range(3):
        chosen = [g for s in starts for g in by_start[s] if g.suit == suit]
        if {g.first % 9 for g in chosen} == set(starts):
            return [next(g for g in chosen if g.first % 9 == s) for s in starts]
    return None


def _label(groups: list[Component]) -> str:
    return "-".join(group_code(g) for g in groups)


def _any_snake(ctx: ClassicalContext) -> list[str]:
    """F8: the plain snake, also counted inside a chained snake ('serpente (uno) incatenato (uno)')."""
    for starts in (CHAINED, SNAKE):
        found = _snake(ctx, starts, True) or _snake(ctx, starts, False)
        if found:
            return [_label(found)]
    return []


# -- identical sets (F12–F16) ------------------------------------------------------------------
def _same_number_chows(ctx: ClassicalContext) -> int:
    return max(Counter(g.first % 9 for g in ctx.chows).values(), default=0)


def _same_suit_chows(ctx: ClassicalContext) -> int:
    return max(Counter(g.first for g in ctx.chows).values(), default=0)


def _same_number_pungs(ctx: ClassicalContext) -> int:
    return max(Counter(g.first % 9 for g in ctx.pungs if g.first < FIRST_HONOUR).values(), default=0)


def _head_pungs(ctx: ClassicalContext) -> int:
    return sum(1 for g in ctx.pungs if is_head(g.first))


def _concealed_pungs(ctx: ClassicalContext) -> int:
    """F19/F20 count *tris coperti*: *"se si espongono prima (per esempio perché sono trasformati in
    poker ...) non si possono più considerare tris coperti"*, so concealed kongs do not count
    (D-23) unless the variant says so. A pung completed by the winning discard is not concealed."""
    kinds = (PUNG, KONG) if ctx.opts["concealed_kong_counts_as_concealed_pung"] == "yes" else (PUNG,)
    return sum(1 for g in ctx.pungs if g.kind in kinds and g.concealed)


FUNDAMENTAL: tuple[Double, ...] = (
    Double(
        "F1",
        "Own flower",
        1,
        _own_flower,
        "Proprio fiore e propria stagione: 'Il possesso del fiore e della stagione con il numero "
        "corrispondente al proprio vento vale un raddoppio' (D-2: one per own tile)",
    ),
    Double("F2", "Own season", 1, _own_season, "Proprio fiore e propria stagione (D-2)"),
    Double(
        "F3",
        "Bouquet (all four flowers)",
        1,
        _when(lambda c: c.bonus >= FLOWERS),
        "Bouquet dei fiori e Rosa dei venti: 'tutt'e quattro i fiori ... porta un altro raddoppio' (D-3)",
    ),
    Double(
        "F4",
        "Rosa dei venti (all four seasons)",
        1,
        _when(lambda c: c.bonus >= SEASONS),
        "Bouquet dei fiori e Rosa dei venti: '... o di tutte le stagioni' (D-3)",
    ),
    Double(
        "F5",
        "Dragon pung",
        1,
        _per_set(lambda c, g: is_dragon(g.first)),
        "Tris di draghi: 'L'aver formato un tris (o poker) di un drago comporta un raddoppio'",
    ),
    Double(
        "F6",
        "Seat-wind pung",
        1,
        _per_set(lambda c, g: g.first == c.seat),
        "Tris del proprio vento o del vento di giro",
    ),
    Double(
        "F7",
        "Round-wind pung",
        1,
        _per_set(lambda c, g: g.first == c.round),
        "'Se il proprio vento è anche il vento di giro lo stesso tris vale due raddoppi'",
    ),
    Double(
        "F8",
        "Snake (serpente)",
        1,
        _any_snake,
        "Serpente: 'uno-due-tre, quattro-cinque-sei e sette-otto-nove ... un raddoppio'",
    ),
    Double(
        "F9",
        "Coloured snake (di colore)",
        1,
        _when(lambda c: _snake(c, SNAKE, True) is not None),
        "Serpente di colore: 'due raddoppi (uno derivante dal serpente, l'altro ... di colore)'",
    ),
    Double(
        "F10",
        "Chained snake (incatenato)",
        1,
        _when(lambda c: _snake(c, CHAINED, False) is not None),
        "Serpente incatenato: 'uno-due-tre, tre-quattro-cinque, cinque-sei-sette, sette-otto-nove. "
        "Due raddoppi'",
    ),
    Double(
        "F11",
        "Chained coloured snake (di colore)",
        1,
        _when(lambda c: _snake(c, CHAINED, True) is not None),
        "Serpente incatenato di colore: 'tre raddoppi (due per la combinazione più uno ... di colore)'",
    ),
    Double(
        "F12",
        "Three identical pungs (tre tris uguali)",
        1,
        _when(lambda c: _same_number_pungs(c) >= 3),
        "Tre tris uguali: 'tre tris (o poker) di tessere numerali dello stesso valore'",
    ),
    Double(
        "F13",
        "Three identical chows (tre scale uguali)",
        1,
        _when(lambda c: _same_number_chows(c) >= 3),
        "Tre scale uguali: 'tre scale con gli stessi valori dà un raddoppio'",
    ),
    Double(
        "F14",
        "Three identical chows of one suit (di colore)",
        1,
        _when(lambda c: _same_suit_chows(c) >= 3),
        "Tre scale uguali di colore: 'i raddoppi diventano due' (D-22: 'tre tris' means three chows)",
    ),
    Double(
        "F15",
        "Fourth identical chow (quarta scala uguale)",
        1,
        _when(lambda c: _same_number_chows(c) >= 4),
        "Quarta scala uguale: 'si aggiunge un ulteriore raddoppio'",
    ),
    Double(
        "F16",
        "Fourth identical chow of one suit (di colore)",
        1,
        _when(lambda c: _same_suit_chows(c) >= 4),
        "Quarta scala uguale di colore: 'in pratica diventano quattro raddoppi'",
    ),
    Double(
        "F17",
        "Three pungs of terminals/honours (tre tris di testa)",
        1,
        _when(lambda c: _head_pungs(c) >= 3),
        "Tre tris di testa: 'tre tris (o poker) di tegole di testa'",
    ),
    Double(
        "F18",
        "Fourth pung of terminals/honours (quarto tris di testa)",
        1,
        _when(lambda c: _head_pungs(c) >= 4),
        "Quarto tris di testa: 'Altro raddoppio'",
    ),
    Double(
        "F19",
        "Three concealed pungs (tre tris coperti)",
        1,
        _when(lambda c: _concealed_pungs(c) >= 3),
        "Tre tris coperti: 'tre tris tutti pescati' (D-23)",
    ),
    Double(
        "F20",
        "Fourth concealed pung (quarto tris coperto)",
        1,
        _when(lambda c: _concealed_pungs(c) >= 4),
        "Quarto tris coperto: 'i raddoppi sono due invece di uno'",
    ),
)


# -- closing doubles ---------------------------------------------------------------------------
def _suits(ctx: ClassicalContext) -> set[int]:
    return {k // 9 for k in ctx.kinds if k < FIRST_HONOUR}


def _has_honours(ctx: ClassicalContext) -> bool:
    return any(k >= FIRST_HONOUR for k in ctx.kinds) or ctx.bonus_as_honours


def _pure(ctx: ClassicalContext) -> bool:
    """'tutte le tegole numerali sono dello stesso seme; le altre combinazioni sono di tegole
    letterali' — one suit plus at least one honour, a pair is enough (D-19)."""
    return len(_suits(ctx)) == 1 and _has_honours(ctx)


def _purest(ctx: ClassicalContext) -> bool:
    return len(_suits(ctx)) == 1 and not _has_honours(ctx)


def _all_chows(ctx: ClassicalContext) -> bool:
    """'si perde il diritto a questo raddoppio se la coppia dà punti'."""
    pair = ctx.reading.pair
    return len(ctx.chows) == 4 and pair is not None and not pair_scores(ctx, pair)


def _all_heads(ctx: ClassicalContext) -> bool:
    return all(is_head(k) for k in ctx.kinds)


def _no_heads(ctx: ClassicalContext) -> bool:
    return not any(is_head(k) for k in ctx.kinds) and not ctx.bonus_as_honours


def _all_drawn(ctx: ClassicalContext) -> bool:
    """'si chiude senza mai prendere uno scarto (neanche per la chiusura)': self-drawn, no claimed
    set (concealed kongs are drawn), and a robbed tile is not drawn (D-13)."""
    return (
        ctx.hand.context.self_drawn
        and all(not m.open for m in ctx.hand.melds)
        and not ctx.flag("robbing_kong")
    )


def _roof(ctx: ClassicalContext) -> bool:
    return ctx.flag("kong_replacement") or ctx.flag("flower_replacement")


def _bottled(ctx: ClassicalContext) -> bool:
    """'aveva esposto tutte le sue combinazioni tranne la coppia, e quindi era rimasto con una sola
    tegola coperta' — four sets on the table (concealed kongs laid folded count, D-15)."""
    return len(ctx.hand.melds) == 4 and len(ctx.hand.concealed) == 2


def _within_15(ctx: ClassicalContext) -> bool:
    """'Per un mah jong chiuso prima che siano state giocate quindici tegole' (D-11). With the
    count of discards made (``discards_played``, the winning discard included) the double is
    computed; otherwise the ``within_15`` flag says it."""
    played = ctx.hand.context.discards_played
    if played is None:
        return ctx.flag("within_15")
    if ctx.hand.context.self_drawn:
        return int(played) < 15
    return int(played) <= (14 if ctx.opts["within_15_strict"] == "yes" else 15)


def _all_heads_extra(ctx: ClassicalContext) -> bool:
    return (
        ctx.opts["all_terminals_extra_double"] == "yes" and ctx.reading.form == STANDARD and _all_heads(ctx)
    )


CLOSING: tuple[Double, ...] = (
    Double("C1", "Pure hand (mano pura)", 1, _when(_pure), "Mano pura: 'Vale un raddoppio'"),
    Double(
        "C2",
        "Purest hand (mano purissima)",
        3,
        _when(_purest),
        "Mano purissima: 'due raddoppi in più rispetto alla mano pura, cioè tre'",
    ),
    Double(
        "C3",
        "All pungs (tutti tris)",
        1,
        _when(lambda c: c.reading.form == STANDARD and len(c.pungs) == 4),
        "Tutti tris: 'quattro tris (o poker) più una coppia'",
    ),
    Double(
        "C4", "All chows (tutte scale)", 1, _when(_all_chows), "Tutte scale: 'senza tris né coppie di valore'"
    ),
    Double(
        "C5",
        "All terminals/honours (tutte tegole di testa)",
        1,
        _when(_all_heads),
        "Tutte tegole di testa: 'Una chiusura con sole tegole di testa porta un raddoppio'",
    ),
    Double(
        "C5",
        "All terminals/honours, 'due perché sono tutti tris'",
        1,
        _when(_all_heads_extra),
        "D-7 variant: 'almeno altri quattro raddoppi: due perché sono tutti tris'",
    ),
    Double(
        "C6",
        "No terminals/honours (senza teste)",
        1,
        _when(_no_heads),
        "Senza teste: 'Mah jong chiuso senza neanche una tegola di testa'",
    ),
    Double("C7", "All drawn (tutto pescato)", 1, _when(_all_drawn), "Tutto pescato"),
    Double("C8", "Win on the roof (pescato sul tetto)", 1, _when(_roof), "Pescato sul tetto"),
    Double(
        "C9",
        "Golden cockerel (beccare il gallo d'oro)",
        1,
        _when(
            lambda c: (
                _roof(c)
                and c.hand.context.winning_tile is not None
                and c.hand.context.winning_tile.index == 13
            )
        ),
        "Beccare il gallo d'oro: 'un cinque di cerchi ... vale un ulteriore raddoppio'",
    ),
    Double("C10", "Robbing a kong (rubato)", 1, _when(lambda c: c.flag("robbing_kong")), "Rubato"),
    Double("C11", "Bottled (imbottigliato)", 1, _when(_bottled), "Imbottigliato"),
    Double(
        "C12", "Within the fifteenth (entro la quindicesima)", 1, _when(_within_15), "Entro la quindicesima"
    ),
    Double(
        "C13", "Last discard (ultimo scarto)", 1, _when(lambda c: c.flag("last_discard")), "Ultimo scarto"
    ),
    Double(
        "C14",
        "Last tile of the wall (ultima pedina)",
        1,
        _when(lambda c: c.flag("last_tile")),
        "Ultima pedina",
    ),
    Double("C15", "Last piece (ultimo pezzo)", 1, _when(lambda c: c.flag("last_of_kind")), "Ultimo pezzo"),
    Double("C16", "Riichi (richi)", 1, _when(lambda c: c.flag("riichi")), "Richi o Riichi"),
    Double(
        "C17",
        "Seven pairs (tutte coppie)",
        2,
        _when(lambda c: c.reading.form == SEVEN_PAIRS),
        "Tutte coppie: 'Una mano composta da tutte coppie dà diritto a due raddoppi'",
    ),
)


def fundamental_items(ctx: ClassicalContext) -> list[tuple[str, int]]:
    return [item for d in FUNDAMENTAL for item in d.items(ctx)]


def closing_items(ctx: ClassicalContext) -> list[tuple[str, int]]:
    """Closing doubles 'valgono solo per chi fa mah jong': never for a loser's partial reading."""
    if not ctx.winner or ctx.reading.form == PARTIAL:
        return []
    return [item for d in CLOSING for item in d.items(ctx)]


#: Flags the classical scorer reads (spec §6.0); ``bottled`` is derived from the hand itself.
FLAGS = frozenset(
    {
        "kong_replacement",
        "flower_replacement",
        "robbing_kong",
        "bottled",
        "within_15",
        "last_discard",
        "last_tile",
        "last_of_kind",
        "riichi",
    }
)
