"""The ordinary EMA yaku as a table (seed §4.2.1–4.2.4, riichi.md §3.1–3.4).

Each row is a :class:`Pattern`: key, closed fan, open fan (None = closed only, §3.7.1), predicate,
seed section. The exclusive pairs of §3.7.3 are written into the predicates themselves (Chanta
needs an honour, Junchan none; Honitsu needs honours, Chinitsu none; Iipeikou yields to
Ryanpeikou), so every row that fires is added: "Tutti gli yaku sono cumulabili" (§4.2).
The always-added companions of §3.7.4 (Shousangen + Yakuhai dragon, Honroutou + Toitoi or
Chiitoitsu, double wind = seat + prevalent) follow from the rows being independent.
"""

from __future__ import annotations

from collections import Counter

from scoring.decompose import Reading
from scoring.riichi.context import Context
from scoring.riichi.patterns import (
    DRAGON_KINDS,
    TERMINAL_OR_HONOUR,
    TERMINALS,
    Pattern,
    chow_firsts,
    flag,
    pung_firsts,
)


def _haitei(r: Reading, c: Context) -> bool:
    # A11: on the replacement tile that became the last playable tile, both count by default
    if "kong_replacement" in c.flags and c.options["haitei_rinshan"] == "rinshan_only":
        return False
    return "last_tile" in c.flags


def _value_pair(r: Reading, c: Context) -> bool:
    pair = r.pair
    return pair is not None and (pair.first in DRAGON_KINDS or pair.first in c.value_winds)


def _pinfu(r: Reading, c: Context) -> bool:
    """Four chows, a valueless pair, and the winning tile completes a two-sided chow (§4.2.1)."""
    return len(chow_firsts(r)) == 4 and not _value_pair(r, c) and r.wait == "two_sided"


def _identical_chow_pairs(r: Reading) -> int:
    """How many pairs of identical chows (fn 20: four identical chows are two pairs)."""
    return sum(n // 2 for n in Counter(chow_firsts(r)).values())


def _tanyao(r: Reading, c: Context) -> bool:
    return not (c.kinds & TERMINAL_OR_HONOUR)


def _sanshoku_doujun(r: Reading, c: Context) -> bool:
    firsts = set(chow_firsts(r))
    return any(n in firsts and n + 9 in firsts and n + 18 in firsts for n in range(7))


def _itsu(r: Reading, c: Context) -> bool:
    firsts = set(chow_firsts(r))
    return any({s, s + 3, s + 6} <= firsts for s in (0, 9, 18))


def _yakuhai_dragon(r: Reading, c: Context) -> int:
    return sum(1 for f in pung_firsts(r) if f in DRAGON_KINDS)


def _outside(r: Reading, allowed_honours: bool) -> bool:
    if r.form != "standard" or not chow_firsts(r):
        return False
    return all(g.has_terminal_or_honour and (allowed_honours or g.first < 27) for g in r.groups)


def _chanta(r: Reading, c: Context) -> bool:
    return c.has_honours and _outside(r, True)


def _junchan(r: Reading, c: Context) -> bool:
    return not c.has_honours and _outside(r, False)


def _sanshoku_doukou(r: Reading, c: Context) -> bool:
    firsts = set(pung_firsts(r))
    return any(n in firsts and n + 9 in firsts and n + 18 in firsts for n in range(9))


def _concealed_pungs(r: Reading) -> int:
    """Pungs/kongs concealed at the win: a pung completed by a discard is not (§4.1.1)."""
    return sum(1 for g in r.groups if g.kind in ("pung", "kong") and g.concealed)


def _honroutou(r: Reading, c: Context) -> bool:
    return c.kinds <= TERMINAL_OR_HONOUR and c.has_honours and bool(c.kinds & TERMINALS)


def _shousangen(r: Reading, c: Context) -> bool:
    pair = r.pair
    return pair is not None and pair.first in DRAGON_KINDS and _yakuhai_dragon(r, c) == 2


YAKU: tuple[Pattern, ...] = (
    # 4.2.1 one fan
    Pattern("Riichi", 1, None, flag("riichi"), "4.2.1 Riichi; 3.3.12"),
    Pattern("Ippatsu", 1, None, flag("ippatsu"), "4.2.1 Riichi (IPPATSU)"),
    Pattern("Daburu riichi", 1, None, flag("double_riichi"), "4.2.1 Riichi (DABURU RIICHI)"),
    Pattern("Menzen tsumo", 1, None, lambda r, c: c.self_drawn, "4.2.1 Tutto pescato"),
    Pattern("Tanyao", 1, None, _tanyao, "4.2.1 Senza teste; Introduzione point 1 (closed only)"),
    Pattern("Pinfu", 1, None, _pinfu, "4.2.1 Pinfu"),
    Pattern("Iipeikou", 1, None, lambda r, c: _identical_chow_pairs(r) == 1,
            "4.2.1 Due scale uguali di colore; 4.2.3 (not with Ryanpeikou)"),
    Pattern("Sanshoku doujun", 2, 1, _sanshoku_doujun, "4.2.1 Tre scale uguali nei tre semi"),
    Pattern("Itsu", 2, 1, _itsu, "4.2.1 Serpente di colore"),
    Pattern("Yakuhai dragon", 1, 1, _yakuhai_dragon, "4.2.1 Tris di drago (1 per dragon set)"),
    Pattern("Yakuhai seat wind", 1, 1, lambda r, c: c.seat in pung_firsts(r),
            "4.2.1 Tris del proprio vento"),
    Pattern("Yakuhai round wind", 1, 1, lambda r, c: c.round in pung_firsts(r),
            "4.2.1 Tris del vento di giro"),
    Pattern("Chanta", 2, 1, _chanta, "4.2.1 Teste ovunque"),
    Pattern("Rinshan kaihou", 1, 1, flag("kong_replacement"), "4.2.1 Rimpiazzo del poker"),
    Pattern("Chankan", 1, 1, flag("robbing_kong"), "4.2.1 Pezzo rubato"),
    Pattern("Haitei", 1, 1, _haitei, "4.2.1 Ultima pedina"),
    Pattern("Houtei", 1, 1, flag("last_discard"), "4.2.1 Ultimo scarto"),
    # 4.2.2 two fan
    Pattern("Chiitoitsu", 2, None, lambda r, c: r.form == "seven_pairs", "4.2.2 Tutte coppie"),
    Pattern("Sanshoku doukou", 2, 2, _sanshoku_doukou, "4.2.2 Tre tris uguali"),
    Pattern("San ankou", 2, 2, lambda r, c: _concealed_pungs(r) >= 3, "4.2.2 Tre tris/poker coperti"),
    Pattern("San kantsu", 2, 2, lambda r, c: len(r.kongs) == 3, "4.2.2 Tre poker"),
    Pattern("Toitoi", 2, 2, lambda r, c: r.form == "standard" and len(pung_firsts(r)) == 4,
            "4.2.2 Tutti tris"),
    Pattern("Honitsu", 3, 2, lambda r, c: len(c.suits) == 1 and c.has_honours, "4.2.2 Mano pura"),
    Pattern("Shousangen", 2, 2, _shousangen, "4.2.2 Piccolo raduno dei dragoni"),
    Pattern("Honroutou", 2, 2, _honroutou, "4.2.2 Tutte teste"),
    Pattern("Junchan", 3, 2, _junchan, "4.2.2 Estremi ovunque"),
    # 4.2.3 three fan
    Pattern("Ryanpeikou", 3, None, lambda r, c: _identical_chow_pairs(r) == 2,
            "4.2.3 Doppie scale uguali di colore, fn 20"),
    # 4.2.4 five fan (Nagashi mangan is not a winning hand: see scoring.riichi.nagashi)
    Pattern("Chinitsu", 6, 5, lambda r, c: len(c.suits) == 1 and not c.has_honours, "4.2.4 Mano purissima"),
)

def yaku_elements(r: Reading, ctx: Context) -> dict[str, int]:
    """Every yaku of the table that applies to the reading, key → fan."""
    out: dict[str, int] = {}
    for p in YAKU:
        fan = p.value(r, ctx)
        if fan:
            out[p.key] = fan
    return out
