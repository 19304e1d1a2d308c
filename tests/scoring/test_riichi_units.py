"""Unit tests of the EMA riichi scorer: fu items, yaku predicates, limits and payments, the seed's
score tables (read from ../shared at test time), options, and the reasons a hand cannot win."""

from __future__ import annotations

import re

import pytest

from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.options import resolve
from mahjong_camera_scorer.scoring.payments import paid_by
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.riichi import OPTIONS, score
from mahjong_camera_scorer.scoring.riichi.payments import base_points, up100
from tests.spec_vectors import SHARED


def riichi(text: str, **options: str) -> Score:
    return score(parse_hand(text), resolve(OPTIONS, options))


def fu_items(result: Score) -> dict[str, int]:
    return dict(result.details["fu_breakdown"])


# ---------------------------------------------------------------------------------------------
# fu (seed §4.1.1)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "item", "fu"),
    [
        # base: concealed ron 30, open ron 20, self-draw 20
        ("234m567p22s45678s ron 9s seat=S riichi", "concealed hand on a discard", 30),
        ("567p22s45678s [234m] ron 9s seat=S last_discard", "open hand on a discard", 20),
        ("234m567p22s45678s tsumo 9s seat=S", "self-draw base", 20),
        # pungs and kongs: open/concealed, simple/terminal-honour (the seed's table)
        ("234m567p2s456s [888p] ron 2s seat=S last_discard", "open pung 8p8p8p", 2),
        ("234m567p2s456s [999p] ron 2s seat=S last_discard", "open pung 9p9p9p", 4),
        ("234m567p2s456s888p ron 2s seat=S riichi", "concealed pung 8p8p8p", 4),
        ("234m567p2s456s777z ron 2s seat=S", "concealed pung 7z7z7z", 8),
        ("234m567p2s456s [8888p] ron 2s seat=S last_discard", "open kong 8p8p8p8p", 8),
        ("234m567p2s456s [1111m] ron 2s seat=S last_discard", "open kong 1m1m1m1m", 16),
        ("234m567p2s456s (8888p) ron 2s seat=S riichi", "concealed kong 8p8p8p8p", 16),
        ("234m567p2s456s (7777z) ron 2s seat=S", "concealed kong 7z7z7z7z", 32),
        # a pung completed by a discard is open, by a self-draw concealed
        ("234m567p22s456s88p ron 8p seat=S riichi", "open pung 8p8p8p", 2),
        ("234m567p22s456s88p tsumo 8p seat=S", "concealed pung 8p8p8p", 4),
        # pairs: dragon, seat wind, prevalent wind
        ("234m567p456s678s5z ron 5z seat=S riichi", "dragon pair 5z", 2),
        ("234m567p456s678s2z ron 2z seat=S riichi", "seat wind pair 2z", 2),
        ("234m567p456s678s1z ron 1z seat=S round=E riichi", "prevalent wind pair 1z", 2),
        # waits: edge, closed, pair; self-draw; open pinfu
        ("234m567p22s456s12s ron 3s seat=S riichi", "edge wait", 2),
        ("234m567p22s456s13s ron 2s seat=S riichi", "closed wait", 2),
        ("234m567p456s678s9s ron 9s seat=S riichi", "pair wait", 2),
        ("234m567p22s456s88s tsumo 8s seat=S", "self-draw", 2),
        ("567p22s456s78s [234m] ron 9s seat=S last_discard", "open pinfu", 2),
    ],
)
def test_fu_item(text: str, item: str, fu: int) -> None:
    result = riichi(text)
    assert result.valid, result.error
    assert fu_items(result)[item] == fu


def test_fu_rounding_and_totals() -> None:
    edge = riichi("234m567p22s456s12s ron 3s seat=S riichi")  # 30 + 2 = 32 -> 40
    assert sum(fu_items(edge).values()) == 32 and edge.details["fu"] == 40
    pinfu_tsumo = riichi("234m567p22s456s78s tsumo 9s seat=S")  # 20, no tsumo fu, no rounding needed
    assert pinfu_tsumo.details["fu"] == 20 and "self-draw" not in fu_items(pinfu_tsumo)
    assert pinfu_tsumo.elements == {"Menzen tsumo": 1, "Pinfu": 1}
    pinfu_ron = riichi("234m567p22s456s78s ron 9s seat=S riichi")
    assert pinfu_ron.details["fu"] == 30 and fu_items(pinfu_ron) == {"concealed hand on a discard": 30}
    open_pinfu_tsumo = riichi("567p22s456s78s [234m] tsumo 9s seat=S last_tile")  # 20 + 2 + 2 = 24 -> 30
    assert open_pinfu_tsumo.details["fu"] == 30
    assert {"open pinfu", "self-draw"} <= set(fu_items(open_pinfu_tsumo))


def test_seven_pairs_is_25_flat_even_by_self_draw() -> None:
    for how in ("ron", "tsumo"):
        result = riichi(f"2277m33p1166s557z {how} 7z seat=S riichi")
        assert result.details["fu"] == 25
        assert fu_items(result) == {"seven pairs (flat, no rounding)": 25}


def test_double_wind_pair_option() -> None:
    hand = "234m567m999p34s11z ron 2s seat=E round=E riichi"  # vector riichi-rule-double-wind-pair
    assert riichi(hand).details["fu"] == 50  # 30 + 8 + 4 = 42 -> 50
    assert riichi(hand, double_wind_pair_fu="2").details["fu"] == 40  # 30 + 8 + 2 = 40


def test_110_fu_uses_the_formula() -> None:
    # riichi.md §4.8: closed ron 30 + 32 + 32 + 8 + 4 (double wind pair) + 2 (pair wait) = 108 -> 110
    result = riichi("(1111m) (9999p) 111s 234s1z ron 1z seat=E round=E riichi")
    assert result.details["fu"] == 110 and result.elements == {"Riichi": 1, "San ankou": 2}
    assert result.details["limit"] == "mangan"  # 110 x 2^5 > 2000
    # beyond the seed's tables (which stop at 100 fu): the formula, as riichi.md §4.8 lists
    ron = [up100(k * base_points(fan, 110)[0]) for fan in (1, 2) for k in (4, 6)]
    assert ron == [3600, 5300, 7100, 10600]


# ---------------------------------------------------------------------------------------------
# yaku predicates (one hand where each applies; a near miss where it does not)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "key", "fan"),
    [
        ("234m567p22s456s78s ron 9s seat=S riichi", "Riichi", 1),
        ("234m567p22s456s78s ron 9s seat=S riichi ippatsu", "Ippatsu", 1),
        ("234m567p22s456s78s ron 9s seat=S double_riichi", "Daburu riichi", 1),
        ("234m567p22s456s78s tsumo 9s seat=S", "Menzen tsumo", 1),
        ("234m567p22s456s78s ron 6s seat=S", "Tanyao", 1),
        ("234m567p22s456s78s ron 9s seat=S riichi", "Pinfu", 1),
        ("223344m567p22s78s ron 9s seat=S", "Iipeikou", 1),
        ("234m234p22s234s99s ron 9s seat=S", "Sanshoku doujun", 2),
        ("22s234s99s [234m] [234p] ron 9s seat=S", "Sanshoku doujun", 1),
        ("123456789m22s99s ron 9s seat=S", "Itsu", 2),
        ("234m567p22s78s555z ron 9s seat=S", "Yakuhai dragon", 1),
        ("234m22s78s [555z] [666z] ron 9s seat=S", "Yakuhai dragon", 2),
        ("234m567p22s78s222z ron 9s seat=S", "Yakuhai seat wind", 1),
        ("234m567p22s78s111z ron 9s seat=S round=E", "Yakuhai round wind", 1),
        ("123m789p11z789s12s ron 3s seat=S", "Chanta", 2),
        ("234m567p2s456s (8888m) tsumo 2s seat=S kong_replacement", "Rinshan kaihou", 1),
        ("234m567p22s456s78s ron 9s seat=S robbing_kong", "Chankan", 1),
        ("567p22s456s78s [234m] tsumo 9s seat=S last_tile", "Haitei", 1),
        ("567p22s456s78s [234m] ron 9s seat=S last_discard", "Houtei", 1),
        ("2277m33p1166s557z ron 7z seat=S", "Chiitoitsu", 2),
        ("222m222p222s678s5z ron 5z seat=S", "Sanshoku doukou", 2),
        ("222m444p888s67s99s ron 5s seat=S", "San ankou", 2),
        ("99p45s [3333m] [7777p] (2222s) ron 6s seat=S", "San kantsu", 2),
        ("88p44999s [222m] [777p] ron 4s seat=S", "Toitoi", 2),
        ("123456789m222z5z ron 5z seat=S", "Honitsu", 3),
        ("234m67p77z [555z] [666z] ron 8p seat=S", "Shousangen", 2),
        ("111p99s22244z [999m] ron 4z seat=W", "Honroutou", 2),
        ("123789m123789p9s ron 9s seat=S", "Junchan", 3),
        ("223344m667788p7z tsumo 7z seat=S", "Ryanpeikou", 3),
        ("2233445567899p ron 9p seat=S", "Chinitsu", 6),
    ],
)
def test_yaku_applies(text: str, key: str, fan: int) -> None:
    result = riichi(text)
    assert result.valid, result.error
    assert result.elements.get(key) == fan


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("567p22s456s78s [234m] ron 9s seat=S last_discard", "Pinfu"),  # open: no pinfu yaku
        ("567p22s456s78s [234m] ron 6s seat=S last_discard", "Tanyao"),  # EMA: closed only
        ("234m567p22s456s12s ron 3s seat=S riichi", "Pinfu"),  # edge wait
        ("234m567p55z456s78s ron 9s seat=S riichi", "Pinfu"),  # dragon pair
        ("223344m223344p7z tsumo 7z seat=S", "Iipeikou"),  # replaced by Ryanpeikou
        ("123m789p11z789s12s ron 3s seat=S", "Junchan"),  # honours: Chanta instead
        ("123m789p11m789s12s ron 3s seat=S", "Chanta"),  # no honours: Junchan instead
        ("123456789m22s99s ron 9s seat=S", "Honitsu"),  # two suits
        ("222m444p888s67s99s ron 9s seat=S", "San ankou"),  # 999s completed by the discard is open
    ],
)
def test_yaku_does_not_apply(text: str, absent: str) -> None:
    result = riichi(text)
    assert absent not in result.elements


def test_yakuman_are_not_cumulative_except_dai_suushii() -> None:
    several = riichi("111222333444z5z ron 5z seat=S")  # Tsuu iisou + Dai suushii + Suu ankou
    assert several.details["han"] == 26 and several.details["points"] == {"ron": 64000}
    assert riichi("111222333444z5z ron 5z seat=S", double_yakuman="none").details["han"] == 13
    two = riichi("555666777z11z22z ron 2z seat=S")  # Tsuu iisou + Dai sangen: one yakuman
    assert two.details["han"] == 13 and {"Tsuu iisou", "Dai sangen"} <= set(two.elements)


def test_counted_yakuman_option() -> None:
    text = "1122334555789p tsumo 6p seat=S riichi dora=1z ura=7p"
    assert riichi(text).details["limit"] == "yakuman"
    capped = riichi(text, counted_yakuman="no")
    assert capped.details["limit"] == "sanbaiman" and capped.details["points"]["tsumo_dealer_pays"] == 12000


def test_all_green_and_all_honours_options() -> None:
    green = "2223344666888s ron 2s seat=S"
    assert "Ryuu iisou" in riichi(green).elements
    assert "Ryuu iisou" not in riichi(green, all_green_dragon="required").elements
    honours = "1122334455667z ron 7z seat=S"
    assert "Tsuu iisou" in riichi(honours).elements
    assert riichi(honours, all_honours_seven_pairs="no").elements == {"Chiitoitsu": 2}


def test_dora_kan_dora_ura_and_red_fives() -> None:
    result = riichi("340m67899p34567s ron 2s seat=S riichi dora=4m,4m ura=3m")
    assert result.elements["Dora"] == 2 and result.elements["Red five"] == 1
    assert result.elements["Ura dora"] == 1  # 3m -> 4m
    assert (
        riichi("340m67899p34567s ron 2s seat=S riichi dora=4m", red_five_dora="red_only").elements.get("Dora")
        is None
    )
    no_reds = riichi("340m67899p34567s ron 2s seat=S riichi dora=1z", red_fives="0")
    assert "Red five" not in no_reds.elements
    not_riichi = riichi("340m67899p34567s ron 2s seat=S dora=1z ura=3m")
    assert "Ura dora" not in not_riichi.elements


def test_dora_indicator_cycles() -> None:
    from mahjong_camera_scorer.scoring.riichi.dora import dora_of
    from mahjong_camera_scorer.scoring.tiles import tile

    assert [dora_of(tile(c)) for c in ("9m", "4z", "7z", "5z", "6z", "0p")] == [0, 27, 31, 32, 33, 14]


# ---------------------------------------------------------------------------------------------
# limits, payments, counters and sticks (§5)
# ---------------------------------------------------------------------------------------------
def test_limits_and_no_kiriage() -> None:
    assert base_points(4, 30) == (1920, None)  # 7700 non-dealer ron, not 8000
    assert base_points(3, 60) == (1920, None)
    assert base_points(4, 40) == (2000, "mangan")
    assert base_points(3, 70) == (2000, "mangan")
    assert [base_points(h, None)[1] for h in (5, 6, 7, 8, 10, 11, 12, 13, 20)] == [
        "mangan",
        "haneman",
        "haneman",
        "baiman",
        "baiman",
        "sanbaiman",
        "sanbaiman",
        "yakuman",
        "yakuman",
    ]
    assert base_points(0, None, 2) == (16000, "double yakuman")


def test_payments_with_counters_and_sticks() -> None:
    result = riichi("234m567p22s456s78s tsumo 9s seat=S honba=2 sticks=3")
    assert result.details["points"] == {"tsumo_dealer_pays": 900, "tsumo_others_pay": 600}
    assert [(p.payer, p.amount, p.reason) for p in result.payments] == [
        ("E", 700, "hand"),
        ("W", 400, "hand"),
        ("N", 400, "hand"),
        ("E", 200, "counters"),
        ("W", 200, "counters"),
        ("N", 200, "counters"),
        ("table", 3000, "riichi sticks"),
    ]
    assert {p.payee for p in result.payments} == {"S"}
    assert paid_by(result.payments) == {"E": 900, "W": 600, "N": 600, "table": 3000}
    assert "E pays S 900 (incl. 200 for counters) [hand and counters]" in result.notes
    assert "table pays S 3000 [riichi sticks]" in result.notes
    dealer_ron = riichi("234m567p22s456s78s ron 9s seat=E riichi honba=1")
    assert dealer_ron.details["points"] == {"ron": 2900 + 300}
    assert [(p.payer, p.amount) for p in dealer_ron.payments] == [("discarder", 2900), ("discarder", 300)]
    assert "payments" not in dealer_ron.details and dealer_ron.to_json()["payments"][1] == {
        "from": "discarder",
        "to": "E",
        "amount": 300,
        "for": "counters",
    }


def test_discarder_seat_from_extra() -> None:
    hand = parse_hand("234m567p22s456s78s ron 9s seat=S riichi")
    named = score(hand.with_context(discarder="W"), resolve(OPTIONS))
    assert [p.payer for p in named.payments] == ["W"]
    with pytest.raises(HandError, match="discarder"):  # the winner's own seat: no situation has it
        hand.with_context(discarder="S")


def _seed_tables() -> list[tuple[str, list[list[str]]]]:
    seeds = sorted((SHARED / "seeds").glob("001_*.txt"))
    if not seeds:
        pytest.skip("../shared/seeds/001_*.txt not available")
    text = seeds[0].read_text(encoding="utf-8")
    body = text[text.rindex("TABELLE PUNTEGGIO") : text.index("Le tavole sono descritte")]
    tables = []
    for chunk in re.split(r"\n(?=(?:Est|Altri|Mani-limite))", body)[1:]:
        lines = [ln.split("\t") for ln in chunk.strip().splitlines()]
        tables.append((lines[0][0].strip(), lines[1:]))
    return tables


def test_formula_matches_the_seed_tables() -> None:
    """Seed p. 32 (TABELLE PUNTEGGIO): every cell equals the §4.1.2 formula."""
    checked = 0
    for title, rows in _seed_tables():
        if title.startswith("Mani-limite"):
            for name, fan, east, others in rows[1:]:
                base, limit = base_points(int(re.match(r"\d+", fan).group()), None)
                assert limit == name.lower()
                assert int(east) == 2 * base and others.split() == [str(base), str(2 * base)]
                checked += 1
            continue
        header, data = rows[0], rows[1:]
        fans = [int(x) for x in header[1:] if x.strip()]
        dealer, tsumo = title.startswith("Est"), "Tsumo" in title
        fu = None
        for row in data:
            east_row = not row[0].strip()  # the 'Altri - Tsumo' table gives East's share on a second line
            fu = fu if east_row else int(row[0])
            for fan, cell in zip(fans, row[1:], strict=False):
                if not cell.strip():
                    continue
                base, _ = base_points(fan, fu)
                if tsumo and dealer:
                    want = up100(2 * base)
                elif tsumo:
                    want = up100(2 * base) if east_row else up100(base)
                else:
                    want = up100((6 if dealer else 4) * base)
                assert int(cell) == want, (title, fu, fan)
                checked += 1
    assert checked > 130


# ---------------------------------------------------------------------------------------------
# hands that cannot win: precise reasons, never an exception
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("78m567p34566s [234m] ron 6m seat=S", "no yaku"),
        ("78m567p34566s [234m] ron 6m seat=S", "Tanyao"),
        ("234m567999p4468s ron 7s seat=S riichi dora=3s honba=5", "5 counters on the table"),
        ("234m567p22s456s7s ron 9s seat=S riichi", "not a complete hand"),
        ("234m567p22s456s78s ron 1s seat=S riichi", "not a winning hand"),
        ("22222m567p2s456s ron 2s seat=S riichi", "5 copies of 2m"),
        ("00m567p22s456s78s ron 9s seat=S riichi", "2 red fives 0m"),
        ("05555m567p2s456s ron 2s seat=S riichi", "5 copies of 5m"),
        ("234m567p22s456s78s ron 9s seat=S foo", "unknown flag"),
        ("234m567p22s456s78s ron 9s seat=S ippatsu", "ippatsu without riichi"),
        ("567p22s456s78s [234m] ron 9s seat=S riichi", "riichi needs a concealed hand"),
        ("234m567p22s456s78s ron 9s seat=S last_tile", "needs a self-drawn win"),
        ("234m567p22s456s78s tsumo 9s seat=S robbing_kong", "needs a win on a discard"),
        ("234m567p22s456s78s tsumo 9s seat=S kong_replacement", "needs a declared kong"),
        ("234m567p22s456s78s tsumo 9s seat=S heavenly", "East's win only"),
        ("234m567p22s456s78s ron 9s seat=E human", "South, West or North"),
        ("234m567p22s456s99s ron 9s seat=S robbing_kong", "only the robbed one"),
        (
            "234m567p2s456s (8888m) tsumo 2s seat=S riichi ippatsu kong_replacement",
            "ippatsu and kong_replacement",
        ),
    ],
)
def test_invalid_hand_reason(text: str, reason: str) -> None:
    result = riichi(text)
    assert not result.valid and reason in result.error
    assert result.details["points"] is None and result.elements == {}


def test_four_plain_fives_are_impossible_in_an_ema_set() -> None:
    result = riichi("234m567p2s456s (5555m) tsumo 2s seat=S")
    assert not result.valid and "one red five per suit" in result.error
    assert riichi("234m567p2s456s (5555m) tsumo 2s seat=S", red_fives="0").valid


def test_nagashi_mangan() -> None:
    hand = parse_hand("258m369p147s1234z tsumo 1z seat=S").with_context(
        winning_tile=None, flags=frozenset({"nagashi_mangan"}), honba=1, riichi_sticks=1
    )
    result = score(hand, resolve(OPTIONS))
    assert result.elements == {"Nagashi mangan": 5}
    assert result.details["points"] == {"tsumo_dealer_pays": 4100, "tsumo_others_pay": 2100}
    opened = score(hand.with_context(flags=frozenset({"nagashi_mangan", "last_tile"})), resolve(OPTIONS))
    assert not opened.valid and "nagashi_mangan" in opened.error
