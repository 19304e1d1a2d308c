"""Every option of the Australian scorer changes what its spec entry says it changes.

Hands come either from a spec vector (loaded at test time, skipped without ``../shared``) whose
notes give the alternative value, or are built here.
"""

from __future__ import annotations

from typing import Any

import pytest

from mahjong_camera_scorer.scoring.australian import OPTIONS, payment_lines, score, score_table
from mahjong_camera_scorer.scoring.australian.settlement import round_hundred, settle_by_differences
from mahjong_camera_scorer.scoring.payments import net_by_seat
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from tests.spec_vectors import hand_form, load_vectors


def vector(vid: str) -> dict[str, Any]:
    found = [v for v in load_vectors("australian") if v["id"] == vid]
    if not found:
        pytest.skip("../shared/rules/australian.md not available")
    return found[0]


def run(data: dict[str, Any], **options: str) -> Score:
    opts = {"fishing_rules": data["rules_option"]} if data.get("rules_option") else {}
    return score(hand_from_dict(hand_form(data, "rules_option")), {**opts, **options})


def hand(**kw: Any) -> dict[str, Any]:
    """A structured hand: South in the East round, winning on a discard unless told otherwise."""
    return {"seat_wind": "S", "round_wind": "E", "win_by": "discard", "flags": [], **kw}


def pung(tiles: str, open_: bool = True) -> dict[str, Any]:
    return {"type": "pung", "tiles": tiles, "open": open_}


def test_every_option_has_a_valid_default() -> None:
    for o in OPTIONS.values():
        assert o.choices is None or o.default in o.choices, o.name
        assert o.help


# -- values and limits -------------------------------------------------------------------------
def test_limit_scales_cap_and_new_rule_values() -> None:
    capped = vector("aus-d11-bouquet-of-seasons-winner-capped")
    assert run(capped).total == 1000
    assert run(capped, limit="2000").total == 52 * 2**5  # 1,664 is under a 2,000 limit
    snake = vector("aus-new-wriggling-snake-fishing-400")
    assert run(snake, limit="2000").total == 800  # 0.4 x limit
    assert run(vector("aus-sp22-heavens-grace-east"), limit="2000").total == 4000


def test_fishing_rules_old_and_new() -> None:
    snake = vector("aus-new-wriggling-snake-fishing-400")
    assert run(snake, fishing_rules="old").total == 160
    assert run(snake, fishing_rules="new").total == 400


def test_fishing_ten_rule() -> None:
    assert (
        run(
            vector("aus-sp09f-all-pairs-fishing-dragon-pair-no-ten"), fishing_ten_rule="add_where_printed"
        ).total
        == 96
    )
    where_printed = {"fishing_ten_rule": "add_where_printed"}
    assert run(vector("aus-sp11f-all-pair-honours-fishing"), **where_printed).total == 128
    # Greta's Garden prints no '10 punti': with the switch its zero hand points stay zero
    assert run(vector("aus-sp28f-gretas-garden-fishing"), **where_printed).total == 0


# -- doubles -----------------------------------------------------------------------------------
def test_bouquet_includes_own_double() -> None:
    v = vector("aus-d11-bouquet-of-seasons-loser")
    assert run(v).total == 144
    off = run(v, bouquet_includes_own_double="false")
    assert off.total == 288 and off.details["doubles"]["Own season 6f"] == 1
    assert (
        run(
            vector("aus-d12-bouquet-of-flowers-plus-own-season-loser"), bouquet_includes_own_double="false"
        ).total
        == 1000
    )


def test_own_bonus_doubles_once() -> None:
    v = vector("aus-d6-own-flower-and-season-loser-rounds-to-zero")
    assert run(v).total == 48
    assert run(v, own_bonus_doubles="once").total == 24


def test_one_suit_double_requires_honour() -> None:
    loser = hand(role="loser", hand="1113579m", melds=[pung("555m"), {"type": "chow", "tiles": "234m"}])
    assert "One suit with honours" not in run(loser).details["doubles"]
    optional = run(loser, one_suit_double_requires_honour="false")
    assert optional.details["doubles"]["One suit with honours"] == 1
    pure = vector("aus-sp01-pure-hand-winner")  # the Pure Hand replaces D5 rather than adding to it
    assert run(pure, one_suit_double_requires_honour="false").total == 272


def test_clean_call_double_on_special_hands() -> None:
    pure = vector("aus-sp01-pure-hand-winner")
    assert run(pure).total == 272
    on = run(pure, clean_call_double_on_special_hands="true")
    assert on.total == 544 and on.details["rounded_total"] == 500


def test_double_wind_pair_points() -> None:
    v = vector("aus-d9-robbing-the-kong")
    assert run(v).total == 672
    assert run(v, double_wind_pair_points="2").total == 640


def test_only_tile_counts_dead_waits() -> None:
    # 2345m waits on 2m and 5m, but the player already holds all four 2m (exposed pung + one)
    h = hand(hand="23455666888m", melds=[pung("222m")], winning_tile="5m")
    assert run(h).details["base_points"]["Only possible tile"] == 2
    assert "Only possible tile" not in run(h, only_tile_counts_dead_waits="true").details["base_points"]


def test_all_pungs_for_non_winners() -> None:
    v = vector("aus-loser-east-all-pungs-shape-uncleared")
    assert run(v).total == 288
    assert run(v, all_pungs_for_non_winners="never").total == 144


def test_all_pungs_double_on_special_hands() -> None:
    v = vector("aus-sp05-all-honours-winner")
    assert run(v).total == 736
    off = run(v, all_pungs_double_on_special_hands="false")
    assert off.total == 368 and off.details["rounded_total"] == 400


def test_stack_special_doubles() -> None:
    pure_buried = hand(hand="123444666888m99m", winning_tile="2m", win_by="self_draw")
    both = run(pure_buried)
    assert both.details["doubles"] == {"Pure Hand": 3, "Buried Treasure": 3} and both.total == 1000
    one = run(pure_buried, stack_special_doubles="false")
    assert one.details["doubles"] == {"Pure Hand": 3} and one.total == 36 * 8


# -- pairs and losers --------------------------------------------------------------------------
def test_loser_pairs() -> None:
    v = vector("aus-loser-pairs-and-own-flower")
    assert run(v).total == 80
    one = run(v, loser_pairs="one")
    assert "Pair of dragons 66z" not in one.details["base_points"] and one.total == 72


def test_distinct_pairs_required() -> None:
    jade_pairs = vector("aus-sp13b-imperial-jade-seven-pairs-winner")
    assert run(jade_pairs).total == 1000
    assert not run(jade_pairs, distinct_pairs_required="true").valid
    sparrows = vector("aus-sp31-sparrows-sanctuary-winner")  # its two pairs of 1s are explicit (L268)
    assert run(sparrows, distinct_pairs_required="true").details["special_hand"] == "Sparrows' Sanctuary"


def test_all_pair_honours_allow_mixed_terminals() -> None:
    v = vector("aus-sp11-all-pair-honours-winner")
    assert run(v).total == 1000
    assert not run(v, all_pair_honours_allow_mixed_terminals="false").valid


# -- special-hand switches ---------------------------------------------------------------------
def test_grace_hands_require_legal_shape() -> None:
    two_chows = hand(hand="123456777m88m555z", winning_tile="8m", flags=["earthly"])
    assert not run(two_chows).valid
    assert run(two_chows, grace_hands_require_legal_shape="false").details["special_hand"] == "Earth's Grace"


def test_gates_and_runs_require_concealed() -> None:
    gates = hand(hand="11155678999p", melds=[{"type": "chow", "tiles": "234p"}], winning_tile="5p")
    assert run(gates).details["special_hand"] == "Gates of Heaven"
    assert not run(gates, gates_and_runs_require_concealed="true").valid


def test_ruby_requires_red_dragon() -> None:
    ruby = hand(hand="11115555777799s", winning_tile="9s")
    assert run(ruby).details["special_hand"] == "Heavenly Twins"
    assert run(ruby, ruby_requires_red_dragon="false").details["special_hand"] == "Royal Ruby (seven pairs)"


def test_jade_requires_green_dragon() -> None:
    green = hand(hand="22233344466688s", winning_tile="8s")
    assert run(green).details["special_hand"] == "Pure Hand"
    off = run(green, jade_requires_green_dragon="false")
    assert off.details["special_hand"] == "Imperial Jade" and off.total == 2000


def test_red_lily_composition() -> None:
    red_only = hand(hand="111555999s77s777z", winning_tile="7s")
    assert run(red_only).details["special_hand"] == "Royal Ruby"
    assert run(red_only, red_lily_composition="red_only").details["special_hand"] == "Red Lily"


def test_hitler_pung_may_be_completed_by_discard() -> None:
    hitler = hand(hand="1234567s1234777z", winning_tile="7z")
    assert run(hitler).details["special_hand"] == "Hitler's Mistake"
    assert not run(hitler, hitler_pung_may_be_completed_by_discard="false").valid


# -- Goulash -----------------------------------------------------------------------------------
def test_goulash_concealed_exception() -> None:
    one_chow = hand(hand="123m555m777m999m11z", winning_tile="1z", flags=["goulash"])
    assert not run(one_chow).valid  # L67: no chow, and a discard is not a wholly concealed win
    assert run(one_chow, goulash_concealed_exception="concealed_one_chow").total == 160
    drawn = run({**one_chow, "win_by": "self_draw"})
    assert drawn.details["special_hand"] == "Buried Treasure"


def test_jokers_keep_colour() -> None:
    v = vector("aus-goulash-joker-second-pung-of-same-tile")
    assert run(v).total == 288
    spoiled = run(v, jokers_keep_colour="false")
    assert not spoiled.valid and "cleared" in spoiled.error


def _goulash_table(**extra: Any) -> dict[str, Any]:
    players = {s: {"role": "loser", "score": 0} for s in "ESWN"}
    players["S"] = {"role": "winner", "score": 288}
    return {"players": players, "flags": ["goulash"], **extra}


def test_goulash_stake() -> None:
    t = score_table(_goulash_table(), {"goulash_stake": "200"})
    assert t.details["pot"]["total"] == 800 and t.details["net"]["S"] == 1200 + 600


def test_goulash_pot_instead_of_settlement() -> None:
    t = score_table(_goulash_table(), {"goulash_pot": "instead"})
    assert payment_lines(t) == ["pot: each player 100 → pot 400 → S"]
    assert t.details["net"] == {"E": -100, "S": 300, "W": -100, "N": -100}
    # the pot is in the typed payments too: each other player's stake goes to the winner
    assert [(p.payer, p.payee, p.amount, p.reason) for p in t.payments] == [
        (seat, "S", 100, "goulash pot") for seat in "EWN"
    ]
    assert net_by_seat(t.payments) == t.details["net"]


def test_false_mahjong_east_double() -> None:
    players = {s: {"role": "loser", "score": 0} for s in "ESWN"}
    players["N"] = {"role": "winner", "score": 100}
    table = {"players": players, "false_mah_jong": {"caller": "W", "opponents_exposed": True}}
    false_call = score_table(table, {})
    lines = payment_lines(false_call)
    # L330: half the limit to each opponent, and East double: seed 003 "Est riceve e paga sempre il
    # doppio" (the default since issue 36 item 2; the spec's A-30 reading is the option's false)
    assert {"W→E 1000", "W→S 500", "W→N 500"} <= set(lines)
    assert [p.payee for p in false_call.payments if p.reason == "false mah jong"] == ["E", "S", "N"]
    assert "W→E 500" in payment_lines(score_table(table, {"false_mahjong_east_double": "false"}))
    quiet = {**table, "false_mah_jong": {"caller": "W", "opponents_exposed": False}}
    assert not any(line.startswith("W→E") for line in payment_lines(score_table(quiet, {})))


def test_goulash_dead_pot() -> None:
    dead = _goulash_table()
    dead["players"]["S"] = {"role": "loser", "score": 0}
    assert "pot" not in score_table(dead, {}).details
    carried = score_table(dead, {"goulash_dead_pot": "carry"})
    assert carried.details["pot"]["carried"] and carried.details["net"] == dict.fromkeys("ESWN", -100)
    assert {(p.payee, p.amount, p.reason) for p in carried.payments} == {("pot", 100, "goulash pot")}
    assert len(carried.payments) == 4 and net_by_seat(carried.payments) == carried.details["net"]


# -- settlement --------------------------------------------------------------------------------
def test_rounding_half() -> None:
    assert [round_hundred(v) for v in (50, 150, 250)] == [100, 200, 300]
    assert [round_hundred(v, "down") for v in (50, 150, 250)] == [0, 100, 200]
    assert [round_hundred(v, "even") for v in (50, 150, 250)] == [0, 200, 200]
    t = score_table(
        {
            "players": {
                "E": {"role": "winner", "score": 250},
                "S": {"role": "loser", "score": 0},
                "W": {"role": "loser", "score": 0},
                "N": {"role": "loser", "score": 0},
            }
        },
        {"rounding_half": "down"},
    )
    assert t.details["rounded"]["E"] == 200


def test_round_stage_payment() -> None:
    players = {
        "E": {"role": "loser", "score": 140},
        "S": {"role": "winner", "score": 340},
        "W": {"role": "loser", "score": 30},
        "N": {"role": "loser", "score": 0},
    }
    by_score = score_table({"players": players}, {})
    by_payment = score_table({"players": players}, {"round_stage": "payment"})
    assert "E→S 600" in payment_lines(by_score) and "E→S 700" in payment_lines(by_payment)
    assert "W→E 200" in payment_lines(by_score) and "W→E 200" in payment_lines(by_payment)
    assert "N→E 200" in payment_lines(by_score) and "N→E 300" in payment_lines(by_payment)


def test_fishing_flat_paid_by_all_others() -> None:
    v = vector("aus-settle-basic-fishing-new-rules")
    players = {**v["players"], "E": {**v["players"]["E"], "flat": True}}
    t = score_table({"players": players}, {"fishing_flat_paid_by": "all_others_flat"})
    lines = payment_lines(t)
    # East's 400 is collected, doubled, from every other player, the winner included
    assert {"W→E 800", "S→E 800", "N→E 800", "E→W 800"} <= set(lines)
    assert sum(t.details["net"].values()) == 0


def test_settle_by_differences_is_generic() -> None:
    pays = settle_by_differences({"E": 0, "S": 500, "W": 300, "N": 100}, "S")
    assert [str(p) for p in pays] == ["E→S 1000", "W→S 500", "N→S 500", "E→W 600", "E→N 200", "N→W 200"]


def test_unknown_option_is_a_clear_error() -> None:
    result = score(hand_from_dict(hand(hand="123m555m777m999m11z", winning_tile="1z")), {"nope": "1"})
    assert not result.valid and "unknown option" in result.error
