"""MCR: each counting principle on its own, the options of spec §7, flags, settlement, bad input.

Hands are written in the one-line notation (the 13 tiles held, then ``ron``/``tsumo`` and the
winning tile); the player sits South in the East round unless said otherwise.
"""

from __future__ import annotations

import pytest

from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.mcr import OPTIONS, score
from mahjong_camera_scorer.scoring.mcr.elements import BY_NO, COMBINATIONS, TABLE
from mahjong_camera_scorer.scoring.mcr.forms import unique_wait
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.payments import net_by_seat
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.structured import hand_from_dict

DEFAULTS = {name: o.default for name, o in OPTIONS.items()}
CHOW_PAIRS = {"Pure Double Chow", "Mixed Double Chow", "Short Straight", "Two Terminal Chows"}


def mcr(text: str, **options: str) -> dict[str, int]:
    s = score(parse_hand(text + ("" if "seat=" in text else " seat=S round=E")), DEFAULTS | options)
    assert s.error is None or s.error.startswith("not a legal win"), s.error
    return s.elements


# -- the table ------------------------------------------------------------------------------------
def test_table_has_the_81_elements_and_the_point_groups_of_spec_3_2() -> None:
    numbers = sorted(row.no for row in TABLE)
    assert numbers == [*range(1, 82), 82]  # 82: the seed's 6-point melded + concealed kong pair
    groups = {
        1: range(1, 14),
        2: range(14, 24),
        4: range(24, 28),
        6: range(28, 34),
        8: range(34, 44),
        12: range(44, 49),
        16: range(49, 55),
        24: range(55, 64),
        32: range(64, 67),
        48: range(67, 69),
        64: range(69, 75),
        88: range(75, 82),
    }
    for points, nos in groups.items():
        assert {BY_NO[no].points for no in nos} == {points}


def test_exclusion_principle_covers_exactly_the_multi_set_elements() -> None:
    """Spec §4.3 scope: two-set 1 2 3 4 20 33; three-set 30 34 36 37 48 49 51 53 59 60 76;
    four-set 64 67 68 75."""
    assert {c.no: c.size for c in COMBINATIONS} == {
        1: 2,
        2: 2,
        3: 2,
        4: 2,
        20: 2,
        33: 2,
        30: 3,
        34: 3,
        36: 3,
        37: 3,
        48: 3,
        49: 3,
        51: 3,
        53: 3,
        59: 3,
        60: 3,
        76: 3,
        64: 4,
        67: 4,
        68: 4,
        75: 4,
    }


# -- non-repeat -------------------------------------------------------------------------------------
def test_non_repeat_seed_example_three_concealed_pungs_without_two() -> None:
    """Seed §4: "in una chiusura con Tre tris nascosti non si possono aggiungere i punti per Due
    tris nascosti"."""
    elements = mcr("111m222p333s78m55p tsumo 9m")
    assert elements["Three Concealed Pungs"] == 16
    assert "Two Concealed Pungs" not in elements


def test_non_repeat_is_transitive() -> None:
    """All Fives includes All Simples, which includes No Honors (spec §4.1)."""
    elements = mcr("345m456p55567s55m tsumo 5s")
    assert "All Fives" in elements
    assert not {"All Simples", "No Honors"} & elements.keys()


# -- non-separation and take-the-higher ---------------------------------------------------------------
def test_non_separation_one_reading_at_a_time() -> None:
    """Seed §4: "Tre scale di colore non possono essere ricombinate e contate anche come Tre tris"."""
    elements = mcr("222333444m67p88s ron 8p")
    assert not {"Pure Triple Chow", "Pure Shifted Pungs"} <= elements.keys()
    assert "Pure Triple Chow" in elements or "Pure Shifted Pungs" in elements


def test_take_the_higher_reading() -> None:
    # as three concealed pungs (Pure Shifted Pungs 24 + Three Concealed Pungs 16) it beats three
    # identical chows (Pure Triple Chow 24 + All Chows 2); 99s pair, 456p claimed
    elements = mcr("1122233399s [456p] ron 1s")
    assert elements["Pure Shifted Pungs"] == 24 and "Pure Triple Chow" not in elements


# -- exclusion (account-once) -----------------------------------------------------------------------
def test_four_chows_give_at_most_three_two_chow_elements() -> None:
    """Seed Figure 6: the fourth pair (456m/456p) is barred: each set joins at most one used set."""
    elements = mcr("123456m123456p9p ron 9p")
    assert sum(v for k, v in elements.items() if k in CHOW_PAIRS) == 3


def test_three_set_element_and_a_fourth_set_combine_once() -> None:
    # Mixed Triple Chow 234m/234p/234s + 234m: one more (Pure Double Chow), not two
    elements = mcr("234234m234p234s5z ron 5z")
    assert elements["Mixed Triple Chow"] == 8
    assert sum(v for k, v in elements.items() if k in CHOW_PAIRS) == 1


def test_four_set_element_leaves_nothing_to_combine() -> None:
    """Vector e64b's rule: Four Pure Shifted Chows 123-345-567-789 adds no Two Terminal Chows."""
    elements = mcr("123345567789s5z ron 5z")
    assert elements["Four Pure Shifted Chows"] == 32
    assert not CHOW_PAIRS & elements.keys()


def test_two_disjoint_double_pungs_both_count() -> None:
    """Seed example 57: two Double Pungs on four different pungs."""
    assert mcr("88m44p [222m] [222p] [444m] ron 4p")["Double Pung"] == 4


# -- non-identical ------------------------------------------------------------------------------------
def test_non_identical_a_set_forms_the_same_element_once() -> None:
    # 123m with 789m and with another 789m: Two Terminal Chows once, the 789m pair a Pure Double Chow
    elements = mcr("123789789m456p5z ron 5z")
    assert elements.get("Two Terminal Chows") == 1
    assert elements.get("Pure Double Chow") == 1


# -- Chicken Hand -----------------------------------------------------------------------------------
def test_chicken_hand_only_when_no_reading_scores() -> None:
    s = score(parse_hand("888m45s11z [234m] [678p] ron 3s seat=S round=E"), DEFAULTS)
    assert s.elements == {"Chicken Hand": 8} and s.valid
    # two claimed 456m chows form Pure Double Chow: 1 point, not a chicken hand (and not a win)
    s = score(parse_hand("67p789s11z [456m] [456m] ron 8p seat=S round=N"), DEFAULTS)
    assert s.elements == {"Pure Double Chow": 1} and not s.valid


# -- Appendix C and waits -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kong", "pungs"),
    [
        ("(2222m) 333p444s555m6p ron 6p", ("Concealed Kong", 2), ("Four Concealed Pungs", 64)),
        ("[2222m] 333p444s555m6p ron 6p", ("Melded Kong", 1), ("Three Concealed Pungs", 16)),
        (
            "[2222m] (3333p) 444s555m6p ron 6p",
            ("One Melded and One Concealed Kong", 6),
            ("Three Concealed Pungs", 16),
        ),
        ("[2222m] [3333p] 444s567m6p ron 6p", ("Two Melded Kongs", 4), None),
        ("(2222m) (3333p) [444s] 567m6p ron 6p", ("Two Concealed Kongs", 8), None),
    ],
)
def test_appendix_c_kong_rows(text: str, kong: tuple[str, int], pungs: tuple[str, int] | None) -> None:
    elements = mcr(text)
    assert kong in elements.items()
    concealed = {k: v for k, v in elements.items() if "Concealed Pungs" in k}
    assert concealed == (dict([pungs]) if pungs else {})


@pytest.mark.parametrize(
    ("text", "unique"),
    [
        ("1233m456789p777z tsumo 3m", True),  # seed: 1-2-3-3 waits only on 3
        ("567m2444567p567s ron 3p", False),  # seed: 2-4-4-4 waits on 2 and 3
        ("123m456p1234789s ron 4s", False),  # seed: 1-2-3-4 waits on 1 and 4
        ("123789m1234556p tsumo 5p", True),  # seed: 4-5-5-6 waits only on 5
        ("1112345678999m ron 9m", False),  # Nine Gates waits on all nine
        ("14m39p258s123567z ron 6p", False),  # Lesser Honors: 6p or 7m (seed Figure 11)
        ("147m28p369s12399s ron 5p", True),  # a knitted straight missing its 5p
    ],
)
def test_unique_wait_across_forms(text: str, unique: bool) -> None:
    assert unique_wait(parse_hand(text)) is unique


def test_last_tile_is_derived_from_own_exposed_pung_and_rejected_when_held() -> None:
    """A30: three copies in the winner's own exposed pung make the fourth the last tile; holding
    another copy concealed makes the flag impossible."""
    assert mcr("45m55p [444m] [555m] [666m] ron 6m")["Last Tile"] == 4
    s = score(parse_hand("123m456p789s5566z ron 5z last_of_kind seat=S round=E"), DEFAULTS)
    assert not s.valid and "holds another 5z concealed" in s.error


# -- options (spec §7, ⚙) -------------------------------------------------------------------------------
def test_a7_all_terminals_double_pung() -> None:
    hand = "11199p99s [111m] [999m] ron 9s"
    assert mcr(hand)["Double Pung"] == 4
    assert "Double Pung" not in mcr(hand, all_terminals_double_pung="no")


def test_a8_all_green_half_flush() -> None:
    hand = "22334488s66z [666s] ron 8s"
    assert "Half Flush" not in mcr(hand)
    assert mcr(hand, all_green_half_flush="yes")["Half Flush"] == 6


def test_a12_four_kongs_all_pungs_and_melded_hand() -> None:
    hand = "8p [1111m] [2222p] [3333s] [4444m] ron 8p"
    assert "All Pungs" not in mcr(hand) and "Melded Hand" in mcr(hand)
    assert mcr(hand, four_kongs_all_pungs="yes")["All Pungs"] == 6
    assert "Melded Hand" not in mcr(hand, four_kongs_melded_hand="no")


def test_a16_fully_held_kind() -> None:
    # 111 234 567 + 9999p: 8p is the only possible tile (a fifth 9p does not exist)
    hand = "1112345679999p ron 8p"
    assert mcr(hand)["Closed Wait"] == 1
    assert "Closed Wait" not in mcr(hand, wait_drops_fully_held="no")


def test_a17_knitted_straight_waits() -> None:
    # knitted 147m 258p 369s missing the 5p (middle of 2-5-8) with 123s + 99s
    hand = "147m28p369s12399s ron 5p"
    assert mcr(hand).get("Closed Wait") == 1
    assert "Closed Wait" not in mcr(hand, knitted_straight_waits="none")


def test_a18_nine_gates_extras_and_winning_tile_not_shown() -> None:
    hand = "1112345678999m ron 9m"
    assert mcr(hand) == {"Tile Hog": 2, "Pure Straight": 16, "Nine Gates": 88}
    assert mcr(hand, nine_gates_extras="pure_straight") == {"Pure Straight": 16, "Nine Gates": 88}
    hidden = mcr(hand, winning_tile_shown="no")
    assert "Nine Gates" not in hidden and hidden["Full Flush"] == 24


def test_options_from_structured_input_and_unknown_option() -> None:
    melds = [{"type": "pung", "tiles": "111m"}, {"type": "pung", "tiles": "999m"}]
    data = {
        "hand": "11199p999s",
        "melds": melds,
        "winning_tile": "9s",
        "seat_wind": "S",
        "options": {"all_terminals_double_pung": "no"},
    }
    assert score_hand(hand_from_dict(data), "mcr").total == 64
    s = score_hand(hand_from_dict(data | {"options": {"no_such": "1"}}), "mcr")
    assert not s.valid and "unknown option 'no_such'" in s.error


# -- flags, settlement, bad input ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("123m456p789s5556z ron 6z bonus", "unknown flag 'bonus'"),
        ("123m456p789s5556z ron 6z last_tile", "needs win_by self_draw"),
        ("123m456p789s5556z tsumo 6z kong_replacement", "declares no kong"),
        ("123m456p789s5556z tsumo 6z flower_replacement", "no flower"),
        ("123m456p789s5555z ron 5z", "5 copies of 5z"),
        ("123m456p789s5567z ron 7z", "not a winning hand"),
    ],
)
def test_bad_input_is_a_precise_invalid_result(text: str, needle: str) -> None:
    s = score_hand(parse_hand(text + " seat=S round=E"), "mcr")
    assert not s.valid and needle in s.error


def test_settlement_by_role_and_by_seat() -> None:
    hand = parse_hand("123m456p789s5556z ron 6z seat=S round=E")
    s = score(hand, DEFAULTS)  # Mixed Straight 8 + Dragon Pung 2 + Concealed Hand 2 + Single Wait 1
    assert s.total == 13
    # the discarder's seat unknown: paid by roles, which no seat's balance can take
    assert [(p.payer, p.payee, p.amount, p.reason) for p in s.payments] == [
        ("discarder", "S", 13, "hand"),
        ("discarder", "S", 8, "base"),
        ("other", "S", 8, "base"),
        ("other", "S", 8, "base"),
    ]
    assert "Settlement: winner +37; the discarder pays 21, each other player 8" in s.notes
    s = score(hand.with_context(discarder="N"), DEFAULTS)
    assert net_by_seat(s.payments) == {"E": -8, "S": 37, "W": -8, "N": -21}
    assert "settlement" not in s.details and sum(p["amount"] for p in s.to_json()["payments"]) == 37
    with pytest.raises(HandError, match="winner's own seat"):  # no situation has it: refused when made
        hand.with_context(discarder="S")


def test_below_minimum_keeps_its_points_and_has_no_settlement() -> None:
    s = score(parse_hand("123789m5s [123p] [789s] ron 5s seat=S round=E 1f 2f 3f"), DEFAULTS)
    assert not s.valid and s.total == 9 and s.details["points_without_flowers"] == 6
    assert "settlement" not in s.details and s.payments == []
