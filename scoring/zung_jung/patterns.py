"""The Zung Jung pattern list as a table a referee can check line by line against the seed.

Seed, ELENCO DELLE COMBINAZIONI: 44 patterns in 10 categories plus the optional Italian category 11
(flowers and seasons). Each row gives the seed's number, the official English name (the spec's
element name), the listed points, whether the seed's summary table marks it ``↑`` (it supersedes
the lower patterns of its series), how many times it is met in an arrangement (0 = not met; 3.1
counts sets and 11.1 counts tiles, "10 punti per ogni insieme", "a tessera") and the seed text.

Which rows add up, and the 320 limit, are :mod:`scoring.zung_jung.combine`'s business.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.tiles import DRAGONS, WINDS
from mahjong_camera_scorer.scoring.zung_jung.arrangement import (
    SEAT_NUMBER,
    Arrangement,
    group_has_terminal,
    is_honour,
    is_simple,
    is_terminal,
    nine_gates,
)

#: Seed REGOLE DI BASE 6: "c'è una soglia di 320 punti".
LIMIT = 320


@dataclass(frozen=True, slots=True)
class Pattern:
    number: str
    name: str
    value: int
    up: bool
    count: Callable[[Arrangement], int]
    seed: str

    @property
    def series(self) -> str:
        """'a.b' of 'a.b.c' (seed REGOLE DI BASE 3: category, then series)."""
        return ".".join(self.number.split(".")[:2])

    @property
    def category(self) -> int:
        return int(self.number.split(".")[0])

    @property
    def listed_limit(self) -> bool:
        """Seed rule 6: "una combinazione che ha un valore in elenco di 320 o più"."""
        return self.value >= LIMIT


# -- predicates ----------------------------------------------------------------------------------
def _flag(name: str) -> Callable[[Arrangement], int]:
    return lambda a: int(name in a.hand.context.flags)


def _kongs(n: int) -> Callable[[Arrangement], int]:
    return lambda a: int(len(a.kongs) >= n)


def _concealed_triplets(n: int) -> Callable[[Arrangement], int]:
    return lambda a: int(a.concealed_pungs >= n)


def _identical_chows(n: int) -> Callable[[Arrangement], int]:
    return lambda a: int(max(a.chow_counts.values(), default=0) >= n)


def _two_identical_twice(a: Arrangement) -> int:
    """Seed 5.1.2: "due gruppi, anche di semi diversi, di 5.1.1"."""
    return int(sum(c // 2 for c in a.chow_counts.values()) >= 2)


def _honour_sets(kinds: tuple[int, ...], pungs: int, pair: bool) -> Callable[[Arrangement], int]:
    """At least ``pungs`` pungs/kongs of ``kinds`` (+ a pair of another of them when ``pair``)."""

    def count(a: Arrangement) -> int:
        if not a.regular:
            return 0
        have = sum(1 for g in a.pungs if g.first in kinds)
        return int(have >= pungs and (not pair or a.pair_kind in kinds))

    return count


def _all_sequences(a: Arrangement) -> int:
    return int(a.regular and len(a.chows) == 4)


def _concealed_hand(a: Arrangement) -> int:
    """Seed 1.2 + 10.0: a regular hand with no exposed set; concealed kongs allowed."""
    return int(a.regular and a.hand.is_concealed)


def _one_suit(with_honours: bool) -> Callable[[Arrangement], int]:
    return lambda a: int(len(a.suits) == 1 and a.has_honour == with_honours)


def _nine_gates(a: Arrangement) -> int:
    return int(nine_gates(a.hand, on_wait=a.options["nine_gates"] == "wait"))


def _three_similar_chows(a: Arrangement) -> int:
    c = a.chow_counts
    return int(any(c[n] and c[n + 9] and c[n + 18] for n in range(7)))


def _similar_pungs(a: Arrangement) -> int:
    p = a.pung_kinds
    return int(any(n in p and n + 9 in p and n + 18 in p for n in range(9)))


def _small_similar_pungs(a: Arrangement) -> int:
    """Seed 6.2.1: pungs of n in two suits, the pair of n in the third."""
    if a.pair_kind is None or is_honour(a.pair_kind):
        return 0
    n, suit = a.pair_kind % 9, a.pair_kind // 9
    return int(all(9 * s + n in a.pung_kinds for s in range(3) if s != suit))


def _straight(a: Arrangement) -> int:
    c = a.chow_counts
    return int(any(c[9 * s] and c[9 * s + 3] and c[9 * s + 6] for s in range(3)))


def _consecutive_pungs(n: int) -> Callable[[Arrangement], int]:
    def count(a: Arrangement) -> int:
        p = a.pung_kinds
        return int(any(all(k + i in p for i in range(n)) for k in range(27) if k % 9 <= 9 - n))

    return count


def _lesser_terminals(pure: bool) -> Callable[[Arrangement], int]:
    """Seed 8.1.1/8.1.2: "I quattro insiemi della mano e la coppia" each hold a Testa/Estremo."""

    def count(a: Arrangement) -> int:
        test = group_has_terminal if pure else (lambda g: g.has_terminal_or_honour)
        return int(a.regular and all(test(g) for g in a.reading.groups))

    return count


def _mixed_greater_terminals(a: Arrangement) -> int:
    """Seed 8.1.3: all pungs or seven pairs, only Teste; "non applicabile alla mano 10.1"."""
    shape = (a.regular and len(a.pungs) == 4) or a.seven_pairs
    return int(shape and all(is_terminal(k) or is_honour(k) for k in a.kinds))


def _pure_greater_terminals(a: Arrangement) -> int:
    return int((a.regular or a.seven_pairs) and all(is_terminal(k) for k in a.kinds))


def _bonus_tiles(own: bool) -> Callable[[Arrangement], int]:
    """Seed 11.1: tile n (flower n, season n+4) belongs to seat n: "1 EST … 4 NORD"."""

    def count(a: Arrangement) -> int:
        mine = SEAT_NUMBER[a.hand.context.seat_wind]
        return sum(1 for t in a.hand.bonus_tiles if ((t.number - 1) % 4 + 1 == mine) == own)

    return count


def _all_bonus(first: int) -> Callable[[Arrangement], int]:
    return lambda a: int({t.number for t in a.hand.bonus_tiles} >= set(range(first, first + 4)))


# -- the table -----------------------------------------------------------------------------------
PATTERNS: tuple[Pattern, ...] = (
    # 1 COMBINAZIONI SEMPLICI
    Pattern(
        "1.1",
        "All Sequences",
        5,
        False,
        _all_sequences,
        "Tutte scale: la mano contiene 4 scale; nessun pung o kong",
    ),
    Pattern(
        "1.2",
        "Concealed Hand",
        5,
        False,
        _concealed_hand,
        "Tutto pescato: mano regolare interamente coperta … E' ammesso vincere con uno scarto",
    ),
    Pattern(
        "1.3",
        "No Terminals",
        5,
        False,
        lambda a: int(all(is_simple(k) for k in a.kinds)),
        "Senza Teste: tessere numerali tra il 2 e l'8; niente Estremi né Onori",
    ),
    # 2 COMBINAZIONI CON UN SOLO SEME
    Pattern(
        "2.1.1",
        "Mixed One-Suit",
        40,
        False,
        _one_suit(with_honours=True),
        "Mano pura: tessere numerarie appartenenti a un solo seme e da Onori",
    ),
    Pattern(
        "2.1.2",
        "Pure One-Suit",
        80,
        True,
        _one_suit(with_honours=False),
        "Mano purissima: interamente di tessere numerarie appartenenti a un solo seme",
    ),
    Pattern(
        "2.2",
        "Nine Gates",
        480,
        False,
        _nine_gates,
        "Casa piena di nove pezzi: 1112345678999 di un solo seme … a punto su nove tessere",
    ),
    # 3 ONORI
    Pattern(
        "3.1",
        "Value Honor",
        10,
        False,
        lambda a: a.value_honour_sets() if a.regular else 0,
        "Onori con valore: 10 punti per ogni insieme; pung/kong di proprio vento o di Draghi",
    ),
    Pattern(
        "3.2.1",
        "Small Three Dragons",
        40,
        False,
        _honour_sets(DRAGONS, 2, pair=True),
        "Piccolo raduno dei Draghi: due pung/kong di Draghi differenti e una coppia del rimanente",
    ),
    Pattern(
        "3.2.2",
        "Big Three Dragons",
        130,
        True,
        _honour_sets(DRAGONS, 3, pair=False),
        "Grande raduno dei Dragoni: tre pung/kong di Draghi",
    ),
    Pattern(
        "3.3.1",
        "Small Three Winds",
        30,
        False,
        _honour_sets(WINDS, 2, pair=True),
        "Tre piccole benedizioni della Casa: due pung/kong e una coppia di venti",
    ),
    Pattern(
        "3.3.2",
        "Big Three Winds",
        120,
        True,
        _honour_sets(WINDS, 3, pair=False),
        "Tre grandi benedizioni della Casa: tre pung/kong di Venti",
    ),
    Pattern(
        "3.3.3",
        "Small Four Winds",
        320,
        True,
        _honour_sets(WINDS, 3, pair=True),
        "Quattro piccole benedizioni della Casa: tre pung/kong più una coppia di Venti",
    ),
    Pattern(
        "3.3.4",
        "Big Four Winds",
        400,
        True,
        _honour_sets(WINDS, 4, pair=False),
        "Quattro grandi benedizioni della Casa: quattro pung/kong di Venti",
    ),
    Pattern(
        "3.4",
        "All Honors",
        320,
        False,
        lambda a: int(all(is_honour(k) for k in a.kinds)),
        "Tutti Onori: mano composta interamente da Onori",
    ),
    # 4 PUNG E KONG
    Pattern(
        "4.1",
        "All Triplets",
        30,
        False,
        lambda a: int(a.regular and len(a.pungs) == 4),
        "Tutti tris: la mano contiene 4 pung/kong, nessuna scala",
    ),
    Pattern(
        "4.2.1",
        "Two Concealed Triplets",
        5,
        False,
        _concealed_triplets(2),
        "Due tris coperti: la mano contiene due pung/kong coperti",
    ),
    Pattern(
        "4.2.2",
        "Three Concealed Triplets",
        30,
        True,
        _concealed_triplets(3),
        "Tre tris coperti: la mano contiene tre pung/kong coperti",
    ),
    Pattern(
        "4.2.3",
        "Four Concealed Triplets",
        125,
        True,
        _concealed_triplets(4),
        "Quattro tris coperti: la mano contiene quattro pung/kong coperti",
    ),
    Pattern(
        "4.3.1",
        "One Kong",
        5,
        False,
        _kongs(1),
        "Un Kong: la mano contiene un Kong (indipendentemente se coperto o esposto)",
    ),
    Pattern("4.3.2", "Two Kong", 20, True, _kongs(2), "Due Kong: la mano contiene due Kong"),
    Pattern("4.3.3", "Three Kong", 120, True, _kongs(3), "Tre Kong: la mano contiene tre Kong"),
    Pattern("4.3.4", "Four Kong", 480, True, _kongs(4), "Quattro Kong: la mano contiene quattro Kong"),
    # 5 INSIEMI IDENTICI
    Pattern(
        "5.1.1",
        "Two Identical Sequences",
        10,
        False,
        _identical_chows(2),
        "Due scale identiche: due scale dello stesso seme e con gli stessi numeri",
    ),
    Pattern(
        "5.1.2",
        "Two Identical Sequences Twice",
        60,
        True,
        _two_identical_twice,
        "Due volte due scale identiche: due gruppi, anche di semi diversi, di 5.1.1",
    ),
    Pattern(
        "5.1.3",
        "Three Identical Sequences",
        120,
        True,
        _identical_chows(3),
        "Tre scale identiche: tre scale dello stesso seme e con gli stessi numeri",
    ),
    Pattern(
        "5.1.4",
        "Four Identical Sequences",
        480,
        True,
        _identical_chows(4),
        "Quattro scale identiche: quattro scale dello stesso seme e con gli stessi numeri",
    ),
    # 6 INSIEMI SIMILI ("tutti e tre i semi devono essere presenti")
    Pattern(
        "6.1",
        "Three Similar Sequences",
        35,
        False,
        _three_similar_chows,
        "Tre scale simili: tre scale dello stesso numero, nei tre differenti semi",
    ),
    Pattern(
        "6.2.1",
        "Small Three Similar Triplets",
        30,
        False,
        _small_similar_pungs,
        "Due pung e coppia nei tre semi: due pung/kong dello stesso numero … più la coppia",
    ),
    Pattern(
        "6.2.2",
        "Three Similar Triplets",
        120,
        True,
        _similar_pungs,
        "Tre pung simili: tre pung/kong dello stesso numero nei tre differenti semi",
    ),
    # 7 INSIEMI CONSECUTIVI
    Pattern(
        "7.1",
        "Nine-Tile Straight",
        40,
        False,
        _straight,
        "Serpente di colore: esattamente queste tre scale dello stesso seme: 123 456 789",
    ),
    Pattern(
        "7.2.1",
        "Three Consecutive Triplets",
        100,
        False,
        _consecutive_pungs(3),
        "Tre pung consecutivi: tre pung/kong di numeri consecutivi e dello stesso seme",
    ),
    Pattern(
        "7.2.2",
        "Four Consecutive Triplets",
        200,
        True,
        _consecutive_pungs(4),
        "Quattro pung consecutivi: quattro pung/kong di numeri consecutivi e dello stesso seme",
    ),
    # 8 ESTREMI E TESTE
    Pattern(
        "8.1.1",
        "Mixed Lesser Terminals",
        40,
        False,
        _lesser_terminals(pure=False),
        "Tutte Teste minore: i quattro insiemi della mano e la coppia contengono una testa",
    ),
    Pattern(
        "8.1.2",
        "Pure Lesser Terminals",
        50,
        True,
        _lesser_terminals(pure=True),
        "Tutti Estremi minore: i quattro insiemi della mano e la coppia contengono un estremo",
    ),
    Pattern(
        "8.1.3",
        "Mixed Greater Terminals",
        100,
        True,
        _mixed_greater_terminals,
        "Tutte Teste maggiore: tutti pung, oppure sette coppie, composta di sole Teste",
    ),
    Pattern(
        "8.1.4",
        "Pure Greater Terminals",
        400,
        True,
        _pure_greater_terminals,
        "Tutti Estremi maggiore: la mano è interamente composta da Estremi",
    ),
    # 9 BONUS FORTUITI (the table's events come from the input's flags)
    Pattern(
        "9.1.1",
        "Final Draw",
        10,
        False,
        _flag("last_tile"),
        "Ultima tessera: vincere pescando l'ultima tessera del muro",
    ),
    Pattern(
        "9.1.2",
        "Final Discard",
        10,
        False,
        _flag("last_discard"),
        "Ultimo scarto: vincere chiamando la riverbed",
    ),
    Pattern(
        "9.2",
        "Win on Kong",
        10,
        False,
        _flag("kong_replacement"),
        "Chiudere col rimpiazzo del Kong (il rimpiazzo di fiori e stagioni non è valido)",
    ),
    Pattern(
        "9.3",
        "Robbing a Kong",
        10,
        False,
        _flag("robbing_kong"),
        "Pezzo rubato: il pezzo che un avversario ha appena aggiunto a un pung esposto",
    ),
    Pattern(
        "9.4.1",
        "Blessing of Heaven",
        155,
        False,
        _flag("heavenly"),
        "Benedizione del Cielo: Est vince con la sua Mano iniziale di 14 tessere",
    ),
    Pattern(
        "9.4.2",
        "Blessing of Earth",
        155,
        False,
        _flag("earthly"),
        "Benedizione della Terra: vince sul primissimo scarto di Est",
    ),
    # 10 MANI IRREGOLARI (no 1.2: "non vanno assegnati i punti per mano coperta")
    Pattern(
        "10.1",
        "Thirteen Terminals",
        160,
        False,
        lambda a: int(a.thirteen),
        "Tredici lanterne meravigliose: una coppia di un tipo di Teste e una dei rimanenti 12",
    ),
    Pattern(
        "10.2",
        "Seven Pairs",
        30,
        False,
        lambda a: int(a.seven_pairs),
        "Tutte coppie: sette coppie; quattro tessere identiche possono essere due coppie",
    ),
    # 11 FIORI E STAGIONI (optional, Italian translation only)
    Pattern(
        "11.1.1",
        "Non-seat Flower or Season",
        2,
        False,
        _bonus_tiles(own=False),
        "Fiore o stagione non proprio: 2 punti per tessera",
    ),
    Pattern(
        "11.1.2",
        "Seat Flower or Season",
        4,
        False,
        _bonus_tiles(own=True),
        "Proprio Fiore o Stagione: 4 punti per tessera",
    ),
    Pattern(
        "11.2.1", "Four Flowers", 10, False, _all_bonus(1), "Quattro fiori: tutte le 4 tessere dei fiori"
    ),
    Pattern(
        "11.2.2",
        "Four Seasons",
        10,
        False,
        _all_bonus(5),
        "Quattro stagioni: tutte le 4 tessere delle stagioni",
    ),
)

BY_NAME: dict[str, Pattern] = {p.name: p for p in PATTERNS}
