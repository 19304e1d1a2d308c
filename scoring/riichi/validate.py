"""Why a riichi hand cannot be scored as given: unknown or impossible flags, impossible tiles.

Each rule is a row (predicate over the hand and its flags, precise reason), checked in order, so
the first reason found is the one reported. Flags are those of riichi.md §9.1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from scoring.hand import Hand, check_tiles
from scoring.tiles import Tile

FLAGS = frozenset({
    "riichi", "double_riichi", "ippatsu", "last_tile", "last_discard", "kong_replacement",
    "robbing_kong", "heavenly", "earthly", "human", "nagashi_mangan",
})
SELF_DRAW_FLAGS = ("last_tile", "kong_replacement", "heavenly", "earthly")
DISCARD_FLAGS = ("last_discard", "robbing_kong", "human")
FIRST_TURN_FLAGS = ("heavenly", "earthly", "human")
FIVES = (4, 13, 22)
MAX_INDICATORS = 5  # the dora indicator and at most 4 kan dora (§6.2)


def normalise_flags(flags: frozenset[str]) -> frozenset[str]:
    """``double_riichi`` implies ``riichi`` (§9.1)."""
    return flags | {"riichi"} if "double_riichi" in flags else flags


def _both(a: str, b: str) -> Callable[[Hand, frozenset[str]], bool]:
    return lambda h, f: a in f and b in f


Rule = tuple[Callable[[Hand, frozenset[str]], bool], str]


def _rules(options: Mapping[str, str]) -> list[Rule]:
    rules: list[Rule] = [
        (lambda h, f: "riichi" in f and not h.is_concealed,
         "riichi needs a concealed hand (§2.5: riichi with an open hand is a dead hand)"),
        (lambda h, f: "ippatsu" in f and "riichi" not in f, "ippatsu without riichi"),
        (_both("ippatsu", "kong_replacement"),
         "ippatsu and kong_replacement cannot combine: the declarer's own kong ends the ippatsu turn (§2.5)"),
        (lambda h, f: "kong_replacement" in f and not any(m.kind == "kong" for m in h.melds),
         "kong_replacement (Rinshan) needs a declared kong in the hand"),
        (_both("last_discard", "robbing_kong"),
         "last_discard and robbing_kong cannot combine: a robbed kong tile is not the last discard"),
        (lambda h, f: "robbing_kong" in f and h.winning_tile is not None
         and sum(t.index == h.winning_tile.index for t in h.all_tiles()) != 1,
         "robbing_kong: three copies of the winning tile are in the opponent's pung, so the hand can "
         "hold only the robbed one"),
        (lambda h, f: "heavenly" in f and not h.is_dealer, "heavenly (Tenho) is East's win only"),
        (lambda h, f: bool({"earthly", "human"} & f) and h.is_dealer,
         "earthly (Chiho) and human (Renho) are for South, West or North only"),
        (lambda h, f: bool(set(FIRST_TURN_FLAGS) & f) and bool(h.melds),
         "a first-turn win (Tenho, Chiho, Renho) allows no call and no concealed kong (§8 A21)"),
        (lambda h, f: bool(set(FIRST_TURN_FLAGS) & f) and bool(f & {"riichi", "last_tile", "last_discard"}),
         "a first-turn win cannot come with riichi or on the last tile or discard"),
        (lambda h, f: len(set(FIRST_TURN_FLAGS) & f) > 1, "only one of heavenly, earthly, human can apply"),
    ]
    if options["chankan_ippatsu"] == "no":
        rules.append((_both("ippatsu", "robbing_kong"),
                      "ippatsu and robbing_kong do not combine (option chankan_ippatsu=no)"))
    return rules


def flag_error(hand: Hand, flags: frozenset[str], options: Mapping[str, str]) -> str | None:
    unknown = sorted(set(hand.flags) - FLAGS)
    if unknown:
        return f"unknown flag(s) {', '.join(unknown)}: riichi knows {', '.join(sorted(FLAGS))}"
    if "nagashi_mangan" in flags:
        extra = sorted(flags - {"nagashi_mangan", "riichi", "double_riichi"})
        if extra:
            return ("nagashi_mangan is claimed after an exhaustive draw and cannot come with "
                    + ", ".join(extra))
        return None
    for name in SELF_DRAW_FLAGS:
        if name in flags and not hand.self_drawn:
            return f"flag {name} needs a self-drawn win (win_by: self_draw)"
    for name in DISCARD_FLAGS:
        if name in flags and hand.self_drawn:
            return f"flag {name} needs a win on a discard (win_by: discard)"
    for broken, reason in _rules(options):
        if broken(hand, flags):
            return reason
    return None


def tile_error(hand: Hand, options: Mapping[str, str]) -> str | None:
    """Impossible tiles (check_tiles: fifth copy, a red five the set lacks …) and indicator lists.

    Indicators are not counted as copies: inputs (the spec's vectors included) use a non-hitting
    indicator such as 1z as a placeholder, repeated for every kan dora.
    """
    red = int(options["red_fives"])
    reason = check_tiles(hand, red_fives_in_set=red, bonus_allowed=False)
    if reason:
        return reason
    if red:
        for five in FIVES:
            plain = sum(1 for t in hand.all_tiles() if t.index == five and not t.red)
            if plain > 4 - red:
                return (f"{plain} plain {Tile(five).code}: the EMA set has one red five per suit, so only "
                        f"{4 - red} plain ones (§1.5; write the red one as {Tile(five, True).code})")
    if len(hand.dora_indicators) > MAX_INDICATORS:
        return (f"{len(hand.dora_indicators)} dora indicators: at most {MAX_INDICATORS} "
                "(the first indicator and one kan dora per kong, at most 4 kongs)")
    if len(hand.ura_dora_indicators) > max(1, len(hand.dora_indicators)):
        return "more ura dora indicators than dora indicators: there is one beneath each indicator"
    if any(t.is_bonus or t.is_back for t in [*hand.dora_indicators, *hand.ura_dora_indicators]):
        return "a dora indicator must be a suited or honour tile"
    return None
