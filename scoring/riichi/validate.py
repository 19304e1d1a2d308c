"""Why a riichi hand cannot be scored as given: unknown or impossible flags, impossible tiles.

Each rule is a row (predicate over the hand and its flags, precise reason), checked in order, so
the first reason found is the one reported. Flags are those of riichi.md §9.1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.hand import Hand, check_tiles
from mahjong_camera_scorer.scoring.tiles import BACK_INDEX, FIRST_BONUS, Tile

FLAGS = frozenset(
    {
        "riichi",
        "double_riichi",
        "ippatsu",
        "last_tile",
        "last_discard",
        "kong_replacement",
        "robbing_kong",
        "heavenly",
        "earthly",
        "human",
        "nagashi_mangan",
    }
)
SELF_DRAW_FLAGS = ("last_tile", "kong_replacement", "heavenly", "earthly")
DISCARD_FLAGS = ("last_discard", "robbing_kong", "human")
FIRST_TURN_FLAGS = frozenset({"heavenly", "earthly", "human"})
FIVES = (4, 13, 22)
MAX_INDICATORS = 5  # the dora indicator and at most 4 kan dora (§6.2)


def normalise_flags(flags: frozenset[str]) -> frozenset[str]:
    """``double_riichi`` implies ``riichi`` (§9.1)."""
    return flags | {"riichi"} if "double_riichi" in flags else flags


@dataclass(frozen=True, slots=True)
class Rule:
    """An impossible combination: checked only when one of ``when`` is among the flags."""

    when: frozenset[str]
    broken: Callable[[Hand, frozenset[str]], bool]
    reason: str


def _rule(when: str, broken: Callable[[Hand, frozenset[str]], bool], reason: str) -> Rule:
    return Rule(frozenset(when.split()), broken, reason)


def _held(h: Hand, kind: int) -> int:
    return sum(1 for t in h.all_tiles() if t.index == kind)


RULES: tuple[Rule, ...] = (
    _rule(
        "riichi",
        lambda h, f: not h.is_concealed,
        "riichi needs a concealed hand (§2.5: riichi with an open hand is a dead hand)",
    ),
    _rule("ippatsu", lambda h, f: "riichi" not in f, "ippatsu without riichi"),
    _rule(
        "ippatsu",
        lambda h, f: "kong_replacement" in f,
        "ippatsu and kong_replacement cannot combine: the declarer's own kong ends the ippatsu turn (§2.5)",
    ),
    _rule(
        "kong_replacement",
        lambda h, f: not any(m.kind == "kong" for m in h.melds),
        "kong_replacement (Rinshan) needs a declared kong in the hand",
    ),
    _rule(
        "robbing_kong",
        lambda h, f: "last_discard" in f,
        "last_discard and robbing_kong cannot combine: a robbed kong tile is not the last discard",
    ),
    _rule(
        "robbing_kong",
        lambda h, f: h.context.winning_tile is not None and _held(h, h.context.winning_tile.index) != 1,
        "robbing_kong: three copies of the winning tile are in the opponent's pung, so the hand can "
        "hold only the robbed one",
    ),
    _rule("heavenly", lambda h, f: not h.context.is_dealer, "heavenly (Tenho) is East's win only"),
    _rule(
        "earthly human",
        lambda h, f: h.context.is_dealer,
        "earthly (Chiho) and human (Renho) are for South, West or North only",
    ),
    _rule(
        "heavenly earthly human",
        lambda h, f: bool(h.melds),
        "a first-turn win (Tenho, Chiho, Renho) allows no call and no concealed kong (§8 A21)",
    ),
    _rule(
        "heavenly earthly human",
        lambda h, f: bool(f & {"riichi", "last_tile", "last_discard"}),
        "a first-turn win cannot come with riichi or on the last tile or discard",
    ),
    _rule(
        "heavenly earthly human",
        lambda h, f: len(f & FIRST_TURN_FLAGS) > 1,
        "only one of heavenly, earthly, human can apply",
    ),
)
#: option chankan_ippatsu=no (A12)
NO_CHANKAN_IPPATSU = _rule(
    "ippatsu",
    lambda h, f: "robbing_kong" in f,
    "ippatsu and robbing_kong do not combine (option chankan_ippatsu=no)",
)


def flag_error(hand: Hand, flags: frozenset[str], options: Mapping[str, str]) -> str | None:
    if not flags:
        return None
    if not hand.context.flags <= FLAGS:
        unknown = sorted(hand.context.flags - FLAGS)
        return f"unknown flag(s) {', '.join(unknown)}: riichi knows {', '.join(sorted(FLAGS))}"
    if "nagashi_mangan" in flags:
        extra = sorted(flags - {"nagashi_mangan", "riichi", "double_riichi"})
        if extra:
            return "nagashi_mangan is claimed after an exhaustive draw and cannot come with " + ", ".join(
                extra
            )
        return None
    for name in SELF_DRAW_FLAGS if not hand.context.self_drawn else DISCARD_FLAGS:
        if name in flags:
            how = (
                "self-drawn win (win_by: self_draw)"
                if name in SELF_DRAW_FLAGS
                else "win on a discard (win_by: discard)"
            )
            return f"flag {name} needs a {how}"
    rules = RULES if options["chankan_ippatsu"] == "yes" else (*RULES, NO_CHANKAN_IPPATSU)
    for rule in rules:
        if not rule.when.isdisjoint(flags) and rule.broken(hand, flags):
            return rule.reason
    return None


def _surely_possible(hand: Hand, tiles: list[Tile], counts: list[int], reds: list[int], red: int) -> bool:
    """A quick screen: True when none of the faults below can be present (the common case: no
    bonus or face-down tile, at most 4 copies, at most ``red`` red and 4 - ``red`` plain fives of
    a suit); otherwise the precise checks find the reason."""
    if hand.bonus_tiles or len(tiles) != sum(counts) or max(counts) > 4:
        return False
    if red and (
        counts[4] - reds.count(4) > 3
        or counts[13] - reds.count(13) > 3
        or counts[22] - reds.count(22) > 3
        or len(reds) != len(set(reds))
    ):
        return False
    return hand.context.winning_tile is None or hand.context.winning_tile in hand.concealed


def tile_error(
    hand: Hand, options: Mapping[str, str], tiles: list[Tile], counts: list[int], reds: list[int]
) -> str | None:
    """Impossible tiles (check_tiles: fifth copy, a red five the set lacks …) and indicator lists.

    ``tiles`` and ``counts`` are ``hand.all_tiles()`` and their 34-kind counts, ``reds`` the kinds
    of its red fives. Indicators are not counted as copies: inputs (the spec's vectors included)
    use a non-hitting indicator such as 1z as a placeholder, repeated for every kan dora.
    """
    red = 0 if options["red_fives"] == "0" else 1
    if not _surely_possible(hand, tiles, counts, reds, red):
        reason = check_tiles(hand, red_fives_in_set=red, bonus_allowed=False)
        if reason:
            return reason
        if red:
            for five in FIVES:
                plain = counts[five] - reds.count(five)
                if plain > 4 - red:
                    return (
                        f"{plain} plain {Tile(five).code}: the EMA set has one red five per suit, so "
                        f"only {4 - red} plain ones (§1.5; write the red one as {Tile(five, True).code})"
                    )
    dora, ura = hand.context.dora_indicators, hand.context.ura_dora_indicators
    if len(dora) > MAX_INDICATORS:
        return (
            f"{len(dora)} dora indicators: at most {MAX_INDICATORS} "
            "(the first indicator and one kan dora per kong, at most 4 kongs)"
        )
    if len(ura) > max(1, len(dora)):
        return "more ura dora indicators than dora indicators: there is one beneath each indicator"
    for t in (*dora, *ura):
        if FIRST_BONUS <= t.index <= BACK_INDEX:  # a flower, a season or a face-down tile
            return "a dora indicator must be a suited or honour tile"
    return None
